//! A pool of dice (`4d6kh3`, `10d10!>=8`): how many dice and which die (written or rolled),
//! the per-die stages from `die.rs`, then the pool-wide stages: keep/drop and success
//! counting. Picks the fast path for each shape of pool: a convolution power when every die
//! counts, the order-statistics programme for keep/drop, the multiset enumeration when
//! exploding dice add new dice that keep/drop must see.

use super::super::ast::{
    Dice, ExplodeKind, FudgeKind, KeepDrop, Modifier, RerollKind, Selector, Sides,
};
use super::super::caps::Caps;
use super::super::error::{DiceError, DiceErrorKind};
use super::super::source::Faces;
use super::die::{DieRule, Explode, unsupported};
use super::eval::Ctx;
use super::multiset::{Shape, Summary, key, multisets};
use super::pmf::Pmf;
use super::select::{Score, Sel, Selection, order_statistics};
use super::{reroll_add, unique};
use crate::span::Span;

/// The modifiers of a pool sorted into stages.
#[derive(Debug, Default)]
struct Stages<'m> {
    lo: Option<i64>,
    hi: Option<i64>,
    explode: Option<Explode>,
    reroll: Option<(RerollKind, Option<super::super::ast::Compare>)>,
    unique: Option<(bool, Option<super::super::ast::Compare>)>,
    selectors: Vec<(KeepDrop, &'m Selector)>,
    score: Option<Score>,
}

impl<'m> Stages<'m> {
    fn new(mods: impl Iterator<Item = &'m Modifier>) -> Result<Self, DiceError> {
        let mut s = Stages::default();
        for m in mods {
            match m {
                // A repeated modifier replaces the earlier one, as in the roller.
                Modifier::Min(v) => s.lo = Some(*v),
                Modifier::Max(v) => s.hi = Some(*v),
                Modifier::Explode { kind, on, limit } => {
                    s.explode = Some(Explode {
                        kind: *kind,
                        on: *on,
                        limit: *limit,
                    });
                }
                Modifier::Reroll { kind, on } => s.reroll = Some((*kind, *on)),
                Modifier::Unique { once, on } => s.unique = Some((*once, *on)),
                Modifier::KeepDrop(kd, sel) => s.selectors.push((*kd, sel)),
                Modifier::Target { success, failure } => {
                    s.score = Some(Score::Target {
                        success: *success,
                        failure: *failure,
                    });
                }
                Modifier::CritSuccess(_) | Modifier::CritFailure(_) | Modifier::Sort(_) => {}
            }
        }
        Ok(s)
    }
}

/// The distribution of a pool; `then` are keep/drop modifiers from a one-item group around
/// it, which pick among the dice the pool itself kept.
pub(super) fn pool(ctx: &mut Ctx<'_>, dice: &Dice, then: &[Modifier]) -> Result<Pmf, DiceError> {
    let stages = Stages::new(dice.mods.iter())?;
    let group = Stages::new(then.iter())?;
    let limits = Caps::DEFAULT;
    let (counts, count_lost) = match &dice.count {
        None => (vec![(1, 1.0)], 0.0),
        Some(c) => ctx.count(c)?,
    };
    let (sides, sides_lost) = match &dice.sides {
        Sides::Number(s) => (vec![(*s as i64, 1.0)], 0.0),
        Sides::Percent => (vec![(100, 1.0)], 0.0),
        Sides::Fudge(_) => (vec![(0, 1.0)], 0.0),
        Sides::Expr(e) => ctx.whole(e)?,
    };
    let mut chosen = selections(ctx, &stages.selectors)?;
    if !group.selectors.is_empty() {
        let (after, after_lost) = selections(ctx, &group.selectors)?;
        let (own, own_lost) = chosen;
        let mut both = Vec::new();
        for (first, w) in &own {
            for (next, v) in &after {
                if first.is_empty() {
                    both.push((next.clone(), w * v));
                    continue;
                }
                if !first.by_rank() {
                    return Err(unsupported(
                        "keep/drop on a one-item group around a pool that keeps or drops by a compare point",
                    ));
                }
                let mut sel = first.clone();
                sel.then = Some(Box::new(next.clone()));
                both.push((sel, w * v));
            }
        }
        chosen = (both, own_lost + after_lost - own_lost * after_lost);
    }
    if let Some(ex) = &stages.explode {
        match ex.limit {
            Some(l) => ctx.written_depth = Some(ctx.written_depth.unwrap_or(0).max(l)),
            None => ctx.cut_depth = true,
        }
    }
    let mut parts = Vec::new();
    for &(n, pn) in &counts {
        if n < 0 {
            return Err(DiceError::new(
                DiceErrorKind::NoDice {
                    count: n.to_string(),
                },
                Span::default(),
            ));
        }
        if n as u64 > limits.max_dice {
            return Err(DiceError::new(
                DiceErrorKind::TooManyDice {
                    count: n.to_string(),
                    cap: limits.max_dice,
                },
                Span::default(),
            ));
        }
        for &(s, ps) in &sides {
            let faces = match &dice.sides {
                Sides::Fudge(FudgeKind::One) => Faces::Fudge1,
                Sides::Fudge(FudgeKind::Two) => Faces::Fudge2,
                _ if s < 1 => {
                    return Err(DiceError::new(
                        DiceErrorKind::NoSides {
                            sides: s.to_string(),
                        },
                        Span::default(),
                    ));
                }
                _ if s as u64 > limits.max_sides => {
                    return Err(DiceError::new(
                        DiceErrorKind::TooManySides {
                            sides: s.to_string(),
                            cap: limits.max_sides,
                        },
                        Span::default(),
                    ));
                }
                _ if s as usize > ctx.cap() => {
                    return Err(super::pmf::too_many(format!("a d{s}"), ctx.cap()));
                }
                _ => Faces::Numbered { sides: s as u64 },
            };
            if n == 0 {
                parts.push((pn * ps, Pmf::constant(0.0)));
                continue;
            }
            // `ra` is not a reroll of the die: it adds a die to the pool afterwards.
            let add_on = match stages.reroll {
                Some((RerollKind::Add, on)) => Some(on),
                _ => None,
            };
            let rule = DieRule {
                faces,
                reroll: stages.reroll.filter(|r| r.0 != RerollKind::Add),
                explode: stages.explode,
                lo: stages.lo,
                hi: stages.hi,
            };
            let score = stages.score.unwrap_or(Score::Sum);
            let (sels, sel_lost) = &chosen;
            let mut mix = Vec::new();
            for (sel, w) in sels {
                let pmf = match (add_on, stages.unique) {
                    (Some(_), Some(_)) => {
                        return Err(unsupported("`ra` (roll and add) together with unique dice"));
                    }
                    (Some(on), None) => reroll_add::pool(ctx, &rule, n as u64, on, sel, score)?,
                    (None, Some((once, on))) => {
                        unique::pool(ctx, &rule, n as u64, once, on, sel, score)?
                    }
                    (None, None) => fixed_pool(ctx, &rule, n as u64, sel, score)?,
                };
                mix.push((*w, pmf));
            }
            ctx.budget
                .charge(mix.iter().map(|m| m.1.len()).sum(), "a mixture")?;
            parts.push((pn * ps, Pmf::mixture(mix, *sel_lost, ctx.cap())?));
        }
    }
    let lost = count_lost + sides_lost - count_lost * sides_lost;
    ctx.budget
        .charge(parts.iter().map(|m| m.1.len()).sum(), "a mixture")?;
    Pmf::mixture(parts, lost, ctx.cap())
}

