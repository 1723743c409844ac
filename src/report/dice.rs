//! The dice against what was expected: each kind of roll (its expression, `2d6`), the totals
//! observed, split by where the dice came from, against the exact distribution the dice
//! engine computes for that expression (as `prob` does).

use std::collections::BTreeMap;

use serde::Serialize;

use crate::dice::{ExactOptions, Roll, SourceKind};
use crate::journal::Transaction;

/// Where a roll's dice came from, as the report splits them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// The seeded generator.
    Generated,
    /// Typed in by the umpire from the players' dice (any die of the roll).
    Typed,
    /// Queued (`dice queue`): set by the umpire, not luck.
    Queued,
}

impl Source {
    /// How a roll's dice came: typed if any die was, else queued if any was, else generated.
    pub fn of(roll: &Roll) -> Source {
        if roll.sources.contains(SourceKind::Entered) {
            Source::Typed
        } else if roll.sources.contains(SourceKind::Queue) {
            Source::Queued
        } else {
            Source::Generated
        }
    }

    /// Its name in the report.
    pub fn name(self) -> &'static str {
        match self {
            Source::Generated => "generated",
            Source::Typed => "typed",
            Source::Queued => "queued",
        }
    }
}

/// One total of a kind of roll: how often it came up, and how often it should have.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Outcome {
    /// The total.
    pub value: f64,
    /// How often it came up, by source, in the order of [`DiceKind::sources`].
    pub observed: Vec<u64>,
    /// How often it came up in all.
    pub total: u64,
    /// Its exact probability (`None`: the engine could not compute the distribution).
    pub probability: Option<f64>,
    /// How often it should have come up in all (`probability` × rolls).
    pub expected: Option<f64>,
}

/// The rolls of one source of one kind.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BySource {
    /// `generated`, `typed` or `queued`.
    pub source: &'static str,
    /// How many rolls.
    pub count: u64,
    /// Their mean total.
    pub mean: f64,
}

/// One kind of roll, observed against expected.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DiceKind {
    /// The expression (`2d6`).
    pub expr: String,
    /// How many rolls in all.
    pub count: u64,
    /// Each source's rolls.
    pub sources: Vec<BySource>,
    /// The mean total observed.
    pub mean: f64,
    /// The exact mean (`None`: not computable).
    pub expected_mean: Option<f64>,
    /// How far the mean of the dice rolled (generated or typed: queued dice are the umpire's
    /// choice) is from the exact one, in standard errors (`None` when not computable, none
    /// were rolled, or the dice cannot vary).
    pub z: Option<f64>,
    /// Every total that came up or could have, in order.
    pub outcomes: Vec<Outcome>,
    /// In words, of the dice rolled: `ordinary luck (within one standard error)` and the like.
    pub verdict: String,
}

/// The totals gathered so far, by expression and source.
#[derive(Debug, Default)]
pub struct Tally {
    totals: BTreeMap<String, BTreeMap<Source, Vec<f64>>>,
    order: Vec<String>,
}

impl Tally {
    /// Counts the rolls of `tx`.
    pub fn add(&mut self, tx: &Transaction) {
        for r in &tx.rolls {
            if r.dice().is_empty() {
                continue;
            }
            let expr = r.expr().to_string();
            if !self.totals.contains_key(&expr) {
                self.order.push(expr.clone());
            }
            self.totals
                .entry(expr)
                .or_default()
                .entry(Source::of(r))
                .or_default()
                .push(r.total);
        }
    }

    /// Each kind, most rolled first (then in order of first roll), with its exact
    /// distribution.
    pub fn kinds(&self) -> Vec<DiceKind> {
        let mut kinds: Vec<DiceKind> = self
            .order
            .iter()
            .map(|e| kind(e, &self.totals[e]))
            .collect();
        kinds.sort_by_key(|k| std::cmp::Reverse(k.count));
        kinds
    }
}

/// The exact distribution of `expr` (`None` when the engine cannot compute it).
pub fn exact(expr: &str) -> Option<crate::dice::Distribution> {
    let parsed = crate::dice::parse(expr).ok()?;
    crate::dice::exact::distribution(&parsed, &ExactOptions::default()).ok()
}

fn mean(v: &[f64]) -> f64 {
    if v.is_empty() {
        0.0
    } else {
        v.iter().sum::<f64>() / v.len() as f64
    }
}

fn kind(expr: &str, by: &BTreeMap<Source, Vec<f64>>) -> DiceKind {
    let all: Vec<f64> = by.values().flatten().copied().collect();
    let count = all.len() as u64;
    let dist = exact(expr);
    let sources: Vec<BySource> = by
        .iter()
        .map(|(s, v)| BySource {
            source: s.name(),
            count: v.len() as u64,
            mean: mean(v),
        })
        .collect();
    // Every total seen, and every one the distribution gives.
    let mut values: Vec<f64> = all.clone();
    if let Some(d) = &dist {
        values.extend(d.outcomes.iter().map(|o| o.0));
    }
    values.sort_by(f64::total_cmp);
    values.dedup();
    let outcomes = values
        .into_iter()
        .map(|value| {
            let observed: Vec<u64> = by
                .values()
                .map(|v| v.iter().filter(|&&x| x == value).count() as u64)
                .collect();
            let probability = dist.as_ref().map(|d| {
                d.outcomes
                    .iter()
                    .find(|o| o.0 == value)
                    .map_or(0.0, |o| o.1)
            });
            Outcome {
                value,
                total: observed.iter().sum(),
                observed,
                probability,
                expected: probability.map(|p| p * count as f64),
            }
        })
        .collect();
    // Luck is judged on the dice rolled (generated or typed), not on those the umpire queued.
    let rolled: Vec<f64> = by
        .iter()
        .filter(|(s, _)| **s != Source::Queued)
        .flat_map(|(_, v)| v.iter().copied())
        .collect();
    let m = mean(&all);
    let expected_mean = dist.as_ref().map(|d| d.mean());
    let z = dist.as_ref().and_then(|d| {
        let se = d.stddev() / (rolled.len() as f64).sqrt();
        (se > 0.0 && !rolled.is_empty()).then(|| (mean(&rolled) - d.mean()) / se)
    });
    let verdict = match z {
        None if rolled.is_empty() => {
            "every roll queued by the umpire: no luck to judge".to_string()
        }
        None => "no exact odds to compare with".to_string(),
        Some(z) if z.abs() < 1.0 => "ordinary luck (within one standard error)".to_string(),
        Some(z) if z.abs() < 2.0 => format!(
            "a little {} than expected (within two standard errors)",
            if z > 0.0 { "higher" } else { "lower" }
        ),
        Some(z) => format!(
            "{} than expected: {:.1} standard errors",
            if z > 0.0 { "higher" } else { "lower" },
            z.abs()
        ),
    };
    DiceKind {
        expr: expr.to_string(),
        count,
        sources,
        mean: m,
        expected_mean,
        z,
        outcomes,
        verdict,
    }
}
