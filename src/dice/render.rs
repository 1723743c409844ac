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
