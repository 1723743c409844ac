//! Errors from parsing, checking, rolling and computing odds of dice expressions.
//!
//! Every error carries the span of the part of the expression it is about, so the shell can
//! draw a caret under it, and says how to fix the problem where there is a fix to suggest.

use crate::span::Span;
use thiserror::Error;

/// An error about a dice expression, with the span it points at.
#[derive(Debug, Clone, PartialEq, Error)]
#[error("{kind}")]
pub struct DiceError {
    /// What went wrong (boxed so that `Result<_, DiceError>` stays small on the hot path).
    pub kind: Box<DiceErrorKind>,
    /// Where in the expression (bytes).
    pub span: Span,
}

/// What went wrong with a dice expression. Messages are lowercase, quote the user's text in
/// backticks, and name the cap when a limit was hit.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum DiceErrorKind {
    /// The text does not follow the grammar.
    #[error("expected {expected}, found {found}")]
    Syntax {
        /// What the parser was looking for, in words.
        expected: String,
        /// What it found instead (`` `x` `` or `end of input`).
        found: String,
    },
    /// Text after a complete expression.
    #[error("unexpected {found} after the expression")]
    Trailing {
        /// The leftover text, quoted.
        found: String,
    },
    /// An empty expression.
    #[error("empty dice expression")]
    Empty,
    /// An unknown function name.
    #[error("unknown function `{name}`")]
    UnknownFunction {
        /// The name as written.
        name: String,
    },
    /// A function called with the wrong number of arguments.
    #[error("`{name}` takes {expected}, found {found}")]
    Arity {
        /// The function.
        name: &'static str,
        /// How many it takes, in words.
        expected: String,
        /// How many were given.
        found: usize,
    },
    /// A pool of zero dice.
    #[error("a roll needs at least one die, found {count}")]
    NoDice {
        /// The count as computed.
        count: String,
    },
    /// A keep/drop count below zero (computed while rolling: `kh(1d4-3)`).
    #[error("a keep/drop count cannot be below zero, found {count}")]
    NegativeKeepCount {
        /// The count as computed.
        count: String,
    },
    /// A die with fewer than one side.
    #[error("a die needs at least one side, found {sides}")]
    NoSides {
        /// The sides as computed.
        sides: String,
    },
    /// `dF.3` and the like.
    #[error("fudge dice are `dF`, `dF.1` or `dF.2`, found `dF.{found}`")]
    BadFudge {
        /// The variant as written.
        found: String,
    },
    /// More dice in one pool than allowed.
    #[error("too many dice: {count} (the cap is {cap} dice per pool)")]
    TooManyDice {
        /// The count asked for.
        count: String,
        /// The cap.
        cap: u64,
    },
    /// More sides than allowed.
    #[error("too many sides: {sides} (the cap is {cap})")]
    TooManySides {
        /// The sides asked for.
        sides: String,
        /// The cap.
        cap: u64,
    },
    /// More dice rolled in total (explosions and rerolls included) than allowed.
    #[error("the roll needs more than {cap} dice in all (explosions and rerolls included)")]
    TooManyRolls {
        /// The cap.
        cap: u64,
    },
    /// A reroll condition that kept matching for the whole reroll cap.
    #[error("a die was rerolled {cap} times and still matched `{condition}` (the reroll cap)")]
    RerollCap {
        /// The cap.
        cap: u32,
        /// The reroll condition.
        condition: String,
    },
    /// A written explosion limit above the cap.
    #[error("explosion limit {limit} is above the cap of {cap}")]
    ExplodeLimit {
        /// The limit written.
        limit: u64,
        /// The cap.
        cap: u32,
    },
    /// An explode condition that every face meets, so the die would never stop.
    #[error("`{modifier}` explodes on every face of a {die}, so the roll would never end")]
    AlwaysExplodes {
        /// The modifier as written.
        modifier: String,
        /// The die, as `d6`.
        die: String,
    },
    /// A reroll condition that every face meets.
    #[error("`{modifier}` rerolls every face of a {die}, so the roll would never end")]
    AlwaysRerolls {
        /// The modifier as written.
        modifier: String,
        /// The die, as `d6`.
        die: String,
    },
    /// `u` on more dice than the die has faces.
    #[error("{count} dice cannot all show different faces of a {die}")]
    ImpossibleUnique {
        /// How many dice.
        count: u64,
        /// The die.
        die: String,
    },
    /// The same kind of modifier twice where only one makes sense.
    #[error("`{second}` repeats `{first}`: a pool can have only one {what}")]
    DuplicateModifier {
        /// The first one.
        first: String,
        /// The repeat.
        second: String,
        /// What kind of modifier.
        what: &'static str,
    },
    /// A modifier that does not apply where it was written.
    #[error("`{modifier}` cannot be used on {on}")]
    MisplacedModifier {
        /// The modifier.
        modifier: String,
        /// What it was written on.
        on: &'static str,
    },
    /// Expression nested deeper than the cap.
    #[error("the expression is nested more than {cap} levels deep")]
    TooDeep {
        /// The cap.
        cap: usize,
    },
    /// Expression longer than the cap.
    #[error("the expression is {len} characters long (the cap is {cap})")]
    TooLong {
        /// Its length.
        len: usize,
        /// The cap.
        cap: usize,
    },
    /// Repeat count outside 1..=cap.
    #[error("repeat count {count} is out of range (1 to {cap})")]
    RepeatCount {
        /// The count written.
        count: String,
        /// The cap.
        cap: u32,
    },
    /// `x / 0`, `x // 0`, `x % 0`.
    #[error("division by zero")]
    DivisionByZero,
    /// A result too large to be exact, or not a number.
    #[error(
        "{what} is out of range: {value} (numbers are kept exact up to ±2^53, 9007199254740992)"
    )]
    OutOfRange {
        /// What was being computed.
        what: &'static str,
        /// The value, as text.
        value: String,
    },
    /// A die value (queued or entered) that the die cannot show.
    #[error("{value} is not a face of a {die}")]
    ImpossibleValue {
        /// The value given.
        value: i64,
        /// The die.
        die: String,
    },
    /// The next queued value (`dice queue`) is not a face of the die the roll needs; it
    /// stays queued.
    #[error("the next queued value, {value}, is not a face of a {die} (it stays queued)")]
    ImpossibleQueued {
        /// The value at the front of the queue.
        value: i64,
        /// The die.
        die: String,
    },
    /// The dice source gave up (entered dice cancelled with Ctrl-C, input closed).
    #[error("dice entry cancelled: {reason}")]
    SourceCancelled {
        /// Why.
        reason: String,
    },
    /// The exact engine does not handle this expression.
    #[error("exact odds are not supported for {what}")]
    Unsupported {
        /// What is not supported.
        what: String,
    },
    /// The exact engine would hold too many outcomes at once.
    #[error("exact odds would need more than {cap} outcomes ({what})")]
    TooManyOutcomes {
        /// What grew too large.
        what: String,
        /// The cap.
        cap: usize,
    },
    /// The exact engine would spend more than its budget of work.
    #[error(
        "exact odds would need more than {} steps of work ({what}; the cap on exact-odds work)",
        crate::numbers::thousands(*cap)
    )]
    TooMuchWork {
        /// What was being computed when the budget ran out.
        what: String,
        /// The cap, in steps.
        cap: u64,
    },
}

