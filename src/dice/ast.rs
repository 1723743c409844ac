//! The dice expression tree: what the parser produces, the roller evaluates and the exact
//! engine turns into a distribution.
//!
//! `Display` prints every node back in canonical notation, so that
//! `parse(&e.to_string()) == e` for every expression the parser accepts (a property test
//! holds the parser to it). Parentheses are not kept as nodes: `Display` adds them where
//! precedence needs them.

use std::fmt;
use std::sync::Arc;

use super::text::NotationText;

/// A whole dice request as typed: an optional repeat count, the expression, and an optional
/// trailing comment (`# to hit`, `// fire`, `/* … */`).
#[derive(Debug, Clone, PartialEq)]
pub struct DiceExpr {
    /// `6x 4d6kh3` rolls the expression six times and lists the results; `None` rolls once.
    pub repeat: Option<u32>,
    /// The expression itself.
    pub expr: Expr,
    /// A trailing comment, without its delimiters and trimmed.
    pub comment: Option<String>,
}

/// One node of a dice expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// A number literal: `3`, `2.5`, `.5`.
    Num(f64),
    /// A pool of dice with its modifiers: `4d6kh3`, `10d10!>=9`. Shared, so that each
    /// rolled pool can point back at it for its notation instead of writing it out.
    Dice(Arc<Dice>),
    /// A group `{2d6, 1d8+2}kh1` or a set `(1, 2, 3)k1`: several sub-expressions treated as one
    /// pool by their modifiers. Shared like [`Expr::Dice`].
    Group(Arc<Group>),
    /// A prefix operator: `-3d6`, `+2`.
    Unary(UnaryOp, Box<Expr>),
    /// A binary operator: arithmetic or comparison, with its left and right operands (in one
    /// allocation).
    Binary(BinaryOp, Box<[Expr; 2]>),
    /// A function call: `floor(4d6/3)`, `max(1d6, 1d6)`.
    Call(Func, Vec<Expr>),
    /// A label attached to a term: `1d20+5 [attack]`, `9[fire]`. Labels are shown in the
    /// breakdown and change nothing.
    Labeled(Box<Expr>, String),
}

/// A prefix operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// `-x`.
    Neg,
    /// `+x` (no effect, accepted because people write it).
    Plus,
}

/// A binary operator, arithmetic or comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    /// `+`.
    Add,
    /// `-`.
    Sub,
    /// `*`.
    Mul,
    /// `/`: exact division (`15 / 2` is `7.5`); round with `floor`, `round` or `ceil`.
    Div,
    /// `//`: division rounded down (towards minus infinity).
    FloorDiv,
    /// `%`: remainder with the sign of the divisor (`-7 % 3` is `2`).
    Rem,
    /// `^` or `**`: power, right-associative.
    Pow,
    /// A comparison of two totals, giving 1 when true and 0 when false: `1 + 2 == 3`.
    Cmp(CmpOp),
}

impl BinaryOp {
    /// Binding strength: higher binds tighter. Comparisons 1, `+ -` 2, `* / // %` 3, `^` 5
    /// (unary operators sit at 4, between them).
    pub fn precedence(self) -> u8 {
        match self {
            BinaryOp::Cmp(_) => 1,
            BinaryOp::Add | BinaryOp::Sub => 2,
            BinaryOp::Mul | BinaryOp::Div | BinaryOp::FloorDiv | BinaryOp::Rem => 3,
            BinaryOp::Pow => 5,
        }
    }

    /// The least binding strength the left and right operands need to print without
    /// parentheses.
    pub(crate) fn child_precedence(self) -> (u8, u8) {
        let p = self.precedence();
        // Left-associative operators need parentheses on the right at equal precedence; `^` is
        // right-associative, so the other way round. Comparisons do not chain.
        match self {
            BinaryOp::Pow => (p + 1, p),
            BinaryOp::Cmp(_) => (p + 1, p + 1),
            _ => (p, p + 1),
        }
    }

