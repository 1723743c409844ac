//! The game-state commands: `add`, `remove`, `rename`, `set`, `show`, `mark`, `unmark`,
//! `next`, `clock`, `status`, `team`, `army load`, `schema load`.
//!
//! Each one changes the game only through [`State::change`](crate::engine::session::State::change),
//! so its changes are journalled with it and undone if anything fails.

use serde_json::{Value as Json, json};

use crate::engine::error::{CommandError, CommandErrorKind};
use crate::engine::output::{Output, Text};
use crate::engine::registry::Invocation;
use crate::engine::session::Context;
use crate::engine::style::Style;
use crate::span::Span;
use crate::state::view::ElementView;
use crate::state::{Expiry, Kind, Schema, StateError, UnitView, load_roster};

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

/// The ids a selector parameter resolved to (the signature resolved them).
fn ids(inv: &Invocation<'_>, name: &str) -> Vec<String> {
    inv.args.ids(name).to_vec()
}

/// The span of parameter `name` (the line's end when absent).
fn span_of(inv: &Invocation<'_>, name: &str) -> Span {
    inv.args
        .get(name)
        .map_or(Span::point(inv.line.line.len()), |a| a.span)
}

/// `add side ID [NAME…]`, `add command SIDE ID [NAME…]`, `add unit COMMAND ID [NAME…]
/// [ATTR=VALUE…]`, `add element UNIT ID [NAME…]`.
pub fn add(ctx: &mut Context<'_>, inv: &Invocation<'_>) -> Result<Output, CommandError> {
    let args = &inv.args;
    let kind = args.sub().unwrap_or_default().to_string();
    let id = args.text("id").unwrap_or_default().to_string();
    let offset = span_of(inv, "id").start;
    let name = args.text("name").map_or_else(|| id.clone(), str::to_string);
    let parent = ["side", "command", "unit"]
        .into_iter()
        .find_map(|p| args.ids(p).first().cloned());
    let what = match (kind.as_str(), parent) {
        ("side", _) => {
            ctx.state
                .change(|g| g.add_side(&id, &name))
                .map_err(|e| state_err(e, offset))?;
            format!("side {id} “{name}” added")
        }
        (_, Some(parent)) => {
            match kind.as_str() {
                "command" => ctx.state.change(|g| g.add_command(&parent, &id, &name)),
                kind => {
                    let of = if kind == "element" {
                        Kind::Element
                    } else {
                        Kind::Unit
                    };
                    let mut attrs = Vec::new();
                    let words = args.words("attrs");
                    let spans = args.get("attrs").map(|a| a.span);
                    for w in words {
                        let (attr, text) = w.split_once('=').unwrap_or_default();
                        let value = ctx
                            .state
                            .game
                            .schema()
                            .parse_value(of, attr, text, &id)
                            .map_err(|e| {
                                let at = spans.map_or(0, |s| s.start);
                                state_err(e, at)
                            })?;
                        attrs.push((attr.to_string(), value));
                    }
                    if of == Kind::Element {
                        ctx.state
                            .change(|g| g.add_element(&parent, &id, &name, attrs))
                    } else {
                        ctx.state.change(|g| g.add_unit(&parent, &id, &name, attrs))
                    }
                }
            }
            .map_err(|e| state_err(e, offset))?;
            format!("{kind} {id} “{name}” added to {parent}")
        }
        _ => unreachable!("the signature gives every form its parent"),
    };
    Ok(Output::new("add")
        .field("added", id)
        .text(Text::from_plain(what)))
}

/// The id a word names: itself, or the element `UNIT.ELEMENT` names.
fn id_of(ctx: &Context<'_>, word: &str) -> String {
    if word.contains('.')
        && let Ok(e) = ctx.state.game.find_element(word)
    {
        return e.id.to_string();
    }
    word.to_string()
}

/// `remove ID`: a side, command, unit or element (`UNIT.ELEMENT` too), with everything under
/// it.
pub fn remove(ctx: &mut Context<'_>, inv: &Invocation<'_>) -> Result<Output, CommandError> {
    let id = id_of(ctx, inv.args.text("id").unwrap_or_default());
    let before = ctx.state.pending.changes.len();
    ctx.state
        .change_all(|g| g.remove(&id))
        .map_err(|e| state_err(e, span_of(inv, "id").start))?;
    let removed = ctx.state.pending.changes.len() - before;
    Ok(Output::new("remove")
        .field("removed", id.clone())
        .text(Text::from_plain(format!(
            "{id} removed ({removed} change{})",
            if removed == 1 { "" } else { "s" }
        ))))
}

