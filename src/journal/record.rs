//! What one journal line holds: a session opening, a transaction, or an undo or redo of one.

use serde::{Deserialize, Serialize};

use crate::dice::Roll;
use crate::state::Change;

/// One entry of the journal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Record {
    /// A session opened the journal (a new one, or continuing an old one).
    Session {
        /// The umpire version.
        version: String,
        /// Seconds since the Unix epoch.
        at: u64,
        /// The seed the dice started from.
        seed: u64,
    },
    /// A command that rolled dice or changed the game.
    Tx(Transaction),
    /// Transaction `tx` (an entry number) was undone.
    Undo {
        /// The entry number of the transaction.
        tx: u64,
        /// Seconds since the Unix epoch.
        at: u64,
    },
    /// Transaction `tx` was redone.
    Redo {
        /// The entry number of the transaction.
        tx: u64,
        /// Seconds since the Unix epoch.
        at: u64,
    },
}

/// One command as it happened: what was typed, every roll, every change, what was shown.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Transaction {
    /// The command line as typed.
    pub command: String,
    /// Every roll it made, with every die and its source.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rolls: Vec<Roll>,
    /// Every change it made to the game, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<Change>,
    /// The reasons the rules gave for its changes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reasons: Vec<crate::state::Note>,
    /// What it printed (plain text).
    #[serde(default)]
    pub output: String,
    /// The rules generation that resolved it (0 before any rules are loaded).
    #[serde(default)]
    pub generation: u64,
    /// Seconds since the Unix epoch.
    pub at: u64,
}

/// Seconds since the Unix epoch, now.
pub fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}