    /// The canonical spelling.
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::FloorDiv => "//",
            BinaryOp::Rem => "%",
            BinaryOp::Pow => "^",
            BinaryOp::Cmp(CmpOp::Eq) => "==",
            BinaryOp::Cmp(CmpOp::Ne) => "!=",
            BinaryOp::Cmp(op) => op.symbol(),
        }
    }
}

impl BinaryOp {
    /// Every operator, for looking one up by its symbol.
    pub const ALL: [BinaryOp; 13] = [
        BinaryOp::Add,
        BinaryOp::Sub,
        BinaryOp::Mul,
        BinaryOp::Div,
        BinaryOp::FloorDiv,
        BinaryOp::Rem,
        BinaryOp::Pow,
        BinaryOp::Cmp(CmpOp::Eq),
        BinaryOp::Cmp(CmpOp::Ne),
        BinaryOp::Cmp(CmpOp::Lt),
        BinaryOp::Cmp(CmpOp::Le),
        BinaryOp::Cmp(CmpOp::Gt),
        BinaryOp::Cmp(CmpOp::Ge),
    ];

    /// The operator with this canonical spelling ([`BinaryOp::symbol`]).
    pub fn from_symbol(symbol: &str) -> Option<BinaryOp> {
        BinaryOp::ALL.into_iter().find(|op| op.symbol() == symbol)
    }
}

impl UnaryOp {
    /// The spelling: `-` or `+`.
    pub fn symbol(self) -> &'static str {
        match self {
            UnaryOp::Neg => "-",
            UnaryOp::Plus => "+",
        }
    }

    /// The operator spelt `symbol`.
    pub fn from_symbol(symbol: &str) -> Option<UnaryOp> {
        match symbol {
            "-" => Some(UnaryOp::Neg),
            "+" => Some(UnaryOp::Plus),
            _ => None,
        }
    }
}

/// Precedence of prefix operators (see [`BinaryOp::precedence`]).
pub const UNARY_PRECEDENCE: u8 = 4;

/// A comparison operator, used in compare points (`!>=5`, `r<3`, `>=8`) and between totals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CmpOp {
    /// `=` (or `==` between totals).
    Eq,
    /// `!=` or `<>`.
    Ne,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
}

impl CmpOp {
    /// The canonical spelling in a compare point (`=` for equality, `<>` for inequality).
    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Eq => "=",
            // `!=` right after a pool means "explode on", so a compare point spells it `<>`.
            CmpOp::Ne => "<>",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }

    /// Whether `lhs OP rhs` holds.
    pub fn holds(self, lhs: f64, rhs: f64) -> bool {
        match self {
            CmpOp::Eq => lhs == rhs,
            CmpOp::Ne => lhs != rhs,
            CmpOp::Lt => lhs < rhs,
            CmpOp::Le => lhs <= rhs,
            CmpOp::Gt => lhs > rhs,
            CmpOp::Ge => lhs >= rhs,
        }
    }
}

/// A compare point: an operator and a value, as in `>=5`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Compare {
    /// The operator.
    pub op: CmpOp,
    /// The value compared against.
    pub value: f64,
}

impl Compare {
    /// A compare point `OP value`.
    pub fn new(op: CmpOp, value: f64) -> Self {
        Compare { op, value }
    }

    /// Whether `x` matches this compare point.
    pub fn matches(&self, x: f64) -> bool {
        self.op.holds(x, self.value)
    }

    /// The whole numbers this compare point matches, for testing many faces quickly.
    pub fn whole(self) -> WholeMatch {
        WholeMatch::of(self)
    }
}

/// A compare point read as a range of whole numbers (`>=8` is 8 and up, `<>3` is all but 3),
/// tested with two integer comparisons instead of a float comparison per die. Exact for every
/// number a face can show (within ±10^15, far beyond the cap on sides).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WholeMatch {
    lo: i64,
    hi: i64,
    /// Matches outside `lo..=hi` instead of inside (`<>` and `!=`).
    outside: bool,
}

