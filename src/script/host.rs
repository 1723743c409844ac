//! [`ScriptHost`]: one sandboxed Lua state with the `umpire` API, and the host calls that run
//! script code under a budget with the dice the caller hands in.
//!
//! The host does not own the game, the dice or the journal: every call borrows a
//! [`DiceSource`] for its duration and hands back every [`Roll`] made, for the journal.
//!
//! This file builds the Lua state and installs the `umpire` table from the areas that own
//! its parts (`api/`, `world.rs`, `breakdown.rs`, `registry.rs`, `options.rs`, `ask.rs`,
//! `events.rs`), and keeps the call machinery: the calls, the one function per call that
//! reaches the dice and the game, and its operation numbers (`op`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use mlua::{
    ErrorContext, Function, IntoLuaMulti, Lua, LuaOptions, MultiValue, StdLib, Table, Value,
};

use super::api;
use super::api::dice::{roll_context, roll_with};
use super::api::output::{add_output, to_text};
use super::api::require::sha256_hex;
use super::api::store::namespace;
use super::api::tables::roll_table_with;
use super::api::values::{Interned, intern, state_to_lua};
use super::breakdown::{self, Breakdown};
use super::budget::{self, BudgetState};
use super::error::{Budget, ScriptError, ScriptErrorKind};
use super::events;
use super::registry::{self, Rules};
use super::sandbox::{self, Budgets, Control};
use super::world::{self, Note, World};
use crate::dice::{self, DiceSource, Roll};
use crate::state::Value as StateValue;
use crate::tables::TableSet;

/// The version of the script API, as `umpire.version` (bumped when the API changes).
pub const API_VERSION: &str = "0.1";

/// What a host call produced besides its result: the lines the script printed and every
/// roll it made, in order (for the breakdown and the journal).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CallOutput {
    /// Lines printed with `print` (or returned by a command's `run`).
    pub output: Vec<String>,
    /// Every roll made through `umpire.roll` or `math.random`, in order.
    pub rolls: Vec<Roll>,
    /// The itemised checks a command built with `ctx:check`, in order (shared: the output
    /// shows each and its JSON reports each, without a copy).
    pub checks: Vec<std::sync::Arc<Breakdown>>,
    /// The questions asked with `umpire.ask` and their answers, in order.
    pub answers: Vec<crate::question::Answered>,
    /// Every change the scripts made, with its reason, in order.
    pub notes: Vec<Note>,
    /// The numbers the rules recorded for programs (`umpire.record(key, value)`), by key.
    pub record: serde_json::Map<String, serde_json::Value>,
}

/// A command argument or event field as handed to Lua: a plain value, or units (which
/// scripts get as handles).
#[derive(Debug, Clone, PartialEq)]
pub enum ArgValue {
    /// A number, text, flag or list.
    Value(StateValue),
    /// One unit (or side, or command), by id: a handle in Lua.
    Unit(String),
    /// Several units, by id.
    Units(Vec<String>),
}

impl From<StateValue> for ArgValue {
    fn from(v: StateValue) -> Self {
        ArgValue::Value(v)
    }
}

impl CallOutput {
    /// The bytes of output the call made, about as the shell shows them: each check's
    /// breakdown, each change with its reason, each printed line.
    pub fn size(&self) -> usize {
        let checks: usize = self
            .checks
            .iter()
            .map(|c| {
                c.title.len()
                    + c.factors
                        .iter()
                        .map(|f| {
                            16 + f.label.len()
                                + f.rule.as_ref().map_or(0, String::len)
                                + f.dice.as_ref().map_or(0, String::len)
                        })
                        .sum::<usize>()
                    + c.result.as_ref().map_or(0, String::len)
            })
            .sum();
        let notes: usize = self
            .notes
            .iter()
            .map(|n| n.change.len() + n.reason.len() + 8)
            .sum();
        let lines: usize = self.output.iter().map(|l| l.len() + 1).sum();
        checks + notes + lines
    }

    /// Each check's breakdown, the changes with their reasons, then the printed lines, as the
    /// shell shows them.
    pub fn render(&self) -> String {
        let mut parts: Vec<String> = self.checks.iter().map(|c| c.to_string()).collect();
        parts.extend(self.notes.iter().map(|n| format!("→ {n}")));
        parts.extend(self.output.iter().cloned());
        parts.join("\n")
    }
}

/// Where rule files live: `rulesets/` and `scripts/`, shown under those names in chunk
/// names and errors wherever they are on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Roots {
    pub rulesets: PathBuf,
    pub scripts: PathBuf,
}

