//! Where the cut-off outcomes can lie. An explosion followed only so deep leaves a tail of
//! longer chains whose probability is known ([`Pmf::lost`](super::pmf::Pmf)) but whose values
//! are not; this keeps an interval that surely holds them, so that `prob 1d6! >= 7` can count
//! the whole tail in (every longer chain is at least 37) instead of leaving it out.
//!
//! Intervals are conservative: an operation that cannot say where its tail lies gives
//! [`Tail::UNKNOWN`], and a question about it is then answered as a range.

/// Every cut-off outcome lies in `lo..=hi`; an infinite end is unbounded or not known. Only
/// meaningful while some mass is lost.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tail {
    /// The least value a cut-off outcome can take.
    pub lo: f64,
    /// The greatest value a cut-off outcome can take.
    pub hi: f64,
}

impl Tail {
    /// Nothing known: anywhere.
    pub const UNKNOWN: Tail = Tail {
        lo: f64::NEG_INFINITY,
        hi: f64::INFINITY,
    };

    /// The empty interval, the start of a hull.
    pub const EMPTY: Tail = Tail {
        lo: f64::INFINITY,
        hi: f64::NEG_INFINITY,
    };

    /// Whether it holds no value (an end that is not a number counts as empty).
    pub fn is_empty(self) -> bool {
        self.lo.partial_cmp(&self.hi).is_none_or(|o| o.is_gt())
    }

    /// The smallest interval holding both.
    pub fn hull(self, o: Tail) -> Tail {
        Tail {
            lo: self.lo.min(o.lo),
            hi: self.hi.max(o.hi),
        }
    }

    /// `x + y` for `x` in `self` and `y` in `o`.
    pub fn plus(self, o: Tail) -> Tail {
        if self.is_empty() || o.is_empty() {
            return Tail::EMPTY;
        }
        let t = Tail {
            lo: self.lo + o.lo,
            hi: self.hi + o.hi,
        };
        if t.lo.is_nan() || t.hi.is_nan() {
            Tail::UNKNOWN
        } else {
            t
        }
    }

    /// `-x` for `x` in `self`.
    pub fn neg(self) -> Tail {
        Tail {
            lo: -self.hi,
            hi: -self.lo,
        }
    }

    /// `self` when it holds something, else [`Tail::UNKNOWN`].
    pub fn or_unknown(self) -> Tail {
        if self.is_empty() { Tail::UNKNOWN } else { self }
    }

    /// Where `f(x, y)` lies for `x` in `self` and `y` in `o`, for an `f` monotone in each
    /// argument while the other is fixed (`*`, `min`, `max`): its extremes are at the corners.
    pub fn corners(self, o: Tail, f: impl Fn(f64, f64) -> f64) -> Tail {
        if self.is_empty() || o.is_empty() {
            return Tail::EMPTY;
        }
        let mut out = Tail::EMPTY;
        for x in [self.lo, self.hi] {
            for y in [o.lo, o.hi] {
                let v = f(x, y);
                if v.is_nan() {
                    return Tail::UNKNOWN;
                }
                out = out.hull(Tail { lo: v, hi: v });
            }
        }
        out
    }

    /// Where `f(x)` lies for `x` in `self`, for a non-decreasing `f`.
    pub fn map_rising(self, f: impl Fn(f64) -> f64) -> Tail {
        if self.is_empty() {
            return self;
        }
        let t = Tail {
            lo: f(self.lo),
            hi: f(self.hi),
        };
        if t.lo.is_nan() || t.hi.is_nan() {
            Tail::UNKNOWN
        } else {
            t
        }
    }

    /// The sums of `1..=most` steps where all but the last are drawn from `going` and the
    /// last from `any`: the values an explosion chain adds after being cut.
    pub fn more_steps(going: Tail, any: Tail, most: u32) -> Tail {
        if going.is_empty() || most <= 1 {
            return any;
        }
        let k = f64::from(most - 1);
        any.plus(Tail {
            lo: (going.lo * k).min(0.0),
            hi: (going.hi * k).max(0.0),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(lo: f64, hi: f64) -> Tail {
        Tail { lo, hi }
    }

    #[test]
    fn interval_arithmetic() {
        assert_eq!(t(1.0, 2.0).plus(t(10.0, 20.0)), t(11.0, 22.0));
        assert_eq!(t(1.0, 2.0).neg(), t(-2.0, -1.0));
        assert_eq!(Tail::EMPTY.hull(t(3.0, 4.0)), t(3.0, 4.0));
        assert!(Tail::EMPTY.plus(t(1.0, 1.0)).is_empty());
        assert_eq!(Tail::UNKNOWN.plus(Tail::UNKNOWN), Tail::UNKNOWN);
        assert_eq!(Tail::EMPTY.or_unknown(), Tail::UNKNOWN);
    }

    #[test]
    fn products_and_rounding() {
        assert_eq!(
            t(2.0, 3.0).corners(t(-1.0, 4.0), |x, y| x * y),
            t(-3.0, 12.0)
        );
        assert_eq!(
            t(0.0, 1.0).corners(Tail::UNKNOWN, |x, y| x * y),
            Tail::UNKNOWN
        );
        assert_eq!(
            t(37.0, f64::INFINITY).corners(t(2.0, 2.0), |x, y| x * y),
            t(74.0, f64::INFINITY)
        );
        assert_eq!(t(1.5, 7.5).map_rising(f64::floor), t(1.0, 7.0));
    }

    #[test]
    fn more_steps_of_a_d6_exploding_on_six() {
        // One more roll (1..6), or up to 94 more where all but the last are sixes.
        let tail = Tail::more_steps(t(6.0, 6.0), t(1.0, 6.0), 95);
        assert_eq!(tail, t(1.0, 6.0 + 94.0 * 6.0));
        assert_eq!(Tail::more_steps(t(6.0, 6.0), t(1.0, 6.0), 1), t(1.0, 6.0));
        // Penetrating fudge dice can go down as well as up.
        let tail = Tail::more_steps(t(-1.0, 1.0), t(-2.0, 0.0), 3);
        assert_eq!(tail, t(-4.0, 2.0));
    }
}
