//! Selectors: which units a command acts on, as typed by the umpire.
//!
//! ```text
//! leg1                 a unit id, or a unique prefix of an id or a name
//! romans  left         a side or command id: all its units
//! side:romans          the units of a side (id or name prefix)
//! team:allies          the units of every side in a team (allied players, `team`)
//! command:left         the units of a command
//! type:INF*            attribute glob (`*`, `?`; case-insensitive; any item of a list)
//! sp<3  sp>=6  quality=elite  flank!=true
//! marked:routed  unmarked:activated
//! marked:routed|out_of_command  off_table=eliminated|routed_off  type:INF*|CAV*
//! all
//! ```
//!
//! Names (bare words) are a union: `leg1 leg2` selects both. Every other term filters, and
//! all filters must hold: `side:romans type:INF* sp<3`. Within a term, `|` lists
//! alternatives: a test holds if any of them does (`marked:a|b`: marked with either), and a
//! negative one (`unmarked:a|b`, `quality!=green|trained`) if none does. Parsing
//! ([`Selector::parse`]) only checks syntax; [`Selector::resolve`] checks names against a
//! game and errors point at the term (a [`Span`] of the input) with the nearest names.
//! [`Selector::count`] counts what a selector picks without listing it.

use serde::Serialize;

use super::error::{StateError, StateErrorKind, nearest};
use super::game::{Game, Kind, Unit};
use super::id::Id;
use super::value::Value;
use crate::span::Span;

/// A comparison in an attribute test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum CmpOp {
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `=`
    Eq,
    /// `!=`
    Ne,
}

impl CmpOp {
    fn holds(self, ord: std::cmp::Ordering) -> bool {
        use std::cmp::Ordering::*;
        match self {
            CmpOp::Lt => ord == Less,
            CmpOp::Le => ord != Greater,
            CmpOp::Gt => ord == Greater,
            CmpOp::Ge => ord != Less,
            CmpOp::Eq => ord == Equal,
            CmpOp::Ne => ord != Equal,
        }
    }
}

/// One term of a selector.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum TermKind {
    /// `all`.
    All,
    /// A unit id or a unique prefix of an id or name; or a side or command id.
    Name(String),
    /// `side:X`.
    Side(String),
    /// `command:X`.
    Command(String),
    /// `team:X`: the units of every side in team X.
    Team(String),
    /// `marked:X`.
    Marked(String),
    /// `unmarked:X`.
    Unmarked(String),
    /// `attr:glob`.
    Glob {
        /// The attribute.
        attr: String,
        /// The pattern.
        pattern: String,
    },
    /// `attr<op>value`.
    Compare {
        /// The attribute.
        attr: String,
        /// The comparison.
        op: CmpOp,
        /// The value as typed.
        value: String,
    },
}

/// A term and where it was typed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Term {
    /// What it tests.
    pub kind: TermKind,
    /// Its bytes in the input.
    pub span: Span,
}

/// A parsed selector.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Selector {
    /// The text as typed.
    pub text: String,
    /// Its terms.
    pub terms: Vec<Term>,
}

pub(crate) const PREFIXES: [&str; 5] = ["side:", "team:", "command:", "marked:", "unmarked:"];

fn is_attr_name(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some('a'..='z' | 'A'..='Z' | '_'))
        && c.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn syntax(message: String, span: Span) -> StateError {
    StateError::from(StateErrorKind::Selector(message)).with_span(span)
}

impl Selector {
    /// Parses `text` (terms separated by spaces or commas); checks syntax only.
    pub fn parse(text: &str) -> Result<Selector, StateError> {
        let mut terms = Vec::new();
        let mut start = None;
        for (i, c) in text.char_indices().chain([(text.len(), ' ')]) {
            let sep = c.is_whitespace() || c == ',';
            match (start, sep) {
                (None, false) => start = Some(i),
                (Some(s), true) => {
                    terms.push(parse_term(&text[s..i], Span::new(s, i))?);
                    start = None;
                }
                _ => {}
            }
        }
        if terms.is_empty() {
            return Err(syntax(
                "expected units: an id, `side:NAME`, `type:INF*`, `sp<3`, `marked:routed` or `all`"
                    .into(),
                Span::point(0),
            ));
        }
        Ok(Selector {
            text: text.trim().to_string(),
            terms,
        })
    }