impl WholeMatch {
    /// The whole numbers `c` matches.
    pub fn of(c: Compare) -> WholeMatch {
        // Bounds beyond every face match all faces or none, as infinities do.
        let v = c.value.clamp(-1e16, 1e16);
        if v.is_nan() {
            // Nothing equals NaN; everything differs from it.
            return WholeMatch::NONE.unless(c.op == CmpOp::Ne);
        }
        // Saturating conversions: a bound beyond every face matches all or none of them.
        let (lo, hi, outside) = match c.op {
            CmpOp::Ge => (v.ceil() as i64, i64::MAX, false),
            CmpOp::Gt => ((v.floor() as i64).saturating_add(1), i64::MAX, false),
            CmpOp::Le => (i64::MIN, v.floor() as i64, false),
            CmpOp::Lt => (i64::MIN, (v.ceil() as i64).saturating_sub(1), false),
            CmpOp::Eq | CmpOp::Ne => {
                let outside = c.op == CmpOp::Ne;
                if v.fract() != 0.0 {
                    // No whole number equals it.
                    return WholeMatch::NONE.unless(outside);
                }
                (v as i64, v as i64, outside)
            }
        };
        WholeMatch { lo, hi, outside }
    }

    /// Matches no number (an empty range is written as everything, turned inside out).
    const NONE: WholeMatch = WholeMatch {
        lo: i64::MIN,
        hi: i64::MAX,
        outside: true,
    };

    /// This, or its opposite when `flip`.
    fn unless(self, flip: bool) -> WholeMatch {
        WholeMatch {
            outside: self.outside != flip,
            ..self
        }
    }

    /// Whether every whole number from `from` to `to` (`from <= to`) matches, without
    /// visiting them (a die may have ten billion faces).
    pub fn holds_for_all(self, from: i64, to: i64) -> bool {
        if self.outside {
            to < self.lo || from > self.hi
        } else {
            self.lo <= from && to <= self.hi
        }
    }

    /// Whether face `x` matches: one unsigned comparison (`lo <= x <= hi` without a branch).
    #[inline]
    pub fn holds(self, x: i64) -> bool {
        let inside = x.wrapping_sub(self.lo) as u64 <= self.hi.wrapping_sub(self.lo) as u64;
        inside != self.outside
    }
}

/// A function that can be called in an expression.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Func {
    /// `floor(x)`: round down (towards minus infinity).
    Floor,
    /// `ceil(x)`: round up (towards plus infinity).
    Ceil,
    /// `round(x)`: round to the nearest whole number, halves up (`2.5` → 3, `-2.5` → -2).
    Round,
    /// `trunc(x)`: drop the fraction (towards zero).
    Trunc,
    /// `abs(x)`.
    Abs,
    /// `sign(x)`: -1, 0 or 1.
    Sign,
    /// `sqrt(x)`.
    Sqrt,
    /// `exp(x)`.
    Exp,
    /// `log(x)`: natural logarithm.
    Log,
    /// `sin(x)`, radians.
    Sin,
    /// `cos(x)`, radians.
    Cos,
    /// `tan(x)`, radians.
    Tan,
    /// `min(a, b, …)`: the smallest argument.
    Min,
    /// `max(a, b, …)`: the largest argument.
    Max,
    /// `pow(x, y)`: same as `x ^ y`.
    Pow,
}

impl Func {
    /// Every function, for completion and error suggestions.
    pub const ALL: [Func; 15] = [
        Func::Floor,
        Func::Ceil,
        Func::Round,
        Func::Trunc,
        Func::Abs,
        Func::Sign,
        Func::Sqrt,
        Func::Exp,
        Func::Log,
        Func::Sin,
        Func::Cos,
        Func::Tan,
        Func::Min,
        Func::Max,
        Func::Pow,
    ];

