//! Dice in the `umpire` API: `umpire.roll(expr [, label or {label, by, title}])` and
//! `math.random(m [, n])`, both rolled through the running call's dice source
//! ([`roll_with`]), each roll charged to the call's budget and kept for the journal; and
//! what a roll is for and who rolls it, shown when the umpire is asked for a die
//! ([`roll_context`]). The roll objects scripts get are made by the trusted Lua of checks
//! (`lua/checks.lua`).

use mlua::{Function, Lua, MultiValue, Table, Value};

use super::output::to_text;
use crate::dice::{self, DiceSource, Roll};
use crate::script::budget;
use crate::script::host::{HostData, Private, call_host, op};
use crate::script::world;

/// Installs `umpire.roll` into `umpire`; returns the host's `math.random`.
pub(crate) fn install(lua: &Lua, umpire: &Table) -> mlua::Result<Function> {
    // A Rust function, so that an error in `return umpire.roll(…)` (a tail call) still
    // names the script's line: a Lua function would take the script's place on the stack.
    umpire.set("roll", lua.create_function(lua_roll)?)?;
    lua.create_function(lua_random)
}

/// `umpire.roll(expr [, label or {label = …, by = …, title = …}])`: the total, the kept dice
/// (with `dropped` and `expr`) and the roll as a breakdown shows it.
fn lua_roll(lua: &Lua, args: MultiValue) -> mlua::Result<MultiValue> {
    let roll = lua
        .app_data_ref::<Private>()
        .and_then(|p| p.roll.clone())
        .ok_or_else(|| mlua::Error::runtime("host data missing"))?;
    roll.call(args)
}

/// Instructions' worth a roll costs, and each of its dice: the host keeps every roll of a
/// call for the journal, so a script that rolls in a loop makes the host hold them. With
/// the default budget one call can roll at most 200,000 times or 2,000,000 dice.
const ROLL_COST: u64 = 500;
const DIE_COST: u64 = 50;

/// Charges a roll to the running call.
pub(crate) fn charge_roll(lua: &Lua, roll: &Roll) -> mlua::Result<()> {
    let dice = roll.dice().len() as u64;
    budget::charge(lua, ROLL_COST + DIE_COST * dice)
}

/// Rolls `expr` through the call's source; records the roll. Returns what
/// [`op::ROLL`] returns: the total, the expression as rolled (`false`: as given), the index of the roll among the
/// call's, the bytes a breakdown shows of it (`2d6 [3, 5]`), then for dice that are all
/// plain kept dice their number and values, otherwise minus their number, their values and
/// their flags ([`dice::Die::flags`]) in the order rolled, and whether the roll counts
/// successes (the trusted Lua makes the roll object).
pub(crate) fn roll_with(
    lua: &Lua,
    dice: &mut dyn DiceSource,
    expr: &Value,
) -> mlua::Result<MultiValue> {
    let owned;
    let borrowed;
    let text: &str = match expr {
        Value::String(s) => {
            borrowed = s.to_str()?;
            &borrowed
        }
        v => {
            owned = lua.unpack::<String>(v.clone())?;
            &owned
        }
    };
    let limits = lua
        .app_data_ref::<HostData>()
        .map(|d| d.dice_caps)
        .unwrap_or_default();
    let parsed =
        dice::parse(text).map_err(|e| mlua::Error::runtime(format!("bad dice `{text}`: {e}")))?;
    let mut rolls = dice::roll(&parsed, dice, &limits).map_err(|e| match *e.kind {
        // The umpire stopped typing dice, or the queue holds a value the die cannot show:
        // not a fault in the script, so said plainly (the help says how to go on).
        dice::DiceErrorKind::SourceCancelled { .. }
        | dice::DiceErrorKind::ImpossibleQueued { .. } => {
            let help = e.help().map_or(String::new(), |h| format!(" ({h})"));
            mlua::Error::external(crate::script::error::Refusal(format!("{e}{help}")))
        }
        _ => mlua::Error::runtime(format!("cannot roll `{text}`: {e}")),
    })?;
    if rolls.len() != 1 {
        return Err(mlua::Error::runtime(format!(
            "umpire.roll rolls one expression, not a repeat (`{text}`)"
        )));
    }
    let roll = rolls.remove(0);
    charge_roll(lua, &roll)?;
    let notation = roll.expr();
    let count = |n: usize| Value::Integer(i64::try_from(n).unwrap_or(i64::MAX));
    let dice = roll.dice();
    // Plain: every die kept and nothing else to say of it (`1d6`, `2d6`), so the list of kept
    // dice says it all; otherwise each die's value and flags go across, in the order rolled.
    let plain = dice.iter().all(|d| d.flags() == dice::Die::KEPT) && !roll.counts_successes();
    // What a breakdown shows of it, `2d6 [3, 5]`: the expression and the dice (about: marks
    // and a big pool's summary are allowed for).
    let shown = notation.as_str().len()
        + 3
        + if dice.len() > dice::render::COMPACT_OVER {
            48
        } else {
            dice.iter()
                .map(|d| digits(d.value) + if plain { 2 } else { 6 })
                .sum::<usize>()
                .saturating_sub(2)
        };
    let mut out = MultiValue::with_capacity(5 + 2 * dice.len() + 1);
    out.push_back(number(roll.total));
    out.push_back(match expr {
        Value::String(_) if notation.as_str() == text => Value::Boolean(false),
        _ => Value::String(lua.create_string(notation.as_str())?),
    });
    let mut d = lua
        .app_data_mut::<HostData>()
        .ok_or_else(|| mlua::Error::runtime("host data missing"))?;
    out.push_back(count(d.out.rolls.len()));
    out.push_back(count(shown));
    if plain {
        out.push_back(count(dice.len()));
        out.extend(dice.iter().map(|d| Value::Integer(d.value)));
    } else {
        out.push_back(Value::Integer(
            -i64::try_from(dice.len()).unwrap_or(i64::MAX),
        ));
        out.extend(dice.iter().map(|d| Value::Integer(d.value)));
        out.extend(dice.iter().map(|d| Value::Integer(i64::from(d.flags()))));
        out.push_back(Value::Boolean(roll.counts_successes()));
    }
    drop(dice);
    d.out.rolls.push(roll);
    Ok(out)
}

