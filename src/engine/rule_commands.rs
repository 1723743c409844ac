//! Commands the rules registered (`umpire.command{…}`) as commands of the table: their
//! [`Signature`] from the declared arguments (so their usage, help and completion come from
//! it as for every command), the call into Lua with the parsed arguments, and the `pre_*`
//! events the rules may cancel a game command with.

use std::borrow::Cow;

use serde_json::{Value as Json, json};

use super::error::CommandError;
use super::line::CommandLine;
use super::output::{Output, Said, Text};
use super::registry::{CommandSpec, Commands, Invocation, Source};
use super::rules::script_err;
use super::session::{Context, State, reborrow};
use super::signature::{Args, Kind, Param, Signature, Value as SigValue};
use super::style::Style;
use crate::dice::DieEntry;
use crate::script::{ArgKind, ArgValue, CallOutput, CommandDef, ScriptHost, World};
use crate::span::Span;
use crate::state::Value;

/// A rule command's declared arguments as a [`Signature`]: positional in order, flags by
/// name anywhere (`force` or `--force`).
pub fn signature(def: &CommandDef, unit: crate::distance::Unit) -> Signature {
    Signature::new(
        def.args
            .iter()
            .map(|a| {
                let kind = match &a.kind {
                    ArgKind::Unit => Kind::Unit,
                    ArgKind::Element => Kind::Element,
                    ArgKind::Side => Kind::Side,
                    ArgKind::Group => Kind::Group,
                    ArgKind::Selector => Kind::Selector,
                    ArgKind::UnitWords(v) => {
                        Kind::UnitWords(v.iter().map(|c| Cow::Owned(c.clone())).collect())
                    }
                    ArgKind::Int => Kind::Int,
                    ArgKind::Number => Kind::Number,
                    ArgKind::Distance => Kind::Distance(unit),
                    ArgKind::Dice => Kind::Dice,
                    ArgKind::Choice(v) => {
                        Kind::Choice(v.iter().map(|c| Cow::Owned(c.clone())).collect())
                    }
                    ArgKind::Flag => Kind::Flag,
                    ArgKind::Text => Kind::Text,
                };
                let p = if kind == Kind::Flag {
                    Param::flag(a.name.clone())
                } else if matches!(kind, Kind::UnitWords(_)) {
                    let p = Param::new(a.name.clone(), kind).many();
                    if a.optional { p.optional() } else { p }
                } else {
                    let p = Param::new(a.name.clone(), kind);
                    if a.optional { p.optional() } else { p }
                };
                p.help(a.help.clone())
            })
            .collect(),
    )
}

/// The shell's entry for a rule command: its signature from its declared arguments, the
/// first line of its help as the summary and the rest as its help.
pub fn spec(def: &CommandDef, unit: crate::distance::Unit) -> CommandSpec {
    let mut lines = def.help.lines();
    let summary = lines.next().unwrap_or("").to_string();
    let help: Vec<&str> = lines.collect();
    CommandSpec {
        name: def.name.clone().into(),
        aliases: Vec::new(),
        summary: summary.into(),
        help: help.join("\n").into(),
        signature: signature(def, unit),
        examples: Vec::new(),
        run,
        source: Source::Rules(def.origin.to_string()),
    }
}

/// Replaces the rule commands of `registry` with those of the rules in force.
pub fn sync(registry: &mut Commands, state: &State) {
    registry.retain(|s| !s.from_rules());
    if let Some(l) = &state.rules.loaded {
        for def in l.rules.commands.values() {
            registry.register(spec(def, l.rules.distance));
        }
    }
}

