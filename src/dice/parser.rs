//! The dice notation parser (placeholder: being written).
use super::ast::DiceExpr;
use super::error::{DiceError, DiceErrorKind};
use crate::span::Span;

/// Parses a dice expression.
pub fn parse(_input: &str) -> Result<DiceExpr, DiceError> {
    Err(DiceError::new(DiceErrorKind::Empty, Span::default()))
}
