//! The budgets of one host call and how they are enforced: the instruction-count hook, the
//! work that library calls charge, the deadline, Ctrl-C and the memory limit.
//!
//! The hook runs every *interval* instructions and fails once a budget has run out; after
//! that it fails at every check until the next call, and the sandbox's `pcall`, `xpcall`,
//! `coroutine.resume`, `coroutine.wrap` and `coroutine.close` re-raise the error, so no script
//! can swallow it. Library functions that can do much work in one call (`string.rep`, the
//! pattern functions, `table.move`…) charge it against the same budget as they go
//! ([`charge`]), so the instruction budget, the deadline and Ctrl-C stop them too.
//!
//! Some single instructions do work in proportion to the data they touch: comparing or
//! concatenating strings, passing a long list of arguments. Such data lives in the Lua
//! state, so the interval shrinks as the state's memory grows ([`interval_for`]), to every
//! instruction from 16 MiB on: the work that can fall between two checks stays bounded, and
//! the deadline holds to a few tens of milliseconds. (One instruction alone cannot be
//! interrupted: `a < b` on two 16 MiB strings of NUL bytes takes about 0.15 s.) A memory jump between two checks (a big string made at once) is caught by
//! a sentinel object the garbage collector finalises at the end of each cycle: its finaliser
//! asks for a check at the very next instruction. Every switch of coroutine sets the
//! interval of the coroutine it enters ([`sync`]), as each Lua thread counts on its own.

use std::sync::Arc;
use std::time::{Duration, Instant};

use mlua::{Function, HookTriggers, Lua, Table, Value, VmState};

use super::error::{Budget, BudgetExceeded};
use super::sandbox::{Budgets, Control};

/// The longest interval between two checks, in instructions (a state of small memory).
pub(crate) const MAX_INTERVAL: u32 = 1024;

/// Bytes of the Lua state × instructions allowed between two checks. One instruction can
/// touch about as many bytes as the state holds (compare two strings half its size, copy a
/// list of arguments), at about 0.1 ns a byte: 4e8 keeps the work between two checks near 40
/// ms however big the state grows (the whole state is 64 MiB by default).
const WORK_BETWEEN_CHECKS: usize = 400_000_000;

/// Bytes copied or made per instruction's worth of budget, for library calls and for
/// allocation measured at the end of each collection cycle.
pub(crate) const BYTES_PER_STEP: u64 = 16;

/// Work charged by library calls between two readings of the clock, in instructions.
const CLOCK_EVERY: u64 = 1024;

/// A state this big checks at every instruction: no ruleset needs it, and one instruction
/// on its data can take long (comparing with `<` strings of NUL bytes costs about 10 ns a
/// byte, a hundred times more than comparing other strings).
const CHECK_EVERY_INSTRUCTION: usize = 16 << 20;

/// The interval for a state holding `used` bytes: [`MAX_INTERVAL`] for a small state,
/// shrinking (by powers of two, so that it changes seldom) as it grows, and 1 from
/// [`CHECK_EVERY_INSTRUCTION`] on.
pub(crate) fn interval_for(used: usize) -> u32 {
    if used >= CHECK_EVERY_INSTRUCTION {
        return 1;
    }
    let n = WORK_BETWEEN_CHECKS / used.max(1);
    if n >= MAX_INTERVAL as usize {
        MAX_INTERVAL
    } else if n <= 1 {
        1
    } else {
        1 << (usize::BITS - 1 - n.leading_zeros())
    }
}

/// The budget of the current call, kept in the Lua state's app data.
pub(crate) struct BudgetState {
    pub budgets: Budgets,
    pub control: Arc<Control>,
    /// Instructions and charged work so far in this call.
    used: u64,
    deadline: Instant,
    /// [`Control::waited`] when the call started: time waited since then moves the deadline.
    waited_at_start: Duration,
    /// Set when a budget ran out; every later check fails until the next call starts.
    pub tripped: Option<BudgetExceeded>,
    /// Where the hook last saw the script while memory was getting short.
    pub last_location: Option<String>,
    /// The interval of the thread that is running (each thread has its own; see [`sync`]).
    interval: u32,
    /// Whether the main thread has had `interval` since the last call started (no other
    /// thread's, nor a check asked for at once, was set since): the next call then need not
    /// set it again.
    main_has_interval: bool,
    /// Work charged since the clock was last read.
    unclocked: u64,
    /// Set while the state is being dropped: the sentinel's finaliser then does nothing.
    pub closing: bool,
}

