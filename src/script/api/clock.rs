//! The clock in the `umpire` API: what `umpire.clock()` reads, the round, phase and side
//! whose turn it is (the table scripts get is made by the trusted Lua of units,
//! `lua/units.lua`).

use mlua::{Lua, MultiValue, Value};

use super::values::intern;
use crate::state::Game;

/// [`op::CLOCK`](crate::script::host::op::CLOCK): the round, the phase and the side whose
/// turn it is (`nil` when the sequence has none), and the clock as text.
pub(crate) fn read(lua: &Lua, game: &Game) -> mlua::Result<MultiValue> {
    let pos = game.clock().pos;
    let (phase, side) = match game.step() {
        Some(step) => (
            match step.phase {
                Some(p) => intern(lua, &p)?,
                None => Value::Nil,
            },
            match step.side {
                Some(s) => intern(lua, s.as_str())?,
                None => Value::Nil,
            },
        ),
        None => (Value::Nil, Value::Nil),
    };
    Ok(MultiValue::from_vec(vec![
        Value::Integer(i64::from(pos.round)),
        phase,
        side,
        Value::String(lua.create_string(game.clock_text())?),
    ]))
}
