//! Rolling: a [`DiceExpr`] and a [`DiceSource`] give [`Roll`]s with every die kept.
//!
//! A pool is rolled in fixed stages whatever order its modifiers are written in (see
//! `GRAMMAR.md`): per die, roll → reroll → explode → clamp; then over the pool, roll-and-add →
//! unique → keep/drop → success counting → critical markers → sort. Every die comes from the
//! source, so seeded, entered and queued dice all work the same way.
//!
//! When the source says every die will come from its generator ([`DiceSource::generator`]:
//! nothing queued, nothing entered), pools draw straight from it, in the same order as one
//! request at a time, so a seed gives the same dice either way (`pinned_tests` holds seeded
//! rolls to what they were before this path existed).

use super::arith;
use super::ast::*;
use super::caps::Caps;
use super::error::{DiceError, DiceErrorKind};
use super::parser::{check_modifier, static_faces};
use super::result::*;
use super::source::{DiceSource, DieRequest, Faces, Generator, Purpose, SourceKind};
use super::text::Written;
use smallvec::SmallVec;
use std::sync::Arc;

/// Small per-pool scratch lists (keep/drop selections) stay on the stack.
type Scratch<T> = SmallVec<[T; 16]>;
use crate::span::Span;

/// The rolls of one request: one, or one per repeat. The usual single roll is kept inline
/// (no allocation for the list).
pub type Rolls = SmallVec<[Roll; 1]>;

/// Rolls a parsed request: once, or `repeat` times (one [`Roll`] each).
pub fn roll(
    expr: &DiceExpr,
    source: &mut dyn DiceSource,
    limits: &Caps,
) -> Result<Rolls, DiceError> {
    let comment = expr.comment.as_ref();
    let Some(times) = expr.repeat else {
        return Ok(smallvec::smallvec![roll_one(
            &expr.expr, comment, source, limits
        )?]);
    };
    let mut rolls = Rolls::with_capacity(times as usize);
    for _ in 0..times {
        rolls.push(roll_one(&expr.expr, comment, source, limits)?);
    }
    Ok(rolls)
}

/// Rolls one expression once.
pub fn roll_expr(
    expr: &Expr,
    source: &mut dyn DiceSource,
    limits: &Caps,
) -> Result<Roll, DiceError> {
    roll_one(expr, None, source, limits)
}

/// Rolls one expression once, with the request's comment.
fn roll_one(
    expr: &Expr,
    comment: Option<&String>,
    source: &mut dyn DiceSource,
    limits: &Caps,
) -> Result<Roll, DiceError> {
    let mut roller = Roller {
        source,
        limits,
        rolled: 0,
        sources: Sources::new(),
        computed: Vec::new(),
    };
    let tree = roller.eval(expr)?;
    Ok(Roll {
        total: tree.value(),
        comment: comment.map(|c| c.as_str().into()),
        sources: roller.sources,
        tree,
        by: None,
    })
}

/// An error found while rolling: no single token is to blame, so it spans the expression.
fn err(kind: DiceErrorKind) -> DiceError {
    DiceError::new(kind, Span::default())
}

struct Roller<'a> {
    source: &'a mut dyn DiceSource,
    limits: &'a Caps,
    rolled: u64,
    sources: Sources,
    /// Rolls of computed counts and sizes not yet taken by their pool or group.
    computed: Vec<RollNode>,
}

