//! Exact probability distributions of dice expressions: `prob 4d6kh3 >= 14`.
//!
//! This module owns the exact engine: from a parsed [`DiceExpr`](super::DiceExpr) to a
//! [`Distribution`] of its total, following the same semantics as the roller (`GRAMMAR.md`).
//! It does not parse, roll or render. Explosions without a written limit are followed
//! [`ExactOptions::explode_depth`] extra rolls deep and the probability beyond is reported as
//! [`Distribution::cut_off`], never dropped silently.

mod die;
mod distribution;
mod eval;
mod group;
mod multiset;
mod options;
mod pmf;
mod pool;
mod reroll_add;
mod select;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_parsed;

pub use distribution::{Distribution, distribution};
pub use options::ExactOptions;