/// Host state shared with the Rust functions Lua calls (never borrowed across a Lua call).
pub(crate) struct HostData {
    pub roots: Roots,
    pub out: CallOutput,
    /// Modules already required, by name (`None` while one is loading: a cycle).
    pub modules: HashMap<String, Option<Value>>,
    /// Every file loaded, in order (for the watcher).
    pub files: Vec<PathBuf>,
    /// The SHA-256 of each file loaded, as read, by its shown name.
    pub hashes: std::collections::BTreeMap<String, String>,
    /// The rules being registered; `None` outside loading.
    pub rules: Option<Rules>,
    pub dice_caps: dice::Caps,
    /// The tables scripts can look up and roll on (the loaded rules' tables).
    pub tables: TableSet,
    /// The ruleset's name once loading has finished (`umpire.ruleset_name()`).
    pub ruleset_name: Option<String>,
    /// What the running call makes the host hold: see [`Held`].
    pub held: Held,
    /// The events some handler takes at once (`umpire.on(event, fn, { at_once = true })`):
    /// a change a script makes that raises one of them hands it to Lua to run them.
    pub at_once: Vec<String>,
}

/// What the running call has made the host hold so far (emptied when a call starts).
#[derive(Debug, Default)]
pub(crate) struct Held {
    /// Bytes of output: printed lines, the value returned, changes with their reasons.
    pub output: usize,
    /// The size of each script's store touched in this call (worked out when first touched).
    pub stores: HashMap<String, usize>,
    /// Bytes written into each script's store in this call.
    pub written: HashMap<String, usize>,
}

/// The limits of the host calls (`text`, `output`, `store`…).
pub(crate) fn budgets(lua: &Lua) -> Budgets {
    budget::budgets(lua)
}

/// One Lua 5.4 state, sandboxed, with the `umpire` API installed.
pub struct ScriptHost {
    lua: Lua,
    new_env: Function,
    /// The trusted Lua that runs a command: makes its arguments and `ctx`, calls `run`, and
    /// hands back what it returned and its checks ([`RUNNER`]).
    run: Function,
    /// The trusted Lua that makes an event's fields, read-only ([`RUNNER`]).
    payload: Function,
    /// The host's private table: `[1]` is the running call's function (see [`op`]), or
    /// `idle` between calls.
    private: Table,
    /// What `private[1]` is between calls: fails, saying that there is no command running.
    idle: Function,
    umpire: Table,
    control: Arc<Control>,
}

impl Drop for ScriptHost {
    /// The state is about to close: Lua runs the pending finalisers then, which must not arm
    /// the garbage collector's sentinel again.
    fn drop(&mut self) {
        if let Some(mut st) = self.lua.app_data_mut::<BudgetState>() {
            st.closing = true;
        }
    }
}

impl std::fmt::Debug for ScriptHost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScriptHost").finish_non_exhaustive()
    }
}

impl ScriptHost {
    /// A fresh sandboxed Lua state with the budgets `limits`, loading rule files from
    /// `rulesets` and `scripts` (the folders `require` may read).
    ///
    /// Scripts see one global table, `umpire` (read-only):
    ///
    /// | field | what it is |
    /// |---|---|
    /// | `umpire.version` | the API version, `"0.1"` |
    /// | `umpire.variant` | the variant chosen for this load (`ruleset use NAME VARIANT`), or `nil` |
    /// | `umpire.ruleset{name, doc, schema, sequence, tables, variants}` | declares the rule system (once per load) |
    /// | `umpire.command{name, args, help, run}` | registers a command; `run(ctx, args)` is called with the checked arguments |
    /// | `umpire.on(event, fn [, {at_once = true}])` | registers an event handler; for `pre_*` events, returning `false` cancels; `at_once` (change events): it runs when a script makes the change, not after the command |
    /// | `umpire.emit(name, fields)` | raises a rule's own event: its handlers run at once, in the same call (at most 8 deep); `false` if one returned `false` |
    /// | `umpire.table{name, doc, dice, rows}` (or `entries`, or `rows`/`cols`/`cells`) | declares a table |
    /// | `umpire.table(name)` | a declared table, with `:lookup(key [, col])` and `:roll([modifier [, col]])` |
    /// | `umpire.unit(id)`, `umpire.units(selector)` | unit handles (see [`world`]) |
    /// | `umpire.count(selector)` | how many units a selector picks, counted in Rust |
    /// | `umpire.sides()` | the ids of the sides, in order |
    /// | `umpire.clock()` | the round, phase and side whose turn it is |
    /// | `umpire.side(id)`, `umpire.group(id)` | handles to a side or a command (its attributes) |
    /// | `umpire.ruleset_name()` | the name of the ruleset loaded (`nil`: house rules only), also while house rules load |
    /// | `umpire.fail(message)` | refuses the command with a plain message for the umpire |
    /// | `umpire.hook(point, fn)` | registers `fn(c, ctx, situation)` for the hook point `c:point(point, situation)` of a check |
    /// | `umpire.lookup(table, key [, col])` | the table's cell for `key` (and `col` for a cross table), and the row key used |
    /// | `umpire.roll_table(table [, modifier [, col]])` | rolls on a table through the host: the value read and the modified total |
    /// | `umpire.roll(expr)` | rolls dice through the host: returns the total and a list of the kept dice (`dice.dropped`, `dice.expr`) |
    ///
    /// and, from the standard library, only the whitelist described in
    /// [`sandbox`], with `print` captured into [`CallOutput::output`],
    /// `math.random(m[, n])` rolling a die through the host, and `require "name.sub"` loading
    /// `rulesets/name/sub.lua` or `scripts/name/sub.lua`. Everything shared is read-only
    /// (see [`sandbox`]); the budgets and the library functions that count their work are
    /// in `budget.rs` and `library.rs`; what a call may make the host hold (output, store,
    /// texts) is bounded by `limits`.
    pub fn new(
        budgets: Budgets,
        rulesets: impl Into<PathBuf>,
        scripts: impl Into<PathBuf>,
    ) -> Result<Self, ScriptError> {
        Self::build(budgets, rulesets.into(), scripts.into()).map_err(ScriptError::from_lua)
    }

