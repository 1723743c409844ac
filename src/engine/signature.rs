//! A command's declared shape — its [`Signature`] — and the one parser every command's words
//! go through, built-in or registered by the rules.
//!
//! A signature lists positional parameters, keyed ones (flags such as `force`, options such
//! as `until EXPIRY` or `--house NAME`) and sub-commands (`dice seed N`, `table roll NAME`).
//! From it come the usage line, the argument list of `help`, the completion of each word
//! and the parse: words are checked against their kinds (a unit must exist, a number must be
//! one) into [`Args`], and a word that fits nothing is refused. Text (a name of several
//! words, a reason) never swallows a keyed word declared after it.
//!
//! Resolving words against the game (which units a selector names) is left to the caller
//! through [`Resolve`], so this module knows nothing of the session.

use std::borrow::Cow;
use std::fmt::Write as _;

use crate::span::Span;

/// What a word (or several) of a command may be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// One unit's id.
    Unit,
    /// One element: its id, or `UNIT.ELEMENT` (the element's id or number in the unit).
    Element,
    /// One side's id.
    Side,
    /// One command's (group's) id.
    Group,
    /// One or more words naming units: ids, prefixes, `side:`, `marked:`, `all`…
    Selector,
    /// A whole number.
    Int,
    /// A number.
    Number,
    /// Words of unit ids, ids in one word joined by `+` or `,` (`pikes bows+guard`), or one
    /// of these words (`all`, `none`): each id checked and completed.
    UnitWords(Vec<Cow<'static, str>>),
    /// A distance in the unit given (a plain number), or with a unit of its own converted
    /// to it (`12"`, `30cm`).
    Distance(crate::distance::Unit),
    /// A dice expression (one word).
    Dice,
    /// One of these words (compared without case).
    Choice(Vec<Cow<'static, str>>),
    /// Present or not (keyed only).
    Flag,
    /// The rest of the line (up to the next keyed word): a name, a reason, an expression.
    Text,
    /// Any one word (a new id, a value).
    Word,
    /// A file path.
    File,
    /// A marker the schema declares.
    Marker,
    /// An attribute name.
    Attr,
    /// A table's name.
    Table,
    /// A command's name (`help CMD`).
    CommandName,
    /// A ruleset's name.
    Ruleset,
    /// A house rule's name.
    HouseRule,
    /// An option the rules declare.
    OptionName,
    /// A game kept in the games folder.
    Game,
    /// `ATTR=VALUE` words.
    Assignment,
}

impl Kind {
    /// The kind in words, for errors and `help`: `a unit`, `a whole number`.
    pub fn describe(&self) -> Cow<'static, str> {
        Cow::Borrowed(match self {
            Kind::Unit => "a unit",
            Kind::Element => "an element (ID or UNIT.ELEMENT)",
            Kind::Side => "a side",
            Kind::Group => "a command (of units)",
            Kind::Selector => "units (a selector)",
            Kind::Int => "a whole number",
            Kind::Number => "a number",
            Kind::UnitWords(v) if v.is_empty() => "unit ids (`a b`, `a+b` together)",
            Kind::UnitWords(v) => {
                return Cow::Owned(format!(
                    "unit ids (`a b`, `a+b` together) or one of {}",
                    join(v)
                ));
            }
            Kind::Distance(crate::distance::Unit::Inch) => "a distance (inches, or `30cm`)",
            Kind::Distance(crate::distance::Unit::Centimetre) => {
                "a distance (centimetres, or `12\"`)"
            }
            Kind::Dice => "dice",
            Kind::Choice(v) => return Cow::Owned(format!("one of {}", join(v))),
            Kind::Flag => "a flag",
            Kind::Text => "text",
            Kind::Word => "a word",
            Kind::File => "a file",
            Kind::Marker => "a marker",
            Kind::Attr => "an attribute",
            Kind::Table => "a table",
            Kind::CommandName => "a command's name",
            Kind::Ruleset => "a ruleset",
            Kind::HouseRule => "a house rule",
            Kind::OptionName => "an option",
            Kind::Game => "a game",
            Kind::Assignment => "ATTR=VALUE",
        })
    }
}

fn join(v: &[Cow<'static, str>]) -> String {
    v.iter().map(|c| c.as_ref()).collect::<Vec<_>>().join(", ")
}

/// A choice list longer than this is shown as a placeholder in the usage line (`[WEAPON]`),
/// its values in `help`.
const LONG_CHOICE: usize = 6;

/// One declared parameter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Param {
    /// Its name (the key in [`Args`]; upper-cased in usage lines).
    pub name: Cow<'static, str>,
    /// What it takes.
    pub kind: Kind,
    /// Whether it may be left out (flags always may).
    pub optional: bool,
    /// Whether it takes several words (`SELECTOR…`, `VALUE…`).
    pub many: bool,
    /// For a keyed parameter, the word that introduces it (`force`, `until`, `--house`);
    /// `--NAME` is accepted for `NAME` too. `None`: positional.
    pub key: Option<Cow<'static, str>>,
    /// Whether a keyed parameter may be given more than once (`--house A --house B`).
    pub repeat: bool,
    /// One line for `help`.
    pub help: Cow<'static, str>,
}