    /// The units selected in `game`, in display order (names first in the order typed, when
    /// the selector names units). An empty result is an error.
    pub fn resolve<'g>(&self, game: &'g Game) -> Result<Vec<&'g Unit>, StateError> {
        // Start from the named units, or from a side or command, or from every unit.
        let mut named: Vec<&Unit> = Vec::new();
        let mut any_name = false;
        for t in &self.terms {
            if let TermKind::Name(n) = &t.kind {
                any_name = true;
                for u in resolve_name(game, n).map_err(|e| e.with_span(t.span))? {
                    if !named.iter().any(|x| x.id == u.id) {
                        named.push(u);
                    }
                }
            }
        }
        let mut base: Option<Vec<&Unit>> = any_name.then_some(named);
        let mut filters = Vec::new();
        for t in &self.terms {
            match &t.kind {
                TermKind::Side(s) if base.is_none() && !s.contains('|') => {
                    let side = find_group(game, Kind::Side, s).map_err(|e| e.with_span(t.span))?;
                    let side = game.side(side.as_str()).expect("found");
                    base = Some(
                        game.commands_of(side)
                            .flat_map(|c| game.units_of(c))
                            .collect(),
                    );
                }
                TermKind::Command(c) if base.is_none() && !c.contains('|') => {
                    let c = find_group(game, Kind::Command, c).map_err(|e| e.with_span(t.span))?;
                    base = Some(
                        game.units_of(game.command(c.as_str()).expect("found"))
                            .collect(),
                    );
                }
                TermKind::Name(_) | TermKind::All => {}
                _ => filters.push(Filter::new(game, t)?),
            }
        }
        let base = base.unwrap_or_else(|| game.units().collect());
        let out: Vec<&Unit> = base
            .into_iter()
            .filter(|u| filters.iter().all(|f| f.matches(u)))
            .collect();
        if out.is_empty() {
            return Err(StateError::from(StateErrorKind::NoMatch {
                selector: self.text.clone(),
            })
            .with_span(Span::new(0, self.text.len())));
        }
        Ok(out)
    }

    /// The ids of the selected units.
    pub fn resolve_ids(&self, game: &Game) -> Result<Vec<Id>, StateError> {
        Ok(self
            .resolve(game)?
            .into_iter()
            .map(|u| u.id.clone())
            .collect())
    }

    /// How many units the selector picks in `game` (none is 0, not an error); names are
    /// checked as [`Selector::resolve`] checks them. A selector without names is answered
    /// from what the game keeps (see `state::selections`): testing every unit
    /// only the first time it is asked.
    pub fn count(&self, game: &Game) -> Result<usize, StateError> {
        if self.names_units() {
            return self.resolve_or_none(game).map(|units| units.len());
        }
        let filters = self.filters(game)?;
        // Everything, or a side or a command alone: the lengths of the lists.
        match filters.as_slice() {
            [] => Ok(game.units.len()),
            [Filter::Side(sides)] => Ok(sides
                .iter()
                .filter_map(|s| game.side(s.as_str()))
                .flat_map(|s| game.commands_of(s))
                .map(|c| c.units.len())
                .sum()),
            [Filter::Command(commands)] => Ok(commands
                .iter()
                .filter_map(|c| game.command(c.as_str()))
                .map(|c| c.units.len())
                .sum()),
            _ => game.selections.with(game, self, |picked| picked.len()),
        }
    }

    /// The ids of the units the selector picks in `game`, in display order (none is an empty
    /// list, not an error). A selector without names that picks a few units is answered from
    /// what the game keeps, as [`Selector::count`] is.
    pub fn pick(&self, game: &Game) -> Result<Vec<Id>, StateError> {
        let few = if self.names_units() {
            None
        } else {
            match self.filters(game)?.as_slice() {
                [] | [Filter::Side(_)] | [Filter::Command(_)] => None,
                _ => game.selections.with(game, self, |picked| {
                    (picked.len() <= FEW).then(|| picked.iter().cloned().collect::<Vec<_>>())
                })?,
            }
        };
        match few {
            Some(mut ids) => {
                ids.sort_by_cached_key(|id| game.display_key(id));
                Ok(ids)
            }
            None => Ok(self
                .resolve_or_none(game)?
                .into_iter()
                .map(|u| u.id.clone())
                .collect()),
        }
    }

    /// Whether the selector names units (ids, names, or a side or command by its bare name).
    fn names_units(&self) -> bool {
        self.terms
            .iter()
            .any(|t| matches!(t.kind, TermKind::Name(_)))
    }

    /// [`Selector::resolve`], with nothing picked an empty list.
    fn resolve_or_none<'g>(&self, game: &'g Game) -> Result<Vec<&'g Unit>, StateError> {
        match self.resolve(game) {
            Err(e) if matches!(e.kind, StateErrorKind::NoMatch { .. }) => Ok(Vec::new()),
            r => r,
        }
    }

    /// The terms other than names and `all`, ready to test units.
    pub(super) fn filters(&self, game: &Game) -> Result<Vec<Filter>, StateError> {
        self.terms
            .iter()
            .filter(|t| !matches!(t.kind, TermKind::All | TermKind::Name(_)))
            .map(|t| Filter::new(game, t))
            .collect()
    }
}