/// The modifiers of a pool sorted into the stages they run in.
#[derive(Default)]
struct Stages<'m> {
    min: Option<i64>,
    max: Option<i64>,
    explode: Option<(ExplodeKind, Option<Compare>, Option<u32>)>,
    reroll: Option<(RerollKind, Option<Compare>)>,
    unique: Option<(bool, Option<Compare>)>,
    keep_drop: SmallVec<[(KeepDrop, &'m Selector); 2]>,
    target: Option<(Compare, Option<Compare>)>,
    crit_success: Option<Compare>,
    crit_failure: Option<Compare>,
    sort: Option<SortOrder>,
}

impl<'m> Stages<'m> {
    /// Sorts `mods` into stages (filled in place: returning the large value by value cost a
    /// copy per pool).
    #[inline(always)]
    fn fill(&mut self, mods: &'m [Modifier]) {
        let s = self;
        for m in mods {
            match m {
                Modifier::Min(v) => s.min = Some(*v),
                Modifier::Max(v) => s.max = Some(*v),
                Modifier::Explode { kind, on, limit } => s.explode = Some((*kind, *on, *limit)),
                Modifier::Reroll { kind, on } => s.reroll = Some((*kind, *on)),
                Modifier::Unique { once, on } => s.unique = Some((*once, *on)),
                Modifier::KeepDrop(kd, sel) => s.keep_drop.push((*kd, sel)),
                Modifier::Target { success, failure } => s.target = Some((*success, *failure)),
                Modifier::CritSuccess(c) => s.crit_success = Some(*c),
                Modifier::CritFailure(c) => s.crit_failure = Some(*c),
                Modifier::Sort(o) => s.sort = Some(*o),
            }
        }
    }
}

/// Whether face `v` matches `on`, or equals `default` when no compare point was written.
fn hits(on: Option<Compare>, default: i64, v: i64) -> bool {
    match on {
        Some(c) => c.matches(v as f64),
        None => v == default,
    }
}

impl Roller<'_> {
    fn draw(
        &mut self,
        faces: Faces,
        pool: &str,
        purpose: Purpose,
    ) -> Result<(i64, SourceKind), DiceError> {
        count_rolls(&mut self.rolled, 1, self.limits)?;
        let req = DieRequest {
            faces,
            pool,
            purpose,
            span: Span::default(),
            context: None,
        };
        let (v, kind) = self.source.next_die(&req)?;
        self.sources.note(kind);
        Ok((v, kind))
    }

    /// Draws a pool of `n` plain dice (no rerolls or explosions) and clamps them.
    #[inline(always)]
    fn draw_pool(
        &mut self,
        faces: Faces,
        pool: &Dice,
        n: u64,
        st: &Stages<'_>,
        dice: &mut Vec<Die>,
    ) -> Result<(), DiceError> {
        count_rolls(&mut self.rolled, n, self.limits)?;
        let clamps = st.min.is_some() || st.max.is_some();
        if let Some(mut g) = self.source.generator() {
            // Straight from the generator: same values, same order as through `next_dice`.
            if n > 0 {
                self.sources.note(SourceKind::Rng);
            }
            if clamps {
                g.dice_into(faces, n, dice, |v| {
                    let mut die = Die::new(v, SourceKind::Rng);
                    clamp(&mut die, st);
                    die
                });
            } else {
                g.dice_into(faces, n, dice, |v| Die::new(v, SourceKind::Rng));
            }
            return Ok(());
        }
        let text = pool.notation();
        let req = DieRequest {
            faces,
            pool: text.as_str(),
            purpose: Purpose::Die { index: 1, of: n },
            span: Span::default(),
            context: None,
        };
        let sources = &mut self.sources;
        self.source.next_dice(&req, n, &mut |v, kind| {
            sources.note(kind);
            let mut die = Die::new(v, kind);
            if clamps {
                clamp(&mut die, st);
            }
            dice.push(die);
        })
    }

    fn eval(&mut self, e: &Expr) -> Result<RollNode, DiceError> {
        Ok(match e {
            Expr::Num(v) => RollNode::Num { value: *v },
            Expr::Dice(d) => RollNode::Pool(self.pool(d)?),
            Expr::Group(g) => RollNode::Group(self.group(g)?),
            Expr::Unary(op, x) => {
                let operand = self.eval(x)?;
                let value = arith::unary(*op, operand.value());
                RollNode::Unary {
                    op: *op,
                    value,
                    operand: Box::new(operand),
                }
            }
            Expr::Binary(op, lr) => {
                let left = self.eval(&lr[0])?;
                let right = self.eval(&lr[1])?;
                let value = arith::binary(*op, left.value(), right.value()).map_err(err)?;
                RollNode::Binary {
                    op: *op,
                    value,
                    operands: Box::new(Operands { left, right }),
                }
            }
            Expr::Call(f, args) => {
                let args = args
                    .iter()
                    .map(|a| self.eval(a))
                    .collect::<Result<Vec<_>, _>>()?;
                let vals: Vec<f64> = args.iter().map(RollNode::value).collect();
                let value = arith::call(*f, &vals).map_err(err)?;
                RollNode::Call {
                    func: *f,
                    value,
                    args,
                }
            }
            Expr::Labeled(x, label) => {
                let inner = self.eval(x)?;
                RollNode::Labeled {
                    label: label.clone(),
                    value: inner.value(),
                    inner: Box::new(inner),
                }
            }
        })
    }

    /// A computed count or size: rolled, then rounded down. The roll is kept for the pool or
    /// group being rolled (see [`take_computed`](Self::take_computed)).
    fn eval_whole(&mut self, e: &Expr) -> Result<f64, DiceError> {
        let node = self.eval(e)?;
        let value = node.value().floor();
        self.computed.push(node);
        Ok(value)
    }

    /// The computed rolls made since `mark` (the length of the list when a pool or group
    /// started): those of that pool or group, since any inner pool took its own.
    #[inline(always)]
    #[allow(clippy::box_collection)] // see `PoolRoll::computed`
    fn take_computed(&mut self, mark: usize) -> Option<Box<Vec<RollNode>>> {
        if self.computed.len() > mark {
            Some(Box::new(self.computed.split_off(mark)))
        } else {
            None
        }
    }

    fn count(&mut self, c: &Count) -> Result<f64, DiceError> {
        match c {
            Count::Number(n) => Ok(*n as f64),
            Count::Expr(e) => self.eval_whole(e),
        }
    }

    fn faces(&mut self, d: &Dice) -> Result<Faces, DiceError> {
        if let Some(f) = static_faces(&d.sides) {
            return Ok(f);
        }
        let Sides::Expr(e) = &d.sides else {
            unreachable!("static_faces covers the other kinds")
        };
        let n = self.eval_whole(e)?;
        if n < 1.0 {
            return Err(err(DiceErrorKind::NoSides { sides: fmt_num(n) }));
        }
        if n > self.limits.max_sides as f64 {
            return Err(err(DiceErrorKind::TooManySides {
                sides: fmt_num(n),
                cap: self.limits.max_sides,
            }));
        }
        Ok(Faces::Numbered { sides: n as u64 })
    }

    fn pool(&mut self, d: &Arc<Dice>) -> Result<PoolRoll, DiceError> {
        let mark = self.computed.len();
        let n = match &d.count {
            None => 1.0,
            Some(c) => self.count(c)?,
        };
        if n < 0.0 {
            return Err(err(DiceErrorKind::NoDice { count: fmt_num(n) }));
        }
        if n > self.limits.max_dice as f64 {
            return Err(err(DiceErrorKind::TooManyDice {
                count: fmt_num(n),
                cap: self.limits.max_dice,
            }));
        }
        let n = n as u64;
        let faces = self.faces(d)?;
        // Sizes and counts computed while rolling get the checks the parser made for written ones.
        if static_faces(&d.sides).is_none() || matches!(d.count, Some(Count::Expr(_))) {
            for m in &d.mods {
                if let Some(kind) = check_modifier(m, faces, Some(n), &m.to_string()) {
                    return Err(err(kind));
                }
            }
        }
        if d.mods.is_empty() {
            return self.plain_pool(d, faces, n, mark);
        }
        if let [Modifier::Explode { kind, on, limit }] = d.mods.as_slice()
            && let Some(x) = Explode::of(*kind, *on, *limit, faces, self.limits)
            && let Some(mut g) = self.source.generator()
        {
            // Only an explosion, every die from the generator (`10d6!`): no stages to sort.
            let mut dice = Vec::with_capacity(exploding_room(n, self.limits));
            let before = self.rolled;
            let value = explode_into(
                &mut g,
                faces,
                n,
                x,
                &mut self.rolled,
                self.limits,
                &mut dice,
            );
            if self.rolled > before {
                self.sources.note(SourceKind::Rng);
            }
            return Ok(PoolRoll {
                notation: Written::Node(Arc::clone(d)),
                die: faces,
                dice,
                value: value?,
                successes: None,
                failures: None,
                computed: self.take_computed(mark),
            });
        }
        let mut st = Stages::default();
        st.fill(&d.mods);
        let mut dice = Vec::with_capacity(if st.explode.is_some() {
            exploding_room(n, self.limits)
        } else {
            n as usize
        });
        if st.reroll.is_none() && st.explode.is_none() {
            // Plain dice (the common case): the whole pool in one request to the source.
            self.draw_pool(faces, d, n, &st, &mut dice)?;
        } else if let Some(mut g) = self.source.generator() {
            // Every die from the generator: draw straight from it, in the same order as one
            // request at a time.
            let limits = self.limits;
            let before = self.rolled;
            if let (None, Some((kind, on, cap))) = (st.reroll, st.explode)
                && let Some(x) = Explode::of(kind, on, cap, faces, limits)
            {
                // The usual exploding pool (`10d6!`, `6d10!>=9`, `4d6!p`): its own loop.
                let result = explode_into(&mut g, faces, n, x, &mut self.rolled, limits, &mut dice);
                if self.rolled > before {
                    self.sources.note(SourceKind::Rng);
                }
                result?;
                if st.min.is_some() || st.max.is_some() {
                    dice.iter_mut().for_each(|d| clamp(d, &st));
                }
            } else {
                let mut draw = FromGenerator {
                    generator: &mut g,
                    faces,
                    rolled: &mut self.rolled,
                    limits,
                };
                let result = (0..n)
                    .try_for_each(|i| one_die(&mut draw, limits, faces, &st, i + 1, n, &mut dice));
                if self.rolled > before {
                    self.sources.note(SourceKind::Rng);
                }
                result?;
            }
        } else {
            let limits = self.limits;
            let text = d.notation();
            let mut draw = |purpose| self.draw(faces, &text, purpose);
            for i in 0..n {
                one_die(&mut draw, limits, faces, &st, i + 1, n, &mut dice)?;
            }
        }
        if let Some((RerollKind::Add, on)) = st.reroll
            && let Some(pos) = dice.iter().position(|x| hits(on, faces.min(), x.value))
        {
            let (v, source) = self.draw(faces, &d.notation(), Purpose::Added(pos as u64 + 1))?;
            let mut extra = Die::new(v, source);
            extra.extra = true;
            clamp(&mut extra, &st);
            dice.push(extra);
        }
        if let Some((once, on)) = st.unique {
            self.make_unique(faces, &d.notation(), &mut dice, once, on, &st)?;
        }
        if !st.keep_drop.is_empty() && !keep_highest_or_lowest(&st.keep_drop, &mut dice) {
            let values: Scratch<f64> = dice.iter().map(|x| x.value as f64).collect();
            let kept = self.select(&st.keep_drop, &values)?;
            for (die, k) in dice.iter_mut().zip(kept) {
                die.kept = k;
            }
        }
        if st.crit_success.is_some() || st.crit_failure.is_some() {
            for die in &mut dice {
                let v = die.value as f64;
                if st.crit_success.is_some_and(|c| c.matches(v)) {
                    die.critical = Some(Critical::Success);
                } else if st.crit_failure.is_some_and(|c| c.matches(v)) {
                    die.critical = Some(Critical::Failure);
                }
            }
        }
        let mut pool = PoolRoll {
            notation: Written::Node(Arc::clone(d)),
            die: faces,
            dice,
            value: 0.0,
            successes: None,
            failures: None,
            computed: self.take_computed(mark),
        };
        if let Some((success, failure)) = st.target {
            // Marked and counted in one pass (what `recount_pool` counts: kept dice only).
            let (mut s, mut f) = (0u32, 0u32);
            let success = success.whole();
            let failure = failure.map(Compare::whole);
            for die in &mut pool.dice {
                mark_target(die, success, failure);
                s += u32::from(die.success & die.kept);
                f += u32::from(die.failure & die.kept);
            }
            pool.successes = Some(s);
            pool.failures = failure.map(|_| f);
            pool.value = f64::from(s) - f64::from(f);
        } else {
            recount_pool(&mut pool);
        }
        // Sorting moves dice, not their marks: the counts stand.
        if let Some(order) = st.sort {
            sort_by_value(&mut pool.dice, order, |d| d.value as f64);
        }
        Ok(pool)
    }

    /// A pool without modifiers (`3d6`, `1d20`): its dice, summed.
    fn plain_pool(
        &mut self,
        d: &Arc<Dice>,
        faces: Faces,
        n: u64,
        mark: usize,
    ) -> Result<PoolRoll, DiceError> {
        let mut dice = Vec::with_capacity(n as usize);
        self.draw_pool(faces, d, n, &Stages::default(), &mut dice)?;
        let value = dice.iter().map(|d| d.value as f64).sum();
        Ok(PoolRoll {
            notation: Written::Node(Arc::clone(d)),
            die: faces,
            dice,
            value,
            successes: None,
            failures: None,
            computed: self.take_computed(mark),
        })
    }

    fn make_unique(
        &mut self,
        faces: Faces,
        pool: &str,
        dice: &mut [Die],
        once: bool,
        on: Option<Compare>,
        st: &Stages<'_>,
    ) -> Result<(), DiceError> {
        for j in 0..dice.len() {
            let mut times = 0;
            loop {
                let v = dice[j].value;
                let must_differ = on.is_none_or(|c| c.matches(v as f64));
                if !must_differ || !dice[..j].iter().any(|d| d.value == v) {
                    break;
                }
                if once && times == 1 {
                    break;
                }
                times += 1;
                if times > self.limits.max_rerolls {
                    return Err(err(DiceErrorKind::RerollCap {
                        cap: self.limits.max_rerolls,
                        condition: "unique".into(),
                    }));
                }
                let (face, source) = self.draw(faces, pool, Purpose::Duplicate(j as u64 + 1))?;
                let d = &mut dice[j];
                let old = d.value;
                d.history_mut().rerolled.push(old);
                d.value = face;
                clamp(d, st);
                d.source = source;
            }
        }
        Ok(())
    }

    /// Keep/drop with set semantics: each selector picks from all the values; an item counts
    /// if some keep selector picked it (or there are none) and no drop selector did.
    fn select(
        &mut self,
        selectors: &[(KeepDrop, &Selector)],
        values: &[f64],
    ) -> Result<Scratch<bool>, DiceError> {
        if selectors.is_empty() {
            return Ok(smallvec::smallvec![true; values.len()]);
        }
        let any_keep = selectors.iter().any(|(kd, _)| *kd == KeepDrop::Keep);
        let mut kept_by_keep: Scratch<bool> = smallvec::smallvec![!any_keep; values.len()];
        let mut dropped: Scratch<bool> = smallvec::smallvec![false; values.len()];
        for (kd, sel) in selectors {
            let picked = self.pick(sel, values)?;
            let target = if *kd == KeepDrop::Keep {
                &mut kept_by_keep
            } else {
                &mut dropped
            };
            for i in picked {
                target[i] = true;
            }
        }
        Ok(kept_by_keep
            .iter()
            .zip(&dropped)
            .map(|(k, d)| *k && !d)
            .collect())
    }

    /// The indices a selector picks. Among equal values the highest are the later ones and
    /// the lowest the earlier ones, so `kh` and `kl` never fight over a tie.
    fn pick(&mut self, sel: &Selector, values: &[f64]) -> Result<Scratch<usize>, DiceError> {
        let mut order: Scratch<usize> = (0..values.len()).collect();
        let n = match sel {
            Selector::Matching(c) => {
                return Ok(order
                    .into_iter()
                    .filter(|&i| c.matches(values[i]))
                    .collect());
            }
            Selector::Highest(c) | Selector::Lowest(c) => self.count(c)?,
        };
        if n < 0.0 {
            return Err(err(DiceErrorKind::NegativeKeepCount { count: fmt_num(n) }));
        }
        // A total order (ties broken by position), so an unstable sort gives the same result.
        order.sort_unstable_by(|&a, &b| values[a].total_cmp(&values[b]).then(a.cmp(&b)));
        if matches!(sel, Selector::Highest(_)) {
            order.reverse();
        }
        order.truncate(n as usize);
        Ok(order)
    }

    fn group(&mut self, g: &Arc<Group>) -> Result<GroupRoll, DiceError> {
        let mark = self.computed.len();
        let mut items = Vec::with_capacity(g.items.len());
        for e in &g.items {
            items.push(GroupItem {
                node: self.eval(e)?,
                kept: true,
                success: false,
                failure: false,
            });
        }
        let mut st = Stages::default();
        st.fill(&g.mods);
        let single_with_dice = items.len() == 1 && {
            let mut dice = Vec::new();
            items[0].node.collect_dice(&mut dice);
            !dice.is_empty()
        };
        if single_with_dice {
            // `{4d6+4d8}kh3`, `(10d6kh5)kl2`: keep/drop act on the dice inside the one item.
            let node = &mut items[0].node;
            if !st.keep_drop.is_empty() {
                let values: Scratch<f64> = {
                    let mut dice = Vec::new();
                    node.collect_dice(&mut dice);
                    dice.iter()
                        .filter(|d| d.kept)
                        .map(|d| d.value as f64)
                        .collect()
                };
                let kept = self.select(&st.keep_drop, &values)?;
                let mut it = kept.into_iter();
                for_each_die(node, &mut |d| {
                    if d.kept {
                        d.kept = it.next().unwrap_or(true);
                    }
                });
                recompute(node)?;
            }
            if let Some(order) = st.sort {
                sort_dice_in(node, order);
            }
        } else {
            let values: Scratch<f64> = items.iter().map(|i| i.node.value()).collect();
            let kept = self.select(&st.keep_drop, &values)?;
            for (item, k) in items.iter_mut().zip(kept) {
                item.kept = k;
            }
            if let Some(order) = st.sort {
                sort_by_value(&mut items, order, |i| i.node.value());
            }
        }
        let mut group = GroupRoll {
            notation: Written::Node(Arc::clone(g)),
            items,
            value: 0.0,
            successes: None,
            failures: None,
            computed: self.take_computed(mark),
        };
        if let Some((success, failure)) = st.target {
            let (mut s, mut f) = (0u32, 0u32);
            for item in group.items.iter_mut().filter(|i| i.kept) {
                let v = item.node.value();
                item.success = success.matches(v);
                item.failure = !item.success && failure.is_some_and(|c| c.matches(v));
                s += u32::from(item.success);
                f += u32::from(item.failure);
            }
            group.successes = Some(s);
            group.failures = failure.map(|_| f);
            group.value = f64::from(s) - f64::from(f);
        } else {
            group.value = group
                .items
                .iter()
                .filter(|i| i.kept)
                .map(|i| i.node.value())
                .sum();
        }
        group.value = arith::checked(group.value, "the group total").map_err(err)?;
        Ok(group)
    }
}