    fn build(budgets: Budgets, rulesets: PathBuf, scripts: PathBuf) -> mlua::Result<Self> {
        let libs = StdLib::STRING | StdLib::TABLE | StdLib::MATH | StdLib::UTF8 | StdLib::COROUTINE;
        let lua = Lua::new_with(libs, LuaOptions::default())?;
        let control = Control::new();
        budget::install(&lua, budgets, control.clone())?;
        lua.set_app_data(HostData {
            roots: Roots { rulesets, scripts },
            out: CallOutput::default(),
            modules: HashMap::new(),
            files: Vec::new(),
            hashes: std::collections::BTreeMap::new(),
            rules: None,
            dice_caps: dice::Caps::DEFAULT,
            tables: TableSet::new(),
            ruleset_name: None,
            held: Held::default(),
            at_once: Vec::new(),
        });

        lua.set_app_data(Interned::default());
        let private = lua.create_table()?;
        let idle = lua.create_function(|_, op: Value| -> mlua::Result<()> {
            Err(mlua::Error::runtime(match op {
                Value::Integer(op::ROLL | op::ROLL_TABLE | op::DICE) => NO_DICE,
                _ => NO_WORLD,
            }))
        })?;
        private.raw_set(1, idle.clone())?;
        lua.set_app_data(Private {
            table: private.clone(),
            roll: None,
        });
        let ops = lua.create_table()?;
        for (name, n) in op::ALL {
            ops.raw_set(*name, *n)?;
        }

        // The `umpire` table, area by area (in the order its fields have always been set).
        let umpire = lua.create_table()?;
        umpire.set("version", API_VERSION)?;
        umpire.set(
            "ruleset_name",
            lua.create_function(registry::lua_ruleset_name)?,
        )?;
        // What is loaded: the tables' names and the options with their values in force.
        umpire.set("tables", lua.create_function(api::tables::lua_tables)?)?;
        umpire.set("options", lua.create_function(super::options::lua_options)?)?;
        umpire.set("fail", lua.create_function(api::output::lua_fail)?)?;
        umpire.set("record", lua.create_function(api::output::lua_record)?)?;
        registry::install(&lua, &umpire)?;
        let listeners = events::listeners(&lua)?;
        lua.set_named_registry_value(super::options::VALUES_KEY, lua.create_table()?)?;
        super::options::install_reader(&lua, &umpire)?;
        let kit = sandbox::toolkit(&lua)?;
        api::tables::install(&lua, &umpire, &kit)?;
        let (handle, id_of, store) = world::install(&lua, &umpire, &private, &ops, &kit)?;
        let (make_ctx, flatten, roll): (Function, Function, Function) =
            breakdown::build(&lua, &private, &ops, id_of, &kit, &budgets)?;
        if let Some(mut p) = lua.app_data_mut::<Private>() {
            p.roll = Some(roll);
        }
        let random = api::dice::install(&lua, &umpire)?;
        umpire.set("ask", lua.create_function(super::ask::lua_ask)?)?;

        let print = lua.create_function(api::output::lua_print)?;
        let require = api::require::function(&lua)?;
        let view: Function = kit.get("view")?;
        let (run, payload, at_once, emit): (Function, Function, Function, Function) =
            sandbox::trusted(&lua, "umpire runner", RUNNER)?.call((
                handle,
                make_ctx,
                flatten,
                view,
                private.clone(),
                idle.clone(),
                listeners,
                events::MAX_DEPTH,
                events::reserved_set(&lua)?,
            ))?;
        // The unit handles' changes run the `at_once` handlers through `private[2]`.
        private.raw_set(2, at_once)?;
        umpire.set("emit", emit)?;
        let new_env = sandbox::build(&lua, umpire.clone(), print, require, random, store, kit)?;
        lua.set_named_registry_value(api::require::ENV_KEY, new_env.clone())?;
        Ok(ScriptHost {
            lua,
            new_env,
            run,
            payload,
            private,
            idle,
            umpire,
            control,
        })
    }

