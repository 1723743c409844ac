//! The rules a session runs under: which ruleset and house rules are loaded, the Lua host
//! they live in, and swapping in new rules (by hand, or when the watcher sees a file change).
//!
//! The commands `ruleset`, `house` and `reload` live here too. Swapping never touches game
//! state: only `ruleset use` applies a ruleset's schema to the game, as a journalled change.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::json;

use super::color::Style;
use super::command::Command;
use super::error::CommandError;
use super::output::{Output, Text};
use super::registry::Registry;
use super::session::Context;
use crate::script::{Control, Limits, Loaded, Reloader, RuleSource, ScriptError};

/// The session's rules: where rule files are, what is loaded and the Lua host.
#[derive(Debug)]
pub struct Scripts {
    /// The folder holding `rulesets/` and `scripts/`.
    pub root: PathBuf,
    /// Budgets for every script call.
    pub limits: Limits,
    /// Ctrl-C while a script runs, and time spent waiting for the umpire (shared with the
    /// host).
    pub control: Arc<Control>,
    /// Loads and watches the rules.
    pub reloader: Reloader,
    /// The rules in force, if any loaded.
    pub loaded: Option<Loaded>,
    /// Names commands of the rules may not take.
    pub builtins: Vec<String>,
}

impl Scripts {
    /// No rules yet, rule files under `root`, scripts run under `limits`.
    pub fn new(root: PathBuf, builtins: Vec<String>, limits: Limits) -> Self {
        let control = Control::new();
        Scripts {
            reloader: Reloader::new(RuleSource::new(&root, None), limits, control.clone()),
            root,
            limits,
            control,
            loaded: None,
            builtins,
        }
    }

    /// What is (to be) loaded.
    pub fn source(&self) -> &RuleSource {
        self.reloader.source()
    }

    /// The generation of the rules in force (0: none).
    pub fn generation(&self) -> u64 {
        self.loaded.as_ref().map_or(0, |l| l.rules.generation)
    }

    /// Loads `source` now; on success the new rules are in force, on failure the old ones
    /// stay and `source` is not kept.
    pub fn load(&mut self, source: RuleSource) -> Result<&Loaded, ScriptError> {
        let old = self.reloader.source().clone();
        self.reloader.set_source(source);
        match self.reloader.reload().and_then(|l| self.accept(l)) {
            Ok(()) => Ok(self.loaded.as_ref().expect("just accepted")),
            Err(e) => {
                self.reloader.set_source(old);
                Err(e)
            }
        }
    }

    /// Takes freshly loaded rules if their commands leave the built-ins alone and no handler
    /// waits to cancel one of the umpire's controls (`pre_undo`, `pre_quit`…).
    pub fn accept(&mut self, loaded: Loaded) -> Result<(), ScriptError> {
        if let Some(h) = loaded
            .rules
            .handlers
            .iter()
            .find(|h| super::script_commands::is_control_event(&h.event, &self.builtins))
        {
            let name = &h.event["pre_".len()..];
            return Err(ScriptError::new(crate::script::ScriptErrorKind::Usage(
                format!(
                    "{}: `{}` is never raised: `{name}` is not a game command, and no rule may cancel the umpire's own controls; `pre_` events are raised for the rules' own commands and the game commands {}",
                    h.origin,
                    h.event,
                    super::script_commands::GAME_COMMANDS.join(", ")
                ),
            )));
        }
        if let Some(c) = loaded
            .rules
            .commands
            .values()
            .find(|c| self.builtins.contains(&c.name))
        {
            return Err(ScriptError::new(crate::script::ScriptErrorKind::Usage(
                format!(
                    "{}: command `{}` has the name of a built-in command; give it another name",
                    c.origin, c.name
                ),
            )));
        }
        self.loaded = Some(loaded);
        Ok(())
    }

    /// Called at the prompt: new rules if a watched file changed and everything loaded, an
    /// error if it did not (the old rules stay), `None` if nothing changed.
    pub fn poll(&mut self) -> Option<Result<u64, ScriptError>> {
        let r = self.reloader.poll()?;
        Some(r.and_then(|l| self.accept(l)).map(|()| self.generation()))
    }