/// Counts `n` more dice against the cap on dice per roll.
#[inline]
fn count_rolls(rolled: &mut u64, n: u64, limits: &Caps) -> Result<(), DiceError> {
    *rolled += n;
    if *rolled > limits.max_rolls {
        return Err(err(DiceErrorKind::TooManyRolls {
            cap: limits.max_rolls,
        }));
    }
    Ok(())
}

/// Where [`one_die`] gets each face: any closure asking the source, or [`FromGenerator`].
trait DrawFace {
    /// One face for `purpose`, and its source.
    fn face(&mut self, purpose: Purpose) -> Result<(i64, SourceKind), DiceError>;
}

impl<F: FnMut(Purpose) -> Result<(i64, SourceKind), DiceError>> DrawFace for F {
    fn face(&mut self, purpose: Purpose) -> Result<(i64, SourceKind), DiceError> {
        self(purpose)
    }
}

/// Faces straight from the source's generator, each counted against the cap on rolls (the
/// per-die path of rerolling and exploding pools; inlined, it costs little more than the draw).
struct FromGenerator<'a, 'g> {
    generator: &'a mut Generator<'g>,
    faces: Faces,
    rolled: &'a mut u64,
    limits: &'a Caps,
}

impl DrawFace for FromGenerator<'_, '_> {
    #[inline(always)]
    fn face(&mut self, _: Purpose) -> Result<(i64, SourceKind), DiceError> {
        count_rolls(self.rolled, 1, self.limits)?;
        Ok((self.generator.die(self.faces), SourceKind::Rng))
    }
}

