//! The journal file: append-only JSON Lines with a head record beside it, each line synced
//! to disk and the head rewritten before the caller shows its result.
//!
//! Opening reads the whole file (a regular file, no bigger than the file limit) and the head
//! record, and then: drops an incomplete last line left by a crash, with a warning; refuses,
//! leaving both files as they are, a damaged or altered line, a line over the journal-line
//! limit, entries lost at the end, or a journal that is not the one its head describes; and
//! opens a journal without a head record, warning that lost entries at the end cannot be
//! told. An append that fails (a full disk, an I/O error) is cut back, so the file is byte
//! for byte what it was, and the journal goes on as before once the fault clears.

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::{DeserializeOwned, IgnoredAny};
use thiserror::Error;

use super::chain::{Line, entry_hash};
use super::damage::{Damage, entries};
use super::head::{Head, HeadState, head_path, read_head};
use super::scan::{Index, Verified, index, scan};
use super::store::{DiskStore, Store};
use crate::files::{self, FileError};

/// How big a journal may be: the longest line written or read, and the largest file read
/// (the session's `journal-line` and `file` limits).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caps {
    /// Longest line, newline included, in bytes.
    pub line: usize,
    /// Largest journal file read, in bytes.
    pub file: usize,
}

impl Caps {
    /// The caps of [`crate::limits::Limits::DEFAULT`]: lines of 4 MiB, files of 16 MiB.
    pub const DEFAULT: Caps = Caps {
        line: 4 << 20,
        file: 16 << 20,
    };
}

impl Default for Caps {
    fn default() -> Self {
        Caps::DEFAULT
    }
}

/// Why a journal could not be opened or written.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum JournalError {
    /// The operating system refused.
    #[error("journal `{path}`: {source}")]
    Io {
        /// The journal.
        path: PathBuf,
        /// What failed.
        source: std::io::Error,
    },
    /// The path is not a regular file, or the file is over the file limit.
    #[error(transparent)]
    File(#[from] FileError),
    /// Another umpire holds the journal.
    #[error(
        "journal `{path}` is in use by another umpire session; close it or give another file with `--journal`"
    )]
    Locked {
        /// The journal.
        path: PathBuf,
    },
    /// The journal cannot be continued as it is; nothing was changed.
    #[error("{}", damaged(.path, .damage))]
    Damaged {
        /// The journal.
        path: PathBuf,
        /// What is wrong.
        damage: Damage,
    },
    /// An entry is longer than the journal-line limit; nothing was written.
    #[error(
        "the journal entry would be {bytes} bytes, over the journal-line limit of {}; nothing was written (raise the limit with `--limit journal-line={}` if entries this big are meant)",
        crate::limits::show_bytes(*.limit),
        crate::limits::show_bytes(.bytes.checked_next_power_of_two().unwrap_or(*.bytes))
    )]
    LineTooLong {
        /// The line's length, newline included.
        bytes: usize,
        /// The limit.
        limit: usize,
    },
    /// Writing an entry failed.
    #[error(
        "journal `{path}` could not be written: {source}; {}",
        if *.restored {
            "the file is as it was before"
        } else {
            "nor cut back yet to where it was (umpire cuts it back before the next entry, and writes none until it can)"
        }
    )]
    WriteFailed {
        /// The journal.
        path: PathBuf,
        /// What failed.
        source: std::io::Error,
        /// Whether the file was cut back to what it was before the write.
        restored: bool,
    },
    /// An entry could not be turned into JSON.
    #[error("journal entry could not be written: {0}")]
    Encode(#[from] serde_json::Error),
}

