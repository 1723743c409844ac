//! A shell session: the command registry and the state commands act on, and
//! [`Session::execute`], which takes one line to one [`Output`] or one [`CommandError`].
//!
//! The REPL, `umpire run` and the one-shot `umpire roll` all go through `execute`, so a
//! command behaves the same wherever it is typed.
//!
//! Every command runs as one transaction: the rolls it makes and the changes it applies to
//! the game are collected in [`Pending`]; on success they are committed to the journal
//! (synced to disk) before the result is shown, and on any error — the command's own, or
//! the journal's — the changes are undone and the dice put back, so nothing is half done.

use super::commands;
use super::error::{CommandError, CommandErrorKind};
use super::events;
use super::line::{self, CommandLine};
use super::output::Output;
use super::registry::{Commands, Invocation};
use super::render;
use super::rule_commands;
use super::rules::RulesInForce;
use super::style::Palette;
use crate::dice::{Caps, DiceBox, DieEntry, ExactOptions, Roll};
use crate::journal::{Journal, RulesRecord, Transaction, now};
use crate::state::{Change, Game, StateError};
use crate::tables::TableSet;

/// What commands act on.
#[derive(Debug)]
pub struct State {
    /// Where dice come from.
    pub dice: DiceBox,
    /// Caps on rolls.
    pub dice_caps: Caps,
    /// The limits a club can change (`--limit`): script budgets, sizes of what is held,
    /// read and written.
    pub limits: crate::limits::Limits,
    /// Settings for exact odds.
    pub exact: ExactOptions,
    /// The game: sides, commands, units, markers, the clock.
    pub game: Game,
    /// The tables loaded.
    pub tables: TableSet,
    /// The session's journal.
    pub journal: Journal,
    /// What the running command has rolled and changed so far.
    pub pending: Pending,
    /// The rules: ruleset, house rules and the Lua host they run in.
    pub rules: RulesInForce,
    /// Where the shell keeps its games (`game new`, `game list`); `None`: nowhere.
    pub games_dir: Option<std::path::PathBuf>,
    /// Set by a command that opened another game's journal (`game new`, `game open`): the
    /// rules to bring back or set up once it ends (see [`Session::resume_rules`]).
    pub resume: Option<super::rules::AskedRules>,
    /// Command lines a command asked to run after it, each its own journalled command (a
    /// battle's set-up: its options, then its rosters).
    pub follow_up: Vec<String>,
    /// The campaign open, if any (`campaign open`, `--campaign`).
    pub campaign: Option<crate::campaign::Campaign>,
    /// Told of each line that wrote to the journal (the live board, `board start`).
    pub observer: Option<Box<dyn Observer>>,
    /// Who typed the line running now, when a second umpire has joined (`umpire join`): the
    /// joined umpire's name, journalled with the command; `None` for the host.
    pub by: Option<String>,
}

/// What is told, on the engine's thread, of the lines that wrote to the journal (a
/// transaction committed, undone or redone, another game opened) once their results are shown
/// ([`Session::catch_up`]): the live board (`live::Board`) takes a snapshot of the players'
/// view there and hands it to its own thread, so it must never wait on anything.
pub trait Observer: std::fmt::Debug + Send {
    /// The journal changed; `state` is the state after the line.
    fn committed(&mut self, state: &State);
    /// The observer itself, for the command that controls it (`board`).
    fn as_any_mut(&mut self) -> &mut dyn std::any::Any;
}

/// The rolls and changes of the command being run, committed together when it succeeds.
#[derive(Debug, Default)]
pub struct Pending {
    /// Every roll, in order.
    pub rolls: Vec<Roll>,
    /// Every change applied to the game, in order: rolled back as a whole if the command
    /// fails.
    pub changes: crate::state::ChangeSet,
    /// The reasons the rules gave for their changes.
    pub reasons: Vec<crate::state::Note>,
    /// Bytes of output the rules' calls have made (bounded by the `output` limit).
    pub output: usize,
    /// The questions the rules asked and their answers.
    pub answers: Vec<crate::question::Answered>,
    /// The line as the players may see it, if it holds secret words.
    pub public: Option<String>,
    /// Whether the output is for the umpire only.
    pub umpire_only: bool,
    /// The changes (by index in [`Pending::changes`]) the rules' scripts made: the host told
    /// their `at_once` event handlers as they were made (`engine/events.rs`).
    pub dispatched: Vec<std::ops::Range<usize>>,
}

impl State {
    /// The rules generation (0 until rules are loaded; bumped by each reload).
    pub fn generation(&self) -> u64 {
        self.rules.generation()
    }

