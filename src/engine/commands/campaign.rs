//! `campaign` and `battle`: a campaign folder (see [`crate::campaign`]) and its battles.
//!
//! A battle is a game whose journal is in the campaign's `battles/` folder: `battle new`
//! opens it with the campaign's rules and options and loads the rosters (each step its own
//! journalled command); `battle end` tells the rules (event `battle_ends`, where a ruleset or
//! house rule decides what carries over), writes each side's roster as it now stands less the
//! units the battle destroyed, and journals the old and new rosters in the campaign journal.
//! `undo` of `battle end` writes the old rosters back; `redo` writes the new ones again.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::json;

use crate::campaign::{
    BattleSide, Campaign, CampaignFile, Entry, HeroFate, SideStrength, Story, rosters,
};
use crate::engine::error::CommandError;
use crate::engine::output::{Output, Said, Text};
use crate::engine::registry::Invocation;
use crate::engine::rule_commands::{Call, add_call, call_rules};
use crate::engine::session::{Context, reborrow};
use crate::engine::style::Style;
use crate::journal::{Reversal, now};
use crate::script::ArgValue;
use crate::span::Span;
use crate::state::Value;

/// Where the game keeps which campaign battle it is, and whether it has ended.
const STORE: &str = "umpire.campaign";

/// `campaign`, `campaign new DIR [NAME]`, `campaign open DIR`, `campaign report PATH`.
pub fn campaign(ctx: &mut Context<'_>, inv: &Invocation<'_>) -> Result<Output, CommandError> {
    match inv.args.sub() {
        Some("new") => new(ctx, inv),
        Some("open") => open(ctx, inv),
        Some("report") => report(ctx, inv),
        _ => show(ctx, inv),
    }
}

/// `battle`, `battle new NAME [leave ID…]`, `battle end RESULT [plan]`.
pub fn battle(ctx: &mut Context<'_>, inv: &Invocation<'_>) -> Result<Output, CommandError> {
    match inv.args.sub() {
        Some("new") => battle_new(ctx, inv),
        Some("end") => battle_end(ctx, inv),
        _ => show(ctx, inv),
    }
}

fn span_of(inv: &Invocation<'_>, name: &str) -> Span {
    inv.args
        .get(name)
        .map(|a| a.span)
        .unwrap_or(inv.line.name.span)
}

fn failed(e: impl ToString, span: Span) -> CommandError {
    CommandError::invalid(e.to_string(), None, span)
}

/// The campaign open, or an error saying how to open one.
fn open_campaign(ctx: &Context<'_>, span: Span) -> Result<Campaign, CommandError> {
    ctx.state.campaign.clone().ok_or_else(|| {
        CommandError::invalid(
            "no campaign is open",
            Some("`campaign open DIR` opens one; `campaign new DIR` starts one".into()),
            span,
        )
    })
}

