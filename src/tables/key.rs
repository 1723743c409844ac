//! Row and column keys: numeric ranges (`1-4`, `5`, `9+`, `<=0`) or names (`open`, `elite`).

use std::fmt;

use serde::{Deserialize, Serialize};

/// An inclusive range of integers; an open end is unbounded (`9+`, `<=0`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Range {
    /// Lowest value (`None`: no lower bound).
    pub lo: Option<i64>,
    /// Highest value (`None`: no upper bound).
    pub hi: Option<i64>,
}

impl Range {
    /// `lo` to `hi` inclusive.
    pub fn new(lo: i64, hi: i64) -> Self {
        Range {
            lo: Some(lo),
            hi: Some(hi),
        }
    }

    /// Whether `v` is in the range.
    pub fn contains(&self, v: i64) -> bool {
        self.lo.is_none_or(|lo| v >= lo) && self.hi.is_none_or(|hi| v <= hi)
    }

    /// Parses `5`, `1-4`, `1 – 4`, `1..4`, `9+`, `<=0`, `≤0`, `-3--1` (minus signs allowed).
    pub fn parse(text: &str) -> Option<Range> {
        let t: String = text
            .chars()
            .filter(|c| !c.is_whitespace())
            .map(|c| match c {
                '−' => '-',
                '–' | '—' => '~',
                _ => c,
            })
            .collect();
        let int = |s: &str| s.parse::<i64>().ok();
        if let Some(n) = t.strip_suffix('+') {
            return Some(Range {
                lo: Some(int(n)?),
                hi: None,
            });
        }
        if let Some(n) = t.strip_prefix("<=").or_else(|| t.strip_prefix('≤')) {
            return Some(Range {
                lo: None,
                hi: Some(int(n)?),
            });
        }
        if let Some(n) = t.strip_prefix(">=").or_else(|| t.strip_prefix('≥')) {
            return Some(Range {
                lo: Some(int(n)?),
                hi: None,
            });
        }
        if let Some(v) = int(&t) {
            return Some(Range::new(v, v));
        }
        let (a, b) = if let Some((a, b)) = t.split_once("..") {
            (a, b)
        } else if let Some((a, b)) = t.split_once('~') {
            (a, b)
        } else {
            // The separating `-` follows a digit: `-3--1` splits at index 2.
            let bytes = t.as_bytes();
            let i =
                (1..bytes.len()).find(|&i| bytes[i] == b'-' && bytes[i - 1].is_ascii_digit())?;
            (&t[..i], &t[i + 1..])
        };
        let (lo, hi) = (int(a)?, int(b)?);
        (lo <= hi).then_some(Range::new(lo, hi))
    }
}

impl fmt::Display for Range {
    /// `5`, `1-4`, `9+`, `<=0`, `any`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.lo, self.hi) {
            (Some(a), Some(b)) if a == b => write!(f, "{a}"),
            (Some(a), Some(b)) => write!(f, "{a}-{b}"),
            (Some(a), None) => write!(f, "{a}+"),
            (None, Some(b)) => write!(f, "<={b}"),
            (None, None) => f.write_str("any"),
        }
    }
}

/// A row or column key of a cross-reference table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Key {
    /// A numeric range.
    Range(Range),
    /// A name, matched without regard to case.
    Name(String),
}

impl Key {
    /// A range if `text` reads as one, else a name.
    pub fn parse(text: &str) -> Key {
        match Range::parse(text) {
            Some(r) => Key::Range(r),
            None => Key::Name(text.trim().to_string()),
        }
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Key::Range(r) => write!(f, "{r}"),
            Key::Name(n) => f.write_str(n),
        }
    }
}

/// The first overlap or gap in `ranges` (in any order): `Err((i, j, kind))` with the indices
/// of the two offending ranges. Gaps are only reported when `gaps` is set.
pub(crate) fn check_ranges(ranges: &[Range], gaps: bool) -> Result<(), (usize, usize, Flaw)> {
    let mut order: Vec<usize> = (0..ranges.len()).collect();
    order.sort_by_key(|&i| {
        (
            ranges[i].lo.unwrap_or(i64::MIN),
            ranges[i].hi.unwrap_or(i64::MAX),
        )
    });
    for w in order.windows(2) {
        let (a, b) = (ranges[w[0]], ranges[w[1]]);
        let a_hi = a.hi.unwrap_or(i64::MAX);
        let b_lo = b.lo.unwrap_or(i64::MIN);
        let (first, second) = (w[0].min(w[1]), w[0].max(w[1]));
        if b_lo <= a_hi {
            return Err((
                first,
                second,
                Flaw::Overlap(b_lo.max(a.lo.unwrap_or(i64::MIN))),
            ));
        }
        if gaps && b_lo > a_hi + 1 {
            return Err((w[0], w[1], Flaw::Gap(Range::new(a_hi + 1, b_lo - 1))));
        }
    }
    Ok(())
}

/// What [`check_ranges`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Flaw {
    /// A value in two ranges.
    Overlap(i64),
    /// Values in no range (the two indices are the ranges below and above, in that order).
    Gap(Range),
}
