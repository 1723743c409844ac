//! `require "name.sub"`: a module of the rules, `rulesets/name/sub.lua` or
//! `scripts/name/sub.lua`, run once in its own environment and cached; every file loaded is
//! kept with its SHA-256 (for the watcher and the journal).

use std::path::PathBuf;

use mlua::{Function, Lua, Table, Value};

use crate::script::budget::BudgetState;
use crate::script::host::HostData;
use crate::script::sandbox::Budgets;

/// The host's `require`.
pub(crate) fn function(lua: &Lua) -> mlua::Result<Function> {
    lua.create_function(lua_require)
}

/// Whether `name` is a module name: `word(.word)*`, words of letters, digits, `_` and `-`.
fn valid_module(name: &str) -> bool {
    !name.is_empty()
        && name.split('.').all(|w| {
            !w.is_empty()
                && w.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        })
}

/// `require "olab.tables"`: `rulesets/olab/tables.lua`, else `scripts/olab/tables.lua`; run
/// once in its own environment and cached.
fn lua_require(lua: &Lua, name: String) -> mlua::Result<Value> {
    if !valid_module(&name) {
        return Err(mlua::Error::runtime(format!(
            "require: `{name}` is not a module name (write `require \"ruleset.module\"` for rulesets/ruleset/module.lua or scripts/ruleset/module.lua)"
        )));
    }
    let (roots, cached) = {
        let d = lua
            .app_data_ref::<HostData>()
            .ok_or_else(|| mlua::Error::runtime("host data missing"))?;
        (d.roots.clone(), d.modules.get(&name).cloned())
    };
    match cached {
        Some(Some(v)) => return Ok(v),
        Some(None) => {
            return Err(mlua::Error::runtime(format!(
                "require: `{name}` requires itself (a cycle)"
            )));
        }
        None => {}
    }
    let rel: PathBuf = name.split('.').collect::<PathBuf>().with_extension("lua");
    let rel_text = name.replace('.', "/") + ".lua";
    let found = [("rulesets", &roots.rulesets), ("scripts", &roots.scripts)]
        .into_iter()
        .find_map(|(label, root)| {
            let path = root.join(&rel);
            // Symlinks must not lead out of the rule folders either.
            let real = path.canonicalize().ok()?;
            let root = root.canonicalize().ok()?;
            real.starts_with(&root)
                .then(|| (path, format!("{label}/{rel_text}")))
        });
    let Some((path, shown)) = found else {
        return Err(mlua::Error::runtime(format!(
            "require: no module `{name}` (looked for rulesets/{rel_text} and scripts/{rel_text})"
        )));
    };
    let cap = lua.app_data_ref::<BudgetState>().map(|b| b.budgets.file);
    let src = crate::files::read(&path, cap.unwrap_or(Budgets::DEFAULT.file))
        .map_err(|e| mlua::Error::runtime(format!("require: {}", e.shown_as(&shown))))?;
    let new_env: Function = lua.named_registry_value(ENV_KEY)?;
    if let Some(mut d) = lua.app_data_mut::<HostData>() {
        d.modules.insert(name.clone(), None);
        d.files.push(path);
        d.hashes.insert(shown.clone(), sha256_hex(&src));
    }
    let env: Table = new_env.call(name.split('.').next())?;
    let result = crate::script::lexer::refuse_close(&shown, &src).and_then(|()| {
        lua.load(&src[..])
            .set_name(format!("@{shown}"))
            .set_mode(mlua::chunk::ChunkMode::Text)
            .set_environment(env)
            .eval::<Value>()
    });
    let value = match result {
        Ok(Value::Nil) => Value::Boolean(true),
        Ok(v) => v,
        Err(e) => {
            if let Some(mut d) = lua.app_data_mut::<HostData>() {
                d.modules.remove(&name);
            }
            return Err(e);
        }
    };
    if let Some(mut d) = lua.app_data_mut::<HostData>() {
        d.modules.insert(name, Some(value.clone()));
    }
    Ok(value)
}

/// The SHA-256 of `bytes`, in hex.
pub(crate) fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Named registry key of the environment maker (for `require`).
pub(crate) const ENV_KEY: &str = "umpire.new_env";
