//! Whole sessions over a journal whose disk fails now and then: random commands (some of
//! them failing on their own), each maybe met by a write that fails part-way through its
//! line, a failed sync, a head record that cannot be written, or a file that cannot even be
//! cut back. Whatever happens, the journal reopens, holds every result shown as done, in
//! order, and nothing shown as failed.

use proptest::prelude::*;

use super::render;
use super::session::Session;
use super::style::Palette;
use crate::dice::DiceBox;
use crate::journal::faulty::{Plan, inject};
use crate::journal::{Caps, Journal, Record};
use crate::state::Game;

const COMMANDS: &[&str] = &[
    "set leg1 sp 3",
    "set side:romans quality good",
    "set leg1 sp 99",
    "mark leg2 routed",
    "mark aux1 suppressed until round",
    "unmark leg2 routed",
    "next",
    "roll 2d6",
    "roll 3d6 [morale]",
    "table roll terrain",
    "undo",
    "undo",
    "redo",
    "add unit left x1 Extra sp=2",
    "remove leg1",
    "rename ala1 The wing",
    "show nobody",
    "status",
];

/// What a fault does to the next command's writes.
fn plan(kind: u8, at: usize) -> Option<Plan> {
    match kind {
        0..=3 => None,
        4 => Some(Plan::write_after(0)),
        5 => Some(Plan::write_after(at)),
        6 => Some(Plan::sync()),
        7 => Some(Plan::head()),
        8 => Some(Plan::write_after(at).and_truncate()),
        _ => Some(Plan::sync().and_truncate()),
    }
}

/// What a command shown as done must have left in the journal.
#[derive(Debug, Clone, PartialEq)]
enum Shown {
    /// A transaction: its number, command line and printed text.
    Tx(u64, String, String),
    /// An undo or redo of a transaction.
    Undo(u64),
    Redo(u64),
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn the_journal_reopens_with_every_result_shown_and_nothing_that_failed(
        steps in prop::collection::vec((0..COMMANDS.len(), 0u8..10, 0usize..400, any::<bool>()), 1..25),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j.jsonl");
        let mut game = Game::default();
        let (journal, _) = Journal::open(&path, &mut game, Caps::DEFAULT).unwrap();
        let mut s = Session::with_journal(DiceBox::seeded(1), journal, game);
        for setup in [
            "schema load examples/data/schema.toml",
            "army load examples/data/romans.toml",
            "table load examples/data/tables.toml",
        ] {
            prop_assert!(s.execute(setup, None).unwrap().is_ok());
        }
        let setup = s.state.journal.len();
        let faults = inject(s.state.journal.file_mut().unwrap());
        let mut shown = Vec::new();
        let mut failed_by_fault = 0;
        for (pick, kind, at, lasts) in steps {
            let line = COMMANDS[pick];
            let fault = plan(kind, at);
            if let Some(p) = fault {
                faults.set(p);
            }
            match s.execute(line, None).unwrap() {
                Ok(out) => {
                    let json = out.to_json();
                    let tx = json["tx"].as_u64();
                    match (json["command"].as_str(), tx) {
                        (Some("undo"), Some(tx)) => shown.push(Shown::Undo(tx)),
                        (Some("redo"), Some(tx)) => shown.push(Shown::Redo(tx)),
                        (_, Some(seq)) => shown.push(Shown::Tx(
                            seq,
                            line.to_string(),
                            render::output(&out, &Palette::plain()),
                        )),
                        _ => {}
                    }
                }
                Err((_, e)) => {
                    if e.to_string().contains("could not be written") {
                        failed_by_fault += 1;
                    }
                }
            }
            if !lasts {
                faults.clear();
            }
        }
        faults.clear();
        let live = s.state.game.clone();
        drop(s);

        // The journal reopens, intact, and holds exactly what was shown, in order.
        let v = crate::journal::verify_file(&path, Caps::DEFAULT).unwrap();
        prop_assert!(v.is_intact(), "{}", v);
        prop_assert!(v.head.found());
        let mut reopened = Game::default();
        let (j, warning) = Journal::open(&path, &mut reopened, Caps::DEFAULT).unwrap();
        prop_assert!(warning.is_none(), "{:?}", warning);
        prop_assert_eq!((j.len() - setup) as usize, shown.len(), "{} failed by a fault", failed_by_fault);
        for (i, shown) in shown.iter().enumerate() {
            let seq = setup + i as u64 + 1;
            let record = j.record(seq).unwrap();
            match (&*record, shown) {
                (Record::Tx(t), Shown::Tx(n, line, text)) => {
                    prop_assert_eq!(*n, seq);
                    prop_assert_eq!(&t.command, line);
                    prop_assert_eq!(&t.output, text);
                }
                (Record::Undo { tx, .. }, Shown::Undo(n))
                | (Record::Redo { tx, .. }, Shown::Redo(n)) => prop_assert_eq!(tx, n),
                (r, s) => prop_assert!(false, "entry #{} is {:?}, shown was {:?}", seq, r, s),
            }
        }
        // And the game it rebuilds is the one the session ended with.
        prop_assert_eq!(&reopened, &live);
    }
}

