//! The journal under faults: appends that fail part-way (at the first byte, mid-line, in the
//! sync, in the head record, and when even cutting back fails), entries lost at the end in
//! several amounts, files cut at every point, head records missing, stale, lagging or
//! corrupt, lines over the limit, and paths that are not regular files.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::faulty::{Plan, inject};
use super::*;

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

/// A journal of `n` entries at `path`, closed.
fn write(path: &Path, n: u32) {
    let mut o = open(path).unwrap();
    for i in 1..=n {
        o.journal.append(&e(i)).unwrap();
    }
}

fn verify(path: &Path) -> Verified {
    verify_file(path, Caps::DEFAULT).unwrap()
}

/// The journal file and its head record, byte for byte.
fn snapshot(path: &Path) -> (Vec<u8>, Vec<u8>) {
    (
        std::fs::read(path).unwrap(),
        std::fs::read(head_path(path)).unwrap(),
    )
}

/// The hash of entry `seq` of the journal at `path`.
fn hash_of(path: &Path, seq: usize) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let line: serde_json::Value = serde_json::from_str(text.lines().nth(seq - 1).unwrap()).unwrap();
    line["hash"].as_str().unwrap().to_string()
}

fn set_head(path: &Path, entries: u64, hash: &str) {
    std::fs::write(head_path(path), Head::new(entries, hash).encode()).unwrap();
}

fn damage_of(err: JournalError) -> Damage {
    match err {
        JournalError::Damaged { damage, .. } => damage,
        e => panic!("not damage: {e}"),
    }
}

/// The length of the line entry `n` makes (they are all alike but for the digits).
fn line_len(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .last()
        .unwrap()
        .len()
        + 1
}

// ---- appends that fail ----

#[test]
fn an_append_failing_at_any_byte_of_its_line_leaves_the_file_as_it_was() {
    let (_d, path) = temp();
    write(&path, 2);
    let len = line_len(&path);
    for at in [0, 1, 17, len / 2, len - 1, len] {
        let mut o = open(&path).unwrap();
        let before = snapshot(&path);
        let faults = inject(&mut o.journal);
        faults.set(Plan::write_after(at));
        let err = o.journal.append(&e(3)).unwrap_err();
        assert!(
            matches!(err, JournalError::WriteFailed { restored: true, .. }),
            "{err}"
        );
        assert!(
            err.to_string().contains("the file is as it was before"),
            "{err}"
        );
        assert_eq!(snapshot(&path), before, "failure after {at} bytes");
        assert_eq!(o.journal.len(), 2);
    }
    let v = verify(&path);
    assert!(v.is_intact() && v.entries == 2, "{v}");
}

#[test]
fn a_failed_sync_or_head_write_takes_the_whole_line_back() {
    let (_d, path) = temp();
    write(&path, 2);
    for plan in [Plan::sync(), Plan::head()] {
        let mut o = open(&path).unwrap();
        let before = snapshot(&path);
        inject(&mut o.journal).set(plan);
        assert!(o.journal.append(&e(3)).is_err(), "{plan:?}");
        assert_eq!(snapshot(&path), before, "{plan:?}");
    }
}

#[test]
fn once_the_fault_clears_the_next_entry_commits_with_the_next_number() {
    let (_d, path) = temp();
    let mut o = open(&path).unwrap();
    o.journal.append(&e(1)).unwrap();
    let faults = inject(&mut o.journal);
    // Several failures in a row, of every kind.
    for plan in [
        Plan::write_after(0),
        Plan::write_after(30),
        Plan::sync(),
        Plan::head(),
        Plan::write_after(5),
    ] {
        faults.set(plan);
        assert!(o.journal.append(&e(99)).is_err());
    }
    faults.clear();
    assert_eq!(o.journal.append(&e(2)).unwrap(), 2);
    assert_eq!(o.journal.append(&e(3)).unwrap(), 3);
    drop(o);
    let o = open(&path).unwrap();
    assert_eq!(o.entries, vec![e(1), e(2), e(3)]);
    assert!(o.warning.is_none(), "{:?}", o.warning);
}

