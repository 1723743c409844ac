//! The dice commands: `roll`, `prob` and `dice` (the sources: seed, mode, queue).

use serde_json::{Value, json};

use crate::dice::ast::{BinaryOp, UnaryOp};
use crate::dice::render::fmt_value;
use crate::dice::source::fresh_seed;
use crate::dice::{self, DiceExpr, DiceMode, Expr, Roll, Rolls, SourceKind};
use crate::engine::error::CommandError;
use crate::engine::output::{Block, Comparison, Output, ProbReport, Text, num};
use crate::engine::registry::Invocation;
use crate::engine::session::{Context, reborrow};
use crate::engine::signature::Arg;
use crate::engine::style::Style;

/// The expression a command was given (its `expr` parameter), parsed, with spans in the whole
/// line.
fn parse_expr(inv: &Invocation<'_>) -> Result<DiceExpr, CommandError> {
    let arg = inv.args.get("expr").expect("the signature requires EXPR");
    let text = inv.args.text("expr").unwrap_or_default();
    dice::parse(text).map_err(|e| CommandError::dice(e, arg.span.start))
}

/// The span of the expression in the line.
fn expr_span(inv: &Invocation<'_>) -> crate::span::Span {
    inv.args
        .get("expr")
        .map_or(inv.line.rest_span(), |a| a.span)
}

/// `roll [Nx] EXPR`.
pub fn roll(ctx: &mut Context<'_>, inv: &Invocation<'_>) -> Result<Output, CommandError> {
    let expr = parse_expr(inv)?;
    // A failed or cancelled roll changes nothing: not the queue, not the generator.
    let saved = ctx.state.dice.clone();
    let rolled = {
        let mut source = ctx.state.dice.source(reborrow(&mut ctx.entry));
        dice::roll(&expr, &mut source, &ctx.state.dice_caps)
    };
    let rolls = rolled.map_err(|e| {
        ctx.state.dice = saved;
        CommandError::dice_in(e, expr_span(inv))
    })?;
    for r in &rolls {
        ctx.state.record_roll(r);
    }
    Ok(roll_output(&expr, rolls))
}

fn roll_output(expr: &DiceExpr, rolls: Rolls) -> Output {
    let mut sources: Vec<SourceKind> = Vec::new();
    for s in rolls.iter().flat_map(|r| r.sources.iter()) {
        if !sources.contains(&s) {
            sources.push(s);
        }
    }
    let dice_of = |r: &Roll| serde_json::to_value(r.dice()).unwrap_or(Value::Null);
    let mut out = Output::new("roll")
        .field("expr", expr.to_string())
        .field("sources", json!(sources));
    if expr.repeat.is_some() {
        let totals: Vec<Value> = rolls.iter().map(|r| num(r.total)).collect();
        out = out
            .field("repeat", rolls.len())
            .field("total", json!(totals))
            .field("dice", rolls.iter().map(dice_of).collect::<Vec<_>>());
    } else if let Some(r) = rolls.first() {
        out = out.field("total", num(r.total)).field("dice", dice_of(r));
    }
    out = out.field("rolls", serde_json::to_value(&rolls).unwrap_or(Value::Null));
    let summary = (rolls.len() > 1).then(|| {
        let totals: Vec<String> = rolls.iter().map(|r| fmt_value(r.total)).collect();
        Text::new()
            .push(Style::Dim, "totals ")
            .push(Style::Number, totals.join(", "))
    });
    for r in rolls {
        out = out.block(Block::Roll(r));
    }
    if let Some(s) = summary {
        out = out.text(s);
    }
    out
}

/// `prob EXPR` and `prob EXPR OP N`.
pub fn prob(ctx: &mut Context<'_>, inv: &Invocation<'_>) -> Result<Output, CommandError> {
    let expr = parse_expr(inv)?;
    if let Some(n) = expr.repeat {
        return Err(CommandError::invalid(
            format!("`prob` gives the odds of one roll, not of `{n}x` repeats"),
            Some(format!("drop the `{n}x`")),
            expr_span(inv),
        ));
    }
    let whole = expr.to_string();
    let (of, compare) = match &expr.expr {
        Expr::Binary(BinaryOp::Cmp(op), lr) => match constant(&lr[1]) {
            Some(value) => (
                DiceExpr {
                    repeat: None,
                    expr: lr[0].clone(),
                    comment: None,
                },
                Some((*op, value)),
            ),
            None => (expr.clone(), None),
        },
        _ => (expr.clone(), None),
    };
    // The parser's spans are into the text after `prob`, so errors about `of` shift the same
    // (and one that names no part of it underlines it all).
    let dist = dice::exact::distribution(&of, &ctx.state.exact)
        .map_err(|err| CommandError::dice_in(err, expr_span(inv)))?;
    let dist_json: Vec<Value> = dist
        .outcomes
        .iter()
        .map(|(v, p)| json!([num(*v), p]))
        .collect();
    let mut out = Output::new("prob")
        .field("expr", whole)
        .field("mean", num(to_12_digits(dist.mean())))
        .field("stddev", num(to_12_digits(dist.stddev())))
        .field("dist", dist_json)
        .field("cut_off", dist.cut_off)
        .field("explode_depth", json!(dist.explode_depth))
        .field("cut_off_range", cut_off_range(&dist));
    let compare = compare.map(|(op, value)| {
        let answer = dist.answer(op, value);
        out.json.insert("of".into(), json!(of.to_string()));
        out.json.insert("op".into(), json!(op.symbol()));
        out.json.insert("value".into(), num(value));
        out.json.insert("probability".into(), json!(answer.low));
        out.json
            .insert("probability_max".into(), json!(answer.high));
        out.json
            .insert("cut_off_side".into(), json!(answer.cut_off.name()));
        Comparison { op, value, answer }
    });
    Ok(out.block(Block::Prob(ProbReport {
        expr: of.to_string(),
        dist,
        compare,
    })))
}