    /// The rulesets found under `rulesets/` (folders with an `init.lua`), sorted.
    pub fn rulesets(&self) -> Vec<String> {
        rulesets_in(&self.root)
    }

    /// The house rules found under `scripts/` (`NAME.lua`), sorted.
    pub fn house_rules(&self) -> Vec<String> {
        house_rules_in(&self.root)
    }
}

/// The rulesets under `root/rulesets` (folders with an `init.lua`), sorted.
pub fn rulesets_in(root: &Path) -> Vec<String> {
    names_in(&root.join("rulesets"), |p| {
        p.join("init.lua")
            .is_file()
            .then(|| p.file_name()?.to_str().map(str::to_string))?
    })
}

/// The house rules under `root/scripts` (`NAME.lua`), sorted.
pub fn house_rules_in(root: &Path) -> Vec<String> {
    names_in(&root.join("scripts"), |p| {
        (p.extension()? == "lua" && p.is_file())
            .then(|| p.file_stem()?.to_str().map(str::to_string))?
    })
}

/// The names `name` gives to the entries of `dir` it keeps, sorted.
fn names_in(dir: &Path, name: impl Fn(&Path) -> Option<String>) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| name(&e.path()))
        .collect();
    out.sort();
    out
}

/// `path` for people: relative to the current folder when it is inside it.
fn shown(path: &Path) -> String {
    let cwd = std::env::current_dir().unwrap_or_default();
    let rel = path.strip_prefix(&cwd).unwrap_or(path);
    if rel.as_os_str().is_empty() {
        ".".into()
    } else {
        rel.display().to_string()
    }
}

/// The first comment line of a Lua file (`-- Ambush: …`), for lists.
fn description(path: &Path) -> String {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.trim().strip_prefix("--").map(|d| d.trim().to_string()))
        })
        .unwrap_or_default()
}

/// Where rule files are looked for: `dir` if given, else the current folder if it has a
/// `rulesets/` folder, else the folder umpire was built from (a source checkout).
pub fn rules_root(dir: Option<&Path>) -> PathBuf {
    if let Some(d) = dir {
        return d.to_path_buf();
    }
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    if cwd.join("rulesets").is_dir() {
        return cwd;
    }
    let built = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    if built.join("rulesets").is_dir() {
        built
    } else {
        cwd
    }
}

/// A script error as a command error (its text keeps file, line and what was running).
pub fn script_err(e: ScriptError, span: crate::span::Span) -> CommandError {
    let help = e.traceback.clone().filter(|t| !t.is_empty());
    CommandError::invalid(e.to_string(), help, span)
}

/// One line saying what is in force: `rules: demo (variant classic) + ambush · generation 3`.
pub fn summary(scripts: &Scripts) -> String {
    let Some(l) = &scripts.loaded else {
        return "no rules loaded (`ruleset list`, then `ruleset use NAME`)".into();
    };
    let src = scripts.source();
    let mut s = match (&l.rules.name, &src.variant) {
        (Some(n), Some(v)) => format!("rules: {n} (variant {v})"),
        (Some(n), None) => format!("rules: {n}"),
        (None, _) => "rules: no ruleset".to_string(),
    };
    for h in &src.house {
        s.push_str(&format!(" + {h}"));
    }
    s.push_str(&format!(
        " · generation {} · {} commands",
        l.rules.generation,
        l.rules.commands.len()
    ));
    s
}

