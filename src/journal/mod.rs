//! The journal: every command that changes the game or rolls dice, appended as one line of
//! JSON, hash-chained, synced to disk before its result is shown.
//!
//! This module owns the file format and its guarantees (crash safety, tamper evidence), the
//! records a session writes (transactions with their rolls and state changes, undo, redo),
//! the undo/redo history over them, and replay. [`JournalFile`] is generic over what a line
//! holds; [`Journal`] is the session's journal of [`Record`]s.

mod chain;
mod file;
mod history;
#[allow(clippy::module_inception)] // the module's main type is named after it
mod journal;
mod record;

pub use chain::{Verified, verify_lines};
pub use file::{JournalError, JournalFile, Opened, read_file, verify_file};
pub use history::{History, Step};
pub use journal::{Journal, ReplayError, Reversal};
pub use record::{Record, RulesRecord, Transaction, now};

#[cfg(test)]
mod tests;