/// `campaign new DIR [NAME]`: a campaign with the rules and options in force, whose rosters
/// are the sides in play (if any).
fn new(ctx: &mut Context<'_>, inv: &Invocation<'_>) -> Result<Output, CommandError> {
    let dir = PathBuf::from(inv.args.text("dir").unwrap_or_default());
    let span = span_of(inv, "dir");
    let name = inv
        .args
        .text("name")
        .map(str::to_string)
        .unwrap_or_else(|| {
            dir.file_name()
                .map_or("campaign".into(), |n| n.to_string_lossy().to_string())
        });
    let rules = ctx.state.rules.record().unwrap_or_default();
    let options = crate::engine::options::stored_options(&ctx.state.game)
        .into_iter()
        .filter_map(|(k, v)| Some((k, json_to_toml(&v)?)))
        .collect();
    let file = CampaignFile {
        name: name.clone(),
        ruleset: rules.ruleset.clone(),
        variant: rules.variant.clone(),
        house: rules.house.clone(),
        options,
    };
    // What the first battle must know from the game in play (the Heroes a house rule keeps
    // in its store), as the rules record it.
    let carried = if ctx.state.game.sides().next().is_some() {
        let (_, call) = call_rules(
            ctx.state,
            reborrow(&mut ctx.entry),
            Call::Event("next_battle"),
            &[],
            span,
        )?;
        recorded(&call.record).1
    } else {
        BTreeMap::new()
    };
    let c = Campaign::create(&dir, file, carried).map_err(|e| failed(e, span))?;
    let mut written = Vec::new();
    for side in ctx.state.game.sides() {
        let id = side.id.to_string();
        let text = roster_text(&ctx.state.game, &id, &|_| true).map_err(|e| failed(e, span))?;
        c.write_roster(&id, &text).map_err(|e| failed(e, span))?;
        c.append(&Entry::Roster {
            side: id.clone(),
            reason: "the side in play when the campaign was started".into(),
            text,
            at: now(),
        })
        .map_err(|e| failed(e, span))?;
        written.push(format!(
            "{id} ({} units)",
            ctx.state
                .game
                .commands_of(side)
                .map(|c| c.units.len())
                .sum::<usize>()
        ));
    }
    let rules_text = crate::engine::rules::describe(&rules);
    ctx.state.campaign = Some(c);
    let mut text = Text::new()
        .push(Style::Strong, format!("campaign `{name}`"))
        .plain(format!(" in {} · rules: {rules_text}", dir.display()));
    text = text.plain(if written.is_empty() {
        "\nno sides in play: put each side's roster in rosters/SIDE.toml (the format `army load` reads), then `battle new NAME`".to_string()
    } else {
        format!("\nrosters written: {}\nnext: `battle new NAME`", written.join(", "))
    });
    Ok(Output::new("campaign")
        .field("campaign", name)
        .field("dir", dir.display().to_string())
        .field("rosters", written)
        .text(text))
}

/// `campaign open DIR`: opens it, and continues its battle in progress, if any.
fn open(ctx: &mut Context<'_>, inv: &Invocation<'_>) -> Result<Output, CommandError> {
    let dir = PathBuf::from(inv.args.text("dir").unwrap_or_default());
    let span = span_of(inv, "dir");
    let c = Campaign::open(&dir).map_err(|e| failed(e, span))?;
    let battle = c.open_battle().map_err(|e| failed(e, span))?;
    let name = c.file.name.clone();
    let mut text = Text::new()
        .push(Style::Strong, format!("campaign `{name}`"))
        .plain(format!(" · {}", dir.display()));
    match &battle {
        Some(b) => {
            let path = c.battle_path(b);
            crate::engine::games::open_journal_at(ctx, &path, inv.line)?;
            ctx.state.resume = Some(crate::engine::rules::AskedRules::default());
            text = text.plain(format!(
                "\ncontinuing battle `{b}` ({} units in play)",
                ctx.state.game.unit_count()
            ));
        }
        None => {
            text = text.plain(format!(
                "\nno battle in progress; sides: {} · `battle new NAME` starts one",
                c.sides().join(", ")
            ));
        }
    }
    ctx.state.campaign = Some(c);
    Ok(Output::new("campaign")
        .field("campaign", name)
        .field("battle", battle)
        .text(text))
}

