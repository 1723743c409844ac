//! The journal commands: `undo`, `redo`, `log`, `journal` (and `journal verify`), `save`,
//! `load`, `replay`.

use serde_json::json;

use crate::dice::render::fmt_value;
use crate::engine::commands::game::{read_file, state_err};
use crate::engine::error::CommandError;
use crate::engine::output::{Output, Text};
use crate::engine::registry::Invocation;
use crate::engine::session::Context;
use crate::engine::style::Style;
use crate::journal::{Journal, Reversal, Verified, verify_file};
use crate::state::{Change, Game};
use std::path::Path;

fn journal_err(e: impl std::fmt::Display) -> CommandError {
    CommandError::invalid(e.to_string(), None, Default::default())
}

/// An undo or redo that could not be journalled: the game was not changed.
fn reversal_err(e: crate::journal::ReplayError, name: &str) -> CommandError {
    use crate::journal::{JournalError, ReplayError};
    let help = match &e {
        ReplayError::File(JournalError::WriteFailed { .. }) => {
            Some("free some disk space or give another file with `--journal`".to_string())
        }
        _ => None,
    };
    CommandError::invalid(
        format!("{e}; the `{name}` was not done"),
        help,
        Default::default(),
    )
}

/// One undo or redo as text: `undone #12 shoot arc1 war7` and its changes; while a second
/// umpire is at the table (`by`, who typed the `undo`, is set, or the command was a joined
/// umpire's) whose command it was: `(typed by anna)`, `(typed by the host)`.
fn reversal_text(name: &str, verb: &str, r: &Reversal, by: Option<&str>) -> Text {
    let mut t = Text::new()
        .plain(format!("{verb} #{} ", r.tx))
        .push(Style::Strong, r.command.clone());
    match (&r.by, by) {
        (Some(who), _) => t = t.push(Style::Dim, format!(" (typed by {who})")),
        (None, Some(_)) => t = t.push(Style::Dim, " (typed by the host)"),
        (None, None) => {}
    }
    // A command that changed many units (`army load`, `mark side:red …`): the first few
    // changes and a count; `log #N all` (and the JSON) has each.
    const SHOWN: usize = 10;
    if r.changes.len() > SHOWN {
        t = t.push(
            Style::Dim,
            format!(
                "\n  {}\n  … and {} more changes (`log #{} all` lists each)",
                r.changes[..SHOWN].join("\n  "),
                r.changes.len() - SHOWN,
                r.tx
            ),
        );
    } else if !r.changes.is_empty() {
        t = t.push(Style::Dim, format!("\n  {}", r.changes.join("\n  ")));
    }
    if name == "undo" && r.rolls > 0 {
        t = t.push(
            Style::Dim,
            "\n  (its rolls stay in the journal, marked undone)",
        );
    }
    t
}

/// The count of `undo [N]` / `redo [N]` / `log [N]` (`default` without one): at least 1.
fn count(inv: &Invocation<'_>, default: usize) -> Result<usize, CommandError> {
    let n = inv
        .args
        .int("n")
        .or_else(|| inv.args.text("n").and_then(|t| t.parse().ok()));
    match (inv.args.get("n"), n) {
        (None, _) => Ok(default),
        (Some(arg), n) => n
            .and_then(|n| usize::try_from(n).ok())
            .filter(|&n| n >= 1)
            .ok_or_else(|| {
                let typed = &inv.line.line[arg.span.start..arg.span.end];
                CommandError::invalid(
                    format!("`{typed}` is not a count of commands"),
                    Some(format!("write `{0}` or `{0} 3`", inv.line.name.text)),
                    arg.span,
                )
            }),
    }
}

/// The `file` parameter as typed, with where it is.
struct FileArg {
    text: String,
    span: crate::span::Span,
}

fn file_arg(inv: &Invocation<'_>) -> FileArg {
    let arg = inv.args.get("file").expect("the signature requires FILE");
    FileArg {
        text: inv.args.text("file").unwrap_or_default().to_string(),
        span: arg.span,
    }
}

