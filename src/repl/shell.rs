//! The three ways commands arrive: the interactive REPL, `umpire run FILE|-`, and one-shot
//! `umpire roll` / `umpire prob`. All of them run lines through [`Session::execute`] and print
//! with one [`Printer`], as text or as one JSON object per command.

use std::io::{self, BufRead, Write};
use std::path::PathBuf;

use rustyline::error::ReadlineError;
use rustyline::history::FileHistory;
use rustyline::{CompletionType, Config, Editor};
use serde_json::{Map, Value, json};

use super::color::{Palette, Style};
use super::command::is_blank;
use super::entry::{ReplEntry, ScriptEntry, leftover_message};
use super::helper::ShellHelper;
use super::output::error_json;
use super::render;
use super::resume::Said;
use super::rules::AskedRules;
use super::script::Script;
use super::session::{Executed, Session};

/// The REPL prompt.
pub const PROMPT: &str = "umpire> ";

/// Prints results: text through the palette (errors to stderr), or JSON lines to stdout.
#[derive(Debug, Clone, Copy)]
pub struct Printer {
    /// One JSON object per command instead of text.
    pub json: bool,
    /// Colours for text on stdout.
    pub palette: Palette,
    /// Colours for errors on stderr.
    pub err_palette: Palette,
}

impl Printer {
    /// Prints the result of `line`. `location` is `(file, line number)` in `run` mode: text
    /// errors start with `FILE:LINE:` and JSON objects get a `"line"` field. Returns whether
    /// the command succeeded.
    pub fn print(
        &self,
        executed: &Executed,
        line: &str,
        location: Option<(&str, usize)>,
    ) -> io::Result<bool> {
        self.print_with(executed, line, location, Map::new())
    }

    /// [`print`](Self::print), adding `extra` fields to the JSON object (text is unchanged).
    pub fn print_with(
        &self,
        executed: &Executed,
        line: &str,
        location: Option<(&str, usize)>,
        extra: Map<String, Value>,
    ) -> io::Result<bool> {
        if self.json {
            let mut value = match executed {
                Ok(out) => out.to_json(),
                Err((name, err)) => error_json(name.as_deref(), err),
            };
            if let Value::Object(m) = &mut value {
                if let Some((_, n)) = location {
                    m.insert("line".into(), n.into());
                }
                m.extend(extra);
            }
            let mut stdout = io::stdout().lock();
            writeln!(stdout, "{value}")?;
            stdout.flush()?;
            return Ok(executed.is_ok());
        }
        match executed {
            Ok(out) => {
                let text = render::output(out, &self.palette);
                if !text.is_empty() {
                    let mut stdout = io::stdout().lock();
                    writeln!(stdout, "{text}")?;
                    stdout.flush()?;
                }
                Ok(true)
            }
            Err((_, err)) => {
                let loc = location.map(|(f, n)| format!("{f}:{n}"));
                let text = render::error(err, line, loc.as_deref(), &self.err_palette);
                // Flush what came before so the error lands after it in a shared terminal.
                io::stdout().flush()?;
                writeln!(io::stderr().lock(), "{text}")?;
                Ok(false)
            }
        }
    }

    /// Prints a note for the umpire: dim on stdout, or on stderr in JSON mode (stdout keeps
    /// one object per command).
    pub fn note(&self, message: &str) -> io::Result<()> {
        if self.json {
            return writeln!(io::stderr().lock(), "{message}");
        }
        let mut stdout = io::stdout().lock();
        writeln!(stdout, "{}", self.palette.style(Style::Dim, message))?;
        stdout.flush()
    }

    /// Prints `error: MESSAGE` on stderr, for a refusal that is no command's.
    pub fn refuse(&self, message: &str) -> io::Result<()> {
        io::stdout().flush()?;
        writeln!(
            io::stderr().lock(),
            "{} {message}",
            self.err_palette.style(Style::Error, "error:")
        )
    }

