//! One worker of `odds`: a scratch session of its own (its own Lua state with the rules
//! loaded, a copy of the game, its own budgets and dice), the command parsed once, and each
//! run made and then taken back in place — the changes rolled back, nothing journalled,
//! nothing rendered — with what it did counted in a [`Tally`].

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::Value as Json;

use super::memo::{self, Memo, Walk};
use crate::dice::{Caps, DiceBox, DiceMode, DieEntry, DieRequest, ExactOptions, Faces};
use crate::engine::error::CommandError;
use crate::engine::events;
use crate::engine::line::{self, CommandLine};
use crate::engine::output::{Block, Output};
use crate::engine::registry::{Invocation, Run};
use crate::engine::rule_commands::{self, Call, call_rules};
use crate::engine::session::{Context, Pending, Session};
use crate::engine::signature::Args;
use crate::journal::Journal;
use crate::odds::{Bucket, RunOutcome, Tally};
use crate::question::Question;
use crate::script::{ArgValue, Control, RuleSource};
use crate::state::{Change, Game};
use crate::tables::TableSet;

/// Everything a worker needs to build its scratch session for one variant: made by the
/// command on the session's thread, sent to the worker's.
#[derive(Debug, Clone)]
pub struct Setup {
    /// A copy of the game.
    pub game: Game,
    /// The tables loaded with `table load`.
    pub tables: TableSet,
    /// The session's limits (the script budgets among them).
    pub limits: crate::limits::Limits,
    /// Caps on rolls.
    pub dice_caps: Caps,
    /// Settings for exact odds.
    pub exact: ExactOptions,
    /// The folder holding `rulesets/` and `scripts/`.
    pub root: PathBuf,
    /// The rules to load (`None`: none).
    pub rules: Option<RuleSource>,
    /// An option set another way for this variant: its name and value.
    pub option: Option<(String, Json)>,
    /// The command line to run.
    pub line: String,
    /// Answers given in the call: words of the question (lower case; `None`: any) and the
    /// answer.
    pub answers: Vec<(Option<String>, String)>,
    /// What the variant is called in messages (`with club_aim`).
    pub label: String,
    /// Whether outcomes already resolved for the same dice are reused (see [`super::memo`]).
    pub memo: bool,
}

impl Setup {
    /// The scratch session of `state` as it is (its game, tables, limits and rules in force)
    /// for running `line`.
    pub fn of(state: &crate::engine::session::State, line: &str) -> Setup {
        Setup {
            game: state.game.clone(),
            tables: state.tables.clone(),
            limits: state.limits,
            dice_caps: state.dice_caps,
            exact: state.exact,
            root: state.rules.root.clone(),
            rules: state
                .rules
                .loaded
                .as_ref()
                .map(|_| state.rules.source().clone()),
            option: None,
            line: line.to_string(),
            answers: Vec::new(),
            label: String::new(),
            memo: true,
        }
    }
}

/// The umpire as `odds` stands in for them: dice are never typed (the worker's own
/// generator rolls them all), and a question gets the answer given in the call, if any (the
/// question's default otherwise).
/// Every question asked is noted with the answer used (also in a run the rules then refuse).
/// While the memo is on, the worker's dice box asks this entry for every die: it gives the
/// dice of the memo's walk again, then draws from the run's own generator, noting each.
#[derive(Debug, Clone)]
struct Answers {
    given: Vec<(Option<String>, String)>,
    asked: Vec<(String, String, bool)>,
    /// The run's generator (used while the memo is on).
    dice: DiceBox,
    /// The dice the memo's walk drew, given again first.
    replay: Vec<(Faces, i64)>,
    /// How many dice of `replay` were given.
    at: usize,
    /// Every die given in this run.
    drawn: Vec<(Faces, i64)>,
}

impl DieEntry for Answers {
    fn enter(&mut self, request: &DieRequest<'_>) -> Result<i64, String> {
        let v = match self.replay.get(self.at) {
            Some(&(f, v)) if f == request.faces => v,
            _ => memo::draw(&mut self.dice, request.faces),
        };
        self.at += 1;
        self.drawn.push((request.faces, v));
        Ok(v)
    }

    fn ask(&mut self, question: &Question<'_>) -> Result<Option<String>, String> {
        let text = question.text.to_lowercase();
        for (words, answer) in &self.given {
            if words.as_deref().is_some_and(|w| !text.contains(w)) {
                continue;
            }
            match question.answer(answer) {
                Ok(a) => {
                    self.asked
                        .push((question.text.to_string(), a.clone(), false));
                    return Ok(Some(a));
                }
                // A general answer (no words) that is no choice of this question: not for it.
                Err(_) if words.is_none() => continue,
                Err(e) => return Err(format!("the answer given in the call does not fit: {e}")),
            }
        }
        if let Some(d) = question.default {
            self.asked
                .push((question.text.to_string(), d.to_string(), true));
        }
        Ok(None)
    }
}

