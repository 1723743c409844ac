//! `odds N COMMAND …`: a command of the rules (or a built-in game command) run N times on
//! copies of the game with dice of its own, and what it did counted — checks, attributes,
//! markers, refusals, the answers used — each probability with its 95% interval; or two ways
//! side by side (a house rule on and off, an option set two ways, two commands) with the
//! difference and its interval.
//!
//! Nothing of the session changes: not the game, not the journal, not the session's dice
//! (the generator does not advance; typed and queued dice are not used). The runs are spread
//! over workers, each a scratch session with a Lua state of its own ([`sim`]); each run's
//! dice come from the call's seed and the run's number, so a seed gives the same counts
//! whatever the number of workers. Ctrl-C stops early and shows what was gathered.

pub mod memo;
mod show;
pub mod sim;

use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value as Json;

use crate::engine::error::{CommandError, CommandErrorKind};
use crate::engine::line::{self, Word};
use crate::engine::output::Output;
use crate::engine::registry::Invocation;
use crate::engine::session::{Context, State};
use crate::odds::Tally;
use crate::script::{Control, RuleSource};
use crate::span::Span;
use sim::{BUILTINS, Setup, Worker, run_seed};

/// The most runs one call may ask for (per side of a comparison).
pub const MAX_RUNS: u64 = 10_000_000;

/// Runs a worker takes at a time.
const CHUNK: u64 = 64;

/// What is compared, when two ways are.
#[derive(Debug, Clone, PartialEq)]
pub enum Compared {
    /// One way only.
    Nothing,
    /// A house rule: without it, then with it.
    House(String),
    /// An option: one value, then another.
    Option(String),
    /// Two commands.
    Commands,
}

/// One way of running: its label and what a worker needs.
#[derive(Debug, Clone)]
pub struct Variant {
    /// What it is called (`with club_aim`, `ko_plus = each`, the command line).
    pub label: String,
    /// The command line.
    pub line: String,
    /// The scratch session to build.
    pub setup: Setup,
}

/// A call of `odds`, parsed.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Runs asked for (of each variant).
    pub runs: u64,
    /// The seed of the call.
    pub seed: u64,
    /// Whether the seed was given.
    pub seeded: bool,
    /// How many workers at most.
    pub workers: usize,
    /// What is compared.
    pub compared: Compared,
    /// The variants: one, or two side by side.
    pub variants: Vec<Variant>,
    /// The answers given in the call, as typed.
    pub answers: Vec<String>,
    /// Whether to show the report as JSON (`--json`) rather than as text.
    pub json: bool,
}

/// What the runs gathered.
#[derive(Debug, Clone)]
pub struct Gathered {
    /// One tally per variant.
    pub tallies: Vec<Tally>,
    /// Whether Ctrl-C stopped the runs early.
    pub stopped: bool,
    /// How many workers ran.
    pub workers: usize,
    /// How many runs went through the rules (the others drew dice whose outcome was known).
    pub resolved: u64,
}

/// `odds N [--seed S] [--workers W] [--answer [WORDS=]CHOICE]… [--house NAME | --option
/// NAME=VALUE[,VALUE]] COMMAND ARGS… [vs COMMAND ARGS…]`.
pub fn odds(ctx: &mut Context<'_>, inv: &Invocation<'_>) -> Result<Output, CommandError> {
    let plan = plan(ctx, inv)?;
    let gathered = simulate(ctx.state, &plan)?;
    let out = show::output(&plan, &gathered);
    if plan.json {
        // The same as data, shown where the text would be.
        let text = serde_json::to_string_pretty(&out.to_json()).unwrap_or_default();
        return Ok(Output {
            blocks: vec![crate::engine::output::Block::Text(
                crate::engine::output::Text::from_plain(text),
            )],
            ..out
        });
    }
    Ok(out)
}

fn invalid(message: impl Into<String>, help: impl Into<String>, span: Span) -> CommandError {
    CommandError::invalid(message.into(), Some(help.into()), span)
}

