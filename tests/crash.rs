//! The crash test: a long scripted session is killed with SIGKILL at pseudo-random moments,
//! many times over one journal. After every kill the journal must open (a torn last line is
//! dropped with a warning, nothing else; a kill between the journal's sync and the head
//! record's is not damage), hold every transaction whose result had been printed, verify its
//! hash chain and its end against the head record, and replay to the same game the shell
//! rebuilds.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

use umpire::journal::{Caps, Journal, Record, verify_file};
use umpire::state::Game;

/// A session of `n` commands that roll and change the game.
fn script(n: usize) -> String {
    let mut s = String::from(
        "schema load examples/data/schema.toml\narmy load examples/data/romans.toml\n",
    );
    for i in 0..n {
        let unit = ["leg1", "leg2", "aux1", "ala1"][i % 4];
        s.push_str(&match i % 5 {
            0 => format!("set {unit} sp {}\n", i % 7),
            1 => format!("mark {unit} disordered until round\n"),
            2 => "next\n".to_string(),
            3 => "roll 3d6\n".to_string(),
            _ => format!("unmark {unit} disordered\n"),
        });
    }
    s
}

#[test]
fn killed_sessions_lose_nothing_that_was_printed() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("night.jsonl");
    let journal_arg = journal.to_str().unwrap();
    let mut rng: u64 = 0x2545_F491_4F6C_DD1D;
    let mut kills = 0;
    for round in 0..12 {
        // A fresh session continues the journal each time (after the first, the schema and
        // roster commands fail harmlessly: the ids exist already).
        let mut child = Command::new(env!("CARGO_BIN_EXE_umpire"))
            .args([
                "--seed",
                "1",
                "--json",
                "--journal",
                journal_arg,
                "run",
                "-",
            ])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let input = script(1500);
        let mut stdin = child.stdin.take().unwrap();
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(input.as_bytes());
        });
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        std::thread::sleep(Duration::from_millis(20 + rng % 400));
        if child.try_wait().unwrap().is_none() {
            child.kill().unwrap();
            kills += 1;
        }
        let _ = child.wait();
        let _ = writer.join();
        let mut printed = String::new();
        child
            .stdout
            .take()
            .unwrap()
            .read_to_string(&mut printed)
            .unwrap();

        // Every transaction whose result reached stdout is in the journal, as printed.
        let mut game = Game::default();
        let (j, _warning) = Journal::open(&journal, &mut game, Caps::DEFAULT).unwrap_or_else(|e| {
            panic!("round {round}: the journal does not open after a kill: {e}")
        });
        for line in printed.lines() {
            let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
                // The kill can cut the last printed line short.
                continue;
            };
            let Some(seq) = v.get("tx").and_then(serde_json::Value::as_u64) else {
                continue;
            };
            match j.record(seq).as_deref() {
                Some(Record::Tx(tx)) => assert_eq!(
                    tx.command.split_whitespace().next(),
                    v["command"].as_str(),
                    "round {round}: entry #{seq} is not the command that was printed"
                ),
                other => panic!(
                    "round {round}: printed transaction #{seq} is missing from the journal: {other:?}"
                ),
            }
        }
        drop(j);
        let verified = verify_file(&journal, Caps::DEFAULT).unwrap();
        assert!(verified.is_intact(), "round {round}: {verified}");
        assert!(
            verified.head.found(),
            "round {round}: the head record is gone"
        );
        let replayed = Journal::replay_file(&journal, Game::default(), Caps::DEFAULT)
            .unwrap()
            .game;
        assert_eq!(
            replayed, game,
            "round {round}: replay differs from the reopened game"
        );
    }
    assert!(
        kills >= 6,
        "only {kills} of 12 sessions were killed mid-way; the test no longer tests crashes"
    );
}
