//! Journals that were cut short, copied without their head record, damaged, or met a line
//! over the limit, as the command line meets them: what opening says (and the ways on it
//! names), and how `replay` and `journal verify` bring back and explain what is left.

use std::path::Path;

use crate::common::umpire_timed;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A journal at `path` with a schema, a roster and `sets` more transactions.
fn played(path: &Path, sets: usize) {
    let mut input = String::from(
        "schema load examples/data/schema.toml\narmy load examples/data/romans.toml\n",
    );
    for i in 0..sets {
        input.push_str(&format!("set leg1 sp {}\n", i % 6));
    }
    let o = umpire_timed(
        &[
            "--seed",
            "1",
            "--journal",
            path.to_str().unwrap(),
            "run",
            "-",
        ],
        &input,
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
}

/// Runs `input` in a session continuing `journal`.
fn continuing(journal: &Path, input: &str) -> std::process::Output {
    umpire_timed(
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
    )
}

fn keep_lines(path: &Path, n: usize) {
    let text = std::fs::read_to_string(path).unwrap();
    let kept: String = text.lines().take(n).map(|l| format!("{l}\n")).collect();
    std::fs::write(path, kept).unwrap();
}

#[test]
fn a_journal_cut_short_is_refused_naming_the_ways_on() {
    let dir = tempfile::tempdir().unwrap();
    let j = dir.path().join("night.jsonl");
    played(&j, 6);
    // 1 session + 2 loads + 6 sets = 9 entries; the last five go.
    keep_lines(&j, 4);
    let before = std::fs::read(&j).unwrap();
    let o = continuing(&j, "roll 1d6\n");
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    let p = j.display();
    for part in [
        format!(
            "journal `{p}`: 5 entries lost at the end: its head record counts 9, the file holds 4"
        ),
        "`game new`".to_string(),
        "`umpire --journal NEW.jsonl`".to_string(),
        format!("`replay {p}`"),
        format!("`journal verify {p}`"),
    ] {
        assert!(err.contains(&part), "{part}\nnot in\n{err}");
    }
    assert_eq!(
        std::fs::read(&j).unwrap(),
        before,
        "a refused journal is left alone"
    );

    // The way on: a new journal, the old one replayed into it as far as it goes.
    let new = dir.path().join("new.jsonl");
    let o = continuing(
        &new,
        &format!("replay {p}\njournal verify {p}\nshow leg1\n"),
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.contains("replayed 4 entries from"), "{out}");
    assert!(
        out.contains("every entry in the file was replayed, but: 5 entries lost at the end"),
        "{out}"
    );
    assert!(
        out.contains("journal cut short: 5 entries lost at the end"),
        "{out}"
    );
    assert!(out.contains("sp 0"), "{out}");
}

#[test]
fn a_journal_cut_in_half_is_not_taken_for_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let j = dir.path().join("night.jsonl");
    played(&j, 30);
    let full = std::fs::read(&j).unwrap();
    std::fs::write(&j, &full[..full.len() / 2]).unwrap();
    let o = continuing(&j, "");
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(err.contains("lost at the end"), "{err}");
    assert!(!err.contains("interrupted write"), "{err}");
}

#[test]
fn a_journal_copied_without_its_head_record_opens_saying_it_cannot_tell() {
    let dir = tempfile::tempdir().unwrap();
    let j = dir.path().join("night.jsonl");
    played(&j, 2);
    let copy = dir.path().join("emailed.jsonl");
    std::fs::copy(&j, &copy).unwrap();
    let o = continuing(&copy, "journal verify\n");
    assert!(o.status.success(), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    assert!(err.contains("warning: journal"), "{err}");
    assert!(err.contains("it has no head record"), "{err}");
    assert!(
        err.contains("cannot tell whether entries were lost at its end"),
        "{err}"
    );
    assert!(err.contains("continuing the game: 5 entries"), "{err}");
    // From now on it has one.
    let out = text(&o.stdout);
    assert!(
        out.contains("its head record confirms nothing is missing at the end"),
        "{out}"
    );
    let o = continuing(&copy, "");
    assert!(!text(&o.stderr).contains("warning"), "{}", text(&o.stderr));
}

#[test]
fn a_damaged_journal_is_refused_and_replays_up_to_the_damage() {
    let dir = tempfile::tempdir().unwrap();
    let j = dir.path().join("night.jsonl");
    played(&j, 4);
    let text_of = std::fs::read_to_string(&j).unwrap();
    let mut lines: Vec<String> = text_of.lines().map(String::from).collect();
    lines[4] = lines[4][..30].to_string();
    std::fs::write(&j, lines.join("\n") + "\n").unwrap();
    let o = continuing(&j, "");
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(err.contains("line 5 is damaged"), "{err}");
    assert!(
        err.contains(&format!(
            "bring back the 4 entries before the damage with `replay {}`",
            j.display()
        )),
        "{err}"
    );
    let new = dir.path().join("new.jsonl");
    let o = continuing(&new, &format!("replay {}\n", j.display()));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.contains("replayed 4 entries"), "{out}");
    assert!(
        out.contains("stopped before the damage: line 5 is damaged"),
        "{out}"
    );

    let o = umpire_timed(
        &["--json", "run", "-"],
        &format!("journal verify {}\n", j.display()),
    );
    let v: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).unwrap();
    assert_eq!(v["verified"], false);
    assert_eq!(v["entries"], 4);
    assert_eq!(v["head"], true);
}

#[test]
fn a_command_over_the_journal_line_limit_fails_and_the_session_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let j = dir.path().join("night.jsonl");
    let o = umpire_timed(
        &[
            "--seed",
            "1",
            "--no-color",
            "--limit",
            "journal-line=2KiB",
            "--journal",
            j.to_str().unwrap(),
            "run",
            "-",
        ],
        "schema load examples/data/schema.toml\narmy load examples/data/romans.toml\nshow leg1\nadd side red Red\njournal verify\n",
    );
    let err = text(&o.stderr);
    assert!(err.contains("over the journal-line limit of 2KiB"), "{err}");
    assert!(err.contains("the command was not done"), "{err}");
    // The roster was not loaded (rolled back), and the next command is journalled.
    assert!(err.contains("leg1"), "{err}");
    let out = text(&o.stdout);
    assert!(out.contains("side red “Red” added"), "{out}");
    assert!(out.contains("journal intact: 3 entries"), "{out}");
}
