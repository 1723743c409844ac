//! The game-state commands: `add`, `remove`, `rename`, `set`, `show`, `mark`, `unmark`,
//! `next`, `clock`, `status`, `army load`, `schema load`.
//!
//! Each one changes the game only through [`State::change`](super::session::State::change),
//! so its changes are journalled with it and undone if anything fails.

use serde_json::{Value as Json, json};

use super::color::Style;
use super::command::{Command, Word};
use super::error::{CommandError, CommandErrorKind};
use super::output::{Output, Text};
use super::session::Context;
use crate::span::Span;
use crate::state::{Expiry, Kind, Schema, Selector, StateError, UnitView, load_roster};

/// A state error as a command error, its span (if any) moved from `offset` into the line.
pub fn state_err(e: StateError, offset: usize) -> CommandError {
    let span = e.span.map(|s| s.shift(offset));
    CommandError::new(
        CommandErrorKind::Invalid {
            message: e.to_string(),
            help: None,
        },
        span,
    )
}

/// A state error pointing at one word of the line.
fn at(e: StateError, span: Span) -> CommandError {
    CommandError::invalid(e.to_string(), None, span)
}

/// The text of `words` as typed (from the first word's start to the last word's end), and
/// where it starts in the line.
fn joined<'a>(cmd: &'a Command, words: &[Word]) -> (&'a str, usize) {
    match (words.first(), words.last()) {
        (Some(a), Some(b)) => (&cmd.line[a.span.start..b.span.end], a.span.start),
        _ => ("", cmd.line.len()),
    }
}

fn need<'a>(cmd: &'a Command, n: usize, usage: &str) -> Result<&'a [Word], CommandError> {
    if cmd.args.len() < n {
        let span = cmd.args.last().map_or(cmd.name.span, |w| w.span);
        return Err(CommandError::usage(
            format!("`{}` needs more arguments", cmd.name.text),
            usage,
            Span::point(span.end),
        ));
    }
    Ok(&cmd.args)
}

/// Resolves a selector written as `words`, to unit ids.
fn select(ctx: &Context<'_>, cmd: &Command, words: &[Word]) -> Result<Vec<String>, CommandError> {
    let (text, offset) = joined(cmd, words);
    let sel = Selector::parse(text).map_err(|e| state_err(e, offset))?;
    let units = sel
        .resolve(&ctx.state.game)
        .map_err(|e| state_err(e, offset))?;
    Ok(units.into_iter().map(|u| u.id.to_string()).collect())
}

/// `add side ID [NAME…]`, `add command SIDE ID [NAME…]`, `add unit COMMAND ID [NAME…]
/// [ATTR=VALUE…]`, `add element UNIT ID [NAME…]`.
pub fn add(ctx: &mut Context<'_>, cmd: &Command) -> Result<Output, CommandError> {
    const USAGE: &str = "add side ID [NAME] · add command SIDE ID [NAME] · add unit COMMAND ID [NAME] [ATTR=VALUE…] · add element UNIT ID [NAME]";
    let args = need(cmd, 2, USAGE)?;
    let kind = args[0].text.as_str();
    let offset = args[1].span.start;
    let name_of = |words: &[Word], id: &str| {
        let name: Vec<&str> = words
            .iter()
            .filter(|w| !w.text.contains('='))
            .map(|w| w.text.as_str())
            .collect();
        if name.is_empty() {
            id.to_string()
        } else {
            name.join(" ")
        }
    };
    let what = match kind {
        "side" => {
            let id = &args[1].text;
            let name = name_of(&args[2..], id);
            ctx.state
                .change(|g| g.add_side(id, &name))
                .map_err(|e| state_err(e, offset))?;
            format!("side {id} “{name}” added")
        }
        "command" | "unit" | "element" => {
            let args = need(cmd, 3, USAGE)?;
            let (parent, id) = (&args[1].text, &args[2].text);
            let name = name_of(&args[3..], id);
            match kind {
                "command" => ctx.state.change(|g| g.add_command(parent, id, &name)),
                "element" => ctx
                    .state
                    .change(|g| g.add_element(parent, id, &name, Vec::new())),
                _ => {
                    let mut attrs = Vec::new();
                    for w in args[3..].iter().filter(|w| w.text.contains('=')) {
                        let (attr, text) = w.text.split_once('=').unwrap_or_default();
                        let value = ctx
                            .state
                            .game
                            .schema()
                            .parse_value(Kind::Unit, attr, text, id)
                            .map_err(|e| state_err(e, w.span.start))?;
                        attrs.push((attr.to_string(), value));
                    }
                    ctx.state.change(|g| g.add_unit(parent, id, &name, attrs))
                }
            }
            .map_err(|e| state_err(e, offset))?;
            format!("{kind} {id} “{name}” added to {parent}")
        }
        _ => {
            return Err(CommandError::usage(
                format!("cannot add `{kind}`: add a side, command, unit or element"),
                USAGE,
                args[0].span,
            ));
        }
    };
    Ok(Output::new("add")
        .field(
            "added",
            args[if kind == "side" { 1 } else { 2 }].text.clone(),
        )
        .text(Text::from_plain(what)))
}

