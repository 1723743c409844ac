//! The session journal with a real game: commit, undo, redo, reopen and replay agree.

use proptest::prelude::*;

use super::*;
use crate::state::{Game, Schema, Value};

fn game() -> Game {
    let text = include_str!("../../examples/data/schema.toml");
    let mut g = Game::new(Schema::from_toml("schema.toml", text).unwrap());
    g.add_side("romans", "Romans").unwrap();
    g.add_command("romans", "left", "Left wing").unwrap();
    for i in 1..=3 {
        g.add_unit("left", &format!("leg{i}"), &format!("Legion {i}"), [])
            .unwrap();
    }
    g
}

fn tx(command: &str, changes: Vec<crate::state::Change>) -> Transaction {
    Transaction {
        command: command.into(),
        rolls: Vec::new(),
        changes,
        reasons: Vec::new(),
        output: String::new(),
        generation: 0,
        rules: None,
        at: 0,
    }
}

#[test]
fn undo_and_redo_move_the_game_and_are_journalled() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("j.jsonl");
    let start = game();
    let mut g = start.clone();
    let (mut j, warning) = Journal::open(&path, &mut g, Caps::DEFAULT).unwrap();
    assert!(warning.is_none());
    j.start_session(7).unwrap();
    let c = g.set_attr("leg1", "sp", Value::Int(2)).unwrap();
    let seq = j.commit(tx("set leg1 sp 2", vec![c])).unwrap();
    assert_eq!(seq, 2);
    let after = g.clone();
    let undone = j.undo(&mut g).unwrap().unwrap();
    assert_eq!(undone.tx, 2);
    assert_eq!(g, start);
    j.redo(&mut g).unwrap().unwrap();
    assert_eq!(g, after);
    drop(j);

    // Reopening replays everything onto the starting game.
    let mut reopened = start.clone();
    let (j, _) = Journal::open(&path, &mut reopened, Caps::DEFAULT).unwrap();
    assert_eq!(reopened, after);
    assert_eq!(j.records().len(), 4);
    assert_eq!(j.next_undo(), Some(2));
    drop(j);
    let r = Journal::replay_file(&path, start, Caps::DEFAULT).unwrap();
    assert_eq!((r.game, r.entries), (after, 4));
    assert!(r.verified.is_intact());
}

#[test]
fn nothing_to_undo_is_not_an_error() {
    let mut g = game();
    let mut j = Journal::in_memory();
    assert_eq!(j.undo(&mut g).unwrap(), None);
    assert_eq!(j.redo(&mut g).unwrap(), None);
}

#[test]
fn a_journal_replayed_onto_the_wrong_game_names_the_entry() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("j.jsonl");
    let mut g = game();
    let (mut j, _) = Journal::open(&path, &mut g, Caps::DEFAULT).unwrap();
    let c = g.set_attr("leg1", "sp", Value::Int(2)).unwrap();
    j.commit(tx("set leg1 sp 2", vec![c])).unwrap();
    drop(j);
    let mut other = Game::new(g.schema().clone());
    let err = Journal::open(&path, &mut other, Caps::DEFAULT).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("entry #1 of the journal does not apply"),
        "{err}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Random commands, undos and redos: undoing everything gives back the start, and the
    /// journal replayed from the start gives exactly the live game.
    #[test]
    fn undo_all_restores_and_replay_matches_live(ops in prop::collection::vec((0u8..4, 1usize..4, 0i64..13), 1..30)) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j.jsonl");
        let start = game();
        let mut g = start.clone();
        let (mut j, _) = Journal::open(&path, &mut g, Caps::DEFAULT).unwrap();
        for (op, unit, v) in ops {
            let id = format!("leg{unit}");
            match op {
                0 | 1 => {
                    let c = g.set_attr(&id, "sp", Value::Int(v)).unwrap();
                    j.commit(tx("set", vec![c])).unwrap();
                }
                2 => { j.undo(&mut g).unwrap(); }
                _ => { j.redo(&mut g).unwrap(); }
            }
        }
        let live = g.clone();
        let replayed = Journal::replay_file(&path, start.clone(), Caps::DEFAULT).unwrap().game;
        prop_assert_eq!(&replayed, &live);
        while j.undo(&mut g).unwrap().is_some() {}
        prop_assert_eq!(g, start);
    }
}