impl Selector {
    /// The elements of `unit` this selector picks, in the unit's order (none is an empty
    /// list). Terms: `all`; an element's id, `UNIT.ELEMENT`, or a prefix of an element's id
    /// or name (names are a union, as for units); attribute tests of the elements'
    /// attributes (`hp>0`, `role:medic`); `marked:`/`unmarked:` of their markers. `side:`,
    /// `team:` and `command:` pick units, not elements, and are refused.
    pub fn pick_elements(&self, game: &Game, unit: &Unit) -> Result<Vec<Id>, StateError> {
        let mut names: Option<Vec<&Id>> = None;
        let mut filters = Vec::new();
        for t in &self.terms {
            match &t.kind {
                TermKind::All => {}
                TermKind::Side(_) | TermKind::Command(_) | TermKind::Team(_) => {
                    return Err(syntax(
                        format!(
                            "`{}` picks units, not elements: pick elements by attribute (`hp>0`) or marker (`unmarked:fallen`)",
                            &self.text[t.span.start..t.span.end]
                        ),
                        t.span,
                    ));
                }
                TermKind::Name(n) => {
                    let found: Vec<&Id> = match game.find_element(n) {
                        Ok(e) => unit.elements.iter().filter(|x| **x == e.id).collect(),
                        Err(_) => {
                            let lower = n.to_lowercase();
                            unit.elements
                                .iter()
                                .filter(|x| {
                                    x.as_str().starts_with(n.as_str())
                                        || game.elements[*x].name.to_lowercase().starts_with(&lower)
                                })
                                .collect()
                        }
                    };
                    if found.is_empty() {
                        return Err(StateError::from(StateErrorKind::Unknown {
                            what: "element of this unit",
                            name: n.clone(),
                            suggestions: nearest(
                                n,
                                unit.elements.iter().map(Id::as_str).collect::<Vec<_>>(),
                            ),
                        })
                        .with_span(t.span));
                    }
                    let list = names.get_or_insert_with(Vec::new);
                    for id in found {
                        if !list.contains(&id) {
                            list.push(id);
                        }
                    }
                }
                _ => filters.push(Filter::of_kind(game, t, Kind::Element)?),
            }
        }
        let chosen = |id: &Id| names.as_ref().is_none_or(|n| n.contains(&id));
        Ok(game
            .elements_of(unit)
            .filter(|e| chosen(&e.id))
            .filter(|e| filters.iter().all(|f| f.test(&e.attrs, &e.markers, None)))
            .map(|e| e.id.clone())
            .collect())
    }
}

