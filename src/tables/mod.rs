//! Tables: dice-range tables (`d8: 1-4 open, 5 gentle hill, …`), cross-reference tables
//! (row key × column key → value, like a combat table) and keyed lookups.
//!
//! Tables are loaded from TOML (`docs/tables.md`) or built in Rust (the Lua host will do
//! that), checked for overlapping and missing ranges, rolled on through the dice module (so
//! seeded, entered and queued dice all work and the [`Roll`](crate::dice::Roll) can be
//! journalled), looked up, and rendered as aligned text. This module knows nothing of the
//! game state or the terminal.

pub mod cell;
mod check;
pub mod error;
pub mod key;
pub mod load;
mod lookup;
pub mod render;
pub mod table;
pub mod table_set;

pub use cell::Cell;
pub use error::{TableError, TableErrorKind};
pub use key::{Key, Range};
pub use load::load_tables;
pub use table::{Lookup, RangeRow, Table, TableKind, TableRoll};
pub use table_set::TableSet;

#[cfg(test)]
mod tests;
