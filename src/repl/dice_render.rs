//! STAND-IN for `dice::render`, which the lead is writing on `main`: the same `Paint` trait,
//! `Role`s, `Plain` painter and `roll_line` signature, so that swapping to the real module is
//! deleting this file and changing the `use` lines in `repl/color.rs` and `repl/render.rs`.

use crate::dice::Roll;
use crate::dice::ast::fmt_num;
use crate::dice::result::{Die, RollNode};

/// What a piece of rendered roll text is, so a painter can colour it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// A die that does not count.
    Dropped,
    /// A die counted as a success.
    Success,
    /// A die counted as a failure.
    Failure,
    /// A die marked as a critical success.
    CritSuccess,
    /// A die marked as a critical failure.
    CritFailure,
    /// A die that exploded.
    Exploded,
    /// A die that was rerolled.
    Rerolled,
    /// The total.
    Total,
    /// A label.
    Label,
    /// A comment.
    Comment,
}

/// Turns text of a role into displayed text (colour codes, or markup without colour).
pub trait Paint {
    /// `text` painted as `role`.
    fn paint(&self, role: Role, text: &str) -> String;
}

/// The painter without colour: dropped dice are struck through as `~~3~~`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Plain;

impl Paint for Plain {
    fn paint(&self, role: Role, text: &str) -> String {
        match role {
            Role::Dropped => format!("~~{text}~~"),
            _ => text.to_string(),
        }
    }
}

/// One roll on one line: `4d6kh3 (4, 4, 6, ~~3~~) = 14`.
pub fn roll_line(roll: &Roll, paint: &dyn Paint) -> String {
    let mut out = node(&roll.tree, paint);
    out.push_str(" = ");
    out.push_str(&paint.paint(Role::Total, &fmt_num(roll.total)));
    if let Some(c) = &roll.comment {
        out.push(' ');
        out.push_str(&paint.paint(Role::Comment, &format!("# {c}")));
    }
    out
}

fn node(n: &RollNode, paint: &dyn Paint) -> String {
    match n {
        RollNode::Num { value } => fmt_num(*value),
        RollNode::Pool(p) => {
            let dice: Vec<String> = p.dice.iter().map(|d| die(d, paint)).collect();
            format!("{} ({})", p.notation, dice.join(", "))
        }
        RollNode::Group(g) => {
            let items: Vec<String> = g
                .items
                .iter()
                .map(|i| {
                    let v = fmt_num(i.node.value());
                    if i.kept {
                        v
                    } else {
                        paint.paint(Role::Dropped, &v)
                    }
                })
                .collect();
            format!("{} ({})", g.notation, items.join(", "))
        }
        RollNode::Unary { op, operand, .. } => format!("{op}{}", node(operand, paint)),
        RollNode::Binary {
            op, left, right, ..
        } => {
            format!("{} {op} {}", node(left, paint), node(right, paint))
        }
        RollNode::Call { func, args, .. } => {
            let args: Vec<String> = args.iter().map(|a| node(a, paint)).collect();
            format!("{func}({})", args.join(", "))
        }
        RollNode::Labeled { label, inner, .. } => {
            format!(
                "{} {}",
                node(inner, paint),
                paint.paint(Role::Label, &format!("[{label}]"))
            )
        }
    }
}

fn die(d: &Die, paint: &dyn Paint) -> String {
    let mut text = d.value.to_string();
    if d.exploded {
        text = paint.paint(Role::Exploded, &format!("{text}!"));
    }
    if !d.kept {
        return paint.paint(Role::Dropped, &text);
    }
    if d.success {
        text = paint.paint(Role::Success, &text);
    } else if d.failure {
        text = paint.paint(Role::Failure, &text);
    }
    if d.rerolled {
        text = paint.paint(Role::Rerolled, &text);
    }
    text
}