    /// The tables commands can use: the rules' tables, then those loaded with `table load`
    /// (a loaded table of the same name as a rules' table is left out).
    pub fn all_tables(&self) -> std::borrow::Cow<'_, TableSet> {
        let Some(l) = self
            .rules
            .loaded
            .as_ref()
            .filter(|l| l.rules.tables.iter().next().is_some())
        else {
            return std::borrow::Cow::Borrowed(&self.tables);
        };
        let mut all = l.rules.tables.clone();
        for t in self.tables.iter() {
            let _ = all.insert(t.clone());
        }
        std::borrow::Cow::Owned(all)
    }

    /// Notes a roll for the journal.
    pub fn record_roll(&mut self, roll: &Roll) {
        self.pending.rolls.push(roll.clone());
    }

    /// Makes a change to the game through `edit` (one of [`Game`]'s edit helpers, which apply
    /// the change and return it) and notes it for the journal.
    pub fn change(
        &mut self,
        edit: impl FnOnce(&mut Game) -> Result<Change, StateError>,
    ) -> Result<(), StateError> {
        let c = edit(&mut self.game)?;
        self.pending.changes.push(c);
        Ok(())
    }

    /// Makes several changes at once (an edit helper that returns a list, such as `remove`).
    pub fn change_all(
        &mut self,
        edit: impl FnOnce(&mut Game) -> Result<Vec<Change>, StateError>,
    ) -> Result<(), StateError> {
        let cs = edit(&mut self.game)?;
        self.pending.changes.extend(cs);
        Ok(())
    }

    /// Applies changes built elsewhere (a roster), all or nothing, and notes them.
    pub fn apply_changes(&mut self, changes: Vec<Change>) -> Result<(), StateError> {
        self.game.apply_all(&changes).map_err(|(_, e)| e)?;
        self.pending.changes.extend(changes);
        Ok(())
    }
}

/// What a running command can reach: the state, the registry (for `help`) and, when someone
/// can be asked, a way to prompt for entered dice.
pub struct Context<'a> {
    /// The state to read and change.
    pub state: &'a mut State,
    /// Every command (read-only while one runs).
    pub registry: &'a Commands,
    /// Prompts for dice in `dice mode enter`; `None` where nobody can be asked.
    pub entry: Option<&'a mut dyn DieEntry>,
}

/// A shell session.
#[derive(Debug)]
pub struct Session {
    /// The commands.
    pub registry: Commands,
    /// The state.
    pub state: State,
    /// The rules generation the registry's script commands come from.
    registry_generation: u64,
    /// The die values typed in during the last command, in order (see
    /// [`Session::put_back`]).
    pub typed: Vec<i64>,
    /// Rules the game is played under that failed to load when a command brought them back
    /// (see [`Session::follow_stored_rules`]).
    unloadable_rules: Option<RulesRecord>,
    /// A line wrote to the journal since the observer was last told (see
    /// [`Session::catch_up`]).
    observer_behind: bool,
    /// When the observer was last told.
    observer_told: Option<std::time::Instant>,
}

/// The least time between two snapshots the observer takes in a burst of lines (see
/// [`Session::catch_up`]).
pub const OBSERVER_GAP: std::time::Duration = std::time::Duration::from_millis(250);

/// The result of one line: what it produced, or why it failed (with the canonical command name
/// when the name was recognised).
pub type Executed = Result<Output, (Option<String>, CommandError)>;

impl Session {
    /// A session with the built-in commands, rolling with `dice`, journalling in memory only.
    pub fn new(dice: DiceBox) -> Self {
        Self::with_journal(dice, Journal::in_memory(), Game::default())
    }

    /// A session on `game` (already replayed from `journal`, when it has a file).
    pub fn with_journal(dice: DiceBox, journal: Journal, game: Game) -> Self {
        let registry = commands::registry();
        let names = rule_commands::BuiltinNames::of(&registry);
        Session {
            registry,
            registry_generation: 0,
            typed: Vec::new(),
            unloadable_rules: None,
            observer_behind: false,
            observer_told: None,
            state: State {
                dice,
                dice_caps: Caps::default(),
                limits: crate::limits::Limits::default(),
                exact: ExactOptions::default(),
                game,
                tables: TableSet::new(),
                journal,
                pending: Pending::default(),
                rules: RulesInForce::new(
                    super::rules::rules_root(None),
                    names,
                    crate::limits::Limits::DEFAULT.script(),
                ),
                games_dir: None,
                resume: None,
                follow_up: Vec::new(),
                campaign: None,
                observer: None,
                by: None,
            },
        }
    }

    /// Looks for rule files under `root` (`root/rulesets`, `root/scripts`) from now on.
    pub fn set_rules_root(&mut self, root: std::path::PathBuf) {
        let builtins = std::mem::take(&mut self.state.rules.builtins);
        self.state.rules = RulesInForce::new(root, builtins, self.state.limits.script());
    }

