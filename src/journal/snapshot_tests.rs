//! Snapshots never change what a journal says: opened from its snapshot or from every entry,
//! a journal gives the same game, the same history and the same records; a snapshot that
//! does not fit is passed over; the chain is still checked whole.

use std::path::{Path, PathBuf};

use proptest::prelude::*;

use super::tests::{game, tx};
use super::*;
use crate::state::{Game, Value};

/// A journal at `dir/j.jsonl` with `sets` transactions (`set legN sp V`), a snapshot written
/// every `every` entries; the game after them.
fn written(dir: &Path, sets: u64, every: u64) -> (PathBuf, Game) {
    let path = dir.join("j.jsonl");
    let mut g = game();
    let (mut j, _) = Journal::open_with(&path, &mut g, Caps::DEFAULT, every).unwrap();
    for i in 1..=sets {
        let c = g
            .set_attr(
                &format!("leg{}", i % 3 + 1),
                "sp",
                Value::Int((i % 12) as i64),
            )
            .unwrap();
        j.commit(tx(&format!("set #{i}"), vec![c]), &g).unwrap();
    }
    (path, g)
}

/// Everything opening gives, to compare two openings.
#[derive(Debug, PartialEq)]
struct Seen {
    game: Game,
    history: History,
    len: u64,
    next: (Option<u64>, Option<u64>),
    last_rules: Option<RulesRecord>,
    recent: Vec<(u64, Transaction, bool)>,
}

/// Opens the journal at `path` (writing no snapshot) onto the three legions.
fn open(path: &Path) -> (Seen, Option<u64>, Option<String>) {
    let mut g = game();
    let (j, warning) = Journal::open_with(path, &mut g, Caps::DEFAULT, 0).unwrap();
    let seen = Seen {
        history: j.history().clone(),
        len: j.len(),
        next: (j.next_undo(), j.next_redo()),
        last_rules: j.last_rules().cloned(),
        recent: j
            .recent(usize::MAX)
            .unwrap()
            .into_iter()
            .map(|(seq, t, f)| (seq, t.into_owned(), f))
            .collect(),
        game: g,
    };
    (seen, j.opened_from_snapshot(), warning)
}

fn without_snapshot(path: &Path) -> Seen {
    let _ = std::fs::remove_file(snapshot_path(path));
    let (seen, from, _) = open(path);
    assert_eq!(from, None);
    seen
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Random commands, undos, redos, rules records and sessions reopened, with snapshots
    /// every few entries: the journal opened from its snapshot is the journal opened from
    /// every entry, and both are the live game.
    #[test]
    fn a_journal_opened_from_its_snapshot_is_the_one_replayed_from_every_entry(
        every in 1u64..6,
        ops in prop::collection::vec((0u8..6, 1usize..4, 0i64..13), 1..40),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j.jsonl");
        let mut g = game();
        let (mut j, _) = Journal::open_with(&path, &mut g, Caps::DEFAULT, every).unwrap();
        for (op, unit, v) in ops {
            let id = format!("leg{unit}");
            match op {
                0 | 1 => {
                    let c = g.set_attr(&id, "sp", Value::Int(v)).unwrap();
                    j.commit(tx(&format!("set {id} sp {v}"), vec![c]), &g).unwrap();
                }
                2 => {
                    let c = g.set_attr(&id, "sp", Value::Int(v)).unwrap();
                    let mut t = tx("house on", vec![c]);
                    t.rules = Some(Box::new(RulesRecord {
                        ruleset: Some(format!("r{v}")),
                        ..RulesRecord::default()
                    }));
                    j.commit(t, &g).unwrap();
                }
                3 => { j.undo(&mut g).unwrap(); }
                4 => { j.redo(&mut g).unwrap(); }
                _ => {
                    // The session ends and another continues the journal.
                    drop(j);
                    g = game();
                    j = Journal::open_with(&path, &mut g, Caps::DEFAULT, every).unwrap().0;
                    j.start_session(1).unwrap();
                }
            }
        }
        let live = (g, j.history().clone(), j.len());
        drop(j);
        let (with, from, warning) = open(&path);
        prop_assert_eq!(warning, None);
        // A snapshot was written every `every` entries (a session's opening entry, which has
        // no game to snapshot, may follow the last).
        match from {
            Some(at) => prop_assert!(at + every >= live.2, "snapshot at {} of {}", at, live.2),
            None => prop_assert!(live.2 <= every, "no snapshot in {} entries", live.2),
        }
        prop_assert_eq!((&with.game, &with.history, with.len), (&live.0, &live.1, live.2));
        let replayed = Journal::replay_file(&path, game(), Caps::DEFAULT).unwrap();
        prop_assert_eq!(&replayed.game, &live.0);
        prop_assert_eq!(with, without_snapshot(&path));
    }
}

