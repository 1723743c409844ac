//! The working representation of a distribution inside the exact engine: a dense vector of
//! probabilities over consecutive integers (the common case: dice totals), or a sparse sorted
//! list when values are fractional or far apart. It also carries the probability mass lost to
//! the explosion depth cut, so that nothing is dropped silently.
//!
//! Everything here is arithmetic on distributions; it knows nothing of the dice notation.

use super::super::error::{DiceError, DiceErrorKind};
use super::tail::Tail;
use crate::span::Span;

/// Largest magnitude a value may reach: every whole number up to 2^53 is exact in an `f64`.
pub(super) const MAX_MAGNITUDE: f64 = 9_007_199_254_740_992.0;

/// How many times `max_outcomes` pairwise products one operation may cost before it is refused
/// (keeps `odds` answering in well under a second).
const WORK_FACTOR: usize = 200;

/// The values of a distribution.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Values {
    /// `p[i]` is the probability of `offset + i`; both ends are non-zero.
    Dense {
        /// The smallest value.
        offset: i64,
        /// Probabilities of consecutive integers.
        p: Vec<f64>,
    },
    /// `(value, probability)` sorted by value, values distinct, probabilities non-zero.
    Sparse(Vec<(f64, f64)>),
}

/// A sub-probability distribution: the outcomes plus the mass cut off by explosion depth.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Pmf {
    /// The outcomes; their probabilities sum to `1 - lost`.
    pub values: Values,
    /// Probability mass dropped because explosions were followed only so deep.
    pub lost: f64,
    /// Where the dropped outcomes lie (meaningful while `lost > 0`).
    pub tail: Tail,
}

/// The error for a distribution that grew past the cap.
pub(super) fn too_many(what: impl Into<String>, cap: usize) -> DiceError {
    DiceError::new(
        DiceErrorKind::TooManyOutcomes {
            what: what.into(),
            cap,
        },
        Span::default(),
    )
}

/// Refuses an operation that would cost more than the work budget.
pub(super) fn check_work(work: usize, what: &str, cap: usize) -> Result<(), DiceError> {
    if work > cap.saturating_mul(WORK_FACTOR) {
        return Err(too_many(format!("{what} needs about {work} steps"), cap));
    }
    Ok(())
}

fn out_of_range(what: &'static str, v: f64) -> DiceError {
    DiceError::new(
        DiceErrorKind::OutOfRange {
            what,
            value: format!("{v}"),
        },
        Span::default(),
    )
}

/// Probability lost when `n` independent parts each lose `lost`: `1 - (1 - lost)^n`, computed
/// without cancellation.
pub(super) fn lost_power(lost: f64, n: u64) -> f64 {
    if lost == 0.0 {
        0.0
    } else {
        -(n as f64 * (-lost).ln_1p()).exp_m1()
    }
}

/// Probability lost by two independent parts.
pub(super) fn lost_both(a: f64, b: f64) -> f64 {
    a + b - a * b
}

impl Pmf {
    /// A single certain value.
    pub fn constant(x: f64) -> Pmf {
        if x.fract() == 0.0 && x.abs() <= MAX_MAGNITUDE {
            Pmf {
                values: Values::Dense {
                    offset: x as i64,
                    p: vec![1.0],
                },
                lost: 0.0,
                tail: Tail::UNKNOWN,
            }
        } else {
            Pmf {
                values: Values::Sparse(vec![(x, 1.0)]),
                lost: 0.0,
                tail: Tail::UNKNOWN,
            }
        }
    }

    /// A dense distribution, trimmed of zero ends. An all-zero vector becomes empty.
    pub fn dense(offset: i64, mut p: Vec<f64>, lost: f64) -> Pmf {
        let end = p.iter().rposition(|&x| x > 0.0).map_or(0, |i| i + 1);
        p.truncate(end);
        let start = p.iter().position(|&x| x > 0.0).unwrap_or(0);
        if start > 0 {
            p.drain(..start);
        }
        Pmf {
            values: Values::Dense {
                offset: offset + start as i64,
                p,
            },
            lost,
            tail: Tail::UNKNOWN,
        }
    }