/// `rename ID NAME…` (an element as `UNIT.ELEMENT` too).
pub fn rename(ctx: &mut Context<'_>, inv: &Invocation<'_>) -> Result<Output, CommandError> {
    let id = id_of(ctx, inv.args.text("id").unwrap_or_default());
    let name = inv.args.text("name").unwrap_or_default().to_string();
    ctx.state
        .change(|g| g.rename(&id, &name))
        .map_err(|e| state_err(e, span_of(inv, "id").start))?;
    Ok(Output::new("rename").text(Text::from_plain(format!("{id} is now “{name}”"))))
}

/// `set SELECTOR ATTR VALUE`: sets one attribute on every unit selected.
pub fn set(ctx: &mut Context<'_>, inv: &Invocation<'_>) -> Result<Output, CommandError> {
    let attr = inv.args.text("attr").unwrap_or_default();
    let ids = match group_named(ctx, inv, attr) {
        Some(id) => vec![id],
        None => ids(inv, "units"),
    };
    let text = inv.args.text("value").unwrap_or_default();
    let (attr_span, value_span) = (span_of(inv, "attr"), span_of(inv, "value"));
    let mut lines = Vec::new();
    for id in &ids {
        let kind = ctx.state.game.kind_of(id).unwrap_or(Kind::Unit);
        let schema = ctx.state.game.schema();
        // An unknown attribute points at the attribute, a bad value at the value.
        let def = schema.attr(kind, attr, id).map_err(|e| at(e, attr_span))?;
        let value = def.parse(attr, text).map_err(|e| at(e, value_span))?;
        ctx.state
            .change(|g| g.set_attr(id, attr, value))
            .map_err(|e| state_err(e, attr_span.start))?;
        if let Some(c) = ctx.state.pending.changes.last() {
            lines.push(c.to_string());
        }
    }
    let summary = || format!("{attr} = {text}");
    Ok(Output::new("set")
        .field("units", json!(ids))
        .text(Text::from_plain(many_lines(&lines, &ids, summary))))
}

/// How many lines of one change to many units are printed; more are summed up in one.
const MANY: usize = 10;

/// `lines` (one a unit of `ids`), or, when there are more than [`MANY`], one line: what was
/// done (`what`), to how many, the first few named; `log 1 all` and the journal keep each.
fn many_lines(lines: &[String], ids: &[String], what: impl FnOnce() -> String) -> String {
    if lines.len() <= MANY {
        return lines.join("\n");
    }
    format!(
        "{} on {} units: {}, … (`log 1 all` lists each)",
        what(),
        ids.len(),
        ids[..LISTED].join(", ")
    )
}

/// The side or command `set` changes itself: when the units are named by one word that is a
/// side's or a command's id, and `attr` is one of its own attributes but not a unit's
/// (`set romans cinc_rating 2`). Otherwise `set` changes the units selected.
fn group_named(ctx: &Context<'_>, inv: &Invocation<'_>, attr: &str) -> Option<String> {
    let span = inv.args.get("units")?.span;
    let word = inv.line.line.get(span.start..span.end)?.trim();
    let game = &ctx.state.game;
    let kind = game.kind_of(word)?;
    let schema = game.schema();
    (matches!(kind, Kind::Side | Kind::Command)
        && schema.attrs(kind).contains_key(attr)
        && !schema.attrs(Kind::Unit).contains_key(attr))
    .then(|| word.to_string())
}

