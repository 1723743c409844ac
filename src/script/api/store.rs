//! The store in the `umpire` API: each script's `store`, plain data kept in the game
//! (journalled, undone with its command, replayed), no bigger than the `store` limit, and
//! the namespace a rule file's store is under ([`namespace`]). The proxy scripts see is
//! made by the trusted Lua of units (`lua/units.lua`).

use mlua::{Lua, LuaSerdeExt, MultiValue, Value};

use super::output::check_text;
use crate::script::host::{HostData, budgets, op};
use crate::script::world::{World, runtime, text};
use crate::state::{Change, Game};

/// Runs store operation `op` ([`op::STORE_GET`], [`op::STORE_SET`], [`op::STORE_KEYS`]) with
/// its arguments for Lua.
pub(crate) fn run(
    lua: &Lua,
    world: &mut World<'_>,
    op: i64,
    [a, b, c]: [Value; 3],
) -> mlua::Result<MultiValue> {
    let game = &mut *world.game;
    let one = |v: Value| Ok(MultiValue::from_vec(vec![v]));
    match op {
        op::STORE_GET => {
            let script = text(&a, "a script name")?;
            let key = text(&b, "a store key")?;
            one(match game.stored(&script, &key) {
                Some(v) => lua.to_value(v)?,
                None => Value::Nil,
            })
        }
        op::STORE_SET => {
            let script = text(&a, "a script name")?.to_string();
            let key = text(&b, "a store key")?.to_string();
            check_text(lua, &key, &"a store key")?;
            let value = match c {
                Value::Nil => None,
                v => Some(stored_value(lua, &script, &key, &v)?),
            };
            let change = store_set(lua, game, &script, &key, value)?;
            world.changes.push(change);
            one(Value::Nil)
        }
        op::STORE_KEYS => {
            let script = text(&a, "a script name")?;
            game.store_of(&script)
                .into_iter()
                .flat_map(|m| m.keys())
                .map(|k| Ok(Value::String(lua.create_string(k)?)))
                .collect()
        }
        other => Err(runtime(format!("no store operation {other}"))),
    }
}

/// `v` as the JSON to keep under `store.KEY` of `script`: plain data no bigger than the
/// `store` limit.
fn stored_value(
    lua: &Lua,
    script: &str,
    key: &str,
    v: &Value,
) -> mlua::Result<(serde_json::Value, usize)> {
    let cap = budgets(lua).store;
    crate::script::data::to_json(lua, v, cap).map_err(|e| match e {
        crate::script::data::DataError::Budget(e) => e,
        crate::script::data::DataError::TooBig(_) => runtime(format!(
            "store.{key}: this value takes more than the {} the store of `{script}` may hold (the `store` limit; a club can raise it with `--limit store=128MiB`)",
            crate::script::data::shown_bytes(cap)
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
    use crate::script::data::{json_size, shown_bytes};
    let cap = budgets(lua).store;
    let entry = |v: &serde_json::Value| key.len() + 4 + json_size(v);
    let known = lua
        .app_data_ref::<HostData>()
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
        .app_data_ref::<HostData>()
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
    if let Some(mut d) = lua.app_data_mut::<HostData>() {
        d.held.stores.insert(script.to_string(), after);
        d.held.written.insert(script.to_string(), written);
    }
    Ok(c)
}

/// The store namespace of a rule file shown as `rulesets/NAME/…` or `scripts/NAME.lua` /
/// `scripts/NAME/…`: `NAME`.
pub(crate) fn namespace(shown: &str) -> Option<String> {
    let rest = shown
        .strip_prefix("rulesets/")
        .or_else(|| shown.strip_prefix("scripts/"))?;
    let first = rest.split('/').next()?;
    Some(first.strip_suffix(".lua").unwrap_or(first).to_string())
}