    /// The name as written.
    pub fn name(self) -> &'static str {
        match self {
            Func::Floor => "floor",
            Func::Ceil => "ceil",
            Func::Round => "round",
            Func::Trunc => "trunc",
            Func::Abs => "abs",
            Func::Sign => "sign",
            Func::Sqrt => "sqrt",
            Func::Exp => "exp",
            Func::Log => "log",
            Func::Sin => "sin",
            Func::Cos => "cos",
            Func::Tan => "tan",
            Func::Min => "min",
            Func::Max => "max",
            Func::Pow => "pow",
        }
    }

    /// Looks a function up by name.
    pub fn from_name(name: &str) -> Option<Func> {
        Func::ALL.into_iter().find(|f| f.name() == name)
    }

    /// How many arguments the function takes: `(min, max)`, `max == None` for any number.
    pub fn arity(self) -> (usize, Option<usize>) {
        match self {
            Func::Min | Func::Max => (2, None),
            Func::Pow => (2, Some(2)),
            _ => (1, Some(1)),
        }
    }
}

/// The kind of die in a pool.
#[derive(Debug, Clone, PartialEq)]
pub enum Sides {
    /// `dN` with a written number of sides.
    Number(u64),
    /// `d(expr)`: sides computed from an expression, rounded down.
    Expr(Box<Expr>),
    /// `d%`: a hundred-sided die, 1 to 100.
    Percent,
    /// `dF` / `dF.2` (faces −1, −1, 0, 0, +1, +1) and `dF.1` (faces −1, 0, 0, 0, 0, +1).
    Fudge(FudgeKind),
}

/// The two common fudge dice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FudgeKind {
    /// `dF.1`: one minus, four blanks, one plus.
    One,
    /// `dF` or `dF.2`: two of each.
    Two,
}

/// A count that is either written as a number or computed: `3d6`, `(1+2)d6`, `kh(1d4)`.
#[derive(Debug, Clone, PartialEq)]
pub enum Count {
    /// A written whole number.
    Number(u64),
    /// A parenthesised expression, rounded down when rolled.
    Expr(Box<Expr>),
}

/// The modifiers of a pool or group, in canonical order. Nearly every pool has at most two, and
/// those are kept inline (no heap allocation).
pub type Modifiers = smallvec::SmallVec<[Modifier; 2]>;

/// A pool of dice: count, sides and modifiers.
#[derive(Debug, Clone, PartialEq)]
pub struct Dice {
    /// How many dice (`None` when omitted, as in `d20`: one die).
    pub count: Option<Count>,
    /// What kind of die.
    pub sides: Sides,
    /// Modifiers in the order written. They are applied in a fixed order of stages
    /// whatever order they are written in (see `GRAMMAR.md`).
    pub mods: Modifiers,
}

/// A group `{a, b}` or a set `(a, b)` and the modifiers applied over it.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    /// Which brackets were used (they print back the same way).
    pub brackets: Brackets,
    /// The sub-expressions.
    pub items: Vec<Expr>,
    /// Modifiers over the group: keep/drop, success counting, sorting.
    pub mods: Modifiers,
}

/// The brackets of a group. Both behave the same: with a single item that rolls dice,
/// keep/drop act on those dice; otherwise they act on the items' totals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Brackets {
    /// `{a, b}` (rpg-dice-roller's roll groups).
    Braces,
    /// `(a, b)`, `(a,)`, or `(a)` followed by keep/drop or sort (d20's sets).
    Parens,
}

/// How an exploding die rolls again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ExplodeKind {
    /// `!`: each extra roll is a new die in the pool.
    Standard,
    /// `!!`: extra rolls are added into the die that exploded.
    Compound,
    /// `!p`: like `!`, but each extra roll counts one less.
    Penetrate,
    /// `!!p`: compounding and penetrating.
    CompoundPenetrate,
}

/// How rerolls work.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RerollKind {
    /// `r`: reroll until the condition no longer holds.
    Until,
    /// `ro`: reroll once, keep the new result.
    Once,
    /// `ra`: roll one extra die for the first die that matches, and add it.
    Add,
}

/// Whether a keep/drop modifier keeps or drops.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KeepDrop {
    /// `k…`.
    Keep,
    /// `d…` (or `p…`).
    Drop,
}

