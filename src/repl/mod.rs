//! The shell: command lines in, rendered text or JSON out.
//!
//! A line is split into a [`Command`](command::Command) (syntax only), looked up in the
//! [`Registry`](registry::Registry) and run against the [`Session`], giving
//! an [`Output`] of typed blocks plus a JSON object, or a
//! [`CommandError`] with a span in the whole line. [`shell`] drives it
//! from the REPL, from `umpire run`, or once from the command line. This module owns the
//! terminal; `dice` and the rest know nothing of it.

pub mod builtins;
pub mod color;
pub mod command;
pub mod dice_commands;
pub mod entry;
pub mod error;
pub mod game_commands;
pub mod games;
pub mod helper;
pub mod journal_commands;
pub mod output;
pub mod registry;
pub mod render;
pub mod resume;
pub mod rule_tests;
pub mod rules;
pub mod script;
pub mod script_commands;
pub mod session;
pub mod shell;
pub mod table_commands;

#[cfg(test)]
mod fault_tests;

pub use color::{Palette, UseColor};
pub use error::{CommandError, CommandErrorKind};
pub use output::Output;
pub use session::Session;
