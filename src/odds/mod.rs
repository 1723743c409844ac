//! Odds through the rules: counting what a command did over many simulated runs
//! ([`tally`]) and the 95% intervals put on the counts ([`stats`]).
//!
//! The runs themselves are made by the engine (`engine/commands/odds/`), which owns the
//! rules and the game; this module knows only outcomes and numbers.

pub mod stats;
pub mod tally;

pub use stats::{Interval, Moments, difference, mean_difference, wilson};
pub use tally::{Bucket, Histogram, RunOutcome, Tally};
