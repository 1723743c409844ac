//! The state module's one error type: what went wrong, and where when it is known.
//!
//! [`StateError`] carries a [`StateErrorKind`] plus, optionally, the byte span of the part of a
//! command line it is about (selectors) or the file position of a bad key or value (schemas,
//! rosters). Line and column are computed when the error is built from a file, from the
//! `toml` parser's byte spans.

use std::fmt;

use thiserror::Error;

use crate::span::Span;

/// A position in a data file: `romans.toml:12:7`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilePos {
    /// The file as the umpire named it.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

impl FilePos {
    /// The position of byte `offset` in `source`, which was read from `file`.
    pub fn at(file: &str, source: &str, offset: usize) -> Self {
        let (line, column) = Span::point(offset).line_col(source);
        FilePos {
            file: file.to_string(),
            line,
            column,
        }
    }
}

impl fmt::Display for FilePos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// An error about the game state, a schema, a roster or a selector.
#[derive(Debug, Clone, PartialEq, Error)]
pub struct StateError {
    /// What went wrong.
    pub kind: StateErrorKind,
    /// The bytes of the command line it is about (selectors), if any.
    pub span: Option<Span>,
    /// The file position it is about (schemas, rosters), if any (boxed: errors stay small).
    pub at: Option<Box<FilePos>>,
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.at {
            Some(at) => write!(f, "{at}: {}", self.kind),
            None => write!(f, "{}", self.kind),
        }
    }
}

impl From<StateErrorKind> for StateError {
    fn from(kind: StateErrorKind) -> Self {
        StateError {
            kind,
            span: None,
            at: None,
        }
    }
}

impl StateError {
    /// The same error pointing at `span` of the command line.
    pub fn with_span(mut self, span: Span) -> Self {
        self.span = Some(span);
        self
    }

    /// The same error pointing at byte `offset` of `source`, read from `file`.
    pub fn in_file(mut self, file: &str, source: &str, offset: usize) -> Self {
        self.at = Some(Box::new(FilePos::at(file, source, offset)));
        self
    }
}

/// Formats ` (did you mean `x`?)` or nothing.
pub(crate) fn did_you_mean(suggestions: &[String]) -> String {
    match suggestions {
        [] => String::new(),
        [one] => format!(" (did you mean `{one}`?)"),
        many => {
            let list: Vec<String> = many.iter().map(|s| format!("`{s}`")).collect();
            format!(" (did you mean {}?)", list.join(", "))
        }
    }
}

/// Formats a list of names as `` `a`, `b`, `c` `` (at most eight, then `…`).
pub(crate) fn quoted_list(names: &[String]) -> String {
    let mut out: Vec<String> = names.iter().take(8).map(|s| format!("`{s}`")).collect();
    if names.len() > 8 {
        out.push(format!("… ({} in all)", names.len()));
    }
    out.join(", ")
}

