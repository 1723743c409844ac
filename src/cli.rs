//! The command line: flags and modes (clap), and [`run()`], which the binary calls.
//!
//! `umpire` starts the REPL; `umpire run FILE|-` runs commands from a file or stdin;
//! `umpire roll EXPR…` and `umpire prob EXPR…` run one command. Every mode builds one
//! [`Session`] and prints through one [`Printer`].

use std::io;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::dice::DiceBox;
use crate::dice::source::fresh_seed;
use crate::engine::Session;
use crate::engine::rules::AskedRules;
use crate::journal::Journal;
use crate::shell::input::Input;
use crate::shell::run::{self, OneShotSeed, RunOptions};
use crate::shell::{Printer, UseColor, repl};
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
    /// Never page long output in the shell (it goes through `$PAGER`, default `less -R`, when
    /// longer than the terminal; `run`, one-shot commands and --json never page).
    #[arg(long, global = true)]
    pub no_pager: bool,
    /// History file of the interactive shell (default: in the user data folder, e.g.
    /// ~/.local/share/umpire/history).
    #[arg(long, global = true, env = "UMPIRE_HISTORY", value_name = "FILE")]
    pub history: Option<PathBuf>,
    /// Journal to start or continue: every command that rolls or changes the game is appended
    /// and synced before its result is shown (default for the interactive shell: the game
    /// last played, kept in the user data folder, e.g.
    /// ~/.local/share/umpire/journals/2026-11-27.jsonl; `run` and one-shot commands keep none
    /// unless given one).
    #[arg(long, global = true, env = "UMPIRE_JOURNAL", value_name = "FILE")]
    pub journal: Option<PathBuf>,
    /// Keep no journal file (undo and redo still work within the session).
    #[arg(long, global = true, conflicts_with_all = ["journal", "game"])]
    pub no_journal: bool,
    /// The game to continue, or to start if there is none of that name, in the games folder
    /// (the shell's `game list` shows them; without this or --journal the shell continues
    /// the game last played).
    #[arg(long, global = true, value_name = "NAME", conflicts_with = "journal")]
    pub game: Option<String>,
    /// The campaign folder to open (`campaign new DIR` makes one): its battle in progress is
    /// continued. The shell started inside a campaign folder opens it without this.
    #[arg(long, global = true, value_name = "DIR", conflicts_with_all = ["journal", "game", "no_journal"])]
    pub campaign: Option<PathBuf>,
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
    /// Serve the live board to the players while the shell runs: on 127.0.0.1:8023 without
    /// ADDR; `--board 0.0.0.0` serves every phone on the club's network and prints the address
    /// to type, with a QR code (the shell's `board` command starts and stops it too). With
    /// `run`, put it after the file: `umpire run night.umpire --board`.
    #[arg(long, global = true, value_name = "ADDR", num_args = 0..=1, default_missing_value = "")]
    pub board: Option<String>,
    /// Let a second umpire join this shell from another laptop (`umpire join`): serves the
    /// live board on ADDR (127.0.0.1:8023 without one; `0.0.0.0` for the club's network) with
    /// the joining routes, and prints the token to give them. Their commands run in this
    /// session, one at a time, journalled with their name.
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "", conflicts_with = "board")]
    pub allow_join: Option<String>,
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
    /// Write the report of a battle from its journal: `umpire report night.jsonl night.html`.
    ///
    /// The format follows the report's extension: Markdown (`.md`, its charts as SVG files
    /// beside it) or one self-contained HTML page (`.html`). The journal is only read. Given
    /// a campaign folder instead, writes the campaign report.
    Report {
        /// The battle's journal, or a campaign folder.
        journal: PathBuf,
        /// The report to write (`.md` or `.html`).
        report: PathBuf,
    },
    /// Roll a dice expression once and exit: `umpire roll 4d6kh3`.
    Roll {
        /// The expression (several words are joined with spaces; `umpire roll -- -1d4` for one
        /// starting with a minus).
        #[arg(required = true, allow_negative_numbers = true, num_args = 1..)]
        expr: Vec<String>,
    },
    /// Join another umpire's game as the second umpire: `umpire join ADDR TOKEN --name anna`.
    ///
    /// ADDR and TOKEN are what the host's `umpire --allow-join` printed. Your commands run in
    /// the host's session, one at a time, journalled with your name; you see every result,
    /// yours and the host's; dice typed for your commands are asked here. Ctrl-D leaves; run it
    /// again to rejoin (nothing committed is lost).
    Join {
        /// The host's address, as printed (`http://192.168.1.20:8023`).
        addr: String,
        /// The token the host printed.
        token: String,
        /// Your name, as the journal records it (default: $USER).
        #[arg(long)]
        name: Option<String>,
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
        let report = crate::engine::rule_tests::run_paths(paths)?;
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
    if let Some(Mode::Report { journal, report }) = &args.mode {
        return report_mode(journal, report, &limits);
    }
    if let Some(Mode::Join { addr, token, name }) = &args.mode {
        let palette = if args.no_color {
            UseColor::Never
        } else {
            UseColor::Auto
        }
        .palette();
        return crate::live::client::join(addr, token, name.as_deref(), palette);
    }
    let allow_join = match &args.allow_join {
        Some(_) if args.mode.is_some() => {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "--allow-join lets a second umpire into the interactive shell: leave out the mode",
            ));
        }
        Some(a) => Some(
            crate::live::address::parse(Some(a))
                .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?,
        ),
        None => None,
    };
    let seed = args.seed.unwrap_or_else(fresh_seed);
    let games = crate::engine::games::games_dir();
    // A campaign: the one named, or the shell started in a campaign folder.
    let here = std::env::current_dir().ok();
    let campaign_dir = args.campaign.clone().or_else(|| {
        let bare = args.mode.is_none() && args.journal.is_none() && args.game.is_none();
        here.filter(|d| {
            bare && !args.no_journal && crate::engine::commands::campaign::is_campaign(d)
        })
    });
    let campaign = match &campaign_dir {
        Some(d) => Some(
            crate::campaign::Campaign::open(d)
                .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e.to_string()))?,
        ),
        None => None,
    };
    let battle = match &campaign {
        Some(c) => c
            .open_battle()
            .map_err(|e| io::Error::other(e.to_string()))?
            .map(|b| c.battle_path(&b)),
        None => None,
    };
    let journal_path = match (&args.journal, &args.game, args.no_journal, &args.mode) {
        _ if campaign.is_some() => battle,
        (Some(p), _, _, _) => Some(p.clone()),
        (None, Some(name), _, _) => {
            crate::engine::games::check_name(name)
                .map_err(|m| io::Error::new(io::ErrorKind::InvalidInput, m))?;
            let dir = games.clone().ok_or_else(|| {
                io::Error::other("no user data folder to keep games in: give `--journal FILE`")
            })?;
            Some(crate::engine::games::path_of(&dir, name))
        }
        (None, None, false, None) => games.as_deref().map(default_game),
        _ => None,
    };
    let mut session = match &journal_path {
        Some(path) => open_journal(path, seed, limits.journal())?,
        None => Session::new(DiceBox::seeded(seed)),
    };
    session.state.games_dir = games;
    session.state.campaign = campaign;
    session.set_limits(limits);
    session.set_rules_root(crate::engine::rules::rules_root(args.rules.as_deref()));
    let use_color = if args.no_color {
        UseColor::Never
    } else {
        UseColor::Auto
    };
    let printer = Printer {
        json: args.json,
        palette: use_color.palette(),
        err_palette: use_color.palette_for_stderr(),
        paging: if args.json
            || args.no_pager
            || args.mode.is_some()
            || crate::shell::pager::off_by_env(std::env::var("UMPIRE_NO_PAGER").ok().as_deref())
        {
            crate::shell::pager::Paging::Never
        } else {
            crate::shell::pager::Paging::Auto
        },
    };
    let asked = AskedRules {
        ruleset: args.ruleset.clone(),
        variant: args.variant.clone(),
        house: (!args.house.is_empty()).then(|| args.house.clone()),
    };
    if let Some(addr) = &args.board {
        start_board(&mut session, addr, &args.mode)?;
    }
    // The REPL brings the rules back after its banner; other modes stop if they do not load.
    if args.mode.is_some() && !repl::resume(&mut session, &asked, &printer)? {
        return Ok(ExitCode::from(2));
    }
    let ok = match args.mode {
        None => {
            let history = args.history.or_else(default_history);
            match allow_join {
                Some(addr) => {
                    crate::shell::hosting::host(&mut session, &printer, history, &asked, addr)?
                }
                None => repl::repl(&mut session, &printer, history, &asked)?,
            }
        }
        Some(Mode::Run {
            file,
            stop_on_error,
            echo,
        }) => {
            if args.seed.is_none() {
                eprintln!("{}", run::seed_note(seed));
            }
            let options = RunOptions {
                stop_on_error,
                echo,
                burst: file.as_os_str() != "-",
            };
            if file.as_os_str() == "-" {
                let mut script = Input::new("<stdin>".into(), io::stdin().lock());
                run::run_script(&mut session, &mut script, &printer, options)?
            } else {
                // A regular file only (`run -` reads a pipe), read whole under the file limit.
                let bytes = crate::files::read(&file, session.state.limits.file).map_err(|e| {
                    let kind = match &e {
                        crate::files::FileError::Io { source, .. } => source.kind(),
                        _ => io::ErrorKind::InvalidInput,
                    };
                    io::Error::new(kind, e.to_string())
                })?;
                let mut script = Input::new(file.display().to_string(), io::Cursor::new(bytes));
                run::run_script(&mut session, &mut script, &printer, options)?
            }
        }
        Some(Mode::Test { .. } | Mode::Report { .. } | Mode::Join { .. }) => {
            unreachable!("handled above")
        }
        Some(Mode::Roll { expr }) => {
            let seed = OneShotSeed {
                seed,
                chosen: args.seed.is_none(),
            };
            let line = format!("roll {}", expr.join(" "));
            run::one_shot(&mut session, &line, &printer, Some(seed))?
        }
        // Exact odds use no dice, so there is no seed to show.
        Some(Mode::Prob { expr }) => run::one_shot(
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

/// `--board [ADDR]`: starts the live board beside the shell (or `run`), saying on stderr where
/// players find it; refused with the one-shot modes, which end before anyone could look.
fn start_board(session: &mut Session, addr: &str, mode: &Option<Mode>) -> io::Result<()> {
    let invalid = |m: String| io::Error::new(io::ErrorKind::InvalidInput, m);
    if !matches!(mode, None | Some(Mode::Run { .. })) {
        return Err(invalid(
            "--board serves the live board beside the shell or `run`; a one-shot command ends at once".into(),
        ));
    }
    let addr = crate::live::address::parse(Some(addr)).map_err(invalid)?;
    let started = crate::live::command::start(&mut session.state, addr, None).map_err(invalid)?;
    eprintln!("umpire: {}", started.message());
    Ok(())
}

/// A session continuing (or starting) the journal at `path`: the game is rebuilt from it,
/// and the opening is recorded. Says on stderr where the journal is.
fn open_journal(
    path: &std::path::Path,
    seed: u64,
    caps: crate::journal::Caps,
) -> io::Result<Session> {
    let mut game = Game::default();
    let (mut journal, warning) =
        Journal::open(path, &mut game, caps).map_err(|e| io::Error::other(e.to_string()))?;
    if let Some(w) = warning {
        eprintln!("umpire: warning: {w}");
    }
    let entries = journal.len();
    journal
        .start_session(seed)
        .map_err(|e| io::Error::other(e.to_string()))?;
    let written = std::fs::metadata(path)
        .and_then(|m| m.modified())
        .map(crate::engine::games::local_time)
        .unwrap_or_default();
    eprintln!(
        "umpire: journal {} ({})",
        path.display(),
        if entries == 0 {
            "a new game".to_string()
        } else {
            format!(
                "continuing the game: {entries} entries, {} units, last written {written}",
                game.unit_count()
            )
        }
    );
    Ok(Session::with_journal(DiceBox::seeded(seed), journal, game))
}

/// The journal the shell opens without `--journal` or `--game`: the game last played in
/// `dir`, else a new one named by today's local date.
pub fn default_game(dir: &std::path::Path) -> PathBuf {
    use crate::engine::games;
    games::last_played(dir).map_or_else(
        || games::path_of(dir, &games::fresh_name(dir, &games::today())),
        |g| g.path,
    )
}

/// `<data dir>/umpire/history`, e.g. `~/.local/share/umpire/history` on Linux.
pub fn default_history() -> Option<PathBuf> {
    dirs::data_dir().map(|d| d.join("umpire").join("history"))
}

/// `umpire report JOURNAL REPORT`: reads the journal (without changing it) and writes its
/// report, or for a campaign folder the campaign report; says which files it wrote.
fn report_mode(
    journal: &std::path::Path,
    report: &std::path::Path,
    limits: &crate::limits::Limits,
) -> io::Result<ExitCode> {
    let fail = |e: crate::report::ReportError| {
        eprintln!("umpire: {}", crate::escape::escape(&e.to_string()));
        Ok(ExitCode::from(2))
    };
    if crate::report::render::Format::of(report).is_none() {
        return fail(crate::report::ReportError::Format(
            report.display().to_string(),
        ));
    }
    if journal.is_dir() {
        // A campaign folder: the campaign report.
        let written = crate::campaign::Campaign::open(journal)
            .map_err(|e| crate::report::ReportError::Campaign(e.to_string()))
            .and_then(|c| crate::report::campaign::CampaignReport::build(&c, limits.journal()))
            .and_then(|r| Ok((crate::report::render::write_campaign(&r, report)?, r)));
        return match written {
            Ok((files, r)) => {
                println!("{}", r.summary(&files));
                Ok(ExitCode::SUCCESS)
            }
            Err(e) => fail(e),
        };
    }
    let battle = match crate::report::from_file(journal, limits.journal()) {
        Ok(b) => b,
        Err(e) => return fail(e),
    };
    match crate::report::render::write(&battle, report) {
        Ok(files) => {
            println!("{}", crate::report::summary(&battle, &files));
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => fail(e),
    }
}
