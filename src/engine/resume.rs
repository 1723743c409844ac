//! Continuing a game: the rules it was played under come back with it, exactly.
//!
//! A game's store records the rules in force (ruleset, variant, house rules), and its journal
//! records, with the first transaction of each rules generation, the hash of every rule file.
//! [`Session::resume_rules`] runs when a journal is opened (at start-up, `game open`, `game
//! new`): it loads those rules again, says which rule files changed since the game was last
//! played, drops a house rule that no longer loads (as one journalled rules change, said
//! plainly), and applies what the command line asks for: the same ruleset changes nothing, a
//! different variant or house rules is one journalled, undoable change, a different ruleset
//! is refused (the game's units live under its ruleset's schema).

use super::rules::{AskedRules, describe, same_rules, stored_rules, use_command};
use super::session::{Executed, Session};
use crate::journal::RulesRecord;
use crate::script::RuleSource;

/// What resuming the rules has to tell the umpire, in order.
#[derive(Debug)]
pub enum Said {
    /// Something to know (`continuing under the rules it was played under: olab + heroes`).
    Note(String),
    /// Something that may surprise: files changed, a house rule dropped.
    Warning(String),
    /// A command run to change the rules, with its result.
    Ran(String, Executed),
}

impl Session {
    /// Brings back the rules the game was played under and applies `asked` (the command
    /// line's `--ruleset`, `--variant`, `--house`); see the module docs. A game with no rules
    /// yet is set up with `asked`. `Err` refuses to go on (another ruleset than the game's).
    pub fn resume_rules(&mut self, asked: &AskedRules) -> Result<Vec<Said>, String> {
        let Some(played) = stored_rules(&self.state.game) else {
            return Ok(self.set_up_rules(asked));
        };
        if let Some(r) = &asked.ruleset
            && Some(r) != played.ruleset.as_ref()
        {
            return Err(format!(
                "this game was played under the ruleset `{}`, and its units follow that ruleset's schema: to play `{r}`, start a new game (`game new` in the shell, or `umpire --game NAME`)",
                played.ruleset.as_deref().unwrap_or("none")
            ));
        }
        let mut said = Vec::new();
        let dropped = self.load_played(&played, &mut said);
        let Some(in_force) = self.state.rules.record() else {
            return Ok(said);
        };
        said.push(Said::Note(format!(
            "continuing under the rules this game was played under: {}",
            describe(&in_force)
        )));
        if let Some(last) = self.state.journal.last_rules() {
            let changed = last.changed_files(&in_force);
            if !changed.is_empty() {
                said.push(Said::Warning(format!(
                    "rule files changed since this game was last played: {} (the rules in force are the files as they are now)",
                    changed.join(", ")
                )));
            }
        }
        let mut wanted = RulesRecord {
            house: played
                .house
                .iter()
                .filter(|h| !dropped.contains(h))
                .cloned()
                .collect(),
            ..played.clone()
        };
        if asked.ruleset.is_some() && asked.variant.is_some() {
            wanted.variant.clone_from(&asked.variant);
        }
        if let Some(house) = &asked.house {
            wanted.house.clone_from(house);
        }
        if same_rules(&wanted, &played) {
            return Ok(said);
        }
        let why = if dropped.is_empty() {
            format!(
                "the command line asks for {} instead of {}",
                describe(&wanted),
                describe(&played)
            )
        } else {
            format!(
                "the game goes on without {}",
                dropped
                    .iter()
                    .map(|d| format!("`{d}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        match self.change_rules(&wanted) {
            Some((line, executed)) => {
                let ok = executed.is_ok();
                said.push(Said::Ran(line, executed));
                if ok {
                    said.push(Said::Note(format!(
                        "{why}: changed as one journalled rules change (`undo` goes back)"
                    )));
                }
            }
            None => said.push(Said::Warning(format!(
                "{why}, but a game without a ruleset changes its house rules with `house on` and `house off`"
            ))),
        }
        Ok(said)
    }

    /// A game with no rules yet: the rules asked for become its set-up.
    fn set_up_rules(&mut self, asked: &AskedRules) -> Vec<Said> {
        let mut lines = Vec::new();
        match &asked.ruleset {
            Some(r) => lines.push(
                use_command(&RulesRecord {
                    ruleset: Some(r.clone()),
                    variant: asked.variant.clone(),
                    house: asked.house.clone().unwrap_or_default(),
                    files: Default::default(),
                    options: Default::default(),
                })
                .expect("a ruleset is named"),
            ),
            None => lines.extend(
                asked
                    .house
                    .iter()
                    .flatten()
                    .map(|h| format!("house on {h}")),
            ),
        }
        lines
            .into_iter()
            .filter_map(|line| {
                let executed = self.execute(&line, None)?;
                Some(Said::Ran(line, executed))
            })
            .collect()
    }

    /// Runs the command that puts `wanted` in force (journalled); `None` for a game without
    /// a ruleset (no single command says that).
    fn change_rules(&mut self, wanted: &RulesRecord) -> Option<(String, Executed)> {
        let line = use_command(wanted)?;
        let executed = self.execute(&line, None)?;
        Some((line, executed))
    }

    /// Loads `played` without journalling anything. A house rule that fails to load (a
    /// broken file, one that runs away while loading) is left out, and the rest loaded; the
    /// names left out are returned. If the ruleset itself fails, no rules are loaded and
    /// the umpire is told how to go on.
    fn load_played(&mut self, played: &RulesRecord, said: &mut Vec<Said>) -> Vec<String> {
        let root = self.state.rules.root.clone();
        let source = |house: &[String]| {
            let mut s = RuleSource::new(&root, played.ruleset.as_deref());
            s.variant.clone_from(&played.variant);
            s.house = house.to_vec();
            s
        };
        if self.load_rules(source(&played.house)).is_ok() {
            return Vec::new();
        }
        // Find the culprits: the ruleset alone, then each house rule in turn.
        let mut kept: Vec<String> = Vec::new();
        let mut dropped = Vec::new();
        if played.ruleset.is_some()
            && let Err(e) = self.load_rules(source(&[]))
        {
            said.push(Said::Warning(format!(
                "the rules this game was played under ({}) did not load: {e}; the game is open without rules: fix the file and `reload`",
                describe(played)
            )));
            self.state.rules.unload(source(&played.house));
            self.sync_rules();
            return Vec::new();
        }
        for h in &played.house {
            let mut with = kept.clone();
            with.push(h.clone());
            match self.load_rules(source(&with)) {
                Ok(()) => kept = with,
                Err(e) => {
                    said.push(Said::Warning(format!(
                        "the house rule `{h}` did not load ({e}): the game goes on without it"
                    )));
                    dropped.push(h.clone());
                }
            }
        }
        if !dropped.is_empty() {
            // Leave the rules that did load in force.
            let _ = self.load_rules(source(&kept));
        }
        dropped
    }

    /// Loads `source` now (no journal entry); the registry follows.
    fn load_rules(&mut self, source: RuleSource) -> Result<(), crate::script::ScriptError> {
        let r = self.state.rules.load(source).map(|_| ());
        self.sync_rules();
        r
    }
}