/// Most units [`Selector::pick`] puts in display order from what the game keeps; a selector
/// that picks more is listed by testing the units in display order.
const FEW: usize = 64;

/// The alternatives of a term's text (`a|b`), each non-empty.
fn alternatives(text: &str) -> impl Iterator<Item = &str> {
    text.split('|')
}

/// Checks that every alternative of `text` (a term's name, pattern or value) is non-empty.
fn check_alternatives(text: &str, word: &str, span: Span) -> Result<(), StateError> {
    if alternatives(text).any(str::is_empty) {
        return Err(syntax(
            format!("expected a name on each side of `|` in `{word}`"),
            span,
        ));
    }
    Ok(())
}

fn parse_term(word: &str, span: Span) -> Result<Term, StateError> {
    let term = |kind| Ok(Term { kind, span });
    if word.eq_ignore_ascii_case("all") {
        return term(TermKind::All);
    }
    for p in PREFIXES {
        if let Some(rest) = word.strip_prefix(p) {
            if rest.is_empty() {
                return Err(syntax(format!("expected a name after `{p}`"), span));
            }
            check_alternatives(rest, word, span)?;
            let rest = rest.to_string();
            return term(match p {
                "side:" => TermKind::Side(rest),
                "command:" => TermKind::Command(rest),
                "team:" => TermKind::Team(rest),
                "marked:" => TermKind::Marked(rest),
                _ => TermKind::Unmarked(rest),
            });
        }
    }
    if let Some(i) = word.find(['<', '>', '=', '!']) {
        let attr = &word[..i];
        let rest = &word[i..];
        let (op, len) = match rest.as_bytes() {
            [b'<', b'=', ..] => (CmpOp::Le, 2),
            [b'>', b'=', ..] => (CmpOp::Ge, 2),
            [b'!', b'=', ..] => (CmpOp::Ne, 2),
            [b'=', b'=', ..] => (CmpOp::Eq, 2),
            [b'<', ..] => (CmpOp::Lt, 1),
            [b'>', ..] => (CmpOp::Gt, 1),
            [b'=', ..] => (CmpOp::Eq, 1),
            _ => {
                return Err(syntax(
                    format!("expected `<`, `<=`, `>`, `>=`, `=` or `!=` in `{word}`"),
                    span,
                ));
            }
        };
        let value = &rest[len..];
        if !is_attr_name(attr) {
            return Err(syntax(
                format!(
                    "expected an attribute name before `{}` in `{word}`",
                    &rest[..len]
                ),
                span,
            ));
        }
        if value.is_empty() {
            return Err(syntax(format!("expected a value after `{word}`"), span));
        }
        check_alternatives(value, word, span)?;
        let numeric = matches!(op, CmpOp::Lt | CmpOp::Le | CmpOp::Gt | CmpOp::Ge);
        if numeric && value.replace('−', "-").parse::<f64>().is_err() {
            return Err(syntax(
                format!("`{word}` compares with `{value}`, which is not a number"),
                span,
            ));
        }
        return term(TermKind::Compare {
            attr: attr.to_string(),
            op,
            value: value.to_string(),
        });
    }
    if let Some((attr, pattern)) = word.split_once(':') {
        if !is_attr_name(attr) || pattern.is_empty() {
            return Err(syntax(
                format!(
                    "`{word}` is not a selector: use `ATTR:PATTERN`, `side:NAME`, `team:NAME`, `command:NAME`, `marked:NAME` or `unmarked:NAME`"
                ),
                span,
            ));
        }
        check_alternatives(pattern, word, span)?;
        return term(TermKind::Glob {
            attr: attr.to_string(),
            pattern: pattern.to_string(),
        });
    }
    term(TermKind::Name(word.to_string()))
}

