//! A shell session: the command registry and the state commands act on, and
//! [`Session::execute`], which takes one line to one [`Output`] or one [`CommandError`].
//!
//! The REPL, `umpire run` and the one-shot `umpire roll` all go through `execute`, so a
//! command behaves the same wherever it is typed. Later issues add the game state and the
//! journal to [`State`].

use super::builtins;
use super::command::{self, Command};
use super::error::{CommandError, CommandErrorKind};
use super::output::Output;
use super::registry::Registry;
use crate::dice::{DiceBox, DieEntry, ExactOptions, Limits};

/// What commands act on.
#[derive(Debug, Clone)]
pub struct State {
    /// Where dice come from.
    pub dice: DiceBox,
    /// Caps on rolls.
    pub limits: Limits,
    /// Settings for exact odds.
    pub exact: ExactOptions,
}

/// What a running command can reach: the state, the registry (for `help`) and, when someone
/// can be asked, a way to prompt for entered dice.
pub struct Context<'a> {
    /// The state to read and change.
    pub state: &'a mut State,
    /// Every command (read-only while one runs).
    pub registry: &'a Registry,
    /// Prompts for dice in `dice mode enter`; `None` where nobody can be asked.
    pub entry: Option<&'a mut dyn DieEntry>,
}

/// A shell session.
#[derive(Debug, Clone)]
pub struct Session {
    /// The commands.
    pub registry: Registry,
    /// The state.
    pub state: State,
}

/// The result of one line: what it produced, or why it failed (with the canonical command name
/// when the name was recognised).
pub type Executed = Result<Output, (Option<String>, CommandError)>;

impl Session {
    /// A session with the built-in commands, rolling with `dice`.
    pub fn new(dice: DiceBox) -> Self {
        Session {
            registry: builtins::registry(),
            state: State {
                dice,
                limits: Limits::default(),
                exact: ExactOptions::default(),
            },
        }
    }

    /// Runs one line. `None` for a blank or comment line. On error nothing is changed, except
    /// that dice already taken from the queue stay taken.
    pub fn execute(&mut self, line: &str, entry: Option<&mut dyn DieEntry>) -> Option<Executed> {
        let cmd = command::parse(line)?;
        Some(self.run(&cmd, entry))
    }

    fn run(&mut self, cmd: &Command, entry: Option<&mut dyn DieEntry>) -> Executed {
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
        let mut entry = entry;
        let entry = reborrow(&mut entry);
        let mut ctx = Context {
            state: &mut self.state,
            registry: &self.registry,
            entry,
        };
        run(&mut ctx, cmd).map_err(|e| (Some(name), e))
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
