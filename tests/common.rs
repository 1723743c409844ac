//! Helpers the integration test modules share.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use umpire::repl::Session;

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