impl BudgetState {
    fn new(budgets: Budgets, control: Arc<Control>) -> Self {
        BudgetState {
            waited_at_start: control.waited(),
            budgets,
            control,
            used: 0,
            deadline: Instant::now() + budgets.deadline,
            tripped: None,
            last_location: None,
            interval: MAX_INTERVAL,
            main_has_interval: false,
            unclocked: 0,
            closing: false,
        }
    }

    /// A fresh budget for the next call.
    pub fn reset(&mut self) {
        self.used = 0;
        self.unclocked = 0;
        self.deadline = Instant::now() + self.budgets.deadline;
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

    /// Adds `work` and says which budget, if any, has run out (reading the clock when
    /// `clock` or when enough work has gone by since it was last read).
    fn spend(&mut self, work: u64, clock: bool) -> Option<Budget> {
        self.used = self.used.saturating_add(work);
        self.unclocked = self.unclocked.saturating_add(work);
        if self.control.interrupted() {
            return Some(Budget::Interrupted);
        }
        if self.used > self.budgets.instructions {
            return Some(Budget::Instructions);
        }
        if clock || self.unclocked >= CLOCK_EVERY {
            self.unclocked = 0;
            if self.past_deadline() {
                return Some(Budget::Deadline);
            }
        }
        None
    }

    /// Records that `budget` ran out at `location`; the error to raise.
    fn trip(&mut self, budget: Budget, location: Option<String>) -> mlua::Error {
        let t = BudgetExceeded { budget, location };
        self.tripped = Some(t.clone());
        mlua::Error::external(t)
    }
}

/// `rulesets/demo/init.lua:12` for the function running in `debug`.
fn location(debug: &mlua::debug::Debug<'_>) -> Option<String> {
    let src = debug.source();
    let name = src.source.as_deref()?;
    let name = name.strip_prefix('@').unwrap_or(name);
    Some(match debug.current_line() {
        Some(line) => format!("{name}:{line}"),
        None => name.to_string(),
    })
}

/// The innermost Lua frame of a rule file on the stack, as `file:line` (for budgets that run
/// out inside a library call).
fn lua_location(lua: &Lua) -> Option<String> {
    (0..32)
        .map_while(|level| {
            lua.inspect_stack(level, |d| {
                let src = d.source();
                let name = src.source.as_deref().unwrap_or("");
                (src.what != "C" && !name.starts_with('=')).then(|| location(d))?
            })
        })
        .flatten()
        .next()
}

/// Where the script is when the hook runs at `debug`: that function's file and line, or, in
/// umpire's own Lua (a library function written in Lua), the nearest rule file's frame.
fn script_location(lua: &Lua, debug: &mlua::debug::Debug<'_>) -> Option<String> {
    match location(debug) {
        Some(here) if !here.starts_with('=') => Some(here),
        _ => lua_location(lua),
    }
}

/// Installs the budget hook, the memory limit and the sentinel.
pub(crate) fn install(lua: &Lua, budgets: Budgets, control: Arc<Control>) -> mlua::Result<()> {
    lua.set_app_data(BudgetState::new(budgets, control));
    lua.set_memory_limit(budgets.memory)?;
    set_interval(lua, MAX_INTERVAL)?;
    let sentinel_mt = lua.create_table()?;
    sentinel_mt.raw_set("__gc", lua.create_function(end_of_gc_cycle)?)?;
    lua.set_named_registry_value(SENTINEL_KEY, sentinel_mt)?;
    arm_sentinel(lua)
}

/// Named registry key of the sentinel's metatable.
const SENTINEL_KEY: &str = "umpire.gc_sentinel";

/// Sets the running thread's interval to `n` (and remembers it).
fn set_interval(lua: &Lua, n: u32) -> mlua::Result<()> {
    if let Some(mut st) = lua.app_data_mut::<BudgetState>() {
        st.interval = n;
        st.main_has_interval = false;
    }
    lua.set_global_hook(HookTriggers::new().every_nth_instruction(n), hook)
}

/// Sets the running thread's interval for the memory the state holds now. Called when a call
/// starts and whenever a coroutine is entered or left: each Lua thread keeps the interval it
/// was last given.
pub(crate) fn sync(lua: &Lua) -> mlua::Result<()> {
    set_interval(lua, interval_for(lua.used_memory()))
}

/// Starts a call: a fresh budget, and the main thread's interval for the state's memory (set
/// again only if it changed, or if anything else was set since the last call started).
pub(crate) fn start(lua: &Lua) {
    let want = interval_for(lua.used_memory());
    if let Some(mut st) = lua.app_data_mut::<BudgetState>() {
        st.reset();
        if st.main_has_interval && st.interval == want {
            return;
        }
    }
    if set_interval(lua, want).is_ok()
        && let Some(mut st) = lua.app_data_mut::<BudgetState>()
    {
        st.main_has_interval = true;
    }
}

/// Ends a call: the budget is fresh until the next one starts.
pub(crate) fn idle(lua: &Lua) {
    if let Some(mut st) = lua.app_data_mut::<BudgetState>() {
        st.reset();
    }
}

/// The count hook: counts the instructions run since the last check, fails if a budget has
/// run out, and adapts the interval to the state's memory.
fn hook(lua: &Lua, debug: &mlua::debug::Debug<'_>) -> mlua::Result<VmState> {
    let used_memory = lua.used_memory();
    let want = interval_for(used_memory);
    let mut st = match lua.app_data_mut::<BudgetState>() {
        Some(st) => st,
        None => return Ok(VmState::Continue),
    };
    if let Some(t) = &st.tripped {
        return Err(mlua::Error::external(t.clone()));
    }
    let ran = u64::from(st.interval);
    if let Some(budget) = st.spend(ran, true) {
        drop(st);
        let at = script_location(lua, debug);
        let mut st = lua
            .app_data_mut::<BudgetState>()
            .ok_or_else(|| mlua::Error::runtime("budget state missing"))?;
        return Err(st.trip(budget, at));
    }
    if used_memory > st.budgets.memory / 2 {
        drop(st);
        let at = script_location(lua, debug);
        if let Some(mut st) = lua.app_data_mut::<BudgetState>() {
            st.last_location = at;
        }
        return sync_after_hook(lua, want);
    }
    drop(st);
    sync_after_hook(lua, want)
}

/// Sets the running thread's interval to `want` unless it has it already.
fn sync_after_hook(lua: &Lua, want: u32) -> mlua::Result<VmState> {
    let current = lua
        .app_data_ref::<BudgetState>()
        .map_or(0, |st| st.interval);
    if want != current {
        set_interval(lua, want)?;
    }
    Ok(VmState::Continue)
}

/// Charges `work` (in instructions' worth: see the library functions for their rates) to the
/// running call. Fails, as the hook would, once a budget has run out.
pub(crate) fn charge(lua: &Lua, work: u64) -> mlua::Result<()> {
    let mut st = match lua.app_data_mut::<BudgetState>() {
        Some(st) => st,
        None => return Ok(()),
    };
    if let Some(t) = &st.tripped {
        return Err(mlua::Error::external(t.clone()));
    }
    if let Some(budget) = st.spend(work, false) {
        drop(st);
        let at = lua_location(lua);
        let mut st = lua
            .app_data_mut::<BudgetState>()
            .ok_or_else(|| mlua::Error::runtime("budget state missing"))?;
        return Err(st.trip(budget, at));
    }
    Ok(())
}

/// Fails with the memory budget: a library call was asked for more than the state may hold.
pub(crate) fn out_of_memory(lua: &Lua) -> mlua::Error {
    let at = lua_location(lua);
    match lua.app_data_mut::<BudgetState>() {
        Some(mut st) => st.trip(Budget::Memory, at),
        None => mlua::Error::runtime("not enough memory"),
    }
}

/// The limits of the host calls.
pub(crate) fn budgets(lua: &Lua) -> Budgets {
    lua.app_data_ref::<BudgetState>()
        .map_or(Budgets::DEFAULT, |st| st.budgets)
}

/// The memory the Lua state may hold.
pub(crate) fn memory_limit(lua: &Lua) -> usize {
    lua.app_data_ref::<BudgetState>()
        .map_or(Budgets::DEFAULT.memory, |st| st.budgets.memory)
}

/// Leaves a table behind for the garbage collector whose finaliser
/// ([`end_of_gc_cycle`]) runs at the end of the next cycle.
fn arm_sentinel(lua: &Lua) -> mlua::Result<()> {
    let mt: Table = lua.named_registry_value(SENTINEL_KEY)?;
    let sentinel = lua.create_table()?;
    sentinel.set_metatable(Some(mt))
}

/// The sentinel's finaliser: a collection cycle has ended, so the running code has made
/// about as many bytes as the state holds since the last one. Those bytes are charged to the
/// call (at the library's rate, [`BYTES_PER_STEP`]), so work that only allocates — strings
/// concatenated, formatted, cut — counts against the instruction budget too; the running
/// thread checks its budget at its next instruction (and takes the interval for the memory
/// it finds); a new sentinel waits for the next cycle. Finalisers run with the hook off, so
/// this is Rust, not Lua.
fn end_of_gc_cycle(lua: &Lua, _: Value) -> mlua::Result<()> {
    let made = lua.used_memory() as u64 / BYTES_PER_STEP;
    match lua.app_data_mut::<BudgetState>() {
        Some(mut st) if !st.closing => st.used = st.used.saturating_add(made),
        _ => return Ok(()),
    }
    set_interval(lua, 1)?;
    arm_sentinel(lua)
}

/// Called by the `pcall` wrappers with a caught error: re-raises it if a budget has run out
/// (or the error is an out-of-memory error, which then counts as one).
pub(crate) fn check_caught(lua: &Lua, err: Value) -> mlua::Result<()> {
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
        let at = st.last_location.clone();
        return Err(st.trip(Budget::Memory, at));
    }
    Ok(())
}

