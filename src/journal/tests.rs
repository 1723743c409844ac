//! The session journal with a real game: commit, undo, redo, reopen and replay agree.

use proptest::prelude::*;

use super::*;
use crate::state::{Game, Schema, Value};

/// Three legions under the example schema.
pub(super) fn game() -> Game {
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

/// A transaction of `changes` without rolls.
pub(super) fn tx(command: &str, changes: Vec<crate::state::Change>) -> Transaction {
    Transaction {
        command: command.into(),
        public: None,
        umpire_only: false,
        rolls: Vec::new(),
        changes,
        reasons: Vec::new(),
        output: String::new(),
        generation: 0,
        rules: None,
        answers: Vec::new(),
        by: None,
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
    let seq = j.commit(tx("set leg1 sp 2", vec![c]), &g).unwrap();
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
    assert_eq!(j.len(), 4);
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
    j.commit(tx("set leg1 sp 2", vec![c]), &g).unwrap();
    drop(j);
    let mut other = Game::new(g.schema().clone());
    let err = Journal::open(&path, &mut other, Caps::DEFAULT).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("entry #1 of the journal does not apply"),
        "{err}"
    );
}

#[test]
fn an_undo_that_fails_part_way_leaves_the_game_and_the_history_as_they_were() {
    let mut g = game();
    let mut j = Journal::in_memory();
    let c1 = g.set_attr("leg1", "sp", Value::Int(2)).unwrap();
    let c2 = g.set_attr("leg2", "sp", Value::Int(3)).unwrap();
    j.commit(tx("two sets", vec![c1, c2]), &g).unwrap();
    // leg1 changed behind the journal's back: leg2's change reverts, then leg1's does not.
    let behind = g.set_attr("leg1", "sp", Value::Int(9)).unwrap();
    let before = g.clone();
    let err = j.undo(&mut g).unwrap_err();
    assert!(matches!(err, ReplayError::Stale { seq: 2, .. }), "{err}");
    assert_eq!(g, before);
    assert_eq!((j.len(), j.next_undo(), j.next_redo()), (1, Some(1), None));
    // Once the game agrees again, the same undo goes through.
    g.apply(&behind.inverse()).unwrap();
    let r = j.undo(&mut g).unwrap().unwrap();
    assert_eq!(r.changes, ["leg2 sp 3 → 6", "leg1 sp 2 → 6"]);
    assert_eq!(g, game());
}

#[test]
fn a_redo_that_fails_part_way_leaves_the_game_and_the_history_as_they_were() {
    let mut g = game();
    let mut j = Journal::in_memory();
    let c1 = g.set_attr("leg1", "sp", Value::Int(2)).unwrap();
    let c2 = g.set_attr("leg2", "sp", Value::Int(3)).unwrap();
    j.commit(tx("two sets", vec![c1, c2]), &g).unwrap();
    let after = g.clone();
    j.undo(&mut g).unwrap().unwrap();
    // leg2 changed behind the journal's back: leg1's change applies, then leg2's does not.
    let behind = g.set_attr("leg2", "sp", Value::Int(9)).unwrap();
    let before = g.clone();
    let err = j.redo(&mut g).unwrap_err();
    assert!(matches!(err, ReplayError::Stale { seq: 3, .. }), "{err}");
    assert_eq!(g, before);
    assert_eq!((j.len(), j.next_undo(), j.next_redo()), (2, None, Some(1)));
    g.apply(&behind.inverse()).unwrap();
    j.redo(&mut g).unwrap().unwrap();
    assert_eq!(g, after);
}

#[test]
fn an_undo_or_redo_the_journal_cannot_take_leaves_the_game_as_it_was() {
    use super::faulty::{Plan, inject};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("j.jsonl");
    let mut g = game();
    let (mut j, _) = Journal::open(&path, &mut g, Caps::DEFAULT).unwrap();
    let c = g.set_attr("leg1", "sp", Value::Int(2)).unwrap();
    j.commit(tx("set leg1 sp 2", vec![c]), &g).unwrap();
    let after = g.clone();
    let faults = inject(j.file_mut().unwrap());
    faults.set(Plan::sync());
    let err = j.undo(&mut g).unwrap_err();
    assert!(err.to_string().contains("could not be written"), "{err}");
    assert_eq!((&g, j.len(), j.next_undo()), (&after, 1, Some(1)));
    faults.clear();
    j.undo(&mut g).unwrap().unwrap();
    assert_eq!(g, game());
    faults.set(Plan::write_after(5));
    j.redo(&mut g).unwrap_err();
    assert_eq!((&g, j.len(), j.next_redo()), (&game(), 2, Some(1)));
    faults.clear();
    j.redo(&mut g).unwrap().unwrap();
    assert_eq!(g, after);
    drop(j);
    let mut reopened = game();
    Journal::open(&path, &mut reopened, Caps::DEFAULT).unwrap();
    assert_eq!(reopened, after);
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
                    j.commit(tx("set", vec![c]), &g).unwrap();
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

#[test]
fn who_typed_a_command_is_kept_and_a_journal_without_it_reads_as_the_hosts() {
    let mut t = tx("roll 1d6", Vec::new());
    let host = serde_json::to_string(&Record::Tx(t.clone())).unwrap();
    assert!(!host.contains("\"by\""), "{host}");
    t.by = Some("anna".into());
    let joined = serde_json::to_string(&Record::Tx(t.clone())).unwrap();
    assert!(joined.contains("\"by\":\"anna\""), "{joined}");
    assert_eq!(
        serde_json::from_str::<Record>(&joined).unwrap(),
        Record::Tx(t)
    );
    let old = r#"{"type":"tx","command":"roll 1d6","output":"","at":0}"#;
    match serde_json::from_str::<Record>(old).unwrap() {
        Record::Tx(t) => assert_eq!(t.by, None),
        other => panic!("{other:?}"),
    }
}
