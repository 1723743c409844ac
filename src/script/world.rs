//! The game as scripts see it during a command or an event: unit handles
//! (`umpire.unit`, `umpire.units`, unit arguments), their attributes and markers, changes
//! with a reason, the clock, and each script's `store`.
//!
//! The shell lends the host a [`World`] for one call: the game, and the list its changes are
//! noted in (the shell's pending transaction, so that an error anywhere rolls every change
//! back). Every change a script makes carries a reason, which the call hands back as a
//! [`Note`] for the output and the journal.
//!
//! Lua reaches the world through one host function, `world(op, …)`, wrapped by the trusted
//! Lua (`UNIT`) into handles with methods (`u.sp`, `u:set("sp", 3, "reason")`).

use mlua::{Lua, LuaSerdeExt, MultiValue, Table, Value};

pub use crate::state::Note;
use crate::state::{Change, Expiry, Game, Kind, Selector, StateErrorKind};

/// What a call may read and change: the game, and where its changes are noted.
pub struct World<'a> {
    /// The game.
    pub game: &'a mut Game,
    /// The running transaction's changes: every change a script makes is applied to
    /// [`World::game`] and pushed here.
    pub changes: &'a mut crate::state::ChangeSet,
}

impl std::fmt::Debug for World<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("World")
            .field("changes", &self.changes.len())
            .finish_non_exhaustive()
    }
}

fn runtime(e: impl std::fmt::Display) -> mlua::Error {
    mlua::Error::runtime(e.to_string())
}

/// A reason argument: required, non-empty text, at most the `text` limit.
fn reason(lua: &Lua, v: Value, what: &str) -> mlua::Result<String> {
    match v {
        Value::String(s) if !s.to_str()?.trim().is_empty() => {
            let text = s.to_str()?.to_string();
            super::host::check_text(lua, &text, &format!("the reason for {what}"))?;
            Ok(text)
        }
        _ => Err(runtime(format!(
            "{what} needs a reason (text), such as \"lost a stand to shooting (5.2.4)\": it is shown in the breakdown and kept in the journal"
        ))),
    }
}

fn text(v: &Value, what: &str) -> mlua::Result<String> {
    match v {
        Value::String(s) => Ok(s.to_str()?.to_string()),
        Value::Integer(i) => Ok(i.to_string()),
        v => Err(runtime(format!(
            "{what} must be text, not a {}",
            v.type_name()
        ))),
    }
}

/// Notes a change the game has applied, with its reason (its text counts as output: it is
/// shown under the command); `nil` for Lua.
fn note(
    lua: &Lua,
    changes: &mut crate::state::ChangeSet,
    notes: &mut Vec<Note>,
    c: Change,
    reason: String,
) -> mlua::Result<Value> {
    let change = c.to_string();
    changes.push(c);
    super::host::add_output(lua, change.len() + reason.len() + 8)?;
    notes.push(Note { change, reason });
    Ok(Value::Nil)
}

/// How scripts show a unit, side or command: its name with its id (`Warriors 7 [war7]`), so
/// two units of one name are told apart in every breakdown and result line; the id alone
/// when the name is the id.
pub fn display_name(id: &str, name: &str) -> String {
    if name == id || name.is_empty() {
        id.to_string()
    } else {
        format!("{name} [{id}]")
    }
}