/// `remove ID`: a side, command, unit or element, with everything under it.
pub fn remove(ctx: &mut Context<'_>, cmd: &Command) -> Result<Output, CommandError> {
    let args = need(cmd, 1, "remove ID")?;
    cmd.at_most(1, "remove ID")?;
    let id = &args[0].text;
    let before = ctx.state.pending.changes.len();
    ctx.state
        .change_all(|g| g.remove(id))
        .map_err(|e| state_err(e, args[0].span.start))?;
    let removed = ctx.state.pending.changes.len() - before;
    Ok(Output::new("remove")
        .field("removed", id.clone())
        .text(Text::from_plain(format!(
            "{id} removed ({removed} change{})",
            if removed == 1 { "" } else { "s" }
        ))))
}

/// `rename ID NAME…`.
pub fn rename(ctx: &mut Context<'_>, cmd: &Command) -> Result<Output, CommandError> {
    let args = need(cmd, 2, "rename ID NAME")?;
    let (name, _) = joined(cmd, &args[1..]);
    let name = name.to_string();
    ctx.state
        .change(|g| g.rename(&args[0].text, &name))
        .map_err(|e| state_err(e, args[0].span.start))?;
    Ok(Output::new("rename").text(Text::from_plain(format!(
        "{} is now “{name}”",
        args[0].text
    ))))
}

/// `set SELECTOR ATTR VALUE`: sets one attribute on every unit selected.
pub fn set(ctx: &mut Context<'_>, cmd: &Command) -> Result<Output, CommandError> {
    let args = need(cmd, 3, "set SELECTOR ATTR VALUE")?;
    let n = args.len();
    let ids = select(ctx, cmd, &args[..n - 2])?;
    let (attr, text) = (&args[n - 2], &args[n - 1]);
    let mut lines = Vec::new();
    for id in &ids {
        let kind = ctx.state.game.kind_of(id).unwrap_or(Kind::Unit);
        let schema = ctx.state.game.schema();
        // An unknown attribute points at the attribute, a bad value at the value.
        let def = schema
            .attr(kind, &attr.text, id)
            .map_err(|e| at(e, attr.span))?;
        let value = def
            .parse(&attr.text, &text.text)
            .map_err(|e| at(e, text.span))?;
        ctx.state
            .change(|g| g.set_attr(id, &attr.text, value))
            .map_err(|e| state_err(e, attr.span.start))?;
        if let Some(c) = ctx.state.pending.changes.last() {
            lines.push(c.to_string());
        }
    }
    Ok(Output::new("set")
        .field("units", json!(ids))
        .text(Text::from_plain(lines.join("\n"))))
}

/// One unit for people: `leg1 · Legio IX (romans / left)`, its attributes, its markers.
fn unit_text(view: &UnitView) -> Text {
    let attrs: Vec<String> = view.attrs.iter().map(|(k, v)| format!("{k} {v}")).collect();
    let mut t = Text::new()
        .push(Style::Strong, view.id.clone())
        .plain(format!(
            " · {} ({} / {})\n  ",
            view.name, view.side, view.command
        ))
        .plain(attrs.join(" · "));
    if !view.markers.is_empty() {
        let markers: Vec<String> = view
            .markers
            .iter()
            .map(|m| match &m.expires {
                Some(e) => format!("{} (until {e})", m.name),
                None => m.name.clone(),
            })
            .collect();
        t = t
            .push(Style::Dim, "\n  markers: ")
            .plain(markers.join(", "));
    }
    for e in &view.elements {
        let attrs: Vec<String> = e.attrs.iter().map(|(k, v)| format!("{k} {v}")).collect();
        t = t.plain(format!("\n  - {} · {} {}", e.id, e.name, attrs.join(" · ")));
    }
    t
}

