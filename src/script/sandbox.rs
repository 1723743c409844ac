//! The sandbox: what scripts see of the standard library and of each other, and the
//! [`Budgets`] of a host call.
//!
//! Scripts see a whitelist (`assert error ipairs next pairs pcall rawequal rawget rawlen
//! rawset select tonumber tostring type xpcall _VERSION print getmetatable setmetatable load
//! require`, and the `string table math utf8 coroutine` libraries) through read-only
//! proxies: no `io`, `os`, `debug`, `package`, `dofile`, `loadfile`, `collectgarbage` or
//! `string.dump`; `load` takes text only and gives the chunk a sandboxed environment. Each
//! script file runs in its own environment table whose metatable is locked, so
//! `setmetatable(_G, …)` cannot reach the shared globals.
//!
//! No script can change what another script or the host sees. Every value a script can
//! reach that others share — the `umpire` table, the library tables, the metatables of
//! handles, checks and `ctx`, the string metatable, another script's `store` — is a
//! read-only proxy or hidden: `pairs` and `next` on a proxy walk the real table without
//! handing it out, `rawset` refuses proxies and handles, `getmetatable` gives `false`.
//! Handles keep their ids, checks their lines and `ctx` its checks in private tables, and
//! what a call hands to several scripts (a command's `ctx.args`, an event's fields) is a
//! read-only view. (What a house rule `require`s from a ruleset is that ruleset's API, and
//! stays as the ruleset made it.)
//!
//! The budgets themselves are in `budget.rs`; the library functions that could run long
//! in one call are replaced by budgeted ones (`library.rs`). No Lua code runs
//! without the count hook: `setmetatable` refuses `__gc` (finalisers run with hooks off) and
//! `__close`; a coroutine stopped by a budget (whose hooks stay off) is never closed, so a
//! `__close` added to a metatable after `setmetatable` cannot run either; an `xpcall` message
//! handler is skipped once a budget has run out.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use mlua::{Function, Lua, Table};

/// The budgets of one host call (a command, an event, loading the rules), and the sizes of
/// what a script may make the host hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budgets {
    /// Most Lua VM instructions one call may execute, library work included.
    pub instructions: u64,
    /// Longest one call may run.
    pub deadline: Duration,
    /// Most memory the whole Lua state may hold, in bytes.
    pub memory: usize,
    /// Largest rule file (ruleset, house rule, module) read, in bytes.
    pub file: usize,
    /// Most bytes one script's `store` may hold (and one call may write into it).
    pub store: usize,
    /// Most bytes of output one call may make (printed lines, checks, changes with reasons).
    pub output: usize,
    /// Longest reason, label, title, store key or name a script may give, in bytes.
    pub text: usize,
}

impl Budgets {
    /// The budgets umpire uses: 100 million instructions, 2 seconds, 64 MiB of Lua memory,
    /// rule files of 16 MiB, 64 MiB of store per script, 1 MiB of output per call, 4 KiB for
    /// a reason or label.
    pub const DEFAULT: Budgets = Budgets {
        instructions: 100_000_000,
        deadline: Duration::from_secs(2),
        memory: 64 * 1024 * 1024,
        file: 16 * 1024 * 1024,
        store: 64 * 1024 * 1024,
        output: 1024 * 1024,
        text: 4 * 1024,
    };
}

impl Default for Budgets {
    fn default() -> Self {
        Budgets::DEFAULT
    }
}

/// What the session shares with the Lua host across calls: the Ctrl-C flag, and the time
/// calls have spent waiting for the umpire (typed dice, answers to questions), which no
/// budget counts: players may take a minute to find their dice.
#[derive(Debug, Default)]
pub struct Control {
    interrupt: AtomicBool,
    /// Microseconds spent waiting, in all (only ever grows).
    waited_us: AtomicU64,
}

impl Control {
    /// A fresh control: not interrupted, nothing waited.
    pub fn new() -> Arc<Self> {
        Arc::new(Control::default())
    }

    /// Sets the interrupt flag (Ctrl-C): the running call stops at its next budget check.
    /// Returns whether it was already set (a second Ctrl-C in the same call).
    pub fn interrupt(&self) -> bool {
        self.interrupt.swap(true, Ordering::SeqCst)
    }

    /// Whether the interrupt flag is set.
    pub fn interrupted(&self) -> bool {
        self.interrupt.load(Ordering::Relaxed)
    }

