//! `umpire.ask{question, choices, default}`: a rule asks the umpire in the middle of a
//! resolution. The question goes through the call's dice source to the umpire at the table
//! (see [`crate::question`]); the answer is one of the choices, handed back to the script and
//! kept in the call's output for the journal.

use mlua::{Lua, MultiValue, Value};

use super::host::{HostData, call_host, op};
use crate::dice::DiceSource;
use crate::question::{Answered, Question};

/// `umpire.ask{question = …, choices = {…}, default = …}`: the choice the umpire picked (or
/// the default, when nobody can be asked).
pub(crate) fn lua_ask(lua: &Lua, t: Value) -> mlua::Result<MultiValue> {
    let Value::Table(t) = t else {
        return Err(mlua::Error::runtime(
            "umpire.ask takes a table: umpire.ask{ question = \"…?\", choices = { \"yes\", \"no\" }, default = \"no\" }",
        ));
    };
    for pair in t.pairs::<Value, Value>() {
        let (k, _) = pair?;
        let ok = matches!(&k, Value::String(s) if matches!(s.as_bytes().as_ref(), b"question" | b"choices" | b"default" | b"context"));
        if !ok {
            return Err(mlua::Error::runtime(format!(
                "umpire.ask{{…}}: unknown key {} (the keys are question, choices, default, context)",
                match &k {
                    Value::String(s) => format!("`{}`", s.to_string_lossy()),
                    v => format!("[{}]", v.type_name()),
                }
            )));
        }
    }
    let mut call = MultiValue::with_capacity(5);
    call.push_back(Value::Integer(op::ASK));
    call.push_back(t.get::<Value>("question")?);
    call.push_back(t.get::<Value>("choices")?);
    call.push_back(t.get::<Value>("default")?);
    call.push_back(t.get::<Value>("context")?);
    call_host(lua, call)
}

/// [`op::ASK`]: asks through `dice` and records the answer.
pub(crate) fn ask_with(
    lua: &Lua,
    dice: &mut dyn DiceSource,
    [question, choices, default, context]: [Value; 4],
) -> mlua::Result<MultiValue> {
    let text = match question {
        Value::String(s) => s.to_str()?.to_string(),
        _ => {
            return Err(mlua::Error::runtime(
                "umpire.ask needs `question`, the text asked: question = \"Does the General join?\"",
            ));
        }
    };
    super::api::output::check_text(lua, &text, &"a question")?;
    let choices: Vec<String> = match choices {
        Value::Table(t) => t
            .sequence_values::<Value>()
            .map(|v| match v? {
                Value::String(s) => Ok(s.to_str()?.to_string()),
                v => Err(mlua::Error::runtime(format!(
                    "each of umpire.ask's choices is a word, not a {}",
                    v.type_name()
                ))),
            })
            .collect::<mlua::Result<_>>()?,
        _ => {
            return Err(mlua::Error::runtime(
                "umpire.ask needs `choices`, the answers allowed: choices = { \"yes\", \"no\" }",
            ));
        }
    };
    if choices.len() < 2 {
        return Err(mlua::Error::runtime(
            "umpire.ask needs at least two choices",
        ));
    }
    for c in &choices {
        crate::escape::check_name(c, "a choice").map_err(mlua::Error::runtime)?;
        super::api::output::check_text(lua, c, &"a choice")?;
    }
    let default = match default {
        Value::Nil => None,
        Value::String(s) => {
            let d = s.to_str()?.to_string();
            if !choices.contains(&d) {
                return Err(mlua::Error::runtime(format!(
                    "umpire.ask: the default `{d}` is not one of the choices ({})",
                    choices.join(", ")
                )));
            }
            Some(d)
        }
        v => {
            return Err(mlua::Error::runtime(format!(
                "umpire.ask: the default is one of the choices, not a {}",
                v.type_name()
            )));
        }
    };
    let context = match context {
        Value::String(s) => Some(s.to_str()?.to_string()),
        _ => None,
    };
    let q = Question {
        text: &text,
        choices: &choices,
        default: default.as_deref(),
        context: context.as_deref(),
    };
    let (answer, by_default) = match dice.ask(&q).map_err(|why| {
        mlua::Error::runtime(format!("the question was not answered ({why}): {text}"))
    })? {
        Some(a) => (a, false),
        None => match &default {
            Some(d) => (d.clone(), true),
            None => {
                return Err(mlua::Error::runtime(format!(
                    "nobody can be asked here and the question has no default: {text} (give umpire.ask a `default`)"
                )));
            }
        },
    };
    if let Some(mut d) = lua.app_data_mut::<HostData>() {
        d.out.answers.push(Answered {
            question: text,
            answer: answer.clone(),
            by_default,
        });
    }
    Ok(MultiValue::from_vec(vec![Value::String(
        lua.create_string(&answer)?,
    )]))
}
