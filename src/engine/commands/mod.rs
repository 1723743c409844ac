//! The built-in commands: the table that declares them (`builtins.rs`, with `help`, `limits`
//! and `quit`), and the commands by area.

pub mod builtins;
pub mod campaign;
pub mod dice;
pub mod game;
pub mod journal;
pub mod odds;
pub mod report;
pub mod table;

pub use builtins::{NOTATION, registry};