    /// Prints `[FILE:LINE: ]warning: MESSAGE` on stderr (in JSON mode too: stdout keeps one
    /// object per command).
    pub fn warn(&self, message: &str, location: Option<(&str, usize)>) -> io::Result<()> {
        let p = &self.err_palette;
        let mut text = String::new();
        if let Some((f, n)) = location {
            text.push_str(&p.style(Style::Strong, &format!("{f}:{n}: ")));
        }
        text.push_str(&p.style(Style::Help, "warning:"));
        text.push(' ');
        text.push_str(&crate::escape::escape(message));
        io::stdout().flush()?;
        writeln!(io::stderr().lock(), "{text}")
    }
}

/// Settings of `umpire run`.
#[derive(Debug, Clone, Copy, Default)]
pub struct RunOptions {
    /// Stop at the first failing command.
    pub stop_on_error: bool,
    /// Print each line (as `umpire> LINE`) before its output, like a transcript (text only).
    pub echo: bool,
}

/// Runs the commands of `script`; returns whether every command succeeded.
///
/// A line that is not valid UTF-8 fails as a command would, and the rest still run. Die
/// values refused while a command read its dice, and values left over after it, are warned
/// about (with their line) before its result; they do not fail the command.
pub fn run_script<R: BufRead>(
    session: &mut Session,
    script: &mut Script<R>,
    printer: &Printer,
    options: RunOptions,
) -> io::Result<bool> {
    let mut all_ok = true;
    let name = script.name().to_string();
    while let Some((n, text)) = script.next_line()? {
        if options.echo && !printer.json {
            let shown = text.as_ref().unwrap_or_else(|bad| &bad.lossy);
            let mut stdout = io::stdout().lock();
            if is_blank(shown) {
                writeln!(stdout, "{shown}")?;
            } else {
                writeln!(stdout, "{PROMPT}{shown}")?;
            }
        }
        let (executed, line, extra, put_back) = match text {
            Ok(line) => {
                let (executed, extra, put_back) =
                    execute_reading_dice(session, script, &line, printer)?;
                let Some(executed) = executed else { continue };
                (executed, line, extra, put_back)
            }
            Err(bad) => (Err((None, bad.error())), bad.lossy, Map::new(), None),
        };
        let ok = printer.print_with(&executed, &line, Some((&name, n)), extra)?;
        if let Some(put_back) = put_back {
            printer.warn(&put_back, Some((&name, n)))?;
        }
        all_ok &= ok;
        if (!ok && options.stop_on_error) || executed.is_ok_and(|o| o.quit) {
            break;
        }
    }
    Ok(all_ok)
}

/// What a command that read its dice from a `run` input gave: its result (`None` for a blank
/// line), extra JSON fields, and the warning to print after it, if any.
type ReadDice = (Option<Executed>, Map<String, Value>, Option<String>);

/// Runs `line` with entered dice read from the lines of `script` after it; warns about
/// refused and left-over values and returns them as JSON fields (`refused`, `leftover`,
/// `typed`), and, when the command failed after dice were typed for it, the warning that says
/// how to put them back (printed after the error).
fn execute_reading_dice<R: BufRead>(
    session: &mut Session,
    script: &mut Script<R>,
    line: &str,
    printer: &Printer,
) -> io::Result<ReadDice> {
    let name = script.name().to_string();
    let mut entry = ScriptEntry::new(script);
    let executed = session.execute(line, Some(&mut entry));
    let mut extra = Map::new();
    let failed = executed.as_ref().is_some_and(|e| e.is_err());
    let refused = entry.refused();
    for r in refused {
        printer.warn(
            &format!("{}; refused, the next value is taken instead", r.message),
            Some((&name, r.line)),
        )?;
    }
    if !refused.is_empty() {
        let list = refused
            .iter()
            .map(|r| json!({"line": r.line, "value": r.value, "message": r.message}))
            .collect();
        extra.insert("refused".into(), Value::Array(list));
    }
    let leftover = entry.leftover();
    let mut put_back = None;
    if failed {
        let values = leftover
            .as_ref()
            .map(|(_, v)| v.clone())
            .unwrap_or_default();
        put_back = session.put_back(&values);
        if put_back.is_some() {
            let mut typed: Vec<Value> = session.typed.iter().map(|&v| v.into()).collect();
            typed.extend(values.into_iter().map(Value::from));
            extra.insert("typed".into(), Value::Array(typed));
        }
    } else if let Some((n, values)) = leftover {
        printer.warn(&leftover_message(&values), Some((&name, n)))?;
        extra.insert("leftover".into(), json!(values));
    }
    Ok((executed, extra, put_back))
}