/// The message of [`JournalError::Damaged`]: what is wrong, and the ways on.
fn damaged(path: &Path, damage: &Damage) -> String {
    let p = path.display();
    let recover = match damage.intact() {
        0 => String::new(),
        n => format!(
            " and bring back the {} before the damage with `replay {p}`",
            entries(n)
        ),
    };
    let mut text = format!(
        "journal `{p}`: {damage}; the file was left as it is — to go on, start a new game (`game new` in the shell, or `umpire --journal NEW.jsonl`){recover}, or look closer with `journal verify {p}`"
    );
    if damage.at_the_end() {
        text.push_str(&format!(
            "; if this was done on purpose (a backup put back, the file deleted to start afresh), remove its head record `{}` and the file is taken as it is",
            head_path(path).display()
        ));
    }
    text
}

/// An open journal, positioned to append.
#[derive(Debug)]
pub struct JournalFile {
    path: PathBuf,
    store: Box<dyn Store>,
    caps: Caps,
    next_seq: u64,
    last_hash: String,
    /// The length of the file as committed: where a failed append is cut back to.
    len: u64,
    /// Set when a failed append could not be cut back: the bytes after `len` are no entry.
    dirty: bool,
}

/// What opening a journal found.
#[derive(Debug)]
pub struct Opened<T> {
    /// The journal, ready to append.
    pub journal: JournalFile,
    /// The entries already in it, in order (entry `i` has sequence number `i + 1`).
    pub entries: Vec<T>,
    /// Set when a partial last line left by a crash was dropped, or when there was no head
    /// record to tell whether entries were lost at the end.
    pub warning: Option<String>,
}

/// A journal read for opening and not changed in any way yet: the caller parses the entries
/// it needs from [`Reading::index`] (one that cannot be read is damage, and refusing still
/// leaves the files as they are), then [`Reading::finish`] refuses it or readies it for
/// appending.
#[derive(Debug)]
pub(crate) struct Reading {
    path: PathBuf,
    file: File,
    caps: Caps,
    /// What reading the journal found.
    pub index: Index,
}

impl JournalFile {
    /// Opens `path` for appending, creating it if needed, and reads the entries already in
    /// it (see the module docs for what opening accepts and refuses). A refused journal and
    /// its head record are left as they are.
    pub fn open<T: DeserializeOwned>(
        path: impl AsRef<Path>,
        caps: Caps,
    ) -> Result<Opened<T>, JournalError> {
        let mut reading = JournalFile::read(path.as_ref(), caps, None)?;
        let entries = reading.index.parse_from(1);
        let (journal, warning, _) = reading.finish()?;
        Ok(Opened {
            journal,
            entries,
            warning,
        })
    }

    /// Opens `path` for appending (creating it if needed, and locking it) and reads it whole,
    /// checking every line against the hash chain and the end against the head record, but
    /// parsing no entry and changing nothing; `mark` asks for the hash of that entry.
    pub(crate) fn read(
        path: &Path,
        caps: Caps,
        mark: Option<u64>,
    ) -> Result<Reading, JournalError> {
        let path = path.to_path_buf();
        let io = |source| JournalError::Io {
            path: path.clone(),
            source,
        };
        // Looked at before opening: opening a named pipe would wait for a writer.
        let existed = files::check(&path, caps.file)?;
        let head = read_head(&path);
        if let HeadState::Found(h) = &head
            && !existed
            && h.entries > 0
        {
            return Err(JournalError::Damaged {
                path,
                damage: Damage::Deleted {
                    expected: h.entries,
                },
            });
        }
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        let file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(&path)
            .map_err(io)?;
        files::is_regular(&file, &path)?;
        // A file system without locks still gets a journal; only a held lock refuses.
        if let Err(std::fs::TryLockError::WouldBlock) = file.try_lock() {
            return Err(JournalError::Locked { path });
        }
        let bytes = files::read_capped(&file, &path, caps.file)?;
        let index = index(bytes, head, caps.line, mark);
        Ok(Reading {
            path,
            file,
            caps,
            index,
        })
    }
}

