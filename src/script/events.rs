//! The events umpire raises, and which of them a handler may take at once.
//!
//! A change to the game raises events (`unit_damaged`, `unit_marked`…: [`events_of`]); the
//! clock raises `step_ends`, `round_ends` (before it moves), `round_begins`, `step_begins`
//! and `marker_expired` (after). Scripts raise events of their own names with
//! `umpire.emit(name, fields)`, whose handlers run at once, within the emitting call.
//!
//! A handler of a *change* event may ask to run at once ([`AT_ONCE_EVENTS`]:
//! `umpire.on("unit_damaged", fn, { at_once = true })`): when a script makes the change, the
//! handler runs right then, inside the same call and budget, so a later step of the same
//! command sees what it did. Changes made by umpire's own commands (`set`, `mark`, `next`…)
//! reach every handler after the command, as before. Either way, events nest at most
//! [`MAX_DEPTH`] deep.

use crate::script::ArgValue;
use crate::state::{Change, Game, Kind, Value};

/// How deep events may nest: rounds of events after a command, or handlers run at once
/// (and `umpire.emit`) within one another.
pub const MAX_DEPTH: usize = 8;

/// The events umpire raises itself: scripts may handle them, not `umpire.emit` them.
pub const BUILTIN_EVENTS: &[&str] = &[
    "round_begins",
    "step_begins",
    "step_ends",
    "round_ends",
    "marker_expired",
    "unit_damaged",
    "unit_marked",
    "unit_unmarked",
    "element_damaged",
    "element_marked",
    "element_unmarked",
    "element_marker_expired",
];

/// The change events: a handler of one may ask to run at once (`{ at_once = true }`).
pub const AT_ONCE_EVENTS: &[&str] = &[
    "unit_damaged",
    "unit_marked",
    "unit_unmarked",
    "element_damaged",
    "element_marked",
    "element_unmarked",
];

/// Whether scripts may not raise `event` with `umpire.emit`: umpire raises it (a change or
/// clock event), or it is a `pre_` event (raised before a command).
pub fn reserved(event: &str) -> bool {
    event.starts_with("pre_") || BUILTIN_EVENTS.contains(&event)
}

/// An event: its name and its fields (units and elements by id: handles in Lua).
pub type Event = (&'static str, Vec<(&'static str, ArgValue)>);

/// The events a change of `c`'s kind may raise ([`events_of`] raises some of them, or none):
/// asked first, so that a change no handler listens for costs no event fields.
pub fn raisable(c: &Change) -> &'static [&'static str] {
    match c {
        Change::Advance { .. } => &[
            "round_begins",
            "step_begins",
            "marker_expired",
            "element_marker_expired",
        ],
        Change::SetAttr { .. } => &["unit_damaged", "element_damaged"],
        Change::Mark { .. } => &["unit_marked", "element_marked"],
        Change::Unmark { .. } => &["unit_unmarked", "element_unmarked"],
        _ => &[],
    }
}

/// The events the change `c`, just applied to `game`, raises, with their fields.
pub fn events_of(c: &Change, game: &Game) -> Vec<Event> {
    let out = raised(c, game);
    debug_assert!(
        out.iter().all(|(e, _)| raisable(c).contains(e)),
        "`raisable` misses an event of {c:?}"
    );
    out
}