#[test]
fn opening_from_a_snapshot_still_checks_the_whole_chain() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = written(dir.path(), 20, 5);
    assert_eq!(open(&path).1, Some(20));
    // Entry 3 edited: it is behind the snapshot, and still found.
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("\"set #3\"", "\"set #9\"");
    std::fs::write(&path, text).unwrap();
    let mut g = game();
    let err = Journal::open(&path, &mut g, Caps::DEFAULT).unwrap_err();
    assert!(
        matches!(
            err,
            ReplayError::File(JournalError::Damaged {
                damage: Damage::Altered { seq: 3, .. },
                ..
            })
        ),
        "{err}"
    );
    assert_eq!(g, game());
}

#[test]
fn a_snapshot_that_does_not_fit_is_passed_over_without_a_word_and_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let (path, live) = written(dir.path(), 10, 4);
    let snap = snapshot_path(&path);
    let good = std::fs::read(&snap).unwrap();
    let foreign = {
        // Another game's journal: its first entry differs, so every hash does.
        let other = dir.path().join("other.jsonl");
        let mut g = game();
        let (mut j, _) = Journal::open_with(&other, &mut g, Caps::DEFAULT, 4).unwrap();
        for i in 0..10 {
            let c = g.set_attr("leg2", "sp", Value::Int(i)).unwrap();
            j.commit(tx("set", vec![c]), &g).unwrap();
        }
        std::fs::read(snapshot_path(&other)).unwrap()
    };
    let damaged = {
        let mut b = good.clone();
        let i = b.len() - 20;
        b[i] ^= 1;
        b
    };
    for (what, bytes) in [
        ("damaged", damaged),
        ("cut short", good[..good.len() / 2].to_vec()),
        ("another journal's", foreign),
        ("empty", Vec::new()),
    ] {
        std::fs::write(&snap, &bytes).unwrap();
        let mut g = game();
        let (j, warning) = Journal::open_with(&path, &mut g, Caps::DEFAULT, 4).unwrap();
        assert_eq!(warning, None, "{what}");
        assert_eq!(j.opened_from_snapshot(), None, "{what}");
        assert_eq!(g, live, "{what}");
        drop(j);
        // A fresh one was written in its place.
        assert_eq!(open(&path).1, Some(10), "{what}");
    }
    // Replayed onto another starting game, the journal's snapshot (of a game that started
    // with the legions alone) is passed over.
    let mut start = game();
    start.add_side("britons", "Britons").unwrap();
    let (j, _) = Journal::open_with(&path, &mut start, Caps::DEFAULT, 0).unwrap();
    assert_eq!(j.opened_from_snapshot(), None);
    assert!(start.side("britons").is_some());
    assert_eq!(start.unit("leg1"), live.unit("leg1"));
}

#[test]
fn a_journal_cut_back_behind_its_snapshot_opens_from_every_entry() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = written(dir.path(), 10, 4);
    // A backup of the first five entries put back, its head record removed on purpose.
    let text = std::fs::read_to_string(&path).unwrap();
    let kept: String = text.lines().take(5).map(|l| format!("{l}\n")).collect();
    std::fs::write(&path, kept).unwrap();
    std::fs::remove_file(head_path(&path)).unwrap();
    let mut g = game();
    let (j, warning) = Journal::open(&path, &mut g, Caps::DEFAULT).unwrap();
    assert!(warning.unwrap().contains("no head record"));
    assert_eq!(j.opened_from_snapshot(), None);
    assert_eq!(j.len(), 5);
    drop(j);
    let replayed = Journal::replay_file(&path, game(), Caps::DEFAULT).unwrap();
    assert_eq!(g, replayed.game);
}

