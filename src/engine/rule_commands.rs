//! Commands the rules registered (`umpire.command{…}`) as shell commands: their
//! [`CommandSpec`]s (usage, help naming the file and line, completion of their arguments),
//! the parsing and checking of their arguments from the declared types, the call into Lua,
//! and the events (`umpire.on`) that the changes of any command raise.

use serde_json::{Value as Json, json};

use super::error::CommandError;
use super::line::{CommandLine, Word};
use super::output::{Output, Text};
use super::registry::{CommandSpec, Registry};
use super::rules::script_err;
use super::session::{Context, State, reborrow};
use super::style::Style;
use crate::dice::DieEntry;
use crate::script::{ArgKind, ArgSpec, ArgValue, CallOutput, CommandDef, ScriptHost, World};
use crate::span::Span;
use crate::state::{Selector, Value};

/// The usage line of a script command: `shoot FIRER [MODIFIER] [pinned]`.
pub fn usage(def: &CommandDef) -> String {
    let mut u = def.name.clone();
    for a in &def.args {
        let word = match &a.kind {
            ArgKind::Flag => a.name.clone(),
            ArgKind::Choice(v) => v.join("|"),
            ArgKind::Text => format!("{}…", a.name.to_uppercase()),
            _ => a.name.to_uppercase(),
        };
        if a.optional {
            u.push_str(&format!(" [{word}]"));
        } else {
            u.push_str(&format!(" {word}"));
        }
    }
    u
}

fn kind_name(k: &ArgKind) -> &'static str {
    match k {
        ArgKind::Unit => "a unit",
        ArgKind::Side => "a side",
        ArgKind::Group => "a command",
        ArgKind::Selector => "units (a selector)",
        ArgKind::Int => "a whole number",
        ArgKind::Number => "a number",
        ArgKind::Dice => "dice",
        ArgKind::Choice(_) => "one of",
        ArgKind::Flag => "a flag",
        ArgKind::Text => "text",
    }
}

/// The shell's entry for a script command.
pub fn spec(def: &CommandDef) -> CommandSpec {
    let mut help = String::new();
    let mut lines = def.help.lines();
    let summary = lines.next().unwrap_or("").to_string();
    for l in lines {
        help.push_str(l);
        help.push('\n');
    }
    if !def.args.is_empty() {
        help.push_str("arguments:\n");
        for a in &def.args {
            let kind = match &a.kind {
                ArgKind::Choice(v) => format!("one of {}", v.join(", ")),
                k => kind_name(k).to_string(),
            };
            let opt = if a.optional && a.kind != ArgKind::Flag {
                ", optional"
            } else {
                ""
            };
            help.push_str(&format!("  {:<10} {kind}{opt}", a.name));
            if !a.help.is_empty() {
                help.push_str(&format!(" — {}", a.help));
            }
            help.push('\n');
        }
    }
    help.push_str(&format!("registered at {}", def.origin));
    CommandSpec {
        name: def.name.clone().into(),
        aliases: Vec::new(),
        usage: usage(def).into(),
        summary: summary.into(),
        help: help.into(),
        complete: None,
        run,
        script: Some(def.args.clone()),
    }
}

/// Replaces the script commands of `registry` with those of the rules in force.
pub fn sync(registry: &mut Registry, state: &State) {
    registry.retain(|s| s.script.is_none());
    if let Some(l) = &state.scripts.loaded {
        for def in l.rules.commands.values() {
            registry.register(spec(def));
        }
    }
}

/// Candidates for the next argument of a script command with `args`, after `before`.
pub fn complete(args: &[ArgSpec], before: &[&str]) -> Vec<String> {
    // Walk the words typed so far the way `parse` will, then offer what may come next.
    let mut i = 0;
    for w in before {
        while i < args.len() && !fits(&args[i].kind, w, None) && args[i].optional {
            i += 1;
        }
        if args.iter().any(|a| a.kind == ArgKind::Flag && a.name == *w) {
            continue;
        }
        if i < args.len() && args[i].kind == ArgKind::Text {
            return Vec::new();
        }
        i += 1;
    }
    let mut out = Vec::new();
    for a in args.iter().skip(i) {
        match &a.kind {
            ArgKind::Choice(v) => out.extend(v.iter().cloned()),
            ArgKind::Flag if !before.contains(&a.name.as_str()) => out.push(a.name.clone()),
            _ => {}
        }
        if !a.optional {
            break;
        }
    }
    out
}

