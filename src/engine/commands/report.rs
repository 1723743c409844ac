//! `note TEXT` (the umpire's notes, kept in the game and so in the journal) and `report
//! PATH` (the battle being played, so far, as a Markdown or HTML report: `crate::report`).

use serde_json::json;

use crate::engine::commands::game::state_err;
use crate::engine::error::CommandError;
use crate::engine::output::{Output, Text};
use crate::engine::registry::Invocation;
use crate::engine::session::Context;
use crate::report::{Battle, NOTES_STORE};

/// `note TEXT`: one more note in the game's store (`umpire.notes`, one key a note), so it is
/// one journalled transaction, undone by `undo`, shown by `log` and in reports in its place.
pub fn note(ctx: &mut Context<'_>, inv: &Invocation<'_>) -> Result<Output, CommandError> {
    let text = inv.args.text("text").unwrap_or_default().trim().to_string();
    let n = ctx.state.game.store_of(NOTES_STORE).map_or(0, |s| s.len()) + 1;
    let clock = ctx.state.game.clock_text();
    ctx.state
        .change(|g| {
            g.set_stored(
                NOTES_STORE,
                &format!("{n:04}"),
                Some(json!({"text": text, "clock": clock})),
            )
        })
        .map_err(|e| state_err(e, 0))?;
    Ok(Output::new("note")
        .field("note", n)
        .field("text", text.clone())
        .text(Text::from_plain(format!("note {n}: {text}"))))
}

/// Refuses a report file whose extension names no format umpire writes (`span`: the word).
pub(crate) fn report_format(
    path: &std::path::Path,
    span: crate::span::Span,
) -> Result<(), CommandError> {
    if crate::report::render::Format::of(path).is_none() {
        return Err(CommandError::invalid(
            format!(
                "`{}`: a report is written as Markdown or HTML",
                path.display()
            ),
            Some("name a file ending in `.md` or `.html`".into()),
            span,
        ));
    }
    Ok(())
}

/// `report PATH`: the report of the game being played, from its journal as it stands
/// (undone commands left out), in the format PATH's extension asks for.
pub fn report(ctx: &mut Context<'_>, inv: &Invocation<'_>) -> Result<Output, CommandError> {
    let arg = inv.args.get("file").expect("the signature requires FILE");
    let span = arg.span;
    let path = std::path::PathBuf::from(inv.args.text("file").unwrap_or_default());
    let invalid = |e: &dyn std::fmt::Display| CommandError::invalid(e.to_string(), None, span);
    report_format(&path, span)?;
    let journal = &ctx.state.journal;
    let name = journal
        .path()
        .map_or_else(|| "battle".to_string(), crate::report::battle_name);
    let records: Vec<(u64, crate::journal::Record)> = (1..=journal.len())
        .filter_map(|seq| journal.record(seq).map(|r| (seq, r.into_owned())))
        .collect();
    let battle = Battle::build(
        name,
        records.iter().map(|(s, r)| (*s, r)),
        journal.history().applied(),
    )
    .map_err(|e| invalid(&e))?;
    let files = crate::report::render::write(&battle, &path).map_err(|e| invalid(&e))?;
    Ok(Output::new("report")
        .field("file", path.display().to_string())
        .field(
            "files",
            files
                .iter()
                .map(|f| f.display().to_string())
                .collect::<Vec<_>>(),
        )
        .field("commands", battle.transactions)
        .field("rounds", battle.rounds.len())
        .text(Text::from_plain(crate::report::summary(&battle, &files))))
}
