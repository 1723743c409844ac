//! Long output through a pager: when the interactive shell prints more lines than the terminal
//! shows, the text goes to `$PAGER` (default `less -R`, with `LESS=FRXK` unless `LESS` is set:
//! colour passes, a short text quits at once, and Ctrl-C quits the pager rather than counting
//! towards the second Ctrl-C that leaves umpire). Never in `umpire run`, one-shot commands or
//! `--json`, never when stdout is not a terminal (a pipe, a file), and never with `--no-pager`
//! (or `UMPIRE_NO_PAGER=1`) or `PAGER=cat` / `PAGER=` (empty). A pager that cannot be started
//! is passed over: the text is printed as it is.
//!
//! [`wanted`] and [`command`] are the decisions, kept apart from the terminal so they can be
//! tested; [`page`] runs the pager.

use std::io::{self, IsTerminal, Write};
use std::process::{Command, Stdio};

/// Whether long output may go through a pager at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Paging {
    /// Never (`run`, one-shot commands, `--json`, `--no-pager`).
    #[default]
    Never,
    /// When the text is longer than the terminal and stdout is a terminal.
    Auto,
}

/// What the decision needs to know of the terminal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Screen {
    /// Whether stdout is a terminal (not a pipe or a file).
    pub tty: bool,
    /// Its height in lines, if known.
    pub rows: Option<usize>,
}

impl Screen {
    /// The terminal stdout writes to, as it is now.
    pub fn stdout() -> Screen {
        let out = io::stdout();
        let tty = out.is_terminal();
        let rows = if tty {
            terminal_size::terminal_size().map(|(_, h)| usize::from(h.0))
        } else {
            None
        };
        Screen { tty, rows }
    }
}

/// Whether `lines` lines of output go through the pager: paging on, stdout a terminal of
/// known height, and more lines than fit above the prompt.
pub fn wanted(paging: Paging, lines: usize, screen: Screen) -> bool {
    match (paging, screen.tty, screen.rows) {
        (Paging::Auto, true, Some(rows)) if rows > 0 => lines > rows.saturating_sub(1),
        _ => false,
    }
}

/// The pager to run, from the value of `PAGER`: itself, `less -R` when unset, none when it is
/// empty or `cat` (a pager that pages nothing).
pub fn command(pager_env: Option<&str>) -> Option<String> {
    match pager_env.map(str::trim) {
        None => Some("less -R".into()),
        Some("" | "cat") => None,
        Some(p) => Some(p.to_string()),
    }
}

/// Whether `UMPIRE_NO_PAGER` (any value but empty, `0` or `false`) turns paging off.
pub fn off_by_env(value: Option<&str>) -> bool {
    value.is_some_and(|v| !matches!(v.trim(), "" | "0" | "false"))
}

/// Shows `text` through the pager `cmd` (run by the shell, so it may carry arguments) and
/// waits for it to quit. Returns `false`, having shown nothing, when the pager cannot be
/// started; the caller then prints the text itself.
pub fn page(text: &str, cmd: &str) -> io::Result<bool> {
    let mut command = if cfg!(windows) {
        let mut words = cmd.split_whitespace();
        let mut c = Command::new(words.next().unwrap_or("more"));
        c.args(words);
        c
    } else {
        let mut c = Command::new("sh");
        c.arg("-c").arg(cmd);
        c
    };
    if std::env::var_os("LESS").is_none() {
        command.env("LESS", "FRXK");
    }
    let Ok(mut child) = command.stdin(Stdio::piped()).spawn() else {
        return Ok(false);
    };
    if let Some(mut stdin) = child.stdin.take() {
        // A pager quit before the end (`q`) closes the pipe: not an error.
        match stdin.write_all(text.as_bytes()) {
            Err(e) if e.kind() != io::ErrorKind::BrokenPipe => return Err(e),
            _ => {}
        }
    }
    let status = child.wait()?;
    // `sh -c` says 127 when the pager is not found: nothing was shown.
    Ok(status.code() != Some(127))
}

#[cfg(test)]
mod tests {
    use super::*;

    const TERMINAL: Screen = Screen {
        tty: true,
        rows: Some(40),
    };

    #[test]
    fn long_output_on_a_terminal_is_paged() {
        assert!(wanted(Paging::Auto, 200, TERMINAL));
        assert!(
            wanted(Paging::Auto, 40, TERMINAL),
            "the prompt needs a line"
        );
        assert!(!wanted(Paging::Auto, 39, TERMINAL));
    }

    #[test]
    fn never_when_off_or_not_a_terminal() {
        assert!(
            !wanted(Paging::Never, 200, TERMINAL),
            "run, --json, --no-pager"
        );
        let pipe = Screen {
            tty: false,
            rows: None,
        };
        assert!(!wanted(Paging::Auto, 200, pipe));
        let unknown = Screen {
            tty: true,
            rows: None,
        };
        assert!(!wanted(Paging::Auto, 200, unknown));
    }

    #[test]
    fn the_pager_comes_from_pager_or_is_less() {
        assert_eq!(command(None).as_deref(), Some("less -R"));
        assert_eq!(command(Some("most")).as_deref(), Some("most"));
        assert_eq!(command(Some("")), None);
        assert_eq!(command(Some("cat")), None);
    }

    #[test]
    fn umpire_no_pager_turns_it_off() {
        assert!(off_by_env(Some("1")));
        assert!(!off_by_env(Some("0")));
        assert!(!off_by_env(None));
    }

    #[cfg(unix)]
    #[test]
    fn a_pager_that_cannot_start_shows_nothing() {
        assert!(!page("text\n", "no-such-pager-for-umpire-tests").unwrap());
        assert!(page("text\n", "cat >/dev/null").unwrap());
    }
}