/// Which dice a keep/drop modifier selects.
#[derive(Debug, Clone, PartialEq)]
pub enum Selector {
    /// The highest N (`kh3`, `k3`, `dh1`).
    Highest(Count),
    /// The lowest N (`kl1`, `dl1`, `d1`).
    Lowest(Count),
    /// Every die matching a compare point (`k>3`, `p<2`).
    Matching(Compare),
}

/// Sort order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SortOrder {
    /// `s` or `sa`.
    Ascending,
    /// `sd`.
    Descending,
}

/// A modifier on a pool of dice or on a group.
#[derive(Debug, Clone, PartialEq)]
pub enum Modifier {
    /// `min3`: a die showing less than 3 counts as 3.
    Min(i64),
    /// `max6`: a die showing more than 6 counts as 6.
    Max(i64),
    /// Explode (`!`, `!!`, `!p`, `!!p`, `e6`), on the highest face unless a compare point is
    /// given, at most `limit` times per die (`!x3`) or the engine's cap.
    Explode {
        /// How the extra rolls combine.
        kind: ExplodeKind,
        /// When a die explodes (`None`: on its highest face).
        on: Option<Compare>,
        /// At most this many extra rolls per die.
        limit: Option<u32>,
    },
    /// Reroll (`r`, `ro`, `ra`; `rr` is read as `r`), on the lowest face unless a compare point
    /// is given.
    Reroll {
        /// Until, once, or roll-and-add.
        kind: RerollKind,
        /// Which results are rerolled (`None`: the lowest face).
        on: Option<Compare>,
    },
    /// `u`, `uo`: reroll duplicates (only those matching `on`, if given) until unique, or once.
    Unique {
        /// Reroll a duplicate once only.
        once: bool,
        /// Only values matching this compare point must be unique.
        on: Option<Compare>,
    },
    /// Keep or drop a selection of dice.
    KeepDrop(KeepDrop, Selector),
    /// Count successes (`>=8`) and, optionally, failures (`f<=1`): the result is successes
    /// minus failures.
    Target {
        /// What counts as a success.
        success: Compare,
        /// What counts as a failure.
        failure: Option<Compare>,
    },
    /// `cs>=19`: mark critical successes in the display (no effect on the total).
    CritSuccess(Compare),
    /// `cf<=1`: mark critical failures in the display (no effect on the total).
    CritFailure(Compare),
    /// `s`, `sa`, `sd`: show the dice sorted.
    Sort(SortOrder),
}

// ---------------------------------------------------------------------------------------------
// Canonical notation. Written straight into a `NotationText` (rolling writes the notation of
// every pool, so this is on the hot path; the text stays inline, without allocating, when it is
// short); `Display` goes through the same code.

/// Formats a number the way it is written in notation: whole numbers without a decimal point.
pub fn fmt_num(x: f64) -> String {
    let mut s = NotationText::new();
    push_num(&mut s, x);
    s.into()
}

/// Appends a number as [`fmt_num`] formats it.
pub fn push_num(out: &mut NotationText, x: f64) {
    // `x as i64 as f64 == x` is `x.fract() == 0.0` for every |x| < 1e16 (and false for NaN),
    // without the call.
    if x.abs() < 1e16 && (x as i64) as f64 == x {
        push_int(out, x as i64);
    } else {
        use fmt::Write;
        let _ = write!(out, "{x}");
    }
}

/// Appends a whole number: one or two digits directly (nearly all of them), others through
/// `itoa`.
#[inline]
fn push_int(out: &mut NotationText, n: impl itoa::Integer + TryInto<u8> + Copy) {
    match n.try_into() {
        Ok(d @ 0..=9) => out.push(char::from(b'0' + d)),
        Ok(d @ 10..=99) => {
            out.push(char::from(b'0' + d / 10));
            out.push(char::from(b'0' + d % 10));
        }
        _ => out.push_str(itoa::Buffer::new().format(n)),
    }
}

/// Writes a node's canonical notation.
pub trait Notation {
    /// Appends the canonical notation to `out`.
    fn write_notation(&self, out: &mut NotationText);

