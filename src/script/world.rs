//! The game as scripts see it during a command or an event: unit handles
//! (`umpire.unit`, `umpire.units`, unit arguments), their attributes and markers, counts of
//! units, changes with a reason; and the dispatcher of every world operation, handing the
//! clock to `api/clock.rs`, each script's `store` to `api/store.rs` and elements to
//! `elements.rs`.
//!
//! The shell lends the host a [`World`] for one call: the game, and the list its changes are
//! noted in (the shell's pending transaction, so that an error anywhere rolls every change
//! back). Every change a script makes carries a reason, which the call hands back as a
//! [`Note`] for the output and the journal.
//!
//! Lua reaches the world through the call's host function with a world operation (`host::op`),
//! wrapped by the trusted Lua (`UNIT`) into handles with methods (`u.sp`, `u:set("sp", 3,
//! "reason")`). A handle reads only what it is asked for, one attribute or marker at a time,
//! and keeps what it read for the rest of the call (until the unit changes): a command that
//! looks at three attributes of five stands makes fifteen small reads, whatever the schema
//! declares and however big the army.

use std::ops::Deref;

use mlua::{Function, Lua, MultiValue, Table, Value};

use super::api::output::{add_output, check_text};
use super::api::values::{intern, state_to_lua};
use super::host::op;
pub use crate::state::Note;
use crate::state::{AttrType, Change, Expiry, Game, Kind, Selector};

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

pub(crate) fn runtime(e: impl std::fmt::Display) -> mlua::Error {
    mlua::Error::runtime(e.to_string())
}

/// A reason argument: required, non-empty text, at most the `text` limit.
fn reason(lua: &Lua, v: Value, what: &dyn std::fmt::Display) -> mlua::Result<String> {
    let text = match &v {
        Value::String(s) => Some(s.to_str()?),
        _ => None,
    };
    match text {
        Some(text) if !text.trim().is_empty() => {
            check_text(lua, &text, &format_args!("the reason for {what}"))?;
            Ok(text.to_string())
        }
        _ => Err(runtime(format!(
            "{what} needs a reason (text), such as \"lost a stand to shooting (5.2.4)\": it is shown in the breakdown and kept in the journal"
        ))),
    }
}

/// A text argument: read in place from a Lua string (nothing copied), or a whole number
/// written out.
pub(crate) enum Text {
    Lua(mlua::BorrowedStr),
    Owned(String),
}

impl Deref for Text {
    type Target = str;

    fn deref(&self) -> &str {
        match self {
            Text::Lua(s) => s,
            Text::Owned(s) => s,
        }
    }
}

pub(crate) fn text(v: &Value, what: &str) -> mlua::Result<Text> {
    match v {
        Value::String(s) => Ok(Text::Lua(s.to_str()?)),
        Value::Integer(i) => Ok(Text::Owned(i.to_string())),
        v => Err(runtime(format!(
            "{what} must be text, not a {}",
            v.type_name()
        ))),
    }
}

