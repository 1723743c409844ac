//! Keep/drop over pools whose parts are not identical dice: exploding chains (a die and the
//! extra dice it exploded into) and the items of a group.
//!
//! The pool is enumerated as a multiset, but only what the selection can see is kept in the
//! state: the lowest `b` and highest `a` values (the largest `kl`/`dl` and `kh`/`dh` counts)
//! and the total of the values in between, which no `kh`/`kl` selector can reach. That keeps
//! `3d20!kh2` to a few hundred states however many dice explode.

use std::collections::HashMap;

use super::super::error::DiceError;
use super::budget::{Budget, STATE_OVERHEAD};
use super::pmf::{Pmf, too_many};
use super::select::{Score, Sel, Selection};

/// One contributor to a pool: each way it can come out, summarised, with its probability;
/// and the mass it lost to the depth cut.
pub(super) type Contributor = (Vec<(Summary, f64)>, f64);

/// What the selection needs to know about a pool, built one value at a time.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct Summary {
    /// Every value, sorted, until there are more than `a + b`; then the lowest `b` followed
    /// by the highest `a`.
    ends: Vec<f64>,
    /// Whether values have been moved to the middle.
    split: bool,
    /// The worth of the middle values that count.
    middle: f64,
}

/// The shape of the summaries for one selection.
pub(super) struct Shape<'s> {
    sel: &'s Selection,
    score: Score,
    /// Largest count of a highest-N selector.
    a: usize,
    /// Largest count of a lowest-N selector.
    b: usize,
}

impl<'s> Shape<'s> {
    /// The shape for `sel` on a pool of at most `most` values.
    pub fn new(sel: &'s Selection, score: Score, most: usize) -> Self {
        let (mut a, mut b) = (0, 0);
        for s in sel.keeps.iter().chain(&sel.drops) {
            match *s {
                Sel::Highest(k) => a = a.max(k.min(most as u64) as usize),
                Sel::Lowest(k) => b = b.max(k.min(most as u64) as usize),
                Sel::Matching(_) => {}
            }
        }
        Shape { sel, score, a, b }
    }

    /// The worth of a value in the middle, where only compare-point selectors reach.
    fn middle_worth(&self, v: f64) -> f64 {
        let picked = |s: &Sel| matches!(s, Sel::Matching(c) if c.matches(v));
        let kept = (self.sel.keeps.is_empty() || self.sel.keeps.iter().any(picked))
            && !self.sel.drops.iter().any(picked);
        if kept { self.score.of(v) } else { 0.0 }
    }

    /// About how many steps copying, merging and storing one summary costs.
    pub fn per_state(&self) -> usize {
        self.a + self.b + 1 + STATE_OVERHEAD
    }

    /// Adds one value to a summary.
    pub fn insert(&self, s: &mut Summary, v: f64) {
        let (a, b) = (self.a, self.b);
        if !s.split {
            let at = s.ends.partition_point(|&x| x < v);
            s.ends.insert(at, v);
            if s.ends.len() > a + b {
                s.split = true;
                let mid = s.ends.remove(b);
                s.middle += self.middle_worth(mid);
            }
            return;
        }
        if b > 0 && v < s.ends[b - 1] {
            let at = s.ends[..b].partition_point(|&x| x < v);
            s.ends.insert(at, v);
            let mid = s.ends.remove(b);
            s.middle += self.middle_worth(mid);
        } else if a > 0 && v > s.ends[b] {
            let at = b + s.ends[b..].partition_point(|&x| x < v);
            s.ends.insert(at, v);
            let mid = s.ends.remove(b);
            s.middle += self.middle_worth(mid);
        } else {
            s.middle += self.middle_worth(v);
        }
    }

    /// Adds everything `other` summarises to `s`: a value in the middle of `other` has `b`
    /// lower and `a` higher values beside it there, so it stays in the middle of the union.
    fn merge(&self, s: &mut Summary, other: &Summary) {
        for &v in &other.ends {
            self.insert(s, v);
        }
        if other.split {
            s.split = true;
            s.middle += other.middle;
        }
    }

