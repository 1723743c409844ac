//! What a roll produced: the total and every die behind it.
//!
//! A [`Roll`] keeps the whole tree of the expression with each die's value, whether it was
//! kept or dropped, exploded, rerolled, a success or a failure, and which source produced it,
//! so a breakdown can show exactly what happened. It serialises to JSON for `--json` and the
//! journal. Its notation (the whole expression's and each pool's) is written from the tree when
//! it is asked for, not while rolling.

use super::ast::{BinaryOp, Dice, Func, Group, UNARY_PRECEDENCE, UnaryOp, push_num};
use super::source::{Faces, SourceKind};
use super::text::{NotationText, Written};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The distinct dice sources of a roll, in order of first use. There are only three kinds, so
/// they are held in three bytes (a roll is moved about whole; it stays small). Serialised as
/// a list: `["queue", "rng"]`.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct Sources([Option<SourceKind>; 3]);

impl std::fmt::Debug for Sources {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Sources {
    /// No sources yet.
    pub const fn new() -> Self {
        Sources([None; 3])
    }

    /// Notes that a die came from `kind` (kept once, in order of first use).
    #[inline]
    pub fn note(&mut self, kind: SourceKind) {
        for slot in &mut self.0 {
            match slot {
                Some(k) if *k == kind => return,
                Some(_) => {}
                None => {
                    *slot = Some(kind);
                    return;
                }
            }
        }
    }

    /// Whether a die came from `kind`.
    pub fn contains(&self, kind: SourceKind) -> bool {
        self.0.contains(&Some(kind))
    }

    /// The sources, in order of first use.
    pub fn iter(&self) -> impl Iterator<Item = SourceKind> + '_ {
        self.0.iter().map_while(|k| *k)
    }

    /// Whether no die was rolled.
    pub fn is_empty(&self) -> bool {
        self.0[0].is_none()
    }
}

impl Serialize for Sources {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for Sources {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let mut out = Sources::new();
        for kind in Vec::<SourceKind>::deserialize(d)? {
            out.note(kind);
        }
        Ok(out)
    }
}

/// The result of rolling one dice expression once.
///
/// Serialised with its expression in canonical notation first (`"expr"`), written from the
/// tree; reading one back ignores that field and writes it again from the tree.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Roll {
    /// The total.
    pub total: f64,
    /// The trailing comment, if one was written.
    #[serde(default)]
    pub comment: Option<Box<str>>,
    /// The sources that produced the dice, in order of first use (empty if no dice).
    pub sources: Sources,
    /// The evaluated expression tree.
    pub tree: RollNode,
    /// Who rolled it, when the rules said (`c:roll(…, by)` with a unit, command or side):
    /// its id. Reports split the dice by side with it.
    #[serde(default)]
    pub by: Option<Box<str>>,
}

impl Roll {
    /// The expression in canonical notation (`2d20kl1 + 5`), written from the tree.
    pub fn expr(&self) -> NotationText {
        let mut out = NotationText::new();
        self.tree.write_notation(&mut out, 0);
        out
    }

    /// Every die in the roll, in the order they were rolled.
    pub fn dice(&self) -> Vec<&Die> {
        let mut out = Vec::new();
        self.tree.collect_dice(&mut out);
        out
    }

    /// Whether a pool or group of the roll counts successes or failures (`5d6>=4`), so that
    /// none counted is an answer, not a roll that counts none.
    pub fn counts_successes(&self) -> bool {
        fn counts(node: &RollNode) -> bool {
            match node {
                RollNode::Num { .. } => false,
                RollNode::Pool(p) => p.successes.is_some() || p.failures.is_some(),
                RollNode::Group(g) => {
                    g.successes.is_some()
                        || g.failures.is_some()
                        || g.items.iter().any(|i| counts(&i.node))
                }
                RollNode::Unary { operand, .. } => counts(operand),
                RollNode::Binary { operands, .. } => {
                    counts(&operands.left) || counts(&operands.right)
                }
                RollNode::Call { args, .. } => args.iter().any(counts),
                RollNode::Labeled { inner, .. } => counts(inner),
            }
        }
        counts(&self.tree)
    }
}

