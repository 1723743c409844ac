//! The journal commands: `undo`, `redo`, `log`, `journal` (and `journal verify`), `save`,
//! `load`, `replay`.

use serde_json::json;

use super::color::Style;
use super::command::Command;
use super::error::CommandError;
use super::game_commands::{read_file, state_err};
use super::output::{Output, Text};
use super::session::Context;
use crate::dice::render::fmt_value;
use crate::journal::{Journal, Reversal, Verified, verify_file};
use crate::state::{Change, Game};
use std::path::Path;

fn journal_err(e: impl std::fmt::Display) -> CommandError {
    CommandError::invalid(e.to_string(), None, Default::default())
}

fn reversal_output(name: &str, verb: &str, r: Option<Reversal>) -> Output {
    let Some(r) = r else {
        return Output::new(name)
            .field("tx", serde_json::Value::Null)
            .text(Text::from_plain(format!("nothing to {name}")));
    };
    let mut t = Text::new()
        .plain(format!("{verb} #{} ", r.tx))
        .push(Style::Strong, r.command.clone());
    if !r.changes.is_empty() {
        t = t.push(Style::Dim, format!("\n  {}", r.changes.join("\n  ")));
    }
    if name == "undo" && r.rolls > 0 {
        t = t.push(
            Style::Dim,
            "\n  (its rolls stay in the journal, marked undone)",
        );
    }
    Output::new(name)
        .field("tx", r.tx)
        .field("changes", json!(r.changes))
        .text(t)
}

/// `undo`: reverses the latest command still in force.
pub fn undo(ctx: &mut Context<'_>, _cmd: &Command) -> Result<Output, CommandError> {
    let state = &mut *ctx.state;
    let r = state.journal.undo(&mut state.game).map_err(journal_err)?;
    Ok(reversal_output("undo", "undone", r))
}

/// `redo`: brings back the latest command undone.
pub fn redo(ctx: &mut Context<'_>, _cmd: &Command) -> Result<Output, CommandError> {
    let state = &mut *ctx.state;
    let r = state.journal.redo(&mut state.game).map_err(journal_err)?;
    Ok(reversal_output("redo", "redone", r))
}

/// `log [N]`: the last N transactions (10 by default), each with its rolls.
pub fn log(ctx: &mut Context<'_>, cmd: &Command) -> Result<Output, CommandError> {
    let n = match cmd.args.first() {
        None => 10,
        Some(w) => w.text.parse::<usize>().map_err(|_| {
            CommandError::invalid(
                format!("`{}` is not a count", w.text),
                Some("write `log` or `log 20`".into()),
                w.span,
            )
        })?,
    };
    let recent = ctx.state.journal.recent(n);
    let mut t = Text::new();
    let mut entries = Vec::new();
    for (i, (seq, tx, in_force)) in recent.iter().enumerate() {
        if i > 0 {
            t = t.plain("\n");
        }
        t = t
            .push(Style::Dim, format!("#{seq} "))
            .push(Style::Strong, tx.command.clone());
        if !in_force {
            t = t.push(Style::Dim, "  (undone)");
        }
        for r in &tx.rolls {
            t = t.plain(format!("\n  {} = {}", r.expr(), fmt_value(r.total)));
        }
        for c in &tx.changes {
            let line = c.to_string();
            t = t.push(Style::Dim, format!("\n  {line}"));
            if let Some(n) = tx.reasons.iter().find(|n| n.change == line) {
                t = t.push(Style::Dim, format!(" — {}", n.reason));
            }
        }
        entries.push(json!({
            "tx": seq,
            "command": tx.command,
            "in_force": in_force,
            "rolls": tx.rolls,
            "changes": tx.changes.iter().map(ToString::to_string).collect::<Vec<_>>(),
            "reasons": tx.reasons,
        }));
    }
    if recent.is_empty() {
        t = t.plain("no commands journalled yet");
    }
    Ok(Output::new("log").field("entries", json!(entries)).text(t))
}

