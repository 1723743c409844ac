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
const TOOLKIT: &str = r#"
local setmetatable, next, error, tostring, type = setmetatable, next, error, tostring, type
local kit = {}

-- Objects no script may write into with `rawset`: proxies, views, handles, checks, stores.
local protected = setmetatable({}, { __mode = "k" })
function kit.protect(t)
  protected[t] = true
  return t
end
-- Weak maps whose keys are protected too (objects kept with their private state, such as
-- checks and `ctx`): one entry for each such object instead of two.
local guarded = {}
function kit.guard(map) guarded[#guarded + 1] = map end
local function is_protected(t)
  if protected[t] then return true end
  for i = 1, #guarded do
    if guarded[i][t] ~= nil then return true end
  end
  return false
end
kit.is_protected = is_protected

local function refuse(name)
  return function(_, k)
    error("`" .. name .. "` is read-only (cannot set `" .. tostring(k) .. "`)", 2)
  end
end

-- A read-only proxy of `t`: reads go through, writes fail naming `name`, `pairs` walks `t`
-- without ever handing it out, and the metatable is hidden.
function kit.readonly(t, name)
  local function iter(_, k) return next(t, k) end
  local proxy = setmetatable({}, {
    __index = t,
    __newindex = refuse(name),
    __pairs = function() return iter, nil, nil end,
    __len = function() return #t end,
    __metatable = false,
  })
  protected[proxy] = true
  return proxy
end

-- A deep read-only view of `t`: tables inside are views too (the same view each time).
local views = setmetatable({}, { __mode = "k" })
local function view(t, name)
  if type(t) ~= "table" or is_protected(t) then return t end
  local v = views[t]
  if v then return v end
  local function iter(_, k)
    local key, value = next(t, k)
    return key, view(value, name)
  end
  v = setmetatable({}, {
    __index = function(_, k) return view(t[k], name) end,
    __newindex = refuse(name),
    __pairs = function() return iter, nil, nil end,
    __len = function() return #t end,
    __metatable = false,
  })
  protected[v] = true
  views[t] = v
  return v
end
kit.view = view

-- A deep copy of plain data (a list read from a unit's attributes, say).
local function copy(v)
  if type(v) ~= "table" then return v end
  local c = {}
  for k, x in next, v do c[k] = copy(x) end
  return c
end
kit.copy = copy

return kit
"#;

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
const PRELUDE: &str = r##"
local umpire, host_print, host_require, host_random, make_store, kit, strings, tables, budget = ...
local check_caught, is_tripped, sync = budget.check_caught, budget.tripped, budget.sync
local check_chunk, charge = budget.check_chunk, budget.charge
local G = _G
local raw_pcall, raw_xpcall, raw_load = G.pcall, G.xpcall, G.load
local raw_setmetatable, raw_rawset, raw_rawget = G.setmetatable, G.rawset, G.rawget
local next, error, type = G.next, G.error, G.type
local readonly, is_protected = kit.readonly, kit.is_protected

local function copy(t)
  local c = {}
  for k, v in next, t do c[k] = v end
  return c
end

-- C functions that read their whole string argument without making anything of its size
-- (what they make, the collector's sentinel charges): a long one is charged as read.
local function reads(f)
  return function(s, ...)
    if type(s) == "string" and #s > 256 then charge(#s // 16) end
    return f(s, ...)
  end
end

-- A caught error is re-raised if a budget ran out, so `pcall` cannot swallow it.
local function pass(ok, ...)
  if not ok then check_caught((...)) end
  return ok, ...
end

local raw_select = G.select
local base = {
  assert = G.assert, error = G.error, ipairs = G.ipairs, next = G.next, pairs = G.pairs,
  rawequal = G.rawequal, rawget = G.rawget, rawlen = G.rawlen,
  tonumber = reads(G.tonumber), tostring = G.tostring, type = G.type, getmetatable = G.getmetatable,
  _VERSION = G._VERSION, print = host_print, require = host_require,
}
-- `select(n, ...)` moves what follows the n-th value: a long list is charged.
base.select = function(n, ...)
  if n ~= "#" then
    local k = raw_select("#", ...)
    if k > 256 then charge(k) end
  end
  return raw_select(n, ...)
end
base.pcall = function(f, ...) return pass(raw_pcall(f, ...)) end
-- Lua calls a message handler with hooks off when the error came from the budget hook:
-- once a budget has run out, the script's handler is skipped.
base.xpcall = function(f, h, ...)
  local function handler(e)
    if is_tripped() then return e end
    return h(e)
  end
  return pass(raw_xpcall(f, handler, ...))
end
base.rawset = function(t, k, v)
  if is_protected(t) then error("cannot modify a read-only table", 2) end
  return raw_rawset(t, k, v)
end
base.setmetatable = function(t, mt)
  -- Finalisers run with hooks off; `__close` is refused too (see `coroutine.close`).
  if type(mt) == "table" and (raw_rawget(mt, "__gc") ~= nil or raw_rawget(mt, "__close") ~= nil) then
    error("`__gc` and `__close` metamethods are not allowed in scripts", 2)
  end
  return raw_setmetatable(t, mt)
end

-- Strings: the budgeted functions go into the real table, which string methods read through
-- the string metatable; no `dump`; the metatable cannot be read or changed.
local S = G.string
for name, f in next, strings do S[name] = f end
S.byte = reads(S.byte)
S.dump = nil
G.getmetatable("").__metatable = false
base.string = readonly(S, "string")
base.table = readonly(tables, "table")
local utf8 = copy(G.utf8)
utf8.len, utf8.codepoint, utf8.offset = reads(utf8.len), reads(utf8.codepoint), reads(utf8.offset)
base.utf8 = readonly(utf8, "utf8")
local math = copy(G.math)
math.random = host_random
math.randomseed = nil
base.math = readonly(math, "math")

-- Coroutines. A coroutine stopped by a budget error keeps its hooks off (Lua leaves it so),
-- so it is never closed: its to-be-closed variables would run unbounded. Entering and
-- leaving a coroutine sets the count hook's interval of the thread entered.
local C = G.coroutine
local co_create, co_resume, co_close, co_yield, co_status = C.create, C.resume, C.close, C.yield, C.status
local poisoned = raw_setmetatable({}, { __mode = "k" })
local co = copy(C)
co.create = function(f)
  if type(f) ~= "function" then return co_create(f) end
  return co_create(function(...)
    sync()
    return f(...)
  end)
end
local function resumed(c, ok, ...)
  if not ok and is_tripped() then poisoned[c] = true end
  sync()
  if not ok then check_caught((...)) end
  return ok, ...
end
co.resume = function(c, ...) return resumed(c, co_resume(c, ...)) end
local function back(...)
  sync()
  return ...
end
co.yield = function(...) return back(co_yield(...)) end
co.close = function(c)
  if poisoned[c] then
    check_caught(nil)
    return false, "cannot close a coroutine stopped by a budget: its to-be-closed variables are dropped"
  end
  return pass(co_close(c))
end
-- As Lua's `coroutine.wrap`: an error closes the coroutine and is raised again, with the
-- caller's position in front of a message.
local function wrapped(c, ok, ...)
  if not ok and is_tripped() then poisoned[c] = true end
  sync()
  if ok then return ... end
  local e = ...
  check_caught(e)
  if co_status(c) == "dead" then
    local _, closed = co_close(c)
    if closed ~= nil then e = closed end
  end
  if type(e) == "string" then error(e, 2) end
  error(e, 0)
end
co.wrap = function(f)
  local c = co.create(f)
  return function(...) return wrapped(c, co_resume(c, ...)) end
end
base.coroutine = readonly(co, "coroutine")
base.umpire = readonly(umpire, "umpire")

local shared = readonly(base, "_G")
local env_mt = { __index = shared, __metatable = false }
-- A script's environment; `store` is the named script's store and `secret` its store for the
-- umpire's eyes only (none for `load`ed chunks).
local function new_env(script)
  local env = {}
  env._G = env
  if script then
    env.store = make_store(script)
    env.secret = make_store("secret:" .. script)
  end
  return raw_setmetatable(env, env_mt)
end

-- Compiling is one C call: a chunk is at most 1 MiB (a few milliseconds to compile), and
-- its text is charged.
local concat, MAX_CHUNK = G.table.concat, 1 << 20
local function too_big(n)
  return "load: a chunk is at most 1 MiB, this one is " .. n .. " bytes"
end
base.load = function(chunk, name, mode, env)
  if mode ~= nil and mode ~= "t" then
    error("load: only text chunks are allowed (mode \"t\")", 2)
  end
  if type(chunk) == "function" then
    -- The pieces a reader gives are read first, so the whole text can be checked.
    local parts, size = {}, 0
    while true do
      local piece = chunk()
      if piece == nil or piece == "" then break end
      if type(piece) ~= "string" then return nil, "reader function must return a string" end
      size = size + #piece
      if size > MAX_CHUNK then return nil, too_big(size) end
      parts[#parts + 1] = piece
    end
    chunk = concat(parts)
  end
  if type(chunk) == "string" then
    if #chunk > MAX_CHUNK then return nil, too_big(#chunk) end
    charge(#chunk // 8)
    local refused = check_chunk(chunk, type(name) == "string" and name or nil)
    if refused then return nil, refused end
  end
  return raw_load(chunk, name, "t", env or new_env(nil))
end

-- Nothing else may reach the real globals' loaders.
G.dofile, G.loadfile, G.load, G.require, G.collectgarbage = nil, nil, nil, nil, nil
return new_env
"##;
