//! Printing results: text through the palette (errors and warnings to stderr), or one JSON
//! object per command on stdout; text longer than the terminal through a pager when
//! [`Printer::paging`] allows (see [`super::pager`]).

use std::io::{self, Write};

use serde_json::{Map, Value};

use crate::engine::output::error_json;
use crate::engine::render;
use crate::engine::session::Executed;
use crate::engine::{Palette, Style};

use super::pager::{self, Paging, Screen};

/// Prints results: text through the palette (errors to stderr), or JSON lines to stdout.
#[derive(Debug, Clone, Copy)]
pub struct Printer {
    /// One JSON object per command instead of text.
    pub json: bool,
    /// Colours for text on stdout.
    pub palette: Palette,
    /// Colours for errors on stderr.
    pub err_palette: Palette,
    /// Whether long text may go through a pager (the interactive shell only).
    pub paging: Paging,
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
                    if self.paging != Paging::Never && self.page(&text)? {
                        return Ok(true);
                    }
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

    /// Shows `text` through the pager if it is longer than the terminal (and paging is on);
    /// returns whether it did.
    fn page(&self, text: &str) -> io::Result<bool> {
        let lines = text.lines().count();
        if !pager::wanted(self.paging, lines, Screen::stdout()) {
            return Ok(false);
        }
        let Some(cmd) = pager::command(std::env::var("PAGER").ok().as_deref()) else {
            return Ok(false);
        };
        io::stdout().flush()?;
        pager::page(&format!("{text}\n"), &cmd)
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