/// The parsed arguments as the rules' `run` gets them: every declared argument that was
/// given (units as handles), and every flag (true or false).
pub(crate) fn fields(def: &CommandDef, args: &Args) -> Vec<(String, ArgValue)> {
    let mut out = Vec::new();
    for a in &def.args {
        let v = match (&a.kind, args.get(&a.name).map(|x| &x.value)) {
            (ArgKind::Flag, given) => ArgValue::Value(Value::Flag(given.is_some())),
            (_, None) => continue,
            (
                ArgKind::Unit | ArgKind::Element | ArgKind::Side | ArgKind::Group,
                Some(SigValue::Ids(ids)),
            ) => ArgValue::Unit(ids.first().cloned().unwrap_or_default()),
            (ArgKind::Selector, Some(SigValue::Ids(ids))) => ArgValue::Units(ids.clone()),
            // A whole distance reaches the rules as an integer (`12`, not `12.0`).
            (ArgKind::Distance, Some(SigValue::Num(n))) if n.fract() == 0.0 && n.abs() < 1e15 => {
                ArgValue::Value(Value::Int(*n as i64))
            }
            (_, Some(SigValue::Int(i))) => ArgValue::Value(Value::Int(*i)),
            (_, Some(SigValue::Num(n))) => ArgValue::Value(Value::Num(*n)),
            (_, Some(SigValue::Text(t))) => ArgValue::Value(Value::Text(t.clone())),
            (_, Some(SigValue::Words(w))) => ArgValue::Value(Value::Text(w.join(" "))),
            (_, Some(_)) => continue,
        };
        out.push((a.name.clone(), v));
    }
    out
}

/// Adds what a call produced to `out`: breakdowns, changes with reasons, printed lines.
pub fn add_call(mut out: Output, call: &CallOutput) -> Output {
    for a in &call.answers {
        out = out.text(
            Text::new()
                .push(Style::Dim, "? ")
                .plain(a.question.clone())
                .push(Style::Dim, " → ")
                .push(Style::Strong, a.answer.clone())
                .push(
                    Style::Dim,
                    if a.by_default {
                        " (the default: no answer given)"
                    } else {
                        ""
                    },
                ),
        );
    }
    for c in &call.checks {
        out = out.block(super::output::Block::Check(c.clone()));
    }
    for (change, reason) in grouped_notes(&call.notes) {
        out = out.text(
            Text::new()
                .push(Style::Dim, "→ ")
                .plain(change)
                .push(Style::Dim, format!(" — {reason}")),
        );
    }
    for line in &call.output {
        out = out.text(Text::from_plain(line.clone()));
    }
    out
}

/// Up to how many units one line of grouped changes names.
const GROUP_NAMED: usize = 10;

/// The changes the rules made, as shown: those in a row that do the same to several units for
/// the same reason (`leg1 marked activated (end of phase)`, `leg2 marked …`) are one line,
/// `leg1, leg2, leg3 marked activated (end of phase)`, naming at most [`GROUP_NAMED`] (the
/// JSON, the journal and `log 1 all` keep each change).
fn grouped_notes(notes: &[crate::state::Note]) -> Vec<(String, String)> {
    let mut out: Vec<(Vec<&str>, &str, &str)> = Vec::new();
    for n in notes {
        let (id, rest) = n.change.split_once(' ').unwrap_or((n.change.as_str(), ""));
        match out.last_mut() {
            Some((ids, r, why)) if !rest.is_empty() && *r == rest && *why == n.reason => {
                ids.push(id)
            }
            _ => out.push((vec![id], rest, &n.reason)),
        }
    }
    out.into_iter()
        .map(|(ids, rest, why)| {
            let who = if ids.len() <= GROUP_NAMED {
                ids.join(", ")
            } else {
                format!(
                    "{} units ({}, …; `log 1 all` lists each)",
                    ids.len(),
                    ids[..5].join(", ")
                )
            };
            let change = if rest.is_empty() {
                who
            } else {
                format!("{who} {rest}")
            };
            (change, why.to_string())
        })
        .collect()
}