/// `campaign` and `battle`: where the campaign stands: the battles fought and their results,
/// each side's strength before and after each, the Heroes' careers.
fn show(ctx: &mut Context<'_>, inv: &Invocation<'_>) -> Result<Output, CommandError> {
    let c = open_campaign(ctx, inv.line.name.span)?;
    let entries = c.entries().map_err(|e| failed(e, inv.line.name.span))?;
    let story = Story::of(&entries);
    let mut text = Text::new().push(Style::Strong, format!("campaign `{}`", c.file.name));
    let rules = crate::journal::RulesRecord {
        ruleset: c.file.ruleset.clone(),
        variant: c.file.variant.clone(),
        house: c.file.house.clone(),
        ..Default::default()
    };
    text = text.plain(format!(
        " · {} · rules: {}",
        c.dir.display(),
        crate::engine::rules::describe(&rules)
    ));
    if story.ended().next().is_none() {
        text = text.plain("\nno battle fought yet");
    }
    for b in story.ended() {
        text = text
            .plain("\n  ")
            .push(Style::Strong, b.name.clone())
            .plain(format!(": {}", b.result.clone().unwrap_or_default()))
            .push(Style::Dim, format!(" ({} roster changes)", b.changes.len()));
        for s in &b.end {
            text = text.plain(format!(
                "\n      {:<12} {:>3} units{}",
                s.side,
                s.units,
                strength_words(s)
            ));
        }
    }
    if !story.points.is_empty() {
        text = text
            .plain("\n")
            .push(Style::Strong, "strength over the campaign");
        for (i, side) in story.sides.iter().enumerate() {
            let steps: Vec<String> = story
                .points
                .iter()
                .map(|p| match &p.sides[i] {
                    Some(s) => s
                        .strength
                        .map_or(format!("{} units", s.units), crate::dice::render::fmt_value),
                    None => "–".into(),
                })
                .collect();
            text = text.plain(format!("\n  {side:<12} {}", steps.join(" → ")));
        }
        let labels: Vec<&str> = story.points.iter().map(|p| p.label.as_str()).collect();
        text = text.push(Style::Dim, format!("\n  ({})", labels.join(", ")));
    }
    if !story.careers.is_empty() {
        text = text.plain("\n").push(Style::Strong, "heroes");
        for h in &story.careers {
            let fates: Vec<String> = h
                .battles
                .iter()
                .map(|(b, fate)| format!("{b}: {fate}"))
                .collect();
            text = text.plain(format!(
                "\n  {} ({}, {}): {} battle{} · {}",
                h.name,
                h.side,
                h.kind,
                h.battles.len(),
                if h.battles.len() == 1 { "" } else { "s" },
                fates.join("; ")
            ));
        }
    }
    text = text.plain(match &story.open {
        Some(b) => format!("\nin progress: battle `{b}` · `battle end RESULT` ends it"),
        None => "\nno battle in progress · `battle new NAME` starts one".into(),
    });
    text = text.plain(format!("\nsides: {}", c.sides().join(", ")));
    Ok(Output::new("campaign")
        .field("campaign", c.file.name.clone())
        .field("battle", story.open.clone())
        .field(
            "battles",
            story
                .ended()
                .map(|b| json!({"name": b.name, "result": b.result, "strength": b.end, "heroes": b.heroes}))
                .collect::<Vec<_>>(),
        )
        .field("strength", json!(story.points))
        .field("heroes", json!(story.careers))
        .text(text))
}

/// `, strength 37` when the rules name a strength.
fn strength_words(s: &SideStrength) -> String {
    s.strength.map_or(String::new(), |v| {
        format!(", strength {}", crate::dice::render::fmt_value(v))
    })
}

/// `campaign report PATH`: the campaign report, in the format PATH's extension asks for.
fn report(ctx: &mut Context<'_>, inv: &Invocation<'_>) -> Result<Output, CommandError> {
    let span = span_of(inv, "file");
    let c = open_campaign(ctx, inv.line.name.span)?;
    let path = PathBuf::from(inv.args.text("file").unwrap_or_default());
    crate::engine::commands::report::report_format(&path, span)?;
    let r = crate::report::campaign::CampaignReport::build(&c, ctx.state.limits.journal())
        .map_err(|e| failed(e, span))?;
    let files = crate::report::render::write_campaign(&r, &path).map_err(|e| failed(e, span))?;
    Ok(Output::new("campaign")
        .field("campaign", c.file.name.clone())
        .field("file", path.display().to_string())
        .field(
            "files",
            files
                .iter()
                .map(|f| f.display().to_string())
                .collect::<Vec<_>>(),
        )
        .text(Text::from_plain(r.summary(&files))))
}

