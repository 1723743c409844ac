//! One die of a pool, followed through its per-die stages: the face, the reroll, the
//! explosion chain and the clamp. It produces what the pool needs from each die: the
//! distribution of its (clamped) value, of its score summed over the chain of extra dice, or
//! the whole chain as a multiset of values when keep/drop must see every die.
//!
//! The pool-wide stages (keep/drop, success counting) live in `select.rs` and `pool.rs`.

use std::collections::HashMap;

use super::super::ast::{Compare, ExplodeKind, RerollKind};
use super::super::error::{DiceError, DiceErrorKind};
use super::super::source::Faces;
use super::pmf::{Pmf, too_many};
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
            RerollKind::Add => Err(unsupported("roll-and-add rerolls (`ra`)")),
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
        Ok((explode_depth, false))
    }

    /// The distribution of one die's contribution when each final die value `v` counts
    /// `score(v)`: the die's own value for a sum, `±1`/`0` for success counting. With `!`/`!p`
    /// the extra dice each count; with `!!` the compounded die counts once.
    pub fn chain_score(
        &self,
        score: impl Fn(i64) -> i64,
        explode_depth: u32,
        cap: usize,
    ) -> Result<Pmf, DiceError> {
        let first = self.first_faces()?;
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
            done = going.add(&step_stop, cap)?;
            going = going.add(&step_go, cap)?;
            finished.push(done.pairs());
        }
        let rest = going.pairs();
        let lost = if exact {
            finished.push(rest);
            0.0
        } else {
            rest.iter().map(|(_, p)| p).sum()
        };
        let mut pairs: Vec<(f64, f64)> = finished.into_iter().flatten().collect();
        if compound {
            for pair in &mut pairs {
                pair.0 = score(self.clamp(pair.0 as i64)) as f64;
            }
        }
        Pmf::from_pairs(pairs, lost, "an exploding die", cap)
    }

    /// Every chain one die can produce (`!`/`!p`: the die and its extra dice), as sorted
    /// multisets of final values, for keep/drop over a pool that explodes into new dice.
    pub fn chains(&self, explode_depth: u32, cap: usize) -> Result<Chains, DiceError> {
        let first = self.first_faces()?;
        let Some(ex) = self.explode else {
            let list = first
                .into_iter()
                .map(|(f, p)| (vec![self.clamp(f) as f64], p))
                .collect();
            return Ok((list, 0.0));
        };
        let (depth, exact) = self.depth(&ex, explode_depth)?;
        let pen = ex.penalty();
        let raw: Vec<(i64, f64)> = self.faces.outcomes().collect();
        let mut done: HashMap<Vec<i64>, f64> = HashMap::new();
        let mut going: HashMap<Vec<i64>, f64> = HashMap::new();
        for &(f, p) in &first {
            let target = if self.explodes_on(&ex, f) {
                &mut going
            } else {
                &mut done
            };
            *target.entry(vec![self.clamp(f)]).or_default() += p;
        }
        for _ in 0..depth {
            if going.is_empty() {
                break;
            }
            let mut next = HashMap::new();
            for (chain, p) in &going {
                for &(f, q) in &raw {
                    let mut c = chain.clone();
                    let v = self.clamp(f - pen);
                    let at = c.partition_point(|&x| x < v);
                    c.insert(at, v);
                    let target = if self.explodes_on(&ex, f) {
                        &mut next
                    } else {
                        &mut done
                    };
                    *target.entry(c).or_default() += p * q;
                }
            }
            if next.len() + done.len() > cap {
                return Err(too_many("the chains of an exploding die", cap));
            }
            going = next;
        }
        let lost = if exact {
            for (c, p) in going {
                *done.entry(c).or_default() += p;
            }
            0.0
        } else {
            going.values().sum()
        };
        let list = done
            .into_iter()
            .filter(|(_, p)| *p > 0.0)
            .map(|(c, p)| (c.into_iter().map(|v| v as f64).collect(), p))
            .collect();
        Ok((list, lost))
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