impl Serialize for Roll {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        /// The serialised shape: the expression's text, then the fields.
        #[derive(Serialize)]
        struct Shape<'a> {
            expr: NotationText,
            total: f64,
            #[serde(skip_serializing_if = "Option::is_none")]
            comment: &'a Option<Box<str>>,
            sources: &'a Sources,
            tree: &'a RollNode,
            #[serde(skip_serializing_if = "Option::is_none")]
            by: &'a Option<Box<str>>,
        }
        Shape {
            expr: self.expr(),
            total: self.total,
            comment: &self.comment,
            sources: &self.sources,
            tree: &self.tree,
            by: &self.by,
        }
        .serialize(s)
    }
}

/// One evaluated node; every variant carries its value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RollNode {
    /// A number as written.
    Num {
        /// The number.
        value: f64,
    },
    /// A pool of dice.
    Pool(PoolRoll),
    /// A group or set.
    Group(GroupRoll),
    /// A prefix operator.
    Unary {
        /// `-` or `+` (serialised as the symbol).
        #[serde(with = "unary_symbol")]
        op: UnaryOp,
        /// The result.
        value: f64,
        /// The operand.
        operand: Box<RollNode>,
    },
    /// A binary operator.
    Binary {
        /// The operator (serialised as its canonical symbol: `+`, `//`, `>=`…).
        #[serde(with = "binary_symbol")]
        op: BinaryOp,
        /// The result.
        value: f64,
        /// The operands, in one allocation (serialised as `left` and `right`).
        #[serde(flatten)]
        operands: Box<Operands>,
    },
    /// A function call.
    Call {
        /// The function (serialised as its name).
        #[serde(with = "func_name")]
        func: Func,
        /// The result.
        value: f64,
        /// The arguments.
        args: Vec<RollNode>,
    },
    /// A labelled term.
    Labeled {
        /// The label text.
        label: String,
        /// The value of the term.
        value: f64,
        /// The term.
        inner: Box<RollNode>,
    },
}

/// The two operands of a [`RollNode::Binary`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Operands {
    /// Left operand.
    pub left: RollNode,
    /// Right operand.
    pub right: RollNode,
}

impl RollNode {
    /// The value of this node.
    pub fn value(&self) -> f64 {
        match self {
            RollNode::Num { value }
            | RollNode::Unary { value, .. }
            | RollNode::Binary { value, .. }
            | RollNode::Call { value, .. }
            | RollNode::Labeled { value, .. } => *value,
            RollNode::Pool(p) => p.value,
            RollNode::Group(g) => g.value,
        }
    }

    /// Appends every die under this node to `out`.
    pub fn collect_dice<'a>(&'a self, out: &mut Vec<&'a Die>) {
        match self {
            RollNode::Num { .. } => {}
            RollNode::Pool(p) => out.extend(p.dice.iter()),
            RollNode::Group(g) => g.items.iter().for_each(|i| i.node.collect_dice(out)),
            RollNode::Unary { operand, .. } => operand.collect_dice(out),
            RollNode::Binary { operands, .. } => {
                operands.left.collect_dice(out);
                operands.right.collect_dice(out);
            }
            RollNode::Call { args, .. } => args.iter().for_each(|a| a.collect_dice(out)),
            RollNode::Labeled { inner, .. } => inner.collect_dice(out),
        }
    }

    /// The binding strength of this node when printed, as [`Expr`](super::Expr)'s.
    pub fn precedence(&self) -> u8 {
        match self {
            RollNode::Binary { op, .. } => op.precedence(),
            RollNode::Unary { .. } => UNARY_PRECEDENCE,
            RollNode::Labeled { .. } => 6,
            RollNode::Num { value } if *value < 0.0 => UNARY_PRECEDENCE,
            _ => u8::MAX,
        }
    }

    /// Appends the canonical notation of the expression this node was rolled from (the same
    /// text as the expression's own `Display`), in parentheses if it binds looser than `min`.
    pub fn write_notation(&self, out: &mut NotationText, min: u8) {
        let parens = self.precedence() < min;
        if parens {
            out.push('(');
        }
        match self {
            RollNode::Num { value } => push_num(out, *value),
            RollNode::Pool(p) => p.notation.write_to(out),
            RollNode::Group(g) => g.notation.write_to(out),
            RollNode::Unary { op, operand, .. } => {
                out.push_str(op.symbol());
                operand.write_notation(out, UNARY_PRECEDENCE);
            }
            RollNode::Binary { op, operands, .. } => {
                let (lmin, rmin) = op.child_precedence();
                operands.left.write_notation(out, lmin);
                out.push(' ');
                out.push_str(op.symbol());
                out.push(' ');
                operands.right.write_notation(out, rmin);
            }
            RollNode::Call { func, args, .. } => {
                out.push_str(func.name());
                out.push('(');
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    a.write_notation(out, 0);
                }
                out.push(')');
            }
            RollNode::Labeled { label, inner, .. } => {
                inner.write_notation(out, 6);
                out.push_str(" [");
                out.push_str(label);
                out.push(']');
            }
        }
        if parens {
            out.push(')');
        }
    }
}