impl Reading {
    /// Refuses the journal if it is damaged (its first damage: the chain's, or an entry the
    /// caller could not parse, whichever comes first), leaving it as it is; otherwise readies
    /// it for appending, cutting off an incomplete last line and bringing the head record up
    /// to date. Returns the journal, the warning to give (a last line dropped, no head record
    /// to tell lost entries by) and what was read.
    pub(crate) fn finish(self) -> Result<(JournalFile, Option<String>, Index), JournalError> {
        let Reading {
            path,
            file,
            caps,
            index,
        } = self;
        let io = |source| JournalError::Io {
            path: path.clone(),
            source,
        };
        if let Some(damage) = index.damage {
            return Err(JournalError::Damaged { path, damage });
        }
        let mut store = DiskStore::new(file, &path);
        let count = index.len();
        let mut said = Vec::new();
        if index.torn > 0 {
            // Only the tail after the last newline can be a write cut short by a crash.
            store
                .truncate(index.complete as u64)
                .and_then(|()| store.sync())
                .map_err(io)?;
            said.push(format!(
                "dropped an incomplete last entry ({} bytes) left by an interrupted write",
                index.torn
            ));
        }
        match &index.head {
            HeadState::Found(_) if index.torn > 0 => {
                said.push("its head record confirms every committed entry is intact".into());
            }
            HeadState::Found(_) => {}
            _ if count == 0 && index.torn == 0 => {}
            HeadState::Missing => said.push(format!(
                "it has no head record (`{}`: copied without it, or written by an older umpire), so umpire cannot tell whether entries were lost at its end; every entry read is intact, and a head record now stands beside them",
                head_path(&path).display(),
            )),
            HeadState::Unreadable { why } => said.push(format!(
                "its head record cannot be read ({why}), so umpire cannot tell whether entries were lost at its end; every entry read is intact, and the head record was written anew"
            )),
        }
        let current = Head::new(count, &index.last_hash);
        if index.head != HeadState::Found(current.clone()) {
            store.write_head(&current.encode()).map_err(io)?;
        }
        let warning = (!said.is_empty())
            .then(|| format!("journal `{}`: {}", path.display(), said.join("; ")));
        let journal = JournalFile {
            path,
            store: Box::new(store),
            caps,
            next_seq: count + 1,
            last_hash: index.last_hash.clone(),
            len: index.complete as u64,
            dirty: false,
        };
        Ok((journal, warning, index))
    }
}

impl JournalFile {
    /// Appends one entry, syncs it to disk and rewrites the head record; returns its sequence
    /// number. When this returns `Ok`, the entry survives a crash. When it fails, the file is
    /// cut back to what it was (or, if even that fails, before the next entry), and the
    /// journal goes on from where it was.
    pub fn append<T: Serialize>(&mut self, entry: &T) -> Result<u64, JournalError> {
        self.repair()?;
        let seq = self.next_seq;
        let entry_json = serde_json::to_string(entry)?;
        let hash = entry_hash(seq, &self.last_hash, &entry_json);
        let raw = serde_json::value::RawValue::from_string(entry_json)?;
        let line = Line {
            seq,
            prev: self.last_hash.clone(),
            hash: hash.clone(),
            entry: &raw,
        };
        let mut text = serde_json::to_string(&line)?;
        text.push('\n');
        if text.len() > self.caps.line {
            return Err(JournalError::LineTooLong {
                bytes: text.len(),
                limit: self.caps.line,
            });
        }
        // The head is written last: it never counts an entry the file does not hold.
        let head = Head::new(seq, &hash).encode();
        let written = self
            .store
            .append(text.as_bytes())
            .and_then(|()| self.store.sync())
            .and_then(|()| self.store.write_head(&head));
        if let Err(source) = written {
            let restored = self.cut_back().is_ok();
            return Err(JournalError::WriteFailed {
                path: self.path.clone(),
                source,
                restored,
            });
        }
        self.len += text.len() as u64;
        self.last_hash = hash;
        self.next_seq += 1;
        Ok(seq)
    }