    /// Shares `control` with the session: interrupting it (from a Ctrl-C handler) stops the
    /// running call with [`Budget::Interrupted`], and time it records as spent waiting for
    /// the umpire moves the running call's deadline. Each call clears the interrupt when it
    /// starts.
    pub fn set_control(&mut self, control: Arc<Control>) {
        self.control = control.clone();
        if let Some(mut st) = self.lua.app_data_mut::<BudgetState>() {
            st.control = control;
        }
    }

    /// The control shared with the session (see [`ScriptHost::set_control`]).
    pub fn control(&self) -> Arc<Control> {
        self.control.clone()
    }

    /// Sets `umpire.variant` for the scripts loaded next.
    pub(crate) fn set_variant(&self, variant: Option<&str>) -> Result<(), ScriptError> {
        Ok(self.umpire.set("variant", variant)?)
    }

    /// The Lua state, for the registry and the tests.
    pub(crate) fn lua(&self) -> &Lua {
        &self.lua
    }

    /// Every file loaded so far (the ruleset, house rules and required modules).
    pub fn files(&self) -> Vec<PathBuf> {
        self.data().files.clone()
    }

    /// The SHA-256 of every file loaded so far, as read, by its shown name.
    pub fn file_hashes(&self) -> std::collections::BTreeMap<String, String> {
        self.data().hashes.clone()
    }