impl Param {
    /// A required positional parameter.
    pub fn new(name: impl Into<Cow<'static, str>>, kind: Kind) -> Self {
        Param {
            name: name.into(),
            kind,
            optional: false,
            many: false,
            key: None,
            repeat: false,
            help: Cow::Borrowed(""),
        }
    }

    /// A flag: the word `name` (or `--name`) present or not.
    pub fn flag(name: impl Into<Cow<'static, str>>) -> Self {
        let name = name.into();
        Param {
            key: Some(name.clone()),
            optional: true,
            ..Param::new(name, Kind::Flag)
        }
    }

    /// A keyed option: `key VALUE` (`until EXPIRY…`, `--house NAME`), optional.
    pub fn keyed(
        name: impl Into<Cow<'static, str>>,
        key: impl Into<Cow<'static, str>>,
        kind: Kind,
    ) -> Self {
        Param {
            key: Some(key.into()),
            optional: true,
            ..Param::new(name, kind)
        }
    }

    /// The same, optional.
    pub fn optional(mut self) -> Self {
        self.optional = true;
        self
    }

    /// The same, taking several words.
    pub fn many(mut self) -> Self {
        self.many = true;
        self
    }

    /// The same, repeatable (keyed parameters).
    pub fn repeat(mut self) -> Self {
        self.repeat = true;
        self
    }

    /// The same, with `help`.
    pub fn help(mut self, help: impl Into<Cow<'static, str>>) -> Self {
        self.help = help.into();
        self
    }

    /// Whether `word` introduces this keyed parameter.
    fn keyed_by(&self, word: &str) -> bool {
        let Some(key) = &self.key else { return false };
        word == key || word.strip_prefix("--") == Some(key.trim_start_matches('-'))
    }

    /// The parameter in a usage line: `FIRER`, `[MODIFIER]`, `[force]`, `[until EXPIRY…]`,
    /// `[arc|flank|rear]`, `[WEAPON]` for a long choice list.
    pub fn usage(&self) -> String {
        let value = match &self.kind {
            Kind::Flag => String::new(),
            Kind::Choice(v) if v.len() <= LONG_CHOICE && self.key.is_none() => join_bar(v),
            Kind::Text => format!("{}…", self.name.to_uppercase()),
            _ if self.many => format!("{}…", self.name.to_uppercase()),
            _ => self.name.to_uppercase(),
        };
        let word = match (&self.key, &self.kind) {
            (Some(k), Kind::Flag) => k.to_string(),
            (Some(k), _) => format!("{k} {value}"),
            (None, _) => value,
        };
        let word = if self.repeat {
            format!("{word}…")
        } else {
            word
        };
        if self.optional {
            format!("[{word}]")
        } else {
            word
        }
    }
}

fn join_bar(v: &[Cow<'static, str>]) -> String {
    v.iter().map(|c| c.as_ref()).collect::<Vec<_>>().join("|")
}

/// A sub-command: its word, a line about it, and its own signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sub {
    /// The word that picks it.
    pub name: Cow<'static, str>,
    /// One line for `help`.
    pub summary: Cow<'static, str>,
    /// Its parameters (and sub-commands).
    pub signature: Signature,
}

/// The declared shape of a command's words.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Signature {
    /// Its parameters, positional in order and keyed anywhere.
    pub params: Vec<Param>,
    /// Its sub-commands; when there are some, the first word picks one.
    pub subs: Vec<Sub>,
    /// With sub-commands: whether the command may be given without one (`dice` alone).
    pub bare: bool,
}

impl Signature {
    /// A signature with `params`.
    pub fn new(params: Vec<Param>) -> Self {
        Signature {
            params,
            subs: Vec::new(),
            bare: false,
        }
    }

    /// A signature of sub-commands; `bare` if the command alone is allowed.
    pub fn subs(bare: bool, subs: Vec<Sub>) -> Self {
        Signature {
            params: Vec::new(),
            subs,
            bare,
        }
    }