/// A plain or penetrating explosion, worked out once for a pool.
#[derive(Clone, Copy)]
struct Explode {
    /// The faces that explode.
    on: WholeMatch,
    /// At most this many extra dice per die.
    cap: u32,
    /// Each extra die counts one less (`!p`).
    penetrate: bool,
}

impl Explode {
    /// A plain or penetrating explosion of `faces` (`None` for compounding), on the highest
    /// face unless `on` says otherwise, at most `cap` (else the limits' cap) extra dice per die.
    fn of(
        kind: ExplodeKind,
        on: Option<Compare>,
        cap: Option<u32>,
        faces: Faces,
        limits: &Caps,
    ) -> Option<Explode> {
        let penetrate = match kind {
            ExplodeKind::Standard => false,
            ExplodeKind::Penetrate => true,
            ExplodeKind::Compound | ExplodeKind::CompoundPenetrate => return None,
        };
        Some(Explode {
            on: on.map_or(
                WholeMatch::of(Compare::new(CmpOp::Eq, faces.max() as f64)),
                Compare::whole,
            ),
            cap: cap.unwrap_or(limits.max_explosions),
            penetrate,
        })
    }
}

/// Room for the dice of an exploding pool of `n` with the explosions it usually has, so the
/// list rarely grows.
fn exploding_room(n: u64, limits: &Caps) -> usize {
    (n + n / 2 + 2).min(limits.max_dice) as usize
}