    fn data(&self) -> mlua::AppDataRef<'_, HostData> {
        self.lua
            .app_data_ref::<HostData>()
            .expect("host data is set in ScriptHost::new")
    }

    /// Runs the file `path`, shown as `name` (`rulesets/demo/init.lua`), in a fresh script
    /// environment, under a fresh budget and with no dice (rolling while loading is an error).
    pub(crate) fn exec_file(&self, path: &Path, name: &str) -> Result<(), ScriptError> {
        let doing = format!("while loading {name}");
        let cap = self
            .lua
            .app_data_ref::<BudgetState>()
            .map(|b| b.budgets.file);
        let src = crate::files::read(path, cap.unwrap_or(Budgets::DEFAULT.file)).map_err(|e| {
            ScriptError::new(ScriptErrorKind::NotFound(e.shown_as(name).to_string()))
                .context(doing.clone())
        })?;
        if let Some(mut d) = self.lua.app_data_mut::<HostData>() {
            d.files.push(path.to_path_buf());
            d.hashes.insert(name.to_string(), sha256_hex(&src));
        }
        self.guarded(&doing, |lua| {
            super::lexer::refuse_close(name, &src)?;
            let env: Table = self.new_env.call(namespace(name))?;
            lua.load(&src[..])
                .set_name(format!("@{name}"))
                .set_mode(mlua::chunk::ChunkMode::Text)
                .set_environment(env)
                .exec()
        })
    }

    /// Runs `f` under a fresh budget with no dice source; maps errors.
    fn guarded<R>(
        &self,
        doing: &str,
        f: impl FnOnce(&Lua) -> mlua::Result<R>,
    ) -> Result<R, ScriptError> {
        self.start_call();
        let r = f(&self.lua);
        self.finish_call(r, || doing.to_string())
    }

    fn start_call(&self) {
        budget::start(&self.lua);
        if let Some(mut d) = self.lua.app_data_mut::<HostData>() {
            d.out = CallOutput::default();
            d.held = Held::default();
        }
    }

    fn finish_call<R>(
        &self,
        r: mlua::Result<R>,
        doing: impl FnOnce() -> String,
    ) -> Result<R, ScriptError> {
        let (tripped, last) = self
            .lua
            .app_data_mut::<BudgetState>()
            .map(|mut st| (st.tripped.take(), st.last_location.take()))
            .unwrap_or_default();
        // Between calls the budget is fresh: umpire's own Lua run outside a call (making an
        // environment, say) is never stopped by what the last call used.
        budget::idle(&self.lua);
        let text = budget::budgets(&self.lua).text;
        self.judge(r, doing, tripped, last)
            .map_err(|e| e.shortened(text))
    }

    /// The result of a call, given the budget that ran out in it (if one did) and where the
    /// script was when memory got short.
    fn judge<R>(
        &self,
        r: mlua::Result<R>,
        doing: impl FnOnce() -> String,
        tripped: Option<super::error::BudgetExceeded>,
        last: Option<String>,
    ) -> Result<R, ScriptError> {
        match r {
            // A budget that ran out always fails the call, however the script carried on.
            Ok(_) if tripped.is_some() => {
                let t = tripped.expect("checked");
                let mut err = ScriptError::new(ScriptErrorKind::Budget(t.budget));
                err.location = t.location;
                Err(err.context(doing()))
            }
            Ok(v) => Ok(v),
            Err(e) => {
                let mut err = ScriptError::from_lua(e);
                if let Some(t) = &tripped {
                    err.kind = ScriptErrorKind::Budget(t.budget);
                    err.location = t.location.clone();
                }
                if err.budget() == Some(Budget::Memory) {
                    // Free what the runaway script built before the next call.
                    err = err.at(last);
                    let _ = self.lua.gc_collect();
                }
                Err(err.context(doing()))
            }
        }
    }

    /// Runs `f` as one host call: under a fresh budget, with `dice` as the source of every
    /// die rolled (`umpire.roll`, `math.random`) and `world` as the game units are read from
    /// and changed in, returning what `f` returned and what the scripts printed, rolled and
    /// changed. `doing` says what the host was doing, for errors (`while running command
    /// `shoot``).
    ///
    /// On error the changes already made stay applied to the world's game and listed in
    /// its changes: the caller rolls them back with the rest of its transaction.
    pub fn call<R>(
        &self,
        doing: &str,
        dice: &mut dyn DiceSource,
        world: Option<&mut World<'_>>,
        f: impl FnOnce(&Lua) -> mlua::Result<R>,
    ) -> Result<(R, CallOutput), ScriptError> {
        self.call_doing(|| doing.to_string(), dice, world, false, |lua, _| f(lua))
    }

    /// [`ScriptHost::call`], with what the host was doing worked out only for an error. `f`
    /// gets the call's function too: when `f_installs` it hands it to trusted Lua that makes
    /// it `private[1]` and puts `idle` back when it returns (here it is put back on error).
    fn call_doing<R>(
        &self,
        doing: impl FnOnce() -> String,
        dice: &mut dyn DiceSource,
        world: Option<&mut World<'_>>,
        f_installs: bool,
        f: impl FnOnce(&Lua, &Function) -> mlua::Result<R>,
    ) -> Result<(R, CallOutput), ScriptError> {
        self.start_call();
        let dice = std::cell::RefCell::new(dice);
        let world = std::cell::RefCell::new(world);
        let notes = std::cell::RefCell::new(Vec::new());
        let r = self.lua.scope(|scope| {
            // One function per call reaches everything the call borrows; the trusted Lua
            // calls it as `private[1](op, …)` (see `op`). Being a new function every call, it
            // also tells the handles' reads of one call from the next.
            let host = scope.create_function(
                |lua, (op, a, b, c, d, e): (i64, Value, Value, Value, Value, Value)| match op {
                    op::ROLL | op::ROLL_TABLE | op::DICE | op::ASK => {
                        let mut dice = dice
                            .try_borrow_mut()
                            .map_err(|_| mlua::Error::runtime("dice are already being rolled"))?;
                        if op == op::ASK {
                            super::ask::ask_with(lua, &mut **dice, [a, b, c, d])
                        } else if op == op::DICE {
                            if dice.generator().is_none() {
                                return Ok(MultiValue::new());
                            }
                            let out = roll_with(lua, &mut **dice, &a)?;
                            stamp_by(lua, &b)?;
                            Ok(out)
                        } else if op == op::ROLL {
                            let by = match &d {
                                Value::Boolean(true) => c.clone(),
                                _ => Value::Nil,
                            };
                            // Who rolls and what for is worked out only for a source that
                            // asks the umpire (typed or queued dice): the seeded generator
                            // never shows it.
                            let context = match dice.generator() {
                                Some(_) => None,
                                None => {
                                    let world = world.try_borrow().ok();
                                    let game =
                                        world.as_ref().and_then(|w| w.as_ref()).map(|w| &*w.game);
                                    roll_context(lua, game, b, c, d, e)?
                                }
                            };
                            let out = match &context {
                                Some(c) => {
                                    let mut labelled =
                                        dice::source::WithContext::new(&mut **dice, c);
                                    roll_with(lua, &mut labelled, &a)
                                }
                                None => roll_with(lua, &mut **dice, &a),
                            }?;
                            stamp_by(lua, &by)?;
                            Ok(out)
                        } else {
                            let name: String = lua.unpack(a)?;
                            let modifier: Option<i64> = lua.unpack(b)?;
                            let col: Option<String> = lua.unpack(c)?;
                            roll_table_with(
                                lua,
                                &mut **dice,
                                &name,
                                modifier.unwrap_or(0),
                                col.as_deref(),
                            )?
                            .into_lua_multi(lua)
                        }
                    }
                    _ => {
                        let mut w = world.try_borrow_mut().map_err(|_| {
                            mlua::Error::runtime("the game is already being changed")
                        })?;
                        let Some(w) = w.as_mut() else {
                            return Err(mlua::Error::runtime(
                                "there is no game here: units and the store are not available",
                            ));
                        };
                        let mut n = notes.try_borrow_mut().map_err(|_| {
                            mlua::Error::runtime("the game is already being changed")
                        })?;
                        world::op(lua, w, &mut n, op, [a, b, c, d])
                    }
                },
            )?;
            if !f_installs {
                self.private.raw_set(1, &host)?;
            }
            let r = f(&self.lua, &host);
            if !f_installs || r.is_err() {
                self.private.raw_set(1, self.idle.clone())?;
            }
            r
        });
        let r = self.finish_call(r, doing)?;
        let mut out = self
            .lua
            .app_data_mut::<HostData>()
            .map(|mut d| std::mem::take(&mut d.out))
            .unwrap_or_default();
        out.notes = notes.into_inner();
        Ok((r, out))
    }

    /// Evaluates Lua `code` as a chunk called `name` in a fresh script environment, as one
    /// host call (for tests and a future `lua` command); returns the values as text.
    pub fn eval(
        &self,
        name: &str,
        code: &str,
        dice: &mut dyn DiceSource,
    ) -> Result<(Vec<String>, CallOutput), ScriptError> {
        let env: Table = self.new_env.call(()).map_err(ScriptError::from_lua)?;
        self.call_doing(
            || format!("while running `{name}`"),
            dice,
            None,
            false,
            |lua, _| {
                super::lexer::refuse_close(name, code.as_bytes())?;
                let values: MultiValue = lua
                    .load(code)
                    .set_name(format!("@{name}"))
                    .set_mode(mlua::chunk::ChunkMode::Text)
                    .set_environment(env)
                    .eval()?;
                values.iter().map(|v| to_text(lua, v)).collect()
            },
        )
    }

    /// Makes `values` (each option's value in force, see
    /// [`options::values_in_force`](super::options::values_in_force)) what `umpire.option`
    /// reads from now on.
    pub fn set_option_values(
        &self,
        values: &[(String, serde_json::Value)],
    ) -> Result<(), ScriptError> {
        super::options::install(&self.lua, values).map_err(ScriptError::from_lua)
    }

    /// Runs the command `name` of `rules` with `args` (already parsed and checked against
    /// the command's [`ArgSpec`](super::ArgSpec)s by the caller), rolling with `dice`, on the
    /// game in `world` (none: scripts that touch units fail).
    pub fn run_command(
        &self,
        rules: &Rules,
        name: &str,
        args: &[(&str, ArgValue)],
        dice: &mut dyn DiceSource,
        world: Option<&mut World<'_>>,
    ) -> Result<CallOutput, ScriptError> {
        let cmd = rules.commands.get(name).ok_or_else(|| {
            ScriptError::new(ScriptErrorKind::Usage(format!(
                "no script command `{name}`"
            )))
        })?;
        let doing = || {
            format!(
                "while running command `{name}` (registered at {})",
                cmd.origin
            )
        };
        let ((ret, checks), mut out) = self.call_doing(doing, dice, world, true, |lua, host| {
            let hooks = match &rules.hook_table {
                Some(t) => t.clone(),
                None => hook_table(lua, rules)?,
            };
            // One call into Lua: `run` gets the arguments; hooks see them through
            // `ctx.args`, read-only.
            let mut call = MultiValue::with_capacity(4 + 3 * args.len());
            call.push_back(Value::Function(host.clone()));
            call.push_back(Value::Function(cmd.run.clone()));
            call.push_back(intern(lua, name)?);
            call.push_back(Value::Table(hooks));
            push_args(lua, &mut call, args)?;
            let mut values: MultiValue = self.run.call(call)?;
            let ret = match values.pop_front().unwrap_or(Value::Nil) {
                Value::Nil => None,
                v => {
                    let text = to_text(lua, &v)?;
                    add_output(lua, text.len())?;
                    Some(text)
                }
            };
            let d = lua
                .app_data_ref::<HostData>()
                .ok_or_else(|| mlua::Error::runtime("host data missing"))?;
            Ok((ret, breakdown::decode(values, &d.out.rolls)?))
        })?;
        out.output.extend(ret);
        out.checks = checks.into_iter().map(std::sync::Arc::new).collect();
        Ok(out)
    }

    /// Tells the handlers of `event` (in registration order), with `payload` as a table.
    /// Returns `false` if a handler returned `false` (for `pre_*` events: cancel the
    /// default); the remaining handlers are then not called.
    pub fn emit(
        &self,
        rules: &Rules,
        event: &str,
        payload: &[(&str, ArgValue)],
        dice: &mut dyn DiceSource,
        world: Option<&mut World<'_>>,
    ) -> Result<(bool, CallOutput), ScriptError> {
        self.emit_to(rules, event, payload, dice, world, false)
    }

    /// [`ScriptHost::emit`] to the handlers of `event` not registered `at_once`: after a
    /// command, for a change a script made (its `at_once` handlers ran when it was made).
    pub fn emit_after(
        &self,
        rules: &Rules,
        event: &str,
        payload: &[(&str, ArgValue)],
        dice: &mut dyn DiceSource,
        world: Option<&mut World<'_>>,
    ) -> Result<(bool, CallOutput), ScriptError> {
        self.emit_to(rules, event, payload, dice, world, true)
    }

    fn emit_to(
        &self,
        rules: &Rules,
        event: &str,
        payload: &[(&str, ArgValue)],
        dice: &mut dyn DiceSource,
        world: Option<&mut World<'_>>,
        skip_at_once: bool,
    ) -> Result<(bool, CallOutput), ScriptError> {
        let handlers: Vec<_> = rules
            .handlers
            .iter()
            .filter(|h| h.event == event && !(skip_at_once && h.at_once))
            .collect();
        if handlers.is_empty() {
            return Ok((true, CallOutput::default()));
        }
        self.call_doing(
            || format!("while handling event `{event}`"),
            dice,
            world,
            false,
            |lua, _| {
                // Every handler sees the same fields: read-only, so none can change them
                // for the next.
                let mut call = MultiValue::with_capacity(1 + 3 * payload.len());
                call.push_back(intern(lua, event)?);
                push_args(lua, &mut call, payload)?;
                let p: Value = self.payload.call(call)?;
                for h in handlers {
                    let r: Value = h.func.call(p.clone()).map_err(|e| {
                        e.context(format!("in the handler registered at {}", h.origin))
                    })?;
                    if r == Value::Boolean(false) {
                        return Ok(false);
                    }
                }
                Ok(true)
            },
        )
    }
}