/// A pool of exactly `n` dice following `rule`, kept by `sel`, each kept die worth `score`.
fn fixed_pool(
    ctx: &Ctx<'_>,
    rule: &DieRule,
    n: u64,
    sel: &Selection,
    score: Score,
) -> Result<Pmf, DiceError> {
    let (depth, cap, budget) = (ctx.opts.explode_depth, ctx.cap(), &ctx.budget);
    if sel.is_empty() {
        let chain = rule.chain_score(|v| score.of(v as f64) as i64, depth, cap, budget)?;
        // Squaring: the last products cost about half the square of the totals' range.
        let range = (chain.len() as u64).saturating_mul(n) as usize;
        budget.charge(range.saturating_mul(range) / 2, "a sum of dice")?;
        return chain.sum_of(n, cap);
    }
    let new_dice = rule
        .explode
        .is_some_and(|e| matches!(e.kind, ExplodeKind::Standard | ExplodeKind::Penetrate));
    if new_dice && sel.then.is_some() {
        return Err(unsupported(
            "keep/drop on a one-item group around an exploding pool with its own keep/drop",
        ));
    }
    if new_dice {
        // At most this many dice: every die exploding as far as followed.
        let most = (n as usize).saturating_mul(ex_depth(rule, depth) as usize + 1);
        let shape = Shape::new(sel, score, most);
        let push = |s: &mut Summary, v: f64| shape.insert(s, v);
        let per = shape.per_state();
        let chains = rule.chains_by(depth, cap, budget, per, &Summary::default(), &push, &key)?;
        let parts = vec![chains; n as usize];
        return multisets(&parts, &shape, "an exploding pool", cap, budget);
    }
    let die = rule.chain_score(|v| v, depth, cap, budget)?;
    order_statistics(&die, n, sel, score, cap, budget)
}

/// Every combination of the keep/drop counts (rolled ones included), as resolved selections
/// with their probabilities, and the mass lost rolling the counts.
pub(super) fn selections(
    ctx: &mut Ctx<'_>,
    selectors: &[(KeepDrop, &Selector)],
) -> Result<(Vec<(Selection, f64)>, f64), DiceError> {
    let mut combos = vec![(Selection::default(), 1.0)];
    let mut kept = 1.0;
    for (kd, sel) in selectors {
        let options: Vec<(Sel, f64)> = match sel {
            Selector::Matching(c) => vec![(Sel::Matching(*c), 1.0)],
            Selector::Highest(c) | Selector::Lowest(c) => {
                let (counts, lost) = ctx.count(c)?;
                kept *= 1.0 - lost;
                let mut out = Vec::new();
                for (k, p) in counts {
                    if k < 0 {
                        return Err(DiceError::new(
                            DiceErrorKind::NoDice {
                                count: k.to_string(),
                            },
                            Span::default(),
                        ));
                    }
                    let s = if matches!(sel, Selector::Highest(_)) {
                        Sel::Highest(k as u64)
                    } else {
                        Sel::Lowest(k as u64)
                    };
                    out.push((s, p));
                }
                out
            }
        };
        let mut next = Vec::new();
        for (base, w) in &combos {
            for (s, p) in &options {
                let mut sel = base.clone();
                sel.push(*kd, *s);
                next.push((sel, w * p));
            }
        }
        if next.len() > ctx.cap() {
            return Err(super::pmf::too_many(
                "the combinations of keep/drop counts",
                ctx.cap(),
            ));
        }
        combos = next;
    }
    Ok((combos, 1.0 - kept))
}

/// How many extra rolls one die of `rule` may make.
fn ex_depth(rule: &DieRule, explode_depth: u32) -> u32 {
    let cap = Caps::DEFAULT.max_explosions;
    rule.explode
        .map_or(0, |e| e.limit.unwrap_or(explode_depth.min(cap)))
}
