//! The command line: flags and modes (clap), and [`run`], which the binary calls.
//!
//! `umpire` starts the REPL; `umpire run FILE|-` runs commands from a file or stdin;
//! `umpire roll EXPR…` and `umpire prob EXPR…` run one command. Every mode builds one
//! [`Session`] and prints through one [`Printer`].

use std::io::{self, BufReader};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::dice::DiceBox;
use crate::dice::source::fresh_seed;
use crate::journal::{self, Journal};
use crate::repl::script::Script;
use crate::repl::shell::{self, OneShotSeed, Printer, RunOptions};
use crate::repl::{Palette, Session, UseColor};
use crate::state::Game;

/// umpire: dice, odds, tables and the whole game state for the umpire of a miniatures wargame.
#[derive(Debug, Parser)]
#[command(name = "umpire", version, about, long_about = None)]
pub struct Args {
    /// What to do; without one, the interactive shell starts.
    #[command(subcommand)]
    pub mode: Option<Mode>,
    /// Seed for the dice generator (a fresh one is chosen and shown otherwise).
    #[arg(long, global = true, value_name = "N")]
    pub seed: Option<u64>,
    /// Print one JSON object per command, on its own line (see docs/json.md).
    #[arg(long, global = true)]
    pub json: bool,
    /// Never colour the output (`NO_COLOR` does the same; colour needs a terminal anyway).
    #[arg(long, global = true)]
    pub no_color: bool,
    /// History file of the interactive shell (default: in the user data folder, e.g.
    /// ~/.local/share/umpire/history).
    #[arg(long, global = true, env = "UMPIRE_HISTORY", value_name = "FILE")]
    pub history: Option<PathBuf>,
    /// Journal to start or continue: every command that rolls or changes the game is appended
    /// and synced before its result is shown (default for the interactive shell: one per day
    /// in the user data folder, e.g. ~/.local/share/umpire/journals/2026-11-27.jsonl; `run`
    /// and one-shot commands keep none unless given one).
    #[arg(long, global = true, env = "UMPIRE_JOURNAL", value_name = "FILE")]
    pub journal: Option<PathBuf>,
    /// Keep no journal file (undo and redo still work within the session).
    #[arg(long, global = true, conflicts_with = "journal")]
    pub no_journal: bool,
    /// The rule system to load from `rulesets/NAME/` (see `ruleset list`).
    #[arg(long, global = true, value_name = "NAME")]
    pub ruleset: Option<String>,
    /// The ruleset's variant (an older edition, say) to load with --ruleset.
    #[arg(long, global = true, value_name = "VARIANT", requires = "ruleset")]
    pub variant: Option<String>,
    /// A house rule to switch on, from `scripts/NAME.lua` (repeat for several, in order).
    #[arg(long, global = true, value_name = "NAME")]
    pub house: Vec<String>,
    /// The folder holding `rulesets/` and `scripts/` (default: the current folder if it has
    /// `rulesets/`, else the folder umpire was built from).
    #[arg(long, global = true, env = "UMPIRE_RULES", value_name = "DIR")]
    pub rules: Option<PathBuf>,
    /// Change a limit for this session, such as `script-time=5s` or `store=128MiB`
    /// (repeatable; the shell's `limits` lists them all; env: comma-separated).
    #[arg(
        long = "limit",
        global = true,
        env = "UMPIRE_LIMITS",
        value_delimiter = ',',
        value_name = "NAME=VALUE"
    )]
    pub limits: Vec<String>,
}

