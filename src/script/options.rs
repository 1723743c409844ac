//! Options: the readings of a rule a ruleset or house rule lets the umpire choose
//! (`umpire.option{…}` declares one, `umpire.option(name)` reads it).
//!
//! An option has a name, a default (the recommended reading), its alternatives, a line of
//! documentation and the rule it reads. Its value lives in the game (the engine keeps the
//! values the umpire set, and hands them to the host with
//! [`ScriptHost::set_option_values`](super::ScriptHost::set_option_values)), so a change is
//! journalled and undone like any other. Scripts read the value in force when they run.

use std::collections::BTreeMap;
use std::fmt;

use mlua::{Lua, LuaSerdeExt, Table, Value};
use serde_json::Value as Json;

use super::registry::{caller, check_doc, check_keys, check_name, fail, string_field, with_rules};

/// The named registry key of the table of values scripts read (name → value).
pub(crate) const VALUES_KEY: &str = "umpire.option_values";

/// What values an option takes.
#[derive(Debug, Clone, PartialEq)]
pub enum OptionKind {
    /// `true` or `false` (typed `on`/`off`, `yes`/`no`, `true`/`false`).
    Flag,
    /// A number.
    Number,
    /// One of these words.
    Choice(Vec<String>),
}

/// One declared option.
#[derive(Debug, Clone, PartialEq)]
pub struct OptionDef {
    /// Its name, as typed in `option set NAME VALUE`.
    pub name: String,
    /// What values it takes.
    pub kind: OptionKind,
    /// The recommended reading.
    pub default: Json,
    /// One line saying what it decides.
    pub doc: String,
    /// The rule it reads (`3.4`), shown by `option list`.
    pub rule: String,
    /// What each choice means (for `Choice`), in the order of the choices.
    pub means: Vec<String>,
    /// Where it was declared.
    pub origin: super::Origin,
}

/// Why a typed value does not fit an option.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadValue {
    /// What is wrong.
    pub message: String,
    /// The values it takes.
    pub expected: String,
}

impl fmt::Display for BadValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.message)
    }
}

impl OptionDef {
    /// The value `word` stands for, as the umpire typed it.
    pub fn parse(&self, word: &str) -> Result<Json, BadValue> {
        let bad = |message: String| BadValue {
            message,
            expected: self.expected(),
        };
        match &self.kind {
            OptionKind::Flag => match word.to_ascii_lowercase().as_str() {
                "on" | "yes" | "true" => Ok(Json::Bool(true)),
                "off" | "no" | "false" => Ok(Json::Bool(false)),
                _ => Err(bad(format!(
                    "option `{}` is on or off, not `{word}`",
                    self.name
                ))),
            },
            OptionKind::Number => word
                .parse::<f64>()
                .ok()
                .filter(|n| n.is_finite())
                .map(|n| {
                    if n.fract() == 0.0 && n.abs() < 9.0e15 {
                        Json::from(n as i64)
                    } else {
                        Json::from(n)
                    }
                })
                .ok_or_else(|| bad(format!("option `{}` is a number, not `{word}`", self.name))),
            OptionKind::Choice(values) => values
                .iter()
                .find(|v| v.eq_ignore_ascii_case(word))
                .map(|v| Json::String(v.clone()))
                .ok_or_else(|| bad(format!("option `{}` has no reading `{word}`", self.name))),
        }
    }

    /// Whether `v` is a value this option takes (a stored value is checked again, in case
    /// the rules changed since it was set).
    pub fn accepts(&self, v: &Json) -> bool {
        match &self.kind {
            OptionKind::Flag => v.is_boolean(),
            OptionKind::Number => v.is_number(),
            OptionKind::Choice(values) => v.as_str().is_some_and(|s| values.iter().any(|c| c == s)),
        }
    }

    /// The values it takes, in words: `on or off`, `a number`, `fewer_lost or most_lost`.
    pub fn expected(&self) -> String {
        match &self.kind {
            OptionKind::Flag => "on or off".into(),
            OptionKind::Number => "a number".into(),
            OptionKind::Choice(v) => v.join(" or "),
        }
    }
}

