//! The `umpire` API by area: what scripts call, each area in its own file. The host
//! ([`ScriptHost`](super::ScriptHost), `host.rs`) builds the Lua state and installs the
//! `umpire` table from these (each area's `install`, or its functions), and runs every call.
//!
//! | file | what it owns |
//! |---|---|
//! | `dice.rs` | `umpire.roll`, `math.random`: rolling through the call's dice source, charging rolls, what a roll is for |
//! | `tables.rs` | `umpire.lookup`, `umpire.roll_table`, `umpire.tables()`, table handles, cells as Lua values |
//! | `store.rs` | each script's `store`: reading, writing within the `store` limit, a rule file's namespace |
//! | `clock.rs` | `umpire.clock()`: the round, phase and side |
//! | `output.rs` | `print`, values as text, `umpire.fail`, the `output` and `text` limits |
//! | `require.rs` | `require "name.sub"`: modules of the rules, and the hash of every file loaded |
//! | `values.rs` | values handed to Lua: names made once per host, game values |
//!
//! The other areas have their own files beside the host: units, sides, commands and their
//! changes (`world.rs`), elements (`elements.rs`), checks (`breakdown.rs`), events
//! (`events.rs`), questions (`ask.rs`), options (`options.rs`), and what the rules declare
//! (`registry.rs`).

pub(crate) mod clock;
pub(crate) mod dice;
pub(crate) mod output;
pub(crate) mod require;
pub(crate) mod store;
pub(crate) mod tables;
pub(crate) mod values;
