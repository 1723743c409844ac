//! The intervals `odds` puts on what it counted: Wilson's score interval for a probability,
//! Newcombe's hybrid score interval for the difference of two, and the normal interval for a
//! mean and for the difference of two means (Welch's standard error).

use serde::Serialize;

/// The two-sided 95% normal quantile.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A 95% interval `[low, high]`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Interval {
    /// Its lower end.
    pub low: f64,
    /// Its upper end.
    pub high: f64,
}

impl Interval {
    /// Whether `x` lies inside (ends included).
    pub fn contains(&self, x: f64) -> bool {
        self.low <= x && x <= self.high
    }
}

/// The proportion `k / n` (0 when `n` is 0).
pub fn proportion(k: u64, n: u64) -> f64 {
    if n == 0 { 0.0 } else { k as f64 / n as f64 }
}

/// Wilson's 95% score interval for `k` successes in `n` runs: it stays inside `[0, 1]` and
/// does not shrink to a point at 0% or 100% as the plain normal interval does. `[0, 1]` when
/// nothing was run.
pub fn wilson(k: u64, n: u64) -> Interval {
    if n == 0 {
        return Interval {
            low: 0.0,
            high: 1.0,
        };
    }
    let n = n as f64;
    let p = k as f64 / n;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    Interval {
        low: (centre - half).max(0.0),
        high: (centre + half).min(1.0),
    }
}

/// The difference `b − a` of two proportions (`ka` in `na` runs, `kb` in `nb`) and its 95%
/// interval by Newcombe's hybrid score method (his method 10), built from the two Wilson
/// intervals: sound for small counts and for probabilities near 0 or 1.
pub fn difference(ka: u64, na: u64, kb: u64, nb: u64) -> (f64, Interval) {
    let (pa, pb) = (proportion(ka, na), proportion(kb, nb));
    let (a, b) = (wilson(ka, na), wilson(kb, nb));
    let d = pb - pa;
    let low = d - ((pb - b.low).powi(2) + (a.high - pa).powi(2)).sqrt();
    let high = d + ((b.high - pb).powi(2) + (pa - a.low).powi(2)).sqrt();
    (
        d,
        Interval {
            low: low.max(-1.0),
            high: high.min(1.0),
        },
    )
}

/// The mean and standard deviation of values counted in a histogram.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Moments {
    /// How many values.
    pub n: u64,
    /// Their mean.
    pub mean: f64,
    /// Their standard deviation (the sample's, `n − 1` in the denominator; 0 for one value).
    pub sd: f64,
}

impl Moments {
    /// The moments of `(value, count)` pairs. Summed in the order given: the caller gives
    /// them sorted, so the result does not depend on how the runs were split among workers.
    pub fn of(values: impl IntoIterator<Item = (f64, u64)> + Clone) -> Option<Moments> {
        let n: u64 = values.clone().into_iter().map(|(_, c)| c).sum();
        if n == 0 {
            return None;
        }
        let mean = values
            .clone()
            .into_iter()
            .map(|(v, c)| v * c as f64)
            .sum::<f64>()
            / n as f64;
        let ss: f64 = values
            .into_iter()
            .map(|(v, c)| (v - mean).powi(2) * c as f64)
            .sum();
        let sd = if n > 1 {
            (ss / (n - 1) as f64).sqrt()
        } else {
            0.0
        };
        Some(Moments { n, mean, sd })
    }

    /// The 95% interval of the mean (normal, `mean ± z·sd/√n`).
    pub fn interval(&self) -> Interval {
        let half = Z95 * self.sd / (self.n as f64).sqrt();
        Interval {
            low: self.mean - half,
            high: self.mean + half,
        }
    }
}

/// The difference `b − a` of two means and its 95% interval (normal, Welch's standard error).
pub fn mean_difference(a: &Moments, b: &Moments) -> (f64, Interval) {
    let d = b.mean - a.mean;
    let se = (a.sd.powi(2) / a.n as f64 + b.sd.powi(2) / b.n as f64).sqrt();
    (
        d,
        Interval {
            low: d - Z95 * se,
            high: d + Z95 * se,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 5e-4
    }

    #[test]
    fn wilson_matches_published_values() {
        // Newcombe (1998), table I: 81/263 → 0.2553 to 0.3662; 0/10 → 0 to 0.2775.
        let i = wilson(81, 263);
        assert!(close(i.low, 0.2553) && close(i.high, 0.3662), "{i:?}");
        let i = wilson(0, 10);
        assert!(close(i.low, 0.0) && close(i.high, 0.2775), "{i:?}");
        let i = wilson(10, 10);
        assert!(close(i.low, 0.7225) && close(i.high, 1.0), "{i:?}");
    }

    #[test]
    fn newcombe_matches_published_values() {
        // Newcombe (1998b), example (a): 56/70 against 48/80 → 0.2 in 0.0524 to 0.3339
        // (here as b − a with a = 48/80).
        let (d, i) = difference(48, 80, 56, 70);
        assert!(close(d, 0.2), "{d}");
        assert!(close(i.low, 0.0524) && close(i.high, 0.3339), "{i:?}");
    }

    #[test]
    fn moments_of_a_histogram() {
        let m = Moments::of([(1.0, 1), (2.0, 1), (3.0, 1)]).unwrap();
        assert_eq!((m.n, m.mean, m.sd), (3, 2.0, 1.0));
        assert!(Moments::of(Vec::<(f64, u64)>::new()).is_none());
        let (d, i) = mean_difference(&m, &Moments { mean: 4.0, ..m });
        assert_eq!(d, 2.0);
        assert!(i.contains(2.0) && !i.contains(0.0), "{i:?}");
    }
}