/// The modes besides the interactive shell.
#[derive(Debug, Subcommand)]
pub enum Mode {
    /// Run the commands in FILE (`-` for stdin), one per line; `#` starts a comment line.
    ///
    /// A failing command is reported as `FILE:LINE: error: …` and the rest still run (unless
    /// --stop-on-error); the exit code is 1 when any command failed. In `dice mode enter`,
    /// the values of entered dice are read from the lines after the command.
    Run {
        /// The file of commands, or `-` for stdin.
        file: PathBuf,
        /// Stop at the first command that fails.
        #[arg(long)]
        stop_on_error: bool,
        /// Print each line before its output, as `umpire> LINE` (a transcript).
        #[arg(long)]
        echo: bool,
    },
    /// Run Lua rule tests: a test file, or every `.lua` file in the `tests/` folders under a
    /// folder (`umpire test rulesets`). Exits with 1 when any test fails.
    Test {
        /// Test files or folders.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Roll a dice expression once and exit: `umpire roll 4d6kh3`.
    Roll {
        /// The expression (several words are joined with spaces; `umpire roll -- -1d4` for one
        /// starting with a minus).
        #[arg(required = true, allow_negative_numbers = true, num_args = 1..)]
        expr: Vec<String>,
    },
    /// Print the exact odds of a dice expression and exit: `umpire prob '4d6kh3 >= 14'`.
    Prob {
        /// The expression (several words are joined with spaces).
        #[arg(required = true, allow_negative_numbers = true, num_args = 1..)]
        expr: Vec<String>,
    },
}

/// Runs umpire as the arguments say. `Ok` carries the exit code (1 when a command failed);
/// `Err` is a failure to start or to write output (the binary treats a broken pipe as success).
pub fn run(args: Args) -> io::Result<ExitCode> {
    if let Some(Mode::Test { paths }) = &args.mode {
        let report = crate::repl::rule_tests::run_paths(paths)?;
        // Test names and failures come from the rule files: shown with controls visible.
        println!("{}", crate::escape::escape(&report.to_string()));
        return Ok(if report.failed() == 0 {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        });
    }
    let mut limits = crate::limits::Limits::default();
    for l in &args.limits {
        limits
            .set(l)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e.to_string()))?;
    }
    let seed = args.seed.unwrap_or_else(fresh_seed);
    let journal_path = match (&args.journal, args.no_journal, &args.mode) {
        (Some(p), _, _) => Some(p.clone()),
        (None, false, None) => default_journal(),
        _ => None,
    };
    let mut session = match &journal_path {
        Some(path) => open_journal(path, seed)?,
        None => Session::new(DiceBox::seeded(seed)),
    };
    session.set_limits(limits);
    session.set_rules_root(crate::repl::rules::rules_root(args.rules.as_deref()));
    let use_color = if args.no_color {
        UseColor::Never
    } else {
        UseColor::Auto
    };
    let printer = Printer {
        json: args.json,
        palette: Palette::new(use_color),
        err_palette: Palette::for_stderr(use_color),
    };
    let mut startup = Vec::new();
    if let Some(r) = &args.ruleset {
        let variant = args
            .variant
            .as_deref()
            .map_or(String::new(), |v| format!(" {v}"));
        startup.push(format!("ruleset use {r}{variant}"));
    }
    startup.extend(args.house.iter().map(|h| format!("house on {h}")));
    if startup.is_empty() {
        startup = crate::repl::rules::remembered_rules(&session.state.game);
        if !startup.is_empty() {
            eprintln!("umpire: loading the rules the journal was played under");
        }
    }
    // The REPL runs these after its banner; other modes stop if the rules do not load.
    if args.mode.is_some() && !shell::run_startup(&mut session, &startup, &printer)? {
        return Ok(ExitCode::FAILURE);
    }
    let ok = match args.mode {
        None => {
            let history = args.history.or_else(default_history);
            shell::repl(&mut session, &printer, history, &startup)?;
            true
        }
        Some(Mode::Run {
            file,
            stop_on_error,
            echo,
        }) => {
            if args.seed.is_none() {
                eprintln!("{}", shell::seed_note(seed));
            }
            let options = RunOptions {
                stop_on_error,
                echo,
            };
            if file.as_os_str() == "-" {
                let mut script = Script::new("<stdin>".into(), io::stdin().lock());
                shell::run_script(&mut session, &mut script, &printer, options)?
            } else {
                let f = std::fs::File::open(&file).map_err(|e| {
                    io::Error::new(e.kind(), format!("cannot read {}: {e}", file.display()))
                })?;
                let mut script = Script::new(file.display().to_string(), BufReader::new(f));
                shell::run_script(&mut session, &mut script, &printer, options)?
            }
        }
        Some(Mode::Test { .. }) => unreachable!("handled above"),
        Some(Mode::Roll { expr }) => {
            let seed = OneShotSeed {
                seed,
                chosen: args.seed.is_none(),
            };
            let line = format!("roll {}", expr.join(" "));
            shell::one_shot(&mut session, &line, &printer, Some(seed))?
        }
        // Exact odds use no dice, so there is no seed to show.
        Some(Mode::Prob { expr }) => shell::one_shot(
            &mut session,
            &format!("prob {}", expr.join(" ")),
            &printer,
            None,
        )?,
    };
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// A session continuing (or starting) the journal at `path`: the game is rebuilt from it,
/// and the opening is recorded. Says on stderr where the journal is.
fn open_journal(path: &std::path::Path, seed: u64) -> io::Result<Session> {
    let mut game = Game::default();
    let (mut journal, warning) =
        Journal::open(path, &mut game).map_err(|e| io::Error::other(e.to_string()))?;
    if let Some(w) = warning {
        eprintln!("umpire: warning: {w}");
    }
    let entries = journal.records().len();
    journal
        .start_session(seed)
        .map_err(|e| io::Error::other(e.to_string()))?;
    eprintln!(
        "umpire: journal {} ({})",
        path.display(),
        if entries == 0 {
            "new".to_string()
        } else {
            format!(
                "continuing after {entries} entries, {} units",
                game.unit_count()
            )
        }
    );
    Ok(Session::with_journal(DiceBox::seeded(seed), journal, game))
}

/// Today's journal in the user data folder: `<data dir>/umpire/journals/YYYY-MM-DD.jsonl`.
pub fn default_journal() -> Option<PathBuf> {
    let days = (journal::now() / 86_400) as i64;
    let (y, m, d) = civil_from_days(days);
    dirs::data_dir().map(|dir| {
        dir.join("umpire")
            .join("journals")
            .join(format!("{y:04}-{m:02}-{d:02}.jsonl"))
    })
}

/// The calendar date of a day count since 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// `<data dir>/umpire/history`, e.g. `~/.local/share/umpire/history` on Linux.
pub fn default_history() -> Option<PathBuf> {
    dirs::data_dir().map(|d| d.join("umpire").join("history"))
}

#[cfg(test)]
mod tests {
    use super::civil_from_days;

    #[test]
    fn day_counts_become_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_784), (2026, 11, 27));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }
}
