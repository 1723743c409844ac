//! Golden transcripts: every `tests/transcripts/NAME.in` is fed to
//! `umpire run - --no-color --seed 1 --echo` and what it prints (stdout and stderr together,
//! in order, then `[exit N]` when the exit code is not 0) is compared with `NAME.out`.
//!
//! A first line `# args: --json` adds arguments (`--echo` is left out in JSON mode, so the
//! output is exactly one JSON object per command). A first line `# example: PATH` feeds the
//! repository's file PATH instead (an example a newcomer runs: its transcript keeps it true). Accept intended changes with
//! `SNAPSHOTS=overwrite cargo test`, then read the diff.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn transcripts() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/transcripts");
    let mut ins: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "in"))
        .collect();
    ins.sort();
    ins
}

/// Runs one transcript and returns what it printed.
fn run(input: &Path) -> String {
    let text = std::fs::read_to_string(input).unwrap();
    let extra: Vec<&str> = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("# args:"))
        .map(|a| a.split_whitespace().collect())
        .unwrap_or_default();
    let json = extra.contains(&"--json");
    let example = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("# example:"))
        .map(|p| crate::common::shipped().join(p.trim()));
    let mut args = vec!["run", "-", "--no-color", "--seed", "1"];
    if !json {
        args.push("--echo");
    }
    args.extend(extra);

    // One file for both streams keeps errors in order with the output around them.
    let name = input.file_stem().unwrap().to_string_lossy().to_string();
    let out_path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}.transcript"));
    let out = File::create(&out_path).unwrap();
    let status = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args(&args)
        .current_dir(crate::common::shipped())
        .env_remove("NO_COLOR")
        .env("UMPIRE_HISTORY", "/nonexistent/never-used")
        .stdin(File::open(example.as_deref().unwrap_or(input)).unwrap())
        .stdout(Stdio::from(out.try_clone().unwrap()))
        .stderr(Stdio::from(out))
        .status()
        .unwrap();
    let mut printed = std::fs::read_to_string(&out_path).unwrap();
    if !status.success() {
        printed.push_str(&format!("[exit {}]\n", status.code().unwrap_or(-1)));
    }
    printed
}

#[test]
fn golden_transcripts() {
    let all = transcripts();
    assert!(!all.is_empty(), "no transcripts found");
    for input in all {
        let expected = input.with_extension("out");
        let actual = run(&input);
        snapbox::Assert::new()
            .action_env(snapbox::assert::DEFAULT_ACTION_ENV)
            .normalize_paths(false)
            .eq(actual, snapbox::Data::read_from(&expected, None));
    }
}