/// One unit for people: `leg1 · Legio IX (romans / left)`, its attributes, its markers.
fn unit_text(view: &UnitView, game: &crate::state::Game, full: bool) -> Text {
    let status = &game.schema().status;
    let mut t = Text::new()
        .push(Style::Strong, view.id.clone())
        .plain(format!(
            " · {} ({} / {})",
            view.name, view.side, view.command
        ));
    // What matters first: its markers, then the attributes `status` shows with its bar, then
    // what differs from the schema's defaults; the defaults only when asked (`full`).
    if !view.markers.is_empty() {
        let markers: Vec<String> = view.markers.iter().map(marker_text).collect();
        t = t
            .push(Style::Dim, "\n  markers: ")
            .push(Style::Strong, markers.join(", "));
    }
    let key: Vec<&str> = status
        .attrs
        .iter()
        .chain(status.strength.iter())
        .map(String::as_str)
        .collect();
    let mut shown: Vec<String> = key
        .iter()
        .filter_map(|k| view.attrs.get(*k).map(|v| format!("{k} {v}")))
        .collect();
    if let Some(s) = game.unit(&view.id).and_then(|u| game.strength(u)) {
        shown.push(crate::state::bar(s.value, s.max, 5));
    }
    if !shown.is_empty() {
        t = t.plain("\n  ").plain(shown.join(" · "));
    }
    let default_of = |k: &str| game.schema().unit.get(k).map(|d| &d.default);
    let (set, defaults): (Vec<_>, Vec<_>) = view
        .attrs
        .iter()
        .filter(|(k, _)| !key.contains(&k.as_str()))
        .partition(|(k, v)| default_of(k) != Some(*v));
    if !set.is_empty() {
        let set: Vec<String> = set.iter().map(|(k, v)| format!("{k} {v}")).collect();
        t = t.plain("\n  ").plain(set.join(" · "));
    }
    if !defaults.is_empty() {
        if full {
            let d: Vec<String> = defaults.iter().map(|(k, v)| format!("{k} {v}")).collect();
            t = t.push(Style::Dim, "\n  defaults: ").plain(d.join(" · "));
        } else {
            t = t.push(
                Style::Dim,
                format!(
                    "\n  ({} more at their defaults: `show {} full`)",
                    defaults.len(),
                    view.id
                ),
            );
        }
    }
    for (i, e) in view.elements.iter().enumerate() {
        t = t.plain(format!("\n  {}. ", i + 1)).plain(element_line(e));
    }
    t
}

/// A marker for the umpire: `suppressed (until end of round)`, `hidden (secret)`.
fn marker_text(m: &crate::state::view::MarkerView) -> String {
    let mut s = m.name.clone();
    if let Some(e) = &m.expires {
        s.push_str(&format!(" (until {e})"));
    }
    if m.secret {
        s.push_str(" (secret)");
    }
    s
}

/// One element for people: `leg1a · Front rank figures 4 · markers: fallen`.
fn element_line(e: &ElementView) -> String {
    let attrs: Vec<String> = e.attrs.iter().map(|(k, v)| format!("{k} {v}")).collect();
    let mut line = format!("{} · {} {}", e.id, e.name, attrs.join(" · "));
    if !e.markers.is_empty() {
        let markers: Vec<String> = e.markers.iter().map(marker_text).collect();
        line.push_str(&format!(" · markers: {}", markers.join(", ")));
    }
    line
}

/// `show SELECTOR`: every attribute and marker of the units selected.
pub fn show(ctx: &mut Context<'_>, inv: &Invocation<'_>) -> Result<Output, CommandError> {
    let ids = ids(inv, "units");
    // One element (`show leg1.2`): it alone, under its unit's id.
    if let [one] = ids.as_slice()
        && let Some(e) = ctx.state.game.element(one)
        && let Some(e) = ctx
            .state
            .game
            .view(e.unit.as_str())
            .ok()
            .and_then(|v| v.elements.into_iter().find(|x| x.id == one.as_str()))
    {
        let unit = ctx.state.game.element(one).map(|x| x.unit.to_string());
        let text = Text::new()
            .push(
                Style::Strong,
                format!("{}.{}", unit.clone().unwrap_or_default(), e.id),
            )
            .plain(format!(" · {}", element_line(&e)));
        return Ok(Output::new("show")
            .field("element", serde_json::to_value(&e).unwrap_or(Json::Null))
            .field("unit", unit)
            .text(text));
    }
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
    let full = inv.args.flag("full");
    for v in &views {
        out = out.text(unit_text(v, &ctx.state.game, full));
    }
    Ok(out)
}

