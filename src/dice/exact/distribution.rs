//! The answer of the exact engine: every possible total with its probability, what was cut
//! off by the explosion depth, and summary statistics.

use super::super::ast::{CmpOp, DiceExpr};
use super::super::caps::Caps;
use super::super::error::DiceError;
use super::eval::Ctx;
use super::options::ExactOptions;

/// An exact distribution: each possible total with its probability.
#[derive(Debug, Clone, PartialEq)]
pub struct Distribution {
    /// `(value, probability)`, sorted by value, no zero probabilities, probabilities summing
    /// to `1 - cut_off`.
    pub outcomes: Vec<(f64, f64)>,
    /// Probability of the outcomes left out because explosions were followed only
    /// `explode_depth` deep (0 when nothing was cut).
    pub cut_off: f64,
    /// The explosion depth followed, when the expression explodes: the engine's depth when an
    /// explosion without a written limit was cut, otherwise the largest written limit.
    pub explode_depth: Option<u32>,
    /// The least and greatest value a cut-off outcome can take, when something was cut off;
    /// an infinite end means unbounded or not known.
    pub cut_off_range: Option<(f64, f64)>,
}

/// How the cut-off tail enters the answer to `P(X OP N)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CutOffSide {
    /// Nothing was cut off: the answer is exact.
    Nothing,
    /// Every cut-off outcome satisfies the comparison, so the tail is counted in.
    In,
    /// No cut-off outcome satisfies it, so the tail is left out.
    Out,
    /// Some might and some might not: the answer is a range.
    Split,
}

impl CutOffSide {
    /// The name used in JSON (`null` for [`CutOffSide::Nothing`]).
    pub fn name(self) -> Option<&'static str> {
        match self {
            CutOffSide::Nothing => None,
            CutOffSide::In => Some("in"),
            CutOffSide::Out => Some("out"),
            CutOffSide::Split => Some("split"),
        }
    }
}

/// The answer to `P(X OP N)`, honest about the cut-off tail: `low == high` unless the tail
/// falls on both sides of the comparison.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Answer {
    /// The probability counting the tail only where it surely satisfies the comparison.
    pub low: f64,
    /// The probability counting the tail wherever it might.
    pub high: f64,
    /// Where the tail lies relative to the comparison.
    pub cut_off: CutOffSide,
}

impl Distribution {
    /// Mean of the outcomes (of the kept probability mass, renormalised).
    pub fn mean(&self) -> f64 {
        let mass: f64 = self.outcomes.iter().map(|o| o.1).sum();
        self.outcomes.iter().map(|(v, p)| v * p).sum::<f64>() / mass
    }

    /// Standard deviation (of the kept probability mass, renormalised).
    pub fn stddev(&self) -> f64 {
        let m = self.mean();
        let mass: f64 = self.outcomes.iter().map(|o| o.1).sum();
        (self
            .outcomes
            .iter()
            .map(|(v, p)| (v - m) * (v - m) * p)
            .sum::<f64>()
            / mass)
            .sqrt()
    }

    /// Probability that the total `OP x` among the outcomes followed (the cut-off mass counts
    /// for nothing; [`Distribution::answer`] accounts for it). Never `-0.0`.
    pub fn probability(&self, op: CmpOp, x: f64) -> f64 {
        // An empty float sum is -0.0; adding +0.0 makes it 0.
        self.outcomes
            .iter()
            .filter(|(v, _)| op.holds(*v, x))
            .map(|o| o.1)
            .sum::<f64>()
            + 0.0
    }

    /// P(total `OP x`), with the cut-off tail counted in when all of it satisfies the
    /// comparison, left out when none of it can, and as a range otherwise.
    pub fn answer(&self, op: CmpOp, x: f64) -> Answer {
        let kept = self.probability(op, x);
        let side = match self.cut_off_range {
            _ if self.cut_off <= 0.0 => CutOffSide::Nothing,
            None => CutOffSide::Split,
            Some((lo, hi)) => side_of(op, x, lo, hi),
        };
        let (low, high) = match side {
            CutOffSide::Nothing | CutOffSide::Out => (kept, kept),
            CutOffSide::In => (kept + self.cut_off, kept + self.cut_off),
            CutOffSide::Split => (kept, kept + self.cut_off),
        };
        Answer {
            low: low.min(1.0),
            high: high.min(1.0),
            cut_off: side,
        }
    }
}

/// The exact distribution of `expr` (the repeat count is ignored: the odds of one roll).
///
/// Errors: [`Unsupported`](super::super::DiceErrorKind::Unsupported) for notation the engine
/// does not compute (unique dice, `ra`, keep/drop inside a one-item `{…}` group around
/// something other than a pool), [`TooManyOutcomes`](super::super::DiceErrorKind::TooManyOutcomes)
/// when a distribution or the work grows past `opts.max_outcomes`, `DivisionByZero` when a
/// divisor can be 0, `OutOfRange` when a value can pass 2^53 or stop being a number, and the
/// roller's errors for impossible pools.
pub fn distribution(expr: &DiceExpr, opts: &ExactOptions) -> Result<Distribution, DiceError> {
    let mut ctx = Ctx::new(opts);
    let pmf = ctx.eval(&expr.expr)?;
    let explode_depth = if ctx.cut_depth {
        Some(opts.explode_depth.min(Caps::DEFAULT.max_explosions))
    } else {
        ctx.written_depth
    };
    let cut_off = if ctx.cut_depth { pmf.lost } else { 0.0 };
    Ok(Distribution {
        outcomes: pmf.pairs(),
        cut_off,
        explode_depth,
        cut_off_range: (cut_off > 0.0).then_some((pmf.tail.lo, pmf.tail.hi)),
    })
}

/// Where values in `lo..=hi` (whole numbers or not) fall relative to `OP x`.
fn side_of(op: CmpOp, x: f64, lo: f64, hi: f64) -> CutOffSide {
    let all = |f: &dyn Fn(f64) -> bool| f(lo) && f(hi);
    // For `=` and `!=` an interval is all-in only when it is the one point `x`.
    let (every, none) = match op {
        CmpOp::Eq => (lo == x && hi == x, x < lo || x > hi),
        CmpOp::Ne => (x < lo || x > hi, lo == x && hi == x),
        _ => (all(&|v| op.holds(v, x)), all(&|v| !op.holds(v, x))),
    };
    if every {
        CutOffSide::In
    } else if none {
        CutOffSide::Out
    } else {
        CutOffSide::Split
    }
}