    /// A distribution from `(value, probability)` pairs in any order, merging equal values,
    /// dropping zero probabilities, and checking every value is finite and within range.
    pub fn from_pairs(
        mut pairs: Vec<(f64, f64)>,
        lost: f64,
        what: &'static str,
        cap: usize,
    ) -> Result<Pmf, DiceError> {
        pairs.retain(|&(_, p)| p > 0.0);
        for &(v, _) in &pairs {
            if !v.is_finite() || v.abs() > MAX_MAGNITUDE {
                return Err(out_of_range(what, v));
            }
        }
        pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut merged: Vec<(f64, f64)> = Vec::with_capacity(pairs.len());
        for (v, p) in pairs {
            // `-0.0` and `0.0` are the same outcome.
            let v = if v == 0.0 { 0.0 } else { v };
            match merged.last_mut() {
                Some(last) if last.0 == v => last.1 += p,
                _ => merged.push((v, p)),
            }
        }
        if merged.len() > cap {
            return Err(too_many(
                format!("{what} has {} outcomes", merged.len()),
                cap,
            ));
        }
        let integral = merged.iter().all(|&(v, _)| v.fract() == 0.0);
        if integral && !merged.is_empty() {
            let lo = merged[0].0 as i64;
            let span = (merged[merged.len() - 1].0 as i64 - lo) as usize + 1;
            // Dense only where it is not mostly holes.
            if span <= 4 * merged.len() + 64 && span <= cap {
                let mut p = vec![0.0; span];
                for (v, q) in merged {
                    p[(v as i64 - lo) as usize] = q;
                }
                return Ok(Pmf {
                    values: Values::Dense { offset: lo, p },
                    lost,
                    tail: Tail::UNKNOWN,
                });
            }
        }
        Ok(Pmf {
            values: Values::Sparse(merged),
            lost,
            tail: Tail::UNKNOWN,
        })
    }

    /// Number of stored outcomes (dense holes included).
    pub fn len(&self) -> usize {
        match &self.values {
            Values::Dense { p, .. } => p.len(),
            Values::Sparse(v) => v.len(),
        }
    }

    /// Every outcome with non-zero probability, ascending.
    pub fn pairs(&self) -> Vec<(f64, f64)> {
        match &self.values {
            Values::Dense { offset, p } => p
                .iter()
                .enumerate()
                .filter(|(_, q)| **q > 0.0)
                .map(|(i, q)| ((offset + i as i64) as f64, *q))
                .collect(),
            Values::Sparse(v) => v.clone(),
        }
    }

    /// The distribution of `f(X)`; an error of `f` on any possible value is the error.
    pub fn map(
        &self,
        f: impl Fn(f64) -> Result<f64, DiceErrorKind>,
        what: &'static str,
        cap: usize,
    ) -> Result<Pmf, DiceError> {
        let pairs = self
            .pairs()
            .into_iter()
            .map(|(v, p)| Ok((f(v).map_err(|k| DiceError::new(k, Span::default()))?, p)))
            .collect::<Result<Vec<_>, DiceError>>()?;
        Pmf::from_pairs(pairs, self.lost, what, cap)
    }

    /// `-X`, cheaply for dense distributions.
    pub fn neg(&self) -> Pmf {
        match &self.values {
            Values::Dense { offset, p } => {
                let mut q = p.clone();
                q.reverse();
                Pmf {
                    values: Values::Dense {
                        offset: -(offset + p.len() as i64 - 1),
                        p: q,
                    },
                    lost: self.lost,
                    tail: self.tail.neg(),
                }
            }
            Values::Sparse(v) => Pmf {
                values: Values::Sparse(
                    v.iter()
                        .rev()
                        .map(|&(x, p)| (if x == 0.0 { 0.0 } else { -x }, p))
                        .collect(),
                ),
                lost: self.lost,
                tail: self.tail.neg(),
            },
        }
    }

    /// The distribution of `f(X, Y)` for independent `X = self` and `Y = other`; an error of
    /// `f` on any possible pair is the error.
    pub fn combine(
        &self,
        other: &Pmf,
        f: impl Fn(f64, f64) -> Result<f64, DiceErrorKind>,
        what: &'static str,
        cap: usize,
    ) -> Result<Pmf, DiceError> {
        check_work(self.len().saturating_mul(other.len()), what, cap)?;
        let a = self.pairs();
        let b = other.pairs();
        let mut out = Vec::with_capacity(a.len() * b.len());
        for &(x, p) in &a {
            for &(y, q) in &b {
                let v = f(x, y).map_err(|k| DiceError::new(k, Span::default()))?;
                out.push((v, p * q));
            }
        }
        Pmf::from_pairs(out, lost_both(self.lost, other.lost), what, cap)
    }

    /// `X + Y` for independent `X` and `Y`: a convolution when both are dense.
    pub fn add(&self, other: &Pmf, cap: usize) -> Result<Pmf, DiceError> {
        match (&self.values, &other.values) {
            (Values::Dense { offset: oa, p: a }, Values::Dense { offset: ob, p: b }) => {
                if a.is_empty() || b.is_empty() {
                    return Ok(Pmf::dense(0, Vec::new(), 1.0));
                }
                let len = a.len() + b.len() - 1;
                if len > cap {
                    return Err(too_many(format!("a sum with {len} possible totals"), cap));
                }
                check_work(a.len().saturating_mul(b.len()), "a sum", cap)?;
                Ok(Pmf {
                    values: Values::Dense {
                        offset: oa + ob,
                        p: convolve(a, b),
                    },
                    lost: lost_both(self.lost, other.lost),
                    tail: sum_tail(self, other),
                })
            }
            _ => {
                let mut sum = self.combine(other, |x, y| Ok(x + y), "a sum", cap)?;
                sum.tail = sum_tail(self, other);
                Ok(sum)
            }
        }
    }

