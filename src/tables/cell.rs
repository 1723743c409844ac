//! What a table gives back: text, a number, or a small record of named values.

use std::fmt;

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

/// A table's value. Serialised as plain JSON: `"open"`, `4`, `2.5`,
/// `{"range": 24, "factor": 6}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Cell {
    /// An integer.
    Int(i64),
    /// A number.
    Num(f64),
    /// Text.
    Text(String),
    /// Named values (`{ range = 24, factor = 6 }`).
    Record(IndexMap<String, Cell>),
}

impl fmt::Display for Cell {
    /// `open`, `4`, `range 24, factor 6`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cell::Int(i) => write!(f, "{i}"),
            Cell::Num(n) => write!(f, "{n}"),
            Cell::Text(s) => f.write_str(s),
            Cell::Record(r) => {
                for (i, (k, v)) in r.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{k} {v}")?;
                }
                Ok(())
            }
        }
    }
}

impl From<&str> for Cell {
    fn from(s: &str) -> Self {
        Cell::Text(s.to_string())
    }
}

impl From<i64> for Cell {
    fn from(i: i64) -> Self {
        Cell::Int(i)
    }
}