    /// Uses `limits` from now on (set before rules are loaded: loaded rules keep the budgets
    /// they were loaded with until they reload).
    pub fn set_limits(&mut self, limits: crate::limits::Limits) {
        self.state.limits = limits;
        self.state.journal.set_caps(limits.journal());
        let root = self.state.rules.root.clone();
        self.set_rules_root(root);
    }

    /// Called at the prompt, never during a command: swaps in new rules if a watched file
    /// changed and all of it loaded. `None` if nothing changed; otherwise the new generation,
    /// or the error that kept the old rules in force.
    pub fn poll_rules(&mut self) -> Option<Result<u64, crate::script::ScriptError>> {
        let r = self.state.rules.poll()?;
        self.sync_rules();
        Some(r)
    }

    /// Makes the registry follow the rules in force.
    pub(super) fn sync_rules(&mut self) {
        let g = self.state.generation();
        if self.registry_generation != g {
            rule_commands::sync(&mut self.registry, &self.state);
            self.registry_generation = g;
        }
    }

    /// Runs one line. `None` for a blank or comment line. On error nothing is changed: a roll
    /// that fails or is cancelled puts back the queue and the generator as they were.
    pub fn execute(&mut self, line: &str, entry: Option<&mut dyn DieEntry>) -> Option<Executed> {
        let cmd = line::parse(line)?;
        let Some(before) = self.state.observer.is_some().then(|| self.journal_mark()) else {
            return Some(self.execute_parsed(&cmd, entry));
        };
        let executed = self.execute_parsed(&cmd, entry);
        // The observer is told later, once the result is shown (see `catch_up`).
        self.observer_behind |= before != self.journal_mark();
        Some(executed)
    }

    /// Tells the observer (the live board) of the lines that wrote to the journal since it was
    /// last told, once [`OBSERVER_GAP`] has passed since then (a burst of lines, as `run`
    /// reads them, is shown by its latest state); otherwise it stays behind until the next
    /// call, or [`Session::catch_up_now`]. The shell calls it once a command's result is
    /// shown, so the umpire never waits for the board's snapshot.
    pub fn catch_up(&mut self) {
        if self
            .observer_told
            .is_none_or(|at| at.elapsed() >= OBSERVER_GAP)
        {
            self.catch_up_now();
        }
    }

    /// Tells the observer at once of the lines that wrote to the journal since it was last
    /// told, if any (the interactive shell, before it waits for the next line).
    pub fn catch_up_now(&mut self) {
        if self.observer_behind {
            self.notify();
        }
    }

    /// Tells the observer, if any, the state as it is now (the live board after the rules
    /// were brought back at start-up, which writes nothing).
    pub fn notify(&mut self) {
        self.observer_behind = false;
        self.observer_told = Some(std::time::Instant::now());
        if let Some(mut observer) = self.state.observer.take() {
            observer.committed(&self.state);
            self.state.observer = Some(observer);
        }
    }

    /// Where the journal stands: its file and how many records it holds.
    fn journal_mark(&self) -> (u64, Option<std::path::PathBuf>) {
        (self.state.journal.len(), self.state.journal.path_buf())
    }

    fn execute_parsed(&mut self, cmd: &CommandLine, entry: Option<&mut dyn DieEntry>) -> Executed {
        // The values typed are the last command's: one refused before it ran (an unknown name,
        // bad words) typed none.
        self.typed.clear();
        let executed = self.run(cmd, entry);
        let executed = match self.state.resume.take() {
            Some(asked) => executed.map(|out| self.resumed(out, &asked)),
            None => executed,
        };
        let follow = std::mem::take(&mut self.state.follow_up);
        match executed {
            Ok(out) if !follow.is_empty() => Ok(self.followed(out, follow)),
            other => other,
        }
    }

    /// `out`, then each of `lines` run as its own command and what it printed; the first that
    /// fails stops the rest, saying so.
    fn followed(&mut self, mut out: Output, lines: Vec<String>) -> Output {
        use super::output::Text;
        use super::style::Style;
        for (i, line) in lines.iter().enumerate() {
            out = out.text(Text::new().push(Style::Dim, format!("› {line}")));
            match self.execute(line, None) {
                None => {}
                Some(Ok(o)) => {
                    out = out.text(Text::from_plain(render::output(&o, &Palette::plain())))
                }
                Some(Err((_, e))) => {
                    out = out.text(Text::new().push(Style::Error, format!("`{line}` failed: {e}")));
                    if i + 1 < lines.len() {
                        out = out.text(Text::new().push(
                            Style::Error,
                            format!("not run: {}", lines[i + 1..].join("; ")),
                        ));
                    }
                    break;
                }
            }
        }
        out
    }

