//! The head record: a one-line file beside the journal (`NAME.jsonl.head`) giving how many
//! entries the journal holds and the hash of the last one. It is what tells a crash's torn
//! last line (harmless) from entries lost at the end (a file cut short, entries deleted),
//! which the hash chain alone cannot see.
//!
//! The head is rewritten after every entry, once the entry is synced to disk, and only by
//! replacing the whole file (a new file synced, then renamed over the old), so it is always
//! one complete record. The order of the writes gives the one rule opening relies on: the
//! head never counts an entry the journal does not hold. A crash between the journal's sync
//! and the head's rename leaves the head one entry behind, which is not damage; so is any
//! head that is behind, as long as the entry it names is the journal's entry of that number
//! with that hash. Readers that do not hold the journal (`replay`, `journal verify`) read the
//! head before the journal, so a session appending meanwhile can only make the journal
//! longer than the head they read, never shorter.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The largest head record read (a real one is about 120 bytes).
const MOST: usize = 4096;

/// What the head record says: how many entries, and the hash of the last one (64 zeros, the
/// chain's first `prev`, for none).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Head {
    /// Marks the file as an umpire journal's head record (format 1).
    pub umpire_journal_head: u32,
    /// Entries in the journal.
    pub entries: u64,
    /// The hash of the last entry.
    pub hash: String,
}

impl Head {
    /// The head of a journal of `entries` entries whose last hashed to `hash`.
    pub fn new(entries: u64, hash: &str) -> Self {
        Head {
            umpire_journal_head: 1,
            entries,
            hash: hash.to_string(),
        }
    }

    /// The record as written: one line of JSON.
    pub fn encode(&self) -> Vec<u8> {
        let mut text = serde_json::to_string(self).unwrap_or_default();
        text.push('\n');
        text.into_bytes()
    }
}

/// The head record's file: the journal's name with `.head` added.
pub fn head_path(journal: &Path) -> PathBuf {
    let mut name = journal.file_name().unwrap_or_default().to_os_string();
    name.push(".head");
    journal.with_file_name(name)
}

/// What was found beside a journal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HeadState {
    /// A head record, read whole.
    Found(Head),
    /// No head record: a journal copied without it, written by an older umpire that kept
    /// none, or never written to.
    Missing,
    /// A file is there but it is no head record.
    Unreadable {
        /// Why.
        why: String,
    },
}

impl HeadState {
    /// Whether a head record was found (only then can lost entries be told).
    pub fn found(&self) -> bool {
        matches!(self, HeadState::Found(_))
    }
}

/// Reads the head record beside the journal at `journal`.
pub fn read_head(journal: &Path) -> HeadState {
    let path = head_path(journal);
    match crate::files::check(&path, MOST) {
        Ok(false) => return HeadState::Missing,
        Ok(true) => {}
        Err(e) => return HeadState::Unreadable { why: e.to_string() },
    }
    let bytes = match crate::files::read(&path, MOST) {
        Ok(b) => b,
        Err(e) => return HeadState::Unreadable { why: e.to_string() },
    };
    match serde_json::from_slice::<Head>(&bytes) {
        Ok(h) if h.umpire_journal_head == 1 => HeadState::Found(h),
        Ok(h) => HeadState::Unreadable {
            why: format!(
                "head record format {} is not one this umpire knows",
                h.umpire_journal_head
            ),
        },
        Err(e) => HeadState::Unreadable {
            why: format!("not a head record ({e})"),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_head_sits_beside_the_journal() {
        assert_eq!(
            head_path(Path::new("/j/2026-11-22.jsonl")),
            Path::new("/j/2026-11-22.jsonl.head")
        );
        assert_eq!(head_path(Path::new("n.jsonl")), Path::new("n.jsonl.head"));
    }

    #[test]
    fn a_head_reads_back_as_written() {
        let dir = tempfile::tempdir().unwrap();
        let j = dir.path().join("n.jsonl");
        assert_eq!(read_head(&j), HeadState::Missing);
        let h = Head::new(3, "abc");
        std::fs::write(head_path(&j), h.encode()).unwrap();
        assert_eq!(read_head(&j), HeadState::Found(h));
    }

    #[test]
    fn a_head_that_is_not_one_is_unreadable_with_the_reason() {
        let dir = tempfile::tempdir().unwrap();
        let j = dir.path().join("n.jsonl");
        for (text, says) in [
            (&b"{\"entries\":3"[..], "not a head record"),
            (b"", "not a head record"),
            (
                b"{\"umpire_journal_head\":7,\"entries\":1,\"hash\":\"x\"}",
                "format 7",
            ),
        ] {
            std::fs::write(head_path(&j), text).unwrap();
            match read_head(&j) {
                HeadState::Unreadable { why } => assert!(why.contains(says), "{why}"),
                h => panic!("{h:?}"),
            }
        }
        std::fs::remove_file(head_path(&j)).unwrap();
        std::fs::create_dir(head_path(&j)).unwrap();
        assert!(matches!(read_head(&j), HeadState::Unreadable { .. }));
    }
}
