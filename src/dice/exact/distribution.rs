//! The answer of the exact engine: every possible total with its probability, what was cut
//! off by the explosion depth, and summary statistics.

use super::super::ast::{CmpOp, DiceExpr};
use super::super::error::DiceError;
use super::super::limits::Limits;
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

    /// Probability that the total `OP x` (the cut-off mass counts for nothing).
    pub fn probability(&self, op: CmpOp, x: f64) -> f64 {
        self.outcomes
            .iter()
            .filter(|(v, _)| op.holds(*v, x))
            .map(|o| o.1)
            .sum()
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
        Some(opts.explode_depth.min(Limits::DEFAULT.max_explosions))
    } else {
        ctx.written_depth
    };
    Ok(Distribution {
        outcomes: pmf.pairs(),
        cut_off: if ctx.cut_depth { pmf.lost } else { 0.0 },
        explode_depth,
    })
}