/// `battle new NAME [leave ID…]`.
fn battle_new(ctx: &mut Context<'_>, inv: &Invocation<'_>) -> Result<Output, CommandError> {
    let span = span_of(inv, "name");
    let c = open_campaign(ctx, inv.line.name.span)?;
    let name = inv.args.text("name").unwrap_or_default().to_string();
    crate::engine::games::check_name(&name).map_err(|m| failed(m, span))?;
    if let Some(b) = c.open_battle().map_err(|e| failed(e, span))? {
        return Err(CommandError::invalid(
            format!("battle `{b}` has not ended"),
            Some("`battle end RESULT` ends it first".into()),
            span,
        ));
    }
    let path = c.battle_path(&name);
    if path.exists() {
        return Err(CommandError::invalid(
            format!("there is already a battle `{name}` in this campaign"),
            Some("give the new battle another name".into()),
            span,
        ));
    }
    let left: Vec<String> = inv
        .args
        .words("leave")
        .iter()
        .flat_map(|w| w.split(','))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    let mut sides = Vec::new();
    let mut lines = Vec::new();
    let mut known = Vec::new();
    for side in c.sides() {
        let text = c.roster(&side).unwrap_or_default();
        let units: Vec<String> = rosters::units(&text).into_iter().map(|u| u.id).collect();
        known.extend(units.iter().cloned());
        let (l, brought): (Vec<String>, Vec<String>) =
            units.into_iter().partition(|u| left.contains(u));
        sides.push(BattleSide {
            side: side.clone(),
            brought,
            left: l,
        });
        lines.push(format!(
            "army load {}",
            quote(&c.roster_path(&side).display().to_string())
        ));
    }
    if let Some(unknown) = left.iter().find(|l| !known.contains(l)) {
        return Err(CommandError::invalid(
            format!("no unit `{unknown}` in the campaign's rosters"),
            Some("`leave` takes ids of units in rosters/*.toml".into()),
            span_of(inv, "leave"),
        ));
    }
    if sides.is_empty() {
        return Err(CommandError::invalid(
            "the campaign has no rosters",
            Some(format!(
                "put each side's roster in {} (the format `army load` reads)",
                c.dir.join("rosters").display()
            )),
            span,
        ));
    }
    for (k, v) in &c.file.options {
        lines.insert(0, format!("option set {k} {}", toml_word(v)));
    }
    for l in &left {
        lines.push(format!("remove {l}"));
    }
    let carried = Story::carried(&c.entries().map_err(|e| failed(e, span))?);
    crate::engine::games::open_journal_at(ctx, &path, inv.line)?;
    // What the last battle's rules asked this one to know (the Heroes an adapter keeps in the
    // store), in the new game's store before its rules and rosters come.
    let mut carried_keys = Vec::new();
    for (script, values) in &carried {
        for (key, value) in values {
            ctx.state
                .change(|g| g.set_stored(script, key, Some(value.clone())))
                .map_err(|e| super::game::state_err(e, 0))?;
            carried_keys.push(format!("{script}.{key}"));
        }
    }
    ctx.state.resume = Some(crate::engine::rules::AskedRules {
        ruleset: c.file.ruleset.clone(),
        variant: c.file.variant.clone(),
        house: Some(c.file.house.clone()),
    });
    c.append(&Entry::BattleBegun {
        name: name.clone(),
        sides,
        at: now(),
    })
    .map_err(|e| failed(e, span))?;
    ctx.state.follow_up = lines;
    let text = Text::new()
        .push(Style::Strong, format!("battle `{name}`"))
        .plain(format!(
            " of campaign `{}` · journal {}{}",
            c.file.name,
            path.display(),
            if left.is_empty() {
                String::new()
            } else {
                format!(" · left out: {}", left.join(", "))
            }
        ));
    let text = if carried_keys.is_empty() {
        text
    } else {
        text.plain("\n").push(
            Style::Dim,
            format!("carried from the last battle: {}", carried_keys.join(", ")),
        )
    };
    Ok(Output::new("battle")
        .field("battle", name)
        .field("journal", path.display().to_string())
        .field("left", left)
        .text(text))
}