/// Serde helpers for `serde(with)`: an operator or function written as its name (or symbol) and
/// read back from it.
macro_rules! by_name {
    ($module:ident, $ty:ty, $name:ident, $from:path, $what:literal) => {
        mod $module {
            use super::*;

            pub fn serialize<S: Serializer>(x: &$ty, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(x.$name())
            }

            pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<$ty, D::Error> {
                let name = String::deserialize(d)?;
                $from(&name).ok_or_else(|| {
                    serde::de::Error::custom(format!(concat!("unknown ", $what, " `{}`"), name))
                })
            }
        }
    };
}

by_name!(
    unary_symbol,
    UnaryOp,
    symbol,
    UnaryOp::from_symbol,
    "prefix operator"
);
by_name!(
    binary_symbol,
    BinaryOp,
    symbol,
    BinaryOp::from_symbol,
    "operator"
);
by_name!(func_name, Func, name, Func::from_name, "function");

/// A rolled pool of dice.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PoolRoll {
    /// The pool as written canonically (`4d6kh3`; serialised as that text).
    pub notation: Written<Dice>,
    /// The die (serialised as `"d6"`, `"dF"`, `"d100"`).
    pub die: Faces,
    /// Every die, in the order shown (rolled order, or sorted when the pool asks for it).
    pub dice: Vec<Die>,
    /// The pool's value: the sum of the kept dice, or successes minus failures.
    pub value: f64,
    /// Successes counted, when the pool counts successes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub successes: Option<u32>,
    /// Failures counted, when the pool counts failures.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failures: Option<u32>,
    /// The rolls that worked out the pool's count, size or a keep/drop count written as an
    /// expression (the `1d4` of `(1d4)d6`), in the order rolled; none for written numbers
    /// (boxed: rare, and a roll moves faster without the room for it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[allow(clippy::box_collection)] // a thin pointer: the node stays small
    pub computed: Option<Box<Vec<RollNode>>>,
}

/// A critical marker for display.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Critical {
    /// Matched the `cs` compare point (or the highest face, for display, when none is given).
    Success,
    /// Matched the `cf` compare point (or the lowest face).
    Failure,
}

/// One die as it ended up.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Die {
    /// The value it counts as (after compounding, penetration and clamping).
    pub value: i64,
    /// Whether it counts towards the total.
    pub kept: bool,
    /// It exploded: another die (or compounded roll) followed it.
    #[serde(default, skip_serializing_if = "is_false")]
    pub exploded: bool,
    /// It was added by an explosion or by `ra`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub extra: bool,
    /// It was clamped by `min`/`max`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub clamped: bool,
    /// It counts as a success.
    #[serde(default, skip_serializing_if = "is_false")]
    pub success: bool,
    /// It counts as a failure.
    #[serde(default, skip_serializing_if = "is_false")]
    pub failure: bool,
    /// A critical marker for display.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub critical: Option<Critical>,
    /// Which source produced its last face.
    pub source: SourceKind,
    /// Earlier faces, for a die that was rerolled or compounded (boxed and absent for the
    /// plain dice that make up nearly every roll; flattened into the die in JSON).
    #[serde(
        flatten,
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "history_if_any"
    )]
    pub history: Option<Box<DieHistory>>,
}

/// The faces behind a die that was rerolled or compounded.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DieHistory {
    /// Faces rolled for this die and rerolled away, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rerolled: Vec<i64>,
    /// For a compounding die, every roll added into it, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<i64>,
}

