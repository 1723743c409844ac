//! The dice against what was expected: each kind of roll (its expression, `2d6`), the totals
//! observed, split by where the dice came from and by the side that rolled them, against the
//! exact distribution the dice engine computes for that expression (as `prob` does).
//!
//! A roll is a side's when the rules said who rolled it (`c:roll(…, by)`, kept with the roll
//! in the journal: the side of that unit, command or side); otherwise when the command named
//! a unit, the side of the first unit it named (the one acting: the firer, the charger);
//! otherwise it is counted under no side.

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

/// The rolls of one side from one source, of one kind.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BySide {
    /// The side's name; `None`: no side could be told (the rules named nobody rolling and
    /// the command named no unit).
    pub side: Option<String>,
    /// `generated`, `typed` or `queued`.
    pub source: &'static str,
    /// How many rolls.
    pub count: u64,
    /// Their mean total.
    pub mean: f64,
    /// How far their mean is from the exact one, in standard errors (`None`: not computable,
    /// or queued dice, which are the umpire's choice).
    pub z: Option<f64>,
    /// In words: `ordinary luck`, `a little lower than expected`…
    pub verdict: String,
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
    /// Each side's rolls, by source: sides in order of first roll, the rolls no side could
    /// be told for last.
    pub sides: Vec<BySide>,
    /// The mean total observed.
    pub mean: f64,
    /// The exact mean (`None`: not computable).
    pub expected_mean: Option<f64>,
    /// The exact standard deviation of one roll (`None`: not computable).
    pub expected_sd: Option<f64>,
    /// How far the mean of the dice rolled (generated or typed: queued dice are the umpire's
    /// choice) is from the exact one, in standard errors (`None` when not computable, none
    /// were rolled, or the dice cannot vary).
    pub z: Option<f64>,
    /// Every total that came up or could have, in order.
    pub outcomes: Vec<Outcome>,
    /// In words, of the dice rolled: `ordinary luck (within one standard error)` and the like.
    pub verdict: String,
}

/// One roll counted: its total, where its dice came from, and whose it was.
#[derive(Debug)]
struct Counted {
    total: f64,
    source: Source,
    side: Option<String>,
}

/// The totals gathered so far, by expression.
#[derive(Debug, Default)]
pub struct Tally {
    totals: BTreeMap<String, Vec<Counted>>,
    order: Vec<String>,
}

