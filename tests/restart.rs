//! Restarts and games: a game continued later comes back under exactly the rules it was
//! played under; flags that ask for other rules are a journalled, undoable change (or, for
//! another ruleset, refused); changed rule files are named; the shell continues the game
//! last played, named by the local date; `game new`, `list` and `open`.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::common::{copy_dir, repo};

/// Runs umpire with `args` in `rules` (a copy of the rule folders), feeding `input`, with
/// the user data folder in `data`.
fn umpire(data: &Path, rules: &Path, env: &[(&str, &str)], args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args([
            "--no-color",
            "--seed",
            "1",
            "--history",
            "/dev/null",
            "--rules",
        ])
        .arg(rules)
        .args(args)
        .current_dir(repo())
        .env("XDG_DATA_HOME", data)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    child.wait_with_output().unwrap()
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).to_string(),
        String::from_utf8_lossy(&o.stderr).to_string(),
    )
}

/// A temporary user data folder and a copy of the rule folders.
fn place() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("rules");
    copy_dir(
        &crate::common::shipped().join("rulesets"),
        &rules.join("rulesets"),
    );
    copy_dir(
        &crate::common::shipped().join("scripts"),
        &rules.join("scripts"),
    );
    let data = dir.path().join("data");
    (dir, data, rules)
}

/// An OLAB game with the heroes house rule, killed (SIGKILL) once its army is loaded.
fn killed_game(data: &Path, rules: &Path, journal: &Path) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args(["--no-color", "--seed", "1", "--rules"])
        .arg(rules)
        .arg("--journal")
        .arg(journal)
        .args(["--ruleset", "olab", "--house", "heroes", "run", "-"])
        .current_dir(repo())
        .env("XDG_DATA_HOME", data)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"army load examples/olab/romans.toml\n")
        .unwrap();
    stdin.flush().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    while !line.contains("loaded examples/olab/romans.toml") {
        line.clear();
        assert!(out.read_line(&mut line).unwrap() > 0, "umpire ended early");
    }
    child.kill().unwrap();
    let _ = child.wait();
}

#[test]
fn a_restart_with_the_ruleset_flag_alone_keeps_the_house_rules() {
    let (_dir, data, rules) = place();
    let journal = data.join("night.jsonl");
    killed_game(&data, &rules, &journal);
    let j = journal.to_str().unwrap();
    let o = umpire(
        &data,
        &rules,
        &[],
        &["--journal", j, "--ruleset", "olab", "run", "-"],
        "ruleset\nlog 1\n",
    );
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        out.contains("continuing under the rules this game was played under: olab + heroes"),
        "{out}"
    );
    assert!(out.contains("rules: olab + heroes"), "{out}");
    // Nothing was journalled: the last entry is still the army.
    assert!(out.contains("army load examples/olab/romans.toml"), "{out}");
}

#[test]
fn flags_asking_for_other_house_rules_or_variant_are_one_undoable_change() {
    let (_dir, data, rules) = place();
    let journal = data.join("night.jsonl");
    killed_game(&data, &rules, &journal);
    let j = journal.to_str().unwrap();
    let o = umpire(
        &data,
        &rules,
        &[],
        &["--journal", j, "--house", "ambushes", "run", "-"],
        "ruleset\nundo\nruleset\nredo\nruleset\n",
    );
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        out.contains("the command line asks for olab + ambushes instead of olab + heroes: changed as one journalled rules change (`undo` goes back)"),
        "{out}"
    );
    let shown: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("rules: olab"))
        .collect();
    assert_eq!(
        shown[0..2],
        ["rules: olab + ambushes · generation 2 · 41 commands"; 2],
        "{out}"
    );
    assert!(
        out.contains("undone #")
            && out.contains("ruleset use olab --house ambushes")
            && out.contains("the rules in force follow the game: rules: olab + heroes"),
        "{out}"
    );
    assert!(out.contains("rules: olab + heroes · generation 3"), "{out}");
    assert!(
        out.contains("rules: olab + ambushes · generation 4"),
        "{out}"
    );

    // A variant: the same, and the edition is the 2nd's.
    let o = umpire(
        &data,
        &rules,
        &[],
        &[
            "--journal",
            j,
            "--ruleset",
            "olab",
            "--variant",
            "2e",
            "run",
            "-",
        ],
        "ruleset\n",
    );
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(out.contains("rules: olab (variant 2e) + ambushes"), "{out}");
}

#[test]
fn another_ruleset_than_the_games_is_refused() {
    let (_dir, data, rules) = place();
    let journal = data.join("night.jsonl");
    killed_game(&data, &rules, &journal);
    let o = umpire(
        &data,
        &rules,
        &[],
        &[
            "--journal",
            journal.to_str().unwrap(),
            "--ruleset",
            "demo",
            "run",
            "-",
        ],
        "roll 1d6\n",
    );
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{out}{err}");
    assert!(
        err.contains("this game was played under the ruleset `olab`") && err.contains("game new"),
        "{err}"
    );
    assert_eq!(out, "", "nothing ran");
}