/// Runs one world operation for Lua. `ops` are listed in [`UNIT`].
pub(crate) fn op(
    lua: &Lua,
    world: &mut World<'_>,
    notes: &mut Vec<Note>,
    name: &str,
    mut args: MultiValue,
) -> mlua::Result<MultiValue> {
    let mut arg = || args.pop_front().unwrap_or(Value::Nil);
    let game = &mut *world.game;
    let out = match name {
        "unit" => {
            let id = text(&arg(), "a unit id")?;
            let u = game.find_unit(&id).map_err(runtime)?;
            let t = lua.create_table()?;
            t.set("id", u.id.as_str())?;
            t.set("name", display_name(u.id.as_str(), &u.name))?;
            t.set("bare_name", u.name.as_str())?;
            t.set("side", u.side.as_str())?;
            t.set("command", u.command.as_str())?;
            Value::Table(t)
        }
        "snapshot" => {
            // Everything a handle reads, in one call: identity, declared attributes (stored
            // or default) and markers. Handles keep it for the rest of the call.
            let id = text(&arg(), "an id")?;
            let kind = game
                .kind_of(&id)
                .ok_or_else(|| runtime(game.unknown_any(&id)))?;
            let t = lua.create_table()?;
            t.raw_set("id", id.as_str())?;
            let name = game.name_of(&id);
            t.raw_set("name", display_name(&id, &name))?;
            t.raw_set("bare_name", name)?;
            t.raw_set("kind", kind.name())?;
            let attrs = lua.create_table()?;
            for name in game.schema().attrs(kind).keys() {
                if let Some(v) = game.attr(&id, name) {
                    attrs.raw_set(name.as_str(), super::host::state_to_lua(lua, v)?)?;
                }
            }
            t.raw_set("attrs", attrs)?;
            let markers = lua.create_table()?;
            match kind {
                Kind::Command => {
                    let c = game.find_command(&id).map_err(runtime)?;
                    t.raw_set("side", c.side.as_str())?;
                }
                Kind::Unit => {
                    let u = game.find_unit(&id).map_err(runtime)?;
                    t.raw_set("side", u.side.as_str())?;
                    t.raw_set("command", u.command.as_str())?;
                    for m in &u.markers {
                        markers.raw_set(m.name.as_str(), true)?;
                    }
                }
                _ => {}
            }
            t.raw_set("markers", markers)?;
            Value::Table(t)
        }
        "declared_markers" => {
            let t = lua.create_table()?;
            for name in game.schema().markers.keys() {
                t.raw_set(name.as_str(), true)?;
            }
            Value::Table(t)
        }
        "units" => {
            let sel = text(&arg(), "a selector")?;
            let parsed = Selector::parse(&sel).map_err(|e| runtime(format!("`{sel}`: {e}")))?;
            // Nothing selected is an empty list for scripts, not an error.
            let ids = match parsed.resolve_ids(game) {
                Ok(ids) => ids,
                Err(e) if matches!(e.kind, StateErrorKind::NoMatch { .. }) => Vec::new(),
                Err(e) => return Err(runtime(format!("`{sel}`: {e}"))),
            };
            let t = lua.create_table()?;
            for id in ids {
                t.raw_push(id.as_str())?;
            }
            Value::Table(t)
        }
        "get" => {
            let id = text(&arg(), "a unit id")?;
            let attr = text(&arg(), "an attribute name")?;
            let (kind, _) = game
                .attrs_of(&id)
                .ok_or_else(|| runtime(game.unknown_any(&id)))?;
            game.schema()
                .attr(kind, &attr, &format!("{kind} `{id}`"))
                .map_err(runtime)?;
            match game.attr(&id, &attr) {
                Some(v) => super::host::state_to_lua(lua, v)?,
                None => Value::Nil,
            }
        }
        "set" => {
            let id = text(&arg(), "a unit id")?;
            let attr = text(&arg(), "an attribute name")?;
            let value = arg();
            let why = reason(lua, arg(), &format!("changing {id} {attr}"))?;
            let cap = super::host::limits(lua).text;
            let mut room = cap;
            let value = super::registry::lua_to_state_within(&value, &mut room).ok_or_else(|| {
                if room == 0 {
                    runtime(format!(
                        "{id} {attr}: the value is more than the {} a value may take (the `text` limit; a club can raise it with `--limit text=16KiB`)",
                        super::data::shown_bytes(cap)
                    ))
                } else {
                    runtime(format!(
                        "{id} {attr}: a value is a number, text, true/false or a list (of at most {} levels)",
                        super::registry::MAX_LIST_DEPTH
                    ))
                }
            })?;
            let c = game.set_attr(&id, &attr, value).map_err(runtime)?;
            note(lua, world.changes, notes, c, why)?
        }
        "markers" => {
            let id = text(&arg(), "a unit id")?;
            let u = game.find_unit(&id).map_err(runtime)?;
            let t = lua.create_table()?;
            for m in &u.markers {
                t.raw_push(m.name.as_str())?;
            }
            Value::Table(t)
        }
        "has" => {
            let id = text(&arg(), "a unit id")?;
            let marker = text(&arg(), "a marker name")?;
            // A misspelt marker would quietly read as absent: refuse it as `mark` does.
            game.schema().check_marker(&marker).map_err(runtime)?;
            let u = game.find_unit(&id).map_err(runtime)?;
            Value::Boolean(u.marker(&marker).is_some())
        }
        "mark" => {
            let id = text(&arg(), "a unit id")?;
            let marker = text(&arg(), "a marker name")?;
            let why = reason(lua, arg(), &format!("marking {id} {marker}"))?;
            let expiry = match arg() {
                Value::Nil => None,
                v => {
                    let e = text(&v, "an expiry")?;
                    Some(Expiry::parse(&e).map_err(|m| runtime(format!("{marker}: {m}")))?)
                }
            };
            let c = game.mark(&id, &marker, expiry).map_err(runtime)?;
            note(lua, world.changes, notes, c, why)?
        }
        "unmark" => {
            let id = text(&arg(), "a unit id")?;
            let marker = text(&arg(), "a marker name")?;
            let why = reason(lua, arg(), &format!("unmarking {id} {marker}"))?;
            let c = game.unmark(&id, &marker).map_err(runtime)?;
            note(lua, world.changes, notes, c, why)?
        }
        "clock" => {
            let t = lua.create_table()?;
            let pos = game.clock().pos;
            t.set("round", pos.round)?;
            if let Some(step) = game.step() {
                t.set("phase", step.phase)?;
                t.set("side", step.side.map(|s| s.as_str().to_string()))?;
            }
            t.set("text", game.clock_text())?;
            Value::Table(t)
        }
        "store_get" => {
            let script = text(&arg(), "a script name")?;
            let key = text(&arg(), "a store key")?;
            match game.stored(&script, &key) {
                Some(v) => lua.to_value(v)?,
                None => Value::Nil,
            }
        }
        "store_set" => {
            let script = text(&arg(), "a script name")?;
            let key = text(&arg(), "a store key")?;
            super::host::check_text(lua, &key, "a store key")?;
            let value = match arg() {
                Value::Nil => None,
                v => Some(stored_value(lua, &script, &key, &v)?),
            };
            let c = store_set(lua, game, &script, &key, value)?;
            world.changes.push(c);
            Value::Nil
        }
        "store_keys" => {
            let script = text(&arg(), "a script name")?;
            let t = lua.create_table()?;
            for k in game.store_of(&script).into_iter().flat_map(|m| m.keys()) {
                t.raw_push(k.as_str())?;
            }
            Value::Table(t)
        }
        other => return Err(runtime(format!("no world operation `{other}`"))),
    };
    Ok(MultiValue::from_vec(vec![out]))
}

