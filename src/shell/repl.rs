//! The interactive shell: rustyline with completion and hints, the banner, the prompt with the
//! rules generation, rules reloaded at the prompt when a file changed, and typed dice asked
//! for at the terminal. Every line goes to the engine's [`Session`] and is printed by the
//! [`Printer`].

use std::io::{self, Write};
use std::path::PathBuf;

use rustyline::error::ReadlineError;
use rustyline::history::FileHistory;
use rustyline::{CompletionType, Config, Editor};

use super::entry::{ReplEntry, leftover_message};
use super::helper::ShellHelper;
use super::printer::Printer;
use crate::engine::line::is_blank;
use crate::engine::resume::Said;
use crate::engine::rules::AskedRules;
use crate::engine::session::Session;

/// The REPL prompt.
pub const PROMPT: &str = "umpire> ";

/// The interactive REPL: brings back the game's rules (or sets up those `asked` for) after
/// the banner, then reads lines with rustyline until `quit` or Ctrl-D; `false` when the
/// rules asked for conflict with the game's (nothing else is done then). History is loaded
/// from and appended to `history` when given; a history file that cannot be read or written
/// is reported once and otherwise ignored.
pub fn repl(
    session: &mut Session,
    printer: &Printer,
    history: Option<PathBuf>,
    asked: &AskedRules,
) -> io::Result<bool> {
    let (mut editor, mut history) = editor(session, printer, history)?;
    banner(session, printer)?;
    if !resume(session, asked, printer)? {
        return Ok(false);
    }
    let mut completing_generation = None;
    if let Err(e) = session.state.rules.reloader.watch() {
        eprintln!("umpire: {e}; `reload` still works");
    }
    // Ctrl-C while a command runs stops a running script (the terminal is not in raw mode
    // then); a second Ctrl-C in the same command leaves, as usual.
    let control = session.state.rules.control.clone();
    let _ = ctrlc::set_handler(move || {
        if control.interrupt() {
            std::process::exit(130);
        }
    });
    // The line the rules propose next (OLAB's next set), offered at the prompt.
    let mut proposed: Option<String> = None;
    loop {
        report_reload(session, printer)?;
        // New rules bring new commands to complete.
        if let Some(helper) = editor.helper_mut()
            && completing_generation != Some(session.state.generation())
        {
            helper.registry = session.registry.clone();
            helper.words = session.vocabulary();
            completing_generation = Some(session.state.generation());
        }
        let prompt = prompt(session);
        let read = match proposed.take() {
            Some(p) => editor.readline_with_initial(&prompt, (&p, "")),
            None => editor.readline(&prompt),
        };
        let line = match read {
            Ok(line) => line,
            // Ctrl-C clears the line; Ctrl-D leaves.
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break,
            Err(e) => return Err(io::Error::other(e)),
        };
        if !is_blank(&line) {
            let _ = editor.add_history_entry(line.as_str());
            // Append as we go so a crash loses nothing typed before it; on failure say so
            // once and stop trying.
            if let Some(Err(e)) = history.as_ref().map(|path| editor.append_history(path)) {
                eprintln!("umpire: history no longer saved: {e}");
                history = None;
            }
        }
        // A file saved while the line was typed: the new rules answer it.
        report_reload(session, printer)?;
        session.state.rules.control.clear_interrupt();
        let (executed, leftover) = {
            let mut entry = ReplEntry::new(&mut editor);
            let executed = session.execute(&line, Some(&mut entry));
            (executed, entry.leftover())
        };
        let Some(executed) = executed else { continue };
        if let Some(helper) = editor.helper_mut() {
            helper.words = session.vocabulary();
        }
        printer.print(&executed, &line, None)?;
        // The result is shown: now the live board takes its snapshot.
        session.catch_up_now();
        proposed = executed.as_ref().ok().and_then(super::helper::proposal);
        // A terminal that cannot start the line with it (TERM=dumb) is told it instead.
        if let Some(p) = proposed.as_ref().filter(|_| !super::helper::can_prefill()) {
            printer.note(&format!("next: {p}"))?;
        }
        if executed.is_err() {
            if let Some(put_back) = session.put_back(&leftover) {
                printer.warn(&put_back, None)?;
            }
        } else if !leftover.is_empty() {
            printer.warn(&leftover_message(&leftover), None)?;
        }
        if executed.is_ok_and(|o| o.quit) {
            break;
        }
    }
    Ok(true)
}