/// `mark SELECTOR MARKER [until EXPIRY…]`.
pub fn mark(ctx: &mut Context<'_>, inv: &Invocation<'_>) -> Result<Output, CommandError> {
    let expiry = match inv.args.get("expiry") {
        Some(arg) => {
            let text = inv.args.text("expiry").unwrap_or_default();
            Some(Expiry::parse(text).map_err(|m| {
                CommandError::invalid(
                    m,
                    Some("expiries: `phase`, `round`, `N rounds`, `own turn`, `turn SIDE`".into()),
                    arg.span,
                )
            })?)
        }
        None => None,
    };
    let marker = inv.args.text("marker").unwrap_or_default().to_string();
    let marker_span = span_of(inv, "marker");
    let ids = ids(inv, "units");
    let mut lines = Vec::new();
    for id in &ids {
        ctx.state
            .change(|g| g.mark(id, &marker, expiry.clone()))
            .map_err(|e| state_err(e, marker_span.start))?;
        if let Some(c) = ctx.state.pending.changes.last() {
            lines.push(c.to_string());
        }
    }
    let until = expiry
        .as_ref()
        .map(|e| format!(" until {e}"))
        .unwrap_or_default();
    let text = many_lines(&lines, &ids, || format!("marked {marker}{until}"));
    Ok(Output::new("mark")
        .field("units", json!(ids))
        .field("marker", marker)
        .text(Text::from_plain(text)))
}

/// `unmark SELECTOR MARKER`.
pub fn unmark(ctx: &mut Context<'_>, inv: &Invocation<'_>) -> Result<Output, CommandError> {
    let marker = inv.args.text("marker").unwrap_or_default().to_string();
    let marker_span = span_of(inv, "marker");
    let ids = ids(inv, "units");
    ctx.state
        .game
        .schema()
        .check_marker(&marker)
        .map_err(|e| at(e, marker_span))?;
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
            .is_some_and(|u| u.marker(&marker).is_none());
        if several && lacks {
            continue;
        }
        ctx.state
            .change(|g| g.unmark(id, &marker))
            .map_err(|e| state_err(e, marker_span.start))?;
        if let Some(c) = ctx.state.pending.changes.last() {
            lines.push(c.to_string());
        }
        unmarked.push(id.clone());
    }
    if unmarked.is_empty() {
        return Err(CommandError::invalid(
            format!(
                "none of the {} units selected is marked `{marker}`",
                ids.len()
            ),
            Some(format!("`status marked:{marker}` shows the units that are")),
            marker_span,
        ));
    }
    let ids = unmarked;
    let text = many_lines(&lines, &ids, || format!("unmarked {marker}"));
    Ok(Output::new("unmark")
        .field("units", json!(ids))
        .field("marker", marker)
        .text(Text::from_plain(text)))
}

/// `next`: tells the rules the step (and perhaps the round) ends (`step_ends`,
/// `round_ends`), advances the game clock one step and says what expired.
pub fn next(ctx: &mut Context<'_>, _: &Invocation<'_>) -> Result<Output, CommandError> {
    let ending = crate::engine::events::ending_events(
        ctx.state,
        crate::engine::session::reborrow(&mut ctx.entry),
    )?;
    let out = advance(ctx)?;
    Ok(crate::engine::rule_commands::after_pre(out, ending))
}

/// Up to how many units a summary line names.
const LISTED: usize = 5;

/// The clock one step on, and what expired (one line a marker kind; every one in the JSON and
/// the journal).
fn advance(ctx: &mut Context<'_>) -> Result<Output, CommandError> {
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
    // One line a marker kind: `suppressed on leg1, leg2, war4`, `activated on 40 of them`.
    let mut kinds: Vec<(&str, Vec<&str>)> = Vec::new();
    for e in &a.expired {
        match kinds.iter_mut().find(|(m, _)| *m == e.marker.name) {
            Some((_, units)) => units.push(e.unit.as_str()),
            None => kinds.push((e.marker.name.as_str(), vec![e.unit.as_str()])),
        }
    }
    for (marker, units) in &kinds {
        let on = if units.len() <= LISTED {
            units.join(", ")
        } else {
            format!("{} of them (`log 1 all` lists each)", units.len())
        };
        t = t
            .push(Style::Dim, "\nexpired: ")
            .plain(format!("{marker} on {on}"));
    }
    Ok(Output::new("next")
        .field("clock", a.text)
        .field("round", a.to.round)
        .field("new_round", a.new_round)
        .field("expired", json!(expired))
        .text(t))
}

/// `clock`: where the game is.
pub fn clock(ctx: &mut Context<'_>, _: &Invocation<'_>) -> Result<Output, CommandError> {
    let text = ctx.state.game.clock_text();
    Ok(Output::new("clock")
        .field("clock", text.clone())
        .text(Text::from_plain(text)))
}

