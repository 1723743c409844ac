//! The table of commands: built-in and registered by the rules alike, each a [`CommandSpec`]
//! with one declared [`Signature`]. Its usage line, the argument list of `help` and the
//! completion of its words all come from that signature, and its words are parsed against it
//! once, before it runs.

use std::borrow::Cow;
use std::path::Path;

use super::error::CommandError;
use super::line::{CommandLine, split_words};
use super::output::Output;
use super::session::Context;
use super::signature::{Args, Kind, Next, Signature, next};

/// A command's words after parsing, with the line they came from.
#[derive(Debug)]
pub struct Invocation<'a> {
    /// The line as typed (for spans and the raw text).
    pub line: &'a CommandLine,
    /// Its words, parsed against the command's signature.
    pub args: Args,
}

/// Runs a command against the session.
pub type Run = fn(&mut Context<'_>, &Invocation<'_>) -> Result<Output, CommandError>;

/// Where a command comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// Built into umpire.
    Builtin {
        /// Whether it plays the game (adds, changes or rolls for it), and so raises a
        /// `pre_NAME` event the rules may cancel; the umpire's own controls (undo, rules,
        /// journal, dice sources, help, quit…) never do.
        game: bool,
    },
    /// Registered by the rules, at this file and line.
    Rules(String),
}

/// One command.
#[derive(Clone)]
pub struct CommandSpec {
    /// The canonical name.
    pub name: Cow<'static, str>,
    /// Other names that run it (`r` for `roll`).
    pub aliases: Vec<Cow<'static, str>>,
    /// One line for the command list.
    pub summary: Cow<'static, str>,
    /// What `help CMD` says besides the usage and the arguments.
    pub help: Cow<'static, str>,
    /// Its words.
    pub signature: Signature,
    /// Lines that show it in use (`help` lists them).
    pub examples: Vec<Cow<'static, str>>,
    /// What runs it.
    pub run: Run,
    /// Where it comes from.
    pub source: Source,
}

impl std::fmt::Debug for CommandSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CommandSpec")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl CommandSpec {
    /// Whether `name` is this command's name or one of its aliases.
    pub fn answers_to(&self, name: &str) -> bool {
        self.name == name || self.aliases.iter().any(|a| a == name)
    }

    /// The usage line, from the signature: `shoot FIRER TARGET [DISTANCE] [force]`.
    pub fn usage(&self) -> String {
        let rest = self.signature.usage();
        if rest.is_empty() {
            self.name.to_string()
        } else {
            format!("{} {rest}", self.name)
        }
    }

    /// The usage of the form picked by the sub-commands `subs` (`dice mode rng|enter`), or of
    /// the whole command.
    pub fn usage_of(&self, subs: &[String]) -> String {
        let mut sig = &self.signature;
        let mut head = self.name.to_string();
        for s in subs {
            match sig.subs.iter().find(|x| &x.name == s) {
                Some(sub) => {
                    sig = &sub.signature;
                    head.push(' ');
                    head.push_str(s);
                }
                None => break,
            }
        }
        let rest = sig.usage();
        if rest.is_empty() {
            head
        } else {
            format!("{head} {rest}")
        }
    }

    /// Whether the rules registered it.
    pub fn from_rules(&self) -> bool {
        matches!(self.source, Source::Rules(_))
    }

    /// Whether it raises a `pre_NAME` event (game commands, and every rule command).
    pub fn raises_pre(&self) -> bool {
        match self.source {
            Source::Builtin { game } => game,
            Source::Rules(_) => true,
        }
    }

    /// The whole of `help CMD` after the usage line: the summary, the help text, the
    /// arguments (from the signature), examples, aliases, and where a rule command was
    /// registered.
    pub fn long_help(&self) -> String {
        let mut out = String::new();
        out.push_str(&self.summary);
        out.push('\n');
        if !self.help.is_empty() {
            out.push_str(self.help.trim_end());
            out.push('\n');
        }
        let args = self.signature.describe();
        if !args.is_empty() {
            out.push_str(if self.signature.subs.is_empty() {
                "arguments:\n"
            } else {
                "forms:\n"
            });
            out.push_str(&args);
        }
        if !self.examples.is_empty() {
            let ex: Vec<&str> = self.examples.iter().map(|e| e.as_ref()).collect();
            out.push_str(&format!("examples: {}\n", ex.join(" · ")));
        }
        if !self.aliases.is_empty() {
            let a: Vec<&str> = self.aliases.iter().map(|a| a.as_ref()).collect();
            out.push_str(&format!("aliases: {}\n", a.join(", ")));
        }
        if let Source::Rules(origin) = &self.source {
            out.push_str(&format!("registered at {origin}\n"));
        }
        out.trim_end().to_string()
    }
}