/// [`explode_from`] with the kind of die settled once, before the loop.
#[inline(always)]
fn explode_into(
    g: &mut Generator<'_>,
    faces: Faces,
    n: u64,
    x: Explode,
    rolled: &mut u64,
    limits: &Caps,
    out: &mut Vec<Die>,
) -> Result<f64, DiceError> {
    match faces {
        Faces::Numbered { sides } => explode_from(g.numbered(sides), n, x, rolled, limits, out),
        _ => explode_from(g.faces(faces), n, x, rolled, limits, out),
    }
}

/// Rolls `n` dice straight from the generator, each followed by the dice its explosions add,
/// in the order [`one_die`] draws and pushes them (the same dice for the same seed), unclamped;
/// gives the sum of their values.
fn explode_from(
    mut draw: impl FnMut() -> i64,
    n: u64,
    x: Explode,
    rolled: &mut u64,
    limits: &Caps,
    out: &mut Vec<Die>,
) -> Result<f64, DiceError> {
    // The pool's own dice are counted against the cap at once, each extra die as it comes:
    // either way the roll fails exactly when it needs more dice than the cap.
    count_rolls(rolled, n, limits)?;
    let penetrate = i64::from(x.penetrate);
    let mut sum = 0.0;
    for _ in 0..n {
        let mut face = draw();
        let mut die = Die::new(face, SourceKind::Rng);
        let mut times = 0;
        while times < x.cap && x.on.holds(face) {
            count_rolls(rolled, 1, limits)?;
            die.exploded = true;
            sum += die.value as f64;
            out.push(die);
            face = draw();
            die = Die::new(face - penetrate, SourceKind::Rng);
            die.extra = true;
            times += 1;
        }
        sum += die.value as f64;
        out.push(die);
    }
    Ok(sum)
}

