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

    /// Runs one line. `None` for a blank or comment line. On error nothing is changed: a roll
    /// that fails or is cancelled puts back the queue and the generator as they were.
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repl::color::Palette;
    use crate::repl::output::error_json;
    use crate::repl::render;
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
        assert_eq!(err.1.to_string(), "9 is not a face of a d6");
        assert_eq!(s.state.dice.queued().collect::<Vec<_>>(), [3, 9]);
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
