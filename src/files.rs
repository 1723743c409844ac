//! The files a user names: reading them only when they are regular files and no bigger than
//! a limit, and replacing one whole (`save`) without ever leaving half of it.
//!
//! A named pipe, a device, a socket or a folder given where umpire expects a file would make
//! it wait forever (a FIFO nobody writes to), read forever (`/dev/zero`) or replace something
//! that is not a file at all (a device node, as root). Every read and every replacement of a
//! file a user names goes through here: the path is looked at first (following symlinks, so a
//! symlink to a regular file is fine and a symlink to `/dev/zero` is not), the opened handle is
//! looked at again, and at most the limit plus one byte is read, so even a file that grows
//! while it is read cannot make umpire hold more than the limit.
//!
//! This module knows nothing of what the files hold: rosters, tables, journals and rule files
//! are parsed by their own modules. The limit comes from the caller (`--limit file=…`,
//! [`crate::limits::Limits::file`]).

use std::fs::{File, Metadata, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use thiserror::Error;

/// Why a file could not be read or replaced.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum FileError {
    /// The operating system refused.
    #[error("cannot read `{path}`: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        source: io::Error,
    },
    /// The path names something that is not a regular file.
    #[error(
        "cannot read `{path}`: it is {kind}, not a regular file; give the path of a file instead"
    )]
    NotRegular {
        /// The path as given.
        path: PathBuf,
        /// What it is.
        kind: FileKind,
    },
    /// The file is bigger than the limit.
    #[error(
        "cannot read `{path}`: it is bigger than the file limit of {limit}; if it is meant to be that big, raise the limit with `--limit file={suggested}`"
    )]
    TooBig {
        /// The file.
        path: PathBuf,
        /// The limit, as shown (`16MiB`).
        limit: String,
        /// A limit that would let it be read (`64MiB`).
        suggested: String,
    },
    /// The file is not UTF-8 text.
    #[error("cannot read `{path}`: it is not UTF-8 text (byte {at} is not); save it as UTF-8")]
    NotText {
        /// The file.
        path: PathBuf,
        /// The 1-based position of the first byte that is not UTF-8.
        at: usize,
    },
    /// A file could not be written in place of another.
    #[error("cannot write `{path}`: {why}")]
    Write {
        /// The path as given.
        path: PathBuf,
        /// What went wrong, with the fix.
        why: String,
    },
}

impl FileError {
    /// An I/O error reading `path`.
    pub fn io(path: &Path, source: io::Error) -> Self {
        FileError::Io {
            path: path.to_path_buf(),
            source,
        }
    }

    /// The same error naming the file as `shown` (`rulesets/demo/init.lua` rather than the
    /// whole path).
    pub fn shown_as(mut self, shown: impl Into<PathBuf>) -> Self {
        match &mut self {
            FileError::Io { path, .. }
            | FileError::NotRegular { path, .. }
            | FileError::TooBig { path, .. }
            | FileError::NotText { path, .. }
            | FileError::Write { path, .. } => *path = shown.into(),
        }
        self
    }

    fn too_big(path: &Path, limit: usize, size: Option<u64>) -> Self {
        // Suggest a limit that fits the file (when its size is known) with room to grow.
        let size = size.unwrap_or(limit as u64).max(limit as u64);
        let mut suggested = (limit as u64).max(1);
        while suggested <= size {
            suggested = suggested.saturating_mul(2);
        }
        FileError::TooBig {
            path: path.to_path_buf(),
            limit: crate::limits::show_bytes(limit),
            suggested: crate::limits::show_bytes(usize::try_from(suggested).unwrap_or(usize::MAX)),
        }
    }
}

/// What a path names, as far as reading it goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// A regular file: the only kind umpire reads.
    Regular,
    /// A folder.
    Directory,
    /// A named pipe: reading waits for a writer, and then for as long as it writes.
    Fifo,
    /// A character device (`/dev/zero`, a terminal): reading may never end.
    CharDevice,
    /// A block device (a disk).
    BlockDevice,
    /// A Unix socket.
    Socket,
    /// Anything else the system has.
    Other,
}