/// `battle end RESULT [plan]`.
fn battle_end(ctx: &mut Context<'_>, inv: &Invocation<'_>) -> Result<Output, CommandError> {
    let span = inv.line.rest_span();
    let c = open_campaign(ctx, inv.line.name.span)?;
    let Some(name) = c.open_battle().map_err(|e| failed(e, span))? else {
        return Err(CommandError::invalid(
            "no battle is in progress",
            Some("`battle new NAME` starts one".into()),
            inv.line.name.span,
        ));
    };
    if ctx.state.journal.path() != Some(c.battle_path(&name).as_path()) {
        return Err(CommandError::invalid(
            format!("the game being played is not battle `{name}`"),
            Some(format!("`campaign open {}` continues it", c.dir.display())),
            inv.line.name.span,
        ));
    }
    let result = inv
        .args
        .text("result")
        .unwrap_or_default()
        .trim()
        .to_string();
    let plan = inv.args.flag("plan");
    let saved = plan.then(|| ctx.state.game.clone());
    // The rules decide what carries over: their handlers change the game (journalled here).
    // Three steps: `battle_ends` for what the rules and house rules bring back or change (a
    // fallen Hero returns), then `carry_over` for the ruleset's clean-up of what does not
    // carry over (the lost taken out, one battle's state cleared), then `next_battle`, where
    // they record what the next battle's store must hold (`carry.NAME`).
    let fields = [("result", ArgValue::Value(Value::Text(result.clone())))];
    let mut call = crate::script::CallOutput::default();
    for event in ["battle_ends", "carry_over", "next_battle"] {
        let (_, c) = call_rules(
            ctx.state,
            reborrow(&mut ctx.entry),
            Call::Event(event),
            &fields,
            span,
        )?;
        call.checks.extend(c.checks);
        call.notes.extend(c.notes);
        call.output.extend(c.output);
        call.rolls.extend(c.rolls);
        call.answers.extend(c.answers);
        call.record.extend(c.record);
    }
    let begun = c
        .entries()
        .map_err(|e| failed(e, span))?
        .into_iter()
        .rev()
        .find_map(|e| match e {
            Entry::BattleBegun { name: n, sides, .. } if n == name => Some(sides),
            _ => None,
        })
        .unwrap_or_default();
    let game = &ctx.state.game;
    let lost = |u: &crate::state::game::Unit| game.strength(u).is_some_and(|s| s.value <= 0.0);
    let mut sides: Vec<String> = c.sides();
    for s in game.sides() {
        if !sides.contains(&s.id.to_string()) {
            sides.push(s.id.to_string());
        }
    }
    let (heroes, carried) = recorded(&call.record);
    let mut before = BTreeMap::new();
    let mut after = BTreeMap::new();
    let mut changes = Vec::new();
    let mut strength = Vec::new();
    let mut start = Vec::new();
    for side in &sides {
        let old = c.roster(side).unwrap_or_default();
        let new = if game.side(side).is_some() {
            let text = roster_text(game, side, &|u| !lost(u)).map_err(|e| failed(e, span))?;
            let left = begun
                .iter()
                .find(|b| &b.side == side)
                .map(|b| b.left.clone())
                .unwrap_or_default();
            rosters::put_back(&text, &old, &left)
        } else {
            old.clone()
        };
        changes.extend(rosters::changes(&old, &new));
        strength.push(side_strength(game, side, &new));
        if !old.is_empty() {
            start.push(side_strength(game, side, &old));
        }
        before.insert(side.clone(), old);
        after.insert(side.clone(), new);
    }
    let mut out = Output::new("battle");
    out = add_call(out, &call);
    // As a rules command's: shown by the blocks, made JSON only when asked for.
    out.checks = Some(std::mem::take(&mut call.checks));
    out.said = Some(Said {
        notes: std::mem::take(&mut call.notes),
        printed: std::mem::take(&mut call.output),
    });
    let mut text = Text::new().push(Style::Strong, format!("battle `{name}` ends: {result}"));
    for s in &strength {
        text = text.plain(format!(
            "\n  {:<12} {:>3} units{}",
            s.side,
            s.units,
            s.strength
                .map_or(String::new(), |v| format!(", strength {v}"))
        ));
    }
    for h in &heroes {
        text = text.plain(format!(
            "\n  {} ({}, {}): {}",
            h.name,
            h.side,
            h.kind,
            h.describe()
        ));
    }
    if changes.is_empty() {
        text = text.plain("\nthe rosters do not change");
    }
    for ch in &changes {
        text = text.plain("\n  ").push(Style::Dim, "→ ").plain(ch.clone());
    }
    out = out
        .field("battle", name.clone())
        .field("result", result.clone())
        .field("changes", changes.clone())
        .field("strength", json!(strength))
        .field("heroes", json!(heroes))
        .field("plan", plan);
    if let Some(game) = saved {
        // Only worked out: the game goes back as it was, nothing is written.
        ctx.state.game = game;
        ctx.state.pending.changes = crate::state::ChangeSet::new();
        text = text.plain("\n").push(
            Style::Dim,
            "plan: nothing written; adjust with `set`, `remove` or `add`, then `battle end RESULT`",
        );
        return Ok(out.text(text));
    }
    for (side, t) in &after {
        c.write_roster(side, t).map_err(|e| failed(e, span))?;
    }
    c.append(&Entry::BattleEnded {
        name: name.clone(),
        result: result.clone(),
        before,
        after,
        changes,
        strength,
        start,
        heroes,
        carried,
        at: now(),
    })
    .map_err(|e| failed(e, span))?;
    // A change in the game itself, so the end is a transaction `undo` can take back.
    ctx.state
        .change(|g| {
            g.set_stored(
                STORE,
                "ended",
                Some(json!({"battle": name, "result": result})),
            )
        })
        .map_err(|e| super::game::state_err(e, 0))?;
    text = text.plain(format!(
        "\nrosters written to {} · `undo` takes the end back",
        c.dir.join("rosters").display()
    ));
    Ok(out.text(text))
}

