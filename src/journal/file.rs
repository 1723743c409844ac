//! The journal file: append-only JSON Lines, each line synced to disk before the caller shows
//! its result; a line cut off by a crash is dropped with a warning, damage anywhere else is
//! refused with the line number.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;
use thiserror::Error;

use super::chain::{ChainCheck, Line, Verified, entry_hash, verify_lines};

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
    /// Another umpire holds the journal.
    #[error(
        "journal `{path}` is in use by another umpire session; close it or give another file with `--journal`"
    )]
    Locked {
        /// The journal.
        path: PathBuf,
    },
    /// A line before the last cannot be read: the file was damaged.
    #[error(
        "journal `{path}` is damaged at line {line}: {why}; it was not changed (run `umpire --journal NEW` to start a new one)"
    )]
    Damaged {
        /// The journal.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        why: String,
    },
    /// The hash chain is broken: an entry was altered after it was written.
    #[error("journal `{path}`: entry #{seq} (line {line}) was altered after it was written: {why}")]
    Altered {
        /// The journal.
        path: PathBuf,
        /// The first altered entry.
        seq: u64,
        /// Its line.
        line: usize,
        /// What does not match.
        why: String,
    },
    /// An entry could not be turned into JSON.
    #[error("journal entry could not be written: {0}")]
    Encode(#[from] serde_json::Error),
}

/// An open journal, positioned to append.
#[derive(Debug)]
pub struct JournalFile {
    path: PathBuf,
    file: File,
    next_seq: u64,
    last_hash: String,
}

/// What opening a journal found.
#[derive(Debug)]
pub struct Opened<T> {
    /// The journal, ready to append.
    pub journal: JournalFile,
    /// The entries already in it, in order (entry `i` has sequence number `i + 1`).
    pub entries: Vec<T>,
    /// Set when a partial last line left by a crash was dropped.
    pub warning: Option<String>,
}