/// A value as the umpire reads it: `on`, `off`, `3`, `fewer_lost`.
pub fn show(v: &Json) -> String {
    match v {
        Json::Bool(true) => "on".into(),
        Json::Bool(false) => "off".into(),
        Json::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// `umpire.option{name, default, choices, doc, rule}` declares an option (while the rules
/// load); `umpire.option(name)` reads its value (while a command or event runs: the value
/// the umpire set, else the default).
pub(crate) fn lua_option(lua: &Lua, arg: Value) -> mlua::Result<Value> {
    match arg {
        Value::String(name) => read(lua, &name.to_str()?),
        Value::Table(t) => declare(lua, &t).map(|()| Value::Nil),
        v => {
            let origin = caller(lua);
            fail(
                &origin,
                format!(
                    "umpire.option takes a declaration {{name = …, default = …}} or an option's name, not a {}",
                    v.type_name()
                ),
            )
        }
    }
}

/// `umpire.option` as scripts call it: trusted Lua that reads a declared option's value from
/// the table of values in force, without a call into the host (the rules read options in
/// their inner loops); a declaration, or a name nothing declared, goes to [`lua_option`].
pub(crate) fn install_reader(lua: &Lua, umpire: &Table) -> mlua::Result<()> {
    const READER: &str = r#"
-- Trusted Lua, part of umpire: `umpire.option` (src/script/options.rs).
local values, declare_or_fail = ...
local type = type
return function(arg)
  if type(arg) == "string" then
    local v = values[arg]
    if v ~= nil then return v end
  end
  return declare_or_fail(arg)
end
"#;
    let values: Table = lua.named_registry_value(VALUES_KEY)?;
    let option: mlua::Function = super::sandbox::trusted(lua, "umpire option", READER)?
        .call((values, lua.create_function(lua_option)?))?;
    umpire.set("option", option)
}

/// `umpire.options()`: a table of every option's value in force, by name (a copy).
pub(crate) fn lua_options(lua: &Lua, (): ()) -> mlua::Result<Table> {
    let values: Table = lua.named_registry_value(VALUES_KEY)?;
    let out = lua.create_table()?;
    for pair in values.pairs::<Value, Value>() {
        let (k, v) = pair?;
        out.raw_set(k, v)?;
    }
    Ok(out)
}

fn read(lua: &Lua, name: &str) -> mlua::Result<Value> {
    let values: Table = lua.named_registry_value(VALUES_KEY)?;
    match values.raw_get::<Value>(name)? {
        Value::Nil => {
            let known: Vec<String> = values
                .pairs::<String, Value>()
                .filter_map(|p| p.ok().map(|(k, _)| k))
                .collect();
            let mut known = known;
            known.sort();
            let origin = caller(lua);
            fail(
                &origin,
                if known.is_empty() {
                    format!(
                        "no option `{name}`: the rules declare none (`umpire.option{{name = …}}`)"
                    )
                } else {
                    format!("no option `{name}` (options: {})", known.join(", "))
                },
            )
        }
        v => Ok(v),
    }
}

fn declare(lua: &Lua, t: &Table) -> mlua::Result<()> {
    let origin = caller(lua);
    const WHAT: &str = "umpire.option{…}";
    check_keys(
        t,
        WHAT,
        &["name", "default", "choices", "doc", "rule"],
        &origin,
    )?;
    let name = string_field(t, "name", WHAT, &origin, true)?.unwrap_or_default();
    let valid = name.bytes().next().is_some_and(|c| c.is_ascii_lowercase())
        && name
            .bytes()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_');
    if !valid {
        return fail(
            &origin,
            format!("option name `{name}` must be a lowercase word (letters, digits, `_`)"),
        );
    }
    check_name(lua, &origin, &name, "an option's name")?;
    let what = format!("option `{name}`");
    let doc = string_field(t, "doc", &what, &origin, true)?.unwrap_or_default();
    check_doc(lua, &origin, &doc, &format!("the doc of {what}"), false)?;
    let rule = string_field(t, "rule", &what, &origin, false)?.unwrap_or_default();
    check_doc(lua, &origin, &rule, &format!("the rule of {what}"), false)?;
    let (kind, default, means) = match (t.get::<Value>("default")?, t.get::<Value>("choices")?) {
        (Value::Boolean(b), Value::Nil) => (OptionKind::Flag, Json::Bool(b), Vec::new()),
        (Value::Integer(n), Value::Nil) => (OptionKind::Number, Json::from(n), Vec::new()),
        (Value::Number(n), Value::Nil) if n.is_finite() => {
            (OptionKind::Number, Json::from(n), Vec::new())
        }
        (Value::String(d), Value::Table(choices)) => {
            let d = d.to_str()?.to_string();
            let (values, means) = choice_list(lua, &origin, &what, &choices)?;
            if !values.contains(&d) {
                return fail(
                    &origin,
                    format!(
                        "the default of {what}, `{d}`, is not one of its choices ({})",
                        values.join(", ")
                    ),
                );
            }
            (OptionKind::Choice(values), Json::String(d), means)
        }
        (Value::String(_), Value::Nil) => {
            return fail(
                &origin,
                format!(
                    "{what}: a reading in words needs its alternatives: `choices = {{ {{\"recommended\", \"what it means\"}}, {{\"other\", \"…\"}} }}`"
                ),
            );
        }
        (Value::Nil, _) => {
            return fail(
                &origin,
                format!("{what} needs `default` (true/false, a number, or one of its choices)"),
            );
        }
        (_, Value::Table(_)) => {
            return fail(
                &origin,
                format!("{what}: `choices` go with a default in words"),
            );
        }
        (v, _) => {
            return fail(
                &origin,
                format!(
                    "the default of {what} must be true/false, a number or a word, not a {}",
                    v.type_name()
                ),
            );
        }
    };
    let def = OptionDef {
        name: name.clone(),
        kind,
        default: default.clone(),
        doc,
        rule,
        means,
        origin: origin.clone(),
    };
    with_rules(lua, &origin, "umpire.option", |rules| {
        if let Some(prev) = rules.options.iter().find(|o| o.name == name) {
            return Err(format!(
                "option `{name}` is already declared at {}",
                prev.origin
            ));
        }
        rules.options.push(def);
        Ok(())
    })?;
    let values: Table = lua.named_registry_value(VALUES_KEY)?;
    values.raw_set(name, lua.to_value(&default)?)
}

/// `choices = { { "fewer_lost", "the side that lost fewer PCP wins" }, … }` or
/// `choices = { "a", "b" }`: the words and what each means.
fn choice_list(
    lua: &Lua,
    origin: &super::Origin,
    what: &str,
    t: &Table,
) -> mlua::Result<(Vec<String>, Vec<String>)> {
    let mut values = Vec::new();
    let mut means = Vec::new();
    for item in t.sequence_values::<Value>() {
        let (word, meaning) = match item? {
            Value::String(s) => (s.to_str()?.to_string(), String::new()),
            Value::Table(pair) => (
                pair.get::<Option<String>>(1)?.unwrap_or_default(),
                pair.get::<Option<String>>(2)?.unwrap_or_default(),
            ),
            v => {
                return fail(
                    origin,
                    format!(
                        "each choice of {what} is a word or {{word, \"what it means\"}}, not a {}",
                        v.type_name()
                    ),
                );
            }
        };
        let valid = word.bytes().next().is_some_and(|c| c.is_ascii_lowercase())
            && word
                .bytes()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_' || c == b'-');
        if !valid {
            return fail(
                origin,
                format!("choice `{word}` of {what} must be a lowercase word"),
            );
        }
        check_name(lua, origin, &word, &format!("a choice of {what}"))?;
        check_doc(
            lua,
            origin,
            &meaning,
            &format!("what `{word}` means"),
            false,
        )?;
        if values.contains(&word) {
            return fail(origin, format!("choice `{word}` of {what} is listed twice"));
        }
        values.push(word);
        means.push(meaning);
    }
    if values.len() < 2 {
        return fail(
            origin,
            format!("{what} needs at least two choices (the recommended reading and another)"),
        );
    }
    Ok((values, means))
}

/// The value of each option: `set` (the values the umpire chose) where it is valid for the
/// option, else the default.
pub fn values_in_force(options: &[OptionDef], set: &BTreeMap<String, Json>) -> Vec<(String, Json)> {
    options
        .iter()
        .map(|o| {
            let v = set
                .get(&o.name)
                .filter(|v| o.accepts(v))
                .unwrap_or(&o.default);
            (o.name.clone(), v.clone())
        })
        .collect()
}

/// Puts the values in force into the table scripts read.
pub(crate) fn install(lua: &Lua, values: &[(String, Json)]) -> mlua::Result<()> {
    let t: Table = lua.named_registry_value(VALUES_KEY)?;
    for (k, v) in values {
        t.raw_set(k.as_str(), lua.to_value(v)?)?;
    }
    Ok(())
}