/// The campaign and its last battle's end, when transaction `r` (undone or redone) is a
/// battle's end: the one that stored the game's `ended` marker, whatever its words said.
fn reversed_end(ctx: &Context<'_>, r: &Reversal) -> Option<(Campaign, Entry)> {
    let marker = format!("store {STORE}.ended");
    if !r.changes.iter().any(|c| c.starts_with(&marker)) {
        return None;
    }
    let c = ctx.state.campaign.clone()?;
    let ended = c
        .entries()
        .ok()?
        .into_iter()
        .rev()
        .find(|e| matches!(e, Entry::BattleEnded { .. }))?;
    Some((c, ended))
}

/// Writes each side's roster text, or says which could not be written.
fn write_rosters(c: &Campaign, texts: &BTreeMap<String, String>) -> Result<(), Text> {
    for (side, text) in texts {
        c.write_roster(side, text).map_err(|e| {
            Text::new().push(Style::Error, format!("roster `{side}` not written: {e}"))
        })?;
    }
    Ok(())
}

/// After `undo` of a `battle end`: the rosters as they were before it, the battle going on.
pub fn undone(ctx: &mut Context<'_>, r: &Reversal) -> Option<Text> {
    let (c, Entry::BattleEnded { name, before, .. }) = reversed_end(ctx, r)? else {
        return None;
    };
    if let Err(t) = write_rosters(&c, &before) {
        return Some(t);
    }
    let _ = c.append(&Entry::BattleReopened {
        name: name.clone(),
        at: now(),
    });
    Some(Text::new().push(
        Style::Dim,
        format!("battle `{name}` goes on: the rosters are as they were before its end"),
    ))
}

