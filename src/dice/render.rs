//! Rendering rolls for people: `4d6kh3 (4, 4, 6, ~~3~~) = 14`.
//!
//! The text is built through a [`Paint`] so the shell can colour each part by what it means
//! (dropped, success, exploded, …) while tests and `--no-color` use [`Plain`], which marks
//! the same things with ASCII: `~~3~~` dropped (and faces rerolled away), `6!` exploded,
//! `8*` success, `1_` failure, `20**` critical success, `1__` critical failure.

use super::ast::BinaryOp;
use super::result::{Critical, Die, Roll, RollNode};
use super::text::NotationText;

/// What a piece of rendered text means, for colouring.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// A die or group item that does not count.
    Dropped,
    /// A die or item counted as a success.
    Success,
    /// A die or item counted as a failure.
    Failure,
    /// A die marked as a critical success.
    CritSuccess,
    /// A die marked as a critical failure.
    CritFailure,
    /// A die that exploded.
    Exploded,
    /// A face that was rerolled away.
    Rerolled,
    /// The total.
    Total,
    /// A label (`[attack]`).
    Label,
    /// A comment.
    Comment,
}

/// Paints a piece of text according to its [`Role`].
pub trait Paint {
    /// `text` as it should appear for `role`.
    fn paint(&self, role: Role, text: &str) -> String;
}

/// No colour: ASCII marks instead (see the module docs).
#[derive(Debug, Clone, Copy, Default)]
pub struct Plain;

impl Paint for Plain {
    fn paint(&self, role: Role, text: &str) -> String {
        match role {
            Role::Dropped | Role::Rerolled => format!("~~{text}~~"),
            Role::Success => format!("{text}*"),
            Role::Failure => format!("{text}_"),
            Role::CritSuccess => format!("{text}**"),
            Role::CritFailure => format!("{text}__"),
            Role::Exploded => format!("{text}!"),
            Role::Total | Role::Label | Role::Comment => text.to_string(),
        }
    }
}

