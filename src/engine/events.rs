//! The events a command's changes raise (`unit_damaged`, `unit_marked`, `round_begins`,
//! `step_begins`, `marker_expired`, and for elements `element_damaged`, `element_marked`,
//! `element_unmarked`, `element_marker_expired`…) and telling the rules' handlers about them inside the
//! command's own transaction: a handler's changes raise events too, up to a depth.

use serde_json::json;

use super::error::CommandError;
use super::output::Output;
use super::rule_commands::{Call, add_call, call_json, call_rules};
use super::session::{State, reborrow};
use crate::dice::DieEntry;
use crate::script::{ArgValue, ScriptHost};
use crate::span::Span;
use crate::state::{Change, Value};

/// How many rounds of events a command may set off (a handler's changes raise events too).
const EVENT_ROUNDS: usize = 8;

/// The events the change `c` raises, with their fields.
fn events_of(c: &Change, state: &State) -> Vec<(String, Vec<(&'static str, ArgValue)>)> {
    let v = |x: Value| ArgValue::Value(x);
    let strength = state.game.schema().status.strength.as_deref();
    match c {
        Change::Advance { from, to, expired } => {
            let mut out = Vec::new();
            if to.round != from.round {
                out.push((
                    "round_begins".into(),
                    vec![("round", v(Value::Int(i64::from(to.round))))],
                ));
            }
            if let Some(step) = state.game.step() {
                let mut fields = vec![("round", v(Value::Int(i64::from(to.round))))];
                if let Some(p) = &step.phase {
                    fields.push(("phase", v(Value::Text(p.clone()))));
                }
                if let Some(s) = &step.side {
                    fields.push(("side", v(Value::Text(s.to_string()))));
                }
                out.push(("step_begins".into(), fields));
            }
            for e in expired {
                if state.game.unit(e.unit.as_str()).is_some() {
                    out.push((
                        "marker_expired".into(),
                        vec![
                            ("unit", ArgValue::Unit(e.unit.to_string())),
                            ("marker", v(Value::Text(e.marker.name.clone()))),
                        ],
                    ));
                } else if let Some(el) = state.game.element(e.unit.as_str()) {
                    out.push((
                        "element_marker_expired".into(),
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
            if state.game.element(id.as_str()).is_some()
                && Some(attr.as_str()) == state.game.schema().element_strength() =>
        {
            let schema = state.game.schema();
            let before = old
                .as_ref()
                .or_else(|| {
                    schema
                        .attrs(crate::state::Kind::Element)
                        .get(attr)
                        .map(|d| &d.default)
                })
                .and_then(Value::as_f64);
            let after = new.as_ref().and_then(Value::as_f64);
            let unit = state
                .game
                .element(id.as_str())
                .map(|e| e.unit.to_string())
                .unwrap_or_default();
            match (before, after) {
                (Some(b), Some(a)) if a < b => vec![(
                    "element_damaged".into(),
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
        Change::SetAttr { id, attr, old, new } if Some(attr.as_str()) == strength => {
            let before = old
                .as_ref()
                .or_else(|| {
                    state
                        .game
                        .schema()
                        .attrs(crate::state::Kind::Unit)
                        .get(attr)
                        .map(|d| &d.default)
                })
                .and_then(Value::as_f64);
            let after = new.as_ref().and_then(Value::as_f64);
            match (before, after, state.game.unit(id.as_str())) {
                (Some(b), Some(a), Some(_)) if a < b => vec![(
                    "unit_damaged".into(),
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
        Change::Mark { unit, marker, .. } if state.game.unit(unit.as_str()).is_some() => vec![(
            "unit_marked".into(),
            vec![
                ("unit", ArgValue::Unit(unit.to_string())),
                ("marker", v(Value::Text(marker.name.clone()))),
            ],
        )],
        Change::Unmark { unit, marker, .. } if state.game.unit(unit.as_str()).is_some() => vec![(
            "unit_unmarked".into(),
            vec![
                ("unit", ArgValue::Unit(unit.to_string())),
                ("marker", v(Value::Text(marker.name.clone()))),
            ],
        )],
        Change::Mark { unit, marker, .. } | Change::Unmark { unit, marker, .. } => {
            let Some(el) = state.game.element(unit.as_str()) else {
                return Vec::new();
            };
            let event = if matches!(c, Change::Mark { .. }) {
                "element_marked"
            } else {
                "element_unmarked"
            };
            vec![(
                event.into(),
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

/// Tells the rules' handlers about the changes the command made from `from` on (and about
/// the changes those handlers make, up to 8 rounds deep), adding what they print to
/// `out`. Part of the command's transaction: an error fails the command.
pub fn emit_events(
    state: &mut State,
    mut entry: Option<&mut dyn DieEntry>,
    mut out: Output,
) -> Result<Output, CommandError> {
    let has_handlers = |state: &State| {
        state
            .rules
            .loaded
            .as_ref()
            .is_some_and(|l| !l.rules.handlers.is_empty())
    };
    if !has_handlers(state) {
        return Ok(out);
    }
    let mut from = 0;
    let mut calls = Vec::new();
    for _ in 0..EVENT_ROUNDS {
        let to = state.pending.changes.len();
        if from == to {
            break;
        }
        let events: Vec<_> = {
            let rules = &state.rules.loaded.as_ref().expect("checked").rules;
            state.pending.changes.changes()[from..to]
                .iter()
                .flat_map(|c| events_of(c, state))
                .filter(|(e, _)| ScriptHost::listens(rules, e))
                .collect()
        };
        from = to;
        for (event, fields) in events {
            let (_, call) = call_rules(
                state,
                reborrow(&mut entry),
                Call::Event(&event),
                &fields,
                Span::point(0),
            )?;
            out = add_call(out, &call);
            calls.push(call);
        }
    }
    if from < state.pending.changes.len() {
        return Err(CommandError::invalid(
            format!(
                "the rules' event handlers kept changing the game after {EVENT_ROUNDS} rounds of events"
            ),
            Some(
                "a handler probably reacts to its own change; check the `umpire.on` handlers"
                    .into(),
            ),
            Span::point(0),
        ));
    }
    if !calls.is_empty() {
        let (checks, notes, printed) = call_json(&calls);
        out = out.field(
            "events",
            json!({"checks": checks, "notes": notes, "output": printed}),
        );
    }
    Ok(out)
}