/// Whether transaction `tx` set up the game's rules (the first `ruleset use` or `house on`
/// of the game): undoing it would leave units under a schema no rules explain.
fn sets_up_rules(ctx: &Context<'_>, tx: u64) -> bool {
    match ctx.state.journal.record(tx).as_deref() {
        Some(crate::journal::Record::Tx(t)) => t.changes.iter().any(|c| {
            matches!(c, Change::SetStore { script, key, old: None, .. }
                if script == crate::engine::rules::RULES_SCRIPT && key == crate::engine::rules::RULES_KEY)
        }),
        _ => false,
    }
}

/// `undo [N]`: reverses the latest N commands still in force (one by default), stopping
/// before the set-up of the rules, which is never undone.
pub fn undo(ctx: &mut Context<'_>, inv: &Invocation<'_>) -> Result<Output, CommandError> {
    let n = count(inv, 1)?;
    let mut done = Vec::new();
    let mut t = Text::new();
    for i in 0..n {
        let Some(tx) = ctx.state.journal.next_undo() else {
            break;
        };
        if sets_up_rules(ctx, tx) {
            let why = format!(
                "#{tx} `{}` set up this game's rules and cannot be undone; `game new` starts a fresh game",
                tx_command(ctx, tx)
            );
            if i == 0 {
                return Err(CommandError::invalid(why, None, inv.line.name.span));
            }
            t = t.plain("\n").push(Style::Dim, format!("stopped: {why}"));
            break;
        }
        let state = &mut *ctx.state;
        let Some(r) = state
            .journal
            .undo(&mut state.game)
            .map_err(|e| reversal_err(e, "undo"))?
        else {
            break;
        };
        if i > 0 {
            t = t.plain("\n");
        }
        t = t.extend(reversal_text("undo", "undone", &r, ctx.state.by.as_deref()));
        if let Some(more) = super::campaign::undone(ctx, &r) {
            t = t.plain("\n").extend(more);
        }
        done.push(r);
    }
    finish("undo", done, t)
}

/// `redo [N]`: brings back the latest N commands undone (one by default).
pub fn redo(ctx: &mut Context<'_>, inv: &Invocation<'_>) -> Result<Output, CommandError> {
    let n = count(inv, 1)?;
    let mut done = Vec::new();
    let mut t = Text::new();
    for i in 0..n {
        let state = &mut *ctx.state;
        let Some(r) = state
            .journal
            .redo(&mut state.game)
            .map_err(|e| reversal_err(e, "redo"))?
        else {
            break;
        };
        if i > 0 {
            t = t.plain("\n");
        }
        t = t.extend(reversal_text("redo", "redone", &r, ctx.state.by.as_deref()));
        if let Some(more) = super::campaign::redone(ctx, &r) {
            t = t.plain("\n").extend(more);
        }
        done.push(r);
    }
    finish("redo", done, t)
}

/// The command line of transaction `tx`.
fn tx_command(ctx: &Context<'_>, tx: u64) -> String {
    match ctx.state.journal.record(tx).as_deref() {
        Some(crate::journal::Record::Tx(t)) => t.public_command().to_string(),
        _ => String::new(),
    }
}

/// The output of `undo`/`redo`: each reversal, or `nothing to undo`. JSON: `tx` (the first
/// one reversed, or null), `changes` (the first's), and `reversed` (every one).
fn finish(name: &str, done: Vec<Reversal>, t: Text) -> Result<Output, CommandError> {
    let Some(first) = done.first() else {
        return Ok(Output::new(name)
            .field("tx", serde_json::Value::Null)
            .field("reversed", json!([]))
            .text(Text::from_plain(format!("nothing to {name}"))));
    };
    let reversed: Vec<serde_json::Value> = done
        .iter()
        .map(|r| {
            let mut v = json!({"tx": r.tx, "command": r.command, "changes": r.changes});
            if let Some(who) = &r.by {
                v["by"] = json!(who);
            }
            v
        })
        .collect();
    Ok(Output::new(name)
        .field("tx", first.tx)
        .field("changes", json!(first.changes))
        .field("reversed", json!(reversed))
        .text(t))
}