/// `status [SELECTOR]`: the board of every side's units (or the units selected).
pub fn status(ctx: &mut Context<'_>, inv: &Invocation<'_>) -> Result<Output, CommandError> {
    let game = &ctx.state.game;
    let selected = inv.args.get("units").is_some();
    let views: Vec<UnitView> = if !selected {
        game.views()
    } else {
        ids(inv, "units")
            .iter()
            .filter_map(|id| game.view(id).ok())
            .collect()
    };
    let board = if !selected {
        game.status()
    } else {
        // The same board, with only the units selected (and their sides and commands).
        let keep: Vec<&str> = views.iter().map(|v| v.id.as_str()).collect();
        game.status_of(&keep)
    };
    // A board longer than a screen is summarised: sides and commands, then the units that
    // need attention (`status all` still lists every unit).
    let summary = !selected && board.line_count(WIDTH) > SCREEN;
    let text = if summary {
        summary_text(&board, game.schema().status.attention.as_ref())
    } else {
        Text::from_plain(board.render(WIDTH))
    };
    // The board is for the players: hidden units and secret markers stay off it, in JSON too.
    let views: Vec<UnitView> = views
        .into_iter()
        .filter_map(|v| game.public_view(v))
        .collect();
    Ok(Output::new("status")
        .field("clock", game.clock_text())
        .field("summary", summary)
        .field("units", serde_json::to_value(&views).unwrap_or(Json::Null))
        .text(text))
}

/// The summary of a board longer than a screen, coloured: headings strong, why each unit needs
/// attention in the alarm colour, notes dim.
fn summary_text(
    board: &crate::state::Status,
    attention: Option<&crate::state::AttentionSpec>,
) -> Text {
    use crate::state::view::Part;
    let mut t = Text::new();
    for (i, line) in board
        .summary_lines(attention, SCREEN)
        .into_iter()
        .enumerate()
    {
        if i > 0 {
            t = t.plain("\n");
        }
        for (part, text) in line {
            let style = match part {
                Part::Plain => Style::Plain,
                Part::Heading => Style::Strong,
                Part::Alert => Style::Error,
                Part::Dim => Style::Dim,
            };
            t = t.push(style, text);
        }
    }
    // As the full board, it ends with a newline.
    t.plain("\n")
}

/// `team [NAME [SIDE…]]`: puts sides in a team (`none`: out of one), or lists the teams.
pub fn team(ctx: &mut Context<'_>, inv: &Invocation<'_>) -> Result<Output, CommandError> {
    let name = inv.args.text("name").map(str::to_string);
    let sides = inv.args.words("sides").to_vec();
    let game = &ctx.state.game;
    let Some(name) = name else {
        // `team`: every party at the table.
        let parties = game.parties();
        let lines: Vec<String> = parties
            .iter()
            .map(|p| {
                let sides: Vec<&str> = p.sides.iter().map(|s| s.as_str()).collect();
                if p.team {
                    format!("team {}: {}", p.id, sides.join(", "))
                } else {
                    format!("{} (no team)", p.id)
                }
            })
            .collect();
        let text = if parties.iter().any(|p| p.team) {
            lines.join("\n")
        } else {
            "no side is in a team (`team NAME SIDE…` forms one)".to_string()
        };
        return Ok(Output::new("team")
            .field(
                "parties",
                serde_json::to_value(&parties).unwrap_or(Json::Null),
            )
            .text(Text::from_plain(text)));
    };
    if sides.is_empty() {
        // `team NAME`: its sides.
        let members = game
            .find_team(&name)
            .map_err(|e| at(e, span_of(inv, "name")))?;
        let list: Vec<String> = members.iter().map(|s| s.id.to_string()).collect();
        return Ok(Output::new("team")
            .field("team", name.clone())
            .field("sides", json!(list))
            .text(Text::from_plain(format!(
                "team {name}: {}",
                list.join(", ")
            ))));
    }
    let team = (name != "none").then_some(name.as_str());
    let mut lines = Vec::new();
    for side in &sides {
        ctx.state
            .change(|g| g.set_team(side, team))
            .map_err(|e| at(e, span_of(inv, "name")))?;
        if let Some(c) = ctx.state.pending.changes.last() {
            lines.push(c.to_string());
        }
    }
    Ok(Output::new("team")
        .field("team", team)
        .field("sides", json!(sides))
        .text(Text::from_plain(lines.join("\n"))))
}

/// The lines of one screen: a longer board is summarised.
const SCREEN: usize = 50;
/// The columns `status` lays the board out for.
const WIDTH: usize = 100;

