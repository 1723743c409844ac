//! The command line itself: one-shot `roll`/`prob`, `run FILE`, exit codes, flags.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn umpire(args: &[&str]) -> Output {
    umpire_with_input(args, "")
}

fn umpire_with_input(args: &[&str], input: &str) -> Output {
    umpire_with_bytes(args, input.as_bytes())
}

fn umpire_with_bytes(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args(args)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if let Err(e) = child.stdin.take().unwrap().write_all(input) {
        // A child that stops before reading its input (a ruleset that does not exist) may
        // have closed the pipe already.
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

#[test]
fn one_shot_roll_joins_its_words_and_is_reproducible() {
    let a = umpire(&["--seed", "7", "roll", "1d20", "+", "5"]);
    assert!(a.status.success(), "{}", stderr(&a));
    assert!(stdout(&a).starts_with("1d20 ("), "{}", stdout(&a));
    let b = umpire(&["roll", "1d20", "+", "5", "--seed", "7"]);
    assert_eq!(stdout(&a), stdout(&b));
}

#[test]
fn one_shot_roll_takes_a_leading_minus_after_a_double_dash() {
    let o = umpire(&["--seed", "1", "roll", "--", "-1d4"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("-1d4 ("), "{}", stdout(&o));
}

#[test]
fn a_bad_expression_fails_with_a_caret_and_exit_code_1() {
    let o = umpire(&["roll", "3dx6"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "");
    let err = stderr(&o);
    assert!(
        err.starts_with("error: expected die size after `d`"),
        "{err}"
    );
    assert!(err.contains("\n  roll 3dx6\n         ^^\n"), "{err}");
    assert!(err.contains("help: "), "{err}");
}

#[test]
fn json_roll_has_total_dice_and_rolls() {
    let o = umpire(&["--json", "--seed", "3", "roll", "4d6kh3"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 1, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["command"], "roll");
    assert_eq!(v["expr"], "4d6kh3");
    assert!(v["total"].is_number());
    assert_eq!(v["dice"].as_array().unwrap().len(), 4);
    assert_eq!(v["sources"], serde_json::json!(["rng"]));
    assert_eq!(v["rolls"].as_array().unwrap().len(), 1);
}

#[test]
fn json_errors_are_objects_on_stdout() {
    let o = umpire(&["--json", "roll", "2d"]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["command"], "roll");
    assert!(v["error"].as_str().unwrap().contains("die size"));
    assert!(v["help"].is_string());
    assert_eq!(v["span"]["start"], 7);
}

#[test]
fn run_reports_file_and_line_and_carries_on() {
    let dir = env!("CARGO_TARGET_TMPDIR");
    let path = format!("{dir}/errors.umpire");
    std::fs::write(&path, "# comment\nroll 1d6\nrol 1d6\nroll 1d6\n").unwrap();
    let o = umpire(&["run", &path, "--seed", "1", "--no-color"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o).lines().count(), 2, "{}", stdout(&o));
    assert!(stderr(&o).starts_with(&format!("{path}:3: error: unknown command `rol`")));

    let o = umpire(&["run", &path, "--seed", "1", "--stop-on-error"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o).lines().count(), 1, "{}", stdout(&o));
}

#[test]
fn run_without_a_seed_chooses_one_and_says_which() {
    let o = umpire_with_input(&["run", "-"], "roll 1d6\n");
    assert!(o.status.success());
    assert!(stderr(&o).starts_with("umpire: seed "), "{}", stderr(&o));
}

#[test]
fn a_missing_file_is_a_startup_error() {
    let o = umpire(&["run", "/nonexistent/file.umpire"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("cannot read `/nonexistent/file.umpire`"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn quit_stops_a_run() {
    let o = umpire_with_input(&["run", "-", "--seed", "1"], "roll 1d6\nquit\nroll 1d6\n");
    assert!(o.status.success());
    assert_eq!(stdout(&o).lines().count(), 1);
}

#[test]
fn output_is_not_coloured_when_piped() {
    let o = umpire(&["--seed", "1", "roll", "4d6kh3"]);
    assert!(!stdout(&o).contains('\x1b'));
}

#[test]
fn the_repl_without_a_terminal_reads_stdin_and_leaves_at_its_end() {
    let dir = env!("CARGO_TARGET_TMPDIR");
    let history = format!("{dir}/history-test/history");
    let _ = std::fs::remove_file(&history);
    let journal = format!("{dir}/history-test/night.jsonl");
    let _ = std::fs::remove_file(&journal);
    let _ = std::fs::remove_file(format!("{journal}.head"));
    let o = umpire_with_input(
        &[
            "--seed",
            "913377",
            "--no-color",
            "--history",
            &history,
            "--journal",
            &journal,
        ],
        "roll 1d6\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with(&format!("umpire 0.1.0 · seed 913377 · journal {journal}\n")),
        "{out}"
    );
    assert!(out.contains("1d6 ("), "{out}");
    let saved = std::fs::read_to_string(&history).unwrap();
    assert!(saved.contains("roll 1d6"), "{saved}");
}

#[test]
fn every_example_session_runs_without_an_error() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut ran = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "umpire") {
            let o = umpire(&["run", path.to_str().unwrap(), "--seed", "1", "--no-color"]);
            assert!(o.status.success(), "{}: {}", path.display(), stderr(&o));
            ran += 1;
        }
    }
    assert!(ran > 0, "no examples found");
}

#[test]
fn one_shot_prob_answers_a_comparison() {
    let o = umpire(&["prob", "4d6kh3", ">=", "14"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "P(4d6kh3 >= 14) = 35.49%\n");
    let o = umpire(&["--json", "prob", "2d6", ">=", "10"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!((v["probability"].as_f64().unwrap() - 6.0 / 36.0).abs() < 1e-12);
    assert_eq!(v["of"], "2d6");
    assert_eq!(v["dist"].as_array().unwrap().len(), 11);
}

#[test]
fn a_journal_carries_the_game_into_the_next_session() {
    let dir = env!("CARGO_TARGET_TMPDIR");
    let journal = format!("{dir}/journal-test/night.jsonl");
    let _ = std::fs::remove_file(&journal);
    // Its head record goes too: a journal deleted without it is refused as lost.
    let _ = std::fs::remove_file(format!("{journal}.head"));
    let first = umpire_with_input(
        &[
            "--seed",
            "1",
            "--no-color",
            "--journal",
            &journal,
            "run",
            "-",
        ],
        "schema load examples/data/schema.toml\narmy load examples/data/romans.toml\nset leg1 sp 2\n",
    );
    assert!(first.status.success(), "{}", stderr(&first));
    assert!(
        stderr(&first).contains("(a new game)"),
        "{}",
        stderr(&first)
    );
    let second = umpire_with_input(
        &[
            "--seed",
            "1",
            "--no-color",
            "--journal",
            &journal,
            "run",
            "-",
        ],
        "show leg1\nundo\nshow leg1\njournal verify\n",
    );
    assert!(second.status.success(), "{}", stderr(&second));
    assert!(
        stderr(&second).contains("continuing the game: 4 entries, 6 units, last written"),
        "{}",
        stderr(&second)
    );
    let out = stdout(&second);
    assert!(out.contains("sp 2"), "{out}");
    assert!(out.contains("undone #4 set leg1 sp 2"), "{out}");
    assert!(
        out.contains("journal intact: 6 entries, chain verified"),
        "{out}"
    );
}

#[test]
fn rules_load_from_flags_and_again_when_a_journal_is_continued() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("j.jsonl");
    let j = journal.to_str().unwrap();
    let o = umpire_with_input(
        &[
            "run",
            "-",
            "--journal",
            j,
            "--ruleset",
            "demo",
            "--house",
            "veterans",
        ],
        "add side red Red\nruleset\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("rules: demo + veterans"),
        "{}",
        stdout(&o)
    );
    let o = umpire_with_input(&["run", "-", "--journal", j], "ruleset\n");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o)
            .contains("continuing under the rules this game was played under: demo + veterans"),
        "{}",
        stdout(&o)
    );
    assert!(
        stdout(&o).contains("rules: demo + veterans"),
        "{}",
        stdout(&o)
    );
    // A ruleset that does not exist stops `run` before any command.
    let o = umpire_with_input(&["run", "-", "--ruleset", "nosuch"], "roll 1d6\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no ruleset `nosuch`"), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
}

#[test]
fn a_line_that_is_not_utf8_fails_alone_and_the_rest_run() {
    let input = b"roll 1d6\nroll \xff\nroll 2d6\n";
    let o = umpire_with_bytes(&["run", "-", "--seed", "1", "--no-color"], input);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o).lines().count(), 2, "{}", stdout(&o));
    assert_eq!(
        stderr(&o),
        "<stdin>:2: error: not valid UTF-8 at byte 6\n  roll \u{FFFD}\n       ^\n\
         help: save the file as UTF-8; the other lines still run\n"
    );

    // The same from a file given by path, and in JSON.
    let path = format!("{}/not_utf8.umpire", env!("CARGO_TARGET_TMPDIR"));
    std::fs::write(&path, input).unwrap();
    let o = umpire(&["run", &path, "--seed", "1", "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[1]["line"], 2);
    assert_eq!(lines[1]["error"], "not valid UTF-8 at byte 6");
    assert_eq!(lines[2]["command"], "roll");
}

#[test]
fn a_byte_order_mark_at_the_start_of_a_file_is_ignored() {
    let path = format!("{}/bom.umpire", env!("CARGO_TARGET_TMPDIR"));
    std::fs::write(&path, b"\xEF\xBB\xBFroll 1d6\nroll 1d6\n").unwrap();
    let o = umpire(&["run", &path, "--seed", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 2, "{}", stdout(&o));
    let o = umpire_with_bytes(&["run", "-", "--seed", "1"], b"\xEF\xBB\xBFroll 1d6\n");
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn an_entered_value_the_die_cannot_show_is_refused_and_the_next_taken() {
    let input = "dice mode enter\nroll 4d6kh3\n4 7 3\n2 6\nroll 1d6\n5\n";
    let o = umpire_with_input(&["run", "-", "--seed", "1", "--no-color"], input);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("4d6kh3 (4, 3, ~~2~~, 6) = 13"), "{out}");
    assert!(out.contains("1d6 (5) = 5"), "{out}");
    assert_eq!(
        stderr(&o),
        "<stdin>:3: warning: die 2 of 4 of 4d6kh3: 7 is not a face of a d6 (1 to 6); \
         refused, the next value is taken instead\n"
    );

    let o = umpire_with_input(&["run", "-", "--seed", "1", "--json"], input);
    let roll: serde_json::Value = serde_json::from_str(stdout(&o).lines().nth(1).unwrap()).unwrap();
    assert_eq!(roll["refused"][0]["line"], 3);
    assert_eq!(roll["refused"][0]["value"], "7");
}

#[test]
fn one_shot_roll_without_a_seed_says_which_it_chose() {
    let o = umpire(&["roll", "3d6"]);
    assert!(o.status.success());
    let err = stderr(&o);
    let seed = err
        .strip_prefix("umpire: seed ")
        .and_then(|r| r.split(' ').next())
        .unwrap_or_else(|| panic!("{err}"));
    // stdout stays the roll alone, and the seed rolls the same dice again.
    assert_eq!(stdout(&o).lines().count(), 1);
    let again = umpire(&["roll", "3d6", "--seed", seed]);
    assert_eq!(stdout(&again), stdout(&o));
    assert_eq!(stderr(&again), "");

    let o = umpire(&["roll", "3d6", "--seed", "42", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["seed"], 42);
    let o = umpire(&["roll", "3d6", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(stderr(&o).contains(&format!("seed {}", v["seed"])));
    // A roll that fails rolled nothing: no seed to show.
    let o = umpire(&["roll", "3dx"]);
    assert!(stderr(&o).starts_with("error: "), "{}", stderr(&o));
}

#[test]
fn the_repl_asks_again_for_a_refused_value_and_names_values_left_over() {
    let o = umpire_with_input(
        &[
            "--seed",
            "1",
            "--no-color",
            "--no-journal",
            "--history",
            "/nonexistent/h",
        ],
        "dice mode enter\nroll 3d6\n4 9 5\n5 6\nroll 2d6\n1 2 3\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let (out, err) = (stdout(&o), stderr(&o));
    assert!(out.contains("3d6 (4, 5, 6) = 15"), "{out}");
    assert!(out.contains("2d6 (1, 2) = 3"), "{out}");
    assert!(
        err.contains(
            "9 is not a face of a d6 (1 to 6); type die 2 of 3 again (also dropped, type again: 5)"
        ),
        "{err}"
    );
    assert!(
        err.contains("warning: ignored 1 value left over: 3"),
        "{err}"
    );
}
