//! Arithmetic on totals: the operators and functions of the notation, shared by the roller
//! and the exact engine so both give the same answer.
//!
//! Every result is checked: division by zero, a non-number, or a magnitude above
//! [`Caps::max_magnitude`](super::Caps) is an error, never a silent infinity.

use super::ast::{BinaryOp, Func, UnaryOp};
use super::caps::Caps;
use super::error::DiceErrorKind;

/// Checks that `v` is a finite number within the exact range.
pub fn checked(v: f64, what: &'static str) -> Result<f64, DiceErrorKind> {
    if v.is_finite() && v.abs() <= Caps::DEFAULT.max_magnitude {
        Ok(v)
    } else {
        Err(DiceErrorKind::OutOfRange {
            what,
            value: format!("{v}"),
        })
    }
}

/// `op x`.
pub fn unary(op: UnaryOp, x: f64) -> f64 {
    match op {
        UnaryOp::Neg => -x,
        UnaryOp::Plus => x,
    }
}

/// `a op b`, checked.
pub fn binary(op: BinaryOp, a: f64, b: f64) -> Result<f64, DiceErrorKind> {
    let v = match op {
        BinaryOp::Add => a + b,
        BinaryOp::Sub => a - b,
        BinaryOp::Mul => a * b,
        BinaryOp::Div | BinaryOp::FloorDiv | BinaryOp::Rem if b == 0.0 => {
            return Err(DiceErrorKind::DivisionByZero);
        }
        BinaryOp::Div => a / b,
        BinaryOp::FloorDiv => (a / b).floor(),
        BinaryOp::Rem => a - b * (a / b).floor(),
        BinaryOp::Pow => a.powf(b),
        BinaryOp::Cmp(c) => f64::from(u8::from(c.holds(a, b))),
    };
    // `-0` prints as `-0`; nobody wants that in a total.
    checked(if v == 0.0 { 0.0 } else { v }, "the result")
}

/// `func(args…)`, checked. The argument count has been checked by the parser.
pub fn call(func: Func, args: &[f64]) -> Result<f64, DiceErrorKind> {
    let x = args.first().copied().unwrap_or(0.0);
    let domain = |ok: bool| {
        if ok {
            Ok(())
        } else {
            Err(DiceErrorKind::OutOfRange {
                what: "the argument",
                value: format!("{}({x})", func.name()),
            })
        }
    };
    let v = match func {
        Func::Floor => x.floor(),
        Func::Ceil => x.ceil(),
        Func::Round => (x + 0.5).floor(),
        Func::Trunc => x.trunc(),
        Func::Abs => x.abs(),
        Func::Sign => {
            if x == 0.0 {
                0.0
            } else {
                x.signum()
            }
        }
        Func::Sqrt => {
            domain(x >= 0.0)?;
            x.sqrt()
        }
        Func::Exp => x.exp(),
        Func::Log => {
            domain(x > 0.0)?;
            x.ln()
        }
        Func::Sin => x.sin(),
        Func::Cos => x.cos(),
        Func::Tan => x.tan(),
        Func::Min => args.iter().copied().fold(f64::INFINITY, f64::min),
        Func::Max => args.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        Func::Pow => return binary(BinaryOp::Pow, x, args.get(1).copied().unwrap_or(1.0)),
    };
    checked(if v == 0.0 { 0.0 } else { v }, "the result")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ast::CmpOp;

    #[test]
    fn division_is_exact_and_floor_division_rounds_down() {
        assert_eq!(binary(BinaryOp::Div, 15.0, 2.0), Ok(7.5));
        assert_eq!(binary(BinaryOp::FloorDiv, 15.0, 2.0), Ok(7.0));
        assert_eq!(binary(BinaryOp::FloorDiv, -15.0, 2.0), Ok(-8.0));
    }

    #[test]
    fn remainder_takes_the_sign_of_the_divisor() {
        assert_eq!(binary(BinaryOp::Rem, -7.0, 3.0), Ok(2.0));
        assert_eq!(binary(BinaryOp::Rem, 7.0, -3.0), Ok(-2.0));
    }

    #[test]
    fn division_by_zero_is_an_error() {
        for op in [BinaryOp::Div, BinaryOp::FloorDiv, BinaryOp::Rem] {
            assert_eq!(binary(op, 10.0, 0.0), Err(DiceErrorKind::DivisionByZero));
        }
    }

    #[test]
    fn round_takes_halves_up() {
        assert_eq!(call(Func::Round, &[2.5]), Ok(3.0));
        assert_eq!(call(Func::Round, &[-2.5]), Ok(-2.0));
        assert_eq!(call(Func::Floor, &[-2.5]), Ok(-3.0));
        assert_eq!(call(Func::Ceil, &[2.1]), Ok(3.0));
    }

    #[test]
    fn huge_results_are_errors_not_infinities() {
        assert!(binary(BinaryOp::Pow, 10.0, 400.0).is_err());
        assert!(binary(BinaryOp::Mul, 1e15, 1e15).is_err());
        assert!(call(Func::Sqrt, &[-1.0]).is_err());
    }

    #[test]
    fn comparisons_give_one_or_zero() {
        assert_eq!(binary(BinaryOp::Cmp(CmpOp::Le), 1.0, 1.0), Ok(1.0));
        assert_eq!(binary(BinaryOp::Cmp(CmpOp::Gt), 1.0, 1.0), Ok(0.0));
    }
}