/// The JSON fields of what calls produced: the changes with their reasons, and what they
/// printed.
pub(super) fn call_json(calls: &[CallOutput]) -> (Json, Json) {
    let notes: Vec<Json> = calls
        .iter()
        .flat_map(|c| &c.notes)
        .map(|n| json!({"change": n.change, "reason": n.reason}))
        .collect();
    let printed: Vec<&String> = calls.iter().flat_map(|c| &c.output).collect();
    (json!(notes), json!(printed))
}

/// The checks of what calls produced, as JSON.
pub(super) fn checks_json(calls: &[CallOutput]) -> Json {
    json!(
        calls
            .iter()
            .flat_map(|c| c.checks.iter().map(|b| &**b))
            .collect::<Vec<_>>()
    )
}

/// The questions the calls asked, with their answers, for JSON.
pub(super) fn answers_json(calls: &[CallOutput]) -> Json {
    json!(calls.iter().flat_map(|c| &c.answers).collect::<Vec<_>>())
}

/// A call into the rules: tell an event's handlers, or run one of the rules' commands.
pub(super) enum Call<'a> {
    /// Every handler of the event.
    Event(&'a str),
    /// The handlers of a change event not registered `at_once` (those already ran when a
    /// script made the change).
    After(&'a str),
    Command(&'a str),
}

/// Makes `call` with `fields`; returns whether to go on (`false`: a `pre_` handler cancelled)
/// and what the scripts produced. Nothing to call (no rules) goes on with nothing.
pub(super) fn call_rules(
    state: &mut State,
    entry: Option<&mut dyn DieEntry>,
    call: Call<'_>,
    fields: &[(&str, ArgValue)],
    span: Span,
) -> Result<(bool, CallOutput), CommandError> {
    let State {
        rules,
        dice,
        game,
        pending,
        limits,
        ..
    } = state;
    let Some(loaded) = rules.loaded.as_ref() else {
        return Ok((true, CallOutput::default()));
    };
    let mut entry = entry;
    let mut source = dice.source(reborrow(&mut entry));
    let made_from = pending.changes.len();
    let mut world = World {
        game,
        changes: &mut pending.changes,
    };
    let result = match call {
        Call::Event(event) => {
            loaded
                .host
                .emit(&loaded.rules, event, fields, &mut source, Some(&mut world))
        }
        Call::After(event) => {
            loaded
                .host
                .emit_after(&loaded.rules, event, fields, &mut source, Some(&mut world))
        }
        Call::Command(name) => loaded
            .host
            .run_command(&loaded.rules, name, fields, &mut source, Some(&mut world))
            .map(|out| (true, out)),
    };
    let (go_on, out) = result.map_err(|e| script_err(e, span))?;
    // The host told the `at_once` handlers of these changes as the scripts made them.
    let made_to = pending.changes.len();
    if made_to > made_from {
        pending.dispatched.push(made_from..made_to);
    }
    // Each call is held to the `output` limit by the host; the calls of one command together
    // are held to it here.
    pending.output = pending.output.saturating_add(out.size());
    if pending.output > limits.output {
        return Err(CommandError::invalid(
            format!(
                "the rules' output for this command is more than {} bytes (the `output` limit)",
                limits.output
            ),
            Some("a club can raise it with `--limit output=4MiB`".into()),
            span,
        ));
    }
    pending.rolls.extend(out.rolls.iter().cloned());
    pending.answers.extend(out.answers.iter().cloned());
    pending.reasons.extend(out.notes.iter().cloned());
    Ok((go_on, out))
}

/// Runs a script command: checks its arguments, tells `pre_NAME` handlers (any may cancel),
/// then calls `run` with the session's dice and game.
pub fn run(ctx: &mut Context<'_>, inv: &Invocation<'_>) -> Result<Output, CommandError> {
    let cmd = inv.line;
    let name = cmd.name.text.clone();
    let (args, generation, converted) = {
        let Some(loaded) = ctx.state.rules.loaded.as_ref() else {
            return Err(CommandError::invalid(
                format!("`{name}` belonged to rules that are no longer loaded"),
                Some("`ruleset` shows what is loaded".into()),
                cmd.name.span,
            ));
        };
        let Some(def) = loaded.rules.commands.get(&name) else {
            return Err(CommandError::invalid(
                format!("the rules in force have no command `{name}`"),
                Some("`ruleset` lists the commands of the rules in force".into()),
                cmd.name.span,
            ));
        };
        ctx.state.pending.public = public_line(def, inv);
        ctx.state.pending.umpire_only = def.secret;
        (
            fields(def, &inv.args),
            loaded.rules.generation,
            conversions(def, inv, loaded.rules.distance),
        )
    };
    let fields: Vec<(&str, ArgValue)> = args.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
    let span = cmd.rest_span();
    let pre = format!("pre_{name}");
    let mut calls = Vec::new();
    let (go_on, call) = call_rules(
        ctx.state,
        reborrow(&mut ctx.entry),
        Call::Event(&pre),
        &fields,
        span,
    )?;
    calls.push(call);
    if go_on {
        let (_, call) = call_rules(
            ctx.state,
            reborrow(&mut ctx.entry),
            Call::Command(&name),
            &fields,
            span,
        )?;
        calls.push(call);
    }
    let mut out = Output::new(&name).field("generation", generation);
    for c in &converted {
        out = out.text(Text::new().push(Style::Dim, c.clone()));
    }
    for c in &calls {
        out = add_call(out, c);
    }
    if !go_on {
        out = out.text(cancelled(&name, &pre));
    }
    // The blocks show them; the JSON's checks, changes and printed lines are moved here,
    // typed, and become JSON only when the JSON is asked for.
    out.checks = Some(
        calls
            .iter_mut()
            .flat_map(|c| std::mem::take(&mut c.checks))
            .collect(),
    );
    out.said = Some(Said {
        notes: calls
            .iter_mut()
            .flat_map(|c| std::mem::take(&mut c.notes))
            .collect(),
        printed: calls
            .iter_mut()
            .flat_map(|c| std::mem::take(&mut c.output))
            .collect(),
    });
    if let Some(p) = &ctx.state.pending.public {
        out = out.field("public", p.trim());
    }
    if ctx.state.pending.umpire_only {
        out = out.field("umpire_only", true);
    }
    if calls.iter().any(|c| !c.answers.is_empty()) {
        out = out.field("answers", answers_json(&calls));
    }
    let mut record = serde_json::Map::new();
    for c in &mut calls {
        record.append(&mut c.record);
    }
    if !record.is_empty() {
        out = out.field("record", Json::Object(record));
    }
    Ok(out.field("cancelled", !go_on))
}

/// A line for each distance typed in another unit than the rules': `30cm = 11.81"`.
fn conversions(def: &CommandDef, inv: &Invocation<'_>, unit: crate::distance::Unit) -> Vec<String> {
    def.args
        .iter()
        .filter(|a| a.kind == ArgKind::Distance)
        .filter_map(|a| {
            let typed = {
                let s = inv.args.get(&a.name)?.span;
                inv.line.line.get(s.start..s.end)?
            };
            let d = crate::distance::parse(typed, unit).ok()?;
            let (n, from) = d.converted_from?;
            Some(format!("{n}{from} = {}", unit.show(d.value)))
        })
        .collect()
}

/// What players may see of the line: each word typed for a `secret` argument replaced by
/// `‹secret›`; `None` when the command has no secret argument given.
pub fn public_line(def: &CommandDef, inv: &Invocation<'_>) -> Option<String> {
    let mut spans: Vec<Span> = def
        .args
        .iter()
        .filter(|a| a.secret)
        .filter_map(|a| inv.args.get(&a.name).map(|x| x.span))
        .filter(|s| s.start < s.end)
        .collect();
    if spans.is_empty() {
        return None;
    }
    spans.sort_by_key(|s| s.start);
    let line = &inv.line.line;
    let mut out = String::with_capacity(line.len());
    let mut at = 0;
    for s in spans {
        if s.start < at || s.end > line.len() {
            continue;
        }
        out.push_str(&line[at..s.start]);
        out.push_str(SECRET);
        at = s.end;
    }
    out.push_str(&line[at..]);
    Some(out)
}

/// What stands for a secret in what the players may see.
pub const SECRET: &str = "‹secret›";

/// `` `NAME` was cancelled by a `pre_NAME` rule ``.
fn cancelled(name: &str, event: &str) -> Text {
    Text::new().push(
        Style::Dim,
        format!("`{name}` was cancelled by a `{event}` rule"),
    )
}

/// Whether `event` is the `pre_` event of a built-in that is not a game command (one that
/// is never raised): a rule that handles it is refused when it loads. Game commands are those
/// the command table marks so ([`Source::Builtin`](super::registry::Source)): they add,
/// change or roll for the game; the umpire's own controls (the rules, the journal, the dice
/// sources, the session, what only shows something) never raise one.
pub fn is_control_event(event: &str, names: &BuiltinNames) -> bool {
    event.strip_prefix("pre_").is_some_and(|name| {
        names.all.iter().any(|b| b == name) && !names.game.iter().any(|g| g == name)
    })
}

/// The names of the built-in commands, and which of them are game commands.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BuiltinNames {
    /// Every built-in name and alias (rule commands may take none of them).
    pub all: Vec<String>,
    /// The game commands (they raise `pre_NAME`).
    pub game: Vec<String>,
}

impl BuiltinNames {
    /// The names in `commands`.
    pub fn of(commands: &super::registry::Commands) -> Self {
        let mut names = BuiltinNames::default();
        for s in commands.specs().iter().filter(|s| !s.from_rules()) {
            names.all.push(s.name.to_string());
            names.all.extend(s.aliases.iter().map(|a| a.to_string()));
            if s.raises_pre() {
                names.game.push(s.name.to_string());
            }
        }
        names
    }
}

/// What the `pre_NAME` handlers of a built-in command said.
pub enum Pre {
    /// Go on; what the handlers printed or changed, if any ran.
    Go(Option<CallOutput>),
    /// A handler cancelled the command: its output.
    Cancelled(Output),
}

/// Tells `pre_NAME` handlers that the built-in command `NAME` is about to run, with `line`
/// and `words`; only for game commands: the others always go on.
pub fn pre_builtin(
    state: &mut State,
    entry: Option<&mut dyn DieEntry>,
    name: &str,
    cmd: &CommandLine,
) -> Result<Pre, CommandError> {
    let event = format!("pre_{name}");
    let listens = state
        .rules
        .loaded
        .as_ref()
        .is_some_and(|l| ScriptHost::listens(&l.rules, &event));
    if !listens {
        return Ok(Pre::Go(None));
    }
    let words = cmd
        .args
        .iter()
        .map(|w| Value::Text(w.text.clone()))
        .collect();
    let fields = [
        (
            "line",
            ArgValue::Value(Value::Text(cmd.line.trim().to_string())),
        ),
        ("words", ArgValue::Value(Value::List(words))),
    ];
    let (go_on, call) = call_rules(state, entry, Call::Event(&event), &fields, cmd.name.span)?;
    if go_on {
        return Ok(Pre::Go(Some(call)));
    }
    let out = add_call(Output::new(name), &call).text(cancelled(name, &event));
    Ok(Pre::Cancelled(out.field("cancelled", true)))
}

/// `out` with what the `pre_` handlers printed shown before it.
pub fn after_pre(out: Output, pre: Option<CallOutput>) -> Output {
    let Some(call) = pre else { return out };
    let mut shown = add_call(Output::new(&out.command), &call);
    shown.blocks.extend(out.blocks);
    Output {
        blocks: shown.blocks,
        ..out
    }
}