/// What went wrong. Messages are lowercase, quote the umpire's text in backticks and say how
/// to fix the problem where there is a fix to suggest.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum StateErrorKind {
    /// An id with characters outside `[a-z0-9_-]` or not starting with a letter.
    #[error(
        "`{id}` is not a valid id: use lowercase letters, digits, `_` and `-`, starting with a letter{}",
        .hint.as_ref().map(|h| format!(" (try `{h}`)")).unwrap_or_default()
    )]
    BadId {
        /// The id as typed.
        id: String,
        /// A valid id close to it, if one can be made.
        hint: Option<String>,
    },
    /// An id already used anywhere in the game.
    #[error("`{id}` is already the id of a {kind}: ids are unique across the game")]
    DuplicateId {
        /// The id.
        id: String,
        /// What already has it (`side`, `command`, `unit`, `element`).
        kind: &'static str,
    },
    /// No side, command, unit or element with this id.
    #[error("no {what} `{name}`{}", did_you_mean(.suggestions))]
    Unknown {
        /// What was looked for (`unit`, `side`, …).
        what: &'static str,
        /// The name as typed.
        name: String,
        /// The nearest existing names.
        suggestions: Vec<String>,
    },
    /// A prefix that matches more than one unit.
    #[error("`{name}` matches {} units: {} (type more of the name)", .matches.len(), quoted_list(.matches))]
    Ambiguous {
        /// The prefix as typed.
        name: String,
        /// The ids it matches.
        matches: Vec<String>,
    },
    /// Removing something that still has children.
    #[error("{what} `{id}` still has {count} {children}: remove them first")]
    NotEmpty {
        /// `side`, `command` or `unit`.
        what: &'static str,
        /// Its id.
        id: String,
        /// How many children.
        count: usize,
        /// `commands`, `units` or `elements`.
        children: &'static str,
    },
    /// An attribute the schema does not declare.
    #[error("unknown attribute `{attr}` for {owner}{}", did_you_mean(.suggestions))]
    UnknownAttr {
        /// The attribute as typed.
        attr: String,
        /// What it was set on, e.g. ``unit `leg1` ``.
        owner: String,
        /// The nearest declared attributes.
        suggestions: Vec<String>,
    },
    /// A value of the wrong type or out of bounds.
    #[error("{attr} must be {expected}, found `{found}`")]
    BadValue {
        /// The attribute.
        attr: String,
        /// What it must be, in words (`an integer from 0 to 12`).
        expected: String,
        /// The value given.
        found: String,
    },
    /// A marker the schema does not declare.
    #[error("unknown marker `{name}`{}", marker_hint(.suggestions, .declared))]
    UnknownMarker {
        /// The marker as typed.
        name: String,
        /// The nearest declared markers.
        suggestions: Vec<String>,
        /// Every declared marker, sorted.
        declared: Vec<String>,
    },
    /// Marking a unit with a marker it already has.
    #[error("`{unit}` is already marked `{marker}`")]
    AlreadyMarked {
        /// The unit.
        unit: String,
        /// The marker.
        marker: String,
    },
    /// Unmarking a marker the unit does not have.
    #[error("`{unit}` is not marked `{marker}`{}", if .has.is_empty() { " (it has no markers)".to_string() } else { format!(" (it has {})", quoted_list(.has)) })]
    NotMarked {
        /// The unit.
        unit: String,
        /// The marker.
        marker: String,
        /// The markers it has.
        has: Vec<String>,
    },
    /// A change that does not fit the game it is applied to (its recorded old value or
    /// position differs): the journal and the game have diverged.
    #[error("this change does not fit the game: {0}")]
    Stale(String),
    /// Moving a unit or element to the command or unit it is already in.
    #[error("`{id}` is already in {parent_kind} `{parent}`: name another to move it")]
    AlreadyIn {
        /// What is moved.
        id: String,
        /// `command` or `unit`.
        parent_kind: &'static str,
        /// Where it is.
        parent: String,
    },
    /// A clock or sequence problem.
    #[error("{0}")]
    Clock(String),
    /// A selector that cannot be parsed.
    #[error("{0}")]
    Selector(String),
    /// A selector that matches no unit.
    #[error("no unit matches `{selector}`")]
    NoMatch {
        /// The selector text.
        selector: String,
    },
    /// A data file that is not valid TOML.
    #[error("{0}")]
    Toml(String),
    /// A data file with a key or value that does not fit its format.
    #[error("{0}")]
    Format(String),
    /// A new name holding a control character or a bidirectional override (see
    /// [`crate::escape::check_name`]).
    #[error("{0}")]
    BadName(String),
    /// A team that cannot be formed as asked (a side's id as its name, an unknown team).
    #[error("{0}")]
    Team(String),
}

pub(crate) fn err<T>(kind: StateErrorKind) -> Result<T, StateError> {
    Err(kind.into())
}

/// Up to three names from `candidates` that are close to `name`, best first: within a small
/// edit distance (transpositions count as one edit) or with a high Jaro-Winkler similarity.
pub fn nearest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let lower = name.to_lowercase();
    let limit = (lower.chars().count() / 3).max(1);
    let mut scored: Vec<(usize, f64, &str)> = candidates
        .into_iter()
        .filter_map(|c| {
            let cl = c.to_lowercase();
            let d = strsim::damerau_levenshtein(&lower, &cl);
            let jw = strsim::jaro_winkler(&lower, &cl);
            (d <= limit || jw >= 0.85).then_some((d, jw, c))
        })
        .collect();
    scored.sort_by(|a, b| {
        a.0.cmp(&b.0)
            .then_with(|| b.1.total_cmp(&a.1))
            .then_with(|| a.2.cmp(b.2))
    });
    scored.dedup_by(|a, b| a.2 == b.2);
    scored
        .into_iter()
        .take(3)
        .map(|(_, _, c)| c.to_string())
        .collect()
}

/// ` (did you mean `routed`?)` when a declared marker is close, else the list of markers.
fn marker_hint(suggestions: &[String], declared: &[String]) -> String {
    if !suggestions.is_empty() {
        return did_you_mean(suggestions);
    }
    format!(
        "; the markers are {}",
        declared
            .iter()
            .map(|m| format!("`{m}`"))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// Formats ` (did you mean `x`?)` or nothing (for other modules' messages).
pub fn did_you_mean_pub(suggestions: &[String]) -> String {
    did_you_mean(suggestions)
}