/// Rolls die `i` of `n` with its rerolls, explosions and clamp, drawing each face with
/// `draw`; pushes it and any dice its explosions added.
fn one_die(
    draw: &mut impl DrawFace,
    limits: &Caps,
    faces: Faces,
    st: &Stages<'_>,
    i: u64,
    n: u64,
    out: &mut Vec<Die>,
) -> Result<(), DiceError> {
    let (mut face, mut source) = draw.face(Purpose::Die { index: i, of: n })?;
    let mut die = Die::new(face, source);
    match st.reroll {
        Some((RerollKind::Until, on)) => {
            let mut times = 0;
            while hits(on, faces.min(), face) {
                times += 1;
                if times > limits.max_rerolls {
                    let condition =
                        on.map_or_else(|| format!("={}", faces.min()), |c| c.to_string());
                    return Err(err(DiceErrorKind::RerollCap {
                        cap: limits.max_rerolls,
                        condition,
                    }));
                }
                die.history_mut().rerolled.push(face);
                (face, source) = draw.face(Purpose::Reroll(i))?;
            }
        }
        Some((RerollKind::Once, on)) if hits(on, faces.min(), face) => {
            die.history_mut().rerolled.push(face);
            (face, source) = draw.face(Purpose::Reroll(i))?;
        }
        _ => {}
    }
    die.value = face;
    die.source = source;
    let Some((kind, on, limit)) = st.explode else {
        clamp(&mut die, st);
        out.push(die);
        return Ok(());
    };
    let limit = limit.unwrap_or(limits.max_explosions);
    let penetrate = matches!(
        kind,
        ExplodeKind::Penetrate | ExplodeKind::CompoundPenetrate
    );
    let compound = matches!(kind, ExplodeKind::Compound | ExplodeKind::CompoundPenetrate);
    // The die goes in first and the dice its explosions add follow it; all are clamped at
    // the end.
    let at = out.len();
    out.push(die);
    let mut last = face;
    for _ in 0..limit {
        if !hits(on, faces.max(), last) {
            break;
        }
        let (next, src) = draw.face(Purpose::Explosion(i))?;
        last = next;
        let counted = if penetrate { next - 1 } else { next };
        if compound {
            let die = &mut out[at];
            let parts = &mut die.history_mut().parts;
            if parts.is_empty() {
                parts.push(face);
            }
            parts.push(counted);
            die.exploded = true;
            die.value += counted;
            die.source = src;
        } else {
            // The die (or the last extra die) before this one exploded.
            if let Some(prev) = out.last_mut() {
                prev.exploded = true;
            }
            let mut x = Die::new(counted, src);
            x.extra = true;
            out.push(x);
        }
    }
    if st.min.is_some() || st.max.is_some() {
        for d in &mut out[at..] {
            clamp(d, st);
        }
    }
    Ok(())
}

