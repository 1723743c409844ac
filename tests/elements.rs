//! The element API's rule tests (`tests/data/rules/rulesets/squads/tests/elements.lua`): a
//! test ruleset whose squads have soldiers as elements, created, moved and removed by rules.

use crate::common::repo;

use umpire::engine::rule_tests::run_paths;

#[test]
fn the_element_api_rule_tests_pass() {
    let file = repo().join("tests/data/rules/rulesets/squads/tests/elements.lua");
    let report = run_paths(&[file]).unwrap();
    println!("{report}");
    assert!(report.passed() >= 9, "\n{report}");
    assert_eq!(report.failed(), 0, "\n{report}");
}

/// Runs `umpire run -` on `input` under the squads test ruleset, continuing `journal`.
fn run(journal: &std::path::Path, input: &str) -> String {
    use std::io::Write as _;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args(["run", "-", "--ruleset", "squads", "--seed", "1", "--rules"])
        .arg(repo().join("tests/data/rules"))
        .arg("--journal")
        .arg(journal)
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn units_and_elements_the_rules_make_move_and_remove_replay_from_the_journal() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("j.jsonl");
    run(
        &journal,
        "add side blue Blue\nadd command blue alpha Alpha\nadd command blue bravo Bravo\n\
         add unit alpha sq1 Squad 1 hp=6\nadd element sq1 sq1a Ann\nadd element sq1 sq1b Bob\n\
         recruit bravo sq9 2\ndetach sq1.2 sq9\ntransfer sq1 bravo\npin sq9.1\n\
         wound sq9.sq9s2 2\ndisband sq9.sq9sgt\n",
    );
    // A second run rebuilds the game from the journal: every change replays.
    let out = run(&journal, "show sq9\nshow sq1\nundo 3\nshow sq9\n");
    for part in [
        "sq9 · Squad sq9 (blue / bravo)",
        "1. sq9s1 · Soldier 1 hp 2 · role medic · markers: pinned (until end of round)",
        "2. sq9s2 · Soldier 2 hp 0 · role rifle · markers: fallen",
        "3. sq1b · Bob hp 2 · role rifle",
        "sq1 · Squad 1 (blue / bravo)",
        "undone #14 disband sq9.sq9sgt",
        "3. sq9sgt · Sergeant hp 3 · role rifle\n  4. sq1b · Bob",
    ] {
        assert!(out.contains(part), "`{part}` not in:\n{out}");
    }
}