    /// The canonical notation as a new text.
    fn notation(&self) -> NotationText {
        let mut s = NotationText::new();
        self.write_notation(&mut s);
        s
    }
}

impl Notation for Compare {
    #[inline]
    fn write_notation(&self, out: &mut NotationText) {
        out.push_str(self.op.symbol());
        push_num(out, self.value);
    }
}

impl Notation for Count {
    #[inline]
    fn write_notation(&self, out: &mut NotationText) {
        match self {
            Count::Number(n) => push_int(out, *n),
            Count::Expr(e) => {
                out.push('(');
                e.write_notation(out);
                out.push(')');
            }
        }
    }
}

impl Notation for Sides {
    #[inline]
    fn write_notation(&self, out: &mut NotationText) {
        match self {
            Sides::Number(n) => push_int(out, *n),
            Sides::Expr(e) => {
                out.push('(');
                e.write_notation(out);
                out.push(')');
            }
            Sides::Percent => out.push('%'),
            Sides::Fudge(FudgeKind::Two) => out.push('F'),
            Sides::Fudge(FudgeKind::One) => out.push_str("F.1"),
        }
    }
}

impl Notation for Modifier {
    fn write_notation(&self, out: &mut NotationText) {
        match self {
            Modifier::Min(v) => {
                out.push_str("min");
                push_int(out, *v);
            }
            Modifier::Max(v) => {
                out.push_str("max");
                push_int(out, *v);
            }
            Modifier::Explode { kind, on, limit } => {
                out.push_str(match kind {
                    ExplodeKind::Standard => "!",
                    ExplodeKind::Compound => "!!",
                    ExplodeKind::Penetrate => "!p",
                    ExplodeKind::CompoundPenetrate => "!!p",
                });
                if let Some(c) = on {
                    c.write_notation(out);
                }
                if let Some(n) = limit {
                    out.push('x');
                    push_int(out, *n);
                }
            }
            Modifier::Reroll { kind, on } => {
                out.push_str(match kind {
                    RerollKind::Until => "r",
                    RerollKind::Once => "ro",
                    RerollKind::Add => "ra",
                });
                if let Some(c) = on {
                    c.write_notation(out);
                }
            }
            Modifier::Unique { once, on } => {
                out.push_str(if *once { "uo" } else { "u" });
                if let Some(c) = on {
                    c.write_notation(out);
                }
            }
            Modifier::KeepDrop(kd, sel) => {
                out.push(match kd {
                    KeepDrop::Keep => 'k',
                    KeepDrop::Drop => 'd',
                });
                match sel {
                    Selector::Highest(n) => {
                        out.push('h');
                        n.write_notation(out);
                    }
                    Selector::Lowest(n) => {
                        out.push('l');
                        n.write_notation(out);
                    }
                    Selector::Matching(c) => c.write_notation(out),
                }
            }
            Modifier::Target { success, failure } => {
                success.write_notation(out);
                if let Some(c) = failure {
                    out.push('f');
                    c.write_notation(out);
                }
            }
            Modifier::CritSuccess(c) => {
                out.push_str("cs");
                c.write_notation(out);
            }
            Modifier::CritFailure(c) => {
                out.push_str("cf");
                c.write_notation(out);
            }
            Modifier::Sort(SortOrder::Ascending) => out.push_str("sa"),
            Modifier::Sort(SortOrder::Descending) => out.push_str("sd"),
        }
    }
}

impl Notation for Dice {
    fn write_notation(&self, out: &mut NotationText) {
        if let Some(c) = &self.count {
            c.write_notation(out);
        }
        out.push('d');
        self.sides.write_notation(out);
        for m in &self.mods {
            m.write_notation(out);
        }
    }
}

impl Notation for Group {
    fn write_notation(&self, out: &mut NotationText) {
        let (open, close) = match self.brackets {
            Brackets::Braces => ('{', '}'),
            Brackets::Parens => ('(', ')'),
        };
        out.push(open);
        for (i, item) in self.items.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            item.write_notation(out);
        }
        // `(1,)` is a one-item set; without the comma it would read back as parentheses.
        if self.brackets == Brackets::Parens && self.items.len() == 1 {
            out.push(',');
        }
        out.push(close);
        for m in &self.mods {
            m.write_notation(out);
        }
    }
}

