//! Exact probability distributions of dice expressions: `prob 4d6kh3 >= 14`.
//!
//! This module owns the exact engine: from a parsed [`DiceExpr`](super::DiceExpr) to a
//! [`Distribution`] of its total, following the same semantics as the roller (`GRAMMAR.md`).
//! It does not parse, roll or render. Explosions without a written limit are followed
//! [`ExactOptions::explode_depth`] extra rolls deep and the probability beyond is reported as
//! [`Distribution::cut_off`], never dropped silently.
//!
//! Everything the roller rolls is computed, except: unique dice (`u`, `uo`); `ra` together
//! with keep/drop; keep/drop on a one-item group whose item is not a single pool without
//! keep/drop of its own (`{4d6kh3}dl1`, `{4d6+4d8}kh3`). Those give an
//! [`Unsupported`](super::DiceErrorKind::Unsupported) error naming what, and anything that
//! would grow past [`ExactOptions::max_outcomes`] outcomes (or the work that many outcomes
//! allow) gives [`TooManyOutcomes`](super::DiceErrorKind::TooManyOutcomes). The roller's own
//! caps (10,000 dice in all, 100 explosions, 1,000 rerolls) are not modelled: their odds are
//! far below what an `f64` shows.
//!
//! | file | owns |
//! |---|---|
//! | `distribution.rs` | the public answer and its statistics |
//! | `eval.rs` | the walk over the tree, arithmetic via `dice::arith` |
//! | `pool.rs` | a pool: counts, sizes, stages, choosing the algorithm |
//! | `die.rs` | one die: reroll, explosion chain, clamp |
//! | `select.rs` | keep/drop set semantics, scores, order statistics for identical dice |
//! | `multiset.rs` | keep/drop over exploding chains and group items |
//! | `reroll_add.rs` | `ra` |
//! | `group.rs` | groups and sets |
//! | `pmf.rs` | dense/sparse distributions, convolution, lost mass |

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