/// What the game offers for completion, word kind by word kind (the session fills it in
/// after each command).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Words {
    /// Units still in the game.
    pub units: Vec<String>,
    /// Elements, as `UNIT.ELEMENT` (offered once the unit and its dot are typed).
    pub elements: Vec<String>,
    /// Sides.
    pub sides: Vec<String>,
    /// Commands (groups of units).
    pub groups: Vec<String>,
    /// Selector terms besides ids: `side:romans`, `marked:routed`, `all`…
    pub selector_terms: Vec<String>,
    /// Declared markers.
    pub markers: Vec<String>,
    /// Declared attributes.
    pub attrs: Vec<String>,
    /// Tables.
    pub tables: Vec<String>,
    /// Rulesets found.
    pub rulesets: Vec<String>,
    /// House rules found.
    pub house_rules: Vec<String>,
    /// The options the rules in force declare.
    pub options: Vec<String>,
    /// Games kept.
    pub games: Vec<String>,
}

/// Every command, in the order `help` lists them.
#[derive(Debug, Clone, Default)]
pub struct Commands {
    specs: Vec<CommandSpec>,
}

impl Commands {
    /// An empty table.
    pub fn new() -> Self {
        Commands::default()
    }

    /// Adds a command; a command of the same name is replaced (so reloading rules never
    /// registers one twice).
    pub fn register(&mut self, spec: CommandSpec) {
        match self.specs.iter_mut().find(|s| s.name == spec.name) {
            Some(old) => *old = spec,
            None => self.specs.push(spec),
        }
    }

    /// Keeps only the commands for which `keep` is true.
    pub fn retain(&mut self, keep: impl FnMut(&CommandSpec) -> bool) {
        self.specs.retain(keep);
    }

    /// Every command, in registration order.
    pub fn specs(&self) -> &[CommandSpec] {
        &self.specs
    }

    /// The command answering to `name` (its name or an alias).
    pub fn find(&self, name: &str) -> Option<&CommandSpec> {
        self.specs.iter().find(|s| s.answers_to(name))
    }

    /// The command name nearest to a mistyped `name`, if one is close enough to suggest.
    pub fn nearest(&self, name: &str) -> Option<&str> {
        let lower = name.to_lowercase();
        self.specs
            .iter()
            .flat_map(|s| {
                std::iter::once(&s.name)
                    .chain(&s.aliases)
                    .map(move |n| (n, s))
            })
            .map(|(n, s)| (strsim::damerau_levenshtein(&lower, n), n.len(), s))
            // At most one edit in three letters: `rol` is `roll`, but `foo` is not `log`.
            .filter(|&(d, len, _)| d <= 2 && d * 3 <= len.max(lower.chars().count()))
            .min_by_key(|&(d, ..)| d)
            .map(|(_, _, s)| s.name.as_ref())
    }

    /// Completion of the line up to the cursor: where the completed word starts and the
    /// candidates for it. The first word completes to command names; later words to what the
    /// command's signature expects there — units where a unit is wanted (the ids after a
    /// comma in a list of them too), markers, tables, files, choices and flags.
    pub fn complete(&self, line: &str, pos: usize, words: &Words) -> (usize, Vec<String>) {
        let head = &line[..pos];
        let typed = split_words(head);
        let ends_in_space = head.ends_with(char::is_whitespace) || head.is_empty();
        let (before, partial, start) = match typed.split_last() {
            Some((last, rest)) if !ends_in_space => (rest, last.text.as_str(), last.span.start),
            _ => (&typed[..], "", pos),
        };
        let Some((name, args)) = before.split_first() else {
            let mut names: Vec<String> = self
                .specs
                .iter()
                .map(|s| s.name.to_string())
                .filter(|n| n.starts_with(partial))
                .collect();
            names.dedup();
            return (start, names);
        };
        let Some(spec) = self.find(&name.text) else {
            return (start, Vec::new());
        };
        let args: Vec<&str> = args.iter().map(|w| w.text.as_str()).collect();
        let (kinds, mut found) = match next(&spec.signature, &args) {
            Next::Words(w) => (Vec::new(), w),
            Next::Values(k, w) => (k, w),
        };
        // In a list (`activate guard1,gu`, `activate bows+gu`) complete the last item.
        let (prefix, item) = match partial.rfind([',', '+']) {
            Some(i) => partial.split_at(i + 1),
            None => ("", partial),
        };
        for kind in &kinds {
            found.extend(self.values(kind, item, words));
        }
        let mut matching: Vec<String> = found
            .into_iter()
            .filter(|c| c.starts_with(item))
            .map(|c| format!("{prefix}{c}"))
            .collect();
        matching.sort();
        matching.dedup();
        (start, matching)
    }