/// Whether a budget has run out in this call.
pub(crate) fn tripped(lua: &Lua) -> bool {
    lua.app_data_ref::<BudgetState>()
        .is_some_and(|st| st.tripped.is_some())
}

/// The Lua functions the sandbox's wrappers use: `check_caught(err)`, `tripped()`,
/// `charge(work)` and `sync()`.
pub(crate) fn functions(lua: &Lua) -> mlua::Result<(Function, Function, Function, Function)> {
    Ok((
        lua.create_function(check_caught)?,
        lua.create_function(|lua, ()| Ok(tripped(lua)))?,
        lua.create_function(|lua, work: f64| {
            // Counts given by scripts may be huge or negative: clamp them.
            charge(lua, work.clamp(0.0, u64::MAX as f64) as u64)
        })?,
        // Entering or leaving a coroutine costs about as much as a few dozen instructions.
        lua.create_function(|lua, ()| {
            charge(lua, 32)?;
            sync(lua)
        })?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How many times a count hook every `n` instructions fires while `code` runs.
    fn hook_fires(code: &str, n: u32) -> u64 {
        use std::cell::Cell;
        use std::rc::Rc;
        let lua = Lua::new();
        let fired = Rc::new(Cell::new(0u64));
        let count = fired.clone();
        lua.set_global_hook(HookTriggers::new().every_nth_instruction(n), move |_, _| {
            count.set(count.get() + 1);
            Ok(VmState::Continue)
        })
        .unwrap();
        lua.load(code).exec().unwrap();
        fired.get()
    }

    #[test]
    fn the_count_hook_fires_once_every_interval_instructions() {
        // vendor/lua-src changes how the VM counts down to a count hook: it must still fire
        // at every n-th instruction, no more and no less, through loops and calls.
        let code = "local function f(x) return x * 2 end
            local t = 0
            for i = 1, 500 do t = t + f(i) end
            return t";
        let every = hook_fires(code, 1);
        assert!(every > 3_000, "{every} instructions");
        for n in [2, 3, 7, 64, 1024] {
            assert_eq!(hook_fires(code, n), every / u64::from(n), "every {n}");
        }
        // A coroutine counts on its own from its first instruction: at most one check fewer.
        let code =
            "local co = coroutine.wrap(function() for i = 1, 300 do coroutine.yield(i) end end)
            local t = 0
            for _ = 1, 300 do t = t + co() end
            return t";
        let every = hook_fires(code, 1);
        for n in [2, 3, 7, 64] {
            let fired = hook_fires(code, n);
            let due = every / u64::from(n);
            assert!(
                fired == due || fired + 1 == due,
                "every {n}: {fired} of {due}"
            );
        }
    }

    #[test]
    fn the_interval_shrinks_as_memory_grows() {
        assert_eq!(interval_for(0), MAX_INTERVAL);
        assert_eq!(interval_for(300 << 10), MAX_INTERVAL);
        assert_eq!(interval_for(1 << 20), 256);
        assert_eq!(interval_for(8 << 20), 32);
        assert_eq!(interval_for(16 << 20), 1);
        assert_eq!(interval_for(64 << 20), 1);
        assert_eq!(interval_for(1 << 30), 1);
        for used in [1usize, 1000, 123_456, 7 << 20, 100 << 20] {
            let n = interval_for(used);
            assert!(n.is_power_of_two() && n <= MAX_INTERVAL);
            assert!(
                n == 1 || (n as usize) * used <= WORK_BETWEEN_CHECKS,
                "{used}: {n}"
            );
        }
    }
}
