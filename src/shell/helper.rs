//! The rustyline helper: completion of command names and arguments, hints with the rest of a
//! command name or its usage, and dimmed hints when colour is on; the line the rules propose
//! next ([`proposal`]).

use std::borrow::Cow;

use rustyline::completion::Completer;
use rustyline::highlight::Highlighter;
use rustyline::hint::{Hint, Hinter};
use rustyline::validate::Validator;
use rustyline::{Context, Helper};

use crate::engine::line::split_words;
use crate::engine::registry::Commands;
use crate::engine::style::{Palette, Style};

/// The REPL's rustyline helper.
#[derive(Helper)]
pub struct ShellHelper {
    /// The commands to complete (refresh it when commands are registered).
    pub registry: Commands,
    /// Colours for hints and the prompt.
    pub palette: Palette,
    /// True while dice are being entered: no completion or hints then.
    pub entering: bool,
    /// What the game offers for completion, kind by kind (refreshed by the REPL after every
    /// command).
    pub words: crate::engine::registry::Words,
}

impl ShellHelper {
    /// A helper completing the commands of `registry`.
    pub fn new(registry: Commands, palette: Palette) -> Self {
        ShellHelper {
            registry,
            palette,
            entering: false,
            words: Default::default(),
        }
    }
}

impl Completer for ShellHelper {
    type Candidate = String;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        if self.entering {
            return Ok((pos, Vec::new()));
        }
        // Words holding control characters (from an old journal, say) are never offered:
        // the terminal would act on them when the list is shown.
        Ok(complete(&self.registry, &self.words, line, pos))
    }
}

/// What Tab offers for `line` with the cursor at `pos`: the replacement's start and the
/// candidates the command table gives for the argument there (see [`Commands::complete`]),
/// less any that would name again an id already in a list (`activate guard1,gu` offers
/// `guard1,guard2`, not `guard1,guard1`) and any holding a control character (from an old
/// journal, say: the terminal would act on it when the list is shown).
pub fn complete(
    registry: &Commands,
    words: &crate::engine::registry::Words,
    line: &str,
    pos: usize,
) -> (usize, Vec<String>) {
    let (start, mut found) = registry.complete(line, pos, words);
    found.retain(|w| crate::escape::first_unsafe_in_name(w).is_none() && !names_twice(w));
    (start, found)
}

/// Whether the last item of a list word (`a,b,a`, `a+b+a`) is one of the items before it.
fn names_twice(word: &str) -> bool {
    let mut items: Vec<&str> = word.split([',', '+']).collect();
    match items.pop() {
        Some(last) if !last.is_empty() => items.contains(&last),
        _ => false,
    }
}

/// The command line the rules propose next (a ruleset records it as `propose`: OLAB's next set
/// after `activate`), for the prompt to start with: the umpire accepts it with Enter, edits
/// it, or clears it (Ctrl-U). `None` when there is none, or when it is not one safe line.
pub fn proposal(out: &crate::engine::output::Output) -> Option<String> {
    let line = out.json.get("record")?.get("propose")?.as_str()?.trim();
    let safe = !line.is_empty()
        && line.len() <= 1000
        && !line.contains(['\n', '\r'])
        && crate::escape::first_unsafe_in_name(line).is_none();
    safe.then(|| line.to_string())
}

/// Whether the terminal lets the prompt start with a proposed line: rustyline edits no line in
/// the terminals it does not support (`TERM` `dumb`, `cons25`, `emacs`), so the REPL prints the
/// proposal there instead.
pub fn can_prefill() -> bool {
    !matches!(
        std::env::var("TERM").ok().as_deref(),
        Some("dumb" | "cons25" | "emacs")
    )
}

/// A hint shown after the cursor; part of it may be accepted with → (the rest of a name).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShellHint {
    /// The text shown.
    pub display: String,
    /// How much of it → inserts (0: none, it is only a reminder).
    pub complete_up_to: usize,
}

impl Hint for ShellHint {
    fn display(&self) -> &str {
        &self.display
    }

    fn completion(&self) -> Option<&str> {
        (self.complete_up_to > 0).then(|| &self.display[..self.complete_up_to])
    }
}

/// The hint for `line` with the cursor at its end: the rest of a command name when exactly one
/// command starts with what is typed, or the usage when a known command is followed by a space.
pub fn hint(registry: &Commands, line: &str) -> Option<ShellHint> {
    let words = split_words(line);
    match words.as_slice() {
        [word] if !line.ends_with(char::is_whitespace) => {
            let mut names = registry
                .specs()
                .iter()
                .filter(|s| s.name.starts_with(&word.text));
            let spec = names.next()?;
            if names.next().is_some() || spec.name == word.text {
                return None;
            }
            let rest = spec.name[word.text.len()..].to_string();
            Some(ShellHint {
                complete_up_to: rest.len(),
                display: rest,
            })
        }
        [word] => {
            let spec = registry.find(&word.text)?;
            let usage = spec.usage();
            let args = usage.split_once(' ')?.1;
            Some(ShellHint {
                display: args.to_string(),
                complete_up_to: 0,
            })
        }
        _ => None,
    }
}

impl Hinter for ShellHelper {
    type Hint = ShellHint;

    fn hint(&self, line: &str, pos: usize, _ctx: &Context<'_>) -> Option<ShellHint> {
        if self.entering || pos < line.len() {
            return None;
        }
        hint(&self.registry, line)
    }
}

impl Highlighter for ShellHelper {
    fn highlight_hint<'h>(&self, hint: &'h str) -> Cow<'h, str> {
        let hint = crate::escape::escape_line(hint);
        if self.palette.is_color() {
            Cow::Owned(self.palette.style(Style::Dim, &hint))
        } else {
            hint
        }
    }

    fn highlight_prompt<'b, 's: 'b, 'p: 'b>(
        &'s self,
        prompt: &'p str,
        default: bool,
    ) -> Cow<'b, str> {
        if default && self.palette.is_color() {
            Cow::Owned(self.palette.style(Style::Strong, prompt))
        } else {
            Cow::Borrowed(prompt)
        }
    }
}

impl Validator for ShellHelper {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::commands as builtins;

    #[test]
    fn a_list_never_offers_an_id_it_holds() {
        assert!(names_twice("guard1,guard1"));
        assert!(names_twice("a+b+a"));
        assert!(!names_twice("guard1,guard2"));
        assert!(!names_twice("guard1,"));
        assert!(!names_twice("guard1"));
        let w = crate::engine::registry::Words {
            units: vec!["guard1".into(), "guard2".into(), "leg1".into()],
            ..Default::default()
        };
        let r = builtins::registry();
        assert_eq!(complete(&r, &w, "show guard1,gu", 14).1, ["guard1,guard2"]);
    }

    #[test]
    fn hints_finish_a_unique_command_name() {
        let r = builtins::registry();
        let h = hint(&r, "pro").unwrap();
        assert_eq!((h.display(), h.completion()), ("b", Some("b")));
        assert_eq!(hint(&r, "roll"), None);
        assert_eq!(hint(&r, "zz"), None);
    }

    #[test]
    fn hints_show_the_usage_after_a_command() {
        let r = builtins::registry();
        let h = hint(&r, "roll ").unwrap();
        assert_eq!((h.display(), h.completion()), ("EXPR…", None));
        assert_eq!(hint(&r, "roll 2d6"), None);
    }
}
