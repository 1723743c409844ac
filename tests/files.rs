//! Files that are not regular files, given wherever umpire reads or writes one: a FIFO would
//! hang it and a device would be read forever or replaced; each is refused at once with a
//! message naming the path and what it is. Symlinks to regular files work as the files do.
//! Every run has a time limit, so a regression fails instead of hanging.

#![cfg(unix)]

use std::os::unix::fs::{FileTypeExt, symlink};
use std::path::Path;

use crate::common::{copy_dir, mkfifo, repo, umpire_timed};
use umpire::dice::DiceBox;
use umpire::engine::Session;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Each command that reads a file, given `path`.
fn reading_commands(path: &str) -> Vec<String> {
    [
        "army load",
        "schema load",
        "table load",
        "load",
        "replay",
        "journal verify",
    ]
    .iter()
    .map(|c| format!("{c} {path}"))
    .collect()
}

/// Runs each command in its own `umpire run -`; each must fail, saying `says`.
fn each_refused(commands: &[String], says: &str) {
    for c in commands {
        let o = umpire_timed(
            &["--seed", "1", "--no-color", "run", "-"],
            &format!("{c}\n"),
        );
        assert_eq!(o.status.code(), Some(1), "{c}: {}", text(&o.stderr));
        let err = text(&o.stderr);
        assert!(err.contains(says), "{c}: {err}");
        assert!(err.contains("not a regular file"), "{c}: {err}");
    }
}

#[test]
fn a_fifo_is_refused_wherever_a_file_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    if !mkfifo(&fifo) {
        return;
    }
    let f = fifo.to_str().unwrap();
    each_refused(&reading_commands(f), "a named pipe (FIFO)");

    // As the journal, the command file and the history.
    let o = umpire_timed(&["--journal", f, "run", "-"], "roll 1d6\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("a named pipe (FIFO)"),
        "{}",
        text(&o.stderr)
    );
    let o = umpire_timed(&["run", f], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains(&format!("cannot read `{f}`: it is a named pipe")));
    let journal = dir.path().join("night.jsonl");
    let o = umpire_timed(
        &[
            "--history",
            f,
            "--journal",
            journal.to_str().unwrap(),
            "--seed",
            "1",
        ],
        "roll 1d6\n",
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains(&format!(
            "umpire: no history: cannot read `{f}`: it is a named pipe"
        )),
        "{}",
        text(&o.stderr)
    );
    assert!(text(&o.stdout).contains("1d6 ("), "{}", text(&o.stdout));
}