/// The usual keep/drop of a small pool, one selector keeping or dropping the highest or lowest
/// N written as a number (`kh3`, `dl1`), done in place; `false` (nothing done) for any other.
/// Same choice as [`Roller::select`]: a die's rank is the number of dice before it in the
/// selector's order (by value, ties by position), and it is picked when its rank is below N.
fn keep_highest_or_lowest(selectors: &[(KeepDrop, &Selector)], dice: &mut [Die]) -> bool {
    let [(kd, sel)] = selectors else {
        return false;
    };
    let (highest, n) = match sel {
        Selector::Highest(Count::Number(n)) => (true, *n),
        Selector::Lowest(Count::Number(n)) => (false, *n),
        _ => return false,
    };
    let len = dice.len();
    if len > 32 {
        return false;
    }
    // Dice are ranked by (value, position): among equal values the later one is the higher.
    // The `n` highest are the `len - n` lowest left out, so whichever set is smaller is found,
    // one extreme per pass over the pool.
    let n = (n as usize).min(len);
    let (passes, top) = if n <= len - n {
        (n, highest)
    } else {
        (len - n, !highest)
    };
    let mut marked = [false; 32];
    for _ in 0..passes {
        let mut best: Option<(i64, usize)> = None;
        for (j, d) in dice.iter().enumerate() {
            let better = match best {
                None => true,
                Some((v, _)) if top => d.value >= v,
                Some((v, _)) => d.value < v,
            };
            if !marked[j] && better {
                best = Some((d.value, j));
            }
        }
        if let Some((_, j)) = best {
            marked[j] = true;
        }
    }
    // `picked`: chosen by the selector (the marked set, or everything else).
    let keep = *kd == KeepDrop::Keep;
    let marked_are_picked = passes == n;
    for (d, &m) in dice.iter_mut().zip(&marked) {
        let picked = m == marked_are_picked;
        d.kept = picked == keep;
    }
    true
}

/// Marks a die as a success, a failure or neither.
#[inline(always)]
fn mark_target(die: &mut Die, success: WholeMatch, failure: Option<WholeMatch>) {
    die.success = success.holds(die.value);
    die.failure = !die.success & failure.is_some_and(|f| f.holds(die.value));
}

fn clamp(d: &mut Die, st: &Stages<'_>) {
    let before = d.value;
    if let Some(lo) = st.min {
        d.value = d.value.max(lo);
    }
    if let Some(hi) = st.max {
        d.value = d.value.min(hi);
    }
    d.clamped = d.value != before;
}

fn sort_by_value<T>(xs: &mut [T], order: SortOrder, key: impl Fn(&T) -> f64) {
    xs.sort_by(|a, b| {
        let o = key(a).total_cmp(&key(b));
        if order == SortOrder::Descending {
            o.reverse()
        } else {
            o
        }
    });
}

