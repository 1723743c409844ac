//! Exact probability distributions of dice expressions (placeholder: being written).

use super::ast::{CmpOp, DiceExpr};
use super::error::{DiceError, DiceErrorKind};
use crate::span::Span;

/// Settings for the exact engine.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ExactOptions {
    /// How many extra rolls an exploding die is followed to when the expression gives no
    /// limit of its own (`!x3`); the probability beyond is reported as cut off.
    pub explode_depth: u32,
    /// The most distinct outcomes any intermediate distribution may have.
    pub max_outcomes: usize,
}

impl Default for ExactOptions {
    fn default() -> Self {
        ExactOptions {
            explode_depth: 5,
            max_outcomes: 1_000_000,
        }
    }
}

/// An exact distribution: each possible total with its probability.
#[derive(Debug, Clone, PartialEq)]
pub struct Distribution {
    /// `(value, probability)`, sorted by value, probabilities summing to `1 - cut_off`.
    pub outcomes: Vec<(f64, f64)>,
    /// Probability of the outcomes left out because explosions were followed only
    /// `explode_depth` deep (0 when nothing was cut).
    pub cut_off: f64,
    /// The explosion depth followed, when the expression explodes.
    pub explode_depth: Option<u32>,
}

impl Distribution {
    /// Mean of the outcomes (of the kept probability mass, renormalised).
    pub fn mean(&self) -> f64 {
        let mass: f64 = self.outcomes.iter().map(|o| o.1).sum();
        self.outcomes.iter().map(|(v, p)| v * p).sum::<f64>() / mass
    }

    /// Standard deviation.
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

    /// Probability that the total `OP x`.
    pub fn probability(&self, op: CmpOp, x: f64) -> f64 {
        self.outcomes
            .iter()
            .filter(|(v, _)| op.holds(*v, x))
            .map(|o| o.1)
            .sum()
    }
}

/// The exact distribution of `expr`.
pub fn distribution(expr: &DiceExpr, _opts: &ExactOptions) -> Result<Distribution, DiceError> {
    Err(DiceError::new(
        DiceErrorKind::Unsupported {
            what: format!("`{}` yet", expr.expr),
        },
        Span::default(),
    ))
}
