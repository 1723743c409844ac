//! The journal: every command that changes the game or rolls dice, appended as one line of
//! JSON, hash-chained, synced to disk before its result is shown.
//!
//! This module owns the file format and its guarantees (crash safety, tamper evidence) and
//! the undo/redo history over journalled transactions. It does not know what a transaction
//! contains: the payload type is the caller's (the shell stores the command, its rolls, its
//! state changes and its output).

mod chain;
mod file;
mod history;

pub use chain::{Verified, verify_lines};
pub use file::{JournalError, JournalFile, Opened, verify_file};
pub use history::{History, Step};
