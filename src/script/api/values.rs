//! Values handed to Lua: names made once per host and handed out again ([`intern`]), and a
//! game value as a Lua value ([`state_to_lua`]).

use std::collections::HashMap;

use mlua::{Lua, Value};

use crate::state::Value as StateValue;

/// Lua strings made once per host and handed out again: names that come back call after
/// call (markers, sides, commands, kinds, choices, argument and command names), so reading
/// them makes nothing new.
#[derive(Default)]
pub(crate) struct Interned(HashMap<String, mlua::LuaString>);

/// Most strings kept in [`Interned`]: names come from the schema and the rules, so this is
/// never reached in practice; past it, strings are made afresh.
const MAX_INTERNED: usize = 8192;

/// `s` as a Lua string, made once per host.
pub(crate) fn intern(lua: &Lua, s: &str) -> mlua::Result<Value> {
    if let Some(found) = lua
        .app_data_ref::<Interned>()
        .and_then(|i| i.0.get(s).cloned())
    {
        return Ok(Value::String(found));
    }
    let made = lua.create_string(s)?;
    if let Some(mut i) = lua.app_data_mut::<Interned>()
        && i.0.len() < MAX_INTERNED
    {
        i.0.insert(s.to_string(), made.clone());
    }
    Ok(Value::String(made))
}

/// A game value as a Lua value.
pub(crate) fn state_to_lua(lua: &Lua, v: &StateValue) -> mlua::Result<Value> {
    Ok(match v {
        StateValue::Flag(b) => Value::Boolean(*b),
        StateValue::Int(i) => Value::Integer(*i),
        StateValue::Num(n) => Value::Number(*n),
        StateValue::Text(s) => Value::String(lua.create_string(s)?),
        StateValue::List(items) => {
            let t = lua.create_table()?;
            for i in items {
                t.raw_push(state_to_lua(lua, i)?)?;
            }
            Value::Table(t)
        }
    })
}