#[test]
fn log_undo_and_redo_reach_behind_the_snapshot() {
    let dir = tempfile::tempdir().unwrap();
    let (path, live) = written(dir.path(), 7, 3);
    let mut g = game();
    let (mut j, _) = Journal::open_with(&path, &mut g, Caps::DEFAULT, 3).unwrap();
    assert_eq!(j.opened_from_snapshot(), Some(6));
    assert_eq!(g, live);
    let commands: Vec<String> = j
        .recent(10)
        .unwrap()
        .into_iter()
        .map(|(seq, t, in_force)| format!("{seq} {} {in_force}", t.command))
        .collect();
    let expected: Vec<String> = (1..=7).map(|i| format!("{i} set #{i} true")).collect();
    assert_eq!(commands, expected);
    for i in (1..=7).rev() {
        let r = j.undo(&mut g).unwrap().unwrap();
        assert_eq!((r.tx, r.command), (i, format!("set #{i}")));
    }
    assert_eq!(g, game());
    assert!(!j.recent(1).unwrap()[0].2);
    while j.redo(&mut g).unwrap().is_some() {}
    assert_eq!(g, live);
    drop(j);
    assert_eq!(open(&path).0.game, live);
}

#[test]
fn an_entry_behind_a_snapshot_that_cannot_be_read_is_named_when_it_is_needed() {
    // A journal whose second entry is no entry this umpire knows, though its hash holds (made
    // on purpose: umpire never writes one), and a snapshot at its third.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("j.jsonl");
    let mut g = game();
    let c1 = g.set_attr("leg1", "sp", Value::Int(1)).unwrap();
    let c3 = g.set_attr("leg3", "sp", Value::Int(3)).unwrap();
    let mut history = History::new();
    let snapshot = {
        let mut f = JournalFile::open::<serde_json::Value>(&path, Caps::DEFAULT)
            .unwrap()
            .journal;
        f.append(&Record::Tx(tx("first", vec![c1]))).unwrap();
        f.append(&serde_json::json!({"type": "tx", "command": "odd", "changes": 7, "at": 0}))
            .unwrap();
        f.append(&Record::Tx(tx("third", vec![c3]))).unwrap();
        for seq in 1..=3 {
            history.record(Step::Did(seq));
        }
        let start = super::snapshot::start_hash(&game());
        super::snapshot::encode(3, f.last_hash(), &start, &history, None, &g).unwrap()
    };
    std::fs::write(snapshot_path(&path), &snapshot).unwrap();

    let mut opened = game();
    let (mut j, _) = Journal::open(&path, &mut opened, Caps::DEFAULT).unwrap();
    assert_eq!(opened, g);
    assert_eq!(j.undo(&mut opened).unwrap().unwrap().command, "third");
    let before = opened.clone();
    let err = j.undo(&mut opened).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("entry #2 of the journal cannot be read: line 2 is damaged: not an entry this umpire knows"),
        "{err}"
    );
    assert_eq!((opened, j.next_undo(), j.len()), (before, Some(2), 4));
    assert!(j.recent(10).is_err());
    drop(j);

    // Without the snapshot, opening parses every entry and refuses the journal, as always.
    std::fs::remove_file(snapshot_path(&path)).unwrap();
    let err = Journal::open(&path, &mut game(), Caps::DEFAULT).unwrap_err();
    assert!(err.to_string().contains("line 2 is damaged"), "{err}");
}

#[test]
fn a_snapshot_that_cannot_be_written_fails_no_command() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("j.jsonl");
    let mut g = game();
    let (mut j, _) = Journal::open_with(&path, &mut g, Caps::DEFAULT, 2).unwrap();
    let faults = super::faulty::inject(j.file_mut().unwrap());
    faults.set(super::faulty::Plan::snapshot());
    for i in 0..5 {
        let c = g.set_attr("leg1", "sp", Value::Int(i)).unwrap();
        j.commit(tx("set", vec![c]), &g).unwrap();
    }
    j.undo(&mut g).unwrap().unwrap();
    drop(j);
    assert!(!snapshot_path(&path).exists());
    let (seen, from, warning) = open(&path);
    assert_eq!((from, warning), (None, None));
    assert_eq!(seen.game, g);
}

#[test]
fn a_short_journal_keeps_no_snapshot() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = written(dir.path(), 20, SNAPSHOT_EVERY);
    assert!(!snapshot_path(&path).exists());
    let (path, _) = written(&dir.path().join("long"), SNAPSHOT_EVERY, SNAPSHOT_EVERY);
    assert_eq!(open(&path).1, Some(SNAPSHOT_EVERY));
}