    /// The usage after the command's name: `FIRER TARGET [DISTANCE] [force]`, or for
    /// sub-commands `[seed [N] | mode rng|enter | queue …]`.
    pub fn usage(&self) -> String {
        if !self.subs.is_empty() {
            let alts: Vec<String> = self
                .subs
                .iter()
                .map(|s| {
                    let rest = s.signature.usage();
                    if rest.is_empty() {
                        s.name.to_string()
                    } else {
                        format!("{} {rest}", s.name)
                    }
                })
                .collect();
            let mut own = Signature::new(self.params.clone()).usage();
            if self.bare && self.params.len() == 1 && self.params[0].optional {
                // `[VALUES… | drop | clear]`, not `[[VALUES…] | …]`.
                own = own
                    .trim_start_matches('[')
                    .trim_end_matches(']')
                    .to_string();
            }
            let mut alts = alts;
            if !own.is_empty() {
                alts.insert(0, own);
            }
            return if self.bare {
                format!("[{}]", alts.join(" | "))
            } else {
                alts.join(" | ")
            };
        }
        let positional = self.params.iter().filter(|p| p.key.is_none());
        let keyed = self.params.iter().filter(|p| p.key.is_some());
        positional
            .chain(keyed)
            .map(Param::usage)
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The argument list of `help`: one line per parameter (and per sub-command), with its
    /// kind, whether it may be left out, and its help; long choice lists in full.
    pub fn describe(&self) -> String {
        let mut out = String::new();
        for s in &self.subs {
            let u = s.signature.usage();
            let head = if u.is_empty() {
                s.name.to_string()
            } else {
                format!("{} {u}", s.name)
            };
            let _ = writeln!(out, "  {head}");
            if !s.summary.is_empty() {
                let _ = writeln!(out, "      {}", s.summary);
            }
        }
        let names: Vec<String> = self
            .params
            .iter()
            .map(|p| match &p.key {
                Some(k) => k.to_string(),
                None => p.name.to_uppercase(),
            })
            .collect();
        let width = names
            .iter()
            .map(|n| n.chars().count())
            .max()
            .unwrap_or(0)
            .max(12);
        for (p, name) in self.params.iter().zip(&names) {
            let kind = if p.kind == Kind::Flag {
                "a flag".into()
            } else {
                p.kind.describe()
            };
            let opt = if p.optional && p.kind != Kind::Flag {
                ", optional"
            } else {
                ""
            };
            let _ = write!(out, "  {name:<width$} {kind}{opt}");
            if !p.help.is_empty() {
                let _ = write!(out, " — {}", p.help);
            }
            out.push('\n');
        }
        out
    }
}

/// A word of a command line and where it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Word<'a> {
    /// The word, unquoted.
    pub text: &'a str,
    /// Its bytes in the line.
    pub span: Span,
}

/// One parsed value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A flag given (absent flags are not in [`Args`]).
    Flag,
    /// A whole number.
    Int(i64),
    /// A number.
    Num(f64),
    /// A word or text, as typed.
    Text(String),
    /// Ids: one for a unit, side or group, the units a selector named.
    Ids(Vec<String>),
    /// Several words (`many`), as typed.
    Words(Vec<String>),
}

/// One parsed parameter: its value and where it was typed.
#[derive(Debug, Clone, PartialEq)]
pub struct Arg {
    /// The parameter's name.
    pub name: String,
    /// The value.
    pub value: Value,
    /// Where it was typed in the line (all its words).
    pub span: Span,
}

/// A command's words, parsed against its signature.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Args {
    /// The sub-commands chosen, outermost first (`["queue"]` for `dice queue 4 3`).
    pub subs: Vec<String>,
    /// The parameters given, in the order they were typed (a repeated option once each).
    pub args: Vec<Arg>,
}

impl Args {
    /// The parameter `name`, if given.
    pub fn get(&self, name: &str) -> Option<&Arg> {
        self.args.iter().find(|a| a.name == name)
    }

    /// Every value of a repeated parameter.
    pub fn all(&self, name: &str) -> impl Iterator<Item = &Arg> {
        self.args.iter().filter(move |a| a.name == name)
    }

    /// Whether the flag `name` was given.
    pub fn flag(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// The text or word `name`.
    pub fn text(&self, name: &str) -> Option<&str> {
        match &self.get(name)?.value {
            Value::Text(t) => Some(t),
            _ => None,
        }
    }

    /// The whole number `name`.
    pub fn int(&self, name: &str) -> Option<i64> {
        match self.get(name)?.value {
            Value::Int(i) => Some(i),
            _ => None,
        }
    }

    /// The number `name`.
    pub fn num(&self, name: &str) -> Option<f64> {
        match self.get(name)?.value {
            Value::Num(n) => Some(n),
            Value::Int(i) => Some(i as f64),
            _ => None,
        }
    }

    /// The ids `name` resolved to (one for a unit, several for a selector).
    pub fn ids(&self, name: &str) -> &[String] {
        match self.get(name).map(|a| &a.value) {
            Some(Value::Ids(ids)) => ids,
            _ => &[],
        }
    }

    /// The words of a `many` parameter.
    pub fn words(&self, name: &str) -> &[String] {
        match self.get(name).map(|a| &a.value) {
            Some(Value::Words(w)) => w,
            _ => &[],
        }
    }

    /// The sub-command chosen at depth 0, if any.
    pub fn sub(&self) -> Option<&str> {
        self.subs.first().map(String::as_str)
    }
}

/// Why a command's words do not fit its signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// What is wrong, for the umpire.
    pub message: String,
    /// How to fix it, when there is more to say than the usage line.
    pub help: Option<String>,
    /// Where in the line.
    pub span: Span,
    /// Whether the usage line helps (the words do not fit the shape).
    pub usage: bool,
    /// The sub-commands chosen before the error (their usage is the one to show).
    pub subs: Vec<String>,
}

impl ParseError {
    fn usage(message: impl Into<String>, span: Span) -> Self {
        ParseError {
            message: message.into(),
            help: None,
            span,
            usage: true,
            subs: Vec::new(),
        }
    }

    fn invalid(message: impl Into<String>, help: Option<String>, span: Span) -> Self {
        ParseError {
            message: message.into(),
            help,
            span,
            usage: false,
            subs: Vec::new(),
        }
    }
}