impl DiceError {
    /// An error of `kind` at `span`.
    pub fn new(kind: DiceErrorKind, span: Span) -> Self {
        DiceError {
            kind: Box::new(kind),
            span,
        }
    }

    /// A hint on how to fix the problem, when there is one to give.
    pub fn help(&self) -> Option<String> {
        use DiceErrorKind::*;
        Some(match &*self.kind {
            Syntax { expected, .. } if expected.contains("die size") => {
                "write the number of sides after `d`, as in `3d6`, `d%` or `4dF`".into()
            }
            Syntax { expected, .. } if expected.contains("count") => {
                "write how many dice, as in `4d6kh3` or `kh(1d4)`".into()
            }
            Syntax { .. } => "see `help dice` for the notation".into(),
            Trailing { found } if found.trim_start_matches('`').starts_with('=') => {
                "compare totals with `==`, as in `2d6 == 7` (a `=` right after a pool counts successes: `6d6=6`)".into()
            }
            Trailing { found }
                if found
                    .trim_start_matches('`')
                    .strip_prefix('x')
                    .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit() || c == 'd')) =>
            {
                "to repeat a roll, put a space after the `x`: `6x 4d6kh3`".into()
            }
            Trailing { .. } => {
                "join terms with an operator (`+ - * / // % ^`), or put a label in brackets: `1d20+5 [attack]`".into()
            }
            Empty => "try `roll 2d6` or `help dice`".into(),
            UnknownFunction { name } => match crate::dice::nearest_function(name) {
                Some(f) => format!("did you mean `{f}`?"),
                None => "functions are floor, ceil, round, trunc, abs, sign, sqrt, exp, log, sin, cos, tan, min, max, pow".into(),
            },
            BadFudge { .. } => "use `dF` (same as `dF.2`) or `dF.1`".into(),
            NoDice { .. } => "roll at least one die, as in `1d6`".into(),
            NegativeKeepCount { .. } => "keep or drop 0 dice or more, as in `kh(1d4)`".into(),
            NoSides { .. } => "a die has at least one side, as in `d6`".into(),
            AlwaysExplodes { .. } => "give a condition that some face fails, as in `!>=5`, or a limit, as in `!x3`".into(),
            AlwaysRerolls { .. } => "give a condition that some face fails, as in `r<3`".into(),
            ExplodeLimit { cap, .. } => format!("write a limit from 1 to {cap}, as in `!x5`"),
            DuplicateModifier { .. } => "remove one of them".into(),
            ImpossibleUnique { .. } => "use fewer dice or a bigger die, or `uo` to reroll duplicates once".into(),
            DivisionByZero => "a divisor of zero has no result; check the right-hand side".into(),
            TooManyDice { cap, .. } => format!("roll at most {cap} dice in one pool, or split it: `500d6 + 500d6`"),
            TooManySides { cap, .. } => format!("use a die of at most {cap} sides"),
            TooManyRolls { cap } => format!("use fewer dice, or limit explosions and rerolls (`!x3`, `ro`) to stay within {cap}"),
            RerollCap { .. } => "reroll once with `ro`, or give a condition fewer faces match".into(),
            TooDeep { .. } => "remove some brackets or split the roll in two".into(),
            TooLong { .. } => "split the roll in two, or use `Nx` to repeat it".into(),
            RepeatCount { cap, .. } => format!("repeat from 1 to {cap} times, as in `6x 4d6kh3`"),
            OutOfRange { .. } => "keep numbers and totals within ±9007199254740992".into(),
            MisplacedModifier { .. } => "see `help dice` for which modifiers go where".into(),
            ImpossibleValue { die, .. } => format!("give a value a {die} can show"),
            ImpossibleQueued { .. } => {
                "`dice queue drop` removes just that value, `dice queue clear` the whole queue"
                    .into()
            }
            TooManyOutcomes { .. } | TooMuchWork { .. } => {
                "ask about fewer dice, a smaller die or a lower explosion limit (`!x3`), or sample the odds: `roll 100x EXPR`".into()
            }
            Unsupported { .. } => {
                "`roll` still works; for odds, simplify the expression, or sample: `roll 100x EXPR`".into()
            }
            _ => return None,
        })
    }

    /// The full message for a person: the error, the caret snippet under `source`, and the
    /// hint. Without colour; the shell adds colour itself.
    pub fn render(&self, source: &str) -> String {
        // An empty span at the start means "the whole expression" (errors found while
        // rolling, where no single token is to blame).
        let span = if self.span == Span::default() {
            Span::new(0, source.len())
        } else {
            self.span
        };
        let mut out = format!("error: {}\n{}", self, indent(&span.snippet(source)));
        if let Some(h) = self.help() {
            out.push_str("\nhelp: ");
            out.push_str(&h);
        }
        out
    }
}

fn indent(s: &str) -> String {
    s.lines()
        .map(|l| format!("  {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}