    /// The range of every outcome, cut-off ones included (empty for an empty distribution).
    pub fn span(&self) -> Tail {
        let kept = match &self.values {
            Values::Dense { offset, p } if !p.is_empty() => Tail {
                lo: *offset as f64,
                hi: (offset + p.len() as i64 - 1) as f64,
            },
            Values::Sparse(v) if !v.is_empty() => Tail {
                lo: v[0].0,
                hi: v[v.len() - 1].0,
            },
            _ => Tail::EMPTY,
        };
        if self.lost > 0.0 {
            kept.hull(self.tail)
        } else {
            kept
        }
    }

    /// The sum of `n` independent copies (exponentiation by squaring).
    pub fn sum_of(&self, n: u64, cap: usize) -> Result<Pmf, DiceError> {
        if n == 0 {
            return Ok(Pmf::constant(0.0));
        }
        if let Values::Dense { p, .. } = &self.values {
            if p.is_empty() {
                return Ok(Pmf::dense(0, Vec::new(), 1.0));
            }
            let len = (p.len() as u64 - 1).saturating_mul(n) + 1;
            if len > cap as u64 {
                return Err(too_many(
                    format!("the sum of {n} dice with {len} possible totals"),
                    cap,
                ));
            }
        }
        let mut result: Option<Pmf> = None;
        let mut base = self.clone();
        let mut k = n;
        loop {
            if k & 1 == 1 {
                result = Some(match result {
                    None => base.clone(),
                    Some(r) => r.add(&base, cap)?,
                });
            }
            k >>= 1;
            if k == 0 {
                break;
            }
            base = base.add(&base, cap)?;
        }
        let mut r = result.expect("n > 0");
        // Recompute the lost mass in one step rather than by repeated combination; at least
        // one copy is cut off, the others may be anything.
        r.lost = lost_power(self.lost, n);
        let others = Tail {
            lo: self.span().lo * (n - 1) as f64,
            hi: self.span().hi * (n - 1) as f64,
        };
        r.tail = if n == 1 {
            self.tail
        } else {
            self.tail.plus(others).or_unknown()
        };
        Ok(r)
    }

    /// A mixture: with probability `w`, the distribution `pmf` (weights sum to at most 1; the
    /// missing weight is lost mass of whatever chose between them).
    pub fn mixture(parts: Vec<(f64, Pmf)>, lost: f64, cap: usize) -> Result<Pmf, DiceError> {
        if parts.len() == 1 && parts[0].0 == 1.0 {
            let mut only = parts.into_iter().next().expect("one part").1;
            only.lost = lost_both(only.lost, lost);
            if lost > 0.0 {
                // What the choice itself lost could be anything.
                only.tail = Tail::UNKNOWN;
            }
            return Ok(only);
        }
        let mut total_lost = lost;
        let mut tail = if lost > 0.0 {
            Tail::UNKNOWN
        } else {
            Tail::EMPTY
        };
        let mut pairs = Vec::new();
        for (w, pmf) in parts {
            total_lost += w * pmf.lost;
            if w * pmf.lost > 0.0 {
                tail = tail.hull(pmf.tail);
            }
            pairs.extend(pmf.pairs().into_iter().map(|(v, p)| (v, p * w)));
        }
        let mut mix = Pmf::from_pairs(pairs, total_lost, "a mixture", cap)?;
        mix.tail = tail.or_unknown();
        Ok(mix)
    }
}

/// Where the cut-off outcomes of `X + Y` lie: `X` cut off and `Y` anything, or the reverse.
fn sum_tail(a: &Pmf, b: &Pmf) -> Tail {
    pair_tail(a, b, |x, y| x.plus(y))
}

/// Where the cut-off outcomes of `f(X, Y)` lie, given `image` of `f` over two intervals: `X`
/// cut off and `Y` anything, or the reverse.
pub(super) fn pair_tail(a: &Pmf, b: &Pmf, image: impl Fn(Tail, Tail) -> Tail) -> Tail {
    let mut t = Tail::EMPTY;
    if a.lost > 0.0 {
        t = t.hull(image(a.tail, b.span()));
    }
    if b.lost > 0.0 {
        t = t.hull(image(a.span(), b.tail));
    }
    t.or_unknown()
}

/// Full linear convolution of two probability vectors. The inner loop is an `axpy`, which the
/// compiler vectorises.
pub(super) fn convolve(a: &[f64], b: &[f64]) -> Vec<f64> {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    let mut out = vec![0.0; a.len() + b.len() - 1];
    for (i, &x) in short.iter().enumerate() {
        if x == 0.0 {
            continue;
        }
        for (o, &y) in out[i..i + long.len()].iter_mut().zip(long) {
            *o += x * y;
        }
    }
    out
}
