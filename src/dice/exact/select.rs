//! Keep/drop over a pool, with "set semantics": every selector picks its set from all the
//! dice (by rank, ties broken by one fixed order, so `kh` and `kl` never pick the same die
//! while they fit), and a die counts iff it is in some keep set (or there is none) and in no
//! drop set. Here: the selection itself, what a kept die is worth, and the order-statistics
//! dynamic programme for identical dice; `multiset.rs` handles pools of unlike parts.
//!
//! What a kept die is worth — its value, or ±1 for success counting — is [`Score`].

use super::super::ast::{Compare, KeepDrop};
use super::super::error::DiceError;
use super::budget::Budget;
use super::pmf::{Pmf, Values, too_many};

/// One selector with its count resolved.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Sel {
    /// The `n` highest.
    Highest(u64),
    /// The `n` lowest.
    Lowest(u64),
    /// Those matching a compare point.
    Matching(Compare),
}

impl Sel {
    /// Whether the die at ascending `rank` (0-based) of `n`, showing `v`, is selected.
    fn picks(&self, rank: usize, n: usize, v: f64) -> bool {
        match *self {
            Sel::Highest(k) => (rank as u64) + k >= n as u64,
            Sel::Lowest(k) => (rank as u64) < k,
            Sel::Matching(c) => c.matches(v),
        }
    }
}

/// The keep and drop selectors of a pool or group.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct Selection {
    /// Keep selectors.
    pub keeps: Vec<Sel>,
    /// Drop selectors.
    pub drops: Vec<Sel>,
    /// A selection applied afterwards to the dice this one kept (`(10d6kh5)kl2`), ranking
    /// them among themselves. Only after a selection by rank alone.
    pub then: Option<Box<Selection>>,
}

impl Selection {
    /// Adds a selector.
    pub fn push(&mut self, kd: KeepDrop, sel: Sel) {
        match kd {
            KeepDrop::Keep => self.keeps.push(sel),
            KeepDrop::Drop => self.drops.push(sel),
        }
    }

    /// Whether no die is ever dropped.
    pub fn is_empty(&self) -> bool {
        self.keeps.is_empty() && self.drops.is_empty() && self.then.is_none()
    }

    /// Whether the selection depends on ranks alone (no compare points).
    pub fn by_rank(&self) -> bool {
        !self
            .keeps
            .iter()
            .chain(&self.drops)
            .any(|s| matches!(s, Sel::Matching(_)))
    }

    /// Whether the die at ascending `rank` of `n`, showing `v`, counts.
    pub fn kept(&self, rank: usize, n: usize, v: f64) -> bool {
        if !self.kept_here(rank, n, v) {
            return false;
        }
        match &self.then {
            None => true,
            // Survivors are ranked among themselves; by_rank() makes them independent of values.
            Some(next) => {
                let survivors = (0..n).filter(|&r| self.kept_here(r, n, v)).count();
                let below = (0..rank).filter(|&r| self.kept_here(r, n, v)).count();
                next.kept(below, survivors, v)
            }
        }
    }

    fn kept_here(&self, rank: usize, n: usize, v: f64) -> bool {
        (self.keeps.is_empty() || self.keeps.iter().any(|s| s.picks(rank, n, v)))
            && !self.drops.iter().any(|s| s.picks(rank, n, v))
    }
}

/// What one kept die adds to the result.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Score {
    /// Its value.
    Sum,
    /// +1 on a success, −1 on a failure, 0 otherwise.
    Target {
        /// What counts as a success.
        success: Compare,
        /// What counts as a failure.
        failure: Option<Compare>,
    },
}

impl Score {
    /// The worth of a die showing `v`.
    pub fn of(&self, v: f64) -> f64 {
        match self {
            Score::Sum => v,
            Score::Target { success, failure } => {
                // A die that is both a success and a failure is a success (as the roller has it).
                if success.matches(v) {
                    1.0
                } else if failure.is_some_and(|c| c.matches(v)) {
                    -1.0
                } else {
                    0.0
                }
            }
        }
    }
}

/// A dense accumulator over integer sums with its own offset, growing as needed.
#[derive(Debug, Clone, Default)]
struct Acc {
    lo: i64,
    p: Vec<f64>,
}

impl Acc {
    fn add_shifted(&mut self, src: &Acc, shift: i64, w: f64) {
        if src.p.is_empty() || w == 0.0 {
            return;
        }
        let lo = src.lo + shift;
        if self.p.is_empty() {
            self.lo = lo;
        }
        if lo < self.lo {
            let pad = (self.lo - lo) as usize;
            let mut p = vec![0.0; pad + self.p.len()];
            p[pad..].copy_from_slice(&self.p);
            self.p = p;
            self.lo = lo;
        }
        let start = (lo - self.lo) as usize;
        if start + src.p.len() > self.p.len() {
            self.p.resize(start + src.p.len(), 0.0);
        }
        for (o, &x) in self.p[start..start + src.p.len()].iter_mut().zip(&src.p) {
            *o += w * x;
        }
    }
}