/// An id as Lua should keep it: the string it was given, or a whole number written out.
fn id_value(lua: &Lua, v: &Value, id: &str) -> mlua::Result<Value> {
    match v {
        Value::String(_) => Ok(v.clone()),
        _ => Ok(Value::String(lua.create_string(id)?)),
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
    add_output(lua, change.len() + reason.len() + 8)?;
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

/// The units `selector` picks in `game`, in display order (none is an empty list for
/// scripts, not an error).
fn selected(game: &Game, selector: &str) -> mlua::Result<Vec<crate::state::Id>> {
    let parsed = Selector::parse(selector).map_err(|e| runtime(format!("`{selector}`: {e}")))?;
    parsed
        .pick(game)
        .map_err(|e| runtime(format!("`{selector}`: {e}")))
}

/// One thing a handle reads: an identity field (`name`, `bare_name`, `kind`, `side`,
/// `command`) or a declared attribute (stored, or the schema's default). An undeclared
/// attribute is an error naming the nearest declared ones.
fn read(lua: &Lua, game: &Game, id: &str, key: &str) -> mlua::Result<Value> {
    let (kind, attrs) = game
        .attrs_of(id)
        .ok_or_else(|| runtime(game.unknown_any(id)))?;
    let name = || game.name_ref(id).unwrap_or(id);
    Ok(match key {
        "id" => Value::String(lua.create_string(id)?),
        // Names are read again and again (breakdowns, summaries): made once.
        "name" => intern(lua, &display_name(id, name()))?,
        "bare_name" => Value::String(lua.create_string(name())?),
        "kind" => intern(lua, kind.name())?,
        "side" => match kind {
            Kind::Unit | Kind::Element => match game.owner_unit(id) {
                Some(u) => intern(lua, u.side.as_str())?,
                None => Value::Nil,
            },
            Kind::Command => intern(lua, game.find_command(id).map_err(runtime)?.side.as_str())?,
            _ => Value::Nil,
        },
        "command" => match kind {
            Kind::Unit | Kind::Element => match game.owner_unit(id) {
                Some(u) => intern(lua, u.command.as_str())?,
                None => Value::Nil,
            },
            _ => Value::Nil,
        },
        // The team a side plays in (nil: none), a unit's side's team.
        "team" => {
            let side = match kind {
                Kind::Side => Some(id),
                Kind::Command => game.find_command(id).ok().map(|c| c.side.as_str()),
                Kind::Unit | Kind::Element => game.owner_unit(id).map(|u| u.side.as_str()),
            };
            match side.and_then(|s| game.team_of(s)) {
                Some(t) => intern(lua, t.as_str())?,
                None => Value::Nil,
            }
        }
        "unit" => match game.element(id) {
            Some(e) => intern(lua, e.unit.as_str())?,
            None => Value::Nil,
        },
        attr => {
            let Some(decl) = game.schema().attrs(kind).get(attr) else {
                let e = game
                    .schema()
                    .attr(kind, attr, &format_args!("{kind} `{id}`"))
                    .err();
                return Err(runtime(e.map_or_else(
                    || format!("no attribute `{attr}`"),
                    |e| e.to_string(),
                )));
            };
            let v = attrs.get(attr).unwrap_or(&decl.default);
            match (v, &decl.ty) {
                // The few values a choice allows are made once per host.
                (crate::state::Value::Text(s), AttrType::Choice { .. }) => intern(lua, s)?,
                _ => state_to_lua(lua, v)?,
            }
        }
    })
}

/// `(id)`: the id of the element a word names (its id or `UNIT.ELEMENT`).
pub(crate) const ELEMENT: i64 = 40;
/// `(unit, filter)`: the ids of a unit's elements the filter picks (`nil`: all).
pub(crate) const ELEMENTS: i64 = 41;
/// `(spec, command, reason)`: creates a unit (and its elements); its id.
pub(crate) const CREATE_UNIT: i64 = 42;
/// `(unit, spec, reason)`: adds an element to a unit; its id.
pub(crate) const ADD_ELEMENT: i64 = 43;
/// `(id, reason)`: removes a unit (with its elements) or an element.
pub(crate) const REMOVE: i64 = 44;
/// `(id, to, reason)`: moves a unit to a command, or an element to a unit.
pub(crate) const MOVE: i64 = 45;
/// The operations on elements and on units' places, by the name the trusted Lua uses
/// (added to the host's `OP` table by [`build`]).
const ELEMENT_OPS: &[(&str, i64)] = &[
    ("element", ELEMENT),
    ("elements", ELEMENTS),
    ("create_unit", CREATE_UNIT),
    ("add_element", ADD_ELEMENT),
    ("remove", REMOVE),
    ("move", MOVE),
];

/// Notes a change the game has applied, with its reason (for `elements.rs`).
pub(crate) fn note_change(
    lua: &Lua,
    world: &mut World<'_>,
    notes: &mut Vec<Note>,
    c: Change,
    reason: String,
) -> mlua::Result<()> {
    note(lua, world.changes, notes, c, reason).map(|_| ())
}

/// A reason argument (for `elements.rs`).
pub(crate) fn reason_of(lua: &Lua, v: Value, what: &dyn std::fmt::Display) -> mlua::Result<String> {
    reason(lua, v, what)
}

/// Runs world operation `op` (see [`op`]) with its arguments for Lua.
pub(crate) fn op(
    lua: &Lua,
    world: &mut World<'_>,
    notes: &mut Vec<Note>,
    op: i64,
    [a, b, c, d]: [Value; 4],
) -> mlua::Result<MultiValue> {
    let game = &mut *world.game;
    let one = |v: Value| Ok(MultiValue::from_vec(vec![v]));
    match op {
        op::READ => {
            let id = text(&a, "an id")?;
            let key = text(&b, "an attribute name")?;
            one(read(lua, game, &id, &key)?)
        }
        op::HAS => {
            let id = text(&a, "a unit id")?;
            let marker = text(&b, "a marker name")?;
            // A misspelt marker would quietly read as absent: refuse it as `mark` does.
            game.schema().check_marker(&marker).map_err(runtime)?;
            let markers = game.markers_of(&id).map_err(runtime)?;
            one(Value::Boolean(markers.iter().any(|m| m.name == *marker)))
        }
        op::MARKERS => {
            let id = text(&a, "a unit id")?;
            game.markers_of(&id)
                .map_err(runtime)?
                .iter()
                .map(|m| intern(lua, &m.name))
                .collect::<mlua::Result<MultiValue>>()
        }
        op::KIND => {
            let id = text(&a, "an id")?;
            let kind = game
                .kind_of(&id)
                .ok_or_else(|| runtime(game.unknown_any(&id)))?;
            Ok(MultiValue::from_vec(vec![
                intern(lua, kind.name())?,
                id_value(lua, &a, &id)?,
            ]))
        }
        op::UNIT => {
            let id = text(&a, "a unit id")?;
            game.find_unit(&id).map_err(runtime)?;
            one(id_value(lua, &a, &id)?)
        }
        op::UNITS => {
            let sel = text(&a, "a selector")?;
            selected(game, &sel)?
                .iter()
                .map(|id| Ok(Value::String(lua.create_string(id.as_str())?)))
                .collect()
        }
        op::COUNT => {
            let sel = text(&a, "a selector")?;
            let parsed = Selector::parse(&sel).map_err(|e| runtime(format!("`{}`: {e}", &*sel)))?;
            let n = parsed
                .count(game)
                .map_err(|e| runtime(format!("`{}`: {e}", &*sel)))?;
            one(Value::Integer(i64::try_from(n).unwrap_or(i64::MAX)))
        }
        op::SIDES => game
            .side_ids()
            .iter()
            .map(|id| intern(lua, id.as_str()))
            .collect(),
        op::SET => {
            let id = text(&a, "a unit id")?.to_string();
            let attr = text(&b, "an attribute name")?.to_string();
            let why = reason(lua, d, &format_args!("changing {id} {attr}"))?;
            let cap = super::host::budgets(lua).text;
            let mut room = cap;
            let value = super::registry::lua_to_state_within(&c, &mut room).ok_or_else(|| {
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
            let change = game.set_attr(&id, &attr, value).map_err(runtime)?;
            let fired = at_once_events(lua, game, &change)?;
            note(lua, world.changes, notes, change, why)?;
            one(fired)
        }
        op::MARK => {
            let id = text(&a, "a unit id")?.to_string();
            let marker = text(&b, "a marker name")?.to_string();
            let why = reason(lua, c, &format_args!("marking {id} {marker}"))?;
            let expiry = match d {
                Value::Nil => None,
                v => {
                    let e = text(&v, "an expiry")?;
                    Some(Expiry::parse(&e).map_err(|m| runtime(format!("{marker}: {m}")))?)
                }
            };
            let change = game.mark(&id, &marker, expiry).map_err(runtime)?;
            let fired = at_once_events(lua, game, &change)?;
            note(lua, world.changes, notes, change, why)?;
            one(fired)
        }
        op::UNMARK => {
            let id = text(&a, "a unit id")?.to_string();
            let marker = text(&b, "a marker name")?.to_string();
            let why = reason(lua, c, &format_args!("unmarking {id} {marker}"))?;
            let change = game.unmark(&id, &marker).map_err(runtime)?;
            let fired = at_once_events(lua, game, &change)?;
            note(lua, world.changes, notes, change, why)?;
            one(fired)
        }
        op::CLOCK => crate::script::api::clock::read(lua, game),
        op::STORE_GET | op::STORE_SET | op::STORE_KEYS => {
            crate::script::api::store::run(lua, world, op, [a, b, c])
        }
        ELEMENT | ELEMENTS | CREATE_UNIT | ADD_ELEMENT | REMOVE | MOVE => {
            super::elements::op(lua, world, notes, op, [a, b, c, d])
        }
        other => Err(runtime(format!("no world operation {other}"))),
    }
}

/// The events `change` (just applied to `game` by a script) raises that a handler takes at
/// once, for the trusted Lua to run their handlers (`private[2]`): `nil` when there are
/// none, else one flat list (made in one go: a table filled a value at a time costs a
/// protected call a value) holding for each event its name, its number of fields, then each
/// field as `name, what, value` (`what`: 0 a value, 1 an id, a handle in Lua).
fn at_once_events(lua: &Lua, game: &Game, change: &Change) -> mlua::Result<Value> {
    let listened = {
        let Some(d) = lua.app_data_ref::<super::host::HostData>() else {
            return Ok(Value::Nil);
        };
        let raisable = super::events::raisable(change);
        if !d.at_once.iter().any(|a| raisable.contains(&a.as_str())) {
            return Ok(Value::Nil);
        }
        super::events::events_of(change, game)
            .into_iter()
            .filter(|(e, _)| d.at_once.iter().any(|a| a == e))
            .collect::<Vec<_>>()
    };
    if listened.is_empty() {
        return Ok(Value::Nil);
    }
    let mut out = Vec::new();
    for (name, fields) in listened {
        out.push(intern(lua, name)?);
        out.push(Value::Integer(i64::try_from(fields.len()).unwrap_or(0)));
        for (k, v) in fields {
            out.push(intern(lua, k)?);
            match v {
                super::ArgValue::Value(v) => {
                    out.push(Value::Integer(0));
                    out.push(state_to_lua(lua, &v)?);
                }
                super::ArgValue::Unit(id) => {
                    out.push(Value::Integer(1));
                    out.push(Value::String(lua.create_string(&id)?));
                }
                super::ArgValue::Units(_) => {
                    return Err(runtime("a change's event holds no list of units"));
                }
            }
        }
    }
    Ok(Value::Table(lua.create_sequence_from(out)?))
}

/// Installs the unit API from [`UNIT`] into `umpire` (`unit`, `units`, `count`, `sides`,
/// `clock`, `side`, `group`, `element`, `create_unit`); returns what the rest of the host
/// needs of it: `handle(id)` (a unit's handle), `id_of(handle)` and `store(script)` (a
/// script's store). `host` is the host's private table (the running call's function at
/// `host[1]`), `ops` the operation numbers by name and `kit` the sandbox's toolkit.
pub(crate) fn install(
    lua: &Lua,
    umpire: &Table,
    host: &Table,
    ops: &Table,
    kit: &Table,
) -> mlua::Result<(Function, Function, Function)> {
    for (name, n) in ELEMENT_OPS {
        ops.raw_set(*name, *n)?;
    }
    let units: Table =
        super::sandbox::trusted(lua, "umpire units", UNIT)?.call((host, ops, kit.clone()))?;
    for name in [
        "unit",
        "units",
        "count",
        "sides",
        "clock",
        "side",
        "group",
        "element",
        "create_unit",
    ] {
        umpire.set(name, units.get::<Function>(name)?)?;
    }
    super::data::know_handles(lua, units.get("handle_mt")?, units.get("ids")?);
    Ok((
        units.get("handle")?,
        units.get("id_of")?,
        units.get("store")?,
    ))
}

/// Trusted Lua: unit, side, command and element handles, the clock and the store proxy over
/// the world operations.
const UNIT: &str = include_str!("lua/units.lua");