    /// Cuts the file back to its committed length after a failed append; remembers when
    /// that fails too.
    fn cut_back(&mut self) -> std::io::Result<()> {
        let len = self.len;
        let r = self.store.truncate(len).and_then(|()| self.store.sync());
        self.dirty = r.is_err();
        r
    }

    /// Before appending after a failure that could not be cut back: cuts it back now, so no
    /// entry ever follows a partial line.
    fn repair(&mut self) -> Result<(), JournalError> {
        if !self.dirty {
            return Ok(());
        }
        self.cut_back().map_err(|source| JournalError::WriteFailed {
            path: self.path.clone(),
            source,
            restored: false,
        })
    }

    /// The hash of the last entry (64 zeros for none).
    pub(crate) fn last_hash(&self) -> &str {
        &self.last_hash
    }

    /// Replaces the snapshot beside the journal with `bytes` (see `snapshot.rs`), whole or
    /// not at all.
    pub(crate) fn write_snapshot(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.store.write_snapshot(bytes)
    }

    /// The journal's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// How many entries the journal holds.
    pub fn len(&self) -> u64 {
        self.next_seq - 1
    }

    /// Whether the journal has no entries.
    pub fn is_empty(&self) -> bool {
        self.next_seq == 1
    }

    /// The caps in force.
    pub fn caps(&self) -> Caps {
        self.caps
    }

    /// Uses `caps` from now on (the session's limits changed).
    pub fn set_caps(&mut self, caps: Caps) {
        self.caps = caps;
    }

    /// Re-reads the file and its head record and checks them.
    pub fn verify(&self) -> Result<Verified, JournalError> {
        verify_file(&self.path, self.caps)
    }

    /// Puts `wrap` around the store the journal writes through (fault tests).
    #[cfg(test)]
    pub(crate) fn wrap_store(&mut self, wrap: impl FnOnce(Box<dyn Store>) -> Box<dyn Store>) {
        let store = std::mem::replace(&mut self.store, Box::new(super::store::Nowhere));
        self.store = wrap(store);
    }
}

impl Drop for JournalFile {
    fn drop(&mut self) {
        // A failed write left bytes that could not be cut back: one last try.
        if self.dirty {
            let _ = self.cut_back();
        }
    }
}

/// Reads the journal at `path` and its head record without opening it for writing.
fn read_journal<T: DeserializeOwned>(
    path: &Path,
    caps: Caps,
) -> Result<(Vec<T>, Index), JournalError> {
    // The head first: a session appending meanwhile only makes the file longer than it says.
    let head = read_head(path);
    let bytes = files::read(path, caps.file)?;
    Ok(scan(bytes, head, caps.line))
}

/// Reads a journal without opening it for writing (nor changing it): the entries up to the
/// first damage, and what checking it found. A partial last line (a crash) is left out.
pub fn read_file<T: DeserializeOwned>(
    path: &Path,
    caps: Caps,
) -> Result<(Vec<T>, Verified), JournalError> {
    let (entries, index) = read_journal(path, caps)?;
    Ok((entries, index.verified()))
}

