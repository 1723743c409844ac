//! Tables in the `umpire` API: `umpire.lookup`, `umpire.roll_table`, `umpire.tables()` and
//! the table handles of `umpire.table(name)` (`lua/table_handle.lua`); rolling on a table
//! through the running call's dice source ([`roll_table_with`]); a table's cell as a Lua
//! value ([`cell_to_lua`]). Declaring tables (`umpire.table{…}`) is in `registry.rs`.

use mlua::{Function, Lua, MultiValue, Table, Value};

use super::dice::charge_roll;
use crate::dice::DiceSource;
use crate::script::host::{HostData, call_host, op};
use crate::script::{registry, sandbox};
use crate::tables::Cell;

/// Installs `umpire.lookup` and `umpire.roll_table` into `umpire`, and the maker of table
/// handles (for `umpire.table(name)`) in the registry; `kit` is the sandbox's toolkit.
pub(crate) fn install(lua: &Lua, umpire: &Table, kit: &Table) -> mlua::Result<()> {
    let lookup = lua.create_function(lua_lookup)?;
    let roll_table = lua.create_function(lua_roll_table)?;
    let table_handle: Function = sandbox::trusted(lua, "umpire tables", registry::TABLE_HANDLE)?
        .call((lookup.clone(), roll_table.clone(), kit.clone()))?;
    lua.set_named_registry_value(registry::TABLE_HANDLE_KEY, table_handle)?;
    umpire.set("lookup", lookup)?;
    umpire.set("roll_table", roll_table)?;
    Ok(())
}

/// `umpire.tables()`: the names of the tables scripts can use, sorted: the rules' own, and
/// while a command runs, those the umpire loaded too.
pub(crate) fn lua_tables(lua: &Lua, (): ()) -> mlua::Result<Table> {
    let d = lua
        .app_data_ref::<HostData>()
        .ok_or_else(|| mlua::Error::runtime("host data missing"))?;
    let mut names: Vec<String> = d.tables.iter().map(|t| t.name.clone()).collect();
    if let Some(r) = &d.rules {
        names.extend(r.tables.iter().map(|t| t.name.clone()));
    }
    names.sort();
    names.dedup();
    lua.create_sequence_from(names)
}

/// A table cell as a Lua value (a record becomes a table).
fn cell_to_lua(lua: &Lua, c: &Cell) -> mlua::Result<Value> {
    Ok(match c {
        Cell::Int(i) => Value::Integer(*i),
        Cell::Num(n) => Value::Number(*n),
        Cell::Text(t) => Value::String(lua.create_string(t)?),
        Cell::Record(r) => {
            let t = lua.create_table()?;
            for (k, v) in r {
                t.set(k.as_str(), cell_to_lua(lua, v)?)?;
            }
            Value::Table(t)
        }
    })
}

/// `umpire.lookup(table, key [, col])`: the cell, and the row key used.
fn lua_lookup(
    lua: &Lua,
    (name, key, col): (String, Value, Option<Value>),
) -> mlua::Result<(Value, String)> {
    let text = |v: &Value| -> mlua::Result<String> {
        match v {
            Value::Integer(i) => Ok(i.to_string()),
            Value::Number(n) => Ok(n.to_string()),
            Value::String(s) => Ok(s.to_str()?.to_string()),
            v => Err(mlua::Error::runtime(format!(
                "umpire.lookup: a key is a number or text, not a {}",
                v.type_name()
            ))),
        }
    };
    let mut keys = vec![text(&key)?];
    if let Some(c) = &col {
        keys.push(text(c)?);
    }
    let found = {
        let d = lua
            .app_data_ref::<HostData>()
            .ok_or_else(|| mlua::Error::runtime("host data missing"))?;
        let table = d.tables.get(&name).map_err(mlua::Error::runtime)?;
        let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
        table.lookup_args(&keys).map_err(mlua::Error::runtime)?
    };
    Ok((cell_to_lua(lua, &found.value)?, found.row))
}

/// Rolls on table `name` through the call's source; records the roll.
pub(crate) fn roll_table_with(
    lua: &Lua,
    dice: &mut dyn DiceSource,
    name: &str,
    modifier: i64,
    col: Option<&str>,
) -> mlua::Result<(Value, i64)> {
    let rolled = {
        let d = lua
            .app_data_ref::<HostData>()
            .ok_or_else(|| mlua::Error::runtime("host data missing"))?;
        let table = d.tables.get(name).map_err(mlua::Error::runtime)?;
        match col {
            Some(c) => table.roll_column(c, modifier, dice),
            None => table.roll(modifier, dice),
        }
        .map_err(mlua::Error::runtime)?
    };
    charge_roll(lua, &rolled.roll)?;
    let value = cell_to_lua(lua, &rolled.value)?;
    let total = rolled.total;
    if let Some(mut d) = lua.app_data_mut::<HostData>() {
        d.out.rolls.push(rolled.roll);
    }
    Ok((value, total))
}

/// `umpire.roll_table(name [, modifier [, col]])`: the value read and the modified total.
fn lua_roll_table(lua: &Lua, args: MultiValue) -> mlua::Result<MultiValue> {
    let mut call = MultiValue::with_capacity(args.len() + 1);
    call.push_back(Value::Integer(op::ROLL_TABLE));
    call.extend(args);
    call_host(lua, call)
}
