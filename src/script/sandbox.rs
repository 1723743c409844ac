//! The sandbox and the budgets: which parts of the standard library scripts see, and the
//! [`Limits`] that stop a runaway script.
//!
//! Scripts see a whitelist (`assert error ipairs next pairs pcall rawequal rawget rawlen
//! rawset select tonumber tostring type xpcall _VERSION print getmetatable setmetatable load
//! require`, and the `string table math utf8 coroutine` libraries) through read-only
//! proxies: no `io`, `os`, `debug`, `package`, `dofile`, `loadfile`, `collectgarbage` or
//! `string.dump`; `load` takes text only and gives the chunk a sandboxed environment; the
//! string metatable is protected; `setmetatable` refuses `__gc` and `__close` (Lua runs
//! finalisers, and closes a coroutine's variables after a hook error, with hooks off, so
//! they would escape the budget). Each script file runs in its own environment table whose metatable
//! is locked, so `setmetatable(_G, …)` cannot reach the shared globals.
//!
//! Budgets are checked by an instruction-count hook. Once a budget has run out the hook keeps
//! failing, and `pcall`, `xpcall`, `coroutine.resume` and `coroutine.close` re-raise the error
//! at once, so no script can swallow it: the host call fails with the file and line the hook
//! saw. Budgets are reset at the start of every host call.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use mlua::{Function, HookTriggers, Lua, Table, Value, VmState};

use super::error::{Budget, BudgetExceeded};

/// How many instructions run between two budget checks.
const STEP: u32 = 1000;

/// The budgets of one host call (a command, an event, loading the rules).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most Lua VM instructions one call may execute (checked every 1,000).
    pub instructions: u64,
    /// Longest one call may run.
    pub deadline: Duration,
    /// Most memory the whole Lua state may hold, in bytes.
    pub memory: usize,
    /// Largest rule file (ruleset, house rule, module) read, in bytes.
    pub file: usize,
}

impl Limits {
    /// The budgets umpire uses: 100 million instructions, 2 seconds, 64 MiB, files of
    /// 16 MiB.
    pub const DEFAULT: Limits = Limits {
        instructions: 100_000_000,
        deadline: Duration::from_secs(2),
        memory: 64 * 1024 * 1024,
        file: 16 * 1024 * 1024,
    };
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
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

/// The budget of the current call, kept in the Lua state's app data.
pub(crate) struct BudgetState {
    pub limits: Limits,
    pub control: Arc<Control>,
    used: u64,
    deadline: Instant,
    /// [`Control::waited`] when the call started: time waited since then moves the deadline.
    waited_at_start: Duration,
    /// Set when a budget ran out; every later check fails until the next call starts.
    pub tripped: Option<BudgetExceeded>,
    /// Where the hook last saw the script while memory was getting short.
    pub last_location: Option<String>,
}

impl BudgetState {
    pub fn new(limits: Limits, control: Arc<Control>) -> Self {
        BudgetState {
            waited_at_start: control.waited(),
            limits,
            control,
            used: 0,
            deadline: Instant::now() + limits.deadline,
            tripped: None,
            last_location: None,
        }
    }

    /// A fresh budget for the next call.
    pub fn reset(&mut self) {
        self.used = 0;
        self.deadline = Instant::now() + self.limits.deadline;
        self.waited_at_start = self.control.waited();
        self.tripped = None;
        self.last_location = None;
        self.control.clear_interrupt();
    }

