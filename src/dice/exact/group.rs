//! Groups `{a, b}kh1` and sets `(1, 2, 3)kl1`: keep/drop and success counting over the items'
//! totals, or, for a group of one item that rolls dice, keep/drop over that item's dice
//! (supported when the item is a single pool).

use super::super::ast::{Expr, Group, Modifier};
use super::super::error::DiceError;
use super::die::unsupported;
use super::eval::Ctx;
use super::multiset;
use super::pmf::Pmf;
use super::pool::{pool, selections};
use super::select::Score;

/// The distribution of a group.
pub(super) fn group(ctx: &mut Ctx<'_>, g: &Group) -> Result<Pmf, DiceError> {
    let cap = ctx.cap();
    let mut selectors = Vec::new();
    let mut keep_mods = Vec::new();
    let mut score = None;
    for m in &g.mods {
        match m {
            Modifier::KeepDrop(kd, sel) => {
                selectors.push((*kd, sel));
                keep_mods.push(m.clone());
            }
            Modifier::Target { success, failure } => {
                if score.is_some() {
                    return Err(unsupported("more than one success count on one group"));
                }
                score = Some(Score::Target {
                    success: *success,
                    failure: *failure,
                });
            }
            Modifier::Sort(_) | Modifier::CritSuccess(_) | Modifier::CritFailure(_) => {}
            other => return Err(unsupported(format!("`{other}` on a group"))),
        }
    }
    if g.items.is_empty() {
        return Ok(Pmf::constant(0.0));
    }
    let score = score.unwrap_or(Score::Sum);
    let scored = |item: &Pmf| -> Result<Pmf, DiceError> {
        let mut out = item.map(|v| Ok(score.of(v)), "a group item", cap)?;
        if score == Score::Sum {
            // A sum keeps each value, so it keeps where the cut-off ones lie.
            out.tail = item.tail;
        }
        Ok(out)
    };
    if g.items.len() == 1 && rolls_dice(&g.items[0]) {
        // With one item that rolls dice, keep/drop act on those dice (either brackets).
        let item = if selectors.is_empty() {
            ctx.eval(&g.items[0])?
        } else {
            let mut inner = &g.items[0];
            while let Expr::Labeled(x, _) = inner {
                inner = x;
            }
            match inner {
                // The group's selectors pick among the dice the pool kept.
                Expr::Dice(d) => pool(ctx, d, &keep_mods)?,
                _ => {
                    return Err(unsupported(
                        "keep/drop on a one-item group unless the item is a single pool",
                    ));
                }
            }
        };
        return scored(&item);
    }
    let items = g
        .items
        .iter()
        .map(|e| ctx.eval(e))
        .collect::<Result<Vec<_>, _>>()?;
    if selectors.is_empty() {
        let mut total = Pmf::constant(0.0);
        for item in &items {
            ctx.budget
                .charge(total.len().saturating_mul(item.len()), "a sum")?;
            total = total.add(&scored(item)?, cap)?;
        }
        return Ok(total);
    }
    let values: Vec<Vec<(f64, f64)>> = items.iter().map(Pmf::pairs).collect();
    let lost = 1.0 - items.iter().map(|p| 1.0 - p.lost).product::<f64>();
    let (sels, sel_lost) = selections(ctx, &selectors)?;
    let mut mix = Vec::new();
    for (sel, w) in sels {
        mix.push((
            w,
            multiset::items(&values, lost, &sel, score, cap, &ctx.budget)?,
        ));
    }
    Pmf::mixture(mix, sel_lost, cap)
}

/// Whether an expression contains a pool of dice.
fn rolls_dice(e: &Expr) -> bool {
    match e {
        Expr::Num(_) => false,
        Expr::Dice(_) => true,
        Expr::Group(g) => g.items.iter().any(rolls_dice),
        Expr::Unary(_, x) | Expr::Labeled(x, _) => rolls_dice(x),
        Expr::Binary(_, ab) => ab.iter().any(rolls_dice),
        Expr::Call(_, args) => args.iter().any(rolls_dice),
    }
}
