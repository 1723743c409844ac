//! `ra` (roll and add): after every die of the pool is rolled, exploded and clamped, the
//! first die whose value matches the condition (by default the lowest face) gets one more
//! die rolled and added to the pool. The extra die is a plain roll, clamped.
//!
//! The pool is followed as two sub-distributions, "no die matched yet" and "some die
//! matched", combined die by die (by squaring, like a plain sum). Supported for sums and
//! success counts; with keep/drop the extra die would have to be ranked with the others,
//! which this file does not do.

use super::super::ast::{Compare, ExplodeKind};
use super::super::error::DiceError;
use super::budget::STATE_OVERHEAD;
use super::die::{DieRule, unsupported};
use super::eval::Ctx;
use super::pmf::{Pmf, lost_power};
use super::select::{Score, Selection};

/// The sum of two sub-distributions (an empty one adds nothing).
fn plus(a: &Pmf, b: &Pmf, cap: usize) -> Result<Pmf, DiceError> {
    let mut pairs = a.pairs();
    pairs.extend(b.pairs());
    Pmf::from_pairs(pairs, 0.0, "a pool", cap)
}

/// `X + Y` of two independent sub-distributions (an empty one gives nothing).
fn conv(a: &Pmf, b: &Pmf, cap: usize) -> Result<Pmf, DiceError> {
    if a.len() == 0 || b.len() == 0 {
        return Pmf::from_pairs(Vec::new(), 0.0, "a pool", cap);
    }
    let mut r = a.add(b, cap)?;
    r.lost = 0.0;
    Ok(r)
}

/// A pool state: the worth so far when no die has matched, and when one has.
#[derive(Clone)]
struct Split {
    none: Pmf,
    any: Pmf,
}

impl Split {
    /// Two independent parts of the pool together.
    fn join(&self, other: &Split, cap: usize) -> Result<Split, DiceError> {
        let none = conv(&self.none, &other.none, cap)?;
        let any = plus(
            &plus(
                &conv(&self.none, &other.any, cap)?,
                &conv(&self.any, &other.none, cap)?,
                cap,
            )?,
            &conv(&self.any, &other.any, cap)?,
            cap,
        )?;
        Ok(Split { none, any })
    }
}

/// A pool of `n` dice following `rule`, with `ra` on `on`.
pub(super) fn pool(
    ctx: &Ctx<'_>,
    rule: &DieRule,
    n: u64,
    on: Option<Compare>,
    sel: &Selection,
    score: Score,
) -> Result<Pmf, DiceError> {
    if !sel.is_empty() {
        return Err(unsupported("`ra` (roll and add) together with keep/drop"));
    }
    let (depth, cap) = (ctx.opts.explode_depth, ctx.cap());
    let lowest = rule.faces.min();
    let hit = |v: f64| on.map_or(v == lowest as f64, |c| c.matches(v));
    let worth = |v: f64| score.of(v);
    // One die (with its extra dice): worth, split by whether any of its dice matched.
    let (mut none, mut any) = (Vec::new(), Vec::new());
    let new_dice = rule
        .explode
        .is_some_and(|e| matches!(e.kind, ExplodeKind::Standard | ExplodeKind::Penetrate));
    let lost = if new_dice {
        let push = |s: &mut (f64, bool), v: f64| {
            s.0 += worth(v);
            s.1 |= hit(v);
        };
        let key = |s: &(f64, bool)| vec![(s.0 + 0.0).to_bits(), u64::from(s.1)];
        let budget = &ctx.budget;
        let (chains, l) = rule.chains_by(
            depth,
            cap,
            budget,
            2 + STATE_OVERHEAD,
            &(0.0, false),
            &push,
            &key,
        )?;
        for ((w, matched), p) in chains {
            if matched {
                any.push((w, p))
            } else {
                none.push((w, p))
            }
        }
        l
    } else {
        let die = rule.chain_score(|v| v, depth, cap, &ctx.budget)?;
        for (v, p) in die.pairs() {
            if hit(v) {
                any.push((worth(v), p))
            } else {
                none.push((worth(v), p))
            }
        }
        die.lost
    };
    let one = Split {
        none: Pmf::from_pairs(none, 0.0, "a die", cap)?,
        any: Pmf::from_pairs(any, 0.0, "a die", cap)?,
    };
    // Squaring: the last joins cost about twice the square of the totals' range.
    let range = (one.none.len().max(one.any.len()) as u64).saturating_mul(n) as usize;
    ctx.budget
        .charge(range.saturating_mul(range).saturating_mul(2), "`ra` dice")?;
    // n dice, by squaring.
    let mut result: Option<Split> = None;
    let mut base = one;
    let mut k = n;
    while k > 0 {
        if k & 1 == 1 {
            result = Some(match result {
                None => base.clone(),
                Some(r) => r.join(&base, cap)?,
            });
        }
        k >>= 1;
        if k > 0 {
            base = base.join(&base, cap)?;
        }
    }
    let Some(pool) = result else {
        return Ok(Pmf::constant(0.0));
    };
    let extra: Vec<(f64, f64)> = rule
        .faces
        .outcomes()
        .map(|(f, p)| (worth(rule.clamp(f) as f64), p))
        .collect();
    let extra = Pmf::from_pairs(extra, 0.0, "a die", cap)?;
    let mut out = plus(&pool.none, &conv(&pool.any, &extra, cap)?, cap)?;
    out.lost = lost_power(lost, n);
    Ok(out)
}