/// The units a bare name selects: an exact unit id; a side's or command's units; the one
/// unit whose id or name starts with it.
fn resolve_name<'g>(game: &'g Game, name: &str) -> Result<Vec<&'g Unit>, StateError> {
    if let Some(u) = game.unit(name) {
        return Ok(vec![u]);
    }
    if let Some(side) = game.side(name) {
        return Ok(game
            .commands_of(side)
            .flat_map(|c| game.units_of(c))
            .collect());
    }
    if let Some(c) = game.command(name) {
        return Ok(game.units_of(c).collect());
    }
    // Id prefix: a range scan of the ordered map, O(log n + matches).
    let by_id: Vec<&Unit> = game
        .units
        .range::<str, _>((std::ops::Bound::Included(name), std::ops::Bound::Unbounded))
        .take_while(|(k, _)| k.as_str().starts_with(name))
        .map(|(_, u)| u)
        .collect();
    let matches = if by_id.is_empty() {
        let lower = name.to_lowercase();
        game.units
            .values()
            .filter(|u| u.name.to_lowercase().starts_with(&lower))
            .collect()
    } else {
        by_id
    };
    match matches.len() {
        1 => Ok(matches),
        0 => {
            let candidates = game
                .units
                .values()
                .flat_map(|u| [u.id.as_str(), u.name.as_str()])
                .chain(game.sides.keys().map(Id::as_str))
                .chain(game.commands.keys().map(Id::as_str));
            Err(StateErrorKind::Unknown {
                what: "unit",
                name: name.to_string(),
                suggestions: nearest(name, candidates),
            }
            .into())
        }
        _ => Err(StateErrorKind::Ambiguous {
            name: name.to_string(),
            matches: matches.iter().map(|u| u.id.to_string()).collect(),
        }
        .into()),
    }
}

/// A side or command by id, or by a unique prefix of its id or name.
fn find_group(game: &Game, kind: Kind, name: &str) -> Result<Id, StateError> {
    let exact = match kind {
        Kind::Side => game.sides.get_key_value(name).map(|(id, _)| id),
        _ => game.commands.get_key_value(name).map(|(id, _)| id),
    };
    if let Some(id) = exact {
        return Ok(id.clone());
    }
    let all: Vec<(&Id, &str)> = match kind {
        Kind::Side => game
            .sides
            .values()
            .map(|s| (&s.id, s.name.as_str()))
            .collect(),
        _ => game
            .commands
            .values()
            .map(|c| (&c.id, c.name.as_str()))
            .collect(),
    };
    if let Some((id, _)) = all.iter().find(|(id, _)| id.as_str() == name) {
        return Ok((*id).clone());
    }
    let lower = name.to_lowercase();
    let matches: Vec<&Id> = all
        .iter()
        .filter(|(id, n)| id.as_str().starts_with(&lower) || n.to_lowercase().starts_with(&lower))
        .map(|(id, _)| *id)
        .collect();
    match matches.as_slice() {
        [one] => Ok((*one).clone()),
        [] => Err(game.unknown(kind, name)),
        many => Err(StateErrorKind::Selector(format!(
            "`{name}` matches {} {}s: {} (type more of the name)",
            many.len(),
            kind,
            super::error::quoted_list(&many.iter().map(|i| i.to_string()).collect::<Vec<_>>())
        ))
        .into()),
    }
}