/// Loads `source` for a command, applying the ruleset's schema when `apply_schema`; the
/// output names what is now in force.
fn switch(
    ctx: &mut Context<'_>,
    cmd: &Command,
    source: RuleSource,
    apply_schema: bool,
) -> Result<Output, CommandError> {
    let name = cmd.name.text.clone();
    let previous = ctx.state.scripts.loaded.take();
    let previous_source = ctx.state.scripts.source().clone();
    let schema = match ctx.state.scripts.load(source) {
        Ok(loaded) => loaded.rules.schema.clone(),
        Err(e) => {
            ctx.state.scripts.loaded = previous;
            return Err(script_err(e, cmd.rest_span()));
        }
    };
    let declares = ctx
        .state
        .scripts
        .loaded
        .as_ref()
        .is_some_and(|l| l.rules.name.is_some())
        && schema != crate::state::Schema::default();
    let mut text = Text::new().push(Style::Strong, summary(&ctx.state.scripts));
    let applied = if apply_schema && declares && *ctx.state.game.schema() != schema {
        text = text.plain("\nthe ruleset's unit schema and sequence of play now apply");
        ctx.state.change(|g| g.set_schema(schema))
    } else {
        Ok(())
    };
    // The rules in force are kept in the game, so a session continued from its journal
    // loads them again.
    let remembered = applied.and_then(|()| {
        let value = rules_value(ctx.state.scripts.source());
        if ctx.state.game.stored(RULES_SCRIPT, RULES_KEY) == Some(&value) {
            Ok(())
        } else {
            ctx.state
                .change(|g| g.set_stored(RULES_SCRIPT, RULES_KEY, Some(value)))
        }
    });
    if let Err(e) = remembered {
        ctx.state.scripts.loaded = previous;
        ctx.state.scripts.reloader.set_source(previous_source);
        return Err(super::game_commands::state_err(e, 0));
    }
    Ok(Output::new(&name)
        .field("generation", ctx.state.generation())
        .text(text))
}

/// Where the rules in force are kept in the game's store.
pub const RULES_SCRIPT: &str = "umpire";
/// The store key of the rules in force.
pub const RULES_KEY: &str = "rules";

/// The rules in force as stored: `{"ruleset": …, "variant": …, "house": […]}`.
fn rules_value(src: &RuleSource) -> serde_json::Value {
    json!({"ruleset": src.ruleset, "variant": src.variant, "house": src.house})
}

/// The commands that load the rules a game was last played under (from its store), for a
/// session continued from a journal.
pub fn remembered_rules(game: &crate::state::Game) -> Vec<String> {
    let Some(v) = game.stored(RULES_SCRIPT, RULES_KEY) else {
        return Vec::new();
    };
    let mut lines = Vec::new();
    if let Some(r) = v["ruleset"].as_str() {
        let variant = v["variant"]
            .as_str()
            .map_or(String::new(), |v| format!(" {v}"));
        lines.push(format!("ruleset use {r}{variant}"));
    }
    for h in v["house"].as_array().into_iter().flatten() {
        if let Some(h) = h.as_str() {
            lines.push(format!("house on {h}"));
        }
    }
    lines
}

/// `ruleset`, `ruleset list`, `ruleset use NAME [VARIANT]`.
pub fn ruleset(ctx: &mut Context<'_>, cmd: &Command) -> Result<Output, CommandError> {
    const USAGE: &str = "ruleset [list | use NAME [VARIANT]]";
    let args = cmd.arg_texts();
    match args.as_slice() {
        [] => {
            let s = &ctx.state.scripts;
            let mut text = Text::new().push(Style::Strong, summary(s));
            if let Some(l) = &s.loaded {
                if !l.rules.doc.is_empty() {
                    text = text.plain(format!("\n{}", l.rules.doc));
                }
                for v in &l.rules.variants {
                    text = text.plain(format!("\n  variant {}: {}", v.name, v.doc));
                }
                let names: Vec<&str> = l.rules.commands.keys().map(String::as_str).collect();
                if !names.is_empty() {
                    text = text.plain(format!("\ncommands: {}", names.join(", ")));
                }
            }
            Ok(Output::new("ruleset")
                .field(
                    "ruleset",
                    s.loaded.as_ref().and_then(|l| l.rules.name.clone()),
                )
                .field("variant", s.source().variant.clone())
                .field("house", s.source().house.clone())
                .field("generation", s.generation())
                .text(text))
        }
        ["list"] => {
            let s = &ctx.state.scripts;
            let names = s.rulesets();
            let mut text = Text::new().push(
                Style::Strong,
                format!("rulesets in {}", shown(&s.root.join("rulesets"))),
            );
            for n in &names {
                let doc = description(&s.root.join("rulesets").join(n).join("init.lua"));
                let on = s.source().ruleset.as_deref() == Some(n.as_str());
                text = text
                    .plain(format!("\n  {} ", if on { "*" } else { " " }))
                    .push(Style::Strong, n.clone())
                    .plain(format!("  {doc}"));
            }
            if names.is_empty() {
                text = text.plain("\n  (none)");
            }
            Ok(Output::new("ruleset").field("rulesets", names).text(text))
        }
        ["use", name] | ["use", name, _] => {
            let mut src = ctx.state.scripts.source().clone();
            src.ruleset = Some(name.to_string());
            src.variant = args.get(2).map(|v| v.to_string());
            switch(ctx, cmd, src, true)
        }
        _ => Err(CommandError::usage(
            "`ruleset` takes `list` or `use NAME [VARIANT]`",
            USAGE,
            cmd.rest_span(),
        )),
    }
}