/// Pushes `args` as [`RUNNER`] reads them: for each, its name, what it is (0 a value, 1 a
/// unit's id, 2 the number of units' ids that follow) and the value.
fn push_args(lua: &Lua, call: &mut MultiValue, args: &[(&str, ArgValue)]) -> mlua::Result<()> {
    for (k, v) in args {
        call.push_back(intern(lua, k)?);
        match v {
            ArgValue::Value(v) => {
                call.push_back(Value::Integer(0));
                call.push_back(state_to_lua(lua, v)?);
            }
            ArgValue::Unit(id) => {
                call.push_back(Value::Integer(1));
                call.push_back(Value::String(lua.create_string(id)?));
            }
            ArgValue::Units(ids) => {
                call.push_back(Value::Integer(2));
                call.push_back(Value::Integer(i64::try_from(ids.len()).unwrap_or(i64::MAX)));
                for id in ids {
                    call.push_back(Value::String(lua.create_string(id)?));
                }
            }
        }
    }
    Ok(())
}

/// Trusted Lua: runs a command (its arguments, `ctx`, `run`, its checks as plain values) and
/// makes an event's fields, each in one call from Rust. Arguments come as `name, what,
/// value` (see [`push_args`]).
const RUNNER: &str = include_str!("lua/runner.lua");

