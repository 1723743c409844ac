//! Groups `{a, b}kh1` and sets `(1, 2, 3)kl1`: keep/drop and success counting over the items'
//! totals, or, for a `{…}` around a single pool, over that pool's dice.

use super::super::ast::{Brackets, Expr, Group, Modifier};
use super::super::error::DiceError;
use super::die::unsupported;
use super::eval::Ctx;
use super::pmf::Pmf;
use super::pool::{pool, selections};
use super::select::{Contributor, Score, multisets};

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
    if g.brackets == Brackets::Braces && g.items.len() == 1 {
        if selectors.is_empty() && score.is_none() {
            return ctx.eval(&g.items[0]);
        }
        let mut item = &g.items[0];
        while let Expr::Labeled(inner, _) = item {
            item = inner;
        }
        if score.is_some() {
            return Err(unsupported("success counting on a one-item `{…}` group"));
        }
        return match item {
            Expr::Dice(d)
                if !d
                    .mods
                    .iter()
                    .any(|m| matches!(m, Modifier::KeepDrop(..) | Modifier::Target { .. })) =>
            {
                pool(ctx, d, &keep_mods)
            }
            _ => Err(unsupported(
                "keep/drop on the dice inside a one-item `{…}` group unless it is a single pool without its own keep/drop",
            )),
        };
    }
    let items = g
        .items
        .iter()
        .map(|e| ctx.eval(e))
        .collect::<Result<Vec<_>, _>>()?;
    let score = score.unwrap_or(Score::Sum);
    if selectors.is_empty() {
        let mut total = Pmf::constant(0.0);
        for item in &items {
            let scored = item.map(|v| score.of(v), "a group item", cap)?;
            total = total.add(&scored, cap)?;
        }
        return Ok(total);
    }
    let parts: Vec<Contributor> = items
        .iter()
        .map(|p| {
            (
                p.pairs().into_iter().map(|(v, q)| (vec![v], q)).collect(),
                p.lost,
            )
        })
        .collect();
    let (sels, sel_lost) = selections(ctx, &selectors)?;
    let mut mix = Vec::new();
    for (sel, w) in sels {
        mix.push((w, multisets(&parts, &sel, score, "a group", cap)?));
    }
    Pmf::mixture(mix, sel_lost, cap)
}