/// The total of `n` identical independent dice distributed as `die` (integer values) after
/// keep/drop `sel`, each kept die worth `score`.
///
/// Faces are taken from the highest down; the state is how many dice have been placed so far
/// and the total of the kept ones. Placing `m` dice on a face is a binomial choice among the
/// dice still unplaced, conditioned on showing this face or lower, and those dice take the
/// next `m` ranks from the top, which says which of them are kept.
pub(super) fn order_statistics(
    die: &Pmf,
    n: u64,
    sel: &Selection,
    score: Score,
    cap: usize,
    budget: &Budget,
) -> Result<Pmf, DiceError> {
    let faces = die.pairs();
    let mass: f64 = faces.iter().map(|f| f.1).sum();
    let lost = super::pmf::lost_power(die.lost, n);
    if n == 0 {
        return Ok(Pmf::constant(0.0));
    }
    if faces.is_empty() {
        return Ok(Pmf::dense(0, Vec::new(), 1.0));
    }
    let n = n as usize;
    budget.charge(
        order_statistics_work(&faces, n, sel, score),
        "keeping and dropping dice",
    )?;
    let ln_fact: Vec<f64> = std::iter::once(0.0)
        .chain((1..=n).scan(0.0, |s, i| {
            *s += (i as f64).ln();
            Some(*s)
        }))
        .collect();
    // dp[j]: sub-distribution of the kept total with the lowest j dice placed.
    let mut dp = vec![Acc::default(); n + 1];
    dp[0] = Acc {
        lo: 0,
        p: vec![1.0],
    };
    // above[i]: probability of showing face i or higher.
    let mut above = vec![0.0; faces.len()];
    let mut s = 0.0;
    for i in (0..faces.len()).rev() {
        s += faces[i].1;
        above[i] = s;
    }
    let last = faces.len() - 1;
    let mut kept_prefix = vec![0usize; n + 1];
    for (i, &(v, p)) in faces.iter().enumerate() {
        let q = if i == last {
            1.0
        } else {
            (p / above[i]).min(1.0)
        };
        let worth = score.of(v) as i64;
        for r in 0..n {
            kept_prefix[r + 1] = kept_prefix[r] + usize::from(sel.kept(r, n, v));
        }
        let mut next = vec![Acc::default(); n + 1];
        // From the top down, so that a finished state moves instead of being copied.
        for j in (0..=n).rev() {
            if dp[j].p.is_empty() {
                continue;
            }
            let rest = n - j;
            let src = std::mem::take(&mut dp[j]);
            if rest == 0 {
                next[n] = src;
                continue;
            }
            for m in 0..=rest {
                let w = if q >= 1.0 {
                    if m == rest { 1.0 } else { 0.0 }
                } else {
                    (ln_fact[rest] - ln_fact[m] - ln_fact[rest - m]
                        + m as f64 * q.ln()
                        + (rest - m) as f64 * (-q).ln_1p())
                    .exp()
                };
                if w == 0.0 {
                    continue;
                }
                // These m dice take ascending ranks j .. j+m-1.
                let kept = kept_prefix[j + m] - kept_prefix[j];
                next[j + m].add_shifted(&src, kept as i64 * worth, w);
            }
        }
        if next.iter().map(|a| a.p.len()).max().unwrap_or(0) > cap {
            return Err(too_many("keeping and dropping dice", cap));
        }
        dp = next;
    }
    let total = std::mem::take(&mut dp[n]);
    let scale = mass.powi(n as i32).max(0.0);
    let p = total.p.into_iter().map(|x| x * scale).collect();
    let mut out = Pmf::dense(total.lo, p, lost);
    if let Values::Dense { p, .. } = &mut out.values {
        // The binomial weights are exact up to rounding; keep them from drifting negative.
        for x in p.iter_mut() {
            *x = x.max(0.0);
        }
    }
    Ok(out)
}

/// About how many multiply-adds [`order_statistics`] needs: for each face, each number of
/// dice placed and each number placed on that face, one pass over the totals reachable.
fn order_statistics_work(faces: &[(f64, f64)], n: usize, sel: &Selection, score: Score) -> usize {
    let worths = faces.iter().map(|f| score.of(f.0));
    let (lo, hi) = worths.fold((0.0f64, 0.0f64), |(lo, hi), w| (lo.min(w), hi.max(w)));
    let range = (hi - lo) as usize;
    // Dice that can count: all of them, unless only highest/lowest-N keeps are written.
    let counted = if !sel.keeps.is_empty()
        && sel
            .keeps
            .iter()
            .all(|s| matches!(s, Sel::Highest(_) | Sel::Lowest(_)))
    {
        sel.keeps
            .iter()
            .map(|s| match s {
                Sel::Highest(k) | Sel::Lowest(k) => *k as usize,
                Sel::Matching(_) => n,
            })
            .sum::<usize>()
            .min(n)
    } else {
        n
    };
    // A state with every die placed moves on for free.
    let per_face: usize = (0..n)
        .map(|j| (n - j + 1).saturating_mul(j.min(counted) * range + 1))
        .sum();
    per_face.saturating_mul(faces.len())
}
