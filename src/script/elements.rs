//! The world operations on elements and on where units are: `umpire.element`,
//! `u:elements(filter)`, `umpire.create_unit{…}`, `u:add_element{…}`, `u:remove(reason)`,
//! `e:remove(reason)`, `u:move_to(command, reason)` and `e:move_to(unit, reason)`.
//!
//! Each change is a [`Change`](crate::state::Change) applied to the world's game and noted
//! with its reason in the running command's transaction, so it is journalled, shown under
//! the command and undone with it. The trusted Lua in `world.rs` turns handles into ids
//! before calling these.

use mlua::{Lua, MultiValue, Value};

use super::world::{
    ADD_ELEMENT, CREATE_UNIT, ELEMENT, ELEMENTS, MOVE, Note, REMOVE, World, note_change, reason_of,
    runtime, text,
};
use crate::state::{Kind, Selector, Value as StateValue};

/// The filters `u:elements` was given, parsed: a ruleset lists soldiers by the same few
/// filters again and again. At most [`Filters::MAX`] are kept.
#[derive(Default)]
struct Filters(std::collections::HashMap<String, Selector>);

impl Filters {
    const MAX: usize = 256;

    fn keep(lua: &Lua, text: &str, s: Selector) {
        if lua.app_data_ref::<Filters>().is_none() {
            let _ = lua.try_set_app_data(Filters::default());
        }
        if let Some(mut f) = lua.try_app_data_mut::<Filters>().ok().flatten()
            && f.0.len() < Self::MAX
        {
            f.0.insert(text.to_string(), s);
        }
    }
}

/// A unit or element to make, as a script described it.
struct Spec {
    id: String,
    name: String,
    attrs: Vec<(String, StateValue)>,
    elements: Vec<Spec>,
}

/// The keys `umpire.create_unit{…}` takes.
const UNIT_KEYS: &[&str] = &["command", "id", "name", "attrs", "elements", "reason"];
/// The keys `u:add_element{…}` (and each of `elements = {…}`) takes.
const ELEMENT_KEYS: &[&str] = &["id", "name", "attrs", "reason"];

/// Reads a description of a unit or element from a Lua table: `id` (required), `name`
/// (the id if absent), `attrs` (name = value) and, where `keys` allows, `elements` (a list
/// of such descriptions). An unknown key is an error naming it, so a typo is caught.
fn spec(lua: &Lua, v: &Value, what: &str, keys: &[&str]) -> mlua::Result<Spec> {
    let Value::Table(t) = v else {
        return Err(runtime(format!(
            "{what} takes a table: {{id = \"…\", name = \"…\", attrs = {{…}}}}, not a {}",
            v.type_name()
        )));
    };
    for pair in t.pairs::<Value, Value>() {
        let (k, _) = pair?;
        let known =
            matches!(&k, Value::String(s) if keys.iter().any(|x| s.as_bytes() == x.as_bytes()));
        if !known {
            let shown = match &k {
                Value::String(s) => format!("`{}`", s.to_string_lossy()),
                other => format!("a {} key", other.type_name()),
            };
            return Err(runtime(format!(
                "{what}: unknown key {shown} (it takes {})",
                keys.join(", ")
            )));
        }
    }
    let id = match t.raw_get::<Value>("id")? {
        Value::Nil => {
            return Err(runtime(format!(
                "{what} needs an `id`: lowercase letters, digits, `_` and `-`, starting with a letter"
            )));
        }
        v => text(&v, &format!("the id in {what}"))?.to_string(),
    };
    let name = match t.raw_get::<Value>("name")? {
        Value::Nil => id.clone(),
        v => {
            let name = text(&v, &format!("the name in {what}"))?.to_string();
            super::api::output::check_text(lua, &name, &format_args!("the name in {what}"))?;
            name
        }
    };
    let mut attrs = Vec::new();
    match t.raw_get::<Value>("attrs")? {
        Value::Nil => {}
        Value::Table(a) => {
            let cap = super::host::budgets(lua).text;
            for pair in a.pairs::<Value, Value>() {
                let (k, v) = pair?;
                let attr = text(&k, &format!("an attribute name in {what}"))?.to_string();
                let mut room = cap;
                let value = super::registry::lua_to_state_within(&v, &mut room).ok_or_else(|| {
                    runtime(format!(
                        "{what}: attribute `{attr}` of `{id}` must be a number, text, true/false or a list (at most {} bytes)",
                        cap
                    ))
                })?;
                attrs.push((attr, value));
            }
            // The same error first whatever order Lua keeps the table in.
            attrs.sort_by(|a, b| a.0.cmp(&b.0));
        }
        other => {
            return Err(runtime(format!(
                "{what}: `attrs` is a table of attribute = value, not a {}",
                other.type_name()
            )));
        }
    }
    let mut elements = Vec::new();
    if keys.contains(&"elements") {
        match t.raw_get::<Value>("elements")? {
            Value::Nil => {}
            Value::Table(list) => {
                for e in list.sequence_values::<Value>() {
                    elements.push(spec(
                        lua,
                        &e?,
                        &format!("an element of `{id}` in {what}"),
                        &ELEMENT_KEYS[..3],
                    )?);
                }
            }
            other => {
                return Err(runtime(format!(
                    "{what}: `elements` is a list of {{id = …, name = …, attrs = {{…}}}}, not a {}",
                    other.type_name()
                )));
            }
        }
    }
    Ok(Spec {
        id,
        name,
        attrs,
        elements,
    })
}