impl Tally {
    /// Counts the rolls of `tx`, each for the side `sides` gives in its place (`None`, or
    /// past the end: none could be told).
    pub fn add(&mut self, tx: &Transaction, sides: &[Option<String>]) {
        for (i, r) in tx.rolls.iter().enumerate() {
            if r.dice().is_empty() {
                continue;
            }
            let expr = r.expr().to_string();
            if !self.totals.contains_key(&expr) {
                self.order.push(expr.clone());
            }
            self.totals.entry(expr).or_default().push(Counted {
                total: r.total,
                source: Source::of(r),
                side: sides.get(i).cloned().flatten(),
            });
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

/// How far `rolled`'s mean is from `d`'s, in standard errors (`None` when nothing was rolled
/// or the dice cannot vary).
fn z_of(d: &crate::dice::Distribution, rolled: &[f64]) -> Option<f64> {
    let se = d.stddev() / (rolled.len() as f64).sqrt();
    (se > 0.0 && !rolled.is_empty()).then(|| (mean(rolled) - d.mean()) / se)
}

/// A z in words.
fn luck_words(z: f64) -> String {
    if z.abs() < 1.0 {
        "ordinary luck (within one standard error)".to_string()
    } else if z.abs() < 2.0 {
        format!(
            "a little {} than expected (within two standard errors)",
            if z > 0.0 { "higher" } else { "lower" }
        )
    } else {
        format!(
            "{} than expected: {:.1} standard errors",
            if z > 0.0 { "higher" } else { "lower" },
            z.abs()
        )
    }
}

/// The rows by side and source of `rolls`, with `dist` their exact distribution.
fn by_side(rolls: &[Counted], dist: Option<&crate::dice::Distribution>) -> Vec<BySide> {
    let mut sides: Vec<Option<&str>> = Vec::new();
    for r in rolls {
        if !sides.contains(&r.side.as_deref()) {
            sides.push(r.side.as_deref());
        }
    }
    // The rolls no side could be told for go last.
    sides.sort_by_key(|s| s.is_none());
    let mut out = Vec::new();
    for side in sides {
        for source in [Source::Generated, Source::Typed, Source::Queued] {
            let totals: Vec<f64> = rolls
                .iter()
                .filter(|r| r.side.as_deref() == side && r.source == source)
                .map(|r| r.total)
                .collect();
            if totals.is_empty() {
                continue;
            }
            let z = if source == Source::Queued {
                None
            } else {
                dist.and_then(|d| z_of(d, &totals))
            };
            let verdict = match (source, z) {
                (Source::Queued, _) => "set by the umpire: no luck to judge".to_string(),
                (_, Some(z)) => luck_words(z),
                (_, None) => "no exact odds to compare with".to_string(),
            };
            out.push(BySide {
                side: side.map(str::to_string),
                source: source.name(),
                count: totals.len() as u64,
                mean: mean(&totals),
                z,
                verdict,
            });
        }
    }
    out
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

fn kind(expr: &str, rolls: &[Counted]) -> DiceKind {
    let mut by: BTreeMap<Source, Vec<f64>> = BTreeMap::new();
    for r in rolls {
        by.entry(r.source).or_default().push(r.total);
    }
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
    let z = dist.as_ref().and_then(|d| z_of(d, &rolled));
    let verdict = match z {
        None if rolled.is_empty() => {
            "every roll queued by the umpire: no luck to judge".to_string()
        }
        None => "no exact odds to compare with".to_string(),
        Some(z) => luck_words(z),
    };
    DiceKind {
        expr: expr.to_string(),
        count,
        sources,
        sides: by_side(rolls, dist.as_ref()),
        mean: m,
        expected_mean,
        expected_sd: dist.as_ref().map(|d| d.stddev()),
        z,
        outcomes,
        verdict,
    }
}

/// The side (by name) that rolled each roll of `tx`, from `game` as it stood before `tx`: the
/// side of the unit, command or side the rules named (`by`); else that of the first unit
/// (or element's unit) the command names; else `None`.
pub fn sides_of(game: &crate::state::Game, tx: &Transaction) -> Vec<Option<String>> {
    let side_name = |id: &str| {
        game.side(id)
            .map_or_else(|| id.to_string(), |s| s.name.clone())
    };
    let side_of_id = |id: &str| -> Option<String> {
        if let Some(u) = game.owner_unit(id) {
            return Some(side_name(u.side.as_str()));
        }
        if game.side(id).is_some() {
            return Some(side_name(id));
        }
        if let Some(c) = game.command(id) {
            return Some(side_name(c.side.as_str()));
        }
        let (unit, _) = id.split_once('.')?;
        game.unit(unit).map(|u| side_name(u.side.as_str()))
    };
    let mut named = None;
    let mut looked = false;
    tx.rolls
        .iter()
        .map(|r| {
            if let Some(by) = r.by.as_deref()
                && let Some(side) = side_of_id(by)
            {
                return Some(side);
            }
            if !looked {
                looked = true;
                named = tx
                    .public_command()
                    .split(|c: char| c.is_whitespace() || c == ',')
                    .skip(1)
                    .filter(|w| !w.is_empty())
                    .find_map(|w| {
                        let unit = w.split('.').next().unwrap_or(w);
                        game.owner_unit(unit).map(|u| side_name(u.side.as_str()))
                    });
            }
            named.clone()
        })
        .collect()
}

/// One side's dice, all kinds together: the rolls generated or typed (not queued) against
/// their exact odds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SideLuck {
    /// The side's name.
    pub side: String,
    /// How many rolls.
    pub rolls: u64,
    /// How far their totals are from the expected, in standard errors: the sum of each roll's
    /// difference from its kind's exact mean over the square root of the sum of their
    /// variances (`None`: no roll with exact odds).
    pub z: Option<f64>,
    /// In words.
    pub verdict: String,
}

/// Each side's luck over the rolls of `kinds` (of one battle or many), sides in order of
/// first appearance; rolls of no side told, queued dice and kinds without exact odds are
/// left out.
pub fn luck<'a>(kinds: impl IntoIterator<Item = &'a DiceKind>) -> Vec<SideLuck> {
    let mut acc: Vec<(String, u64, f64, f64)> = Vec::new();
    for k in kinds {
        let (Some(mu), Some(sd)) = (k.expected_mean, k.expected_sd) else {
            continue;
        };
        for r in k.sides.iter().filter(|r| r.source != Source::Queued.name()) {
            let Some(side) = &r.side else { continue };
            let at = match acc.iter().position(|a| &a.0 == side) {
                Some(i) => i,
                None => {
                    acc.push((side.clone(), 0, 0.0, 0.0));
                    acc.len() - 1
                }
            };
            let n = r.count as f64;
            acc[at].1 += r.count;
            acc[at].2 += n * (r.mean - mu);
            acc[at].3 += n * sd * sd;
        }
    }
    acc.into_iter()
        .map(|(side, rolls, dev, var)| {
            let z = (var > 0.0).then(|| dev / var.sqrt());
            SideLuck {
                side,
                rolls,
                z,
                verdict: z.map_or_else(|| "no luck to judge".to_string(), luck_words),
            }
        })
        .collect()
}
