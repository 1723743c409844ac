//! Unique dice (`u`, `uo`): after every die is rolled, going through the pool in order, a
//! die whose value an earlier die already shows (among values matching the compare point,
//! if written) is rolled again: until it differs (`u`), or once (`uo`). As in the roller,
//! the new roll is a plain face, clamped (not rerolled or exploded again).
//!
//! The pool is followed die by die as the sorted multiset of values so far, so any
//! keep/drop and success counting apply at the end. The number of multisets grows fast with
//! the faces of the die; past the cap it is refused.

use std::collections::HashMap;

use super::super::ast::{Compare, ExplodeKind};
use super::super::caps::Caps;
use super::super::error::{DiceError, DiceErrorKind};
use super::die::{DieRule, unsupported};
use super::eval::Ctx;
use super::pmf::{Pmf, lost_power, too_many};
use super::select::{Score, Selection};
use crate::span::Span;

/// A pool of `n` dice following `rule`, made unique on `on` (all values when `None`).
pub(super) fn pool(
    ctx: &Ctx<'_>,
    rule: &DieRule,
    n: u64,
    once: bool,
    on: Option<Compare>,
    sel: &Selection,
    score: Score,
) -> Result<Pmf, DiceError> {
    if rule
        .explode
        .is_some_and(|e| matches!(e.kind, ExplodeKind::Standard | ExplodeKind::Penetrate))
    {
        return Err(unsupported("unique dice that explode into new dice"));
    }
    let cap = ctx.cap();
    let die = rule.chain_score(|v| v, ctx.opts.explode_depth, cap, &ctx.budget)?;
    let first: Vec<(i64, f64)> = die
        .pairs()
        .into_iter()
        .map(|(v, p)| (v as i64, p))
        .collect();
    // A die rolled again for uniqueness is clamped like every other die.
    let mut raw: Vec<(i64, f64)> = Vec::new();
    for (v, p) in rule.faces.outcomes() {
        let v = rule.clamp(v);
        match raw.last_mut() {
            Some((last, q)) if *last == v => *q += p,
            _ => raw.push((v, p)),
        }
    }
    let must_differ = |v: i64| on.is_none_or(|c| c.matches(v as f64));
    let mut states: HashMap<Vec<i64>, f64> = HashMap::new();
    states.insert(Vec::new(), 1.0);
    for placed in 0..n as usize {
        // Each state is copied, grown by one value and hashed per way the next die ends.
        ctx.budget.charge(
            states
                .len()
                .saturating_mul(first.len() * raw.len())
                .saturating_mul(placed + 1),
            "unique dice",
        )?;
        let mut next: HashMap<Vec<i64>, f64> = HashMap::new();
        for (seen, p) in &states {
            let taken = |v: i64| must_differ(v) && seen.binary_search(&v).is_ok();
            // The value a rerolled die ends on.
            let again: Vec<(i64, f64)> = if once {
                raw.clone()
            } else {
                let free: f64 = raw.iter().filter(|(f, _)| !taken(*f)).map(|(_, q)| q).sum();
                if free <= 0.0 {
                    // The roller gives up after its reroll cap.
                    return Err(DiceError::new(
                        DiceErrorKind::RerollCap {
                            cap: Caps::DEFAULT.max_rerolls,
                            condition: "unique".into(),
                        },
                        Span::default(),
                    ));
                }
                raw.iter()
                    .filter(|(f, _)| !taken(*f))
                    .map(|&(f, q)| (f, q / free))
                    .collect()
            };
            for &(v, q) in &first {
                let ends: &[(i64, f64)] = if taken(v) { &again } else { &[(v, 1.0)] };
                for &(w, r) in ends {
                    let mut s = seen.clone();
                    let at = s.partition_point(|&x| x < w);
                    s.insert(at, w);
                    *next.entry(s).or_default() += p * q * r;
                }
            }
        }
        if next.len() > cap {
            return Err(too_many(
                format!("unique dice can come out {} ways", next.len()),
                cap,
            ));
        }
        states = next;
    }
    let pairs = states
        .into_iter()
        .map(|(vals, p)| {
            let n = vals.len();
            let total: f64 = vals
                .iter()
                .enumerate()
                .filter(|(r, v)| sel.kept(*r, n, **v as f64))
                .map(|(_, v)| score.of(*v as f64))
                .sum();
            (total, p)
        })
        .collect();
    Pmf::from_pairs(pairs, lost_power(die.lost, n), "unique dice", cap)
}