/// Whether `word` can be the value of an argument of `kind`: ids must name something of
/// that kind in `game` (when there is one to ask), other kinds are judged on their shape.
fn fits(kind: &ArgKind, word: &str, game: Option<&crate::state::Game>) -> bool {
    match kind {
        ArgKind::Unit => game.is_none_or(|g| g.unit(word).is_some()),
        ArgKind::Side => game.is_none_or(|g| g.side(word).is_some()),
        ArgKind::Group => game.is_none_or(|g| g.command(word).is_some()),
        ArgKind::Selector => {
            game.is_none_or(|g| Selector::parse(word).is_ok_and(|s| s.resolve_ids(g).is_ok()))
        }
        ArgKind::Int => word.parse::<i64>().is_ok(),
        ArgKind::Number => word.parse::<f64>().is_ok_and(f64::is_finite),
        ArgKind::Dice => crate::dice::parse(word).is_ok(),
        ArgKind::Choice(v) => v.iter().any(|c| c.eq_ignore_ascii_case(word)),
        ArgKind::Flag => false,
        _ => true,
    }
}

/// Parses and checks the words of `cmd` against `def`'s arguments: positional in order, an
/// optional argument skipped when the word does not fit it, flags by name anywhere.
pub fn parse_args(
    def: &CommandDef,
    cmd: &CommandLine,
    state: &State,
) -> Result<Vec<(String, ArgValue)>, CommandError> {
    let usage = usage(def);
    let flags: Vec<&ArgSpec> = def
        .args
        .iter()
        .filter(|a| a.kind == ArgKind::Flag)
        .collect();
    let mut out: Vec<(String, ArgValue)> = flags
        .iter()
        .map(|a| (a.name.clone(), ArgValue::Value(Value::Flag(false))))
        .collect();
    let positional: Vec<&ArgSpec> = def
        .args
        .iter()
        .filter(|a| a.kind != ArgKind::Flag)
        .collect();
    let mut next = 0;
    let mut words = cmd.args.iter();
    while let Some(w) = words.next() {
        let bare = w.text.strip_prefix("--").unwrap_or(&w.text);
        if let Some(f) = flags.iter().find(|f| f.name == bare) {
            if let Some(slot) = out.iter_mut().find(|(n, _)| *n == f.name) {
                slot.1 = ArgValue::Value(Value::Flag(true));
            }
            continue;
        }
        // Skip optional arguments this word does not fit.
        let first_skipped = next;
        while next < positional.len()
            && positional[next].optional
            && positional[next].kind != ArgKind::Text
            && !fits(&positional[next].kind, &w.text, Some(&state.game))
        {
            next += 1;
        }
        let Some(arg) = positional.get(next) else {
            // The word fits nothing left: say what the first argument it skipped expects.
            if let Some(skipped) = positional.get(first_skipped) {
                return Err(value(skipped, w, state, &usage)
                    .err()
                    .unwrap_or_else(|| CommandError::usage("unexpected word", &usage, w.span)));
            }
            return Err(CommandError::usage(
                format!("`{}` takes no more arguments, found `{}`", def.name, w.text),
                &usage,
                w.span,
            ));
        };
        next += 1;
        let value = if arg.kind == ArgKind::Text {
            // The rest of the line, as typed.
            let end = cmd.args.last().map_or(w.span.end, |l| l.span.end);
            let text = cmd.line[w.span.start..end].to_string();
            words.by_ref().for_each(drop);
            ArgValue::Value(Value::Text(text))
        } else {
            value(arg, w, state, &usage)?
        };
        out.push((arg.name.clone(), value));
    }
    if let Some(missing) = positional[next.min(positional.len())..]
        .iter()
        .find(|a| !a.optional)
    {
        let at = cmd.args.last().map_or(cmd.name.span, |w| w.span);
        return Err(CommandError::usage(
            format!(
                "`{}` needs {} ({}{})",
                def.name,
                missing.name.to_uppercase(),
                kind_name(&missing.kind),
                match &missing.kind {
                    ArgKind::Choice(v) => format!(" {}", v.join(", ")),
                    _ => String::new(),
                }
            ),
            &usage,
            Span::point(at.end),
        ));
    }
    Ok(out)
}