/// How the command is run.
enum How {
    /// A rules' command: its name, its `pre_` event and its arguments as Lua gets them.
    Rule {
        name: String,
        pre: String,
        fields: Vec<(String, ArgValue)>,
    },
    /// A built-in game command: what runs it, its parsed words, whether it raises `pre_NAME`.
    Builtin { run: Run, args: Args, pre: bool },
}

/// A worker's scratch session for one variant.
pub struct Worker {
    session: Session,
    cmd: CommandLine,
    how: How,
    entry: Answers,
    /// The game as every run starts from it (put back whole if a rollback ever failed).
    pristine: Game,
    outcome: RunOutcome,
    memo: Memo,
    /// What this worker counted.
    pub tally: Tally,
    /// How many runs went through the rules (the others were known from the memo).
    pub resolved: u64,
    /// How many runs were known from the memo.
    pub known: u64,
}

/// Runs through the rules after which a memo that has known no run at all is switched off
/// (buckets of dice: the same sequence hardly ever comes twice).
const HOPELESS_AFTER: u64 = 500;

/// Runs through the rules after which a memo that has known fewer runs than that is
/// switched off.
const GIVE_UP_AFTER: u64 = 4_000;

/// The built-in commands `odds` may run: the game commands that do not read files.
pub const BUILTINS: &[&str] = &[
    "roll", "add", "remove", "rename", "set", "mark", "unmark", "next",
];

impl Worker {
    /// Builds the scratch session: loads the rules into a fresh Lua state (its Ctrl-C is
    /// `control`), sets the option, parses the command once against the game.
    pub fn new(setup: Setup, control: Arc<Control>) -> Result<Worker, CommandError> {
        let fail = |m: String| CommandError::invalid(m, None, crate::span::Span::point(0));
        let mut game = setup.game;
        if let Some((name, value)) = &setup.option {
            let mut set = crate::engine::options::stored_options(&game);
            set.insert(name.clone(), value.clone());
            game.set_stored(
                crate::engine::rules::RULES_SCRIPT,
                crate::engine::options::OPTIONS_KEY,
                Some(serde_json::json!(set)),
            )
            .map_err(|e| fail(format!("option {name} could not be set: {e}")))?;
        }
        let mut session =
            Session::with_journal(DiceBox::seeded(0), Journal::in_memory(), game.clone());
        session.set_limits(setup.limits);
        session.set_rules_root(setup.root);
        if let Some(src) = setup.rules {
            session.state.rules.load(src).map_err(|e| {
                fail(format!(
                    "the rules {} did not load: {e}",
                    setup.label.trim_start_matches("with ")
                ))
            })?;
            session.sync_rules();
            if let Some(l) = session.state.rules.loaded.as_mut() {
                l.host.set_control(control);
            }
        }
        session.state.tables = setup.tables;
        session.state.dice_caps = setup.dice_caps;
        session.state.exact = setup.exact;
        crate::engine::options::sync(&mut session.state);
        let cmd = line::parse(&setup.line).ok_or_else(|| fail("no command to run".into()))?;
        let Some(spec) = session.registry.find(&cmd.name.text) else {
            return Err(fail(format!(
                "`{}` is not a command {}",
                cmd.name.text,
                if setup.label.is_empty() {
                    "of the rules in force".to_string()
                } else {
                    format!("under the rules {}", setup.label)
                }
            )));
        };
        let args = crate::engine::session::parse_args(spec, &cmd, &session.state)?;
        let how = if spec.from_rules() {
            let name = spec.name.to_string();
            let fields = session
                .state
                .rules
                .loaded
                .as_ref()
                .and_then(|l| l.rules.commands.get(&name))
                .map(|def| rule_commands::fields(def, &args))
                .unwrap_or_default();
            How::Rule {
                pre: format!("pre_{name}"),
                name,
                fields,
            }
        } else {
            How::Builtin {
                run: spec.run,
                args,
                pre: spec.raises_pre(),
            }
        };
        let mut memo = Memo::default();
        if setup.memo {
            // Every die is asked of the entry, which gives the memo's dice, then the run's.
            session.state.dice.set_mode(DiceMode::Enter);
        } else {
            memo.off();
        }
        Ok(Worker {
            session,
            cmd,
            how,
            entry: Answers {
                given: setup.answers,
                asked: Vec::new(),
                dice: DiceBox::seeded(0),
                replay: Vec::new(),
                at: 0,
                drawn: Vec::new(),
            },
            pristine: game,
            outcome: RunOutcome::default(),
            memo,
            tally: Tally::default(),
            resolved: 0,
            known: 0,
        })
    }