fn raised(c: &Change, game: &Game) -> Vec<Event> {
    let v = |x: Value| ArgValue::Value(x);
    let strength = game.schema().status.strength.as_deref();
    // A strength attribute's value before (the schema's default when never set) and after.
    let before_after = |kind: Kind, attr: &str, old: Option<&Value>, new: Option<&Value>| {
        let before = old
            .or_else(|| game.schema().attrs(kind).get(attr).map(|d| &d.default))
            .and_then(Value::as_f64);
        (before, new.and_then(Value::as_f64))
    };
    match c {
        Change::Advance { from, to, expired } => {
            let mut out = Vec::new();
            if to.round != from.round {
                out.push((
                    "round_begins",
                    vec![("round", v(Value::Int(i64::from(to.round))))],
                ));
            }
            if let Some(step) = game.step() {
                out.push(("step_begins", step_fields(to.round, &step)));
            }
            for e in expired {
                if game.unit(e.unit.as_str()).is_some() {
                    out.push((
                        "marker_expired",
                        vec![
                            ("unit", ArgValue::Unit(e.unit.to_string())),
                            ("marker", v(Value::Text(e.marker.name.clone()))),
                        ],
                    ));
                } else if let Some(el) = game.element(e.unit.as_str()) {
                    out.push((
                        "element_marker_expired",
                        vec![
                            ("element", ArgValue::Unit(e.unit.to_string())),
                            ("unit", ArgValue::Unit(el.unit.to_string())),
                            ("marker", v(Value::Text(e.marker.name.clone()))),
                        ],
                    ));
                }
            }
            out
        }
        Change::SetAttr { id, attr, old, new }
            if game.element(id.as_str()).is_some()
                && Some(attr.as_str()) == game.schema().element_strength() =>
        {
            let unit = game
                .element(id.as_str())
                .map(|e| e.unit.to_string())
                .unwrap_or_default();
            match before_after(Kind::Element, attr, old.as_ref(), new.as_ref()) {
                (Some(b), Some(a)) if a < b => vec![(
                    "element_damaged",
                    vec![
                        ("element", ArgValue::Unit(id.to_string())),
                        ("unit", ArgValue::Unit(unit)),
                        ("attr", v(Value::Text(attr.clone()))),
                        ("old", v(Value::Num(b))),
                        ("new", v(Value::Num(a))),
                        ("loss", v(Value::Num(b - a))),
                    ],
                )],
                _ => Vec::new(),
            }
        }
        Change::SetAttr { id, attr, old, new }
            if Some(attr.as_str()) == strength && game.unit(id.as_str()).is_some() =>
        {
            match before_after(Kind::Unit, attr, old.as_ref(), new.as_ref()) {
                (Some(b), Some(a)) if a < b => vec![(
                    "unit_damaged",
                    vec![
                        ("unit", ArgValue::Unit(id.to_string())),
                        ("attr", v(Value::Text(attr.clone()))),
                        ("old", v(Value::Num(b))),
                        ("new", v(Value::Num(a))),
                        ("loss", v(Value::Num(b - a))),
                    ],
                )],
                _ => Vec::new(),
            }
        }
        Change::Mark { unit, marker, .. } if game.unit(unit.as_str()).is_some() => vec![(
            "unit_marked",
            vec![
                ("unit", ArgValue::Unit(unit.to_string())),
                ("marker", v(Value::Text(marker.name.clone()))),
            ],
        )],
        Change::Unmark { unit, marker, .. } if game.unit(unit.as_str()).is_some() => vec![(
            "unit_unmarked",
            vec![
                ("unit", ArgValue::Unit(unit.to_string())),
                ("marker", v(Value::Text(marker.name.clone()))),
            ],
        )],
        Change::Mark { unit, marker, .. } | Change::Unmark { unit, marker, .. } => {
            let Some(el) = game.element(unit.as_str()) else {
                return Vec::new();
            };
            let event = if matches!(c, Change::Mark { .. }) {
                "element_marked"
            } else {
                "element_unmarked"
            };
            vec![(
                event,
                vec![
                    ("element", ArgValue::Unit(unit.to_string())),
                    ("unit", ArgValue::Unit(el.unit.to_string())),
                    ("marker", v(Value::Text(marker.name.clone()))),
                ],
            )]
        }
        _ => Vec::new(),
    }
}

/// The fields of `step_begins` and `step_ends`: the round, and the step's phase and side
/// when it has them.
pub fn step_fields(round: u32, step: &crate::state::clock::Step) -> Vec<(&'static str, ArgValue)> {
    let mut fields = vec![("round", ArgValue::Value(Value::Int(i64::from(round))))];
    if let Some(p) = &step.phase {
        fields.push(("phase", ArgValue::Value(Value::Text(p.clone()))));
    }
    if let Some(s) = &step.side {
        fields.push(("side", ArgValue::Value(Value::Text(s.to_string()))));
    }
    fields
}

/// The events `next` raises before the clock moves: `step_ends` for the step under way (if
/// the game has a sequence of play), then `round_ends` when the step after it begins a new
/// round.
pub fn ending(game: &Game) -> Vec<Event> {
    let pos = game.clock().pos;
    let mut out = Vec::new();
    if let Some(step) = game.step() {
        out.push(("step_ends", step_fields(pos.round, &step)));
    }
    let next = crate::state::clock::next_pos(pos, game.steps().len());
    if next.round != pos.round {
        out.push((
            "round_ends",
            vec![("round", ArgValue::Value(Value::Int(i64::from(pos.round))))],
        ));
    }
    out
}

/// The names `umpire.emit` refuses, as a Lua set: the events umpire raises itself.
pub(crate) fn reserved_set(lua: &mlua::Lua) -> mlua::Result<mlua::Table> {
    let t = lua.create_table()?;
    for e in BUILTIN_EVENTS {
        t.raw_set(*e, true)?;
    }
    Ok(t)
}

/// The handlers by event, as the trusted Lua runs them at once: `all` (for `umpire.emit`)
/// and `at_once` (for a script's changes), kept in the registry for `umpire.on` to fill.
pub(crate) fn listeners(lua: &mlua::Lua) -> mlua::Result<mlua::Table> {
    let listeners = lua.create_table()?;
    listeners.raw_set("all", lua.create_table()?)?;
    listeners.raw_set("at_once", lua.create_table()?)?;
    lua.set_named_registry_value(super::registry::LISTENERS_KEY, listeners.clone())?;
    Ok(listeners)
}