impl Expr {
    /// The binding strength of this node when printed (atoms bind tightest).
    pub(crate) fn precedence(&self) -> u8 {
        match self {
            Expr::Binary(op, ..) => op.precedence(),
            Expr::Unary(..) => UNARY_PRECEDENCE,
            // A label binds to the atom before it, tighter than `^`.
            Expr::Labeled(..) => 6,
            Expr::Num(x) if *x < 0.0 => UNARY_PRECEDENCE,
            _ => u8::MAX,
        }
    }

    /// Writes this node's notation, in parentheses if it binds looser than `min`.
    pub(crate) fn write_child(&self, out: &mut NotationText, min: u8) {
        if self.precedence() < min {
            out.push('(');
            self.write_notation(out);
            out.push(')');
        } else {
            self.write_notation(out);
        }
    }
}

impl Notation for Expr {
    fn write_notation(&self, out: &mut NotationText) {
        match self {
            Expr::Num(x) => push_num(out, *x),
            Expr::Dice(d) => d.write_notation(out),
            Expr::Group(g) => g.write_notation(out),
            Expr::Unary(op, e) => {
                out.push_str(op.symbol());
                // Prefix operators chain without parentheses (`--1`), so printing adds no
                // nesting the input did not have.
                e.write_child(out, UNARY_PRECEDENCE);
            }
            Expr::Binary(op, lr) => {
                let [l, r] = &**lr;
                let (lmin, rmin) = op.child_precedence();
                l.write_child(out, lmin);
                out.push(' ');
                out.push_str(op.symbol());
                out.push(' ');
                r.write_child(out, rmin);
            }
            Expr::Call(func, args) => {
                out.push_str(func.name());
                out.push('(');
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    a.write_notation(out);
                }
                out.push(')');
            }
            Expr::Labeled(e, label) => {
                e.write_child(out, 6);
                out.push_str(" [");
                out.push_str(label);
                out.push(']');
            }
        }
    }
}

impl Notation for DiceExpr {
    fn write_notation(&self, out: &mut NotationText) {
        if let Some(n) = self.repeat {
            push_int(out, n);
            out.push_str("x ");
        }
        self.expr.write_notation(out);
        if let Some(c) = &self.comment {
            out.push_str(" # ");
            out.push_str(c);
        }
    }
}

macro_rules! display_via_notation {
    ($($t:ty),*) => {$(
        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.notation())
            }
        }
    )*};
}

display_via_notation!(Compare, Count, Sides, Modifier, Dice, Group, Expr, DiceExpr);

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn op() -> impl Strategy<Value = CmpOp> {
        prop::sample::select(vec![
            CmpOp::Eq,
            CmpOp::Ne,
            CmpOp::Lt,
            CmpOp::Le,
            CmpOp::Gt,
            CmpOp::Ge,
        ])
    }

    proptest! {
        /// The whole-number test of a compare point matches exactly the faces the float test
        /// matches, for whole, fractional, huge and odd compare values (and faces out to the
        /// edge of the range it is exact for).
        #[test]
        fn whole_match_agrees_with_matches(
            op in op(),
            value in prop_oneof![
                (-30i64..30).prop_map(|v| v as f64),
                (-300i64..300).prop_map(|v| v as f64 / 10.0),
                Just(f64::NAN), Just(f64::INFINITY), Just(f64::NEG_INFINITY),
                Just(1e19), Just(-1e19), Just(0.0), Just(-0.0),
            ],
            x in prop_oneof![-40i64..40, Just(1_000_000_000_000_000), Just(-1_000_000_000_000_000)],
        ) {
            let c = Compare::new(op, value);
            prop_assert_eq!(c.whole().holds(x), c.matches(x as f64), "{:?} on {}", c, x);
        }
    }
}