    /// Candidates for a word of `kind`.
    fn values(&self, kind: &Kind, partial: &str, w: &Words) -> Vec<String> {
        match kind {
            Kind::Unit => w.units.clone(),
            // An element's id works too, but `UNIT.` then its elements is what a umpire
            // types: the unit first, its elements after the dot.
            Kind::Element if partial.contains('.') => w.elements.clone(),
            Kind::Element => w.units.iter().map(|u| format!("{u}.")).collect(),
            Kind::Side => w.sides.clone(),
            Kind::Group => w.groups.clone(),
            Kind::Selector => {
                let mut v = w.units.clone();
                v.extend(w.selector_terms.iter().cloned());
                if partial.contains('.') {
                    v.extend(w.elements.iter().cloned());
                }
                v
            }
            Kind::UnitWords(values) => {
                let mut v = w.units.clone();
                v.extend(values.iter().map(|s| s.to_string()));
                v
            }
            Kind::Marker => w.markers.clone(),
            Kind::Attr => w.attrs.clone(),
            Kind::Table => w.tables.clone(),
            Kind::Ruleset => w.rulesets.clone(),
            Kind::HouseRule => w.house_rules.clone(),
            Kind::OptionName => w.options.clone(),
            Kind::Game => w.games.clone(),
            Kind::CommandName => {
                let mut v: Vec<String> = self.specs.iter().map(|s| s.name.to_string()).collect();
                v.push("dice".into());
                v
            }
            Kind::File => files(partial),
            _ => Vec::new(),
        }
    }
}

/// Paths starting with `partial`: the entries of its folder (folders end with `/`).
fn files(partial: &str) -> Vec<String> {
    let (dir, _) = match partial.rfind('/') {
        Some(i) => partial.split_at(i + 1),
        None => ("", partial),
    };
    let folder = if dir.is_empty() {
        Path::new(".")
    } else {
        Path::new(dir)
    };
    let mut out: Vec<String> = std::fs::read_dir(folder)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_str()?.to_string();
            if name.starts_with('.') {
                return None;
            }
            let slash = if e.path().is_dir() { "/" } else { "" };
            Some(format!("{dir}{name}{slash}"))
        })
        .collect();
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::commands as builtins;

    fn complete(line: &str) -> Vec<String> {
        builtins::registry()
            .complete(line, line.len(), &Words::default())
            .1
    }

    #[test]
    fn first_word_completes_to_command_names() {
        assert_eq!(complete("pr"), ["prob"]);
        assert!(complete("").contains(&"roll".to_string()));
    }

    #[test]
    fn subcommands_and_their_values_complete() {
        assert_eq!(complete("dice m"), ["mode"]);
        assert_eq!(complete("dice mode e"), ["enter"]);
        assert_eq!(complete("dice mode "), ["enter", "rng"]);
        assert_eq!(complete("dice queue c"), ["clear"]);
        assert_eq!(complete("dice queue d"), ["drop"]);
        assert_eq!(complete("help di"), ["dice"]);
    }

    #[test]
    fn words_complete_by_what_the_argument_takes() {
        let w = Words {
            units: vec!["guard1".into(), "guard2".into(), "leg1".into()],
            markers: vec!["routed".into(), "shot".into()],
            tables: vec!["terrain".into()],
            selector_terms: vec!["side:red".into()],
            ..Words::default()
        };
        let r = builtins::registry();
        assert_eq!(r.complete("show gu", 7, &w).1, ["guard1", "guard2"]);
        assert_eq!(
            r.complete("show guard1,gu", 14, &w).1,
            ["guard1,guard1", "guard1,guard2"]
        );
        assert_eq!(r.complete("mark leg1 ro", 12, &w).1, ["routed"]);
        assert_eq!(r.complete("table show t", 12, &w).1, ["terrain"]);
        assert_eq!(r.complete("show s", 6, &w).1, ["side:red"]);
    }

    #[test]
    fn elements_complete_after_their_units_dot() {
        let w = Words {
            units: vec!["guard1".into(), "leg1".into()],
            elements: vec!["leg1.leg1a".into(), "leg1.leg1b".into()],
            markers: vec!["fallen".into()],
            ..Words::default()
        };
        let r = builtins::registry();
        assert_eq!(
            r.complete("mark leg1.", 10, &w).1,
            ["leg1.leg1a", "leg1.leg1b"]
        );
        assert_eq!(r.complete("set leg1.leg1b", 14, &w).1, ["leg1.leg1b"]);
        assert_eq!(r.complete("mark leg1.leg1a f", 17, &w).1, ["fallen"]);
    }

    #[test]
    fn completion_start_is_the_start_of_the_word() {
        let r = builtins::registry();
        assert_eq!(r.complete("dice mode e", 11, &Words::default()).0, 10);
        assert_eq!(r.complete("dice ", 5, &Words::default()).0, 5);
    }

    #[test]
    fn aliases_find_their_command_and_typos_find_the_nearest() {
        let r = builtins::registry();
        assert_eq!(r.find("r").unwrap().name, "roll");
        assert_eq!(r.nearest("rol"), Some("roll"));
        assert_eq!(r.nearest("porb"), Some("prob"));
        assert_eq!(r.nearest("xyzzy"), None);
        assert_eq!(r.nearest("foo"), None);
    }
}
