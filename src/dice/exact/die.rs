//! One die of a pool, followed through its per-die stages: the face, the reroll, the
//! explosion chain and the clamp. It produces what the pool needs from each die: the
//! distribution of its (clamped) value, of its score summed over the chain of extra dice, or
//! the whole chain as a multiset of values when keep/drop must see every die.
//!
//! The pool-wide stages (keep/drop, success counting) live in `select.rs` and `pool.rs`.

use std::collections::HashMap;

use super::super::ast::{Compare, ExplodeKind, RerollKind};
use super::super::caps::Caps;
use super::super::error::{DiceError, DiceErrorKind};
use super::super::source::Faces;
use super::budget::Budget;
use super::pmf::{Pmf, too_many};
use super::tail::Tail;
use crate::span::Span;

/// An explode modifier as it applies to one die.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Explode {
    /// How extra rolls combine.
    pub kind: ExplodeKind,
    /// The condition on the raw face (`None`: the highest face).
    pub on: Option<Compare>,
    /// A written limit on extra rolls (`!x3`): exact, nothing cut.
    pub limit: Option<u32>,
}

impl Explode {
    /// Whether extra rolls are added into the die that exploded.
    pub fn compounds(&self) -> bool {
        matches!(
            self.kind,
            ExplodeKind::Compound | ExplodeKind::CompoundPenetrate
        )
    }

    /// How much each extra roll is reduced by.
    fn penalty(&self) -> i64 {
        match self.kind {
            ExplodeKind::Penetrate | ExplodeKind::CompoundPenetrate => 1,
            ExplodeKind::Standard | ExplodeKind::Compound => 0,
        }
    }
}

/// Everything that happens to one die before the pool-wide stages.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct DieRule {
    /// The die.
    pub faces: Faces,
    /// Reroll `r`/`ro` and its condition (`None`: the lowest face).
    pub reroll: Option<(RerollKind, Option<Compare>)>,
    /// The explosion, if any.
    pub explode: Option<Explode>,
    /// `min N`.
    pub lo: Option<i64>,
    /// `max N`.
    pub hi: Option<i64>,
}

/// The chains of one die as multisets of values: `(sorted values, probability)` and the mass
/// lost to the depth cut.
#[cfg(test)]
pub(super) type Chains = (Vec<(Vec<f64>, f64)>, f64);

impl DieRule {
    /// The clamp applied to every die's final value.
    pub fn clamp(&self, v: i64) -> i64 {
        let v = self.lo.map_or(v, |lo| v.max(lo));
        self.hi.map_or(v, |hi| v.min(hi))
    }

    /// Whether a raw face triggers the explosion.
    fn explodes_on(&self, ex: &Explode, face: i64) -> bool {
        match ex.on {
            Some(c) => c.matches(face as f64),
            None => face == self.faces.max(),
        }
    }

    /// The first face of the die after rerolling.
    pub fn first_faces(&self) -> Result<Vec<(i64, f64)>, DiceError> {
        let raw: Vec<(i64, f64)> = self.faces.outcomes().collect();
        let Some((kind, on)) = self.reroll else {
            return Ok(raw);
        };
        let lowest = self.faces.min();
        let hit = |f: i64| on.map_or(f == lowest, |c| c.matches(f as f64));
        let p_hit: f64 = raw.iter().filter(|(f, _)| hit(*f)).map(|(_, p)| p).sum();
        match kind {
            RerollKind::Until => {
                if raw.iter().all(|(f, _)| hit(*f)) {
                    return Err(DiceError::new(
                        DiceErrorKind::AlwaysRerolls {
                            modifier: on.map_or("r".into(), |c| format!("r{c}")),
                            die: self.faces.to_string(),
                        },
                        Span::default(),
                    ));
                }
                Ok(raw
                    .into_iter()
                    .map(|(f, p)| (f, if hit(f) { 0.0 } else { p / (1.0 - p_hit) }))
                    .collect())
            }
            RerollKind::Once => Ok(raw
                .into_iter()
                .map(|(f, p)| (f, if hit(f) { p * p_hit } else { p + p * p_hit }))
                .collect()),
            // `ra` adds a die to the pool after the fact (`reroll_add.rs`); the die itself is
            // not rerolled.
            RerollKind::Add => Ok(raw),
        }
    }