    /// `out` of a command that opened another game, followed by what bringing back (or
    /// setting up) its rules said.
    fn resumed(&mut self, mut out: Output, asked: &super::rules::AskedRules) -> Output {
        use super::output::Text;
        use super::style::Style;
        let said = match self.resume_rules(asked) {
            Ok(said) => said,
            Err(refusal) => vec![super::resume::Said::Warning(refusal)],
        };
        for s in said {
            out = out.text(match s {
                super::resume::Said::Note(n) => Text::new().push(Style::Dim, n),
                super::resume::Said::Warning(w) => Text::new().push(Style::Error, w),
                super::resume::Said::Ran(_, Ok(o)) => {
                    Text::from_plain(render::output(&o, &Palette::plain()))
                }
                super::resume::Said::Ran(line, Err((_, e))) => {
                    Text::new().push(Style::Error, format!("`{line}` failed: {e}"))
                }
            });
        }
        out.field("generation", self.state.generation())
    }

    fn run(&mut self, cmd: &CommandLine, entry: Option<&mut dyn DieEntry>) -> Executed {
        let Some(spec) = self.registry.find(&cmd.name.text) else {
            let kind = CommandErrorKind::UnknownCommand {
                name: cmd.name.text.clone(),
                suggestion: self.registry.nearest(&cmd.name.text).map(str::to_string),
                is_dice: crate::dice::parse(cmd.line.trim()).is_ok(),
            };
            return Err((None, CommandError::new(kind, Some(cmd.name.span))));
        };
        let name = spec.name.to_string();
        let run = spec.run;
        let pre_builtin = !spec.from_rules() && spec.raises_pre();
        // The words are parsed once, against the command's signature, before anything runs.
        let args = match parse_args(spec, cmd, &self.state) {
            Ok(args) => args,
            Err(e) => return Err((Some(name), e)),
        };
        let invocation = Invocation { line: cmd, args };
        // The rules read the options in force (set, undone or reloaded since the last command).
        super::options::sync(&mut self.state);
        let control = self.state.rules.control.clone();
        let mut at_table = entry.map(|entry| AtTheTable {
            entry,
            control: &control,
            typed: Vec::new(),
        });
        let mut entry = at_table.as_mut().map(|t| t as &mut dyn DieEntry);
        let saved_dice = self.state.dice.clone();
        self.state.pending = Pending::default();
        let mut ctx = Context {
            state: &mut self.state,
            registry: &self.registry,
            entry: reborrow(&mut entry),
        };
        let pre = if pre_builtin {
            rule_commands::pre_builtin(ctx.state, reborrow(&mut ctx.entry), &name, cmd)
        } else {
            Ok(rule_commands::Pre::Go(None))
        };
        let result = match pre {
            Ok(rule_commands::Pre::Cancelled(out)) => Ok(out),
            Ok(rule_commands::Pre::Go(call)) => {
                run(&mut ctx, &invocation).map(|out| rule_commands::after_pre(out, call))
            }
            Err(e) => Err(e),
        }
        .and_then(|out| events::emit_events(&mut self.state, reborrow(&mut entry), out));
        self.typed = at_table.map(|t| t.typed).unwrap_or_default();
        self.sync_rules();
        let pending = std::mem::take(&mut self.state.pending);
        match result {
            Ok(out)
                if pending.rolls.is_empty()
                    && pending.changes.is_empty()
                    && pending.answers.is_empty() =>
            {
                Ok(self.follow_stored_rules(out))
            }
            Ok(out) => {
                let generation = self.state.generation();
                // The first transaction of each rules generation keeps what the rules were
                // (and each file's hash), so a game continued later knows what changed.
                let rules = self
                    .state
                    .journal
                    .needs_rules(generation)
                    .then(|| self.state.rules.record().map(Box::new))
                    .flatten();
                let tx = Transaction {
                    command: cmd.line.trim().to_string(),
                    public: pending.public.map(|p| p.trim().to_string()),
                    umpire_only: pending.umpire_only,
                    answers: pending.answers,
                    output: render::output(&out, &Palette::plain()),
                    rolls: pending.rolls,
                    changes: pending.changes.into_changes(),
                    reasons: pending.reasons,
                    generation,
                    rules,
                    by: self.state.by.clone(),
                    at: now(),
                };
                match self.state.journal.commit(tx, &self.state.game) {
                    Ok(seq) => Ok(self.follow_stored_rules(out).field("tx", seq)),
                    Err((e, tx)) => {
                        self.abandon(tx.changes.into(), saved_dice);
                        let help = match e {
                            // The message names the limit and how to raise it.
                            crate::journal::JournalError::LineTooLong { .. } => None,
                            _ => Some(
                                "free some disk space or give another file with `--journal`".into(),
                            ),
                        };
                        let err = CommandError::new(
                            CommandErrorKind::Invalid {
                                message: format!("{e}; the command was not done"),
                                help,
                            },
                            None,
                        );
                        Err((Some(name), err))
                    }
                }
            }
            Err(e) => {
                self.abandon(pending.changes, saved_dice);
                Err((Some(name), e))
            }
        }
    }

