//! Journals written by earlier umpires (`tests/data/journals/`, see its README): one from
//! before snapshots, with its head record, and one from before the head record. Each still
//! continues — rebuilding the game full replay rebuilds, the game the table saw — replays,
//! lists its log and undoes and redoes every transaction in it. And a game long enough to
//! keep a snapshot continues from it as from every entry.

use std::path::{Path, PathBuf};

use umpire::journal::{Caps, Journal, head_path, snapshot_path};
use umpire::state::{Game, Value};

use crate::common::{shipped, umpire_timed};

/// A copy of the fixture journal `name` (with its head record, if it has one) in a fresh
/// folder.
fn copy(name: &str) -> (tempfile::TempDir, PathBuf) {
    let from = shipped().join("tests/data/journals").join(name);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::copy(&from, &path).unwrap();
    if head_path(&from).exists() {
        std::fs::copy(head_path(&from), head_path(&path)).unwrap();
    }
    (dir, path)
}

/// What the two evenings (`night.umpire`, `night2.umpire`) left on the table.
fn as_the_table_left_it(g: &Game) {
    let sp = |id: &str| g.attr(id, "sp").cloned();
    assert_eq!(
        [sp("leg1"), sp("leg2"), sp("aux1"), sp("ala1")],
        [5, 5, 3, 2].map(|v| Some(Value::Int(v)))
    );
    assert_eq!(
        g.attr("leg2", "quality"),
        Some(&Value::Text("elite".into()))
    );
    assert_eq!(g.name_of("leg2"), "Legio XIV, 2nd cohort");
    for unit in ["leg1", "leg2", "aux1"] {
        assert_eq!(g.unit(unit).unwrap().markers, []);
    }
    assert!(g.element("scorp1b").is_none());
    assert!(g.element("scorp1a").is_some());
    assert_eq!(g.clock_text(), "round 2 · Romans' turn · shooting phase");
}

/// Continues the journal at `path`: what it rebuilds is what full replay does and what the
/// table saw; its log lists the old transactions; every one of them undoes and redoes; and
/// the journal still reopens to the same game.
fn continues_replays_and_undoes(path: &Path) {
    let replayed = Journal::replay_file(path, Game::default(), Caps::DEFAULT).unwrap();
    assert!(replayed.verified.is_intact(), "{}", replayed.verified);
    assert_eq!(replayed.entries, 35);
    as_the_table_left_it(&replayed.game);

    let mut game = Game::default();
    let (mut journal, _) = Journal::open(path, &mut game, Caps::DEFAULT).unwrap();
    assert_eq!(game, replayed.game);
    assert_eq!((journal.len(), journal.opened_from_snapshot()), (35, None));

    let log: Vec<(u64, String, bool)> = journal
        .recent(3)
        .unwrap()
        .into_iter()
        .map(|(seq, t, in_force)| (seq, t.command.clone(), in_force))
        .collect();
    assert_eq!(
        log,
        [
            (32, "set leg2 sp 5".to_string(), true),
            (33, "mark aux1 disordered".to_string(), false),
            (35, "next".to_string(), true),
        ]
    );
    let mut undone = Vec::new();
    while let Some(r) = journal.undo(&mut game).unwrap() {
        undone.push(r.tx);
    }
    assert_eq!(undone.len(), 23);
    assert_eq!(undone.first(), Some(&35));
    assert_eq!(game, Game::default());
    while journal.redo(&mut game).unwrap().is_some() {}
    assert_eq!(game, replayed.game);
    drop(journal);

    // The journal, now with every undo and redo in it, reopens to the same game.
    let mut again = Game::default();
    let (j, warning) = Journal::open(path, &mut again, Caps::DEFAULT).unwrap();
    assert_eq!((warning, j.len()), (None, 35 + 2 * 23));
    assert_eq!(again, replayed.game);
    // A journal this short keeps no snapshot.
    assert!(!snapshot_path(path).exists());
}

#[test]
fn a_journal_from_before_snapshots_continues_replays_and_undoes() {
    let (_dir, path) = copy("before-snapshots.jsonl");
    continues_replays_and_undoes(&path);
}

#[test]
fn a_journal_from_before_the_head_record_continues_replays_and_undoes() {
    let (_dir, path) = copy("before-head-record.jsonl");
    assert!(!head_path(&path).exists());
    let mut game = Game::default();
    let (j, warning) = Journal::open(&path, &mut game, Caps::DEFAULT).unwrap();
    let warning = warning.unwrap();
    assert!(
        warning.contains("it has no head record") && warning.contains("cannot tell"),
        "{warning}"
    );
    drop(j);
    // Opening wrote its head record; from now on it is like any other journal.
    assert!(head_path(&path).exists());
    continues_replays_and_undoes(&path);
    // Both evenings, as the two umpires journalled them, are the same game.
    let (_d, other) = copy("before-snapshots.jsonl");
    assert_eq!(
        Journal::replay_file(&path, Game::default(), Caps::DEFAULT)
            .unwrap()
            .game,
        Journal::replay_file(&other, Game::default(), Caps::DEFAULT)
            .unwrap()
            .game
    );
}

#[test]
fn a_journal_from_before_the_head_record_opens_from_the_command_line_as_before() {
    let (_dir, path) = copy("before-head-record.jsonl");
    let o = umpire_timed(
        &[
            "--seed",
            "1",
            "--no-color",
            "--journal",
            path.to_str().unwrap(),
            "run",
            "-",
        ],
        "show leg2\n",
    );
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    assert!(o.status.success(), "{err}");
    assert!(err.contains("it has no head record"), "{err}");
    assert!(
        err.contains("continuing the game: 35 entries, 6 units"),
        "{err}"
    );
    assert!(out.contains("quality elite"), "{out}");
    assert!(out.contains("sp 5"), "{out}");
}

/// Runs `input` in a session continuing (or starting) `journal`: stdout and stderr.
fn session(journal: &Path, input: &str) -> (String, String) {
    let o = umpire_timed(
        &[
            "--seed",
            "1",
            "--no-color",
            "--journal",
            journal.to_str().unwrap(),
            "run",
            "-",
        ],
        input,
    );
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "{err}");
    (String::from_utf8_lossy(&o.stdout).into_owned(), err)
}

#[test]
fn a_long_game_continues_from_its_snapshot_as_from_every_entry() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long.jsonl");
    let mut input = String::from(
        "schema load examples/data/schema.toml\narmy load examples/data/romans.toml\n",
    );
    for i in 0..1_050 {
        let unit = ["leg1", "leg2", "aux1"][i % 3];
        input.push_str(&format!("set {unit} sp {}\n", i % 6));
        if i % 7 == 0 {
            input.push_str("undo\n");
        }
        if i % 11 == 0 {
            input.push_str("redo\n");
        }
    }
    session(&path, &input);
    assert!(snapshot_path(&path).exists());
    // The journal as it is, without its snapshot.
    let copy = dir.path().join("copy.jsonl");
    std::fs::copy(&path, &copy).unwrap();
    std::fs::copy(head_path(&path), head_path(&copy)).unwrap();
    let look = "status\nlog 4\nundo 3\nshow leg1\n";
    let (from_snapshot, said) = session(&path, look);
    assert!(said.contains("continuing the game"), "{said}");
    assert!(!said.contains("warning"), "{said}");
    let (from_every_entry, _) = session(&copy, look);
    assert_eq!(from_snapshot, from_every_entry);
}
