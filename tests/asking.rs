//! Questions to the umpire (`umpire.ask`): the rule tests of a test ruleset, and the same
//! questions answered from the lines of `umpire run` and kept in the journal.

use crate::common::repo;
use umpire::engine::rule_tests::run_paths;

#[test]
fn the_question_rule_tests_pass() {
    let file = repo().join("tests/data/rules/rulesets/asking/tests/asking.lua");
    let report = run_paths(&[file]).unwrap();
    println!("{report}");
    assert_eq!(report.passed(), 3, "\n{report}");
    assert_eq!(report.failed(), 0, "\n{report}");
}

#[test]
fn run_answers_from_the_next_lines_and_the_journal_keeps_the_answers() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("g.jsonl");
    let input = "add side red Red\nadd command red r1 R\nadd unit r1 cav Cavalry sp=5\ndice queue 4\ncharge cav\nyes\nleft\nclock\n";
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args(["run", "-", "--ruleset", "asking", "--seed", "1", "--rules"])
        .arg(repo().join("tests/data/rules"))
        .arg("--journal")
        .arg(&journal)
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write as _;
            c.stdin.take().unwrap().write_all(input.as_bytes())?;
            c.wait_with_output()
        })
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("? Does the General join the charge? → yes"),
        "{text}"
    );
    assert!(text.contains("=  11  on the left"), "{text}");
    assert!(
        text.contains("round 1"),
        "the line after the answers is a command again: {text}"
    );
    let kept = std::fs::read_to_string(&journal).unwrap();
    assert!(
        kept.contains(r#""answers":[{"question":"Does the General join the charge?","answer":"yes"},{"question":"Which flank?","answer":"left"}]"#),
        "{kept}"
    );
}