fn value(arg: &ArgSpec, w: &Word, state: &State, usage: &str) -> Result<ArgValue, CommandError> {
    let bad = |what: String| {
        CommandError::invalid(
            format!("{}: expected {what}, found `{}`", arg.name, w.text),
            Some(format!("usage: {usage}")),
            w.span,
        )
    };
    Ok(match &arg.kind {
        ArgKind::Unit => {
            let u = state
                .game
                .find_unit(&w.text)
                .map_err(|e| CommandError::invalid(format!("{}: {e}", arg.name), None, w.span))?;
            ArgValue::Unit(u.id.to_string())
        }
        ArgKind::Side => {
            let side = state
                .game
                .find_side(&w.text)
                .map_err(|e| CommandError::invalid(format!("{}: {e}", arg.name), None, w.span))?;
            ArgValue::Unit(side.id.to_string())
        }
        ArgKind::Group => {
            let c = state
                .game
                .find_command(&w.text)
                .map_err(|e| CommandError::invalid(format!("{}: {e}", arg.name), None, w.span))?;
            ArgValue::Unit(c.id.to_string())
        }
        ArgKind::Selector => {
            let ids = Selector::parse(&w.text)
                .and_then(|s| s.resolve_ids(&state.game))
                .map_err(|e| super::commands::game::state_err(e, w.span.start))?;
            ArgValue::Units(ids.into_iter().map(|i| i.to_string()).collect())
        }
        ArgKind::Int => ArgValue::Value(Value::Int(
            w.text.parse().map_err(|_| bad("a whole number".into()))?,
        )),
        ArgKind::Number => {
            let n: f64 = w.text.parse().map_err(|_| bad("a number".into()))?;
            if !n.is_finite() {
                return Err(bad("a finite number".into()));
            }
            ArgValue::Value(Value::Num(n))
        }
        ArgKind::Dice => {
            crate::dice::parse(&w.text).map_err(|e| CommandError::dice(e, w.span.start))?;
            ArgValue::Value(Value::Text(w.text.clone()))
        }
        ArgKind::Choice(values) => {
            let found = values.iter().find(|v| v.eq_ignore_ascii_case(&w.text));
            match found {
                Some(v) => ArgValue::Value(Value::Text(v.clone())),
                None => return Err(bad(format!("one of {}", values.join(", ")))),
            }
        }
        _ => ArgValue::Value(Value::Text(w.text.clone())),
    })
}

/// Adds what a call produced to `out`: breakdowns, changes with reasons, printed lines.
pub fn add_call(mut out: Output, call: &CallOutput) -> Output {
    for c in &call.checks {
        out = out.text(Text::from_plain(c.to_string()));
    }
    for n in &call.notes {
        out = out.text(
            Text::new()
                .push(Style::Dim, "→ ")
                .plain(n.change.clone())
                .push(Style::Dim, format!(" — {}", n.reason)),
        );
    }
    for line in &call.output {
        out = out.text(Text::from_plain(line.clone()));
    }
    out
}

/// The JSON fields of what calls produced.
pub(super) fn call_json(calls: &[CallOutput]) -> (Json, Json, Json) {
    let checks: Vec<Json> = calls
        .iter()
        .flat_map(|c| &c.checks)
        .map(|c| serde_json::to_value(c).unwrap_or(Json::Null))
        .collect();
    let notes: Vec<Json> = calls
        .iter()
        .flat_map(|c| &c.notes)
        .map(|n| json!({"change": n.change, "reason": n.reason}))
        .collect();
    let printed: Vec<&String> = calls.iter().flat_map(|c| &c.output).collect();
    (json!(checks), json!(notes), json!(printed))
}