    /// How many extra rolls are followed, and whether that is the rule itself (a written
    /// limit, exact) rather than the engine's depth cut.
    fn depth(&self, ex: &Explode, explode_depth: u32) -> Result<(u32, bool), DiceError> {
        if let Some(l) = ex.limit {
            return Ok((l, true));
        }
        if self.faces.outcomes().all(|(f, _)| self.explodes_on(ex, f)) {
            return Err(DiceError::new(
                DiceErrorKind::AlwaysExplodes {
                    modifier: explode_text(ex),
                    die: self.faces.to_string(),
                },
                Span::default(),
            ));
        }
        // The roller stops after `max_explosions` extra rolls whatever happens, so following
        // that deep is the rule itself: exact, nothing cut.
        let cap = Caps::DEFAULT.max_explosions;
        Ok((explode_depth.min(cap), explode_depth >= cap))
    }

    /// The distribution of one die's contribution when each final die value `v` counts
    /// `score(v)`: the die's own value for a sum, `±1`/`0` for success counting. With `!`/`!p`
    /// the extra dice each count; with `!!` the compounded die counts once.
    pub fn chain_score(
        &self,
        score: impl Fn(i64) -> i64,
        explode_depth: u32,
        cap: usize,
        budget: &Budget,
    ) -> Result<Pmf, DiceError> {
        let first = self.first_faces()?;
        budget.charge(first.len(), "a die")?;
        let Some(ex) = self.explode else {
            let pairs = first
                .into_iter()
                .map(|(f, p)| (score(self.clamp(f)) as f64, p))
                .collect();
            return Pmf::from_pairs(pairs, 0.0, "a die", cap);
        };
        let (depth, exact) = self.depth(&ex, explode_depth)?;
        let compound = ex.compounds();
        let pen = ex.penalty();
        // Accumulate raw totals when compounding (clamp and score at the end), scores otherwise.
        let step_value = |f: i64| {
            if compound {
                f - pen
            } else {
                score(self.clamp(f - pen))
            }
        };
        let first_value = |f: i64| if compound { f } else { score(self.clamp(f)) };
        let split =
            |faces: &[(i64, f64)], value: &dyn Fn(i64) -> i64| -> Result<(Pmf, Pmf), DiceError> {
                let (mut stop, mut go) = (Vec::new(), Vec::new());
                for &(f, p) in faces {
                    let v = value(f) as f64;
                    if self.explodes_on(&ex, f) {
                        go.push((v, p))
                    } else {
                        stop.push((v, p))
                    }
                }
                Ok((
                    Pmf::from_pairs(stop, 0.0, "a die", cap)?,
                    Pmf::from_pairs(go, 0.0, "a die", cap)?,
                ))
            };
        let raw: Vec<(i64, f64)> = self.faces.outcomes().collect();
        let (step_stop, step_go) = split(&raw, &step_value)?;
        let (mut done, mut going) = split(&first, &first_value)?;
        let mut finished = vec![done.pairs()];
        for _ in 0..depth {
            if going.len() == 0 {
                break;
            }
            budget.charge(
                going.len().saturating_mul(step_stop.len() + step_go.len()),
                "an exploding die",
            )?;
            done = going.add(&step_stop, cap)?;
            going = going.add(&step_go, cap)?;
            finished.push(done.pairs());
        }
        let rest = going.pairs();
        let mut tail = Tail::UNKNOWN;
        let lost = if exact {
            finished.push(rest);
            0.0
        } else {
            // The roller makes at most `max_explosions` extra rolls in all.
            let most = Caps::DEFAULT.max_explosions.saturating_sub(depth);
            let any = step_stop.span().hull(step_go.span());
            let more = Tail::more_steps(step_go.span(), any, most);
            tail = going.span().plus(more).or_unknown();
            if compound {
                tail = self.image(tail, &score, budget)?;
            }
            rest.iter().map(|(_, p)| p).sum()
        };
        let mut pairs: Vec<(f64, f64)> = finished.into_iter().flatten().collect();
        if compound {
            for pair in &mut pairs {
                pair.0 = score(self.clamp(pair.0 as i64)) as f64;
            }
        }
        let mut pmf = Pmf::from_pairs(pairs, lost, "an exploding die", cap)?;
        pmf.tail = tail;
        Ok(pmf)
    }