/// The seed a one-shot command rolled with.
#[derive(Debug, Clone, Copy)]
pub struct OneShotSeed {
    /// The generator's seed.
    pub seed: u64,
    /// Whether umpire chose it (no `--seed`): then it is shown on stderr.
    pub chosen: bool,
}

/// `umpire: seed N (pass --seed N to roll the same dice again)`, said on stderr when umpire
/// chose the seed.
pub fn seed_note(seed: u64) -> String {
    format!("umpire: seed {seed} (pass --seed {seed} to roll the same dice again)")
}

/// Runs one command line (`umpire roll …`); returns whether it succeeded. With `seed`, a
/// command that succeeded gets a `seed` field in JSON, and a seed umpire chose is shown on
/// stderr before the result (stdout stays the result alone).
pub fn one_shot(
    session: &mut Session,
    line: &str,
    printer: &Printer,
    seed: Option<OneShotSeed>,
) -> io::Result<bool> {
    let Some(executed) = session.execute(line, None) else {
        return Ok(true);
    };
    let mut extra = Map::new();
    if let (Some(s), Ok(_)) = (seed, &executed) {
        extra.insert("seed".into(), s.seed.into());
        if s.chosen {
            writeln!(io::stderr().lock(), "{}", seed_note(s.seed))?;
        }
    }
    printer.print_with(&executed, line, None, extra)
}

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
    let mut history = history.filter(|path| prepare_history(&mut editor, path, limit));

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
            printer.palette.style(super::color::Style::Strong, &banner)
        )?;
    }
    if !resume(session, asked, printer)? {
        return Ok(false);
    }
    let mut completing_generation = None;
    if let Err(e) = session.state.scripts.reloader.watch() {
        eprintln!("umpire: {e}; `reload` still works");
    }
    // Ctrl-C while a command runs stops a running script (the terminal is not in raw mode
    // then); a second Ctrl-C in the same command leaves, as usual.
    let control = session.state.scripts.control.clone();
    let _ = ctrlc::set_handler(move || {
        if control.interrupt() {
            std::process::exit(130);
        }
    });
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
        let line = match editor.readline(&prompt) {
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
        session.state.scripts.control.clear_interrupt();
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
    Ok(all_ok)
}

/// The REPL prompt: `umpire> `, or with rules `umpire demo#2> ` (the rules generation).
pub fn prompt(session: &Session) -> String {
    match &session.state.scripts.loaded {
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
            super::rules::reload_report(&result)
        )?;
        return Ok(());
    }
    match result {
        Ok(_) => writeln!(
            io::stdout().lock(),
            "{}",
            printer.palette.style(
                super::color::Style::Dim,
                &crate::escape::escape(&format!(
                    "rules reloaded · {}",
                    super::rules::summary(&session.state.scripts)
                ))
            )
        ),
        Err(e) => {
            let mut text = format!(
                "rules not reloaded, generation {} stays in force: {e}",
                session.state.scripts.generation()
            );
            if let Some(t) = &e.traceback {
                text.push('\n');
                text.push_str(t);
            }
            writeln!(
                io::stderr().lock(),
                "{}",
                printer
                    .err_palette
                    .style(super::color::Style::Error, &crate::escape::escape(&text))
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