    /// Makes run number `run` with dice from `seed`, counts what it did and takes it back.
    /// `false` when the run was cut short by Ctrl-C (then it is not counted).
    pub fn run(&mut self, run: u64, seed: u64, stopped: &dyn Fn() -> bool) -> bool {
        let memo_on = self.memo.on();
        if memo_on {
            self.entry.dice.reseed(seed);
            if let Walk::Known(outcome) =
                self.memo.walk(&mut self.entry.dice, &mut self.entry.replay)
            {
                self.known += 1;
                self.outcome.clone_from(outcome);
                let game = &self.session.state.game;
                self.tally.add(run, &mut self.outcome, |id, attr| {
                    Bucket::of_value(game.attr(id, attr))
                });
                return true;
            }
            self.entry.at = 0;
            self.entry.drawn.clear();
        } else {
            self.session.state.dice.reseed(seed);
        }
        self.resolved += 1;
        let state = &mut self.session.state;
        state.pending = Pending::default();
        self.entry.asked.clear();
        let mut checks = Vec::new();
        let result = match &self.how {
            How::Rule { name, pre, fields } => run_rule(
                &mut self.session,
                &mut self.entry,
                &self.cmd,
                name,
                pre,
                fields,
                &mut checks,
            ),
            How::Builtin { run, args, pre } => run_builtin(
                &mut self.session,
                &mut self.entry,
                &self.cmd,
                *run,
                args,
                *pre,
                &mut checks,
            ),
        };
        if stopped() {
            self.take_back();
            return false;
        }
        let o = &mut self.outcome;
        o.clear();
        let state = &mut self.session.state;
        match result {
            Ok(Some(why)) | Err(why) => o.refused = Some(why),
            Ok(None) => {
                o.checks = checks;
                if o.checks.is_empty() {
                    o.rolls = state
                        .pending
                        .rolls
                        .iter()
                        .map(|r| (r.expr().to_string(), r.total))
                        .collect();
                }
                read_changes(state.pending.changes.changes(), &state.game, o);
            }
        }
        o.answers.append(&mut self.entry.asked);
        let options_changed = self.take_back();
        let o = &self.outcome;
        if memo_on {
            // A refusal for running out of a budget (time above all) says nothing about the
            // dice: such an outcome is not one to reuse.
            let budget = o.refused.as_deref().is_some_and(|r| {
                [
                    "script ran too long",
                    "script interrupted",
                    "script used too much memory",
                ]
                .iter()
                .any(|b| r.contains(b))
            });
            if options_changed || budget {
                self.memo_off();
            } else {
                self.memo.learn(&self.entry.drawn, o);
                // Dice that rarely come out the same twice (buckets of dice, long chains of
                // rolls): the memo would only cost.
                let unpaid = (self.resolved >= HOPELESS_AFTER && self.known == 0)
                    || (self.resolved >= GIVE_UP_AFTER && self.known < self.resolved);
                if !self.memo.on() || unpaid {
                    self.memo_off();
                }
            }
        }
        let game = &self.session.state.game;
        self.tally.add(run, &mut self.outcome, |id, attr| {
            Bucket::of_value(game.attr(id, attr))
        });
        if options_changed {
            crate::engine::options::sync(&mut self.session.state);
        }
        true
    }

    /// Every run through the rules from now on, with dice from the session's box.
    fn memo_off(&mut self) {
        self.memo.off();
        self.session.state.dice.set_mode(DiceMode::Rng);
    }

    /// Rolls the run's changes back in place (or, should that ever fail, puts the whole game
    /// back from the copy). Whether the run changed the options set.
    fn take_back(&mut self) -> bool {
        let state = &mut self.session.state;
        let mut changes = std::mem::take(&mut state.pending.changes);
        let options_changed = changes.changes().iter().any(|c| {
            matches!(c, Change::SetStore { script, key, .. }
                if script == crate::engine::rules::RULES_SCRIPT
                    && key == crate::engine::options::OPTIONS_KEY)
        });
        if changes.rollback(&mut state.game).is_err() {
            state.game = self.pristine.clone();
        }
        options_changed
    }
}

/// Runs a rules' command as the session does (its `pre_` handlers, the command, the events
/// its changes raise) without building its output. `Ok(Some(why))`: cancelled.
fn run_rule(
    session: &mut Session,
    entry: &mut Answers,
    cmd: &CommandLine,
    name: &str,
    pre: &str,
    fields: &[(String, ArgValue)],
    checks: &mut Vec<(String, f64, Option<String>)>,
) -> Result<Option<String>, String> {
    let state = &mut session.state;
    let fields: Vec<(&str, ArgValue)> = fields
        .iter()
        .map(|(k, v)| (k.as_str(), v.clone()))
        .collect();
    let span = cmd.rest_span();
    let err = |e: CommandError| e.to_string();
    let (go_on, call) =
        call_rules(state, Some(entry), Call::Event(pre), &fields, span).map_err(err)?;
    take_checks(call.checks, checks);
    if !go_on {
        return Ok(Some(format!("cancelled by a `{pre}` rule")));
    }
    let (_, call) =
        call_rules(state, Some(entry), Call::Command(name), &fields, span).map_err(err)?;
    take_checks(call.checks, checks);
    let out = events::emit_events(state, Some(entry), Output::new(name)).map_err(err)?;
    block_checks(out, checks);
    Ok(None)
}