/// `v` as the JSON to keep under `store.KEY` of `script`: plain data no bigger than the
/// `store` limit.
fn stored_value(
    lua: &Lua,
    script: &str,
    key: &str,
    v: &Value,
) -> mlua::Result<(serde_json::Value, usize)> {
    let cap = super::host::limits(lua).store;
    super::data::to_json(lua, v, cap).map_err(|e| match e {
        super::data::DataError::Budget(e) => e,
        super::data::DataError::TooBig(_) => runtime(format!(
            "store.{key}: this value takes more than the {} the store of `{script}` may hold (the `store` limit; a club can raise it with `--limit store=128MiB`)",
            super::data::shown_bytes(cap)
        )),
        e => runtime(format!("store.{key}: {e}")),
    })
}

/// Sets `store.KEY` of `script` to `value` (`None` removes it; a value comes with about the
/// bytes it takes), if the store then holds at most the `store` limit and this call has
/// written at most as much into it.
fn store_set(
    lua: &Lua,
    game: &mut Game,
    script: &str,
    key: &str,
    value: Option<(serde_json::Value, usize)>,
) -> mlua::Result<Change> {
    use super::data::{json_size, shown_bytes};
    let cap = super::host::limits(lua).store;
    let entry = |v: &serde_json::Value| key.len() + 4 + json_size(v);
    let known = lua
        .app_data_ref::<super::host::HostData>()
        .and_then(|d| d.held.stores.get(script).copied());
    // The store's size is worked out the first time a call touches it, then kept up to date.
    let size = match known {
        Some(n) => n,
        None => game.store_of(script).map_or(0, |m| {
            m.iter().map(|(k, v)| k.len() + 4 + json_size(v)).sum()
        }),
    };
    let old = game.stored(script, key).map_or(0, entry);
    let new = value.as_ref().map_or(0, |(_, n)| key.len() + 4 + n);
    let after = size - old.min(size) + new;
    let written = lua
        .app_data_ref::<super::host::HostData>()
        .map_or(0, |d| d.held.written.get(script).copied().unwrap_or(0))
        + new;
    if after > cap {
        return Err(runtime(format!(
            "store.{key}: the store of `{script}` would hold {after} bytes, more than its {} (the `store` limit; a club can raise it with `--limit store=128MiB`)",
            shown_bytes(cap)
        )));
    }
    if written > cap {
        return Err(runtime(format!(
            "store.{key}: this command has written {written} bytes into the store of `{script}`, more than the {} one command may write (the `store` limit)",
            shown_bytes(cap)
        )));
    }
    let c = game
        .set_stored(script, key, value.map(|(v, _)| v))
        .map_err(runtime)?;
    if let Some(mut d) = lua.app_data_mut::<super::host::HostData>() {
        d.held.stores.insert(script.to_string(), after);
        d.held.written.insert(script.to_string(), written);
    }
    Ok(c)
}

