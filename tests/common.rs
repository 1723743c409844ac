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