/// Runs a built-in game command as the session does (its `pre_` handlers, the command, the
/// events). `Ok(Some(why))`: cancelled.
fn run_builtin(
    session: &mut Session,
    entry: &mut Answers,
    cmd: &CommandLine,
    run: Run,
    args: &Args,
    raises_pre: bool,
    checks: &mut Vec<(String, f64, Option<String>)>,
) -> Result<Option<String>, String> {
    let name = cmd.name.text.clone();
    let err = |e: CommandError| e.to_string();
    let Session {
        state, registry, ..
    } = session;
    let pre = if raises_pre {
        rule_commands::pre_builtin(state, Some(&mut *entry), &name, cmd).map_err(err)?
    } else {
        rule_commands::Pre::Go(None)
    };
    let out = match pre {
        rule_commands::Pre::Cancelled(_) => {
            return Ok(Some(format!("cancelled by a `pre_{name}` rule")));
        }
        rule_commands::Pre::Go(call) => {
            if let Some(c) = call {
                take_checks(c.checks, checks);
            }
            let inv = Invocation {
                line: cmd,
                args: args.clone(),
            };
            let mut ctx = Context {
                state,
                registry,
                entry: Some(&mut *entry),
            };
            run(&mut ctx, &inv).map_err(err)?
        }
    };
    let out = events::emit_events(state, Some(entry), out).map_err(err)?;
    block_checks(out, checks);
    Ok(None)
}

fn take_checks(
    from: Vec<std::sync::Arc<crate::script::Breakdown>>,
    to: &mut Vec<(String, f64, Option<String>)>,
) {
    to.extend(from.into_iter().map(|b| {
        let b = std::sync::Arc::unwrap_or_clone(b);
        (b.title, b.total, b.result)
    }));
}

fn block_checks(out: Output, to: &mut Vec<(String, f64, Option<String>)>) {
    let typed = out.checks.unwrap_or_default();
    take_checks(typed, to);
    for b in out.blocks {
        if let Block::Check(c) = b {
            let c = std::sync::Arc::unwrap_or_clone(c);
            to.push((c.title, c.total, c.result));
        }
    }
}

/// What the changes of a run did in the end: each attribute's value after, each marker put
/// on or taken off (and left so), each unit or element removed.
fn read_changes(changes: &[Change], game: &Game, o: &mut RunOutcome) {
    let mut marks: Vec<(String, String, bool, bool)> = Vec::new(); // id, marker, was on, is on
    let mut mark = |id: &str, name: &str, on: bool| match marks
        .iter_mut()
        .find(|m| m.0 == id && m.1 == name)
    {
        Some(m) => m.3 = on,
        None => marks.push((id.to_string(), name.to_string(), !on, on)),
    };
    for c in changes {
        match c {
            Change::SetAttr { id, attr, .. }
                if !o
                    .attrs
                    .iter()
                    .any(|(i, a, _)| i == id.as_str() && a == attr) =>
            {
                o.attrs
                    .push((id.to_string(), attr.clone(), Bucket::Text(String::new())));
            }
            Change::Mark { unit, marker, .. } => mark(unit.as_str(), &marker.name, true),
            Change::Unmark { unit, marker, .. } => mark(unit.as_str(), &marker.name, false),
            Change::Advance { expired, .. } => {
                for e in expired {
                    mark(e.unit.as_str(), &e.marker.name, false);
                }
            }
            Change::RemoveUnit { unit, .. } => o.removed.push(unit.id.to_string()),
            Change::RemoveElement { element, .. } => o.removed.push(element.id.to_string()),
            _ => {}
        }
    }
    for (id, attr, after) in &mut o.attrs {
        *after = Bucket::of_value(game.attr(id, attr));
    }
    o.markers.extend(
        marks
            .into_iter()
            .filter(|m| m.2 != m.3)
            .map(|(id, name, _, on)| (id, name, on)),
    );
}

/// The seed of run `run` of variant `variant`: a mix of the call's seed and the run's number
/// (SplitMix64), so each run has dice of its own whichever worker makes it.
pub fn run_seed(seed: u64, variant: usize, run: u64) -> u64 {
    fn mix(mut z: u64) -> u64 {
        z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    mix(seed ^ mix(run.wrapping_mul(8).wrapping_add(variant as u64)))
}
