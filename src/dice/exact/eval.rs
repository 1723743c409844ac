//! The walk over the expression tree: numbers, operators, functions and labels, handing dice
//! pools to `pool.rs` and groups to `group.rs`. Independent sub-expressions combine by the
//! product of their distributions.

use super::super::arith;
use super::super::ast::{BinaryOp, Count, Expr, Func, UnaryOp};
use super::super::error::{DiceError, DiceErrorKind};
use super::budget::Budget;
use super::options::ExactOptions;
use super::pmf::{MAX_MAGNITUDE, Pmf, pair_tail};
use super::{group, pool};
use crate::span::Span;

/// Whole-number outcomes of a count or size, and the mass lost to the depth cut.
pub(super) type Whole = (Vec<(i64, f64)>, f64);

/// State of one evaluation: the options, and what the result must report.
#[derive(Debug)]
pub(super) struct Ctx<'a> {
    /// The caller's options.
    pub opts: &'a ExactOptions,
    /// An explosion without a written limit was followed `explode_depth` deep.
    pub cut_depth: bool,
    /// The largest written explosion limit seen.
    pub written_depth: Option<u32>,
    /// The work spent so far against `opts.max_work`.
    pub budget: Budget,
}

impl<'a> Ctx<'a> {
    /// A fresh evaluation.
    pub fn new(opts: &'a ExactOptions) -> Self {
        Ctx {
            opts,
            cut_depth: false,
            written_depth: None,
            budget: Budget::new(opts.max_work),
        }
    }

    /// The cap on outcomes.
    pub fn cap(&self) -> usize {
        self.opts.max_outcomes
    }

    /// The distribution of `e`.
    pub fn eval(&mut self, e: &Expr) -> Result<Pmf, DiceError> {
        match e {
            Expr::Num(x) => {
                if !x.is_finite() || x.abs() > MAX_MAGNITUDE {
                    return Err(out_of_range("a number", *x));
                }
                Ok(Pmf::constant(*x))
            }
            Expr::Dice(d) => pool::pool(self, d, &[]),
            Expr::Group(g) => group::group(self, g),
            Expr::Unary(UnaryOp::Neg, x) => Ok(self.eval(x)?.neg()),
            Expr::Unary(UnaryOp::Plus, x) | Expr::Labeled(x, _) => self.eval(x),
            Expr::Binary(op, lr) => {
                let a = self.eval(&lr[0])?;
                let b = self.eval(&lr[1])?;
                self.binary(*op, &a, &b)
            }
            Expr::Call(f, args) => self.call(*f, args),
        }
    }

    fn binary(&self, op: BinaryOp, a: &Pmf, b: &Pmf) -> Result<Pmf, DiceError> {
        let cap = self.cap();
        self.budget
            .charge(a.len().saturating_mul(b.len()), op_name(op))?;
        match op {
            BinaryOp::Add => a.add(b, cap),
            BinaryOp::Sub => a.add(&b.neg(), cap),
            // Same arithmetic as the roller, value by value (division by zero included).
            _ => {
                let mut out = a.combine(b, |x, y| arith::binary(op, x, y), op_name(op), cap)?;
                if op == BinaryOp::Mul {
                    out.tail = pair_tail(a, b, |x, y| x.corners(y, |u, v| u * v));
                }
                Ok(out)
            }
        }
    }

    fn call(&mut self, f: Func, args: &[Expr]) -> Result<Pmf, DiceError> {
        let cap = self.cap();
        let vals = args
            .iter()
            .map(|a| self.eval(a))
            .collect::<Result<Vec<_>, _>>()?;
        let (min, max) = f.arity();
        if vals.len() < min || max.is_some_and(|m| vals.len() > m) {
            return Err(DiceError::new(
                DiceErrorKind::Arity {
                    name: f.name(),
                    expected: match max {
                        Some(m) if m == min => format!("{min} argument(s)"),
                        _ => format!("at least {min} arguments"),
                    },
                    found: vals.len(),
                },
                Span::default(),
            ));
        }
        match f {
            Func::Pow => self.binary(BinaryOp::Pow, &vals[0], &vals[1]),
            // min and max of several arguments, two at a time.
            Func::Min | Func::Max => {
                let mut acc = vals[0].clone();
                let pick = if f == Func::Min { f64::min } else { f64::max };
                for v in &vals[1..] {
                    self.budget
                        .charge(acc.len().saturating_mul(v.len()), f.name())?;
                    let next = acc.combine(v, |x, y| arith::call(f, &[x, y]), f.name(), cap)?;
                    acc = Pmf {
                        tail: pair_tail(&acc, v, |x, y| x.corners(y, pick)),
                        ..next
                    };
                }
                Ok(acc)
            }
            _ => {
                self.budget.charge(vals[0].len(), f.name())?;
                let mut out = vals[0].map(|x| arith::call(f, &[x]), f.name(), cap)?;
                if let Some(g) = rising(f) {
                    out.tail = vals[0].tail.map_rising(g);
                }
                Ok(out)
            }
        }
    }

    /// The distribution of `floor(e)`: a rolled count or size.
    pub fn whole(&mut self, e: &Expr) -> Result<Whole, DiceError> {
        let pmf = self.eval(e)?;
        let mut out: Vec<(i64, f64)> = Vec::new();
        for (v, p) in pmf.pairs() {
            let w = v.floor() as i64;
            match out.last_mut() {
                Some(last) if last.0 == w => last.1 += p,
                _ => out.push((w, p)),
            }
        }
        Ok((out, pmf.lost))
    }

    /// The outcomes of a count: written, or rolled and rounded down.
    pub fn count(&mut self, c: &Count) -> Result<Whole, DiceError> {
        match c {
            Count::Number(n) => Ok((vec![(*n as i64, 1.0)], 0.0)),
            Count::Expr(e) => self.whole(e),
        }
    }
}

/// A non-decreasing function's own arithmetic, defined at infinity too, to carry the cut-off
/// tail's bounds through it.
fn rising(f: Func) -> Option<fn(f64) -> f64> {
    match f {
        Func::Floor => Some(f64::floor),
        Func::Ceil => Some(f64::ceil),
        Func::Round => Some(|x| (x + 0.5).floor()),
        Func::Trunc => Some(f64::trunc),
        _ => None,
    }
}

/// What an operator's result is called in errors.
fn op_name(op: BinaryOp) -> &'static str {
    match op {
        BinaryOp::Add => "a sum",
        BinaryOp::Sub => "a difference",
        BinaryOp::Mul => "a product",
        BinaryOp::Div | BinaryOp::FloorDiv => "a quotient",
        BinaryOp::Rem => "a remainder",
        BinaryOp::Pow => "a power",
        BinaryOp::Cmp(_) => "a comparison",
    }
}

/// The error for a value too large or not a number.
pub(super) fn out_of_range(what: &'static str, v: f64) -> DiceError {
    DiceError::new(
        DiceErrorKind::OutOfRange {
            what,
            value: format!("{v}"),
        },
        Span::default(),
    )
}
