//! The tables module's one error type.

use thiserror::Error;

use crate::dice::DiceError;
use crate::state::{FilePos, StateError};

/// An error about a table: loading one (with the file position), rolling on one or looking
/// something up in one.
#[derive(Debug, Clone, PartialEq, Error)]
pub struct TableError {
    /// What went wrong.
    pub kind: TableErrorKind,
    /// The file position it is about, when loading.
    pub at: Option<Box<FilePos>>,
}

impl std::fmt::Display for TableError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.at {
            Some(at) => write!(f, "{at}: {}", self.kind),
            None => write!(f, "{}", self.kind),
        }
    }
}

impl From<TableErrorKind> for TableError {
    fn from(kind: TableErrorKind) -> Self {
        TableError { kind, at: None }
    }
}

impl From<StateError> for TableError {
    /// A file-format error found by the shared TOML reader.
    fn from(e: StateError) -> Self {
        TableError {
            kind: TableErrorKind::Format(e.kind.to_string()),
            at: e.at,
        }
    }
}

impl TableError {
    /// The same error at byte `offset` of `source`, read from `file`.
    pub fn in_file(mut self, file: &str, source: &str, offset: usize) -> Self {
        if self.at.is_none() {
            self.at = Some(Box::new(FilePos::at(file, source, offset)));
        }
        self
    }
}

fn keys(valid: &[String]) -> String {
    let mut out: Vec<String> = valid.iter().take(12).map(|k| format!("`{k}`")).collect();
    if valid.len() > 12 {
        out.push("…".into());
    }
    out.join(", ")
}

/// What went wrong. Lowercase messages quoting the umpire's text in backticks.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum TableErrorKind {
    /// A file that does not follow the table format (or is not TOML).
    #[error("{0}")]
    Format(String),
    /// Two rows whose ranges share values.
    #[error("rows `{first}` and `{second}` overlap: {value} is in both")]
    Overlap {
        /// The earlier row's range.
        first: String,
        /// The later row's range.
        second: String,
        /// A value in both.
        value: i64,
    },
    /// Values between two rows that no row covers.
    #[error("no row covers {missing} (between rows `{before}` and `{after}`)")]
    Gap {
        /// The row below the gap.
        before: String,
        /// The row above the gap.
        after: String,
        /// The uncovered values (`5` or `5-6`).
        missing: String,
    },
    /// Rolls the dice can make that no row covers.
    #[error("`{dice}` can roll {missing}, which no row covers")]
    Uncovered {
        /// The table's dice.
        dice: String,
        /// The uncovered values.
        missing: String,
    },
    /// A row, column or key that is not in the table.
    #[error("no {axis} `{key}` in table `{table}`: use {}", keys(.valid))]
    UnknownKey {
        /// The table.
        table: String,
        /// `row`, `column` or `key`.
        axis: &'static str,
        /// The key as typed.
        key: String,
        /// The valid keys.
        valid: Vec<String>,
    },
    /// No table by this name.
    #[error("no table `{name}`{}", crate::state::error::did_you_mean_pub(.suggestions))]
    UnknownTable {
        /// The name as typed.
        name: String,
        /// The nearest table names.
        suggestions: Vec<String>,
    },
    /// A table defined twice.
    #[error("table `{0}` is already defined")]
    Duplicate(String),
    /// Rolling on a table without dice, or looking up with the wrong number of keys.
    #[error("{0}")]
    Usage(String),
    /// The table's dice could not be parsed or rolled.
    #[error("{0}")]
    Dice(#[from] DiceError),
}

impl From<DiceError> for TableError {
    fn from(e: DiceError) -> Self {
        TableErrorKind::Dice(e).into()
    }
}
