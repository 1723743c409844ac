//! The settings of the exact engine.

use super::super::caps::Caps;

/// Settings for the exact engine.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ExactOptions {
    /// How many extra rolls an exploding die is followed to when the expression gives no
    /// limit of its own (`!x3`); the probability beyond is reported as cut off. At 100 (the
    /// roller's own cap on extra rolls, `Caps::max_explosions`) or more, the odds follow
    /// the roller exactly and nothing is cut.
    pub explode_depth: u32,
    /// The most distinct outcomes any intermediate distribution may have.
    pub max_outcomes: usize,
    /// The most steps of work one evaluation may spend (`Caps::max_exact_work`).
    pub max_work: u64,
}

impl Default for ExactOptions {
    fn default() -> Self {
        ExactOptions {
            explode_depth: 5,
            max_outcomes: 1_000_000,
            max_work: Caps::DEFAULT.max_exact_work,
        }
    }
}