    /// After a command that changed the game's record of its rules without loading them
    /// (`undo` or `redo` across a rules change, `load`): puts the rules the game says back in
    /// force, saying so in `out`. The game and its rules never disagree.
    fn follow_stored_rules(&mut self, mut out: Output) -> Output {
        let Some(stored) = super::rules::stored_rules(&self.state.game) else {
            return out;
        };
        let in_force = self.state.rules.record().unwrap_or_default();
        if super::rules::same_rules(&stored, &in_force)
            || self
                .unloadable_rules
                .as_ref()
                .is_some_and(|u| super::rules::same_rules(u, &stored))
        {
            return out;
        }
        let root = self.state.rules.root.clone();
        let mut source = crate::script::RuleSource::new(&root, stored.ruleset.as_deref());
        source.variant = stored.variant.clone();
        source.house = stored.house.clone();
        let loaded = self.state.rules.load(source);
        // Said once: the next commands do not try the same broken files again (a reload, or
        // an edit the watcher sees, brings them in once fixed).
        self.unloadable_rules = loaded.is_err().then(|| stored.clone());
        let said = match loaded {
            Ok(_) => format!(
                "the rules in force follow the game: {}",
                super::rules::summary(&self.state.rules)
            ),
            Err(e) => format!(
                "the game was played under {} but those rules did not load ({e}); {} stay in force: fix the file and `reload`",
                super::rules::describe(&stored),
                super::rules::describe(&in_force)
            ),
        };
        self.sync_rules();
        out = out.text(super::output::Text::new().push(super::style::Style::Strong, said));
        out.field("generation", self.state.generation())
    }

    /// After a command that failed or was cancelled: the `dice queue …` command that puts
    /// back the values typed for it, followed by `extra` (values typed but not reached), so
    /// nobody has to ask the players to roll again. `None` when nothing was typed.
    pub fn put_back(&self, extra: &[String]) -> Option<String> {
        if self.typed.is_empty() && extra.is_empty() {
            return None;
        }
        let mut values: Vec<String> = self.typed.iter().map(i64::to_string).collect();
        values.extend(extra.iter().cloned());
        Some(format!(
            "the dice typed are not lost: `dice queue {}` puts them back (queued dice are used first, in enter mode too)",
            values.join(" ")
        ))
    }

    /// What the game offers for completion, kind by kind: units still on the board, sides,
    /// commands, selector terms (`side:romans`, `marked:routed`, `type:INF/A`), markers,
    /// attributes, tables, rulesets, house rules and games kept.
    pub fn vocabulary(&self) -> super::registry::Words {
        let game = &self.state.game;
        let mut terms = crate::state::complete(game, "");
        // `side:` and the like, with what may follow them (`side:romans`, `type:INF/A`).
        let prefixes: Vec<String> = terms.iter().filter(|w| w.ends_with(':')).cloned().collect();
        for p in prefixes {
            terms.extend(crate::state::complete(game, &p));
        }
        let ids: std::collections::HashSet<&str> = game.ids().map(|i| i.as_str()).collect();
        terms.retain(|t| !ids.contains(t.as_str()));
        let mut markers: Vec<String> = game.schema().markers.keys().cloned().collect();
        markers.sort();
        let mut attrs: Vec<String> = game
            .schema()
            .attrs(crate::state::Kind::Unit)
            .keys()
            .cloned()
            .collect();
        attrs.sort();
        super::registry::Words {
            units: game
                .units
                .values()
                .filter(|u| game.away(u).is_none())
                .map(|u| u.id.to_string())
                .collect(),
            elements: game
                .units
                .values()
                .flat_map(|u| u.elements.iter().map(move |e| format!("{}.{e}", u.id)))
                .collect(),
            sides: game.sides.keys().map(|s| s.to_string()).collect(),
            groups: game.commands.keys().map(|c| c.to_string()).collect(),
            selector_terms: terms,
            markers,
            attrs,
            tables: self
                .state
                .all_tables()
                .iter()
                .map(|t| t.name.clone())
                .collect(),
            rulesets: self.state.rules.rulesets(),
            house_rules: self.state.rules.house_rules(),
            options: self
                .state
                .rules
                .loaded
                .as_ref()
                .map(|l| l.rules.options.iter().map(|o| o.name.clone()).collect())
                .unwrap_or_default(),
            games: self
                .state
                .games_dir
                .as_deref()
                .map(|d| super::games::list(d).into_iter().map(|g| g.name).collect())
                .unwrap_or_default(),
        }
    }

