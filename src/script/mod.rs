//! The Lua host: rule systems and house rules as sandboxed, hot-reloaded Lua 5.4 scripts.
//!
//! This module owns the Lua state ([`ScriptHost`]), its sandbox and budgets ([`Budgets`]),
//! loading a ruleset and house rules into a fresh [`Rules`] value ([`load()`](load::load)),
//! and watching the loaded files to reload them ([`Reloader`]). It knows nothing of the
//! terminal: the shell (`repl`) registers the commands it finds in [`Rules`], calls them
//! through the host, and journals the dice the host hands back.
//!
//! The API scripts see (the global `umpire` table) is listed on [`ScriptHost::new`] and
//! explained for script authors in `rulesets/README.md`.

mod api;
mod ask;
pub mod breakdown;
mod budget;
pub(crate) mod data;
mod elements;
pub mod error;
pub mod events;
pub mod host;
mod lexer;
mod library;
pub mod load;
pub mod options;
mod pattern;
pub mod registry;
pub mod reload;
pub mod sandbox;
pub mod world;

pub use breakdown::{Breakdown, Factor, Opposed, Side};
pub use error::{Budget, ScriptError, ScriptErrorKind};
pub use host::{ArgValue, CallOutput, ScriptHost};
pub use load::{Loaded, RuleSource, load};
pub use options::{OptionDef, OptionKind};
pub use registry::{ArgKind, ArgSpec, CommandDef, EventHandler, Origin, Rules, Variant};
pub use reload::Reloader;
pub use sandbox::{Budgets, Control};
pub use world::{Note, World};

#[cfg(test)]
mod tests;