/// The shell's line editor: rustyline with the shell's helper (completion and hints from
/// `session`), and the history file when it is usable (see [`prepare_history`]).
pub(super) fn editor(
    session: &Session,
    printer: &Printer,
    history: Option<PathBuf>,
) -> io::Result<(Editor<ShellHelper, FileHistory>, Option<PathBuf>)> {
    let config = Config::builder()
        .auto_add_history(false)
        .history_ignore_space(true)
        .history_ignore_dups(true)
        .map_err(io::Error::other)?
        .completion_type(CompletionType::List)
        .build();
    let mut editor: Editor<ShellHelper, FileHistory> =
        Editor::with_config(config).map_err(io::Error::other)?;
    let mut helper = ShellHelper::new(session.registry.clone(), printer.palette);
    helper.words = session.vocabulary();
    editor.set_helper(Some(helper));
    let limit = session.state.limits.file;
    let history = history.filter(|path| prepare_history(&mut editor, path, limit));

    Ok((editor, history))
}

/// Prints the banner: the version, the seed and the journal.
pub(super) fn banner(session: &Session, printer: &Printer) -> io::Result<()> {
    let journal = match session.state.journal.path() {
        Some(p) => format!(
            "journal {}",
            crate::escape::escape_line(&p.display().to_string())
        ),
        None => "no journal".to_string(),
    };
    let banner = format!(
        "umpire {} · seed {} · {journal}",
        env!("CARGO_PKG_VERSION"),
        session.state.dice.seed()
    );
    if printer.json {
        // Keep stdout to one JSON object per command.
        eprintln!("{banner}");
    } else {
        writeln!(
            io::stdout(),
            "{}",
            printer
                .palette
                .style(crate::engine::style::Style::Strong, &banner)
        )?;
    }
    Ok(())
}

/// Brings back the rules the game was played under, or sets up those `asked` for (see
/// [`Session::resume_rules`]), printing what it says; `false` when it refused (the error is
/// printed) or a command it ran failed.
pub fn resume(session: &mut Session, asked: &AskedRules, printer: &Printer) -> io::Result<bool> {
    let said = match session.resume_rules(asked) {
        Ok(said) => said,
        Err(refusal) => {
            printer.refuse(&refusal)?;
            return Ok(false);
        }
    };
    let mut all_ok = true;
    for s in said {
        match s {
            Said::Note(n) => printer.note(&n)?,
            Said::Warning(w) => printer.warn(&w, None)?,
            Said::Ran(line, executed) => all_ok &= printer.print(&executed, &line, None)?,
        }
    }
    // The rules brought back are the live board's to show too.
    session.notify();
    Ok(all_ok)
}

/// The REPL prompt: `umpire> `, or with rules `umpire demo#2> ` (the rules generation).
pub fn prompt(session: &Session) -> String {
    match &session.state.rules.loaded {
        Some(l) => format!(
            "umpire {}#{}> ",
            crate::escape::escape_line(l.rules.name.as_deref().unwrap_or("house")),
            l.rules.generation
        ),
        None => PROMPT.to_string(),
    }
}

/// Swaps in rules whose files changed, saying so (or why the old rules stay).
pub fn report_reload(session: &mut Session, printer: &Printer) -> io::Result<()> {
    let Some(result) = session.poll_rules() else {
        return Ok(());
    };
    if printer.json {
        writeln!(
            io::stdout().lock(),
            "{}",
            crate::engine::rules::reload_report(&result)
        )?;
        return Ok(());
    }
    match result {
        Ok(_) => writeln!(
            io::stdout().lock(),
            "{}",
            printer.palette.style(
                crate::engine::style::Style::Dim,
                &crate::escape::escape(&format!(
                    "rules reloaded · {}",
                    crate::engine::rules::summary(&session.state.rules)
                ))
            )
        ),
        Err(e) => {
            let mut text = format!(
                "rules not reloaded, generation {} stays in force: {e}",
                session.state.rules.generation()
            );
            if let Some(t) = &e.traceback {
                text.push('\n');
                text.push_str(t);
            }
            writeln!(
                io::stderr().lock(),
                "{}",
                printer.err_palette.style(
                    crate::engine::style::Style::Error,
                    &crate::escape::escape(&text)
                )
            )
        }
    }
}

/// Creates the history file's folder and loads it; false (after saying why) when unusable.
/// Only a regular file of at most `limit` bytes is used: a FIFO would hang the shell before
/// its first prompt, and a device such as `/dev/full` would be read without end.
fn prepare_history(
    editor: &mut Editor<ShellHelper, FileHistory>,
    path: &PathBuf,
    limit: usize,
) -> bool {
    if let Err(e) = crate::files::check(path, limit) {
        eprintln!("umpire: no history: {e}");
        return false;
    }
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    if let Some(Err(e)) = dir.map(std::fs::create_dir_all) {
        eprintln!(
            "umpire: no history: cannot create the folder of {}: {e}",
            path.display()
        );
        return false;
    }
    match editor.load_history(path) {
        Ok(()) => true,
        Err(ReadlineError::Io(e)) if e.kind() == io::ErrorKind::NotFound => true,
        Err(e) => {
            eprintln!("umpire: no history: cannot read {}: {e}", path.display());
            false
        }
    }
}