/// A term other than a name, made ready to test units: its names found, its values parsed
/// and lowercased once, the schema's default of its attribute at hand.
pub(super) enum Filter {
    Side(Vec<Id>),
    Command(Vec<Id>),
    /// Markers, and whether the unit must carry one of them (`marked:`) or none (`unmarked:`).
    Marked(Vec<String>, bool),
    Glob {
        attr: String,
        default: Option<Value>,
        patterns: Vec<Vec<char>>,
    },
    Compare {
        attr: String,
        default: Option<Value>,
        op: CmpOp,
        values: Vec<Wanted>,
    },
}

/// A value a comparison tests against: as lowercase text, and as a number if it is one.
pub(super) struct Wanted {
    text: String,
    number: Option<f64>,
}

impl Wanted {
    /// Whether `v` compares with this value by `op`: numbers numerically, anything else as
    /// text without regard to case (only `=` and `!=`).
    fn holds(&self, op: CmpOp, v: &Value) -> bool {
        if let (Some(a), Some(b)) = (v.as_f64(), self.number) {
            return a.partial_cmp(&b).is_some_and(|o| op.holds(o));
        }
        let eq = match v {
            Value::Text(s) if s.is_ascii() && self.text.is_ascii() => {
                s.eq_ignore_ascii_case(&self.text)
            }
            v => v.to_string().to_lowercase() == self.text,
        };
        match op {
            CmpOp::Eq => eq,
            CmpOp::Ne => !eq,
            _ => false,
        }
    }
}

impl Filter {
    fn new(game: &Game, t: &Term) -> Result<Filter, StateError> {
        Filter::of_kind(game, t, Kind::Unit)
    }

    /// The term `t` ready to test units or elements (`kind`); `side:` and `command:` only
    /// test units.
    fn of_kind(game: &Game, t: &Term, kind: Kind) -> Result<Filter, StateError> {
        let at = |e: StateError| e.with_span(t.span);
        let elements = kind == Kind::Element;
        let attr_known = |a: &str| {
            game.schema()
                .attr(kind, a, &if elements { "elements" } else { "units" })
                .map(|_| ())
                .or_else(|e| {
                    // Attributes set on units but no longer declared still select.
                    let set = if elements {
                        game.elements.values().any(|x| x.attrs.contains_key(a))
                    } else {
                        game.units.values().any(|u| u.attrs.contains_key(a))
                    };
                    if set { Ok(()) } else { Err(e) }
                })
                .map_err(at)
        };
        let default = |a: &str| game.schema().attrs(kind).get(a).map(|d| d.default.clone());
        let groups = |kind: Kind, names: &str| {
            let mut ids = alternatives(names)
                .map(|n| find_group(game, kind, n).map_err(at))
                .collect::<Result<Vec<_>, _>>()?;
            ids.sort();
            ids.dedup();
            Ok::<_, StateError>(ids)
        };
        Ok(match &t.kind {
            TermKind::Side(s) => Filter::Side(groups(Kind::Side, s)?),
            TermKind::Command(c) => Filter::Command(groups(Kind::Command, c)?),
            // A team is the sides in it, as they are when the selector is worked out.
            TermKind::Team(t) => {
                let mut ids = Vec::new();
                for name in alternatives(t) {
                    let sides = game.find_team(name).map_err(at)?;
                    ids.extend(sides.into_iter().map(|s| s.id.clone()));
                }
                ids.sort();
                ids.dedup();
                Filter::Side(ids)
            }
            TermKind::Marked(m) | TermKind::Unmarked(m) => {
                let names: Vec<String> = alternatives(m).map(str::to_string).collect();
                for m in &names {
                    // Undeclared markers still on some unit (the schema changed) still select.
                    if let Err(e) = game.schema().check_marker(m)
                        && !game.units.values().any(|u| u.marker(m).is_some())
                        && !game.elements.values().any(|x| x.marker(m).is_some())
                    {
                        return Err(at(e));
                    }
                }
                Filter::Marked(names, matches!(t.kind, TermKind::Marked(_)))
            }
            TermKind::Glob { attr, pattern } => {
                attr_known(attr)?;
                Filter::Glob {
                    attr: attr.clone(),
                    default: default(attr),
                    patterns: alternatives(pattern)
                        .map(|p| p.to_lowercase().chars().collect())
                        .collect(),
                }
            }
            TermKind::Compare { attr, op, value } => {
                attr_known(attr)?;
                let value = value.replace('−', "-");
                Filter::Compare {
                    attr: attr.clone(),
                    default: default(attr),
                    op: *op,
                    values: alternatives(&value)
                        .map(|v| Wanted {
                            text: v.to_lowercase(),
                            number: v.parse().ok(),
                        })
                        .collect(),
                }
            }
            TermKind::All | TermKind::Name(_) => unreachable!("not a filter"),
        })
    }