    /// Where `score(clamp(v))` lies for every whole `v` in `raw`: by trying each value when
    /// there are few enough (the score need not be monotone), otherwise not known.
    fn image(
        &self,
        raw: Tail,
        score: &impl Fn(i64) -> i64,
        budget: &Budget,
    ) -> Result<Tail, DiceError> {
        const MOST: f64 = 100_000.0;
        // Clamping first can make an unbounded interval finite (`max6`).
        let lo = self.lo.map_or(raw.lo, |m| raw.lo.max(m as f64));
        let lo = self.hi.map_or(lo, |m| lo.min(m as f64));
        let hi = self.hi.map_or(raw.hi, |m| raw.hi.min(m as f64));
        let hi = self.lo.map_or(hi, |m| hi.max(m as f64));
        if !(lo.is_finite() && hi.is_finite() && hi - lo <= MOST) {
            return Ok(Tail::UNKNOWN);
        }
        budget.charge((hi - lo) as usize + 1, "an exploding die")?;
        let mut out = Tail::EMPTY;
        for v in lo as i64..=hi as i64 {
            let w = score(self.clamp(v)) as f64;
            out = out.hull(Tail { lo: w, hi: w });
        }
        Ok(out.or_unknown())
    }

    /// Every chain one die can produce (`!`/`!p`: the die and its extra dice), each folded
    /// into a state by `push` (a sorted list of values, or a summary of what keep/drop can
    /// see); chains whose states have the same `key` are merged. Also the mass lost to the
    /// depth cut. Each step charges `budget` `per` for every state it copies.
    #[allow(clippy::too_many_arguments)]
    pub fn chains_by<S: Clone>(
        &self,
        explode_depth: u32,
        cap: usize,
        budget: &Budget,
        per: usize,
        start: &S,
        push: &dyn Fn(&mut S, f64),
        key: &dyn Fn(&S) -> Vec<u64>,
    ) -> Result<(Vec<(S, f64)>, f64), DiceError> {
        type States<S> = HashMap<Vec<u64>, (S, f64)>;
        let add = |map: &mut States<S>, s: S, p: f64| {
            map.entry(key(&s)).or_insert_with(|| (s, 0.0)).1 += p;
        };
        let first = self.first_faces()?;
        let mut done: States<S> = HashMap::new();
        let mut going: States<S> = HashMap::new();
        let ex = self.explode;
        for &(f, p) in &first {
            let mut s = start.clone();
            push(&mut s, self.clamp(f) as f64);
            let explodes = ex.is_some_and(|ex| self.explodes_on(&ex, f));
            add(if explodes { &mut going } else { &mut done }, s, p);
        }
        let Some(ex) = ex else {
            return Ok((done.into_values().collect(), 0.0));
        };
        let (depth, exact) = self.depth(&ex, explode_depth)?;
        let pen = ex.penalty();
        let raw: Vec<(i64, f64)> = self.faces.outcomes().collect();
        for _ in 0..depth {
            if going.is_empty() {
                break;
            }
            budget.charge(
                going.len().saturating_mul(raw.len()).saturating_mul(per),
                "the chains of an exploding die",
            )?;
            let mut next: States<S> = HashMap::new();
            for (s, p) in going.values() {
                for &(f, q) in &raw {
                    let mut t = s.clone();
                    push(&mut t, self.clamp(f - pen) as f64);
                    let target = if self.explodes_on(&ex, f) {
                        &mut next
                    } else {
                        &mut done
                    };
                    add(target, t, p * q);
                }
            }
            if next.len() + done.len() > cap {
                return Err(too_many("the chains of an exploding die", cap));
            }
            going = next;
        }
        let lost = if exact {
            for (_, (s, p)) in going {
                add(&mut done, s, p);
            }
            0.0
        } else {
            going.values().map(|(_, p)| p).sum()
        };
        Ok((done.into_values().filter(|(_, p)| *p > 0.0).collect(), lost))
    }

    /// Every chain as a sorted list of its values (for tests).
    #[cfg(test)]
    pub fn chains(&self, explode_depth: u32, cap: usize) -> Result<Chains, DiceError> {
        let push = |v: &mut Vec<f64>, x: f64| {
            let at = v.partition_point(|&y| y < x);
            v.insert(at, x);
        };
        let key = |v: &Vec<f64>| v.iter().map(|x| x.to_bits()).collect();
        let budget = Budget::new(u64::MAX);
        let per = explode_depth as usize + 1;
        self.chains_by(explode_depth, cap, &budget, per, &Vec::new(), &push, &key)
    }
}

fn explode_text(ex: &Explode) -> String {
    let k = match ex.kind {
        ExplodeKind::Standard => "!",
        ExplodeKind::Compound => "!!",
        ExplodeKind::Penetrate => "!p",
        ExplodeKind::CompoundPenetrate => "!!p",
    };
    match ex.on {
        Some(c) => format!("{k}{c}"),
        None => k.to_string(),
    }
}

/// The error for something the exact engine does not compute.
pub(super) fn unsupported(what: impl Into<String>) -> DiceError {
    DiceError::new(
        DiceErrorKind::Unsupported { what: what.into() },
        Span::default(),
    )
}
