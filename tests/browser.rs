//! A headless browser for the tests that look at pages as a browser builds them (the HTML
//! reports, the live board): found on `PATH`, run with a time limit. Tests that need one skip,
//! saying so, where none is installed.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A headless browser on this machine, if any.
pub fn find() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    [
        "chromium",
        "chromium-browser",
        "google-chrome",
        "google-chrome-stable",
        "chrome",
    ]
    .iter()
    .flat_map(|name| std::env::split_paths(&path).map(move |d| d.join(name)))
    .find(|p| p.is_file())
}

/// What a headless run gave: whether it exited well, and what it printed.
pub struct Run {
    pub success: bool,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `chrome` headless with `args` on `url` (a fresh profile in `profile`), killed after 60
/// seconds.
pub fn headless(chrome: &Path, profile: &Path, args: &[String], url: &str) -> Run {
    let mut child = std::process::Command::new(chrome)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--no-first-run",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(url)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let read = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut s = String::new();
            let _ = r.read_to_string(&mut s);
            s
        })
    };
    let out = read(Box::new(child.stdout.take().unwrap()));
    let err = read(Box::new(child.stderr.take().unwrap()));
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the headless browser did not finish within 60s");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    Run {
        success: status.success(),
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}