    /// Whether unit `u` passes this term.
    pub(super) fn matches(&self, u: &Unit) -> bool {
        self.test(&u.attrs, &u.markers, Some((&u.side, &u.command)))
    }

    /// Whether something with these attributes and markers (and, for a unit, this side and
    /// command) passes this term.
    fn test(
        &self,
        attrs: &super::game::Attrs,
        markers: &[super::marker::Marker],
        place: Option<(&Id, &Id)>,
    ) -> bool {
        fn value<'a>(
            attrs: &'a super::game::Attrs,
            attr: &str,
            default: &'a Option<Value>,
        ) -> Option<&'a Value> {
            attrs.get(attr).or(default.as_ref())
        }
        match self {
            Filter::Side(s) => place.is_some_and(|(side, _)| s.contains(side)),
            Filter::Command(c) => place.is_some_and(|(_, command)| c.contains(command)),
            Filter::Marked(names, want) => markers.iter().any(|m| names.contains(&m.name)) == *want,
            Filter::Glob {
                attr,
                default,
                patterns,
            } => {
                let any = |text: &str| patterns.iter().any(|p| glob(p, text));
                match value(attrs, attr, default) {
                    Some(Value::List(items)) => items.iter().any(|v| match v {
                        Value::Text(s) => any(s),
                        v => any(&v.to_string()),
                    }),
                    Some(Value::Text(s)) => any(s),
                    Some(v) => any(&v.to_string()),
                    None => false,
                }
            }
            Filter::Compare {
                attr,
                default,
                op,
                values,
            } => {
                let Some(v) = value(attrs, attr, default) else {
                    return false;
                };
                // A negative test holds when no alternative is equal.
                if *op == CmpOp::Ne {
                    values.iter().all(|w| w.holds(*op, v))
                } else {
                    values.iter().any(|w| w.holds(*op, v))
                }
            }
        }
    }
}

/// Case-insensitive glob with `*` and `?` (the pattern is already lowercase).
fn glob(pattern: &[char], text: &str) -> bool {
    if text.is_ascii() && pattern.iter().all(char::is_ascii) {
        // ASCII text is matched in place, without a lowercase copy.
        let bytes = text.as_bytes();
        return glob_by(pattern, bytes.len(), |t| {
            char::from(bytes[t].to_ascii_lowercase())
        });
    }
    let text: Vec<char> = text.to_lowercase().chars().collect();
    glob_by(pattern, text.len(), |t| text[t])
}

/// [`glob`] over a text of `len` characters, the `t`-th given by `at(t)`.
fn glob_by(pattern: &[char], len: usize, at: impl Fn(usize) -> char) -> bool {
    let (mut p, mut t) = (0, 0);
    let (mut star, mut mark) = (None, 0);
    while t < len {
        if p < pattern.len() && (pattern[p] == '?' || pattern[p] == at(t)) {
            p += 1;
            t += 1;
        } else if p < pattern.len() && pattern[p] == '*' {
            star = Some(p);
            mark = t;
            p += 1;
        } else if let Some(s) = star {
            p = s + 1;
            mark += 1;
            t = mark;
        } else {
            return false;
        }
    }
    pattern[p..].iter().all(|&c| c == '*')
}
