//! Live sessions: a game goes on while rule files are created, edited, broken and fixed, as
//! an umpire does at the table. Each `tests/live/NAME.live` is played and what the shell
//! shows is compared with `NAME.out` (`SNAPSHOTS=overwrite cargo test` to accept changes).
//!
//! A `.live` file is shell commands, one per line, plus file edits:
//!
//! ```text
//! $ write scripts/smoke.lua        # the indented lines after it are the new file
//!   umpire.hook(…)
//! $ replace scripts/smoke.lua -1 => -2
//! ```
//!
//! After an edit the watcher's reload is awaited and shown as the REPL shows it. The rule
//! folders are a copy of the repository's, in a temporary folder.

use std::path::{Path, PathBuf};

use crate::common::{await_reload, copy_dir, repo};
use umpire::dice::DiceBox;
use umpire::engine::{Palette, Session, render};

/// Waits for the watcher to reload after an edit; the REPL's line about it.
fn reload_line(s: &mut Session) -> String {
    match await_reload(s) {
        Ok(_) => format!(
            "rules reloaded · {}",
            umpire::engine::rules::summary(&s.state.rules)
        ),
        Err(e) => format!(
            "rules not reloaded, generation {} stays in force: {e}",
            s.state.rules.generation()
        ),
    }
}

/// Plays one `.live` file; returns the transcript.
fn play(live: &Path) -> String {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(
        &crate::common::shipped().join("rulesets"),
        &dir.path().join("rulesets"),
    );
    copy_dir(
        &crate::common::shipped().join("scripts"),
        &dir.path().join("scripts"),
    );
    let mut s = Session::new(DiceBox::seeded(1));
    s.set_rules_root(dir.path().to_path_buf());
    let text = std::fs::read_to_string(live).unwrap();
    let root = dir.path().display().to_string();
    let mut out = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        if let Some(path) = line.strip_prefix("$ write ") {
            let mut body = String::new();
            while let Some(l) = lines.next_if(|l| l.starts_with("  ") || l.is_empty()) {
                body.push_str(l.strip_prefix("  ").unwrap_or(l));
                body.push('\n');
            }
            out.push_str(&format!("{line}\n"));
            for l in body.lines() {
                out.push_str(&format!("  {l}\n"));
            }
            std::fs::write(dir.path().join(path.trim()), body).unwrap();
            if s.state
                .rules
                .source()
                .house
                .iter()
                .any(|h| path.contains(h.as_str()))
            {
                out.push_str(&format!("{}\n", reload_line(&mut s)));
            }
            continue;
        }
        if let Some(rest) = line.strip_prefix("$ replace ") {
            let (path, change) = rest.split_once(' ').expect("$ replace PATH OLD => NEW");
            let (old, new) = change
                .split_once(" => ")
                .expect("$ replace PATH OLD => NEW");
            let file = dir.path().join(path);
            let before = std::fs::read_to_string(&file).unwrap();
            assert!(before.contains(old), "`{old}` is not in {path}");
            std::fs::write(&file, before.replacen(old, new, 1)).unwrap();
            out.push_str(&format!("{line}\n{}\n", reload_line(&mut s)));
            continue;
        }
        if line.starts_with('#') || line.trim().is_empty() {
            out.push_str(&format!("{line}\n"));
            continue;
        }
        out.push_str(&format!("umpire> {line}\n"));
        match s.execute(line, None) {
            Some(Ok(o)) => {
                let shown = render::output(&o, &Palette::plain());
                if !shown.is_empty() {
                    out.push_str(&format!("{shown}\n"));
                }
            }
            Some(Err((_, e))) => {
                out.push_str(&format!(
                    "{}\n",
                    render::error(&e, line, None, &Palette::plain())
                ));
            }
            None => {}
        }
        // The watcher starts once the rules are first loaded, as in the REPL.
        if line.starts_with("ruleset use") {
            s.state.rules.reloader.watch().unwrap();
        }
    }
    // The copy of the rule folders is somewhere new each time.
    out.replace(&root, "<rules>")
}

#[test]
fn live_sessions() {
    let dir = repo().join("tests/live");
    let mut lives: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "live"))
        .collect();
    lives.sort();
    assert!(!lives.is_empty(), "no live sessions in tests/live");
    for live in lives {
        let got = play(&live);
        snapbox::Assert::new()
            .action_env(snapbox::assert::DEFAULT_ACTION_ENV)
            .normalize_paths(false)
            .eq(
                got,
                snapbox::Data::read_from(&live.with_extension("out"), None),
            );
    }
}