/// A count typed with or without separators (`100000`, `100_000`, `100,000`).
fn count(word: &str) -> Option<u64> {
    let digits: String = word.chars().filter(|c| !matches!(c, '_' | ',')).collect();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// Reads the call's words into a [`Plan`], checking each command against the game.
fn plan(ctx: &mut Context<'_>, inv: &Invocation<'_>) -> Result<Plan, CommandError> {
    let whole = &inv.line.line;
    let Some(n_arg) = inv.args.get("n") else {
        return Err(CommandError::usage(
            "give how many runs, then the command",
            "odds N COMMAND ARGS…",
            Span::point(whole.trim_end().len()),
        ));
    };
    let n_text = inv.args.text("n").unwrap_or_default();
    let runs = count(n_text)
        .filter(|n| (1..=MAX_RUNS).contains(n))
        .ok_or_else(|| {
            invalid(
                format!("`{n_text}` is not a number of runs"),
                format!(
                    "give how many times to run the command, 1 to {}: `odds 10000 shoot …`",
                    crate::numbers::thousands(MAX_RUNS)
                ),
                n_arg.span,
            )
        })?;
    let Some(rest) = inv.args.get("command") else {
        return Err(CommandError::usage(
            "give the command to run after the number of runs",
            "odds N [--seed S] [--house NAME | --option NAME=VALUE] COMMAND ARGS… [vs COMMAND ARGS…]",
            Span::point(whole.trim_end().len()),
        ));
    };
    let words: Vec<Word> = line::split_words(&whole[rest.span.start..rest.span.end])
        .into_iter()
        .map(|w| Word {
            span: w.span.shift(rest.span.start),
            text: w.text,
        })
        .collect();
    let mut seed = None;
    let mut workers = None;
    let mut house: Option<(String, Span)> = None;
    let mut option: Option<(String, Span)> = None;
    let mut answers: Vec<String> = Vec::new();
    let mut memo = true;
    let mut json = false;
    let mut i = 0;
    while i < words.len() && words[i].text.starts_with("--") {
        let flag = &words[i];
        if flag.text == "--no-memo" || flag.text == "--json" {
            memo &= flag.text != "--no-memo";
            json |= flag.text == "--json";
            i += 1;
            continue;
        }
        let value = words.get(i + 1).ok_or_else(|| {
            invalid(
                format!("`{}` needs a value after it", flag.text),
                FLAGS_HELP,
                Span::point(flag.span.end),
            )
        })?;
        match flag.text.as_str() {
            "--seed" => {
                seed = Some(value.text.parse::<u64>().map_err(|_| {
                    invalid(
                        format!("`{}` is not a seed", value.text),
                        "a seed is a whole number from 0 to 18446744073709551615",
                        value.span,
                    )
                })?)
            }
            "--workers" => {
                workers = Some(
                    value
                        .text
                        .parse::<usize>()
                        .ok()
                        .filter(|w| (1..=256).contains(w))
                        .ok_or_else(|| {
                            invalid(
                                format!("`{}` is not a number of workers", value.text),
                                "give 1 to 256 (by default, one per core)",
                                value.span,
                            )
                        })?,
                )
            }
            "--house" => house = Some((value.text.clone(), value.span)),
            "--option" => option = Some((value.text.clone(), value.span)),
            "--answer" => answers.push(value.text.clone()),
            other => {
                return Err(invalid(
                    format!("`{other}` is not a flag of odds"),
                    FLAGS_HELP,
                    flag.span,
                ));
            }
        }
        i += 2;
    }
    let words = &words[i..];
    if words.is_empty() {
        return Err(CommandError::usage(
            "give the command to run after the number of runs (and the flags)",
            "odds N [--seed S] [--house NAME | --option NAME=VALUE] COMMAND ARGS… [vs COMMAND ARGS…]",
            Span::point(whole.trim_end().len()),
        ));
    }
    let vs = words.iter().position(|w| w.text == "vs");
    let (first, second) = match vs {
        Some(j) => (&words[..j], Some((&words[j], &words[j + 1..]))),
        None => (words, None),
    };
    let span_of = |ws: &[Word]| Span::new(ws[0].span.start, ws[ws.len() - 1].span.end);
    if first.is_empty() {
        return Err(invalid(
            "`vs` needs a command before it",
            "`odds 1000 shoot a b 12 vs ko a b 12`",
            words[0].span,
        ));
    }
    let given = [house.is_some(), option.is_some(), second.is_some()]
        .iter()
        .filter(|x| **x)
        .count();
    if given > 1 {
        return Err(invalid(
            "odds compares one thing at a time",
            "give one of `--house NAME`, `--option NAME=VALUE` or `… vs COMMAND`",
            rest.span,
        ));
    }
    let state = &*ctx.state;
    let base = Setup {
        answers: answers_given(&answers),
        memo,
        ..Setup::of(state, "")
    };
    let first_span = span_of(first);
    let first_line = whole[first_span.start..first_span.end].to_string();
    let with_line = |mut s: Setup, label: String, line: &str| {
        s.line = line.to_string();
        s.label = label.clone();
        Variant {
            label,
            line: line.to_string(),
            setup: s,
        }
    };
    let (compared, variants) = if let Some((name, span)) = house {
        let known = crate::engine::rules::house_rules_in(&state.rules.root);
        if !known.contains(&name) {
            return Err(invalid(
                format!("there is no house rule `{name}`"),
                if known.is_empty() {
                    "no house rules are found in the scripts folder".to_string()
                } else {
                    format!("the house rules are {}", known.join(", "))
                },
                span,
            ));
        }
        let mut without = base
            .rules
            .clone()
            .unwrap_or_else(|| RuleSource::new(&state.rules.root, None));
        without.house.retain(|h| *h != name);
        let mut with = without.clone();
        with.house.push(name.clone());
        let none = |s: &RuleSource| s.ruleset.is_none() && s.house.is_empty();
        let mut a = base.clone();
        a.rules = (!none(&without)).then_some(without);
        let mut b = base.clone();
        b.rules = Some(with);
        check_command(ctx, &first_line, first_span.start, true)?;
        (
            Compared::House(name.clone()),
            vec![
                with_line(a, format!("without {name}"), &first_line),
                with_line(b, format!("with {name}"), &first_line),
            ],
        )
    } else if let Some((text, span)) = option {
        let (a_value, b_value, name) = option_values(ctx.state, &text, span)?;
        check_command(ctx, &first_line, first_span.start, false)?;
        let mut a = base.clone();
        a.option = Some((name.clone(), a_value.clone()));
        let mut b = base.clone();
        b.option = Some((name.clone(), b_value.clone()));
        let show = crate::script::options::show;
        (
            Compared::Option(name.clone()),
            vec![
                with_line(a, format!("{name} = {}", show(&a_value)), &first_line),
                with_line(b, format!("{name} = {}", show(&b_value)), &first_line),
            ],
        )
    } else if let Some((vs_word, second)) = second {
        if second.is_empty() {
            return Err(invalid(
                "`vs` needs a command after it",
                "`odds 1000 shoot a b 12 vs ko a b 12`",
                vs_word.span,
            ));
        }
        let second_span = span_of(second);
        let second_line = whole[second_span.start..second_span.end].to_string();
        check_command(ctx, &first_line, first_span.start, false)?;
        check_command(ctx, &second_line, second_span.start, false)?;
        (
            Compared::Commands,
            vec![
                with_line(base.clone(), first_line.clone(), &first_line),
                with_line(base, second_line.clone(), &second_line),
            ],
        )
    } else {
        check_command(ctx, &first_line, first_span.start, false)?;
        (
            Compared::Nothing,
            vec![with_line(base, first_line.clone(), &first_line)],
        )
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let seeded = seed.is_some();
    Ok(Plan {
        runs,
        seed: seed.unwrap_or_else(crate::dice::source::fresh_seed),
        seeded,
        workers: workers.unwrap_or(cores),
        compared,
        variants,
        answers,
        json,
    })
}

const FLAGS_HELP: &str = "the flags of odds come before the command: `--seed S`, `--workers W`, `--answer [WORDS=]CHOICE`, `--no-memo`, `--json`, and one of `--house NAME` or `--option NAME=VALUE[,VALUE]`";

/// The answers given as `(words of the question, answer)`: `blocked` answers every question
/// that has the choice `blocked`; `"path clear=blocked"` only those whose text holds
/// `path clear`.
fn answers_given(answers: &[String]) -> Vec<(Option<String>, String)> {
    answers
        .iter()
        .map(|a| match a.rsplit_once('=') {
            Some((words, choice)) if !words.trim().is_empty() => {
                (Some(words.trim().to_lowercase()), choice.trim().to_string())
            }
            _ => (None, a.trim_start_matches('=').trim().to_string()),
        })
        .collect()
}

/// The two values of `--option NAME=VALUE` (the value in force, then VALUE) or of
/// `--option NAME=A,B`, checked against the option's declaration.
fn option_values(
    state: &State,
    text: &str,
    span: Span,
) -> Result<(Json, Json, String), CommandError> {
    let defs = state
        .rules
        .loaded
        .as_ref()
        .map(|l| l.rules.options.clone())
        .unwrap_or_default();
    let (name, values) = text.split_once('=').ok_or_else(|| {
        invalid(
            format!("`{text}` does not say what to set the option to"),
            "write `--option NAME=VALUE` (against the value in force) or `--option NAME=A,B`",
            span,
        )
    })?;
    let Some(def) = defs.iter().find(|d| d.name == name) else {
        let names: Vec<&str> = defs.iter().map(|d| d.name.as_str()).collect();
        return Err(invalid(
            format!("the rules in force have no option `{name}`"),
            if names.is_empty() {
                "the rules in force declare no options".to_string()
            } else {
                format!("their options are {} (`option list`)", names.join(", "))
            },
            span,
        ));
    };
    let parse = |word: &str| {
        def.parse(word).map_err(|e| {
            invalid(
                e.message.clone(),
                format!("`--option {}={}`", def.name, e.expected),
                span,
            )
        })
    };
    let mut parts = values.split(',');
    let (a, b) = match (parts.next(), parts.next(), parts.next()) {
        (Some(b), None, _) => {
            let set = crate::engine::options::stored_options(&state.game);
            let now = set
                .get(name)
                .cloned()
                .unwrap_or_else(|| def.default.clone());
            (now, parse(b)?)
        }
        (Some(a), Some(b), None) => (parse(a)?, parse(b)?),
        _ => {
            return Err(invalid(
                format!("`{text}` gives more than two values"),
                "compare two: `--option NAME=A,B`",
                span,
            ));
        }
    };
    Ok((a, b, def.name.clone()))
}

/// Checks a command line `odds` is to run against the session's commands and game: a clear
/// error under the right words now, rather than the same refusal in every run. A command
/// the rules in force lack is let through when `other_rules` (a house rule may bring it).
fn check_command(
    ctx: &Context<'_>,
    text: &str,
    offset: usize,
    other_rules: bool,
) -> Result<(), CommandError> {
    let shift = |mut e: CommandError| {
        e.span = e.span.map(|s| s.shift(offset));
        e
    };
    let Some(cmd) = line::parse(text) else {
        return Ok(());
    };
    let Some(spec) = ctx.registry.find(&cmd.name.text) else {
        if other_rules {
            return Ok(());
        }
        return Err(shift(CommandError::new(
            CommandErrorKind::UnknownCommand {
                name: cmd.name.text.clone(),
                suggestion: ctx.registry.nearest(&cmd.name.text).map(str::to_string),
                is_dice: false,
            },
            Some(cmd.name.span),
        )));
    };
    if !spec.from_rules() && !BUILTINS.contains(&spec.name.as_ref()) {
        let why = if spec.name == "prob" {
            "`prob` is exact already: type it without `odds`".to_string()
        } else {
            format!(
                "`odds` runs the rules' commands and the game commands {}; `{}` is not one",
                BUILTINS.join(", "),
                spec.name
            )
        };
        let help = if spec.name == "prob" {
            format!("`{}`", text.trim())
        } else {
            "`ruleset` lists the rules' commands".to_string()
        };
        return Err(shift(CommandError::invalid(why, Some(help), cmd.name.span)));
    }
    crate::engine::session::parse_args(spec, &cmd, ctx.state)
        .map(|_| ())
        .map_err(shift)
}

/// Runs the plan over the workers and gathers their tallies (one per variant).
fn simulate(state: &State, plan: &Plan) -> Result<Gathered, CommandError> {
    let kinds = plan.variants.len() as u64;
    let jobs = plan.runs * kinds;
    // A worker costs a Lua state with the rules loaded: few runs need few workers.
    let workers = plan
        .workers
        .min(usize::try_from(jobs.div_ceil(500)).unwrap_or(usize::MAX))
        .max(1);
    let interrupt = state.rules.control.clone();
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let controls: Vec<Arc<Control>> = (0..workers).map(|_| Control::new()).collect();
    let progress = std::io::stderr().is_terminal();
    let results = std::thread::scope(|s| {
        let seed = plan.seed;
        let handles: Vec<_> = controls
            .iter()
            .map(|control| {
                let (next, done, stop) = (&next, &done, &stop);
                let control = control.clone();
                // A game is not shared between threads: each worker gets copies of its own.
                let setups: Vec<Setup> = plan.variants.iter().map(|v| v.setup.clone()).collect();
                s.spawn(move || -> Result<(Vec<Tally>, u64), CommandError> {
                    let mut ws = Vec::new();
                    for setup in setups {
                        match Worker::new(setup, control.clone()) {
                            Ok(w) => ws.push(w),
                            Err(e) => {
                                stop.store(true, Ordering::Relaxed);
                                return Err(e);
                            }
                        }
                    }
                    let stopped = || stop.load(Ordering::Relaxed);
                    'work: loop {
                        let start = next.fetch_add(CHUNK, Ordering::Relaxed);
                        if start >= jobs {
                            break;
                        }
                        for j in start..(start + CHUNK).min(jobs) {
                            if stopped() {
                                break 'work;
                            }
                            let v = (j % kinds) as usize;
                            let run = j / kinds;
                            if ws[v].run(run, run_seed(seed, v, run), &stopped) {
                                done.fetch_add(1, Ordering::Relaxed);
                            }
                        }
                    }
                    let resolved = ws.iter().map(|w| w.resolved).sum();
                    Ok((ws.into_iter().map(|w| w.tally).collect(), resolved))
                })
            })
            .collect();
        let started = Instant::now();
        let mut shown = false;
        while !handles.iter().all(|h| h.is_finished()) {
            std::thread::sleep(Duration::from_millis(25));
            if interrupt.interrupted() && !stop.swap(true, Ordering::Relaxed) {
                for c in &controls {
                    c.interrupt();
                }
            }
            if progress && started.elapsed() > Duration::from_millis(700) {
                let d = done.load(Ordering::Relaxed);
                eprint!(
                    "\rodds: {} of {} runs · {:.1} s · Ctrl-C stops and shows what was gathered ",
                    crate::numbers::thousands(d),
                    crate::numbers::thousands(jobs),
                    started.elapsed().as_secs_f64()
                );
                shown = true;
            }
        }
        if shown {
            eprint!("\r\x1b[K");
        }
        handles
            .into_iter()
            .map(|h| {
                h.join().unwrap_or_else(|_| {
                    Err(CommandError::invalid(
                        "a worker of odds failed unexpectedly",
                        None,
                        Span::point(0),
                    ))
                })
            })
            .collect::<Vec<_>>()
    });
    let mut tallies: Vec<Tally> = vec![Tally::default(); plan.variants.len()];
    let mut resolved = 0;
    for r in results {
        let (ts, n) = r?;
        resolved += n;
        for (mine, t) in tallies.iter_mut().zip(ts) {
            mine.merge(t);
        }
    }
    Ok(Gathered {
        stopped: stop.load(Ordering::Relaxed),
        tallies,
        workers,
        resolved,
    })
}