/// Reads the file a command names in its `file` parameter: a regular file of UTF-8 text, at
/// most `limit` bytes (the session's `file` limit).
pub fn read_file(inv: &Invocation<'_>, limit: usize) -> Result<String, CommandError> {
    let path = inv.args.text("file").unwrap_or_default();
    let span = span_of(inv, "file");
    crate::files::read_to_string(std::path::Path::new(path), limit).map_err(|e| {
        let help = match e {
            crate::files::FileError::Io { .. } => {
                Some("give the path of the file, relative to where umpire was started".into())
            }
            // The message says what to do.
            _ => None,
        };
        CommandError::invalid(e.to_string(), help, span)
    })
}

/// `army load FILE`: sides, commands and units from a roster, checked against the schema.
/// `army save FILE [SIDE…]`: the sides as they stand, in the same format.
pub fn army(ctx: &mut Context<'_>, inv: &Invocation<'_>) -> Result<Output, CommandError> {
    if inv.args.subs.first().map(String::as_str) == Some("save") {
        return army_save(ctx, inv);
    }
    let file = inv.args.text("file").unwrap_or_default().to_string();
    let text = read_file(inv, ctx.state.limits.file)?;
    let changes = load_roster(&ctx.state.game, &file, &text).map_err(|e| state_err(e, 0))?;
    let before = ctx.state.game.unit_count();
    ctx.state
        .apply_changes(changes)
        .map_err(|e| state_err(e, 0))?;
    let added = ctx.state.game.unit_count() - before;
    Ok(Output::new("army")
        .field("file", file.clone())
        .field("units_added", added)
        .text(Text::from_plain(format!("loaded {file}: {added} units"))))
}

/// `army save FILE [SIDE…] [force]`.
fn army_save(ctx: &mut Context<'_>, inv: &Invocation<'_>) -> Result<Output, CommandError> {
    let file = inv.args.text("file").unwrap_or_default().to_string();
    let span = span_of(inv, "file");
    let path = std::path::Path::new(&file);
    if path.exists() && !inv.args.flag("force") {
        return Err(CommandError::invalid(
            format!("`{file}` exists"),
            Some(format!(
                "add `force` to write over it (`army save {file} … force`), or give a new name"
            )),
            span,
        ));
    }
    let lowered: Vec<String> = inv
        .args
        .words("sides")
        .iter()
        .map(|w| w.to_lowercase())
        .collect();
    let sides: Vec<&str> = lowered.iter().map(String::as_str).collect();
    let text = crate::state::write_roster(&ctx.state.game, &sides)
        .map_err(|e| CommandError::invalid(e, None, span_of(inv, "sides")))?;
    let text = format!(
        "# Written by `army save` at round {} of the game; `army load` reads it back.\n\n{text}",
        ctx.state.game.clock().pos.round
    );
    crate::files::replace(path, text.as_bytes())
        .map_err(|e| CommandError::invalid(e.to_string(), None, span))?;
    let written: Vec<String> = if sides.is_empty() {
        ctx.state.game.sides().map(|s| s.id.to_string()).collect()
    } else {
        sides.iter().map(|s| s.to_string()).collect()
    };
    let units: usize = written
        .iter()
        .filter_map(|s| ctx.state.game.side(s))
        .map(|s| {
            ctx.state
                .game
                .commands_of(s)
                .map(|c| c.units.len())
                .sum::<usize>()
        })
        .sum();
    Ok(Output::new("army")
        .field("file", file.clone())
        .field("sides", written.clone())
        .field("units", units)
        .text(Text::from_plain(format!(
            "saved {} ({units} units) to {file}",
            written.join(", ")
        ))))
}

/// `schema load FILE`: the attributes, markers, status columns and sequence of play.
pub fn schema(ctx: &mut Context<'_>, inv: &Invocation<'_>) -> Result<Output, CommandError> {
    let file = inv.args.text("file").unwrap_or_default().to_string();
    let text = read_file(inv, ctx.state.limits.file)?;
    let schema = Schema::from_toml(&file, &text).map_err(|e| state_err(e, 0))?;
    let attrs = schema.unit.len();
    ctx.state
        .change(|g| g.set_schema(schema))
        .map_err(|e| state_err(e, 0))?;
    Ok(Output::new("schema")
        .field("file", file.clone())
        .text(Text::from_plain(format!(
            "schema from {file}: {attrs} unit attributes"
        ))))
}