/// `show SELECTOR`: every attribute and marker of the units selected.
pub fn show(ctx: &mut Context<'_>, cmd: &Command) -> Result<Output, CommandError> {
    let args = need(cmd, 1, "show SELECTOR")?;
    let ids = select(ctx, cmd, args)?;
    let views: Vec<UnitView> = ids
        .iter()
        .filter_map(|id| ctx.state.game.view(id).ok())
        .collect();
    let mut out = Output::new("show");
    out = if let [one] = views.as_slice() {
        out.field("unit", serde_json::to_value(one).unwrap_or(Json::Null))
    } else {
        out.field("units", serde_json::to_value(&views).unwrap_or(Json::Null))
    };
    for v in &views {
        out = out.text(unit_text(v));
    }
    Ok(out)
}

/// `mark SELECTOR MARKER [until EXPIRY…]`.
pub fn mark(ctx: &mut Context<'_>, cmd: &Command) -> Result<Output, CommandError> {
    const USAGE: &str = "mark SELECTOR MARKER [until EXPIRY]";
    let args = need(cmd, 2, USAGE)?;
    let until = args.iter().position(|w| w.text == "until");
    let (head, expiry) = match until {
        Some(i) => {
            let (text, offset) = joined(cmd, &args[i + 1..]);
            let e = Expiry::parse(text).map_err(|m| {
                CommandError::invalid(
                    m,
                    Some("expiries: `phase`, `round`, `N rounds`, `own turn`, `turn SIDE`".into()),
                    Span::new(offset, offset + text.len()),
                )
            })?;
            (&args[..i], Some(e))
        }
        None => (args, None),
    };
    if head.len() < 2 {
        return Err(CommandError::usage(
            "`mark` needs units and a marker",
            USAGE,
            cmd.rest_span(),
        ));
    }
    let marker = &head[head.len() - 1];
    let ids = select(ctx, cmd, &head[..head.len() - 1])?;
    let mut lines = Vec::new();
    for id in &ids {
        ctx.state
            .change(|g| g.mark(id, &marker.text, expiry.clone()))
            .map_err(|e| state_err(e, marker.span.start))?;
        if let Some(c) = ctx.state.pending.changes.last() {
            lines.push(c.to_string());
        }
    }
    Ok(Output::new("mark")
        .field("units", json!(ids))
        .field("marker", marker.text.clone())
        .text(Text::from_plain(lines.join("\n"))))
}

/// `unmark SELECTOR MARKER`.
pub fn unmark(ctx: &mut Context<'_>, cmd: &Command) -> Result<Output, CommandError> {
    let args = need(cmd, 2, "unmark SELECTOR MARKER")?;
    let marker = &args[args.len() - 1];
    let ids = select(ctx, cmd, &args[..args.len() - 1])?;
    ctx.state
        .game
        .schema()
        .check_marker(&marker.text)
        .map_err(|e| at(e, marker.span))?;
    // Several units (a selector such as `all` or `side:britons`): those without the marker
    // are passed over; one unit named alone must have it.
    let several = ids.len() > 1;
    let mut lines = Vec::new();
    let mut unmarked = Vec::new();
    for id in &ids {
        let lacks = ctx
            .state
            .game
            .unit(id.as_str())
            .is_some_and(|u| u.marker(&marker.text).is_none());
        if several && lacks {
            continue;
        }
        ctx.state
            .change(|g| g.unmark(id, &marker.text))
            .map_err(|e| state_err(e, marker.span.start))?;
        if let Some(c) = ctx.state.pending.changes.last() {
            lines.push(c.to_string());
        }
        unmarked.push(id.clone());
    }
    if unmarked.is_empty() {
        return Err(CommandError::invalid(
            format!(
                "none of the {} units selected is marked `{}`",
                ids.len(),
                marker.text
            ),
            Some(format!(
                "`status marked:{}` shows the units that are",
                marker.text
            )),
            marker.span,
        ));
    }
    let ids = unmarked;
    Ok(Output::new("unmark")
        .field("units", json!(ids))
        .field("marker", marker.text.clone())
        .text(Text::from_plain(lines.join("\n"))))
}

