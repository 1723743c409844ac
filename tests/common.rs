//! Helpers the integration test modules share.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use umpire::engine::Session;

/// The repository (where `rulesets/` and `scripts/` are).
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Copies the folder `from` to `to`, sub-folders included.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).unwrap();
        }
    }
}

/// Waits (up to 10 s) for the watcher to bring in an edit; the reload's result (the new
/// generation, or why the old rules stay).
pub fn await_reload(s: &mut Session) -> Result<u64, umpire::script::ScriptError> {
    let start = Instant::now();
    loop {
        if let Some(r) = s.poll_rules() {
            // Let the rest of the editor's writes settle into the same reload.
            std::thread::sleep(Duration::from_millis(400));
            return s.poll_rules().unwrap_or(r);
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "no reload after an edit"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A copy of the repository's shipped files (those git tracks) in `rulesets/`, `scripts/`,
/// `examples/` and `tests/data/`, made once per test run: tests read the rules and examples
/// from here, so a house rule a club drops into `scripts/` (as scripts/README.md invites)
/// never changes what the tests see. Outside a git checkout everything is copied.
pub fn shipped() -> &'static Path {
    static TREE: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();
    TREE.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let folders = ["rulesets", "scripts", "examples", "tests/data"];
        let tracked = std::process::Command::new("git")
            .args(["ls-files", "-z", "--"])
            .args(folders)
            .current_dir(repo())
            .output()
            .ok()
            .filter(|o| o.status.success() && !o.stdout.is_empty());
        match tracked {
            Some(o) => {
                for f in o.stdout.split(|&b| b == 0).filter(|f| !f.is_empty()) {
                    let rel = Path::new(std::str::from_utf8(f).unwrap());
                    let to = dir.path().join(rel);
                    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
                    std::fs::copy(repo().join(rel), to).unwrap();
                }
            }
            None => {
                for f in folders {
                    copy_dir(&repo().join(f), &dir.path().join(f));
                }
            }
        }
        dir
    })
    .path()
}

/// Runs the umpire binary in the repository with `args`, `input` on stdin, and a history
/// file nobody uses; kills it and fails the test if it has not finished within 30 s (a
/// FIFO read would otherwise hang the test run).
pub fn umpire_timed(args: &[&str], input: &str) -> std::process::Output {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args(args)
        .current_dir(repo())
        .env_remove("NO_COLOR")
        .env("UMPIRE_HISTORY", "/nonexistent/never-used")
        .env_remove("UMPIRE_JOURNAL")
        .env_remove("UMPIRE_LIMITS")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_string();
    // A child that stops before reading its input may have closed the pipe already.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("umpire {args:?} did not finish in 30 s (reading a FIFO or a device?)");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = writer.join();
    child.wait_with_output().unwrap()
}

/// Makes a named pipe at `path`; false (the caller skips) where `mkfifo` is not available.
pub fn mkfifo(path: &Path) -> bool {
    match std::process::Command::new("mkfifo").arg(path).status() {
        Ok(s) if s.success() => true,
        _ => {
            eprintln!("mkfifo is not available here: skipped");
            false
        }
    }
}