impl ScriptHost {
    /// Whether any handler listens to `event`.
    pub fn listens(rules: &Rules, event: &str) -> bool {
        rules.handlers.iter().any(|h| h.event == event)
    }

    /// Whether any handler listens to `event` after the command: any at all, or when
    /// `at_once_done` (a script made the change) any not registered `at_once`.
    pub fn listens_after(rules: &Rules, event: &str, at_once_done: bool) -> bool {
        rules
            .handlers
            .iter()
            .any(|h| h.event == event && !(at_once_done && h.at_once))
    }
}

/// The hook points of `rules` as a Lua table: point name → list of functions, in order.
pub(crate) fn hook_table(lua: &Lua, rules: &Rules) -> mlua::Result<Table> {
    let hooks = lua.create_table()?;
    for h in &rules.hooks {
        let list = match hooks.get::<Option<Table>>(h.event.as_str())? {
            Some(l) => l,
            None => {
                let l = lua.create_table()?;
                hooks.set(h.event.as_str(), l.clone())?;
                l
            }
        };
        list.raw_push(h.func.clone())?;
    }
    Ok(hooks)
}

/// The operations of the running call's function, `private[1](op, …)`: dice (here) and
/// the world (`world.rs`). The trusted Lua gets them by name, as the table `OP`.
pub(crate) mod op {
    /// `(expr, label, by, by is a handle, title)`: rolls dice; the total, the expression as
    /// rolled (`false`: as given), the index of the roll among the call's, the bytes a
    /// breakdown shows of it, then the dice: their number and values when all are plain kept
    /// dice, else minus their number, their values, their flags and whether the roll counts
    /// successes (see `api::dice::roll_with`).
    pub const ROLL: i64 = 1;
    /// `(table, modifier, col)`: rolls on a table; the value read and the modified total.
    pub const ROLL_TABLE: i64 = 2;
    /// `(expr, by)`: rolls dice with a source that never asks the umpire (the seeded
    /// generator), noting who rolls (`by`: an id, or nil), returning what [`ROLL`] returns; with one that does, rolls nothing and returns nothing
    /// (the trusted Lua then asks [`ROLL`], saying what the roll is for and who rolls it).
    pub const DICE: i64 = 3;
    /// `(question, choices, default, context)`: asks the umpire; the answer.
    pub const ASK: i64 = 4;
    /// `(id, key)`: an identity field or declared attribute of a unit, side or command.
    pub const READ: i64 = 10;
    /// `(id, marker)`: whether a unit has the marker (declared).
    pub const HAS: i64 = 11;
    /// `(id)`: the names of a unit's markers.
    pub const MARKERS: i64 = 12;
    /// `(id)`: what the id names (`side`, `command`, `unit`), and the id.
    pub const KIND: i64 = 13;
    /// `(id)`: the id, if it names a unit.
    pub const UNIT: i64 = 14;
    /// `(selector)`: the ids of the units it picks.
    pub const UNITS: i64 = 15;
    /// `(selector)`: how many units it picks.
    pub const COUNT: i64 = 16;
    /// `()`: the side ids in order.
    pub const SIDES: i64 = 17;
    /// `(id, attr, value, reason)`: sets an attribute.
    pub const SET: i64 = 18;
    /// `(id, marker, reason, expiry)`: puts a marker on.
    pub const MARK: i64 = 19;
    /// `(id, marker, reason)`: takes a marker off.
    pub const UNMARK: i64 = 20;
    /// `()`: the round, phase, side and the clock as text.
    pub const CLOCK: i64 = 21;
    /// `(script, key)`: a value of a script's store.
    pub const STORE_GET: i64 = 22;
    /// `(script, key, value)`: sets (or with `nil` removes) a value of a script's store.
    pub const STORE_SET: i64 = 23;
    /// `(script)`: the keys of a script's store.
    pub const STORE_KEYS: i64 = 24;
    /// Every operation by the name the trusted Lua uses.
    pub const ALL: &[(&str, i64)] = &[
        ("roll", ROLL),
        ("roll_table", ROLL_TABLE),
        ("dice", DICE),
        ("read", READ),
        ("has", HAS),
        ("markers", MARKERS),
        ("kind", KIND),
        ("unit", UNIT),
        ("units", UNITS),
        ("count", COUNT),
        ("sides", SIDES),
        ("set", SET),
        ("mark", MARK),
        ("unmark", UNMARK),
        ("clock", CLOCK),
        ("store_get", STORE_GET),
        ("store_set", STORE_SET),
        ("store_keys", STORE_KEYS),
    ];
}

