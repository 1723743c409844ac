//! The table of commands the shell knows: name, aliases, usage, one-line summary, long help,
//! argument completion and the function that runs it.
//!
//! Built-ins are registered from `builtins.rs`; later issues add their own (state, journal)
//! and the Lua host registers script commands through the same [`CommandSpec`], which is why
//! names and texts are `Cow` rather than `&'static str`.

use std::borrow::Cow;

use super::error::CommandError;
use super::line::{CommandLine, split_words};
use super::output::Output;
use super::session::Context;

/// Runs a command against the session.
pub type Handler = fn(&mut Context<'_>, &CommandLine) -> Result<Output, CommandError>;

/// Candidates for the next argument, given the registry (for commands that take command
/// names) and the arguments already typed before it.
pub type ArgCompleter = fn(registry: &Registry, before: &[&str]) -> Vec<String>;

/// One command the shell knows.
#[derive(Clone)]
pub struct CommandSpec {
    /// The canonical name.
    pub name: Cow<'static, str>,
    /// Other names that run it (`r` for `roll`).
    pub aliases: Vec<Cow<'static, str>>,
    /// The usage line: `roll [Nx] EXPR`.
    pub usage: Cow<'static, str>,
    /// One line for the command list.
    pub summary: Cow<'static, str>,
    /// The long help for `help CMD`.
    pub help: Cow<'static, str>,
    /// Completion of its arguments.
    pub complete: Option<ArgCompleter>,
    /// What runs it.
    pub run: Handler,
    /// For a command the rules registered: its declared arguments (they drive completion).
    pub script: Option<Vec<crate::script::ArgSpec>>,
}

impl std::fmt::Debug for CommandSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CommandSpec")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl CommandSpec {
    /// Whether `name` is this command's name or one of its aliases.
    pub fn answers_to(&self, name: &str) -> bool {
        self.name == name || self.aliases.iter().any(|a| a == name)
    }
}

/// Every command the shell knows, in the order `help` lists them.
#[derive(Debug, Clone, Default)]
pub struct Registry {
    specs: Vec<CommandSpec>,
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Self {
        Registry::default()
    }

    /// Adds a command; a command of the same name is replaced (so reloading scripts never
    /// registers one twice).
    pub fn register(&mut self, spec: CommandSpec) {
        match self.specs.iter_mut().find(|s| s.name == spec.name) {
            Some(old) => *old = spec,
            None => self.specs.push(spec),
        }
    }

    /// Keeps only the commands for which `keep` is true.
    pub fn retain(&mut self, keep: impl FnMut(&CommandSpec) -> bool) {
        self.specs.retain(keep);
    }

    /// Every command, in registration order.
    pub fn specs(&self) -> &[CommandSpec] {
        &self.specs
    }

    /// The command answering to `name` (its name or an alias).
    pub fn find(&self, name: &str) -> Option<&CommandSpec> {
        self.specs.iter().find(|s| s.answers_to(name))
    }

    /// The command name nearest to a mistyped `name`, if one is close enough to suggest.
    pub fn nearest(&self, name: &str) -> Option<&str> {
        let lower = name.to_lowercase();
        self.specs
            .iter()
            .flat_map(|s| {
                std::iter::once(&s.name)
                    .chain(&s.aliases)
                    .map(move |n| (n, s))
            })
            .map(|(n, s)| (strsim::damerau_levenshtein(&lower, n), n.len(), s))
            // At most one edit in three letters: `rol` is `roll`, but `foo` is not `log`.
            .filter(|&(d, len, _)| d <= 2 && d * 3 <= len.max(lower.chars().count()))
            .min_by_key(|&(d, ..)| d)
            .map(|(_, _, s)| s.name.as_ref())
    }

    /// Completion of the line up to the cursor: where the completed word starts and the
    /// candidates for it. The first word completes to command names; later words ask the
    /// command's own completer.
    pub fn complete(&self, line: &str, pos: usize) -> (usize, Vec<String>) {
        let head = &line[..pos];
        let words = split_words(head);
        let ends_in_space = head.ends_with(char::is_whitespace) || head.is_empty();
        let (before, partial, start) = match words.split_last() {
            Some((last, rest)) if !ends_in_space => (rest, last.text.as_str(), last.span.start),
            _ => (&words[..], "", pos),
        };
        let candidates: Vec<String> = match before.split_first() {
            None => self.specs.iter().map(|s| s.name.to_string()).collect(),
            Some((name, args)) => {
                let args: Vec<&str> = args.iter().map(|w| w.text.as_str()).collect();
                match self.find(&name.text) {
                    Some(CommandSpec {
                        script: Some(decl), ..
                    }) => super::rule_commands::complete(decl, &args),
                    Some(CommandSpec {
                        complete: Some(complete),
                        ..
                    }) => complete(self, &args),
                    _ => Vec::new(),
                }
            }
        };
        let mut matching: Vec<String> = candidates
            .into_iter()
            .filter(|c| c.starts_with(partial))
            .collect();
        matching.dedup();
        (start, matching)
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::commands as builtins;

    fn complete(line: &str) -> Vec<String> {
        builtins::registry().complete(line, line.len()).1
    }

    #[test]
    fn first_word_completes_to_command_names() {
        assert_eq!(complete("pr"), ["prob"]);
        assert!(complete("").contains(&"roll".to_string()));
    }

    #[test]
    fn subcommands_and_their_values_complete() {
        assert_eq!(complete("dice m"), ["mode"]);
        assert_eq!(complete("dice mode e"), ["enter"]);
        assert_eq!(complete("dice mode "), ["rng", "enter"]);
        assert_eq!(complete("dice queue c"), ["clear"]);
        assert_eq!(complete("dice queue d"), ["drop"]);
        assert_eq!(complete("help di"), ["dice"]);
    }

    #[test]
    fn completion_start_is_the_start_of_the_word() {
        let r = builtins::registry();
        assert_eq!(r.complete("dice mode e", 11).0, 10);
        assert_eq!(r.complete("dice ", 5).0, 5);
    }

    #[test]
    fn aliases_find_their_command_and_typos_find_the_nearest() {
        let r = builtins::registry();
        assert_eq!(r.find("r").unwrap().name, "roll");
        assert_eq!(r.nearest("rol"), Some("roll"));
        assert_eq!(r.nearest("porb"), Some("prob"));
        assert_eq!(r.nearest("xyzzy"), None);
        assert_eq!(r.nearest("foo"), None);
    }
}