/// How words that name things in the game are checked and resolved: the session provides
/// it. Each method returns what the word names, or why it names nothing.
pub trait Resolve {
    /// The unit, element, side or group (as `kind` says) `word` names: its id.
    fn id(&self, kind: &Kind, word: &str) -> Result<String, (String, Option<String>)>;
    /// The units a selector of `text` names.
    fn select(&self, text: &str) -> Result<Vec<String>, (String, Option<String>, Span)>;
    /// Whether `word` could name something of `kind` (for skipping optional parameters):
    /// by default, whether [`Resolve::id`] finds it.
    fn fits(&self, kind: &Kind, word: &str) -> bool {
        self.id(kind, word).is_ok()
    }
}

/// A resolver that knows no game: ids are taken as typed and every word fits (for
/// completion and for tests).
#[derive(Debug, Clone, Copy, Default)]
pub struct NoGame;

impl Resolve for NoGame {
    fn id(&self, _: &Kind, word: &str) -> Result<String, (String, Option<String>)> {
        Ok(word.to_string())
    }

    fn select(&self, text: &str) -> Result<Vec<String>, (String, Option<String>, Span)> {
        Ok(text.split_whitespace().map(str::to_string).collect())
    }
}

/// Whether `word` has the shape of `kind` (without asking the game).
fn shape_fits(kind: &Kind, word: &str) -> bool {
    match kind {
        Kind::Int => word.parse::<i64>().is_ok(),
        Kind::Number => word.parse::<f64>().is_ok_and(f64::is_finite),
        Kind::Distance(u) => crate::distance::parse(word, *u).is_ok(),
        Kind::Dice => crate::dice::parse(word).is_ok(),
        Kind::Choice(v) => v.iter().any(|c| c.eq_ignore_ascii_case(word)),
        Kind::Assignment => word.contains('=') && !word.starts_with('='),
        Kind::Flag => false,
        _ => true,
    }
}

/// Parses `words` (the words after the command's name) of a line against `sig`. `line` is
/// the whole line (texts are taken from it as typed); `name` is the command's name, for
/// messages.
pub fn parse(
    sig: &Signature,
    name: &str,
    line: &str,
    words: &[Word<'_>],
    game: &dyn Resolve,
) -> Result<Args, ParseError> {
    let mut args = Args::default();
    parse_into(sig, name, line, words, game, &mut args).map_err(|mut e| {
        e.subs = args.subs.clone();
        e
    })?;
    Ok(args)
}

fn parse_into(
    sig: &Signature,
    name: &str,
    line: &str,
    words: &[Word<'_>],
    game: &dyn Resolve,
    args: &mut Args,
) -> Result<(), ParseError> {
    let mut sig = sig;
    let mut words = words;
    // Sub-commands: the first word picks one.
    while !sig.subs.is_empty() {
        let Some(first) = words.first() else {
            if sig.bare {
                return Ok(());
            }
            let end = line.trim_end().len();
            return Err(ParseError::usage(
                format!("choose one of {}", sub_names(sig)),
                Span::point(end),
            ));
        };
        let Some(sub) = sig
            .subs
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(first.text))
        else {
            if !sig.params.is_empty() {
                // Not a sub-command: the command's own parameters (`dice queue 4 3 5`).
                break;
            }
            let names: Vec<&str> = sig.subs.iter().map(|s| s.name.as_ref()).collect();
            let near = crate::state::error::nearest(first.text, names.iter().copied());
            return Err(ParseError {
                message: format!("`{}` is not one of {}", first.text, sub_names(sig)),
                help: near.first().map(|n| format!("did you mean `{n}`?")),
                span: first.span,
                usage: true,
                subs: Vec::new(),
            });
        };
        args.subs.push(sub.name.to_string());
        sig = &sub.signature;
        words = &words[1..];
    }
    // Keyed parameters first: each key word and what it takes come out of the word list.
    let mut rest: Vec<Word<'_>> = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        let Some(p) = sig.params.iter().find(|p| p.keyed_by(w.text)) else {
            rest.push(w);
            i += 1;
            continue;
        };
        if !p.repeat && args.get(&p.name).is_some() {
            return Err(ParseError::usage(
                format!("`{}` is given twice", w.text),
                w.span,
            ));
        }
        if p.kind == Kind::Flag {
            args.args.push(Arg {
                name: p.name.to_string(),
                value: Value::Flag,
                span: w.span,
            });
            i += 1;
            continue;
        }
        // Its value: one word, or (text, many) up to the next keyed word.
        let mut j = i + 1;
        let stop = |w: &Word<'_>| sig.params.iter().any(|q| q.keyed_by(w.text));
        if p.kind == Kind::Text || p.many {
            while j < words.len() && !stop(&words[j]) {
                j += 1;
            }
        } else if j < words.len() && !stop(&words[j]) {
            j += 1;
        }
        let taken = &words[i + 1..j];
        if taken.is_empty() {
            return Err(ParseError::usage(
                format!("`{}` needs {} after it", w.text, p.kind.describe()),
                Span::point(w.span.end),
            ));
        }
        args.args.push(value_of(p, line, taken, game)?);
        i = j;
    }
    // Positional parameters, in order; an optional one the word does not fit is skipped.
    let positional: Vec<&Param> = sig.params.iter().filter(|p| p.key.is_none()).collect();
    let mut k = 0; // next positional
    let mut i = 0; // next word
    while i < rest.len() {
        let w = rest[i];
        let first_skipped = k;
        while k < positional.len()
            && positional[k].optional
            && if positional[k].kind == Kind::Text {
                // Optional text before `ATTR=VALUE` words: absent when they start at once.
                positional
                    .get(k + 1)
                    .is_some_and(|q| q.kind == Kind::Assignment)
                    && shape_fits(&Kind::Assignment, w.text)
            } else {
                !fits(positional[k], w.text, game)
            }
        {
            k += 1;
        }
        let Some(p) = positional.get(k) else {
            let extra = &rest[i..];
            let span = Span::new(extra[0].span.start, extra[extra.len() - 1].span.end);
            let text = &line[span.start..span.end];
            if let Some(skipped) = positional.get(first_skipped) {
                // The word was meant for an optional parameter it does not fit.
                return Err(value_of(skipped, line, &rest[i..=i], game)
                    .err()
                    .unwrap_or_else(|| ParseError::usage(format!("unexpected `{text}`"), span)));
            }
            let who = std::iter::once(name)
                .chain(args.subs.iter().map(String::as_str))
                .collect::<Vec<_>>()
                .join(" ");
            return Err(ParseError::usage(
                format!(
                    "`{who}` takes {}: `{text}` is too much (drop it)",
                    match positional.len() {
                        0 => "no arguments".to_string(),
                        1 => "at most one argument".to_string(),
                        n => format!("at most {n} arguments"),
                    }
                ),
                span,
            ));
        };
        // How many words it takes: text takes the rest; `many` takes all but what the
        // required parameters after it need.
        let after_required = positional[k + 1..].iter().filter(|q| !q.optional).count();
        let end = if p.kind == Kind::Text {
            // Up to the `ATTR=VALUE` words of an assignment parameter after it, if any.
            match positional.get(k + 1) {
                Some(q) if q.kind == Kind::Assignment => (i + 1..rest.len())
                    .find(|&j| shape_fits(&Kind::Assignment, rest[j].text))
                    .unwrap_or(rest.len()),
                _ => rest.len(),
            }
        } else if p.many {
            let mut e = i + 1;
            while e < rest.len()
                && rest.len() - e > after_required
                && (p.kind == Kind::Selector || shape_fits(&p.kind, rest[e].text))
            {
                e += 1;
            }
            e
        } else {
            i + 1
        };
        args.args.push(value_of(p, line, &rest[i..end], game)?);
        i = end;
        k += 1;
    }
    if let Some(missing) = positional[k.min(positional.len())..]
        .iter()
        .find(|p| !p.optional)
    {
        let at = rest
            .last()
            .or(words.last())
            .map_or(line.trim_end().len(), |w| w.span.end);
        let what = if missing.help.is_empty() {
            format!(" ({})", missing.kind.describe())
        } else {
            format!(": {}", missing.help)
        };
        return Err(ParseError::usage(
            format!("{} is missing{what}", missing.name.to_uppercase()),
            Span::point(at),
        ));
    }
    Ok(())
}