    /// Puts the game and the dice back as they were before a command that failed.
    fn abandon(&mut self, mut changes: crate::state::ChangeSet, dice: DiceBox) {
        // The changes were applied in order by this command, so their inverses apply.
        let _ = changes.rollback(&mut self.state.game);
        self.state.dice = dice;
    }
}

/// Parses the words of `cmd` against `spec`'s signature, resolving units, sides, commands
/// and selectors against the game; a word that does not fit is an error with the usage line.
pub(crate) fn parse_args(
    spec: &super::registry::CommandSpec,
    cmd: &CommandLine,
    state: &State,
) -> Result<super::signature::Args, CommandError> {
    let words: Vec<super::signature::Word<'_>> = cmd
        .args
        .iter()
        .map(|w| super::signature::Word {
            text: &w.text,
            span: w.span,
        })
        .collect();
    super::signature::parse(
        &spec.signature,
        &cmd.name.text,
        &cmd.line,
        &words,
        &InGame(&state.game),
    )
    .map_err(|e| {
        let usage = spec.usage_of(&e.subs);
        if e.usage {
            let mut err = CommandError::usage(e.message, &usage, e.span);
            if let (Some(h), super::error::CommandErrorKind::Usage { message, .. }) =
                (e.help, &mut err.kind)
            {
                message.push_str(&format!(" ({h})"));
            }
            err
        } else {
            CommandError::invalid(
                e.message,
                e.help.or(Some(format!("usage: {usage}"))),
                e.span,
            )
        }
    })
}

/// Words resolved against a game: units, sides and commands by id (with the nearest ids
/// suggested), selectors as the selector language reads them.
pub(super) struct InGame<'g>(pub &'g Game);

impl super::signature::Resolve for InGame<'_> {
    fn id(
        &self,
        kind: &super::signature::Kind,
        word: &str,
    ) -> Result<String, (String, Option<String>)> {
        use super::signature::Kind;
        let g = self.0;
        // Ids are lower case; scenario sheets write them in capitals (`A1`).
        let lower = known_lower(g, word);
        let word = lower.as_deref().unwrap_or(word);
        let found = match kind {
            Kind::Unit => g.find_unit(word).map(|u| u.id.to_string()),
            Kind::Element => g.find_element(word).map(|e| e.id.to_string()),
            Kind::Side => g.find_side(word).map(|s| s.id.to_string()),
            _ => g.find_command(word).map(|c| c.id.to_string()),
        };
        found.map_err(|e| (e.to_string(), None))
    }

    fn select(
        &self,
        text: &str,
    ) -> Result<Vec<String>, (String, Option<String>, crate::span::Span)> {
        // One element (`leg1.2`, or its id) is accepted where units are: `set`, `mark`,
        // `unmark` and `show` work on elements too.
        if !text.contains(char::is_whitespace)
            && let Ok(e) = self.0.find_element(text)
        {
            return Ok(vec![e.id.to_string()]);
        }
        let text = &ids_lowered(self.0, text);
        crate::state::Selector::parse(text)
            .and_then(|s| s.resolve_ids(self.0))
            .map(|ids| ids.into_iter().map(|i| i.to_string()).collect())
            .map_err(|e| {
                let span = e.span.unwrap_or(crate::span::Span::new(0, text.len()));
                (e.to_string(), None, span)
            })
    }

    fn fits(&self, kind: &super::signature::Kind, word: &str) -> bool {
        use super::signature::Kind;
        let g = self.0;
        let lower = known_lower(g, word);
        let word = lower.as_deref().unwrap_or(word);
        match kind {
            Kind::Unit => g.unit(word).is_some(),
            Kind::Element => g.find_element(word).is_ok(),
            Kind::Side => g.side(word).is_some(),
            _ => g.command(word).is_some(),
        }
    }
}

/// `word` in lower case, when it has capitals and only its lower-case form is an id of the
/// game (`A1` for the unit `a1`).
fn known_lower(g: &Game, word: &str) -> Option<String> {
    if !word.chars().any(char::is_uppercase) || g.kind_of(word).is_some() {
        return None;
    }
    let lower = word.to_lowercase();
    let id = lower.split('.').next().unwrap_or(&lower);
    g.kind_of(id).is_some().then_some(lower)
}