/// `[lo, hi]` of the cut-off outcomes (an end `null` when unbounded or not known), or `null`
/// when nothing was cut off.
fn cut_off_range(dist: &dice::Distribution) -> Value {
    let end = |x: f64| if x.is_finite() { num(x) } else { Value::Null };
    match dist.cut_off_range {
        Some((lo, hi)) => json!([end(lo), end(hi)]),
        None => Value::Null,
    }
}

/// The value of a constant right-hand side (`14`, `-2`), if it is one.
fn constant(e: &Expr) -> Option<f64> {
    match e {
        Expr::Num(v) => Some(*v),
        Expr::Unary(UnaryOp::Neg, inner) => constant(inner).map(|v| -v),
        Expr::Unary(UnaryOp::Plus, inner) => constant(inner),
        _ => None,
    }
}

/// `dice`, `dice seed [N]`, `dice mode rng|enter`, `dice queue [V...|drop|clear]`.
pub fn dice(ctx: &mut Context<'_>, inv: &Invocation<'_>) -> Result<Output, CommandError> {
    let dice = &mut ctx.state.dice;
    let args = &inv.args;
    let (action, message) = match args.subs.as_slice() {
        [] => (None, None),
        [seed] if seed == "seed" => match args.get("n") {
            None => {
                dice.reseed(fresh_seed());
                (
                    Some("seed"),
                    Some(format!(
                        "seed {}: a fresh seed, the generator starts from it",
                        dice.seed()
                    )),
                )
            }
            Some(n) => {
                let text = args.text("n").unwrap_or_default();
                let seed = text.parse::<u64>().map_err(|_| {
                    CommandError::invalid(
                        format!("`{text}` is not a seed"),
                        Some("a seed is a whole number from 0 to 18446744073709551615".into()),
                        n.span,
                    )
                })?;
                dice.reseed(seed);
                (
                    Some("seed"),
                    Some(format!("seed {seed}: the generator starts again from it")),
                )
            }
        },
        [mode] if mode == "mode" => {
            let (mode, msg) = if args.text("mode") == Some("enter") {
                (
                    DiceMode::Enter,
                    "dice are entered by hand: each die is asked for",
                )
            } else {
                (DiceMode::Rng, "dice come from the seeded generator")
            };
            dice.set_mode(mode);
            (Some("mode"), Some(msg.to_string()))
        }
        [queue, what] if queue == "queue" && what == "clear" => {
            let n = dice.clear_queue();
            (
                Some("queue"),
                Some(format!(
                    "queue cleared ({n} {} dropped)",
                    plural(n, "value")
                )),
            )
        }
        [queue, what] if queue == "queue" && what == "drop" => {
            let message = match dice.drop_next() {
                Some(v) => format!("dropped {v}, the next queued value"),
                None => "the queue is empty: nothing to drop".to_string(),
            };
            (Some("queue"), Some(message))
        }
        _ => match args.get("values") {
            None => (None, None),
            Some(arg) => {
                let values = queued_values(arg, &inv.line.line)?;
                let list = join(&values);
                dice.enqueue(values);
                (Some("queue"), Some(format!("queued {list}")))
            }
        },
    };
    let dice = &ctx.state.dice;
    let queue: Vec<i64> = dice.queued().collect();
    let mode = match dice.mode() {
        DiceMode::Rng => "rng",
        DiceMode::Enter => "enter",
    };
    let mut text = Text::new();
    if let Some(m) = message {
        text = text.plain(format!("{m}\n"));
    }
    text = text
        .push(Style::Dim, "dice ")
        .push(Style::Strong, mode)
        .push(Style::Dim, " · seed ")
        .plain(dice.seed().to_string())
        .push(Style::Dim, " · queue ")
        .plain(if queue.is_empty() {
            "empty".to_string()
        } else {
            join(&queue)
        });
    let mut out = Output::new("dice")
        .field("mode", mode)
        .field("seed", dice.seed())
        .field("queue", json!(queue))
        .text(text);
    if let Some(a) = action {
        out = out.field("action", a);
    }
    Ok(out)
}

/// The values of `dice queue V…`, each a whole number (a caret under the first that is not).
fn queued_values(arg: &Arg, line: &str) -> Result<Vec<i64>, CommandError> {
    let words = crate::engine::line::split_words(&line[arg.span.start..arg.span.end]);
    words
        .iter()
        .map(|w| {
            w.text.parse::<i64>().map_err(|_| {
                CommandError::invalid(
                    format!("`{}` is not a die value", w.text),
                    Some(
                        "queue whole numbers, as in `dice queue 4 3 5` (or `dice queue drop`, `dice queue clear`)"
                            .into(),
                    ),
                    w.span.shift(arg.span.start),
                )
            })
        })
        .collect()
}

fn join(values: &[i64]) -> String {
    values
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        word.to_string()
    } else {
        format!("{word}s")
    }
}

/// `x` to twelve significant digits: sums of probabilities carry float error in the last few
/// digits (the mean of 2d6 sums to 6.999999999999998), far below anything a rule asks about.
fn to_12_digits(x: f64) -> f64 {
    format!("{x:.11e}").parse().unwrap_or(x)
}