/// `house list`, `house on NAME`, `house off NAME`.
pub fn house(ctx: &mut Context<'_>, cmd: &Command) -> Result<Output, CommandError> {
    const USAGE: &str = "house [list | on NAME | off NAME]";
    let args = cmd.arg_texts();
    match args.as_slice() {
        [] | ["list"] => {
            let s = &ctx.state.scripts;
            let names = s.house_rules();
            let mut text = Text::new().push(
                Style::Strong,
                format!("house rules in {}", shown(&s.root.join("scripts"))),
            );
            for n in &names {
                let on = s.source().house.contains(n);
                let doc = description(&s.root.join("scripts").join(format!("{n}.lua")));
                text = text
                    .plain(format!("\n  {} ", if on { "on " } else { "off" }))
                    .push(Style::Strong, n.clone())
                    .plain(format!("  {doc}"));
            }
            if names.is_empty() {
                text = text.plain("\n  (none)");
            }
            Ok(Output::new("house")
                .field("house", names)
                .field("on", s.source().house.clone())
                .text(text))
        }
        ["on", name] => {
            let mut src = ctx.state.scripts.source().clone();
            if src.house.iter().any(|h| h == name) {
                return Err(CommandError::invalid(
                    format!("house rule `{name}` is already on"),
                    Some("`house list` shows what is on".into()),
                    cmd.args[1].span,
                ));
            }
            src.house.push(name.to_string());
            switch(ctx, cmd, src, false)
        }
        ["off", name] => {
            let mut src = ctx.state.scripts.source().clone();
            let before = src.house.len();
            src.house.retain(|h| h != name);
            if src.house.len() == before {
                return Err(CommandError::invalid(
                    format!("house rule `{name}` is not on"),
                    Some(format!("on now: {}", src.house.join(", "))),
                    cmd.args[1].span,
                ));
            }
            switch(ctx, cmd, src, false)
        }
        _ => Err(CommandError::usage(
            "`house` takes `list`, `on NAME` or `off NAME`",
            USAGE,
            cmd.rest_span(),
        )),
    }
}

/// `reload`: loads the rules again from their files.
pub fn reload(ctx: &mut Context<'_>, cmd: &Command) -> Result<Output, CommandError> {
    if ctx.state.scripts.source().ruleset.is_none() && ctx.state.scripts.source().house.is_empty() {
        return Err(CommandError::invalid(
            "no rules are loaded, so there is nothing to reload",
            Some("`ruleset use NAME` loads a ruleset".into()),
            cmd.name.span,
        ));
    }
    let src = ctx.state.scripts.source().clone();
    switch(ctx, cmd, src, false)
}

/// Completion of `ruleset`: subcommands, then the rulesets found.
pub fn complete_ruleset(_: &Registry, before: &[&str]) -> Vec<String> {
    match before {
        [] => vec!["list".into(), "use".into()],
        ["use"] => rulesets_in(&rules_root(None)),
        _ => Vec::new(),
    }
}

/// Completion of `house`: subcommands, then the house rules found.
pub fn complete_house(_: &Registry, before: &[&str]) -> Vec<String> {
    match before {
        [] => vec!["list".into(), "on".into(), "off".into()],
        ["on"] | ["off"] => house_rules_in(&rules_root(None)),
        _ => Vec::new(),
    }
}

/// The JSON for a reload outside a command (the REPL prints it as text).
pub fn reload_report(result: &Result<u64, ScriptError>) -> serde_json::Value {
    match result {
        Ok(g) => json!({"event": "reload", "generation": g}),
        Err(e) => json!({"event": "reload", "error": e.to_string()}),
    }
}
