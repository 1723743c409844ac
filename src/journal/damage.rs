//! What can be wrong with a journal umpire refuses to continue: a line it cannot read, a line
//! over the length limit, an altered entry, entries lost at the end, or a journal that is not
//! the one its head record describes. Each says how many entries before it are intact, which
//! is what `replay` can still bring back.

use std::fmt;

/// The first thing found wrong with a journal.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Damage {
    /// A complete line cannot be read as a journal entry (not UTF-8, not JSON, not an entry).
    Unreadable {
        /// Its line number (1-based).
        line: usize,
        /// What is wrong.
        why: String,
    },
    /// A line is longer than the journal-line limit, so it was not parsed.
    TooLong {
        /// Its line number (1-based).
        line: usize,
        /// Its length in bytes.
        bytes: usize,
        /// The limit in bytes.
        limit: usize,
    },
    /// An entry is not what was written: its text, or the order of the entries, was changed.
    Altered {
        /// The first entry found altered.
        seq: u64,
        /// Its line number (1-based).
        line: usize,
        /// What does not match.
        why: String,
    },
    /// Entries are missing at the end: the head record counted more than the file holds.
    Lost {
        /// Entries the head record counts.
        expected: u64,
        /// Entries the file holds (all of them intact).
        found: u64,
    },
    /// The journal file is gone, but its head record is still there.
    Deleted {
        /// Entries the head record counts.
        expected: u64,
    },
    /// The entry the head record names has another hash: the journal was replaced by another
    /// one, or rewritten.
    Replaced {
        /// The entry the head record names.
        seq: u64,
        /// Entries the file holds whose chain checks out.
        found: u64,
    },
}

impl Damage {
    /// How many entries before the damage are intact: those `replay` brings back.
    pub fn intact(&self) -> u64 {
        match self {
            Damage::Unreadable { line, .. } | Damage::TooLong { line, .. } => {
                (*line as u64).saturating_sub(1)
            }
            Damage::Altered { seq, .. } => seq.saturating_sub(1),
            Damage::Lost { found, .. } | Damage::Replaced { found, .. } => *found,
            Damage::Deleted { .. } => 0,
        }
    }

    /// Whether the damage is at the end of the journal, found through its head record (the
    /// entries in the file all check out).
    pub fn at_the_end(&self) -> bool {
        matches!(
            self,
            Damage::Lost { .. } | Damage::Replaced { .. } | Damage::Deleted { .. }
        )
    }
}

impl fmt::Display for Damage {
    /// A clause that follows ``journal `PATH`: ``.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Damage::Unreadable { line, why } => write!(f, "line {line} is damaged: {why}"),
            Damage::TooLong { line, bytes, limit } => write!(
                f,
                "line {line} is {bytes} bytes long, over the journal-line limit of {}; if umpire wrote it under a higher limit, give that limit with `--limit journal-line={}`",
                crate::limits::show_bytes(*limit),
                crate::limits::show_bytes(bytes.checked_next_power_of_two().unwrap_or(*bytes)),
            ),
            Damage::Altered { seq, line, why } => {
                write!(
                    f,
                    "entry #{seq} (line {line}) was altered after it was written: {why}"
                )
            }
            Damage::Lost { expected, found } => write!(
                f,
                "{} lost at the end: its head record counts {expected}, the file holds {found}",
                entries(expected.saturating_sub(*found))
            ),
            Damage::Deleted { expected } => write!(
                f,
                "the file is gone, but its head record counts {}",
                entries(*expected)
            ),
            Damage::Replaced { seq, .. } => write!(
                f,
                "it is not the journal its head record describes (entry #{seq} differs): it was replaced or rewritten"
            ),
        }
    }
}

/// `1 entry`, `25 entries`.
pub(crate) fn entries(n: u64) -> String {
    if n == 1 {
        "1 entry".into()
    } else {
        format!("{n} entries")
    }
}
