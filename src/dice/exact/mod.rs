//! Exact probability distributions of dice expressions: `prob 4d6kh3 >= 14`.
//!
//! This module owns the exact engine: from a parsed [`DiceExpr`](super::DiceExpr) to a
//! [`Distribution`] of its total, following the same semantics as the roller (`GRAMMAR.md`).
//! It does not parse, roll or render. Explosions without a written limit are followed
//! [`ExactOptions::explode_depth`] extra rolls deep and the probability beyond is reported as
//! [`Distribution::cut_off`], never dropped silently.
//!
//! Everything the roller rolls is computed, except: unique dice (`u`, `uo`) that explode
//! into new dice or also have `ra`, or whose pools have too many arrangements; `ra`
//! together with keep/drop; keep/drop on a one-item group whose item is not a single pool
//! (`{4d6+4d8}kh3`, `((10d6kh5)kl2)kh1`), or is a pool that itself keeps or drops by a
//! compare point, or explodes into new dice and keeps or drops. Those give an
//! [`Unsupported`](super::DiceErrorKind::Unsupported) error naming what, and anything that
//! would grow past [`ExactOptions::max_outcomes`] outcomes (or the work that many outcomes
//! allow) gives [`TooManyOutcomes`](super::DiceErrorKind::TooManyOutcomes), and anything
//! that would spend more than [`ExactOptions::max_work`] steps in all (`budget.rs`) gives
//! [`TooMuchWork`](super::DiceErrorKind::TooMuchWork). The roller's
//! caps on dice in all (10,000) and on rerolls of one die (1,000) are not modelled (a roll
//! that hits them is an error, with odds far below what an `f64` shows); its cap of 100
//! extra rolls per die is, when `explode_depth` is 100 or more.
//!
//! | file | owns |
//! |---|---|
//! | `distribution.rs` | the public answer and its statistics |
//! | `budget.rs` | the cap on work of one evaluation |
//! | `eval.rs` | the walk over the tree, arithmetic via `dice::arith` |
//! | `pool.rs` | a pool: counts, sizes, stages, choosing the algorithm |
//! | `die.rs` | one die: reroll, explosion chain, clamp |
//! | `select.rs` | keep/drop set semantics, scores, order statistics for identical dice |
//! | `multiset.rs` | keep/drop over exploding chains and group items |
//! | `reroll_add.rs` | `ra` |
//! | `unique.rs` | `u`, `uo` |
//! | `group.rs` | groups and sets |
//! | `pmf.rs` | dense/sparse distributions, convolution, lost mass |

mod budget;
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
mod tail;
mod unique;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_parsed;

pub use distribution::{Answer, CutOffSide, Distribution, distribution};
pub use options::ExactOptions;
#[cfg(test)]
mod tests_caps;