#[test]
fn devices_and_symlinks_to_them_are_refused_wherever_a_file_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("roster.toml");
    symlink("/dev/zero", &link).unwrap();
    let l = link.to_str().unwrap();
    each_refused(&reading_commands(l), "a character device");
    each_refused(&reading_commands("/dev/zero"), "a character device");

    let o = umpire_timed(&["run", "/dev/zero"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("a character device"));
    let o = umpire_timed(&["--journal", "/dev/zero", "run", "-"], "roll 1d6\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("a character device"));
    let o = umpire_timed(&["--journal", dir.path().to_str().unwrap(), "run", "-"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("it is a folder"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn history_on_dev_full_is_refused_and_the_shell_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("night.jsonl");
    let o = umpire_timed(
        &[
            "--history",
            "/dev/full",
            "--journal",
            journal.to_str().unwrap(),
            "--seed",
            "1",
        ],
        "roll 1d6\nroll 1d8\n",
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    assert!(
        err.contains("no history: cannot read `/dev/full`: it is a character device"),
        "{err}"
    );
    assert!(text(&o.stdout).contains("1d8 ("), "{}", text(&o.stdout));
}

#[test]
fn symlinks_to_regular_files_are_read_as_the_files() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["schema", "romans", "tables"] {
        symlink(
            repo().join(format!("examples/data/{name}.toml")),
            dir.path().join(format!("{name}.toml")),
        )
        .unwrap();
    }
    let d = dir.path().display();
    let o = umpire_timed(
        &["--seed", "1", "run", "-"],
        &format!(
            "schema load {d}/schema.toml\narmy load {d}/romans.toml\ntable load {d}/tables.toml\n"
        ),
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
}

#[test]
fn files_over_the_file_limit_are_refused_naming_the_limit() {
    let o = umpire_timed(
        &["--limit", "file=1KiB", "--seed", "1", "run", "-"],
        "army load examples/data/romans.toml\n",
    );
    let err = text(&o.stderr);
    assert!(err.contains("bigger than the file limit of 1KiB"), "{err}");
    assert!(err.contains("`--limit file="), "{err}");
    let o = umpire_timed(
        &[
            "--limit",
            "file=256B",
            "--seed",
            "1",
            "run",
            "examples/game.umpire",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("bigger than the file limit"),
        "{}",
        text(&o.stderr)
    );
}

/// A session whose rules live in a copy of the repository's rule folders.
fn rules_copy() -> (tempfile::TempDir, Session) {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&repo().join("rulesets"), &dir.path().join("rulesets"));
    copy_dir(&repo().join("scripts"), &dir.path().join("scripts"));
    let mut s = Session::new(DiceBox::seeded(1));
    s.set_rules_root(dir.path().to_path_buf());
    (dir, s)
}

#[test]
fn a_rule_file_that_is_a_device_or_a_fifo_is_refused_when_loaded() {
    let (dir, mut s) = rules_copy();
    let zero = dir.path().join("rulesets/zero");
    std::fs::create_dir_all(&zero).unwrap();
    symlink("/dev/zero", zero.join("init.lua")).unwrap();
    let (_, err) = s.execute("ruleset use zero", None).unwrap().unwrap_err();
    let msg = err.to_string();
    assert!(msg.contains("`rulesets/zero/init.lua`"), "{msg}");
    assert!(msg.contains("a character device"), "{msg}");

    let pipe = dir.path().join("scripts/pipe.lua");
    if mkfifo(&pipe) {
        let (_, err) = s.execute("house on pipe", None).unwrap().unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.contains("`scripts/pipe.lua`: it is a named pipe"),
            "{msg}"
        );
        assert!(s.execute("house list", None).unwrap().is_ok());
        // A module `require`d from inside the rule folders.
        let req = dir.path().join("rulesets/req");
        std::fs::create_dir_all(&req).unwrap();
        std::fs::write(req.join("init.lua"), "require \"req.piped\"\n").unwrap();
        assert!(mkfifo(&req.join("piped.lua")));
        let (_, err) = s.execute("ruleset use req", None).unwrap().unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.contains("`rulesets/req/piped.lua`: it is a named pipe"),
            "{msg}"
        );
    }
}

#[test]
fn a_rule_file_replaced_by_a_link_to_dev_zero_is_refused_on_reload() {
    let (dir, mut s) = rules_copy();
    s.execute("ruleset use demo", None).unwrap().unwrap();
    s.state.rules.reloader.watch().unwrap();
    let init = dir.path().join("rulesets/demo/init.lua");
    std::fs::remove_file(&init).unwrap();
    symlink("/dev/zero", &init).unwrap();
    let err = crate::common::await_reload(&mut s).unwrap_err().to_string();
    assert!(err.contains("a character device"), "{err}");
    // The rules in force stay.
    assert_eq!(s.state.generation(), 1);
}

#[test]
fn save_writes_through_a_symlink_and_never_over_a_device_a_fifo_or_a_folder() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Session::new(DiceBox::seeded(1));
    s.execute("add side red Red", None).unwrap().unwrap();

    // Through a symlink: the target gets the game, the link stays a link.
    std::fs::create_dir(dir.path().join("saves")).unwrap();
    let target = dir.path().join("saves/night.json");
    std::fs::write(&target, "old").unwrap();
    let link = dir.path().join("night.json");
    symlink("saves/night.json", &link).unwrap();
    s.execute(&format!("save {}", link.display()), None)
        .unwrap()
        .unwrap();
    assert!(std::fs::read_to_string(&target).unwrap().contains("red"));
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        std::fs::read_dir(dir.path().join("saves")).unwrap().count(),
        1
    );

    // A device (through a link, as anyone can make one), a folder, a FIFO: refused, left
    // alone, and nothing left beside them.
    let null = dir.path().join("null.json");
    symlink("/dev/null", &null).unwrap();
    let fifo = dir.path().join("pipe.json");
    let has_fifo = mkfifo(&fifo);
    let mut refused = vec![
        (null.clone(), "a character device"),
        (dir.path().join("saves"), "a folder"),
    ];
    if has_fifo {
        refused.push((fifo.clone(), "a named pipe"));
    }
    let before = std::fs::read_dir(dir.path()).unwrap().count();
    for (p, kind) in refused {
        let (_, err) = s
            .execute(&format!("save {}", p.display()), None)
            .unwrap()
            .unwrap_err();
        let msg = err.to_string();
        assert!(msg.contains(kind), "{msg}");
        assert!(msg.contains("not a regular file"), "{msg}");
    }
    assert!(
        std::fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device()
    );
    if has_fifo {
        assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), before);
    assert!(!Path::new(&format!("{}.tmp", null.display())).exists());
}

#[test]
fn a_save_that_fails_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Session::new(DiceBox::seeded(1));
    let missing = dir.path().join("no-such-folder/night.json");
    assert!(
        s.execute(&format!("save {}", missing.display()), None)
            .unwrap()
            .is_err()
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}