fn sub_names(sig: &Signature) -> String {
    sig.subs
        .iter()
        .map(|s| format!("`{}`", s.name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether `word` can be the (first) value of `p`.
fn fits(p: &Param, word: &str, game: &dyn Resolve) -> bool {
    match &p.kind {
        Kind::Unit | Kind::Element | Kind::Side | Kind::Group => game.fits(&p.kind, word),
        Kind::Selector => game.select(word).is_ok(),
        Kind::UnitWords(values) => {
            values.iter().any(|v| v.eq_ignore_ascii_case(word))
                || word
                    .split(['+', ','])
                    .all(|id| !id.is_empty() && game.fits(&Kind::Unit, id))
        }
        k => shape_fits(k, word),
    }
}

/// The value of `p` from `words` (at least one).
fn value_of(
    p: &Param,
    line: &str,
    words: &[Word<'_>],
    game: &dyn Resolve,
) -> Result<Arg, ParseError> {
    let span = Span::new(words[0].span.start, words[words.len() - 1].span.end);
    let typed = &line[span.start..span.end];
    let name = p.name.to_string();
    let arg = |value| {
        Ok(Arg {
            name: name.clone(),
            value,
            span,
        })
    };
    let bad = |w: &Word<'_>, what: String| {
        Err(ParseError::invalid(
            format!(
                "{}: expected {what}, found `{}`",
                p.name.to_uppercase(),
                w.text
            ),
            None,
            w.span,
        ))
    };
    match &p.kind {
        // One quoted word is its text without the quotes (`add command red r1 "Red foot"`).
        Kind::Text if words.len() == 1 && typed.starts_with('"') => {
            arg(Value::Text(words[0].text.to_string()))
        }
        Kind::Text => arg(Value::Text(typed.to_string())),
        Kind::Selector => match game.select(typed) {
            Ok(ids) => arg(Value::Ids(ids)),
            Err((message, help, at)) => {
                Err(ParseError::invalid(message, help, at.shift(span.start)))
            }
        },
        _ if p.many => {
            for w in words {
                if !fits(p, w.text, game) {
                    return bad(w, p.kind.describe().into_owned());
                }
            }
            let lower = matches!(p.kind, Kind::UnitWords(_));
            arg(Value::Words(
                words
                    .iter()
                    .map(|w| {
                        if lower {
                            w.text.to_lowercase()
                        } else {
                            w.text.to_string()
                        }
                    })
                    .collect(),
            ))
        }
        Kind::Unit | Kind::Element | Kind::Side | Kind::Group => {
            match game.id(&p.kind, words[0].text) {
                Ok(id) => arg(Value::Ids(vec![id])),
                Err((message, help)) => Err(ParseError::invalid(
                    format!("{}: {message}", p.name.to_uppercase()),
                    help,
                    span,
                )),
            }
        }
        Kind::Int => match words[0].text.parse::<i64>() {
            Ok(n) => arg(Value::Int(n)),
            Err(_) => bad(&words[0], "a whole number".into()),
        },
        Kind::Number => match words[0].text.parse::<f64>() {
            Ok(n) if n.is_finite() => arg(Value::Num(n)),
            _ => bad(&words[0], "a number".into()),
        },
        Kind::Distance(u) => match crate::distance::parse(words[0].text, *u) {
            Ok(d) => arg(Value::Num(d.value)),
            Err(e) => Err(ParseError::invalid(
                format!("{}: {e}", p.name.to_uppercase()),
                Some(format!(
                    "type the distance measured, as `12`, `12\"` or `30cm` (a plain number is in {})",
                    u.plural()
                )),
                span,
            )),
        },
        Kind::Dice => match crate::dice::parse(words[0].text) {
            Ok(_) => arg(Value::Text(words[0].text.to_string())),
            Err(e) => Err(ParseError::invalid(
                format!("{}: {e}", p.name.to_uppercase()),
                e.help(),
                e.span.shift(span.start),
            )),
        },
        Kind::Choice(v) => match v.iter().find(|c| c.eq_ignore_ascii_case(words[0].text)) {
            Some(c) => arg(Value::Text(c.to_string())),
            None => {
                let near =
                    crate::state::error::nearest(words[0].text, v.iter().map(|c| c.as_ref()));
                Err(ParseError::invalid(
                    format!(
                        "{}: expected one of {}, found `{}`",
                        p.name.to_uppercase(),
                        join(v),
                        words[0].text
                    ),
                    near.first().map(|n| format!("did you mean `{n}`?")),
                    span,
                ))
            }
        },
        Kind::Assignment => {
            if shape_fits(&Kind::Assignment, words[0].text) {
                arg(Value::Text(words[0].text.to_string()))
            } else {
                bad(&words[0], "ATTR=VALUE".into())
            }
        }
        Kind::Flag => arg(Value::Flag),
        _ => arg(Value::Text(words[0].text.to_string())),
    }
}

/// What the next word of a command could be, given the words typed before it: the kinds of
/// parameter it may fill (for completion), or the sub-commands' names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Next {
    /// One of these words (sub-commands, choices, flags).
    Words(Vec<String>),
    /// A value of these kinds (the caller offers ids, files…), plus these words.
    Values(Vec<Kind>, Vec<String>),
}

/// What may come after `before` (the words typed after the command's name), for completion.
pub fn next(sig: &Signature, before: &[&str]) -> Next {
    let mut sig = sig;
    let mut before = before;
    while !sig.subs.is_empty() {
        let Some((first, rest)) = before.split_first() else {
            let subs: Vec<String> = sig.subs.iter().map(|s| s.name.to_string()).collect();
            if sig.params.is_empty() {
                return Next::Words(subs);
            }
            return match next(&Signature::new(sig.params.clone()), &[]) {
                Next::Values(k, mut w) => {
                    w.splice(0..0, subs);
                    Next::Values(k, w)
                }
                Next::Words(mut w) => {
                    w.splice(0..0, subs);
                    Next::Words(w)
                }
            };
        };
        let Some(sub) = sig.subs.iter().find(|s| s.name.eq_ignore_ascii_case(first)) else {
            if sig.params.is_empty() {
                return Next::Words(Vec::new());
            }
            break;
        };
        sig = &sub.signature;
        before = rest;
    }
    // A keyed parameter waiting for its value?
    if let Some(last) = before.last()
        && let Some(p) = sig
            .params
            .iter()
            .find(|p| p.keyed_by(last) && p.kind != Kind::Flag)
    {
        return values(&p.kind, Vec::new());
    }
    // Walk the positional words as parse would (roughly: without the game).
    let positional: Vec<&Param> = sig.params.iter().filter(|p| p.key.is_none()).collect();
    let plain: Vec<&str> = {
        let mut out = Vec::new();
        let mut skip = 0;
        for w in before {
            if skip > 0 {
                skip -= 1;
                continue;
            }
            match sig.params.iter().find(|p| p.keyed_by(w)) {
                Some(p) if p.kind != Kind::Flag && !p.many && p.kind != Kind::Text => skip = 1,
                Some(_) => {}
                None => out.push(*w),
            }
        }
        out
    };
    let mut k = 0;
    let mut in_many = false;
    for w in &plain {
        while k < positional.len() && positional[k].optional && !shape_fits(&positional[k].kind, w)
        {
            k += 1;
        }
        match positional.get(k) {
            Some(p) if p.kind == Kind::Text => return Next::Values(Vec::new(), Vec::new()),
            Some(p) if p.many => in_many = true,
            Some(_) => k += 1,
            None => {}
        }
    }
    let flags: Vec<String> = sig
        .params
        .iter()
        .filter(|p| {
            p.key.is_some() && (p.repeat || !before.contains(&p.key.as_deref().unwrap_or("")))
        })
        .filter_map(|p| p.key.as_ref().map(|k| k.to_string()))
        .collect();
    let mut kinds = Vec::new();
    let mut words = Vec::new();
    // The parameter the next word may fill; after the words of a `many` one, it or the
    // one after; optional ones do not stop the list.
    for p in positional.iter().skip(k) {
        match &p.kind {
            Kind::Choice(v) => words.extend(v.iter().map(|c| c.to_string())),
            other => kinds.push(other.clone()),
        }
        if !(p.optional || in_many && p.many) {
            break;
        }
    }
    words.extend(flags);
    Next::Values(kinds, words)
}

/// The values of `kind` as completion wants them.
fn values(kind: &Kind, mut words: Vec<String>) -> Next {
    match kind {
        Kind::Choice(v) => {
            words.extend(v.iter().map(|c| c.to_string()));
            Next::Words(words)
        }
        k => Next::Values(vec![k.clone()], words),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<Word<'_>> {
        let mut out = Vec::new();
        let mut start = None;
        for (i, c) in line
            .char_indices()
            .chain(std::iter::once((line.len(), ' ')))
        {
            match (c.is_whitespace(), start) {
                (false, None) => start = Some(i),
                (true, Some(s)) => {
                    out.push(Word {
                        text: &line[s..i],
                        span: Span::new(s, i),
                    });
                    start = None;
                }
                _ => {}
            }
        }
        out
    }

    /// Parses `line` (whose first word is the command's name) against `sig`.
    fn p(sig: &Signature, line: &str) -> Result<Args, ParseError> {
        let w = words(line);
        parse(sig, w[0].text, line, &w[1..], &NoGame)
    }

    fn choice(v: &[&'static str]) -> Kind {
        Kind::Choice(v.iter().map(|s| Cow::Borrowed(*s)).collect())
    }

    fn shoot() -> Signature {
        Signature::new(vec![
            Param::new("firer", Kind::Unit),
            Param::new("target", Kind::Unit),
            Param::new("distance", Kind::Number).optional(),
            Param::new("arc", choice(&["front", "flank", "rear"])).optional(),
            Param::flag("force"),
        ])
    }

    #[test]
    fn positional_optional_and_flags_parse_in_any_order_of_flags() {
        let a = p(&shoot(), "shoot arc1 war7 8 flank force").unwrap();
        assert_eq!(a.ids("firer"), ["arc1"]);
        assert_eq!(a.num("distance"), Some(8.0));
        assert_eq!(a.text("arc"), Some("flank"));
        assert!(a.flag("force"));
        let a = p(&shoot(), "shoot --force arc1 war7 rear").unwrap();
        assert!(a.flag("force") && a.num("distance").is_none());
        assert_eq!(a.text("arc"), Some("rear"));
    }

    #[test]
    fn extra_words_are_refused_and_missing_ones_named() {
        let e = p(&shoot(), "shoot arc1 war7 8 flank extra words").unwrap_err();
        assert!(e.message.contains("`extra words` is too much"), "{e:?}");
        assert_eq!(e.span, Span::new(24, 35));
        let e = p(&shoot(), "shoot arc1").unwrap_err();
        assert_eq!(e.message, "TARGET is missing (a unit)");
        let e = p(&shoot(), "shoot arc1 war7 8 sideways").unwrap_err();
        assert!(
            e.message.contains("expected one of front, flank, rear"),
            "{e:?}"
        );
        let e = p(&Signature::default(), "next now").unwrap_err();
        assert_eq!(
            e.message,
            "`next` takes no arguments: `now` is too much (drop it)"
        );
    }

    #[test]
    fn an_element_parameter_takes_one_word_and_skips_when_optional() {
        let sig = Signature::new(vec![
            Param::new("soldier", Kind::Element),
            Param::new("n", Kind::Int).optional(),
        ]);
        let a = p(&sig, "wound sq1.2 3").unwrap();
        assert_eq!(a.ids("soldier"), ["sq1.2"]);
        assert_eq!(a.int("n"), Some(3));
        let e = p(&sig, "wound").unwrap_err();
        assert_eq!(
            e.message,
            "SOLDIER is missing (an element (ID or UNIT.ELEMENT))"
        );
        assert_eq!(Kind::Element.describe(), "an element (ID or UNIT.ELEMENT)");
    }

    #[test]
    fn text_stops_at_a_keyed_word() {
        let sig = Signature::new(vec![
            Param::new("units", Kind::Selector),
            Param::new("place", Kind::Text),
            Param::flag("force"),
        ]);
        let a = p(&sig, "ambush chariot1,chariot2 the wood by the river force").unwrap();
        assert_eq!(a.text("place"), Some("the wood by the river"));
        assert!(a.flag("force"));
    }

    #[test]
    fn many_words_leave_the_required_ones_after_them() {
        let sig = Signature::new(vec![
            Param::new("units", Kind::Selector).many(),
            Param::new("marker", Kind::Marker),
            Param::keyed("expiry", "until", Kind::Text),
        ]);
        let a = p(&sig, "mark a b c routed until end of round").unwrap();
        assert_eq!(a.ids("units"), ["a", "b", "c"]);
        assert_eq!(a.text("marker"), Some("routed"));
        assert_eq!(a.text("expiry"), Some("end of round"));
        let values = Signature::new(vec![Param::new("values", Kind::Int).many()]);
        assert_eq!(
            p(&values, "queue 4 3 5").unwrap().words("values"),
            ["4", "3", "5"]
        );
        assert!(p(&values, "queue 4 x").unwrap_err().message.contains("`x`"));
    }

    fn dice() -> Signature {
        Signature::subs(
            true,
            vec![
                Sub {
                    name: "seed".into(),
                    summary: "restart the generator".into(),
                    signature: Signature::new(vec![Param::new("n", Kind::Int).optional()]),
                },
                Sub {
                    name: "mode".into(),
                    summary: "".into(),
                    signature: Signature::new(vec![Param::new("mode", choice(&["rng", "enter"]))]),
                },
            ],
        )
    }

    #[test]
    fn sub_commands_pick_their_own_signature() {
        assert_eq!(p(&dice(), "dice").unwrap().subs, Vec::<String>::new());
        let a = p(&dice(), "dice seed 42").unwrap();
        assert_eq!((a.sub(), a.int("n")), (Some("seed"), Some(42)));
        let e = p(&dice(), "dice sede 4").unwrap_err();
        assert_eq!(e.help.as_deref(), Some("did you mean `seed`?"));
        assert_eq!(dice().usage(), "[seed [N] | mode rng|enter]");
    }

    #[test]
    fn a_command_with_sub_commands_may_take_its_own_words_too() {
        let queue = Signature {
            params: vec![Param::new("values", Kind::Int).many().optional()],
            subs: vec![Sub {
                name: "clear".into(),
                summary: "".into(),
                signature: Signature::default(),
            }],
            bare: true,
        };
        assert_eq!(p(&queue, "queue 4 3").unwrap().words("values"), ["4", "3"]);
        assert_eq!(p(&queue, "queue clear").unwrap().sub(), Some("clear"));
        assert_eq!(queue.usage(), "[VALUES… | clear]");
        let add = Signature::new(vec![
            Param::new("id", Kind::Word),
            Param::new("name", Kind::Text).optional(),
            Param::new("attrs", Kind::Assignment).many().optional(),
        ]);
        let a = p(&add, "add leg1 Legio IX sp=6 type=INF/A").unwrap();
        assert_eq!(a.text("name"), Some("Legio IX"));
        assert_eq!(a.words("attrs"), ["sp=6", "type=INF/A"]);
        let a = p(&add, "add leg1 sp=6").unwrap();
        assert_eq!(
            (a.text("name"), a.words("attrs")),
            (None, &["sp=6".to_string()][..])
        );
    }

    #[test]
    fn usage_lines_come_from_the_signature() {
        assert_eq!(
            shoot().usage(),
            "FIRER TARGET [DISTANCE] [front|flank|rear] [force]"
        );
        let long = Signature::new(vec![
            Param::new(
                "weapon",
                choice(&["bow", "sling", "musket", "rifle", "mg", "smg", "atgw"]),
            )
            .optional(),
        ]);
        assert_eq!(long.usage(), "[WEAPON]");
        assert!(
            long.describe()
                .contains("one of bow, sling, musket, rifle, mg, smg, atgw")
        );
        let house = Signature::new(vec![
            Param::keyed("house", "--house", Kind::HouseRule).repeat(),
        ]);
        assert_eq!(house.usage(), "[--house HOUSE…]");
        let a = p(&house, "use --house a --house b").unwrap();
        assert_eq!(a.all("house").count(), 2);
    }

    #[test]
    fn completion_knows_what_comes_next() {
        assert_eq!(
            next(&dice(), &[]),
            Next::Words(vec!["seed".into(), "mode".into()])
        );
        assert_eq!(
            next(&dice(), &["mode"]),
            Next::Values(vec![], vec!["rng".into(), "enter".into()])
        );
        match next(&shoot(), &["arc1"]) {
            Next::Values(k, w) => {
                assert_eq!(k, [Kind::Unit]);
                assert_eq!(w, ["force"]);
            }
            other => panic!("{other:?}"),
        }
        match next(&shoot(), &["arc1", "war7"]) {
            Next::Values(k, w) => {
                assert_eq!(k, [Kind::Number]);
                assert!(w.contains(&"flank".to_string()) && w.contains(&"force".to_string()));
            }
            other => panic!("{other:?}"),
        }
        match next(&shoot(), &["arc1", "war7", "force"]) {
            Next::Values(_, w) => assert!(!w.contains(&"force".to_string())),
            other => panic!("{other:?}"),
        }
    }
}