/// `log [N|#TX] [all]`: the last N transactions (10 by default), or transaction TX, each as
/// the table saw it: its
/// command (as the players may see it) and what it printed, breakdowns and dice included. With
/// `all`, the bookkeeping too: every roll and every change with its reason (the store lines of
/// scripts, the defaults an army's units were given). A command that printed nothing (an
/// older journal's) shows its rolls and how many changes it made.
pub fn log(ctx: &mut Context<'_>, inv: &Invocation<'_>) -> Result<Output, CommandError> {
    let all = inv.args.flag("all");
    let recent = match inv.args.get("n") {
        Some(arg) if inv.args.text("n").is_some_and(|t| t.starts_with('#')) => {
            let typed = inv.args.text("n").unwrap_or_default();
            let journal = &ctx.state.journal;
            let tx = typed[1..]
                .parse::<u64>()
                .ok()
                .and_then(|seq| match journal.record(seq)? {
                    std::borrow::Cow::Owned(crate::journal::Record::Tx(t)) => {
                        Some((seq, std::borrow::Cow::Owned(t), journal.in_force(seq)))
                    }
                    std::borrow::Cow::Borrowed(crate::journal::Record::Tx(t)) => {
                        Some((seq, std::borrow::Cow::Borrowed(t), journal.in_force(seq)))
                    }
                    _ => None,
                })
                .ok_or_else(|| {
                    CommandError::invalid(
                        format!("`{typed}` is no command of this game's journal"),
                        Some("`log` lists the latest commands with their numbers".into()),
                        arg.span,
                    )
                })?;
            vec![tx]
        }
        _ => {
            let n = count(inv, 10)?;
            ctx.state.journal.recent(n).map_err(journal_err)?
        }
    };
    let mut t = Text::new();
    let mut entries = Vec::new();
    for (i, (seq, tx, in_force)) in recent.iter().enumerate() {
        if i > 0 {
            t = t.plain("\n");
        }
        t = t
            .push(Style::Dim, format!("#{seq} "))
            .push(Style::Strong, tx.public_command().to_string());
        if let Some(who) = &tx.by {
            t = t.push(Style::Dim, format!("  (typed by {who})"));
        }
        if !in_force {
            t = t.push(Style::Dim, "  (undone)");
        }
        if tx.umpire_only {
            t = t.push(Style::Dim, "  (for the umpire only)");
        }
        let printed = !tx.umpire_only && !tx.output.trim().is_empty();
        if printed {
            for line in tx.output.trim_end().lines() {
                t = t.plain(format!("\n  {line}"));
            }
        }
        if all || !printed {
            for r in &tx.rolls {
                t = t.plain(format!("\n  {} = {}", r.expr(), fmt_value(r.total)));
            }
        }
        if all {
            for c in &tx.changes {
                let line = c.to_string();
                t = t.push(Style::Dim, format!("\n  {line}"));
                if let Some(n) = tx.reasons.iter().find(|n| n.change == line) {
                    t = t.push(Style::Dim, format!(" — {}", n.reason));
                }
            }
        } else if !printed && !tx.changes.is_empty() {
            let n = tx.changes.len();
            t = t.push(
                Style::Dim,
                format!(
                    "\n  ({n} change{}: `log #{seq} all` lists {})",
                    if n == 1 { "" } else { "s" },
                    if n == 1 { "it" } else { "them" }
                ),
            );
        }
        entries.push(json!({
            "tx": seq,
            "command": tx.public_command(),
            "in_force": in_force,
            "output": (!tx.umpire_only).then(|| tx.output.clone()),
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

/// `journal` (where it is, how long), `journal verify [FILE]` (check the session's journal,
/// or another one, without opening it for writing).
pub fn journal(ctx: &mut Context<'_>, inv: &Invocation<'_>) -> Result<Output, CommandError> {
    let path = ctx.state.journal.path_buf();
    match inv.args.sub() {
        None => {
            let n = ctx.state.journal.len();
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
            let (p, span) = match (inv.args.get("file"), path) {
                (Some(w), _) => (
                    std::path::PathBuf::from(inv.args.text("file").unwrap_or_default()),
                    w.span,
                ),
                (None, Some(p)) => (p, inv.line.args[0].span),
                (None, None) => {
                    return Ok(Output::new("journal")
                        .field("verified", true)
                        .text(Text::from_plain(
                            "journal in memory only: nothing on disk to verify (`journal verify FILE` checks a journal file)",
                        )));
                }
            };
            let caps = ctx.state.limits.journal();
            let v = verify_file(&p, caps)
                .map_err(|e| CommandError::invalid(e.to_string(), None, span))?;
            Ok(verified_output(&p, &v))
        }
        Some(_) => unreachable!("the signature knows only `verify`"),
    }
}

/// What `journal verify` says, in text and JSON.
fn verified_output(path: &Path, v: &Verified) -> Output {
    let ok = v.is_intact();
    let damage = v.damage.as_ref();
    Output::new("journal")
        .field("file", path.display().to_string())
        .field("verified", ok)
        .field("entries", v.entries)
        .field("head", v.head.found())
        .field("torn_bytes", v.torn)
        .field("damage", damage.map(ToString::to_string))
        .field(
            "lost",
            match damage {
                Some(crate::journal::Damage::Lost { expected, found }) => {
                    Some(expected.saturating_sub(*found))
                }
                _ => None,
            },
        )
        .text(Text::new().push(if ok { Style::Strong } else { Style::Error }, v.to_string()))
}

/// `save FILE`: the whole game as JSON, written beside the file and renamed over it (through
/// a symlink to its target); never over something that is not a regular file.
pub fn save(ctx: &mut Context<'_>, inv: &Invocation<'_>) -> Result<Output, CommandError> {
    let w = file_arg(inv);
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
pub fn load(ctx: &mut Context<'_>, inv: &Invocation<'_>) -> Result<Output, CommandError> {
    let w = file_arg(inv);
    let text = read_file(inv, ctx.state.limits.file)?;
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
/// re-rolled), replacing the current one (undoable). A damaged journal is replayed up to the
/// damage, and the output says where it stopped: the way to bring back what a damaged
/// journal still holds.
pub fn replay(ctx: &mut Context<'_>, inv: &Invocation<'_>) -> Result<Output, CommandError> {
    let w = file_arg(inv);
    let caps = ctx.state.limits.journal();
    let r = Journal::replay_file(Path::new(&w.text), Game::default(), caps)
        .map_err(|e| CommandError::invalid(e.to_string(), None, w.span))?;
    let units = r.game.unit_count();
    let clock = r.game.clock_text();
    replace(ctx, r.game)?;
    let mut t = Text::from_plain(format!(
        "replayed {} entries from {}: {units} units, {clock}",
        r.entries, w.text
    ));
    let stopped = r.verified.damage.as_ref().map(|d| {
        if d.at_the_end() {
            format!("every entry in the file was replayed, but: {d}")
        } else {
            format!("stopped before the damage: {d}; nothing after it was replayed")
        }
    });
    if let Some(s) = &stopped {
        t = t.push(Style::Error, format!("\n{s}"));
    } else if !r.verified.head.found() {
        t = t.push(
            Style::Dim,
            "\n(no head record beside it: entries lost at its end could not be told)",
        );
    }
    Ok(Output::new("replay")
        .field("file", w.text.clone())
        .field("entries", r.entries)
        .field("complete", stopped.is_none())
        .field("stopped", stopped)
        .text(t))
}