/// A call into the rules: tell an event's handlers, or run one of the rules' commands.
pub(super) enum Call<'a> {
    Event(&'a str),
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
        scripts,
        dice,
        game,
        pending,
        limits,
        ..
    } = state;
    let Some(loaded) = scripts.loaded.as_ref() else {
        return Ok((true, CallOutput::default()));
    };
    let mut entry = entry;
    let mut source = dice.source(reborrow(&mut entry));
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
        Call::Command(name) => loaded
            .host
            .run_command(&loaded.rules, name, fields, &mut source, Some(&mut world))
            .map(|out| (true, out)),
    };
    let (go_on, out) = result.map_err(|e| script_err(e, span))?;
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
    pending.reasons.extend(out.notes.iter().cloned());
    Ok((go_on, out))
}

/// Runs a script command: checks its arguments, tells `pre_NAME` handlers (any may cancel),
/// then calls `run` with the session's dice and game.
pub fn run(ctx: &mut Context<'_>, cmd: &CommandLine) -> Result<Output, CommandError> {
    let name = cmd.name.text.clone();
    let (args, generation) = {
        let state = &*ctx.state;
        let Some(loaded) = state.scripts.loaded.as_ref() else {
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
        (parse_args(def, cmd, state)?, loaded.rules.generation)
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
    for c in &calls {
        out = add_call(out, c);
    }
    if !go_on {
        out = out.text(cancelled(&name, &pre));
    }
    let (checks, notes, printed) = call_json(&calls);
    Ok(out
        .field("cancelled", !go_on)
        .field("checks", checks)
        .field("notes", notes)
        .field("output", printed))
}

/// `` `NAME` was cancelled by a `pre_NAME` rule ``.
fn cancelled(name: &str, event: &str) -> Text {
    Text::new().push(
        Style::Dim,
        format!("`{name}` was cancelled by a `{event}` rule"),
    )
}

/// The built-in commands that act on the game: only these raise a `pre_NAME` event, which a
/// rule may cancel. Every other built-in controls the rules (`ruleset`, `house`, `reload`),
/// the journal (`undo`, `redo`, `log`, `journal`, `save`, `load`, `replay`), the dice sources
/// (`dice`), the session (`limits`, `help`, `quit`), or only shows something (`show`,
/// `status`, `clock`, `prob`): the umpire's own controls, which no rule may take away.
pub const GAME_COMMANDS: &[&str] = &[
    "add", "remove", "rename", "set", "mark", "unmark", "next", "army", "schema", "roll", "table",
];

/// Whether `event` is the `pre_` event of a built-in that is not a game command (one that
/// is never raised): a rule that handles it is refused when it loads.
pub fn is_control_event(event: &str, builtins: &[String]) -> bool {
    event
        .strip_prefix("pre_")
        .is_some_and(|name| builtins.iter().any(|b| b == name) && !GAME_COMMANDS.contains(&name))
}

/// What the `pre_NAME` handlers of a built-in command said.
pub enum Pre {
    /// Go on; what the handlers printed or changed, if any ran.
    Go(Option<CallOutput>),
    /// A handler cancelled the command: its output.
    Cancelled(Output),
}

/// Tells `pre_NAME` handlers that the built-in command `NAME` is about to run, with `line`
/// and `words`; only for [`GAME_COMMANDS`]: the others always go on.
pub fn pre_builtin(
    state: &mut State,
    entry: Option<&mut dyn DieEntry>,
    name: &str,
    cmd: &CommandLine,
) -> Result<Pre, CommandError> {
    if !GAME_COMMANDS.contains(&name) {
        return Ok(Pre::Go(None));
    }
    let event = format!("pre_{name}");
    let listens = state
        .scripts
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
