//! The project stands alone: a user's clone has only the repository. No tracked file outside
//! `tests/` may point at the workplace folder beside it (the rulebooks' digests, the design
//! notes), and the shipped rule sets and docs cite rulebook sections and their own READMEs.

use std::path::Path;

use crate::common::repo;

/// The files git tracks, or `None` outside a git checkout.
fn tracked() -> Option<Vec<String>> {
    let o = std::process::Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(repo())
        .output()
        .ok()
        .filter(|o| o.status.success() && !o.stdout.is_empty())?;
    Some(
        o.stdout
            .split(|&b| b == 0)
            .filter(|f| !f.is_empty())
            .map(|f| String::from_utf8_lossy(f).to_string())
            .collect(),
    )
}

#[test]
fn no_tracked_file_outside_tests_points_beside_the_repository() {
    let Some(files) = tracked() else {
        eprintln!("skipping: not a git checkout, so the tracked files are unknown");
        return;
    };
    let outside = ["../shared", "shared/rules/", "shared/DESIGN", "digest"];
    let mut found = Vec::new();
    for f in files.iter().filter(|f| !f.starts_with("tests/")) {
        if f == "Cargo.lock" {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(repo().join(Path::new(f))) else {
            continue; // not text
        };
        for (n, line) in text.lines().enumerate() {
            // The SHA-256 crate's `digest` function is not a rulebook digest.
            let line = line.replace("Sha256::digest", "");
            if outside.iter().any(|o| line.contains(o)) {
                found.push(format!("{f}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "these lines point outside the repository (cite rulebook sections and the ruleset's README instead):\n{}",
        found.join("\n")
    );
}

#[test]
fn examples_readme_lists_every_example() {
    let readme = std::fs::read_to_string(repo().join("examples/README.md")).unwrap();
    let mut missing = Vec::new();
    let mut todo = vec![repo().join("examples")];
    while let Some(dir) = todo.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
                continue;
            }
            let rel = p
                .strip_prefix(repo().join("examples"))
                .unwrap()
                .display()
                .to_string();
            if rel != "README.md"
                && !readme.contains(&format!("`{rel}`"))
                && !rel.ends_with("README.md")
            {
                missing.push(rel);
            }
        }
    }
    assert!(
        missing.is_empty(),
        "examples/README.md does not list: {missing:?}"
    );
}