impl FileKind {
    /// The kind of the file `meta` describes.
    pub fn of(meta: &Metadata) -> FileKind {
        let t = meta.file_type();
        if t.is_file() {
            return FileKind::Regular;
        }
        if t.is_dir() {
            return FileKind::Directory;
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            if t.is_fifo() {
                return FileKind::Fifo;
            }
            if t.is_char_device() {
                return FileKind::CharDevice;
            }
            if t.is_block_device() {
                return FileKind::BlockDevice;
            }
            if t.is_socket() {
                return FileKind::Socket;
            }
        }
        FileKind::Other
    }
}

impl std::fmt::Display for FileKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            FileKind::Regular => "a regular file",
            FileKind::Directory => "a folder",
            FileKind::Fifo => "a named pipe (FIFO)",
            FileKind::CharDevice => "a character device",
            FileKind::BlockDevice => "a block device",
            FileKind::Socket => "a socket",
            FileKind::Other => "an unusual kind of file",
        })
    }
}

/// Refuses `meta` unless it describes a regular file.
fn regular(path: &Path, meta: &Metadata) -> Result<(), FileError> {
    match FileKind::of(meta) {
        FileKind::Regular => Ok(()),
        kind => Err(FileError::NotRegular {
            path: path.to_path_buf(),
            kind,
        }),
    }
}

/// Checks a path before it is read: `Ok(false)` when nothing is there, `Ok(true)` for a
/// regular file no bigger than `limit`, and an error for anything else. For files read by
/// other code (the shell's history) and files umpire may create (a journal).
pub fn check(path: &Path, limit: usize) -> Result<bool, FileError> {
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(FileError::io(path, e)),
    };
    regular(path, &meta)?;
    if meta.len() > limit as u64 {
        return Err(FileError::too_big(path, limit, Some(meta.len())));
    }
    Ok(true)
}

/// Opens `path` for reading, refusing anything that is not a regular file.
///
/// The path is looked at before opening (opening a named pipe would wait for a writer) and
/// the handle after (in case the path was swapped in between).
pub fn open(path: &Path) -> Result<File, FileError> {
    let meta = std::fs::metadata(path).map_err(|e| FileError::io(path, e))?;
    regular(path, &meta)?;
    let file = File::open(path).map_err(|e| FileError::io(path, e))?;
    is_regular(&file, path)?;
    Ok(file)
}

/// Refuses an open handle that is not a regular file.
pub fn is_regular(file: &File, path: &Path) -> Result<(), FileError> {
    let meta = file.metadata().map_err(|e| FileError::io(path, e))?;
    regular(path, &meta)
}

/// Reads what is left of `reader` (the file at `path`), refusing more than `limit` bytes.
pub fn read_capped(reader: impl Read, path: &Path, limit: usize) -> Result<Vec<u8>, FileError> {
    let mut bytes = Vec::new();
    reader
        .take(limit as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| FileError::io(path, e))?;
    if bytes.len() > limit {
        let size = std::fs::metadata(path).ok().map(|m| m.len());
        return Err(FileError::too_big(path, limit, size));
    }
    Ok(bytes)
}

/// The bytes of the regular file at `path`, at most `limit` of them.
pub fn read(path: &Path, limit: usize) -> Result<Vec<u8>, FileError> {
    let file = open(path)?;
    if let Ok(meta) = file.metadata()
        && meta.len() > limit as u64
    {
        return Err(FileError::too_big(path, limit, Some(meta.len())));
    }
    read_capped(file, path, limit)
}

/// The text of the regular file at `path`, at most `limit` bytes of UTF-8.
pub fn read_to_string(path: &Path, limit: usize) -> Result<String, FileError> {
    String::from_utf8(read(path, limit)?).map_err(|e| FileError::NotText {
        path: path.to_path_buf(),
        at: e.utf8_error().valid_up_to() + 1,
    })
}