/// `text` with each id written in capitals (`A1,A2`) put in lower case; terms with an
/// operator (`type=INF/U`, `side:Red`) are left as typed.
fn ids_lowered<'t>(g: &Game, text: &'t str) -> std::borrow::Cow<'t, str> {
    if !text.chars().any(char::is_uppercase) {
        return std::borrow::Cow::Borrowed(text);
    }
    let terms: Vec<String> = text
        .split(' ')
        .map(|term| {
            if term.contains([':', '=', '<', '>', '!']) {
                term.to_string()
            } else {
                term.split(',')
                    .map(|w| known_lower(g, w).unwrap_or_else(|| w.to_string()))
                    .collect::<Vec<_>>()
                    .join(",")
            }
        })
        .collect();
    std::borrow::Cow::Owned(terms.join(" "))
}

/// The umpire's die entry for one command: the time spent waiting for an answer counts
/// against no script's budget (players may take a minute to find their dice), and every
/// value typed is kept, so a command that fails can say how to put them back.
struct AtTheTable<'a, 'e> {
    entry: &'e mut dyn DieEntry,
    control: &'a crate::script::Control,
    typed: Vec<i64>,
}

impl DieEntry for AtTheTable<'_, '_> {
    fn enter(&mut self, request: &crate::dice::DieRequest<'_>) -> Result<i64, String> {
        let entry = &mut *self.entry;
        let v = self.control.waiting(|| entry.enter(request))?;
        self.typed.push(v);
        Ok(v)
    }

    fn ask(&mut self, question: &crate::question::Question<'_>) -> Result<Option<String>, String> {
        let entry = &mut *self.entry;
        self.control.waiting(|| entry.ask(question))
    }
}