/// Checks the journal at `path` (lines, hash chain, head record) without opening it for
/// writing.
pub fn verify_file(path: &Path, caps: Caps) -> Result<Verified, JournalError> {
    Ok(read_journal::<IgnoredAny>(path, caps)?.1.verified())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    struct E {
        n: u32,
        text: String,
    }

    fn e(n: u32) -> E {
        E {
            n,
            text: format!("entry {n}"),
        }
    }

    fn temp() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("night.jsonl");
        (dir, path)
    }

    fn open(path: &Path) -> Result<Opened<E>, JournalError> {
        JournalFile::open::<E>(path, Caps::DEFAULT)
    }

    fn write(path: &Path, n: u32) {
        let mut o = open(path).unwrap();
        for i in 1..=n {
            o.journal.append(&e(i)).unwrap();
        }
    }

    fn verify(path: &Path) -> Verified {
        verify_file(path, Caps::DEFAULT).unwrap()
    }

    #[test]
    fn entries_come_back_in_order() {
        let (_d, path) = temp();
        write(&path, 3);
        let o = open(&path).unwrap();
        assert_eq!(o.entries, vec![e(1), e(2), e(3)]);
        assert!(o.warning.is_none());
        let v = o.journal.verify().unwrap();
        assert!(v.is_intact());
        assert_eq!((v.entries, v.torn), (3, 0));
        assert!(v.head.found());
    }

    #[test]
    fn appending_after_reopen_continues_the_chain() {
        let (_d, path) = temp();
        write(&path, 2);
        let mut o = open(&path).unwrap();
        assert_eq!(o.journal.append(&e(3)).unwrap(), 3);
        drop(o);
        let v = verify(&path);
        assert!(v.is_intact(), "{v}");
        assert_eq!(v.entries, 3);
    }

    #[test]
    fn a_torn_last_line_is_dropped_with_a_warning() {
        let (_d, path) = temp();
        write(&path, 2);
        // A crash in the middle of writing entry 3: part of its line, and the head still at 2.
        let mut bytes = std::fs::read(&path).unwrap();
        bytes.extend_from_slice(br#"{"seq":3,"prev":"ab"#);
        std::fs::write(&path, &bytes).unwrap();
        let mut o = open(&path).unwrap();
        assert_eq!(o.entries, vec![e(1), e(2)]);
        let w = o.warning.as_deref().unwrap();
        assert!(w.contains("incomplete last entry (19 bytes)"), "{w}");
        assert!(
            w.contains("confirms every committed entry is intact"),
            "{w}"
        );
        o.journal.append(&e(9)).unwrap();
        drop(o);
        let v = verify(&path);
        assert!(v.is_intact(), "{v}");
        assert_eq!(v.entries, 3);
    }

    #[test]
    fn damage_in_the_middle_is_refused_with_the_line() {
        let (_d, path) = temp();
        write(&path, 3);
        let text = std::fs::read_to_string(&path).unwrap();
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        lines[1] = lines[1][..20].to_string();
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
        let err = open(&path).unwrap_err();
        assert!(
            matches!(
                err,
                JournalError::Damaged {
                    damage: Damage::Unreadable { line: 2, .. },
                    ..
                }
            ),
            "{err}"
        );
        // Left as it was.
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            lines.join("\n") + "\n"
        );
    }

    #[test]
    fn an_altered_entry_is_named() {
        let (_d, path) = temp();
        write(&path, 4);
        let text = std::fs::read_to_string(&path)
            .unwrap()
            .replace("entry 2", "entry 7");
        std::fs::write(&path, text).unwrap();
        match verify(&path).damage {
            Some(Damage::Altered { seq, line, .. }) => assert_eq!((seq, line), (2, 2)),
            v => panic!("{v:?}"),
        }
        assert!(matches!(
            open(&path).unwrap_err(),
            JournalError::Damaged {
                damage: Damage::Altered { seq: 2, .. },
                ..
            }
        ));
    }

    #[test]
    fn a_removed_entry_is_named() {
        let (_d, path) = temp();
        write(&path, 4);
        let text = std::fs::read_to_string(&path).unwrap();
        let kept: Vec<&str> = text
            .lines()
            .enumerate()
            .filter(|(i, _)| *i != 2)
            .map(|(_, l)| l)
            .collect();
        std::fs::write(&path, kept.join("\n") + "\n").unwrap();
        match verify(&path).damage {
            Some(Damage::Altered { seq, .. }) => assert_eq!(seq, 3),
            v => panic!("{v:?}"),
        }
    }

    #[test]
    fn a_journal_is_held_by_one_session() {
        let (_d, path) = temp();
        let _first = open(&path).unwrap();
        assert!(matches!(
            open(&path).unwrap_err(),
            JournalError::Locked { .. }
        ));
    }
}