/// Where a write to `path` lands: `path` itself, or the file a symlink at `path` leads to
/// (through any number of links, up to the system's usual 40).
fn write_target(path: &Path) -> Result<PathBuf, FileError> {
    let mut target = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&target) {
            Ok(m) if m.file_type().is_symlink() => {
                let link = std::fs::read_link(&target).map_err(|e| write_error(path, e))?;
                target = match target.parent() {
                    Some(dir) => dir.join(link),
                    None => link,
                };
            }
            _ => return Ok(target),
        }
    }
    Err(FileError::Write {
        path: path.to_path_buf(),
        why: "too many symlinks in a row; give the path of the file itself".into(),
    })
}

fn write_error(path: &Path, e: io::Error) -> FileError {
    FileError::Write {
        path: path.to_path_buf(),
        why: e.to_string(),
    }
}

/// Replaces the file at `path` with `bytes`, all or nothing: they are written to a new file
/// beside it, synced, and renamed over it, so a crash leaves the old file or the new one and
/// never half of either. A symlink at `path` is written through (its target is replaced, the
/// link stays); anything at `path` that is not a regular file is refused and left alone. On
/// any failure the new file is removed again.
pub fn replace(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    replace_with(path, bytes, write_new)
}

/// [`replace`], writing the new file with `write` (tests make it fail).
fn replace_with(
    path: &Path,
    bytes: &[u8],
    write: impl FnOnce(&Path, &[u8], Option<&Metadata>) -> io::Result<()>,
) -> Result<(), FileError> {
    let target = write_target(path)?;
    let existing = match std::fs::metadata(&target) {
        Ok(m) => {
            if FileKind::of(&m) != FileKind::Regular {
                return Err(FileError::Write {
                    path: path.to_path_buf(),
                    why: format!(
                        "it is {}, not a regular file; give the path of a file to write",
                        FileKind::of(&m)
                    ),
                });
            }
            Some(m)
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(write_error(path, e)),
    };
    let name = target
        .file_name()
        .ok_or_else(|| FileError::Write {
            path: path.to_path_buf(),
            why: "it names a folder; give a file name".into(),
        })?
        .to_string_lossy()
        .into_owned();
    let tmp = target.with_file_name(format!(".{name}.umpire-tmp"));
    let written =
        write(&tmp, bytes, existing.as_ref()).and_then(|()| std::fs::rename(&tmp, &target));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(write_error(path, e));
    }
    Ok(())
}

