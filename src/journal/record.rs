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
    /// The command line as typed (the umpire's record: secret words included).
    pub command: String,
    /// The command line as the players may see it, where it holds secret words (each
    /// replaced by `‹secret›`); `None`: the line is all public.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub public: Option<String>,
    /// Whether its output is for the umpire's eyes only (a command the rules declare
    /// `secret`): kept here, never shown to the players.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub umpire_only: bool,
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
    /// The rules in force, with the hash of every rule file: written with the first
    /// transaction of each rules generation of a session (none before any rules are loaded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<Box<RulesRecord>>,
    /// The questions the rules asked the umpire and the answers (so a replay never asks).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub answers: Vec<crate::question::Answered>,
    /// Who typed it, when a second umpire has joined the game (`umpire join`): the joined
    /// umpire's name; `None` for the host's own commands (and every command of a journal
    /// written before joining existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    /// Seconds since the Unix epoch.
    pub at: u64,
}

impl Transaction {
    /// The command line as the players may see it.
    pub fn public_command(&self) -> &str {
        self.public.as_deref().unwrap_or(&self.command)
    }
}

/// The rules a game was played under: the ruleset, its variant, the house rules, and the
/// SHA-256 of every rule file as it was loaded (by its name as shown, such as
/// `scripts/heroes.lua`), so a game continued later can say which rule files changed.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct RulesRecord {
    /// The ruleset (`None`: house rules only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ruleset: Option<String>,
    /// Its variant.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    /// The house rules, in the order they were switched on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub house: Vec<String>,
    /// The hash of each rule file loaded.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub files: std::collections::BTreeMap<String, String>,
    /// The options the umpire set (`option set`), where they differ from the recommended
    /// readings.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub options: std::collections::BTreeMap<String, serde_json::Value>,
}

impl RulesRecord {
    /// The files whose hash differs between `self` (as played) and `now`, or that only one
    /// of them has, sorted.
    pub fn changed_files(&self, now: &RulesRecord) -> Vec<String> {
        let mut out: Vec<String> = self
            .files
            .iter()
            .filter(|(f, h)| now.files.get(*f) != Some(*h))
            .map(|(f, _)| f.clone())
            .chain(
                now.files
                    .keys()
                    .filter(|f| !self.files.contains_key(*f))
                    .cloned(),
            )
            .collect();
        out.sort();
        out.dedup();
        out
    }
}

/// Seconds since the Unix epoch, now.
pub fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}