impl JournalFile {
    /// Opens `path` for appending, creating it if needed, and reads the entries already in
    /// it. A partial last line (a crash while writing) is cut off with a warning; a damaged
    /// line anywhere else, or a broken hash chain, is an error and the file is left alone.
    pub fn open<T: DeserializeOwned>(path: impl AsRef<Path>) -> Result<Opened<T>, JournalError> {
        let path = path.as_ref().to_path_buf();
        let io = |source| JournalError::Io {
            path: path.clone(),
            source,
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(&path)
            .map_err(io)?;
        // A file system without locks still gets a journal; only a held lock refuses.
        if let Err(std::fs::TryLockError::WouldBlock) = file.try_lock() {
            return Err(JournalError::Locked { path });
        }
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(io)?;

        let mut warning = None;
        let complete = match bytes.iter().rposition(|&b| b == b'\n') {
            Some(i) => i + 1,
            None => 0,
        };
        if complete < bytes.len() {
            let torn = bytes.len() - complete;
            // Only the tail after the last newline can be a write cut short by a crash.
            file.set_len(complete as u64).map_err(io)?;
            file.seek(SeekFrom::End(0)).map_err(io)?;
            file.sync_data().map_err(io)?;
            warning = Some(format!(
                "journal `{}`: dropped an incomplete last entry ({torn} bytes) left by an interrupted write; everything before it is intact",
                path.display()
            ));
            bytes.truncate(complete);
        }
        let (entries, last_hash) = read_entries(&path, bytes)?;
        let next_seq = entries.len() as u64 + 1;
        Ok(Opened {
            journal: JournalFile {
                path,
                file,
                next_seq,
                last_hash,
            },
            entries,
            warning,
        })
    }

    /// Appends one entry and syncs it to disk; returns its sequence number. When this
    /// returns, the entry survives a crash.
    pub fn append<T: Serialize>(&mut self, entry: &T) -> Result<u64, JournalError> {
        let seq = self.next_seq;
        let entry_json = serde_json::to_string(entry)?;
        let hash = entry_hash(seq, &self.last_hash, &entry_json);
        let raw = serde_json::value::RawValue::from_string(entry_json)?;
        let line = Line {
            seq,
            prev: std::mem::take(&mut self.last_hash),
            hash: hash.clone(),
            entry: &raw,
        };
        let mut text = serde_json::to_string(&line)?;
        text.push('\n');
        let io = |source| JournalError::Io {
            path: self.path.clone(),
            source,
        };
        // One write for the whole line, so a crash can only leave a partial *last* line.
        let written = self
            .file
            .write_all(text.as_bytes())
            .and_then(|()| self.file.sync_data());
        if let Err(e) = written {
            self.last_hash = line.prev;
            return Err(io(e));
        }
        self.last_hash = hash;
        self.next_seq += 1;
        Ok(seq)
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

    /// Re-reads the file and checks its hash chain.
    pub fn verify(&self) -> Result<Verified, JournalError> {
        verify_file(&self.path)
    }
}

/// Reads the entries of a journal's complete lines, checking the hash chain as it goes;
/// returns them and the last entry's hash.
fn read_entries<T: DeserializeOwned>(
    path: &Path,
    bytes: Vec<u8>,
) -> Result<(Vec<T>, String), JournalError> {
    let text = String::from_utf8(bytes).map_err(|e| JournalError::Damaged {
        path: path.to_path_buf(),
        line: 1 + e.as_bytes()[..e.utf8_error().valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count(),
        why: "not UTF-8 text".into(),
    })?;
    let mut entries = Vec::new();
    let mut chain = ChainCheck::new();
    for (i, l) in text.lines().enumerate() {
        let damaged = |why: String| JournalError::Damaged {
            path: path.to_path_buf(),
            line: i + 1,
            why,
        };
        let line: Line<'_> = serde_json::from_str(l).map_err(|e| damaged(e.to_string()))?;
        if let Err(Verified::Altered { seq, line, why }) = chain.check(i + 1, &line) {
            return Err(JournalError::Altered {
                path: path.to_path_buf(),
                seq,
                line,
                why,
            });
        }
        entries.push(serde_json::from_str(line.entry.get()).map_err(|e| damaged(e.to_string()))?);
    }
    Ok((entries, chain.last_hash().to_string()))
}

/// Reads a journal without opening it for writing: its entries, with the chain checked. A
/// partial last line (a crash) is left out, and the file is not touched.
pub fn read_file<T: DeserializeOwned>(path: &Path) -> Result<Vec<T>, JournalError> {
    let mut bytes = std::fs::read(path).map_err(|source| JournalError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    bytes.truncate(complete);
    Ok(read_entries(path, bytes)?.0)
}

/// Checks the hash chain of the journal at `path` without opening it for writing.
pub fn verify_file(path: &Path) -> Result<Verified, JournalError> {
    let text = std::fs::read_to_string(path).map_err(|source| JournalError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(verify_lines(text.lines()))
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

    fn write(path: &Path, n: u32) {
        let mut o = JournalFile::open::<E>(path).unwrap();
        for i in 1..=n {
            o.journal.append(&e(i)).unwrap();
        }
    }

    #[test]
    fn entries_come_back_in_order() {
        let (_d, path) = temp();
        write(&path, 3);
        let o = JournalFile::open::<E>(&path).unwrap();
        assert_eq!(o.entries, vec![e(1), e(2), e(3)]);
        assert!(o.warning.is_none());
        assert_eq!(o.journal.verify().unwrap(), Verified::Intact { entries: 3 });
    }

    #[test]
    fn appending_after_reopen_continues_the_chain() {
        let (_d, path) = temp();
        write(&path, 2);
        let mut o = JournalFile::open::<E>(&path).unwrap();
        assert_eq!(o.journal.append(&e(3)).unwrap(), 3);
        drop(o);
        assert_eq!(verify_file(&path).unwrap(), Verified::Intact { entries: 3 });
    }

    #[test]
    fn a_torn_last_line_is_dropped_with_a_warning() {
        let (_d, path) = temp();
        write(&path, 3);
        let full = std::fs::read(&path).unwrap();
        std::fs::write(&path, &full[..full.len() - 10]).unwrap();
        let mut o = JournalFile::open::<E>(&path).unwrap();
        assert_eq!(o.entries, vec![e(1), e(2)]);
        assert!(
            o.warning
                .as_deref()
                .unwrap()
                .contains("incomplete last entry")
        );
        o.journal.append(&e(9)).unwrap();
        drop(o);
        assert_eq!(verify_file(&path).unwrap(), Verified::Intact { entries: 3 });
    }

    #[test]
    fn damage_in_the_middle_is_refused_with_the_line() {
        let (_d, path) = temp();
        write(&path, 3);
        let text = std::fs::read_to_string(&path).unwrap();
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        lines[1] = lines[1][..20].to_string();
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
        let err = JournalFile::open::<E>(&path).unwrap_err();
        assert!(
            matches!(err, JournalError::Damaged { line: 2, .. }),
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
        match verify_file(&path).unwrap() {
            Verified::Altered { seq, line, .. } => assert_eq!((seq, line), (2, 2)),
            v => panic!("{v:?}"),
        }
        assert!(matches!(
            JournalFile::open::<E>(&path).unwrap_err(),
            JournalError::Altered { seq: 2, .. }
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
        match verify_file(&path).unwrap() {
            Verified::Altered { seq, .. } => assert_eq!(seq, 3),
            v => panic!("{v:?}"),
        }
    }

    #[test]
    fn a_journal_is_held_by_one_session() {
        let (_d, path) = temp();
        let _first = JournalFile::open::<E>(&path).unwrap();
        assert!(matches!(
            JournalFile::open::<E>(&path).unwrap_err(),
            JournalError::Locked { .. }
        ));
    }
}
