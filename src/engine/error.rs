//! Errors of one shell command: unknown names, bad arguments, and the dice errors underneath,
//! each with the span of the bad part of the *whole* command line.

use thiserror::Error;

use crate::dice::DiceError;
use crate::span::Span;

/// Why a command failed, and where in its line.
#[derive(Debug, Clone, PartialEq, Error)]
#[error("{kind}")]
pub struct CommandError {
    /// What went wrong.
    pub kind: CommandErrorKind,
    /// The bad part of the command line (bytes), when the error is about one part of it.
    pub span: Option<Span>,
}

/// What went wrong with a command.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum CommandErrorKind {
    /// No command has this name.
    #[error("unknown command `{name}`")]
    UnknownCommand {
        /// The name as typed.
        name: String,
        /// The nearest command name, if one is close.
        suggestion: Option<String>,
        /// Whether the whole line reads as a dice expression (then `roll` is suggested).
        is_dice: bool,
    },
    /// The command was given arguments it does not take, or too few.
    #[error("{message}")]
    Usage {
        /// What is wrong, lowercase, user text in backticks.
        message: String,
        /// The command's usage line.
        usage: String,
    },
    /// An argument that is the right shape but the wrong value.
    #[error("{message}")]
    Invalid {
        /// What is wrong.
        message: String,
        /// How to fix it.
        help: Option<String>,
    },
    /// An error from the dice engine (its span is already shifted into the whole line).
    #[error("{0}")]
    Dice(Box<DiceError>),
}

impl CommandError {
    /// An error of `kind` pointing at `span`.
    pub fn new(kind: CommandErrorKind, span: Option<Span>) -> Self {
        CommandError { kind, span }
    }

    /// A usage error at `span`.
    pub fn usage(message: impl Into<String>, usage: &str, span: Span) -> Self {
        Self::new(
            CommandErrorKind::Usage {
                message: message.into(),
                usage: usage.to_string(),
            },
            Some(span),
        )
    }

    /// A wrong-value error at `span`.
    pub fn invalid(message: impl Into<String>, help: Option<String>, span: Span) -> Self {
        Self::new(
            CommandErrorKind::Invalid {
                message: message.into(),
                help,
            },
            Some(span),
        )
    }

    /// A dice error found while rolling or working out odds for the expression at `expr`: an
    /// error that names no part of it (a division by zero met while rolling) underlines it all.
    pub fn dice_in(mut err: DiceError, expr: Span) -> Self {
        if err.span == Span::default() {
            err.span = expr;
            Self::new(CommandErrorKind::Dice(Box::new(err)), Some(expr))
        } else {
            Self::dice(err, expr.start)
        }
    }

    /// A dice error found in text that starts `offset` bytes into the command line.
    pub fn dice(mut err: DiceError, offset: usize) -> Self {
        err.span = err.span.shift(offset);
        let span = err.span;
        Self::new(CommandErrorKind::Dice(Box::new(err)), Some(span))
    }

    /// How to fix it, when there is something to suggest.
    pub fn help(&self) -> Option<String> {
        match &self.kind {
            CommandErrorKind::UnknownCommand {
                suggestion: Some(s),
                ..
            } => Some(format!("did you mean `{s}`?")),
            CommandErrorKind::UnknownCommand { is_dice: true, .. } => {
                Some("to roll dice, start the line with `roll`, as in `roll 2d6`".into())
            }
            CommandErrorKind::UnknownCommand { .. } => {
                Some("type `help` for the list of commands".into())
            }
            CommandErrorKind::Usage { usage, .. } => Some(format!("usage: {usage}")),
            CommandErrorKind::Invalid { help, .. } => help.clone(),
            CommandErrorKind::Dice(e) => e.help(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::DiceErrorKind;
    use crate::engine::{Palette, render};

    #[test]
    fn dice_error_spans_are_shifted_into_the_whole_line() {
        let e = DiceError::new(DiceErrorKind::Empty, Span::new(2, 3));
        let c = CommandError::dice(e, 5);
        assert_eq!(c.span, Some(Span::new(7, 8)));
        let text = render::error(&c, "roll 3dx6", None, &Palette::plain());
        assert_eq!(
            text,
            "error: empty dice expression\n  roll 3dx6\n         ^\nhelp: try `roll 2d6` or `help dice`"
        );
    }
}