/// The host's private table (see [`ScriptHost`]) and the trusted Lua behind `umpire.roll`,
/// for the Rust functions that reach the running call's function.
pub(crate) struct Private {
    /// The private table.
    pub table: Table,
    /// The trusted Lua behind `umpire.roll` (set once the checks are built).
    pub roll: Option<Function>,
}

/// Calls the running call's function with `args` (an operation first); between calls it
/// fails, saying why.
pub(crate) fn call_host(lua: &Lua, args: MultiValue) -> mlua::Result<MultiValue> {
    let f: Function = lua
        .app_data_ref::<Private>()
        .ok_or_else(|| mlua::Error::runtime("host data missing"))?
        .table
        .raw_get(1)?;
    f.call(args)
}

/// Why the world cannot be reached outside a call.
const NO_WORLD: &str = "units and the store can only be used while a command or an event runs, not while the rules load";

/// Why dice cannot be rolled outside a call.
const NO_DICE: &str =
    "dice can only be rolled while a command or an event runs, not while the rules load";

/// Notes who rolled the call's latest roll (`by`: the id of the unit, command or side the
/// rules named, `nil` when they named none), for reports that split the dice by side.
fn stamp_by(lua: &Lua, by: &Value) -> mlua::Result<()> {
    let Value::String(id) = by else {
        return Ok(());
    };
    let id: Box<str> = id.to_str()?.as_ref().into();
    if let Some(mut d) = lua.app_data_mut::<HostData>()
        && let Some(r) = d.out.rolls.last_mut()
    {
        r.by = Some(id);
    }
    Ok(())
}
