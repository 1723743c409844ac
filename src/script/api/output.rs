//! What a call shows: `print` captured into the call's output ([`lua_print`]), values as
//! `tostring` shows them ([`to_text`]), `umpire.fail(message)` ([`lua_fail`]), and the limits
//! on what a call may make the host hold: the `output` limit ([`add_output`]) and the
//! `text` limit ([`check_text`], [`cut`]).

use mlua::{Function, Lua, Value, Variadic};

use crate::script::host::{HostData, budgets};

/// `umpire.fail(message)`: refuses the command with a plain message for the umpire (cut to
/// the `text` limit).
pub(crate) fn lua_fail(lua: &Lua, msg: String) -> mlua::Result<()> {
    let msg = cut(&msg, budgets(lua).text).into_owned();
    Err(mlua::Error::external(crate::script::error::Refusal(msg)))
}

/// Counts `bytes` more of output made by the running call; fails past the `output` limit.
/// `umpire.record(key, value)`: a number (or other plain data) for programs reading the
/// command's JSON (`record.KEY`), such as a scorer; recording a key again replaces its value.
/// Nothing is shown to people.
pub(crate) fn lua_record(lua: &Lua, (key, value): (String, Value)) -> mlua::Result<()> {
    check_text(lua, &key, &"a record's key")?;
    let cap = super::super::host::budgets(lua).output;
    let (v, size) = crate::script::data::to_json(lua, &value, cap)
        .map_err(|e| mlua::Error::runtime(format!("umpire.record(\"{key}\", …): {e}")))?;
    add_output(lua, key.len() + size)?;
    let mut d = lua
        .app_data_mut::<super::super::host::HostData>()
        .ok_or_else(|| mlua::Error::runtime("host data missing"))?;
    d.out.record.insert(key, v);
    Ok(())
}

pub(crate) fn add_output(lua: &Lua, bytes: usize) -> mlua::Result<()> {
    let limit = budgets(lua).output;
    let mut d = lua
        .app_data_mut::<HostData>()
        .ok_or_else(|| mlua::Error::runtime("host data missing"))?;
    d.held.output = d.held.output.saturating_add(bytes);
    if d.held.output > limit {
        return Err(mlua::Error::runtime(format!(
            "this command's output is more than {} (the `output` limit; a club can raise it with `--limit output=4MiB`)",
            crate::script::data::shown_bytes(limit)
        )));
    }
    Ok(())
}

/// Fails if `text`, a `what` given by a script, is longer than the `text` limit (`what` is
/// written out only for the error: pass `&format_args!(…)` rather than a new string).
pub(crate) fn check_text(lua: &Lua, text: &str, what: &dyn std::fmt::Display) -> mlua::Result<()> {
    let limit = budgets(lua).text;
    if text.len() > limit {
        return Err(mlua::Error::runtime(format!(
            "{what} is {} bytes, more than the {} a text may have (the `text` limit; a club can raise it with `--limit text=16KiB`)",
            text.len(),
            crate::script::data::shown_bytes(limit)
        )));
    }
    Ok(())
}

/// `text` cut to at most `max` bytes (at a character boundary), saying how much was cut.
pub(crate) fn cut(text: &str, max: usize) -> std::borrow::Cow<'_, str> {
    if text.len() <= max {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    std::borrow::Cow::Owned(format!(
        "{}… ({} more bytes cut)",
        &text[..end],
        text.len() - end
    ))
}

/// `print(...)`: captured as one output line (counted against the `output` limit).
pub(crate) fn lua_print(lua: &Lua, args: Variadic<Value>) -> mlua::Result<()> {
    let mut line = String::new();
    for (i, v) in args.iter().enumerate() {
        if i > 0 {
            line.push('\t');
        }
        let part = to_text(lua, v)?;
        add_output(lua, part.len() + 1)?;
        line.push_str(&part);
    }
    if args.is_empty() {
        add_output(lua, 1)?;
    }
    if let Some(mut d) = lua.app_data_mut::<HostData>() {
        d.out.output.push(line);
    }
    Ok(())
}

/// A Lua string as Rust text: copied as it is when it is UTF-8 (the usual case, checked by
/// the standard library's validator), else with U+FFFD for each bad sequence.
pub(crate) fn lua_string(s: &mlua::LuaString) -> String {
    let bytes = s.as_bytes();
    match std::str::from_utf8(&bytes) {
        Ok(t) => t.to_owned(),
        Err(_) => String::from_utf8_lossy(&bytes).into_owned(),
    }
}

/// A value as `tostring` shows it.
pub(crate) fn to_text(lua: &Lua, v: &Value) -> mlua::Result<String> {
    match v {
        Value::String(s) => Ok(lua_string(s)),
        Value::Integer(i) => Ok(i.to_string()),
        Value::Number(n) => Ok(n.to_string()),
        Value::Boolean(b) => Ok(b.to_string()),
        Value::Nil => Ok("nil".into()),
        v => {
            let tostring: Function = lua.globals().get("tostring")?;
            tostring.call::<String>(v.clone())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lua_strings_are_copied_as_they_are_and_bad_bytes_become_replacement_characters() {
        let lua = Lua::new();
        let good = lua.create_string("Ökonom → 12\u{1b}").unwrap();
        assert_eq!(lua_string(&good), "Ökonom → 12\u{1b}");
        let bad = lua.create_string(b"ab\xff\xfecd").unwrap();
        assert_eq!(lua_string(&bad), "ab\u{fffd}\u{fffd}cd");
    }
}