impl Die {
    /// [`Die::flags`]: it counts towards the total.
    pub const KEPT: u16 = 1;
    /// [`Die::flags`]: it counts as a success.
    pub const SUCCESS: u16 = 2;
    /// [`Die::flags`]: it counts as a failure.
    pub const FAILURE: u16 = 4;
    /// [`Die::flags`]: it exploded.
    pub const EXPLODED: u16 = 8;
    /// [`Die::flags`]: an explosion or `ra` added it.
    pub const EXTRA: u16 = 16;
    /// [`Die::flags`]: faces were rerolled away before it.
    pub const REROLLED: u16 = 32;
    /// [`Die::flags`]: `min`/`max` clamped it.
    pub const CLAMPED: u16 = 64;
    /// [`Die::flags`]: marked a critical success.
    pub const CRIT_SUCCESS: u16 = 128;
    /// [`Die::flags`]: marked a critical failure.
    pub const CRIT_FAILURE: u16 = 256;
    /// [`Die::flags`]: it compounded (rolls added into it).
    pub const COMPOUNDED: u16 = 512;

    /// What the die did, as bits ([`Die::KEPT`], [`Die::SUCCESS`], …): how the Lua host
    /// hands a die to scripts in one number. A plain kept die is just [`Die::KEPT`].
    pub fn flags(&self) -> u16 {
        let mut f = 0;
        for (on, bit) in [
            (self.kept, Self::KEPT),
            (self.success, Self::SUCCESS),
            (self.failure, Self::FAILURE),
            (self.exploded, Self::EXPLODED),
            (self.extra, Self::EXTRA),
            (!self.rerolled().is_empty(), Self::REROLLED),
            (self.clamped, Self::CLAMPED),
            (self.critical == Some(Critical::Success), Self::CRIT_SUCCESS),
            (self.critical == Some(Critical::Failure), Self::CRIT_FAILURE),
            (!self.parts().is_empty(), Self::COMPOUNDED),
        ] {
            if on {
                f |= bit;
            }
        }
        f
    }

    /// A plain die showing `value`, kept.
    pub fn new(value: i64, source: SourceKind) -> Self {
        Die {
            value,
            kept: true,
            exploded: false,
            extra: false,
            clamped: false,
            success: false,
            failure: false,
            critical: None,
            source,
            history: None,
        }
    }

    /// Faces rerolled away (empty if none).
    pub fn rerolled(&self) -> &[i64] {
        self.history.as_ref().map_or(&[], |h| &h.rerolled)
    }

    /// Compounded parts (empty if none).
    pub fn parts(&self) -> &[i64] {
        self.history.as_ref().map_or(&[], |h| &h.parts)
    }

    /// The history, created on first use.
    pub fn history_mut(&mut self) -> &mut DieHistory {
        self.history.get_or_insert_with(Default::default)
    }
}

/// A die's history read back from JSON: `None` when the die had no earlier faces, as when it
/// was rolled.
fn history_if_any<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Box<DieHistory>>, D::Error> {
    let h = DieHistory::deserialize(d)?;
    Ok((!h.rerolled.is_empty() || !h.parts.is_empty()).then(|| Box::new(h)))
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// A rolled group or set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroupRoll {
    /// The group as written canonically (serialised as that text).
    pub notation: Written<Group>,
    /// The items.
    pub items: Vec<GroupItem>,
    /// The group's value: the sum of the kept items, or successes minus failures.
    pub value: f64,
    /// Successes counted, when the group counts successes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub successes: Option<u32>,
    /// Failures counted, when the group counts failures.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failures: Option<u32>,
    /// The rolls that worked out a keep/drop count written as an expression
    /// (`{3d6, 2d8}k(1d2)`), in the order rolled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[allow(clippy::box_collection)] // a thin pointer: the node stays small
    pub computed: Option<Box<Vec<RollNode>>>,
}

/// One item of a group.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroupItem {
    /// The evaluated item.
    pub node: RollNode,
    /// Whether it counts towards the group.
    pub kept: bool,
    /// It counts as a success.
    #[serde(default, skip_serializing_if = "is_false")]
    pub success: bool,
    /// It counts as a failure.
    #[serde(default, skip_serializing_if = "is_false")]
    pub failure: bool,
}
