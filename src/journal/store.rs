//! Where a journal's bytes go: the [`Store`] a [`JournalFile`](super::JournalFile) writes
//! through, and [`DiskStore`], the real one (the journal file, opened for appending, and
//! its head record and snapshot beside it).
//!
//! The trait is the seam for fault tests: they wrap the disk store in one that fails
//! part-way through a line, in a sync, in the head's write or in cutting the file back,
//! and check that the journal is exactly as before each failure. One call through a
//! `Box<dyn Store>` per write costs nothing beside the sync that follows it.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::head::head_path;
use super::snapshot::snapshot_path;

/// What a journal needs from the disk.
pub(crate) trait Store: std::fmt::Debug + Send {
    /// Appends `bytes` at the end of the journal. May write part of them and then fail.
    fn append(&mut self, bytes: &[u8]) -> io::Result<()>;
    /// Makes everything appended so far survive a crash.
    fn sync(&mut self) -> io::Result<()>;
    /// Cuts the journal back to its first `len` bytes.
    fn truncate(&mut self, len: u64) -> io::Result<()>;
    /// Replaces the head record with `bytes`, whole or not at all.
    fn write_head(&mut self, bytes: &[u8]) -> io::Result<()>;
    /// Replaces the snapshot with `bytes`, whole or not at all.
    fn write_snapshot(&mut self, bytes: &[u8]) -> io::Result<()>;
}

/// The journal file, its head record and its snapshot on disk.
#[derive(Debug)]
pub(crate) struct DiskStore {
    /// The journal, opened for appending (and locked by the caller).
    file: File,
    /// The head record.
    head: Beside,
    /// The snapshot.
    snapshot: Beside,
}

/// A file beside the journal that is only ever replaced whole: written to a temporary file
/// beside it, synced, and renamed over it.
#[derive(Debug)]
struct Beside {
    path: PathBuf,
    /// Where a new version is written before it is renamed over the old one.
    tmp: PathBuf,
}

impl Beside {
    fn new(path: PathBuf) -> Self {
        let mut tmp = path.clone().into_os_string();
        tmp.push(".tmp");
        Beside {
            path,
            tmp: PathBuf::from(tmp),
        }
    }

    /// Replaces the file with `bytes`, whole or not at all.
    fn replace(&self, bytes: &[u8]) -> io::Result<()> {
        // The folder is not synced after the rename: a crash may bring back the older file
        // (a head record that lags behind the journal, which is not damage; a snapshot
        // further behind, which only means more entries to replay).
        let written = self
            .write_tmp(bytes)
            .and_then(|()| std::fs::rename(&self.tmp, &self.path));
        if written.is_err() {
            let _ = std::fs::remove_file(&self.tmp);
        }
        written
    }

    fn write_tmp(&self, bytes: &[u8]) -> io::Result<()> {
        // A stale one from a crash is removed, never followed if it is a symlink.
        match std::fs::remove_file(&self.tmp) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
        let mut tmp = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&self.tmp)?;
        tmp.write_all(bytes)?;
        tmp.sync_data()
    }
}

impl DiskStore {
    /// The store of the journal at `path`, open as `file`.
    pub(crate) fn new(file: File, path: &Path) -> Self {
        DiskStore {
            file,
            head: Beside::new(head_path(path)),
            snapshot: Beside::new(snapshot_path(path)),
        }
    }
}

impl Store for DiskStore {
    fn append(&mut self, bytes: &[u8]) -> io::Result<()> {
        // One write for the whole line, so a crash can only leave a partial *last* line.
        self.file.write_all(bytes)
    }

    fn sync(&mut self) -> io::Result<()> {
        self.file.sync_data()
    }

    fn truncate(&mut self, len: u64) -> io::Result<()> {
        // The file is opened for appending: the next write lands at the new end.
        self.file.set_len(len)
    }

    fn write_head(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.head.replace(bytes)
    }

    fn write_snapshot(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.snapshot.replace(bytes)
    }
}

/// A store that refuses everything: stands in while a test wraps the real one.
#[cfg(test)]
#[derive(Debug)]
pub(crate) struct Nowhere;

#[cfg(test)]
impl Store for Nowhere {
    fn append(&mut self, _: &[u8]) -> io::Result<()> {
        Err(io::Error::other("no store"))
    }
    fn sync(&mut self) -> io::Result<()> {
        Err(io::Error::other("no store"))
    }
    fn truncate(&mut self, _: u64) -> io::Result<()> {
        Err(io::Error::other("no store"))
    }
    fn write_head(&mut self, _: &[u8]) -> io::Result<()> {
        Err(io::Error::other("no store"))
    }
    fn write_snapshot(&mut self, _: &[u8]) -> io::Result<()> {
        Err(io::Error::other("no store"))
    }
}