    /// Clears the interrupt flag (each call does when it starts).
    pub fn clear_interrupt(&self) {
        self.interrupt.store(false, Ordering::SeqCst);
    }

    /// Runs `wait` (something that waits for the umpire) and adds the time it took to the
    /// time no budget counts.
    pub fn waiting<T>(&self, wait: impl FnOnce() -> T) -> T {
        let start = Instant::now();
        let r = wait();
        let us = u64::try_from(start.elapsed().as_micros()).unwrap_or(u64::MAX);
        self.waited_us.fetch_add(us, Ordering::Relaxed);
        r
    }

    /// The time spent waiting for the umpire, in all.
    pub fn waited(&self) -> Duration {
        Duration::from_micros(self.waited_us.load(Ordering::Relaxed))
    }
}

/// umpire's own Lua chunk `source`, named `=NAME`, as a function: compiled once per process,
/// then loaded from its bytecode (a fresh Lua state is made at every reload; parsing its
/// trusted Lua again each time would double what a reload costs). Only umpire's own chunks
/// are ever loaded as bytecode: scripts may load text only.
pub(crate) fn trusted(
    lua: &Lua,
    name: &'static str,
    source: &'static str,
) -> mlua::Result<Function> {
    use std::sync::Mutex;
    static COMPILED: Mutex<Vec<(&str, Vec<u8>)>> = Mutex::new(Vec::new());
    let chunk_name = format!("={name}");
    let cached = COMPILED
        .lock()
        .ok()
        .and_then(|c| c.iter().find(|(n, _)| *n == name).map(|(_, b)| b.clone()));
    if let Some(bytes) = cached {
        return lua
            .load(&bytes[..])
            .set_name(chunk_name)
            .set_mode(mlua::chunk::ChunkMode::Binary)
            .into_function();
    }
    let f = lua.load(source).set_name(chunk_name).into_function()?;
    if let Ok(mut c) = COMPILED.lock() {
        c.push((name, f.dump(false)));
    }
    Ok(f)
}

/// Trusted helpers for handing values to scripts ([`TOOLKIT`]): `protect(t)` (no `rawset`
/// into `t`), `guard(map)` (every key of the weak map `map` is protected), `is_protected(t)`, `readonly(t, name)` (a proxy), `view(t, name)` (a deep
/// read-only view) and `copy(v)` (a deep copy of plain data).
pub(crate) fn toolkit(lua: &Lua) -> mlua::Result<Table> {
    trusted(lua, "umpire toolkit", TOOLKIT)?.call(())
}

/// Trusted Lua: see [`toolkit`].
const TOOLKIT: &str = include_str!("lua/toolkit.lua");

/// Builds the sandbox from the real globals (run once per host, before any script): returns
/// the function that makes a fresh script environment. `umpire` is the API table, `print`,
/// `require` and `random` the host's replacements, `store` makes a script's store and `kit`
/// is the [`toolkit`].
pub(crate) fn build(
    lua: &Lua,
    umpire: Table,
    print: Function,
    require: Function,
    random: Function,
    store: Function,
    kit: Table,
) -> mlua::Result<Function> {
    let strings = super::library::string_functions(lua)?;
    let (check_caught, tripped, charge, sync) = super::budget::functions(lua)?;
    let raw_table: Table = lua.globals().get("table")?;
    let tables: Table = trusted(lua, "umpire table library", super::library::TABLES)?
        .call((raw_table, charge.clone()))?;
    // `load`'s check of a chunk: nil, or why it is refused (see `lexer`).
    let check_chunk =
        lua.create_function(|_, (chunk, name): (mlua::LuaString, Option<String>)| {
            let name = name.unwrap_or_else(|| "[string]".into());
            Ok(super::lexer::close_attribute(&chunk.as_bytes())
                .map(|line| super::lexer::close_message(&name, line)))
        })?;
    let budget = lua.create_table()?;
    budget.raw_set("check_chunk", check_chunk)?;
    budget.raw_set("check_caught", check_caught)?;
    budget.raw_set("tripped", tripped)?;
    budget.raw_set("charge", charge)?;
    budget.raw_set("sync", sync)?;
    trusted(lua, "umpire sandbox", PRELUDE)?.call((
        umpire, print, require, random, store, kit, strings, tables, budget,
    ))
}

/// Runs with the real globals; everything it hands out is a copy or a read-only proxy.
const PRELUDE: &str = include_str!("lua/prelude.lua");