/// `world(op, …)` from Lua: the call's world function, or an error outside a call.
pub(crate) fn lua_world(lua: &Lua, args: MultiValue) -> mlua::Result<MultiValue> {
    super::host::call_host(
        lua,
        super::host::OP_WORLD,
        args,
        "units and the store can only be used while a command or an event runs, not while the rules load",
    )
}

/// Builds the unit API from [`UNIT`]: returns the table of functions the host installs
/// (`unit`, `units`, `clock`, `handles`, `store`). `kit` is the sandbox's toolkit.
pub(crate) fn build(lua: &Lua, kit: &Table) -> mlua::Result<Table> {
    let world = lua.create_function(lua_world)?;
    super::sandbox::trusted(lua, "umpire units", UNIT)?.call((world, kit.clone()))
}

/// Trusted Lua: unit handles and the store proxy over `world(op, …)`.
const UNIT: &str = r#"
local world, kit = ...
local type, tostring, error, setmetatable = type, tostring, error, setmetatable
local protect, copy = kit.protect, kit.copy

local Unit = {}
local methods = {}
local fields = { id = true, name = true, bare_name = true, side = true, command = true, kind = true }

-- A handle: an empty table whose id is kept here, out of the scripts' reach; everything
-- else is read from the game when asked. What a call has read is kept for the rest of that
-- call (`cache`, emptied when the host bumps `api.serial`) and dropped for a unit as soon as
-- the unit is changed.
local ids = setmetatable({}, { __mode = "k" })
local function handle(id)
  local h = protect(setmetatable({}, Unit))
  ids[h] = id
  return h
end
local function id_of(u) return ids[u] end

local api = {}
local cache, declared, serial = {}, nil, nil
local function snap(id)
  -- The host bumps `api.serial` at the start of every call: nothing read before is trusted.
  if api.serial ~= serial then
    cache, declared, serial = {}, nil, api.serial
  end
  local s = cache[id]
  if s == nil then
    s = world("snapshot", id)
    cache[id] = s
  end
  return s
