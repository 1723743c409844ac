//! The journal: every command that changes the game or rolls dice, appended as one line of
//! JSON, hash-chained, synced to disk before its result is shown, with a head record beside
//! it that says where the journal ends.
//!
//! This module owns the file format and its guarantees (crash safety, failed writes undone,
//! lost entries at the end told from a crash's torn line, evidence of accidental damage and
//! of edits), the records a session writes (transactions with their rolls and state changes,
//! undo, redo), the undo/redo history over them, replay, and the snapshots beside a journal
//! that let a long one be continued without replaying it all. [`JournalFile`] is generic over
//! what a line holds; [`Journal`] is the session's journal of [`Record`]s. `docs/journal.md`
//! describes the format and what it proves for people.

mod chain;
mod damage;
mod file;
mod head;
mod history;
#[allow(clippy::module_inception)] // the module's main type is named after it
mod journal;
mod record;
mod scan;
mod secrets;
mod snapshot;
mod store;

pub use damage::Damage;
pub use file::{Caps, JournalError, JournalFile, Opened, read_file, verify_file};
pub use head::{Head, HeadState, head_path};
pub use history::{History, Step};
pub use journal::{Journal, ReplayError, Replayed, Reversal, SNAPSHOT_EVERY};
pub use record::{Record, RulesRecord, Transaction, now};
pub use scan::Verified;
pub use secrets::Secrets;
pub use snapshot::snapshot_path;

#[cfg(test)]
mod fault_tests;
#[cfg(test)]
pub(crate) mod faulty;
#[cfg(test)]
mod snapshot_tests;
#[cfg(test)]
mod tests;