/// After `redo` of a `battle end`: the rosters it wrote, written again.
pub fn redone(ctx: &mut Context<'_>, r: &Reversal) -> Option<Text> {
    let (c, mut again) = reversed_end(ctx, r)?;
    let Entry::BattleEnded {
        name, after, at, ..
    } = &mut again
    else {
        return None;
    };
    if let Err(t) = write_rosters(&c, after) {
        return Some(t);
    }
    *at = now();
    let said = format!("battle `{name}` ended again: its rosters written");
    let _ = c.append(&again);
    Some(Text::new().push(Style::Dim, said))
}

/// Side `side` of `game` as a roster, with only the units `keep` says yes to.
fn roster_text(
    game: &crate::state::Game,
    side: &str,
    keep: &dyn Fn(&crate::state::game::Unit) -> bool,
) -> Result<String, String> {
    let text = crate::state::write_roster_where(game, &[side], keep)?;
    Ok(format!(
        "# The roster of `{side}` in an umpire campaign: `battle end` rewrites it; edit it by hand\n# between battles if you like (the format `army load` reads).\n\n{text}"
    ))
}

/// A side's units and total strength in roster `text`.
fn side_strength(game: &crate::state::Game, side: &str, text: &str) -> SideStrength {
    let units = rosters::units(text);
    let attr = game.schema().status.strength.clone();
    let strength = attr.map(|a| {
        units
            .iter()
            .filter_map(|u| match u.table.get(&a) {
                Some(toml::Value::Integer(i)) => Some(*i as f64),
                Some(toml::Value::Float(f)) => Some(*f),
                // Not written: the schema's default.
                None => game.schema().unit.get(&a).and_then(|d| d.default.as_f64()),
                _ => None,
            })
            .sum()
    });
    SideStrength {
        side: side.to_string(),
        units: units.len(),
        strength,
    }
}

/// An option's value as TOML (`None` for what TOML cannot hold).
fn json_to_toml(v: &serde_json::Value) -> Option<toml::Value> {
    Some(match v {
        serde_json::Value::Bool(b) => toml::Value::Boolean(*b),
        serde_json::Value::Number(n) => match n.as_i64() {
            Some(i) => toml::Value::Integer(i),
            None => toml::Value::Float(n.as_f64()?),
        },
        serde_json::Value::String(s) => toml::Value::String(s.clone()),
        _ => return None,
    })
}

/// An option's value as `option set` takes it.
fn toml_word(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A path as one word of a command line.
fn quote(path: &str) -> String {
    if path.contains(char::is_whitespace) {
        format!("\"{path}\"")
    } else {
        path.to_string()
    }
}

/// Whether `dir` holds a campaign (the shell opens it when started there).
pub fn is_campaign(dir: &Path) -> bool {
    dir.join(crate::campaign::FILE).is_file()
}

/// What the rules recorded at a battle's end for the campaign: the heroes' fates (`heroes`)
/// and, by store name, what the next battle's store is to hold (`carry.NAME`). Records of
/// another shape are left alone (they are the rules' own, for programs).
fn recorded(
    record: &serde_json::Map<String, serde_json::Value>,
) -> (
    Vec<HeroFate>,
    BTreeMap<String, serde_json::Map<String, serde_json::Value>>,
) {
    let heroes = record
        .get("heroes")
        .and_then(|v| serde_json::from_value::<Vec<HeroFate>>(v.clone()).ok())
        .unwrap_or_default();
    let carried = record
        .iter()
        .filter_map(|(k, v)| {
            let name = k.strip_prefix("carry.")?;
            Some((name.to_string(), v.as_object()?.clone()))
        })
        .collect();
    (heroes, carried)
}