/// `next`: advances the game clock one step and says what expired.
pub fn next(ctx: &mut Context<'_>, cmd: &Command) -> Result<Output, CommandError> {
    cmd.no_args("next")?;
    let mut report = None;
    ctx.state
        .change(|g| {
            let (c, a) = g.advance()?;
            report = Some(a);
            Ok(c)
        })
        .map_err(|e| state_err(e, 0))?;
    let Some(a) = report else {
        return Ok(Output::new("next"));
    };
    let mut t = Text::new().push(Style::Strong, a.text.clone());
    let expired: Vec<String> = a
        .expired
        .iter()
        .map(|e| format!("{} {}", e.unit, e.marker.name))
        .collect();
    if !expired.is_empty() {
        t = t.push(Style::Dim, "\nexpired: ").plain(expired.join(", "));
    }
    Ok(Output::new("next")
        .field("clock", a.text)
        .field("round", a.to.round)
        .field("new_round", a.new_round)
        .field("expired", json!(expired))
        .text(t))
}

/// `clock`: where the game is.
pub fn clock(ctx: &mut Context<'_>, cmd: &Command) -> Result<Output, CommandError> {
    cmd.no_args("clock")?;
    let text = ctx.state.game.clock_text();
    Ok(Output::new("clock")
        .field("clock", text.clone())
        .text(Text::from_plain(text)))
}

/// `status [SELECTOR]`: the board of every side's units (or the units selected).
pub fn status(ctx: &mut Context<'_>, cmd: &Command) -> Result<Output, CommandError> {
    let game = &ctx.state.game;
    let views: Vec<UnitView> = if cmd.args.is_empty() {
        game.views()
    } else {
        select(ctx, cmd, &cmd.args)?
            .iter()
            .filter_map(|id| game.view(id).ok())
            .collect()
    };
    let board = if cmd.args.is_empty() {
        game.status()
    } else {
        // The same board, with only the units selected (and their sides and commands).
        let keep: Vec<&str> = views.iter().map(|v| v.id.as_str()).collect();
        game.status_of(&keep)
    };
    let board = board.render(100);
    Ok(Output::new("status")
        .field("clock", game.clock_text())
        .field("units", serde_json::to_value(&views).unwrap_or(Json::Null))
        .text(Text::from_plain(board)))
}

/// Reads the file a command names: a regular file of UTF-8 text, at most `limit` bytes (the
/// session's `file` limit).
pub fn read_file(word: &Word, limit: usize) -> Result<String, CommandError> {
    crate::files::read_to_string(std::path::Path::new(&word.text), limit).map_err(|e| {
        let help = match e {
            crate::files::FileError::Io { .. } => {
                Some("give the path of the file, relative to where umpire was started".into())
            }
            // The message says what to do.
            _ => None,
        };
        CommandError::invalid(e.to_string(), help, word.span)
    })
}

/// `army load FILE`: sides, commands and units from a roster, checked against the schema.
pub fn army(ctx: &mut Context<'_>, cmd: &Command) -> Result<Output, CommandError> {
    let args = need(cmd, 2, "army load FILE")?;
    cmd.at_most(2, "army load FILE")?;
    if args[0].text != "load" {
        return Err(CommandError::usage(
            format!("unknown `army` action `{}`", args[0].text),
            "army load FILE",
            args[0].span,
        ));
    }
    let text = read_file(&args[1], ctx.state.limits.file)?;
    let changes =
        load_roster(&ctx.state.game, &args[1].text, &text).map_err(|e| state_err(e, 0))?;
    let before = ctx.state.game.unit_count();
    ctx.state
        .apply_changes(changes)
        .map_err(|e| state_err(e, 0))?;
    let added = ctx.state.game.unit_count() - before;
    Ok(Output::new("army")
        .field("file", args[1].text.clone())
        .field("units_added", added)
        .text(Text::from_plain(format!(
            "loaded {}: {added} units",
            args[1].text
        ))))
}

/// `schema load FILE`: the attributes, markers, status columns and sequence of play.
pub fn schema(ctx: &mut Context<'_>, cmd: &Command) -> Result<Output, CommandError> {
    let args = need(cmd, 2, "schema load FILE")?;
    cmd.at_most(2, "schema load FILE")?;
    if args[0].text != "load" {
        return Err(CommandError::usage(
            format!("unknown `schema` action `{}`", args[0].text),
            "schema load FILE",
            args[0].span,
        ));
    }
    let text = read_file(&args[1], ctx.state.limits.file)?;
    let schema = Schema::from_toml(&args[1].text, &text).map_err(|e| state_err(e, 0))?;
    let attrs = schema.unit.len();
    ctx.state
        .change(|g| g.set_schema(schema))
        .map_err(|e| state_err(e, 0))?;
    Ok(Output::new("schema")
        .field("file", args[1].text.clone())
        .text(Text::from_plain(format!(
            "schema from {}: {attrs} unit attributes",
            args[1].text
        ))))
}