    /// Whether the call has run past its deadline, not counting time spent waiting for the
    /// umpire.
    fn past_deadline(&self) -> bool {
        let waited = self.control.waited().saturating_sub(self.waited_at_start);
        Instant::now() > self.deadline + waited
    }
}

/// `rulesets/demo/init.lua:12` for a function of a rule file; `None` for the host's own
/// trusted Lua (chunks named `=umpire …`) and C functions.
fn file_location(debug: &mlua::debug::Debug<'_>) -> Option<String> {
    let src = debug.source();
    let name = src.source.as_deref()?.strip_prefix('@')?;
    Some(match debug.current_line() {
        Some(line) => format!("{name}:{line}"),
        None => name.to_string(),
    })
}

/// Where a script was when the hook stopped it: the function running in `debug` if it is a
/// rule file's, else the nearest rule file's function below it on the stack (a budget that
/// runs out inside the host's trusted Lua, such as the breakdown builder, is reported at the
/// rule's line that called it, never as `=umpire check`).
fn location(lua: &Lua, debug: &mlua::debug::Debug<'_>) -> Option<String> {
    file_location(debug)
        .or_else(|| (1..64).find_map(|level| lua.inspect_stack(level, file_location).flatten()))
}

/// Installs the budget hook and the memory limit.
pub(crate) fn install_budget(lua: &Lua, limits: Limits, control: Arc<Control>) -> mlua::Result<()> {
    lua.set_app_data(BudgetState::new(limits, control));
    lua.set_memory_limit(limits.memory)?;
    lua.set_global_hook(
        HookTriggers::new().every_nth_instruction(STEP),
        |lua, debug| {
            let Some(mut st) = lua.app_data_mut::<BudgetState>() else {
                return Ok(VmState::Continue);
            };
            if let Some(t) = &st.tripped {
                return Err(mlua::Error::external(t.clone()));
            }
            st.used += u64::from(STEP);
            let budget = if st.control.interrupted() {
                Some(Budget::Interrupted)
            } else if st.used > st.limits.instructions {
                Some(Budget::Instructions)
            } else if st.past_deadline() {
                Some(Budget::Deadline)
            } else {
                None
            };
            if let Some(budget) = budget {
                let t = BudgetExceeded {
                    budget,
                    location: location(lua, debug),
                };
                st.tripped = Some(t.clone());
                return Err(mlua::Error::external(t));
            }
            if lua.used_memory() > st.limits.memory / 2 {
                st.last_location = location(lua, debug);
            }
            Ok(VmState::Continue)
        },
    )
}

/// Called by the `pcall` wrappers with a caught error: re-raises it if a budget has run out
/// (or the error is an out-of-memory error, which then counts as one).
fn check_caught(lua: &Lua, err: Value) -> mlua::Result<()> {
    let mut st = lua
        .app_data_mut::<BudgetState>()
        .ok_or_else(|| mlua::Error::runtime("budget state missing"))?;
    if let Some(t) = &st.tripped {
        return Err(mlua::Error::external(t.clone()));
    }
    let memory = match &err {
        Value::String(s) => s.to_str().is_ok_and(|s| s == "not enough memory"),
        Value::Error(e) => matches!(**e, mlua::Error::MemoryError(_)),
        _ => false,
    };
    if memory {
        let t = BudgetExceeded {
            budget: Budget::Memory,
            location: st.last_location.clone(),
        };
        st.tripped = Some(t.clone());
        return Err(mlua::Error::external(t));
    }
    Ok(())
}

/// Builds the sandbox from the real globals (run once per host, before any script): returns
/// the function that makes a fresh script environment. `umpire` is the API table, `print`,
/// `require` and `random` the host's replacements.
pub(crate) fn build(
    lua: &Lua,
    umpire: Table,
    print: Function,
    require: Function,
    random: Function,
    store: Function,
) -> mlua::Result<Function> {
    let check = lua.create_function(check_caught)?;
    let tripped = lua.create_function(|lua, ()| {
        Ok(lua
            .app_data_ref::<BudgetState>()
            .is_some_and(|st| st.tripped.is_some()))
    })?;
    lua.load(PRELUDE)
        .set_name("=umpire sandbox")
        .call((umpire, print, require, random, check, tripped, store))
}

/// Runs with the real globals; everything it hands out is a copy or a read-only proxy.
const PRELUDE: &str = r#"
local umpire, host_print, host_require, host_random, check_caught, is_tripped, make_store = ...
local G = _G
local raw_pcall, raw_xpcall, raw_load = G.pcall, G.xpcall, G.load
local raw_setmetatable, raw_rawset, raw_rawget = G.setmetatable, G.rawset, G.rawget
local raw_resume, raw_close = G.coroutine.resume, G.coroutine.close
local next, error, tostring, type = G.next, G.error, G.tostring, G.type

-- Proxies handed to scripts: reads go through, writes fail, the metatable is hidden.
local protected = raw_setmetatable({}, { __mode = "k" })
local function readonly(t, name)
  local proxy = {}
  raw_setmetatable(proxy, {
    __index = t,
    __newindex = function(_, k)
      error("`" .. name .. "` is read-only (cannot set `" .. tostring(k) .. "`)", 2)
    end,
    __pairs = function() return next, t, nil end,
    __len = function() return #t end,
    __metatable = false,
  })
  protected[proxy] = true
  return proxy
end
local function copy(t)
  local c = {}
  for k, v in next, t do c[k] = v end
  return c
end

-- A caught error is re-raised if a budget ran out, so `pcall` cannot swallow it.
local function pass(ok, ...)
  if not ok then check_caught((...)) end
  return ok, ...
end

local base = {
  assert = G.assert, error = G.error, ipairs = G.ipairs, next = G.next, pairs = G.pairs,
  rawequal = G.rawequal, rawget = G.rawget, rawlen = G.rawlen, select = G.select,
  tonumber = G.tonumber, tostring = G.tostring, type = G.type, getmetatable = G.getmetatable,
  _VERSION = G._VERSION, print = host_print, require = host_require,
}
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
  if protected[t] then error("cannot modify a read-only table", 2) end
  return raw_rawset(t, k, v)
end
base.setmetatable = function(t, mt)
  -- Finalisers, and `__close` after a budget error in a coroutine, run with hooks off.
  if type(mt) == "table" and (raw_rawget(mt, "__gc") ~= nil or raw_rawget(mt, "__close") ~= nil) then
    error("`__gc` and `__close` metamethods are not allowed in scripts", 2)
  end
  return raw_setmetatable(t, mt)
end

-- Strings: no `dump`, and the metatable cannot be read or changed.
G.string.dump = nil
G.getmetatable("").__metatable = false
base.string = readonly(G.string, "string")
base.table = readonly(copy(G.table), "table")
base.utf8 = readonly(copy(G.utf8), "utf8")
local math = copy(G.math)
math.random = host_random
math.randomseed = nil
base.math = readonly(math, "math")
local co = copy(G.coroutine)
co.resume = function(c, ...) return pass(raw_resume(c, ...)) end
co.close = function(c) return pass(raw_close(c)) end
base.coroutine = readonly(co, "coroutine")
base.umpire = readonly(umpire, "umpire")

local shared = readonly(base, "_G")
local env_mt = { __index = shared, __metatable = false }
-- A script's environment; `store` is the named script's store (none for `load`ed chunks).
local function new_env(script)
  local env = {}
  env._G = env
  if script then env.store = make_store(script) end
  return raw_setmetatable(env, env_mt)
end

base.load = function(chunk, name, mode, env)
  if mode ~= nil and mode ~= "t" then
    error("load: only text chunks are allowed (mode \"t\")", 2)
  end
  return raw_load(chunk, name, "t", env or new_env(nil))
end

-- Nothing else may reach the real globals' loaders.
G.dofile, G.loadfile, G.load, G.require, G.collectgarbage = nil, nil, nil, nil, nil
return new_env
"#;
