//! The dice conformance corpus (`../shared/dice/corpus.tsv`, 332 cases from two peer engines'
//! test suites) run against umpire's parser and roller.
//!
//! Rows where umpire deliberately reads the notation differently are listed, with the reason,
//! in `tests/data/corpus_overrides.tsv`; GRAMMAR.md explains each decision. The corpus lives
//! outside the repository, so the test skips (saying so) where it is absent.

use std::path::PathBuf;

use umpire::dice::{Caps, DiceBox, parse, roll};

struct Row {
    expr: String,
    valid: bool,
    min: f64,
    max: f64,
    note: String,
}

fn bound(s: &str) -> f64 {
    match s {
        "inf" => f64::INFINITY,
        "-inf" => f64::NEG_INFINITY,
        "-" => f64::NAN,
        s => s.parse().unwrap_or_else(|_| panic!("bad bound {s}")),
    }
}

fn rows(text: &str) -> Vec<Row> {
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Row {
                expr: f[0].to_string(),
                valid: f[1] == "yes",
                min: bound(f[2]),
                max: bound(f[3]),
                note: f.get(4).unwrap_or(&"").to_string(),
            }
        })
        .collect()
}

fn corpus_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/dice/corpus.tsv")
}

/// Checks one row; `Err` describes the mismatch.
fn check(row: &Row) -> Result<(), String> {
    let parsed = parse(&row.expr);
    if !row.valid {
        let Ok(e) = parsed else { return Ok(()) };
        let mut dice = DiceBox::seeded(1);
        for _ in 0..50 {
            if roll(&e, &mut dice.source(None), &Caps::DEFAULT).is_err() {
                return Ok(());
            }
        }
        return Err("accepted, but the corpus says it must be rejected".into());
    }
    let e = parsed.map_err(|e| format!("rejected: {e}"))?;
    let mut dice = DiceBox::seeded(7);
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for _ in 0..300 {
        let r = roll(&e, &mut dice.source(None), &Caps::DEFAULT)
            .map_err(|e| format!("roll failed: {e}"))?;
        let t = r[0].total;
        lo = lo.min(t);
        hi = hi.max(t);
    }
    // The corpus rounds fractional bounds to two decimals.
    if lo < row.min - 0.006 || hi > row.max + 0.006 {
        return Err(format!(
            "rolled {lo}..{hi}, outside {}..{}",
            row.min, row.max
        ));
    }
    Ok(())
}

#[test]
fn corpus_conforms_with_documented_overrides() {
    let Ok(text) = std::fs::read_to_string(corpus_path()) else {
        eprintln!(
            "skipping the dice corpus: {} not found (it ships beside the repository in CI)",
            corpus_path().display()
        );
        return;
    };
    let overrides = rows(include_str!("data/corpus_overrides.tsv"));
    let corpus = rows(&text);
    assert_eq!(corpus.len(), 332, "the corpus should hold 332 cases");
    let mut failures = Vec::new();
    let mut overridden = 0;
    for row in &corpus {
        let row = match overrides.iter().find(|o| o.expr == row.expr) {
            Some(o) => {
                overridden += 1;
                o
            }
            None => row,
        };
        if let Err(why) = check(row) {
            failures.push(format!("{:?}: {why} ({})", row.expr, row.note));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} corpus rows fail:\n{}",
        failures.len(),
        corpus.len(),
        failures.join("\n")
    );
    assert_eq!(
        overridden,
        overrides.len(),
        "every override must match a corpus row"
    );
}
