//! The walk over the expression tree: numbers, operators, functions and labels, handing dice
//! pools to `pool.rs` and groups to `group.rs`. Independent sub-expressions combine by the
//! product of their distributions.

use super::super::ast::{BinaryOp, Count, Expr, Func, UnaryOp};
use super::super::error::{DiceError, DiceErrorKind};
use super::options::ExactOptions;
use super::pmf::{MAX_MAGNITUDE, Pmf};
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
}

impl<'a> Ctx<'a> {
    /// A fresh evaluation.
    pub fn new(opts: &'a ExactOptions) -> Self {
        Ctx {
            opts,
            cut_depth: false,
            written_depth: None,
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
            Expr::Binary(op, l, r) => {
                let a = self.eval(l)?;
                let b = self.eval(r)?;
                self.binary(*op, &a, &b)
            }
            Expr::Call(f, args) => self.call(*f, args),
        }
    }

    fn binary(&self, op: BinaryOp, a: &Pmf, b: &Pmf) -> Result<Pmf, DiceError> {
        let cap = self.cap();
        if matches!(op, BinaryOp::Div | BinaryOp::FloorDiv | BinaryOp::Rem)
            && b.mass_where(|y| y == 0.0) > 0.0
        {
            return Err(DiceError::new(
                DiceErrorKind::DivisionByZero,
                Span::default(),
            ));
        }
        match op {
            BinaryOp::Add => a.add(b, cap),
            BinaryOp::Sub => a.add(&b.neg(), cap),
            BinaryOp::Mul => a.combine(b, |x, y| x * y, "a product", cap),
            BinaryOp::Div => a.combine(b, |x, y| x / y, "a quotient", cap),
            BinaryOp::FloorDiv => a.combine(b, |x, y| (x / y).floor(), "a quotient", cap),
            BinaryOp::Rem => a.combine(b, floored_rem, "a remainder", cap),
            BinaryOp::Pow => a.combine(b, f64::powf, "a power", cap),
            BinaryOp::Cmp(c) => a.combine(
                b,
                |x, y| if c.holds(x, y) { 1.0 } else { 0.0 },
                "a comparison",
                cap,
            ),
        }
    }

    fn call(&mut self, f: Func, args: &[Expr]) -> Result<Pmf, DiceError> {
        let cap = self.cap();
        let mut vals = args
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
        let unary = |g: fn(f64) -> f64, x: &Pmf| x.map(g, f.name(), cap);
        match f {
            Func::Floor => unary(f64::floor, &vals[0]),
            Func::Ceil => unary(f64::ceil, &vals[0]),
            Func::Round => unary(|x| (x + 0.5).floor(), &vals[0]),
            Func::Trunc => unary(f64::trunc, &vals[0]),
            Func::Abs => unary(f64::abs, &vals[0]),
            Func::Sign => unary(sign, &vals[0]),
            Func::Sqrt => unary(f64::sqrt, &vals[0]),
            Func::Exp => unary(f64::exp, &vals[0]),
            Func::Log => unary(f64::ln, &vals[0]),
            Func::Sin => unary(f64::sin, &vals[0]),
            Func::Cos => unary(f64::cos, &vals[0]),
            Func::Tan => unary(f64::tan, &vals[0]),
            Func::Pow => self.binary(BinaryOp::Pow, &vals[0], &vals[1]),
            Func::Min | Func::Max => {
                let pick = if f == Func::Min { f64::min } else { f64::max };
                let mut acc = vals.remove(0);
                for v in &vals {
                    acc = acc.combine(v, pick, f.name(), cap)?;
                }
                Ok(acc)
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

/// `a % b` with the sign of the divisor: `a - b * floor(a / b)`.
fn floored_rem(a: f64, b: f64) -> f64 {
    let r = a % b;
    if r != 0.0 && (r < 0.0) != (b < 0.0) {
        r + b
    } else {
        r
    }
}

/// −1, 0 or 1 (`f64::signum` gives 1 for 0).
fn sign(x: f64) -> f64 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        0.0
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
