//! The caps that keep every roll finite, small and exact.
//!
//! A roll that would pass a cap is refused with an error naming the cap, never truncated and
//! never left to hang. The caps also bound every total: at most [`Caps::max_rolls`] dice of
//! at most [`Caps::max_sides`] sides sum to below 2^53, so totals are exact in an `f64` and
//! no integer arithmetic can overflow.

/// The caps applied while parsing and rolling.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Caps {
    /// Longest expression, in bytes.
    pub max_len: usize,
    /// Deepest nesting of parentheses, groups and function calls.
    pub max_depth: usize,
    /// Most dice in one pool (`999d6` is allowed, `1000d6` is not).
    pub max_dice: u64,
    /// Most sides on one die.
    pub max_sides: u64,
    /// Most dice rolled for a whole expression, explosions and rerolls included.
    pub max_rolls: u64,
    /// Most extra rolls one die may explode into (the default and the cap for `!xN`).
    pub max_explosions: u32,
    /// Most times one die may be rerolled before the roll is refused.
    pub max_rerolls: u32,
    /// Largest repeat count (`6x 4d6kh3`).
    pub max_repeat: u32,
    /// Largest magnitude of any value; beyond it results would stop being exact.
    pub max_magnitude: f64,
    /// Most steps of work exact odds (`prob`) may spend on one expression; a step is about
    /// one multiply-add or one value copied into a state. Keeps `prob` answering (or
    /// refusing) within about a second and bounds its memory.
    pub max_exact_work: u64,
}

impl Caps {
    /// The caps umpire uses.
    pub const DEFAULT: Caps = Caps {
        max_len: 1000,
        max_depth: 32,
        max_dice: 999,
        max_sides: 10_000_000_000,
        max_rolls: 10_000,
        max_explosions: 100,
        max_rerolls: 1000,
        max_repeat: 100,
        // 2^53: every whole number up to here is exact in an f64.
        max_magnitude: 9_007_199_254_740_992.0,
        max_exact_work: 200_000_000,
    };
}

impl Default for Caps {
    fn default() -> Self {
        Caps::DEFAULT
    }
}