/// Runs one of the element operations (see `world.rs`) with its arguments for Lua.
pub(crate) fn op(
    lua: &Lua,
    world: &mut World<'_>,
    notes: &mut Vec<Note>,
    op: i64,
    [a, b, c, _]: [Value; 4],
) -> mlua::Result<MultiValue> {
    let one = |v: Value| Ok(MultiValue::from_vec(vec![v]));
    let id_string = |id: &str| Ok::<_, mlua::Error>(Value::String(lua.create_string(id)?));
    match op {
        ELEMENT => {
            let word = text(&a, "an element id")?;
            let e = world
                .game
                .find_element(&word)
                .map_err(|e| runtime(format!("umpire.element: {e}")))?;
            one(id_string(e.id.as_str())?)
        }
        ELEMENTS => {
            let id = text(&a, "a unit id")?;
            let game = &*world.game;
            let unit = match game.kind_of(&id) {
                Some(Kind::Unit) => game.unit(&id).expect("a unit"),
                Some(k) => {
                    return Err(runtime(format!(
                        "`{}` is a {k}: u:elements() lists the elements of a unit",
                        &*id
                    )));
                }
                None => return Err(runtime(game.unknown(Kind::Unit, &id))),
            };
            let ids = match &b {
                Value::Nil => unit.elements.clone(),
                v => {
                    let filter = text(v, "a filter (such as \"hp>0 unmarked:fallen\")")?;
                    let pick = |s: &Selector| s.pick_elements(game, unit);
                    let known = lua
                        .app_data_ref::<Filters>()
                        .and_then(|f| f.0.get(&*filter).map(pick));
                    match known {
                        Some(picked) => picked,
                        None => Selector::parse(&filter).and_then(|s| {
                            let picked = pick(&s);
                            Filters::keep(lua, &filter, s);
                            picked
                        }),
                    }
                    .map_err(|e| runtime(format!("u:elements(\"{}\"): {e}", &*filter)))?
                }
            };
            // The same soldiers are listed again and again: their ids are made once.
            ids.iter()
                .map(|id| super::api::values::intern(lua, id.as_str()))
                .collect()
        }
        CREATE_UNIT => {
            const WHAT: &str = "umpire.create_unit{…}";
            let spec = spec(lua, &a, WHAT, UNIT_KEYS)?;
            let command = match &b {
                Value::Nil => {
                    return Err(runtime(format!(
                        "{WHAT} needs `command`: the id (or handle) of the command the unit joins"
                    )));
                }
                v => text(v, "the command")?.to_string(),
            };
            let why = reason_of(lua, c, &format_args!("creating unit {}", spec.id))?;
            let change = world
                .game
                .add_unit(&command, &spec.id, &spec.name, spec.attrs)
                .map_err(|e| runtime(format!("{WHAT}: {e}")))?;
            note_change(lua, world, notes, change, why.clone())?;
            for e in spec.elements {
                let change = world
                    .game
                    .add_element(&spec.id, &e.id, &e.name, e.attrs)
                    .map_err(|err| runtime(format!("{WHAT}: element `{}`: {err}", e.id)))?;
                note_change(lua, world, notes, change, why.clone())?;
            }
            one(id_string(&spec.id)?)
        }
        ADD_ELEMENT => {
            const WHAT: &str = "u:add_element{…}";
            let unit = text(&a, "a unit id")?.to_string();
            let spec = spec(lua, &b, WHAT, ELEMENT_KEYS)?;
            let why = reason_of(
                lua,
                c,
                &format_args!("adding element {} to {unit}", spec.id),
            )?;
            if let Some(k) = world.game.kind_of(&unit).filter(|k| *k != Kind::Unit) {
                return Err(runtime(format!(
                    "{WHAT}: `{unit}` is a {k}: elements are added to units"
                )));
            }
            let change = world
                .game
                .add_element(&unit, &spec.id, &spec.name, spec.attrs)
                .map_err(|e| runtime(format!("{WHAT}: {e}")))?;
            note_change(lua, world, notes, change, why)?;
            one(id_string(&spec.id)?)
        }
        REMOVE => {
            let id = text(&a, "an id")?.to_string();
            match world.game.kind_of(&id) {
                Some(Kind::Unit | Kind::Element) => {}
                Some(k) => {
                    return Err(runtime(format!(
                        ":remove(reason): `{id}` is a {k}; scripts remove units and elements (the umpire removes sides and commands with `remove`)"
                    )));
                }
                None => return Err(runtime(world.game.unknown_marked(&id))),
            }
            let why = reason_of(lua, b, &format_args!("removing {id}"))?;
            let changes = world.game.remove(&id).map_err(runtime)?;
            for change in changes {
                note_change(lua, world, notes, change, why.clone())?;
            }
            one(Value::Nil)
        }
        MOVE => {
            let id = text(&a, "an id")?.to_string();
            let to = match &b {
                Value::Nil => {
                    return Err(runtime(format!(
                        ":move_to(where, reason): say where `{id}` goes (a command for a unit, a unit for an element)"
                    )));
                }
                v => text(v, "where it goes")?.to_string(),
            };
            let why = reason_of(lua, c, &format_args!("moving {id} to {to}"))?;
            let change = match world.game.kind_of(&id) {
                Some(Kind::Unit) => world.game.move_unit(&id, &to),
                Some(Kind::Element) => world.game.move_element(&id, &to),
                Some(k) => {
                    return Err(runtime(format!(
                        ":move_to: `{id}` is a {k}; scripts move units (to a command) and elements (to a unit)"
                    )));
                }
                None => return Err(runtime(world.game.unknown_marked(&id))),
            }
            .map_err(runtime)?;
            note_change(lua, world, notes, change, why)?;
            one(Value::Nil)
        }
        other => Err(runtime(format!("no element operation {other}"))),
    }
}