/// The characters of `n` written out.
fn digits(n: i64) -> usize {
    let sign = usize::from(n < 0);
    let mut n = n.unsigned_abs();
    let mut d = 1;
    while n >= 10 {
        n /= 10;
        d += 1;
    }
    d + sign
}

/// A whole number as a Lua integer, anything else as a float.
fn number(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 9.0e15 {
        Value::Integer(x as i64)
    } else {
        Value::Number(x)
    }
}

/// Longest context shown when the umpire is asked for a die.
const MAX_CONTEXT: usize = 200;

/// What a roll is for and who rolls it (`Warriors 1's save · Warriors 1 [war1] (britons)`),
/// from what `umpire.roll` or `c:roll` was given: a `label`, who rolls it (`by`: the id of a
/// unit, side or command handle when `by_handle` is true, shown with its name and, for a
/// unit, its side; or text), and the check's `title`, which says what the roll belongs to
/// when no `by` is given.
pub(crate) fn roll_context(
    lua: &Lua,
    game: Option<&crate::state::Game>,
    label: Value,
    by: Value,
    by_handle: Value,
    title: Value,
) -> mlua::Result<Option<String>> {
    let text = |v: Value| -> mlua::Result<Option<String>> {
        Ok(match v {
            Value::Nil => None,
            Value::String(s) => Some(s.to_string_lossy()),
            v => Some(to_text(lua, &v)?),
        })
    };
    let label = text(label)?;
    let who = match (&by, by_handle) {
        (Value::String(id), Value::Boolean(true)) => {
            let id = id.to_string_lossy();
            Some(match game {
                Some(g) => {
                    let mut who = world::display_name(&id, g.name_ref(&id).unwrap_or(&id));
                    if let Some(u) = g.unit(&id) {
                        who.push_str(&format!(" ({})", u.side));
                    }
                    who
                }
                None => id,
            })
        }
        (Value::Table(h), _) => {
            let mut who = to_text(lua, &by)?;
            if h.get::<Option<String>>("kind")?.as_deref() == Some("unit")
                && let Some(side) = h.get::<Option<String>>("side")?
            {
                who.push_str(&format!(" ({side})"));
            }
            Some(who)
        }
        (v, _) => text(v.clone())?,
    };
    let about = who.or(text(title)?);
    let mut shown = match (label, about) {
        (Some(l), Some(a)) => Some(format!("{l} · {a}")),
        (l, a) => l.or(a),
    };
    if let Some(s) = &mut shown
        && s.len() > MAX_CONTEXT
    {
        let mut end = MAX_CONTEXT;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        s.truncate(end);
        s.push('…');
    }
    Ok(shown)
}

/// `math.random([m [, n]])`: one die through the host.
fn lua_random(lua: &Lua, (m, n): (Option<i64>, Option<i64>)) -> mlua::Result<i64> {
    let (lo, hi) = match (m, n) {
        (Some(hi), None) => (1, hi),
        (Some(lo), Some(hi)) => (lo, hi),
        _ => {
            return Err(mlua::Error::runtime(
                "math.random needs bounds: math.random(6) rolls a d6, math.random(2, 12) one of 2..12",
            ));
        }
    };
    if hi < lo {
        return Err(mlua::Error::runtime(format!(
            "math.random: interval [{lo}, {hi}] is empty"
        )));
    }
    let expr = Value::String(lua.create_string(format!("1d{}", hi - lo + 1))?);
    let rolled = call_host(
        lua,
        MultiValue::from_vec(vec![Value::Integer(op::ROLL), expr]),
    )?;
    let v: i64 = lua.unpack(rolled.front().cloned().unwrap_or(Value::Nil))?;
    Ok(v + lo - 1)
}
