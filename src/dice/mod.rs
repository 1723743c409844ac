//! Dice: the notation, rolling with every die kept for the breakdown, and exact odds.
//!
//! This module knows nothing of the terminal, the journal or Lua: it turns text into a
//! [`DiceExpr`], a [`DiceExpr`] and a [`DiceSource`] into [`Roll`]s, and a [`DiceExpr`] into
//! an exact [`Distribution`]. The notation is written down in `GRAMMAR.md`.

pub mod arith;
pub mod ast;
pub mod caps;
pub mod error;
pub mod exact;
pub mod parser;
pub mod render;
pub mod result;
pub mod roll;
pub mod source;
pub mod text;

pub use ast::{DiceExpr, Expr};
pub use caps::Caps;
pub use error::{DiceError, DiceErrorKind};
pub use exact::{Distribution, ExactOptions};
pub use parser::parse;
pub use result::{Die, Roll, RollNode};
pub use roll::{Rolls, roll, roll_expr};
pub use source::{
    DiceBox, DiceMode, DiceSource, DieEntry, DieRequest, Faces, Generator, SourceKind,
};
pub use text::NotationText;

/// The function name closest to `name`, for "did you mean" hints.
pub fn nearest_function(name: &str) -> Option<&'static str> {
    ast::Func::ALL
        .iter()
        .map(|f| f.name())
        .map(|n| (strsim::levenshtein(name, n), n))
        .filter(|(d, _)| *d <= 2)
        .min_by_key(|(d, _)| *d)
        .map(|(_, n)| n)
}

#[cfg(test)]
mod parser_fast_tests;
#[cfg(test)]
mod parser_tests;
#[cfg(test)]
mod pinned_tests;
#[cfg(test)]
mod roll_tests;
