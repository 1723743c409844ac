//! The events a command's changes raise (`unit_damaged`, `unit_marked`, `round_begins`,
//! `step_begins`, `marker_expired`, and for elements `element_damaged`, `element_marked`,
//! `element_unmarked`, `element_marker_expired`…; which change raises which is
//! [`script::events`](crate::script::events)) and telling the rules' handlers about them
//! inside the command's own transaction, after the command: a handler's changes raise events
//! too, up to [`MAX_DEPTH`] rounds. A handler registered `at_once` has already had the events
//! of the changes scripts made (the host ran it when the change was made), so after the
//! command it hears only of the changes umpire's own commands made. Also the events `next`
//! raises before the clock moves (`step_ends`, `round_ends`: [`ending_events`]).

use serde_json::json;

use super::error::CommandError;
use super::output::Output;
use super::rule_commands::{Call, add_call, call_json, call_rules, checks_json};
use super::session::{State, reborrow};
use crate::dice::DieEntry;
use crate::script::events::{MAX_DEPTH, ending, events_of, raisable};
use crate::script::{CallOutput, ScriptHost};
use crate::span::Span;

/// Tells the rules' handlers about the changes the command made (and about the changes those
/// handlers make, up to [`MAX_DEPTH`] rounds deep), adding what they print to `out`. Part of
/// the command's transaction: an error fails the command.
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
    for _ in 0..MAX_DEPTH {
        let to = state.pending.changes.len();
        if from == to {
            break;
        }
        let events: Vec<_> = {
            let rules = &state.rules.loaded.as_ref().expect("checked").rules;
            let done = &state.pending.dispatched;
            state.pending.changes.changes()[from..to]
                .iter()
                .enumerate()
                .flat_map(|(i, c)| {
                    // A script's change has had its `at_once` handlers already.
                    let at_once_done = done.iter().any(|r| r.contains(&(from + i)));
                    let heard = raisable(c)
                        .iter()
                        .any(|e| ScriptHost::listens_after(rules, e, at_once_done));
                    let events = if heard {
                        events_of(c, &state.game)
                    } else {
                        Vec::new()
                    };
                    events
                        .into_iter()
                        .map(move |(e, fields)| (e, fields, at_once_done))
                })
                .filter(|(e, _, done)| ScriptHost::listens_after(rules, e, *done))
                .collect()
        };
        from = to;
        for (event, fields, at_once_done) in events {
            let call = if at_once_done {
                Call::After(event)
            } else {
                Call::Event(event)
            };
            let (_, call) = call_rules(state, reborrow(&mut entry), call, &fields, Span::point(0))?;
            out = add_call(out, &call);
            calls.push(call);
        }
    }
    if from < state.pending.changes.len() {
        return Err(CommandError::invalid(
            format!(
                "the rules' event handlers kept changing the game after {MAX_DEPTH} rounds of events"
            ),
            Some(
                "a handler probably reacts to its own change; check the `umpire.on` handlers"
                    .into(),
            ),
            Span::point(0),
        ));
    }
    if !calls.is_empty() {
        let (notes, printed) = call_json(&calls);
        let checks = checks_json(&calls);
        out = out.field(
            "events",
            json!({"checks": checks, "notes": notes, "output": printed}),
        );
    }
    Ok(out)
}

/// Tells the handlers of `step_ends` and `round_ends` that the step under way (and with it,
/// perhaps, the round) is about to end: `next` calls it before the clock moves, so what they
/// change belongs to the step that ends. What they printed, if any handler ran.
pub fn ending_events(
    state: &mut State,
    mut entry: Option<&mut dyn DieEntry>,
) -> Result<Option<CallOutput>, CommandError> {
    let Some(loaded) = state.rules.loaded.as_ref() else {
        return Ok(None);
    };
    let events: Vec<_> = ending(&state.game)
        .into_iter()
        .filter(|(e, _)| ScriptHost::listens(&loaded.rules, e))
        .collect();
    let mut all: Option<CallOutput> = None;
    for (event, fields) in events {
        let (_, call) = call_rules(
            state,
            reborrow(&mut entry),
            Call::Event(event),
            &fields,
            Span::point(0),
        )?;
        match &mut all {
            None => all = Some(call),
            Some(a) => {
                a.checks.extend(call.checks);
                a.notes.extend(call.notes);
                a.output.extend(call.output);
                a.rolls.extend(call.rolls);
            }
        }
    }
    Ok(all)
}