/// Reborrows an optional die entry for a shorter time (the trait object's lifetime has to
/// shrink with the reference, which a plain `as_deref_mut` cannot express).
pub fn reborrow<'b>(entry: &'b mut Option<&mut dyn DieEntry>) -> Option<&'b mut dyn DieEntry> {
    match entry {
        Some(e) => Some(&mut **e),
        None => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::output::error_json;
    use crate::engine::render;
    use crate::engine::style::Palette;
    use proptest::prelude::*;

    /// Runs `line` and renders it both ways, as the shell would.
    fn run_and_render(session: &mut Session, line: &str) {
        match session.execute(line, None) {
            Some(Ok(out)) => {
                let _ = render::output(&out, &Palette::plain());
                let _ = out.to_json().to_string();
            }
            Some(Err((name, err))) => {
                let _ = render::error(&err, line, Some("f:1"), &Palette::plain());
                let _ = error_json(name.as_deref(), &err).to_string();
            }
            None => {}
        }
    }

    proptest! {
        #[test]
        fn no_line_panics(line in "\\PC{0,60}") {
            run_and_render(&mut Session::new(DiceBox::seeded(1)), &line);
        }

        #[test]
        fn no_rules_command_line_panics(
            cmd in prop::sample::select(vec![
                "shoot", "morale", "rally", "ruleset", "house", "reload", "help",
            ]),
            rest in "[ -~]{0,30}",
        ) {
            let mut s = Session::new(DiceBox::seeded(1));
            s.set_rules_root(std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")));
            for setup in ["ruleset use demo", "add side red Red", "add command red r1 R", "add unit r1 a1 A"] {
                s.execute(setup, None);
            }
            run_and_render(&mut s, &format!("{cmd} {rest}"));
            run_and_render(&mut s, &format!("{cmd} a1 {rest}"));
        }

        #[test]
        fn no_command_line_panics(
            cmd in prop::sample::select(vec![
                "roll", "r", "dice", "dice queue", "dice seed", "dice mode", "help", "quit",
            ]),
            rest in "[ -~−·]{0,40}",
        ) {
            run_and_render(&mut Session::new(DiceBox::seeded(1)), &format!("{cmd} {rest}"));
        }
    }

    #[test]
    fn a_failed_roll_leaves_the_queue_as_it_was() {
        let mut s = Session::new(DiceBox::seeded(1));
        s.execute("dice queue 3 9", None).unwrap().unwrap();
        let err = s.execute("roll 2d6", None).unwrap().unwrap_err();
        assert_eq!(
            err.1.to_string(),
            "the next queued value, 9, is not a face of a d6 (it stays queued)"
        );
        assert_eq!(s.state.dice.queued().collect::<Vec<_>>(), [3, 9]);
    }

    #[test]
    fn a_queued_value_that_does_not_fit_is_dropped_with_dice_queue_drop() {
        let mut s = Session::new(DiceBox::seeded(1));
        s.execute("dice queue 7 2", None).unwrap().unwrap();
        let (_, err) = s.execute("roll 1d4", None).unwrap().unwrap_err();
        assert_eq!(
            err.help().as_deref(),
            Some("`dice queue drop` removes just that value, `dice queue clear` the whole queue")
        );
        let out = s.execute("dice queue drop", None).unwrap().unwrap();
        assert_eq!(out.json["queue"], serde_json::json!([2]));
        let text = render::output(&out, &Palette::plain());
        assert!(
            text.starts_with("dropped 7, the next queued value\n"),
            "{text}"
        );
        let out = s.execute("roll 1d4", None).unwrap().unwrap();
        assert_eq!(out.json["total"], 2);
        let out = s.execute("dice queue drop", None).unwrap().unwrap();
        let text = render::output(&out, &Palette::plain());
        assert!(
            text.starts_with("the queue is empty: nothing to drop"),
            "{text}"
        );
    }

    #[test]
    fn entered_dice_without_anyone_to_ask_fail_cleanly() {
        let mut s = Session::new(DiceBox::seeded(1));
        s.execute("dice mode enter", None).unwrap().unwrap();
        let (name, err) = s.execute("roll 1d6", None).unwrap().unwrap_err();
        assert_eq!(name.as_deref(), Some("roll"));
        assert!(err.to_string().contains("entered by hand"), "{err}");
    }

    #[test]
    fn unknown_commands_carry_no_name_and_point_at_the_word() {
        let mut s = Session::new(DiceBox::seeded(1));
        let (name, err) = s.execute("  rol 2d6", None).unwrap().unwrap_err();
        assert_eq!(name, None);
        assert_eq!(err.span, Some(crate::span::Span::new(2, 5)));
        assert_eq!(err.help().as_deref(), Some("did you mean `roll`?"));
    }
}

#[cfg(test)]
mod transaction_tests {
    use super::*;
    use crate::journal::Journal;
    use proptest::prelude::*;

    const COMMANDS: &[&str] = &[
        "set leg1 sp 3",
        "set side:romans quality good",
        "set leg1 sp 99",
        "mark leg2 routed",
        "mark aux1 suppressed until round",
        "unmark leg2 routed",
        "next",
        "roll 2d6",
        "undo",
        "redo",
        "add unit left x1 Extra sp=2",
        "remove leg1",
        "rename ala1 The wing",
        "load /nonexistent/game.json",
        "show nobody",
    ];

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

        /// Random commands (some failing): the journal replays to exactly the live game, and
        /// undoing everything gives back the game the session started from.
        #[test]
        fn undo_all_restores_and_replay_matches_live(picks in prop::collection::vec(0..COMMANDS.len(), 1..30)) {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("j.jsonl");
            let mut game = Game::default();
            let (journal, _) = Journal::open(&path, &mut game, Default::default()).unwrap();
            let mut s = Session::with_journal(DiceBox::seeded(1), journal, game);
            for setup in ["schema load examples/data/schema.toml", "army load examples/data/romans.toml"] {
                prop_assert!(s.execute(setup, None).unwrap().is_ok());
            }
            for i in picks {
                let _ = s.execute(COMMANDS[i], None);
            }
            let replayed = Journal::replay_file(&path, Game::default(), Default::default()).unwrap();
            prop_assert!(replayed.verified.is_intact());
            prop_assert_eq!(&replayed.game, &s.state.game);
            while s.state.journal.next_undo().is_some() {
                prop_assert!(s.execute("undo", None).unwrap().is_ok());
            }
            prop_assert_eq!(&s.state.game, &Game::default());
        }
    }

    #[test]
    fn ids_and_selector_terms_are_offered_for_completion() {
        let mut s = Session::new(DiceBox::seeded(1));
        s.execute("schema load examples/data/schema.toml", None)
            .unwrap()
            .unwrap();
        s.execute("army load examples/data/romans.toml", None)
            .unwrap()
            .unwrap();
        s.execute("table load examples/data/tables.toml", None)
            .unwrap()
            .unwrap();
        let words = s.vocabulary();
        assert!(words.units.contains(&"leg1".to_string()), "{words:?}");
        assert!(
            words.selector_terms.contains(&"side:romans".to_string()),
            "{words:?}"
        );
        assert!(words.tables.contains(&"terrain".to_string()), "{words:?}");
        assert!(words.sides.contains(&"romans".to_string()), "{words:?}");
    }

    #[test]
    fn a_failing_command_changes_nothing() {
        let mut s = Session::new(DiceBox::seeded(1));
        s.execute("schema load examples/data/schema.toml", None)
            .unwrap()
            .unwrap();
        s.execute("army load examples/data/romans.toml", None)
            .unwrap()
            .unwrap();
        s.execute("mark leg2 routed", None).unwrap().unwrap();
        let before = s.state.game.clone();
        // leg1 is marked, then leg2 fails (already marked): leg1's mark is rolled back too.
        let err = s
            .execute("mark leg1 leg2 routed", None)
            .unwrap()
            .unwrap_err();
        assert!(err.1.to_string().contains("already marked"), "{}", err.1);
        assert_eq!(s.state.game, before);
        assert_eq!(s.state.journal.len(), 3);
    }
}