/// `journal` (where it is, how long) and `journal verify` (check the hash chain).
pub fn journal(ctx: &mut Context<'_>, cmd: &Command) -> Result<Output, CommandError> {
    let path = ctx.state.journal.path_buf();
    match cmd.args.first().map(|w| w.text.as_str()) {
        None => {
            let n = ctx.state.journal.records().len();
            let text = match &path {
                Some(p) => format!("journal {} · {n} entries", p.display()),
                None => format!(
                    "journal in memory only (start with `--journal FILE` to keep one) · {n} entries"
                ),
            };
            Ok(Output::new("journal")
                .field("path", path.map(|p| p.display().to_string()))
                .field("entries", n)
                .text(Text::from_plain(text)))
        }
        Some("verify") => {
            let Some(p) = path else {
                return Ok(Output::new("journal")
                    .field("verified", true)
                    .text(Text::from_plain(
                        "journal in memory only: nothing on disk to verify",
                    )));
            };
            let v = verify_file(&p).map_err(journal_err)?;
            let (ok, text) = match &v {
                Verified::Intact { entries } => (
                    true,
                    format!("journal intact: {entries} entries, chain verified"),
                ),
                Verified::Altered { seq, line, why } => (
                    false,
                    format!("journal altered: entry #{seq} (line {line}) {why}"),
                ),
            };
            Ok(Output::new("journal")
                .field("verified", ok)
                .text(Text::new().push(if ok { Style::Strong } else { Style::Error }, text)))
        }
        Some(other) => Err(CommandError::usage(
            format!("unknown `journal` action `{other}`"),
            "journal · journal verify",
            cmd.args[0].span,
        )),
    }
}

/// `save FILE`: the whole game as JSON, written beside the file and renamed over it (through
/// a symlink to its target); never over something that is not a regular file.
pub fn save(ctx: &mut Context<'_>, cmd: &Command) -> Result<Output, CommandError> {
    let Some(w) = cmd.args.first() else {
        return Err(CommandError::usage(
            "`save` needs a file name",
            "save FILE",
            cmd.rest_span(),
        ));
    };
    let text = serde_json::to_string_pretty(&ctx.state.game).map_err(journal_err)?;
    crate::files::replace(Path::new(&w.text), text.as_bytes())
        .map_err(|e| CommandError::invalid(e.to_string(), None, w.span))?;
    Ok(Output::new("save")
        .field("file", w.text.clone())
        .text(Text::from_plain(format!(
            "saved {} units to {}",
            ctx.state.game.unit_count(),
            w.text
        ))))
}

/// Replaces the whole game, as one undoable change.
fn replace(ctx: &mut Context<'_>, new: Game) -> Result<(), CommandError> {
    ctx.state
        .change(|g| {
            let c = Change::Replace {
                old: Box::new(g.clone()),
                new: Box::new(new),
            };
            g.apply(&c)?;
            Ok(c)
        })
        .map_err(|e| state_err(e, 0))
}

/// `load FILE`: a game saved with `save` (undoable).
pub fn load(ctx: &mut Context<'_>, cmd: &Command) -> Result<Output, CommandError> {
    let Some(w) = cmd.args.first() else {
        return Err(CommandError::usage(
            "`load` needs a file name",
            "load FILE",
            cmd.rest_span(),
        ));
    };
    let text = read_file(w, ctx.state.limits.file)?;
    let game: Game = serde_json::from_str(&text).map_err(|e| {
        CommandError::invalid(
            format!(
                "`{}` is not a saved game: line {}, column {}: {e}",
                w.text,
                e.line(),
                e.column()
            ),
            Some("load a file written by `save`; rosters are loaded with `army load`".into()),
            w.span,
        )
    })?;
    game.check().map_err(|e| state_err(e, 0))?;
    let units = game.unit_count();
    replace(ctx, game)?;
    Ok(Output::new("load")
        .field("file", w.text.clone())
        .text(Text::from_plain(format!(
            "loaded {units} units from {}",
            w.text
        ))))
}

/// `replay FILE`: the game a journal describes, rebuilt from its records (nothing is
/// re-rolled), replacing the current one (undoable).
pub fn replay(ctx: &mut Context<'_>, cmd: &Command) -> Result<Output, CommandError> {
    let Some(w) = cmd.args.first() else {
        return Err(CommandError::usage(
            "`replay` needs a journal file",
            "replay FILE",
            cmd.rest_span(),
        ));
    };
    let (game, entries) = Journal::replay_file(std::path::Path::new(&w.text), Game::default())
        .map_err(journal_err)?;
    let units = game.unit_count();
    let clock = game.clock_text();
    replace(ctx, game)?;
    Ok(Output::new("replay")
        .field("file", w.text.clone())
        .field("entries", entries)
        .text(Text::from_plain(format!(
            "replayed {entries} entries from {}: {units} units, {clock}",
            w.text
        ))))
}