/// A session on a fresh journal with the example armies, and its fault handle.
fn session(dir: &std::path::Path) -> (Session, crate::journal::faulty::Faults) {
    let path = dir.join("j.jsonl");
    let mut game = Game::default();
    let (journal, _) = Journal::open(&path, &mut game, Caps::DEFAULT).unwrap();
    let mut s = Session::with_journal(DiceBox::seeded(7), journal, game);
    for setup in [
        "schema load examples/data/schema.toml",
        "army load examples/data/romans.toml",
    ] {
        s.execute(setup, None).unwrap().unwrap();
    }
    let faults = inject(s.state.journal.file_mut().unwrap());
    (s, faults)
}

#[test]
fn a_failed_write_reports_the_command_not_done_and_puts_game_and_dice_back() {
    let dir = tempfile::tempdir().unwrap();
    let (mut s, faults) = session(dir.path());
    let game = s.state.game.clone();
    faults.set(Plan::write_after(10));
    let (name, err) = s.execute("set leg1 sp 2", None).unwrap().unwrap_err();
    assert_eq!(name.as_deref(), Some("set"));
    let msg = err.to_string();
    assert!(msg.contains("could not be written"), "{msg}");
    assert!(
        msg.contains("the file is as it was before; the command was not done"),
        "{msg}"
    );
    assert_eq!(
        err.help().as_deref(),
        Some("free some disk space or give another file with `--journal`")
    );
    assert_eq!(s.state.game, game);
    // The dice are put back: the roll that failed comes again once the disk recovers.
    faults.set(Plan::sync());
    let (_, err) = s.execute("roll 3d6", None).unwrap().unwrap_err();
    assert!(
        err.to_string().contains("the command was not done"),
        "{err}"
    );
    faults.clear();
    let first = s.execute("roll 3d6", None).unwrap().unwrap();
    let mut again = Session::new(DiceBox::seeded(7));
    let fresh = again.execute("roll 3d6", None).unwrap().unwrap();
    assert_eq!(first.json["total"], fresh.json["total"]);
    assert_eq!(first.json["tx"], 3);
}

#[test]
fn a_failed_undo_or_redo_changes_nothing_and_can_be_done_again() {
    let dir = tempfile::tempdir().unwrap();
    let (mut s, faults) = session(dir.path());
    s.execute("set leg1 sp 2", None).unwrap().unwrap();
    let after = s.state.game.clone();
    faults.set(Plan::head());
    let (_, err) = s.execute("undo", None).unwrap().unwrap_err();
    assert!(
        err.to_string().ends_with("the `undo` was not done"),
        "{err}"
    );
    assert_eq!(s.state.game, after);
    faults.clear();
    s.execute("undo", None).unwrap().unwrap();
    faults.set(Plan::write_after(0));
    let (_, err) = s.execute("redo", None).unwrap().unwrap_err();
    assert!(
        err.to_string().ends_with("the `redo` was not done"),
        "{err}"
    );
    faults.clear();
    s.execute("redo", None).unwrap().unwrap();
    assert_eq!(s.state.game, after);
}