/// Writes `bytes` to a new file at `tmp` and syncs it; a stale one left by a crash is
/// removed first (never followed, if it is a symlink). Takes the permissions of the file it
/// will replace.
fn write_new(tmp: &Path, bytes: &[u8], replaces: Option<&Metadata>) -> io::Result<()> {
    match std::fs::remove_file(tmp) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
        _ => {}
    }
    let mut file = OpenOptions::new().write(true).create_new(true).open(tmp)?;
    if let Some(m) = replaces {
        file.set_permissions(m.permissions())?;
    }
    file.write_all(bytes)?;
    file.sync_all()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_regular_file_is_read_whole() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.toml");
        std::fs::write(&p, "x = 1\n").unwrap();
        assert_eq!(read_to_string(&p, 100).unwrap(), "x = 1\n");
        assert!(check(&p, 100).unwrap());
        assert!(!check(&dir.path().join("none"), 100).unwrap());
    }

    #[test]
    fn a_file_over_the_limit_is_refused_naming_the_limit_and_a_bigger_one() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("big.toml");
        std::fs::write(&p, vec![b'x'; 3000]).unwrap();
        let e = read(&p, 1024).unwrap_err().to_string();
        assert!(e.contains("bigger than the file limit of 1KiB"), "{e}");
        assert!(e.contains("`--limit file=4KiB`"), "{e}");
        assert!(check(&p, 1024).is_err());
        // Exactly at the limit is fine.
        assert_eq!(read(&p, 3000).unwrap().len(), 3000);
    }

    #[test]
    fn a_folder_is_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let e = read(dir.path(), 100).unwrap_err().to_string();
        assert!(e.contains("it is a folder, not a regular file"), "{e}");
    }

    #[cfg(unix)]
    #[test]
    fn devices_and_symlinks_to_them_are_refused_without_reading() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("rules.lua");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        let e = read(&link, 100).unwrap_err().to_string();
        assert!(e.contains("a character device"), "{e}");
        assert!(check(Path::new("/dev/null"), 100).is_err());
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_to_a_regular_file_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.toml");
        std::fs::write(&real, "x").unwrap();
        let link = dir.path().join("link.toml");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        assert_eq!(read_to_string(&link, 10).unwrap(), "x");
    }

    #[test]
    fn text_that_is_not_utf8_names_the_byte() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.toml");
        std::fs::write(&p, b"ab\xffc").unwrap();
        let e = read_to_string(&p, 100).unwrap_err().to_string();
        assert!(e.contains("byte 3 is not"), "{e}");
    }

    #[test]
    fn replacing_a_file_leaves_nothing_beside_it() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("night.json");
        std::fs::write(&p, "old").unwrap();
        replace(&p, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "new");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn replacing_through_a_symlink_writes_its_target_and_keeps_the_link() {
        let dir = tempfile::tempdir().unwrap();
        let sub = dir.path().join("saves");
        std::fs::create_dir(&sub).unwrap();
        let real = sub.join("real.json");
        std::fs::write(&real, "old").unwrap();
        let link = dir.path().join("night.json");
        std::os::unix::fs::symlink("saves/real.json", &link).unwrap();
        replace(&link, b"new").unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");
        // The temporary file went beside the target, and is gone.
        assert_eq!(std::fs::read_dir(&sub).unwrap().count(), 1);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    }

    #[cfg(unix)]
    #[test]
    fn a_dangling_symlink_is_written_through_to_a_new_target() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("night.json");
        std::os::unix::fs::symlink("later.json", &link).unwrap();
        replace(&link, b"new").unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.path().join("later.json")).unwrap(),
            "new"
        );
    }

    #[test]
    fn replacing_a_folder_is_refused_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let sub = dir.path().join("saves");
        std::fs::create_dir(&sub).unwrap();
        let e = replace(&sub, b"x").unwrap_err().to_string();
        assert!(e.contains("it is a folder, not a regular file"), "{e}");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn replacing_a_device_is_refused_and_the_device_stays() {
        use std::os::unix::fs::FileTypeExt;
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("null.json");
        std::os::unix::fs::symlink("/dev/null", &link).unwrap();
        let e = replace(&link, b"x").unwrap_err().to_string();
        assert!(e.contains("a character device"), "{e}");
        assert!(
            std::fs::metadata("/dev/null")
                .unwrap()
                .file_type()
                .is_char_device()
        );
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_failed_replacement_removes_its_temporary_file_and_keeps_the_old_one() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("night.json");
        std::fs::write(&p, "old").unwrap();
        // The disk fills up after the new file was made and half written.
        let e = replace_with(&p, b"new", |tmp, bytes, _| {
            std::fs::write(tmp, &bytes[..1])?;
            Err(io::Error::other("no space left on device"))
        })
        .unwrap_err()
        .to_string();
        assert_eq!(
            e,
            "cannot write `{}`: no space left on device".replace("{}", &p.display().to_string())
        );
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "old");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        // The target's folder does not exist: nothing is made anywhere.
        let q = dir.path().join("missing").join("night.json");
        assert!(replace(&q, b"x").is_err());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_stale_temporary_file_from_a_crash_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("night.json");
        std::fs::write(dir.path().join(".night.json.umpire-tmp"), "stale").unwrap();
        replace(&p, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "new");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