    fn total(&self, s: &Summary) -> f64 {
        let worth = |n: usize, rank: usize, v: f64| {
            if self.sel.kept(rank, n, v) {
                self.score.of(v)
            } else {
                0.0
            }
        };
        if !s.split {
            let n = s.ends.len();
            return s
                .ends
                .iter()
                .enumerate()
                .map(|(r, &v)| worth(n, r, v))
                .sum();
        }
        // With a middle, the ends sit at ranks 0..b and n-a..n; any n > a + b gives the same
        // picks, so use the smallest.
        let n = self.a + self.b + 1;
        let low: f64 = s.ends[..self.b]
            .iter()
            .enumerate()
            .map(|(r, &v)| worth(n, r, v))
            .sum();
        let high: f64 = s.ends[self.b..]
            .iter()
            .enumerate()
            .map(|(i, &v)| worth(n, self.b + 1 + i, v))
            .sum();
        low + s.middle + high
    }
}

/// The identity of a summary, for merging equal ones.
pub(super) fn key(s: &Summary) -> Vec<u64> {
    let mut k: Vec<u64> = s.ends.iter().map(|x| (x + 0.0).to_bits()).collect();
    k.push(u64::from(s.split));
    k.push((s.middle + 0.0).to_bits());
    k
}

/// The total of a pool made of independent contributors after keep/drop, each summarised
/// under `shape`.
pub(super) fn multisets(
    parts: &[Contributor],
    shape: &Shape<'_>,
    what: &'static str,
    cap: usize,
    budget: &Budget,
) -> Result<Pmf, DiceError> {
    let start = Summary::default();
    let mut states: HashMap<Vec<u64>, (Summary, f64)> = HashMap::new();
    states.insert(key(&start), (start, 1.0));
    let mut kept_mass = 1.0;
    for (outcomes, lost) in parts {
        kept_mass *= 1.0 - lost;
        budget.charge(
            states
                .len()
                .saturating_mul(outcomes.len())
                .saturating_mul(shape.per_state()),
            what,
        )?;
        let mut next: HashMap<Vec<u64>, (Summary, f64)> = HashMap::new();
        for (s, p) in states.values() {
            for (add, q) in outcomes {
                let mut t = s.clone();
                shape.merge(&mut t, add);
                next.entry(key(&t)).or_insert_with(|| (t, 0.0)).1 += p * q;
            }
        }
        if next.len() > cap {
            return Err(too_many(
                format!("{what} can come out {} ways", next.len()),
                cap,
            ));
        }
        states = next;
    }
    let pairs = states
        .into_values()
        .map(|(s, p)| (shape.total(&s), p))
        .collect();
    Pmf::from_pairs(pairs, 1.0 - kept_mass, what, cap)
}

/// The total of a group of independent items, each one value, after keep/drop `sel`: walks
/// every combination of the items' outcomes (no merging: distinct items rarely coincide).
pub(super) fn items(
    items: &[Vec<(f64, f64)>],
    lost: f64,
    sel: &Selection,
    score: Score,
    cap: usize,
    budget: &Budget,
) -> Result<Pmf, DiceError> {
    let work = items
        .iter()
        .try_fold(1usize, |w, i| w.checked_mul(i.len().max(1)));
    let work = work.unwrap_or(usize::MAX);
    budget.charge(work.saturating_mul(items.len() + 1), "a group")?;
    if work > cap {
        return Err(too_many(format!("a group can come out {work} ways"), cap));
    }
    let n = items.len();
    let mut out = Vec::with_capacity(work);
    let mut chosen = vec![0.0; n];
    let mut sorted = vec![0.0; n];
    let mut idx = vec![0usize; n];
    if items.iter().any(|i| i.is_empty()) {
        return Ok(Pmf::dense(0, Vec::new(), 1.0));
    }
    // An odometer over the items' outcomes.
    loop {
        let mut p = 1.0;
        for k in 0..n {
            let (v, q) = items[k][idx[k]];
            chosen[k] = v;
            p *= q;
        }
        sorted.copy_from_slice(&chosen);
        sorted.sort_by(f64::total_cmp);
        let total: f64 = sorted
            .iter()
            .enumerate()
            .filter(|(r, x)| sel.kept(*r, n, **x))
            .map(|(_, x)| score.of(*x))
            .sum();
        out.push((total, p));
        let mut k = 0;
        loop {
            if k == n {
                return Pmf::from_pairs(out, lost, "a group", cap);
            }
            idx[k] += 1;
            if idx[k] < items[k].len() {
                break;
            }
            idx[k] = 0;
            k += 1;
        }
    }
}