/// A worked-out value as shown to people: whole numbers as they are, others to two decimals,
/// or to three significant digits when two decimals would hide them (`0.005`, `0.00123`).
pub fn fmt_value(v: f64) -> String {
    if v.fract() == 0.0 || !v.is_finite() {
        return super::ast::fmt_num(v);
    }
    // Digits after the point for three significant ones: 2 for |v| >= 0.1, more below.
    let decimals = (2 - v.abs().log10().floor() as i32).clamp(2, 12) as usize;
    let s = format!("{v:.decimals$}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}

/// Where a group's written items end: just past the bracket that closes its first one (the
/// modifiers after it may hold brackets of their own, as in `{2d6, 1d8}k(1d2)`).
fn group_end(notation: &str) -> usize {
    let mut depth = 0usize;
    for (i, c) in notation.char_indices() {
        match c {
            '{' | '(' => depth += 1,
            '}' | ')' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
    }
    notation.len()
}

/// A pool's or group's notation with what each computed count or size rolled written inside
/// its brackets: `(1d4)d6` becomes `(1d4 (3))d6`, `6d6k(1d4)` becomes `6d6k(1d4 (2))`.
fn with_computed(notation: &str, computed: Option<&Vec<RollNode>>, p: &dyn Paint) -> String {
    let mut out = String::new();
    let mut rest = notation;
    for node in computed.into_iter().flatten() {
        let mut written = NotationText::new();
        node.write_notation(&mut written, 0);
        let bracketed = format!("({written})");
        // Counts and sizes are written in the order they are rolled.
        if let Some(at) = rest.find(&bracketed) {
            out.push_str(&rest[..at]);
            out.push('(');
            out.push_str(&node_text(node, p));
            out.push(')');
            rest = &rest[at + bracketed.len()..];
        }
    }
    out.push_str(rest);
    out
}

/// One roll on one line: the expression with every die, then `= total`.
pub fn roll_line(roll: &Roll, p: &dyn Paint) -> String {
    let mut out = format!(
        "{} = {}",
        node_text(&roll.tree, p),
        p.paint(Role::Total, &fmt_value(roll.total))
    );
    if let Some(c) = &roll.comment {
        out.push_str("  ");
        // Labels and comments are free text: shown with their control characters visible.
        let c = crate::escape::escape(c);
        out.push_str(&p.paint(Role::Comment, &format!("# {c}")));
    }
    out
}

/// A rolled expression tree as text, each pool followed by its dice.
pub fn node_text(node: &RollNode, p: &dyn Paint) -> String {
    node_prec(node, p, 0)
}

fn precedence(node: &RollNode) -> u8 {
    match node {
        RollNode::Binary { op, .. } => op.precedence(),
        RollNode::Unary { .. } => 4,
        _ => u8::MAX,
    }
}

fn node_prec(node: &RollNode, p: &dyn Paint, min: u8) -> String {
    let text = match node {
        // A number as written, however many decimals it has.
        RollNode::Num { value } => super::ast::fmt_num(*value),
        RollNode::Pool(pool) => {
            let dice: Vec<String> = pool.dice.iter().map(|d| die_text(d, p)).collect();
            let notation = with_computed(&pool.notation.text(), pool.computed.as_deref(), p);
            format!("{notation} ({})", dice.join(", "))
        }
        RollNode::Group(g) => {
            let items: Vec<String> = g
                .items
                .iter()
                .map(|i| {
                    let t = node_text(&i.node, p);
                    if !i.kept {
                        p.paint(Role::Dropped, &t)
                    } else if i.success {
                        p.paint(Role::Success, &t)
                    } else if i.failure {
                        p.paint(Role::Failure, &t)
                    } else {
                        t
                    }
                })
                .collect();
            let notation = g.notation.text();
            let mods = &notation[group_end(&notation)..];
            let mods = with_computed(mods, g.computed.as_deref(), p);
            let (open, close) = if notation.starts_with('{') {
                ("{", "}")
            } else {
                ("(", ")")
            };
            format!("{open}{}{close}{mods}", items.join(", "))
        }
        RollNode::Unary { op, operand, .. } => {
            format!("{}{}", op.symbol(), node_prec(operand, p, 5))
        }
        RollNode::Binary { op, operands, .. } => {
            let prec = precedence(node);
            let (lmin, rmin) = if *op == BinaryOp::Pow {
                (prec + 1, prec)
            } else {
                (prec, prec + 1)
            };
            format!(
                "{} {} {}",
                node_prec(&operands.left, p, lmin),
                op.symbol(),
                node_prec(&operands.right, p, rmin)
            )
        }
        RollNode::Call { func, args, .. } => {
            let args: Vec<String> = args.iter().map(|a| node_text(a, p)).collect();
            format!("{}({})", func.name(), args.join(", "))
        }
        RollNode::Labeled { label, inner, .. } => {
            format!(
                "{} {}",
                node_prec(inner, p, 6),
                p.paint(Role::Label, &format!("[{}]", crate::escape::escape(label)))
            )
        }
    };
    if precedence(node) < min {
        format!("({text})")
    } else {
        text
    }
}

/// One die: faces rerolled away struck out, compounded parts summed, marks for what it did.
fn die_text(d: &Die, p: &dyn Paint) -> String {
    let mut text = if d.parts().is_empty() {
        d.value.to_string()
    } else {
        let parts: Vec<String> = d.parts().iter().map(i64::to_string).collect();
        format!("{}={}", parts.join("+"), d.value)
    };
    if d.exploded {
        text = p.paint(Role::Exploded, &text);
    }
    match d.critical {
        Some(Critical::Success) => text = p.paint(Role::CritSuccess, &text),
        Some(Critical::Failure) => text = p.paint(Role::CritFailure, &text),
        None => {}
    }
    if !d.kept {
        text = p.paint(Role::Dropped, &text);
    } else if d.success {
        text = p.paint(Role::Success, &text);
    } else if d.failure {
        text = p.paint(Role::Failure, &text);
    }
    if d.rerolled().is_empty() {
        return text;
    }
    let mut out: Vec<String> = d
        .rerolled()
        .iter()
        .map(|v| p.paint(Role::Rerolled, &v.to_string()))
        .collect();
    out.push(text);
    out.join(" ")
}

/// A pool with more dice than this is shown in a breakdown by what its dice came to (see
/// [`breakdown_dice`]), not die by die; `--json` still lists every die.
pub const COMPACT_OVER: usize = 12;

/// A roll as a line of a breakdown shows it, after the factor's label: the expression and
/// its dice in brackets, each marked as the `roll` command marks it (`1d6 [4]`, `4d6kh3 [3,
/// 2, ~~1~~, 2]`, `5d6>=4 [4*, 2, 6*, 5*, 1]`, `1d6! [6!, 3]`). A pool of more than
/// [`COMPACT_OVER`] dice is summed up instead: `48d6>=4 [19 successes, 7 sixes]`. An
/// expression of more than one pool, or with arithmetic, is shown as the `roll` command
/// shows it, without its total (`1d6 (4) + 2d6 (3, 5) + 1`), big pools summed up the same way.
pub fn breakdown_dice(roll: &Roll, p: &dyn Paint) -> String {
    let mut out = String::with_capacity(32);
    let (pool, label) = match &roll.tree {
        RollNode::Pool(pool) => (Some(pool), None),
        RollNode::Labeled { label, inner, .. } => match &**inner {
            RollNode::Pool(pool) => (Some(pool), Some(label)),
            _ => (None, None),
        },
        _ => (None, None),
    };
    if let Some(pool) = pool {
        // One pool (labelled or not): its notation, then its dice in brackets.
        let notation = pool.notation.text();
        match pool.computed.as_deref() {
            None => out.push_str(notation.as_str()),
            computed => out.push_str(&with_computed(&notation, computed, p)),
        }
        if let Some(label) = label {
            out.push(' ');
            out.push_str(&p.paint(Role::Label, &format!("[{}]", crate::escape::escape(label))));
        }
        out.push_str(" [");
        pool_dice(pool, p, &mut out);
        out.push(']');
        return out;
    }
    match &roll.tree {
        RollNode::Num { value } => {
            out.push_str(&super::ast::fmt_num(*value));
            out.push_str(" []");
        }
        tree if roll_dice_count(tree) <= COMPACT_OVER => out.push_str(&node_text(tree, p)),
        tree => out.push_str(&compact_node(tree, p)),
    }
    out
}

fn roll_dice_count(node: &RollNode) -> usize {
    let mut v = Vec::new();
    node.collect_dice(&mut v);
    v.len()
}

/// A rolled tree as [`node_text`] writes it, but each pool of more than [`COMPACT_OVER`]
/// dice summed up.
fn compact_node(node: &RollNode, p: &dyn Paint) -> String {
    match node {
        RollNode::Pool(pool) if pool.dice.len() > COMPACT_OVER => {
            let mut out = with_computed(&pool.notation.text(), pool.computed.as_deref(), p);
            out.push_str(" (");
            pool_dice(pool, p, &mut out);
            out.push(')');
            out
        }
        RollNode::Binary { op, operands, .. } => format!(
            "{} {} {}",
            compact_node(&operands.left, p),
            op.symbol(),
            compact_node(&operands.right, p)
        ),
        RollNode::Labeled { label, inner, .. } => format!(
            "{} {}",
            compact_node(inner, p),
            p.paint(Role::Label, &format!("[{}]", crate::escape::escape(label)))
        ),
        other => node_text(other, p),
    }
}

/// A pool's dice, marked, or for a big pool what they came to.
fn pool_dice(pool: &super::result::PoolRoll, p: &dyn Paint, out: &mut String) {
    if pool.dice.len() <= COMPACT_OVER {
        for (i, d) in pool.dice.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            if d.flags() == Die::KEPT && d.critical.is_none() {
                // A plain die, as nearly all are: its value, nothing to mark.
                out.push_str(itoa::Buffer::new().format(d.value));
            } else {
                out.push_str(&die_text(d, p));
            }
        }
        return;
    }
    out.push_str(&pool_summary(pool, p));
}

/// What a big pool's dice came to: `19 successes, 7 sixes`; `50 kept of 100, 9 sixes`;
/// `20 dice, 3 exploded, 5 sixes`.
pub fn pool_summary(pool: &super::result::PoolRoll, p: &dyn Paint) -> String {
    let plural = |n: usize, one: &str, many: &str| {
        if n == 1 {
            format!("1 {one}")
        } else {
            format!("{n} {many}")
        }
    };
    let mut parts = Vec::new();
    let kept = pool.dice.iter().filter(|d| d.kept).count();
    let counts_successes = pool.successes.is_some() || pool.failures.is_some();
    if let Some(s) = pool.successes {
        // Marked as a total (the `*` of a single success would read as part of the word).
        parts.push(p.paint(Role::Total, &plural(s as usize, "success", "successes")));
    }
    if let Some(f) = pool.failures {
        parts.push(plural(f as usize, "failure", "failures"));
    }
    if kept < pool.dice.len() {
        parts.push(format!("{kept} kept of {}", pool.dice.len()));
    } else if !counts_successes {
        parts.push(plural(pool.dice.len(), "die", "dice"));
    }
    let exploded = pool.dice.iter().filter(|d| d.exploded).count();
    if exploded > 0 {
        parts.push(format!("{exploded} exploded"));
    }
    if let super::source::Faces::Numbered { sides } = pool.die {
        let top = i64::try_from(sides).unwrap_or(i64::MAX);
        let n = pool
            .dice
            .iter()
            .filter(|d| d.kept && d.value == top)
            .count();
        parts.push(face_count(n, top));
    }
    parts.join(", ")
}

/// `7 sixes`, `1 ten`, `3 × 20`.
fn face_count(n: usize, face: i64) -> String {
    const NAMES: [(&str, &str); 12] = [
        ("one", "ones"),
        ("two", "twos"),
        ("three", "threes"),
        ("four", "fours"),
        ("five", "fives"),
        ("six", "sixes"),
        ("seven", "sevens"),
        ("eight", "eights"),
        ("nine", "nines"),
        ("ten", "tens"),
        ("eleven", "elevens"),
        ("twelve", "twelves"),
    ];
    match usize::try_from(face - 1).ok().and_then(|i| NAMES.get(i)) {
        Some((one, _)) if n == 1 => format!("1 {one}"),
        Some((_, many)) => format!("{n} {many}"),
        None => format!("{n} × {face}"),
    }
}

#[cfg(test)]
mod breakdown_tests {
    use super::*;
    use crate::dice::{Caps, DiceBox, parse, roll};

    fn rolled(expr: &str, values: &[i64]) -> Roll {
        let mut dice = DiceBox::seeded(1);
        dice.enqueue(values.iter().copied());
        let e = parse(expr).unwrap();
        roll(&e, &mut dice.source(None), &Caps::DEFAULT)
            .unwrap()
            .remove(0)
    }

    #[test]
    fn small_pools_show_every_die_with_its_marks() {
        assert_eq!(breakdown_dice(&rolled("1d6", &[4]), &Plain), "1d6 [4]");
        assert_eq!(
            breakdown_dice(&rolled("2d6", &[3, 5]), &Plain),
            "2d6 [3, 5]"
        );
        assert_eq!(
            breakdown_dice(&rolled("4d6kh3", &[3, 2, 1, 2]), &Plain),
            "4d6kh3 [3, 2, ~~1~~, 2]"
        );
        assert_eq!(
            breakdown_dice(&rolled("5d6>=4", &[4, 2, 6, 5, 1]), &Plain),
            "5d6>=4 [4*, 2, 6*, 5*, 1]"
        );
        assert_eq!(
            breakdown_dice(&rolled("1d6!", &[6, 3]), &Plain),
            "1d6! [6!, 3]"
        );
        assert_eq!(
            breakdown_dice(&rolled("1d6 [to hit]", &[3]), &Plain),
            "1d6 [to hit] [3]"
        );
        assert_eq!(
            breakdown_dice(&rolled("1d6 + 2d6 + 1", &[4, 3, 5]), &Plain),
            "1d6 (4) + 2d6 (3, 5) + 1"
        );
    }

    #[test]
    fn big_pools_are_summed_up() {
        let mut values = vec![6; 7];
        values.extend([5; 6]);
        values.extend([4; 6]);
        values.extend([1; 29]);
        let r = rolled("48d6>=4", &values);
        assert_eq!(
            breakdown_dice(&r, &Plain),
            "48d6>=4 [19 successes, 7 sixes]"
        );
        let r = rolled("13d6", &[1; 13]);
        assert_eq!(breakdown_dice(&r, &Plain), "13d6 [13 dice, 0 sixes]");
        let r = rolled("13d10kh3 + 1", &[10; 13]);
        assert_eq!(
            breakdown_dice(&r, &Plain),
            "13d10kh3 (3 kept of 13, 3 tens) + 1"
        );
        // Twelve dice are still shown one by one.
        assert_eq!(
            breakdown_dice(&rolled("12d6", &[2; 12]), &Plain)
                .matches(", ")
                .count(),
            11
        );
    }
}
