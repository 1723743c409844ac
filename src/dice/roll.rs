//! Rolling (placeholder: being written).
use super::ast::{DiceExpr, Expr};
use super::error::{DiceError, DiceErrorKind};
use super::limits::Limits;
use super::result::Roll;
use super::source::DiceSource;
use crate::span::Span;

/// Rolls a parsed request: once, or `repeat` times.
pub fn roll(
    expr: &DiceExpr,
    source: &mut dyn DiceSource,
    limits: &Limits,
) -> Result<Vec<Roll>, DiceError> {
    let _ = (expr, source, limits);
    Err(DiceError::new(DiceErrorKind::Empty, Span::default()))
}

/// Rolls one expression once.
pub fn roll_expr(
    expr: &Expr,
    source: &mut dyn DiceSource,
    limits: &Limits,
) -> Result<Roll, DiceError> {
    let _ = (expr, source, limits);
    Err(DiceError::new(DiceErrorKind::Empty, Span::default()))
}
