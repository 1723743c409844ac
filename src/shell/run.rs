//! Commands that do not come from the prompt: `umpire run FILE|-` (one command per line, typed
//! dice read from the lines after a command) and one-shot `umpire roll` / `umpire prob`.

use std::io::{self, BufRead, Write};

use serde_json::{Map, Value, json};

use super::entry::{ScriptEntry, leftover_message};
use super::input::Input;
use super::printer::Printer;
use super::repl::PROMPT;
use crate::engine::line::is_blank;
use crate::engine::session::{Executed, Session};

/// Settings of `umpire run`.
#[derive(Debug, Clone, Copy, Default)]
pub struct RunOptions {
    /// Stop at the first failing command.
    pub stop_on_error: bool,
    /// Print each line (as `umpire> LINE`) before its output, like a transcript (text only).
    pub echo: bool,
    /// The lines are all at hand (a file, not a pipe that may wait on someone): the live
    /// board is shown the latest state at most every `OBSERVER_GAP` rather than after each.
    pub burst: bool,
}

/// Runs the commands of `script`; returns whether every command succeeded.
///
/// A line that is not valid UTF-8 fails as a command would, and the rest still run. Die
/// values refused while a command read its dice, and values left over after it, are warned
/// about (with their line) before its result; they do not fail the command.
pub fn run_script<R: BufRead>(
    session: &mut Session,
    script: &mut Input<R>,
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
        // The result is shown: now the live board takes its snapshot (from a file, at most
        // every `OBSERVER_GAP`, and the last one when the file ends).
        if options.burst {
            session.catch_up();
        } else {
            session.catch_up_now();
        }
        if let Some(put_back) = put_back {
            printer.warn(&put_back, Some((&name, n)))?;
        }
        all_ok &= ok;
        if (!ok && options.stop_on_error) || executed.is_ok_and(|o| o.quit) {
            break;
        }
    }
    session.catch_up_now();
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
    script: &mut Input<R>,
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