end
local function changed(id) cache[id] = nil end

Unit.__index = function(u, k)
  local m = methods[k]
  if m then return m end
  if type(k) ~= "string" then return nil end
  local s = snap(id_of(u))
  if fields[k] then return s[k] end
  local v = s.attrs[k]
  -- A list is copied: what one script does to it no other script sees.
  if type(v) == "table" then return copy(v) end
  if v ~= nil then return v end
  -- Not a declared attribute: the host says what is wrong.
  return world("get", id_of(u), k)
end
Unit.__newindex = function(u, k)
  error("units change through u:set(\"" .. tostring(k) .. "\", value, \"reason\"): every change needs a reason", 2)
end
-- How a unit, side or command is shown: `u.name`, its name with its id (`Warriors 7
-- [war7]`), so a breakdown says which of two "Line infantry 3" is meant.
Unit.__tostring = function(u) return snap(id_of(u)).name end
Unit.__concat = function(a, b) return tostring(a) .. tostring(b) end
Unit.__eq = function(a, b) return id_of(a) == id_of(b) end
Unit.__metatable = false

-- u:get("sp"): an attribute (the same as u.sp).
function methods:get(attr) return self[attr] end
-- u:set("sp", 3, "reason"): changes an attribute.
function methods:set(attr, value, reason)
  local id = id_of(self)
  changed(id)
  world("set", id, attr, value, reason)
  return self
end
-- u:add("sp", -1, "reason"): adds to a number attribute.
function methods:add(attr, delta, reason)
  if type(delta) ~= "number" then error("u:add(attr, delta, reason): delta must be a number", 2) end
  local v = self[attr]
  if type(v) ~= "number" then error("u:add: `" .. tostring(attr) .. "` is not a number", 2) end
  return self:set(attr, v + delta, reason)
end
-- u:has("routed"): whether the marker is on.
function methods:has(marker)
  local s = snap(id_of(self))
  declared = declared or world("declared_markers")
  if declared[marker] and s.kind == "unit" then return s.markers[marker] == true end
  -- Undeclared, or not a unit: the host says what is wrong.
  return world("has", id_of(self), marker)
end
-- u:markers(): the names of its markers.
function methods:markers() return world("markers", id_of(self)) end
-- u:mark("routed", "reason" [, "end of round"]): puts a marker on.
function methods:mark(marker, reason, expiry)
  changed(id_of(self))
  world("mark", id_of(self), marker, reason, expiry)
  return self
end
-- u:unmark("routed", "reason"): takes it off.
function methods:unmark(marker, reason)
  changed(id_of(self))
  world("unmark", id_of(self), marker, reason)
  return self
end

function api.unit(id)
  if type(id) == "table" and id_of(id) then return id end
  return handle(world("unit", id).id)
end
function api.units(selector)
  local out = {}
  for i, id in ipairs(world("units", selector)) do out[i] = handle(id) end
  return out
end
function api.clock() return world("clock") end
-- A side or a command: the same handle, for its attributes (`s.cinc_rating`, `s:set(…)`).
local function group(kind)
  return function(id)
    local t = world("snapshot", id)
    if t.kind ~= kind then
      error("`" .. tostring(id) .. "` is a " .. t.kind .. ", not a " .. kind, 2)
    end
    return handle(t.id)
  end
end
api.side = group("side")
api.group = group("command")
api.handle = handle

-- `store`: plain data kept in the game (journalled, undone, replayed), one per script.
function api.store(script)
  local proxy = protect({})
  return setmetatable(proxy, {
    __index = function(_, k) return world("store_get", script, k) end,
    __newindex = function(_, k, v) world("store_set", script, k, v) end,
    __pairs = function()
      local keys, i = world("store_keys", script), 0
      return function()
        i = i + 1
        local k = keys[i]
        if k ~= nil then return k, world("store_get", script, k) end
      end
    end,
    __metatable = false,
  })
end
return api
"#;
