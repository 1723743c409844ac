//! The command engine: one command line in, one [`Output`] and one committed transaction
//! out (or a [`CommandError`] and nothing changed).
//!
//! A line is split into a [`CommandLine`](line::CommandLine) (syntax only), found in the
//! [`Commands`](registry::Commands) table, its words parsed once against the command's
//! [`Signature`](signature::Signature), and run against the [`Session`] as one transaction:
//! the rolls and changes it makes are collected, the events they raise handled, and the
//! whole committed to the journal before the output is returned. The rules in force (the
//! Lua host) are called from here. The engine knows nothing of terminals: the shell reads
//! lines, completes, renders and prints.

pub mod commands;
pub mod error;
pub mod events;
pub mod games;
pub mod line;
pub mod options;
pub mod output;
pub mod registry;
pub mod render;
pub mod resume;
pub mod rule_commands;
pub mod rule_tests;
pub mod rules;
pub mod session;
pub mod signature;
pub mod style;

#[cfg(test)]
mod fault_tests;

pub use error::{CommandError, CommandErrorKind};
pub use output::Output;
pub use session::Session;
pub use style::{Palette, Style};