/// A pool's value from its dice: the sum of the kept dice, or successes minus failures.
fn recount_pool(p: &mut PoolRoll) {
    if p.successes.is_some() {
        let s = p.dice.iter().filter(|d| d.kept && d.success).count() as u32;
        let f = p.dice.iter().filter(|d| d.kept && d.failure).count() as u32;
        p.successes = Some(s);
        p.failures = p.failures.map(|_| f);
        p.value = f64::from(s) - f64::from(f);
    } else {
        p.value = p
            .dice
            .iter()
            .filter(|d| d.kept)
            .map(|d| d.value as f64)
            .sum();
    }
}

fn for_each_die(node: &mut RollNode, f: &mut dyn FnMut(&mut Die)) {
    match node {
        RollNode::Num { .. } => {}
        RollNode::Pool(p) => p.dice.iter_mut().for_each(f),
        RollNode::Group(g) => g
            .items
            .iter_mut()
            .for_each(|i| for_each_die(&mut i.node, f)),
        RollNode::Unary { operand, .. } => for_each_die(operand, f),
        RollNode::Binary { operands, .. } => {
            for_each_die(&mut operands.left, f);
            for_each_die(&mut operands.right, f);
        }
        RollNode::Call { args, .. } => args.iter_mut().for_each(|a| for_each_die(a, f)),
        RollNode::Labeled { inner, .. } => for_each_die(inner, f),
    }
}

fn sort_dice_in(node: &mut RollNode, order: SortOrder) {
    match node {
        RollNode::Pool(p) => sort_by_value(&mut p.dice, order, |d| d.value as f64),
        RollNode::Unary { operand, .. } => sort_dice_in(operand, order),
        RollNode::Binary { operands, .. } => {
            sort_dice_in(&mut operands.left, order);
            sort_dice_in(&mut operands.right, order);
        }
        RollNode::Call { args, .. } => args.iter_mut().for_each(|a| sort_dice_in(a, order)),
        RollNode::Labeled { inner, .. } => sort_dice_in(inner, order),
        RollNode::Num { .. } | RollNode::Group(_) => {}
    }
}

/// Recomputes every value under `node` after dice inside it were kept or dropped.
fn recompute(node: &mut RollNode) -> Result<f64, DiceError> {
    let v = match node {
        RollNode::Num { value } => *value,
        RollNode::Pool(p) => {
            recount_pool(p);
            p.value
        }
        RollNode::Group(g) => {
            for item in &mut g.items {
                recompute(&mut item.node)?;
            }
            if g.successes.is_none() {
                g.value = g
                    .items
                    .iter()
                    .filter(|i| i.kept)
                    .map(|i| i.node.value())
                    .sum();
            }
            g.value
        }
        RollNode::Unary { op, value, operand } => {
            let x = recompute(operand)?;
            *value = arith::unary(*op, x);
            *value
        }
        RollNode::Binary {
            op,
            value,
            operands,
        } => {
            let (a, b) = (
                recompute(&mut operands.left)?,
                recompute(&mut operands.right)?,
            );
            *value = arith::binary(*op, a, b).map_err(err)?;
            *value
        }
        RollNode::Call { func, value, args } => {
            let vals = args
                .iter_mut()
                .map(recompute)
                .collect::<Result<Vec<_>, _>>()?;
            *value = arith::call(*func, &vals).map_err(err)?;
            *value
        }
        RollNode::Labeled { value, inner, .. } => {
            *value = recompute(inner)?;
            *value
        }
    };
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::source::FixedSource;
    use proptest::prelude::*;

    proptest! {
        /// The in-place keep/drop picks exactly the dice the general selection picks.
        #[test]
        fn in_place_keep_drop_matches_select(
            values in proptest::collection::vec(-3i64..8, 0..40),
            n in 0u64..45,
            keep in any::<bool>(),
            highest in any::<bool>(),
        ) {
            let kd = if keep { KeepDrop::Keep } else { KeepDrop::Drop };
            let sel = if highest {
                Selector::Highest(Count::Number(n))
            } else {
                Selector::Lowest(Count::Number(n))
            };
            let selectors = [(kd, &sel)];
            let mut dice: Vec<Die> =
                values.iter().map(|&v| Die::new(v, SourceKind::Rng)).collect();
            let mut source = FixedSource::new([]);
            let mut roller = Roller {
                source: &mut source,
                limits: &Caps::DEFAULT,
                rolled: 0,
                sources: Sources::new(),
                computed: Vec::new(),
            };
            let floats: Vec<f64> = values.iter().map(|&v| v as f64).collect();
            let want = roller.select(&selectors, &floats).unwrap();
            if keep_highest_or_lowest(&selectors, &mut dice) {
                let got: Vec<bool> = dice.iter().map(|d| d.kept).collect();
                prop_assert_eq!(got, want.to_vec());
            } else {
                prop_assert!(values.len() > 32);
            }
        }
    }
}