#[test]
fn a_line_that_cannot_be_cut_back_is_cut_back_before_the_next_entry() {
    let (_d, path) = temp();
    write(&path, 1);
    let mut o = open(&path).unwrap();
    let before = snapshot(&path);
    let faults = inject(&mut o.journal);
    faults.set(Plan::write_after(25).and_truncate());
    let err = o.journal.append(&e(2)).unwrap_err();
    assert!(
        matches!(
            err,
            JournalError::WriteFailed {
                restored: false,
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("before the next entry"), "{err}");
    // The partial line is still there; nothing may follow it.
    assert_eq!(std::fs::read(&path).unwrap().len(), before.0.len() + 25);
    faults.set(Plan::default().and_truncate());
    assert!(o.journal.append(&e(2)).is_err());
    assert_eq!(std::fs::read(&path).unwrap().len(), before.0.len() + 25);
    // The disk recovers: the partial line goes, and the entry follows the last good one.
    faults.clear();
    assert_eq!(o.journal.append(&e(2)).unwrap(), 2);
    drop(o);
    let o = open(&path).unwrap();
    assert_eq!(o.entries, vec![e(1), e(2)]);
    assert!(o.warning.is_none());
}

#[test]
fn a_line_left_by_a_failure_is_cut_back_when_the_journal_closes() {
    let (_d, path) = temp();
    write(&path, 1);
    let mut o = open(&path).unwrap();
    let before = snapshot(&path);
    let faults = inject(&mut o.journal);
    faults.set(Plan::sync().and_truncate());
    assert!(o.journal.append(&e(2)).is_err());
    // A whole line whose sync failed: were it left, it would read as committed.
    assert!(std::fs::read(&path).unwrap().len() > before.0.len());
    faults.clear();
    drop(o);
    assert_eq!(snapshot(&path), before);
}

#[test]
fn a_line_over_the_journal_line_limit_is_refused_and_nothing_written() {
    let (_d, path) = temp();
    let caps = Caps {
        line: 200,
        ..Caps::DEFAULT
    };
    let mut o = JournalFile::open::<E>(&path, caps).unwrap();
    o.journal.append(&e(1)).unwrap();
    let before = snapshot(&path);
    let big = E {
        n: 2,
        text: "x".repeat(300),
    };
    let err = o.journal.append(&big).unwrap_err();
    assert!(
        matches!(err, JournalError::LineTooLong { limit: 200, .. }),
        "{err}"
    );
    let msg = err.to_string();
    assert!(msg.contains("over the journal-line limit of 200B"), "{msg}");
    assert!(msg.contains("`--limit journal-line=512B`"), "{msg}");
    assert_eq!(snapshot(&path), before);
    assert_eq!(o.journal.append(&e(2)).unwrap(), 2);
}

// ---- the end of the journal ----

#[test]
fn entries_removed_from_the_end_are_counted_and_the_journal_refused() {
    for removed in [1usize, 2, 5, 9, 10] {
        let (_d, path) = temp();
        write(&path, 10);
        let text = std::fs::read_to_string(&path).unwrap();
        let kept: String = text
            .lines()
            .take(10 - removed)
            .map(|l| format!("{l}\n"))
            .collect();
        std::fs::write(&path, &kept).unwrap();
        let before = snapshot(&path);
        let damage = damage_of(open(&path).unwrap_err());
        let found = 10 - removed as u64;
        assert_eq!(
            damage,
            Damage::Lost {
                expected: 10,
                found
            }
        );
        assert_eq!(snapshot(&path), before, "a refused journal is left alone");
        let v = verify(&path);
        assert!(!v.is_intact());
        assert_eq!(v.entries, found);
        assert!(v.to_string().starts_with("journal cut short: "), "{v}");
    }
}

#[test]
fn a_refused_journal_names_every_way_on() {
    let (_d, path) = temp();
    write(&path, 6);
    let text = std::fs::read_to_string(&path).unwrap();
    let kept: String = text.lines().take(4).map(|l| format!("{l}\n")).collect();
    std::fs::write(&path, kept).unwrap();
    let msg = open(&path).unwrap_err().to_string();
    let p = path.display();
    for part in [
        format!(
            "journal `{p}`: 2 entries lost at the end: its head record counts 6, the file holds 4"
        ),
        "the file was left as it is".to_string(),
        "`game new`".to_string(),
        "`umpire --journal NEW.jsonl`".to_string(),
        format!("bring back the 4 entries before the damage with `replay {p}`"),
        format!("`journal verify {p}`"),
        format!("remove its head record `{p}.head` and the file is taken as it is"),
    ] {
        assert!(msg.contains(&part), "{part}\nnot in\n{msg}");
    }
}

#[test]
fn a_file_cut_at_any_point_is_told_from_a_crash() {
    let (_d, path) = temp();
    write(&path, 5);
    let full = std::fs::read(&path).unwrap();
    let newlines: Vec<usize> = full
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'\n')
        .map(|(i, _)| i + 1)
        .collect();
    let head = std::fs::read(head_path(&path)).unwrap();
    for cut in (0..full.len()).step_by(7).chain([0, 1, full.len() - 1]) {
        std::fs::write(&path, &full[..cut]).unwrap();
        std::fs::write(head_path(&path), &head).unwrap();
        let complete = newlines.iter().filter(|&&n| n <= cut).count() as u64;
        let v = verify(&path);
        assert_eq!(
            v.damage,
            Some(Damage::Lost {
                expected: 5,
                found: complete
            }),
            "cut at {cut}"
        );
        let last_newline = match complete {
            0 => 0,
            n => newlines[n as usize - 1],
        };
        assert_eq!(v.torn as usize, cut - last_newline, "cut at {cut}");
        assert!(open(&path).is_err(), "cut at {cut}");
        assert_eq!(std::fs::read(&path).unwrap(), &full[..cut]);
    }
}

#[test]
fn a_crash_before_the_head_record_is_written_is_not_damage() {
    let (_d, path) = temp();
    write(&path, 4);
    // The fourth line was synced, the head not yet rewritten.
    set_head(&path, 3, &hash_of(&path, 3));
    let o = open(&path).unwrap();
    assert_eq!(o.entries.len(), 4);
    assert!(o.warning.is_none(), "{:?}", o.warning);
    drop(o);
    // Opening brought the head up to date.
    assert_eq!(
        std::fs::read(head_path(&path)).unwrap(),
        Head::new(4, &hash_of(&path, 4)).encode()
    );
}

#[test]
fn a_head_record_far_behind_still_vouches_for_the_entries_it_names() {
    let (_d, path) = temp();
    write(&path, 8);
    for behind in [0u64, 2, 7] {
        set_head(
            &path,
            behind,
            &if behind == 0 {
                super::chain::GENESIS.to_string()
            } else {
                hash_of(&path, behind as usize)
            },
        );
        let v = verify(&path);
        assert!(v.is_intact(), "{behind} behind: {v}");
        assert!(open(&path).is_ok());
    }
}

#[test]
fn a_crash_in_the_middle_of_a_line_drops_only_that_line() {
    let (_d, path) = temp();
    write(&path, 3);
    let mut bytes = std::fs::read(&path).unwrap();
    for torn in [1usize, 40, 150] {
        let mut with = bytes.clone();
        with.extend(std::iter::repeat_n(b'{', torn));
        std::fs::write(&path, &with).unwrap();
        let v = verify(&path);
        assert!(v.is_intact(), "{v}");
        assert_eq!(v.torn as usize, torn);
        assert!(v.to_string().contains("never committed"), "{v}");
        let o = open(&path).unwrap();
        assert_eq!(o.entries.len(), 3);
        assert!(o.warning.unwrap().contains(&format!("({torn} bytes)")));
    }
    bytes = std::fs::read(&path).unwrap();
    assert!(bytes.ends_with(b"\n"));
}

#[test]
fn a_deleted_journal_beside_its_head_is_refused_and_not_recreated() {
    let (_d, path) = temp();
    write(&path, 3);
    std::fs::remove_file(&path).unwrap();
    let err = open(&path).unwrap_err();
    assert!(
        err.to_string()
            .contains("the file is gone, but its head record counts 3 entries")
    );
    assert!(
        err.to_string().contains("the file deleted to start afresh"),
        "{err}"
    );
    assert_eq!(damage_of(err), Damage::Deleted { expected: 3 });
    assert!(!path.exists());
    // Removing the head record too starts afresh.
    std::fs::remove_file(head_path(&path)).unwrap();
    assert!(open(&path).unwrap().entries.is_empty());
}

#[test]
fn a_head_record_of_another_journal_is_refused() {
    let (_d, path) = temp();
    write(&path, 4);
    let other = path.with_file_name("other.jsonl");
    let mut o = open(&other).unwrap();
    for i in 1..=6 {
        o.journal.append(&e(i + 100)).unwrap();
    }
    drop(o);
    // The head of a journal with the same number of entries, or fewer, but other hashes.
    for n in [4usize, 2] {
        set_head(&path, n as u64, &hash_of(&other, n));
        let damage = damage_of(open(&path).unwrap_err());
        assert_eq!(
            damage,
            Damage::Replaced {
                seq: n as u64,
                found: 4
            }
        );
        assert!(damage.to_string().contains("replaced or rewritten"));
    }
}

// ---- no head record ----

#[test]
fn a_journal_without_its_head_record_opens_saying_it_cannot_tell() {
    let (_d, path) = temp();
    write(&path, 3);
    std::fs::remove_file(head_path(&path)).unwrap();
    let v = verify(&path);
    assert!(v.is_intact());
    assert_eq!(v.head, HeadState::Missing);
    assert!(
        v.to_string()
            .contains("cannot tell whether entries were lost at the end"),
        "{v}"
    );
    let o = open(&path).unwrap();
    assert_eq!(o.entries.len(), 3);
    let w = o.warning.clone().unwrap();
    assert!(w.contains("it has no head record"), "{w}");
    assert!(w.contains("cannot tell whether entries were lost"), "{w}");
    drop(o);
    // A head record stands beside it now: the next opening can tell.
    let o = open(&path).unwrap();
    assert!(o.warning.is_none());
}

#[test]
fn a_journal_without_its_head_record_and_with_a_torn_line_says_both() {
    let (_d, path) = temp();
    write(&path, 3);
    std::fs::remove_file(head_path(&path)).unwrap();
    let full = std::fs::read(&path).unwrap();
    // Cut in half: without the head, this looks like a crash, and the warning says it may not be.
    std::fs::write(&path, &full[..full.len() / 2]).unwrap();
    let w = open(&path).unwrap().warning.unwrap();
    assert!(w.contains("incomplete last entry"), "{w}");
    assert!(w.contains("cannot tell whether entries were lost"), "{w}");
}

#[test]
fn a_corrupt_head_record_is_written_anew_with_a_warning() {
    for bad in [
        &b"garbage"[..],
        b"",
        b"{\"umpire_journal_head\":1,\"entries\":2}",
    ] {
        let (_d, path) = temp();
        write(&path, 2);
        std::fs::write(head_path(&path), bad).unwrap();
        assert!(!verify(&path).head.found());
        let o = open(&path).unwrap();
        let w = o.warning.clone().unwrap();
        assert!(w.contains("its head record cannot be read"), "{w}");
        drop(o);
        assert!(verify(&path).head.found());
    }
}

#[test]
fn a_new_journal_gets_a_head_record_at_once() {
    let (_d, path) = temp();
    let o = open(&path).unwrap();
    assert!(o.warning.is_none());
    assert_eq!(
        read_head_of(&path),
        HeadState::Found(Head::new(0, super::chain::GENESIS))
    );
}

fn read_head_of(path: &Path) -> HeadState {
    verify(path).head
}

// ---- limits ----

#[test]
fn a_line_over_the_limit_is_reported_not_parsed_when_opening() {
    let (_d, path) = temp();
    let mut o = open(&path).unwrap();
    o.journal.append(&e(1)).unwrap();
    o.journal
        .append(&E {
            n: 2,
            text: "x".repeat(1000),
        })
        .unwrap();
    drop(o);
    let caps = Caps {
        line: 500,
        ..Caps::DEFAULT
    };
    let err = JournalFile::open::<E>(&path, caps).unwrap_err();
    let msg = err.to_string();
    assert!(
        matches!(
            damage_of(err),
            Damage::TooLong {
                line: 2,
                limit: 500,
                ..
            }
        ),
        "{msg}"
    );
    assert!(msg.contains("`--limit journal-line=2KiB`"), "{msg}");
}

#[test]
fn a_journal_over_the_file_limit_is_refused_naming_the_limit() {
    let (_d, path) = temp();
    write(&path, 20);
    let caps = Caps {
        file: 1024,
        ..Caps::DEFAULT
    };
    let msg = JournalFile::open::<E>(&path, caps).unwrap_err().to_string();
    assert!(msg.contains("bigger than the file limit of 1KiB"), "{msg}");
    assert!(msg.contains("`--limit file="), "{msg}");
    assert!(verify_file(&path, caps).is_err());
}

// ---- not regular files ----

#[cfg(unix)]
#[test]
fn devices_folders_and_links_to_devices_are_refused_as_journals() {
    let (dir, path) = temp();
    let zero = dir.path().join("zero.jsonl");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    for (p, kind) in [
        (zero.as_path(), "a character device"),
        (Path::new("/dev/null"), "a character device"),
        (dir.path(), "a folder"),
    ] {
        let msg = open(p).unwrap_err().to_string();
        assert!(msg.contains(kind), "{msg}");
        let msg = verify_file(p, Caps::DEFAULT).unwrap_err().to_string();
        assert!(msg.contains(kind), "{msg}");
    }
    // A symlink to a regular journal is fine.
    write(&path, 2);
    let link = dir.path().join("link.jsonl");
    std::os::unix::fs::symlink(&path, &link).unwrap();
    assert_eq!(open(&link).unwrap().entries.len(), 2);
}

#[cfg(unix)]
#[test]
fn a_fifo_is_refused_as_a_journal_without_waiting() {
    let (dir, _) = temp();
    let fifo = dir.path().join("pipe.jsonl");
    let Ok(status) = std::process::Command::new("mkfifo").arg(&fifo).status() else {
        eprintln!("no mkfifo: skipped");
        return;
    };
    assert!(status.success());
    let msg = open(&fifo).unwrap_err().to_string();
    assert!(
        msg.contains("a named pipe (FIFO), not a regular file"),
        "{msg}"
    );
    let msg = verify_file(&fifo, Caps::DEFAULT).unwrap_err().to_string();
    assert!(msg.contains("a named pipe"), "{msg}");
}

// ---- replay of a damaged journal ----

#[test]
fn read_file_gives_the_entries_before_the_damage() {
    let (_d, path) = temp();
    write(&path, 6);
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    lines[3] = lines[3].replace("entry 4", "entry 40");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let (entries, v) = read_file::<E>(&path, Caps::DEFAULT).unwrap();
    assert_eq!(entries, vec![e(1), e(2), e(3)]);
    assert!(matches!(v.damage, Some(Damage::Altered { seq: 4, .. })));
    assert!(
        v.to_string().contains("the 3 entries before it are intact"),
        "{v}"
    );
    // Damage on the first line leaves nothing.
    lines[0] = "not json".into();
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let (entries, v) = read_file::<E>(&path, Caps::DEFAULT).unwrap();
    assert!(entries.is_empty());
    assert!(v.to_string().contains("no entry before it"), "{v}");
}