#[test]
fn rule_files_changed_between_nights_are_named() {
    let (_dir, data, rules) = place();
    let journal = data.join("night.jsonl");
    killed_game(&data, &rules, &journal);
    let heroes = rules.join("scripts/heroes.lua");
    let t = std::fs::read_to_string(&heroes).unwrap();
    std::fs::write(&heroes, format!("{t}\n-- edited between club nights\n")).unwrap();
    let o = umpire(
        &data,
        &rules,
        &[],
        &["--journal", journal.to_str().unwrap(), "run", "-"],
        "",
    );
    let (_, err) = text(&o);
    assert!(
        err.contains("rule files changed since this game was last played: scripts/heroes.lua"),
        "{err}"
    );
}

#[test]
fn a_house_rule_that_no_longer_loads_is_left_out_as_a_journalled_change() {
    let (_dir, data, rules) = place();
    let journal = data.join("night.jsonl");
    killed_game(&data, &rules, &journal);
    // Between nights the house rule is broken so that it hangs while loading.
    std::fs::write(rules.join("scripts/heroes.lua"), "while true do end\n").unwrap();
    let o = umpire(
        &data,
        &rules,
        &[],
        &[
            "--journal",
            journal.to_str().unwrap(),
            "--limit",
            "script-time=300ms",
            "run",
            "-",
        ],
        "ruleset\nlog 1\n",
    );
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    assert!(
        err.contains("the house rule `heroes` did not load")
            && err.contains("script ran too long")
            && err.contains("the game goes on without it"),
        "{err}"
    );
    assert!(out.contains("rules: olab · generation"), "{out}");
    assert!(
        out.contains("the game goes on without `heroes`: changed as one journalled rules change"),
        "{out}"
    );
    assert!(out.contains("ruleset use olab --no-house"), "{out}");
}

#[test]
fn undo_takes_a_count_refuses_extra_words_and_never_undoes_the_set_up() {
    let (_dir, data, rules) = place();
    let o = umpire(
        &data,
        &rules,
        &[],
        &["--ruleset", "demo", "run", "-"],
        "add side red Red\nadd side blue Blue\nadd side green Green\nundo all the things\nundo 0\nundo 2\nundo 5\nundo\nstatus\n",
    );
    let (out, err) = text(&o);
    assert!(
        err.contains("N: expected a whole number, found `all`")
            && err.contains("`0` is not a count of commands"),
        "{err}"
    );
    assert!(out.contains("undone #4 add side green Green"), "{out}");
    assert!(out.contains("undone #3 add side blue Blue"), "{out}");
    assert!(out.contains("undone #2 add side red Red"), "{out}");
    assert!(
        out.contains("stopped: #1 `ruleset use demo --no-house` set up this game's rules and cannot be undone"),
        "{out}"
    );
    assert!(
        err.contains("#1 `ruleset use demo --no-house` set up this game's rules and cannot be undone; `game new` starts a fresh game"),
        "{err}"
    );
}

/// The local date in the time zone `tz`, as jiff reads it.
fn date_in(tz: &str) -> String {
    jiff::Timestamp::now().in_tz(tz).unwrap().date().to_string()
}

#[test]
fn a_new_game_is_named_by_the_local_date() {
    // Two zones 25 hours apart: their dates differ whatever the hour in UTC.
    for tz in ["Pacific/Kiritimati", "Pacific/Pago_Pago"] {
        let (_dir, data, rules) = place();
        let before = date_in(tz);
        let o = umpire(&data, &rules, &[("TZ", tz)], &[], "game\n");
        let after = date_in(tz);
        let (out, err) = text(&o);
        assert!(o.status.success(), "{err}");
        assert!(
            out.contains(&format!("game `{before}`")) || out.contains(&format!("game `{after}`")),
            "{tz}: {out}"
        );
    }
}

#[test]
fn the_shell_continues_the_game_last_played_and_games_are_listed_and_opened() {
    let (_dir, data, rules) = place();
    let o = umpire(
        &data,
        &rules,
        &[],
        &["--ruleset", "demo", "--house", "veterans"],
        "add side red Red\ngame new second\nadd side blue Blue\n",
    );
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(out.contains("new game `second`"), "{out}");
    // The new game starts with the rules in force, as its own set-up.
    assert!(out.contains("rules: demo + veterans"), "{out}");

    // Without a flag the shell continues `second`, the game last played.
    let o = umpire(&data, &rules, &[], &[], "game\nstatus\ngame list\n");
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("second.jsonl (continuing the game:"), "{err}");
    assert!(out.contains("game `second`"), "{out}");
    assert!(out.contains("Blue (") && !out.contains("Red ("), "{out}");
    let listed: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("  ") && l.contains(" entries "))
        .collect();
    assert_eq!(listed.len(), 2, "{out}");
    assert!(
        listed[0].contains("* second") && listed[0].contains("demo + veterans"),
        "{out}"
    );

    // `game open` continues the first one, with its rules.
    let first = listed[1].split_whitespace().next().unwrap().to_string();
    let o = umpire(
        &data,
        &rules,
        &[],
        &[],
        &format!("game open {first}\nstatus\ngame open nosuch\n"),
    );
    let (out, err) = text(&o);
    assert!(
        out.contains(&format!("game `{first}`: continuing after")),
        "{out}"
    );
    assert!(
        out.contains("continuing under the rules this game was played under: demo + veterans"),
        "{out}"
    );
    assert!(out.contains("Red (") && !out.contains("Blue ("), "{out}");
    assert!(err.contains("there is no game `nosuch`"), "{err}");
}
