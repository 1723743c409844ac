//! The rules a session runs under: which ruleset and house rules are loaded, the Lua host
//! they live in, and swapping in new rules (by hand, or when the watcher sees a file change).
//!
//! The commands `ruleset`, `house` and `reload` live here too. Swapping never touches game
//! state: only `ruleset use` applies a ruleset's schema to the game, as a journalled change.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::json;

use super::error::CommandError;
use super::line::CommandLine;
use super::output::{Output, Text};
use super::registry::Invocation;
use super::session::Context;
use super::style::Style;
use crate::journal::RulesRecord;
use crate::script::{Budgets, Control, Loaded, Reloader, RuleSource, ScriptError};

/// The session's rules: where rule files are, what is loaded and the Lua host.
#[derive(Debug)]
pub struct RulesInForce {
    /// The folder holding `rulesets/` and `scripts/`.
    pub root: PathBuf,
    /// Budgets for every script call.
    pub budgets: Budgets,
    /// Ctrl-C while a script runs, and time spent waiting for the umpire (shared with the
    /// host).
    pub control: Arc<Control>,
    /// Loads and watches the rules.
    pub reloader: Reloader,
    /// The rules in force, if any loaded.
    pub loaded: Option<Loaded>,
    /// Names commands of the rules may not take.
    pub builtins: super::rule_commands::BuiltinNames,
    /// The rules generation and the options set that the host last read
    /// ([`options::sync`](super::options::sync)).
    pub options_synced: Option<(u64, std::collections::BTreeMap<String, serde_json::Value>)>,
}

impl RulesInForce {
    /// No rules yet, rule files under `root`, scripts run under `budgets`.
    pub fn new(
        root: PathBuf,
        builtins: super::rule_commands::BuiltinNames,
        budgets: Budgets,
    ) -> Self {
        let control = Control::new();
        RulesInForce {
            reloader: Reloader::new(RuleSource::new(&root, None), budgets, control.clone()),
            root,
            budgets,
            control,
            loaded: None,
            builtins,
            options_synced: None,
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

    /// No rules in force; `source` is what `reload` tries next (the rules a game was played
    /// under that did not load, say).
    pub fn unload(&mut self, source: RuleSource) {
        self.loaded = None;
        self.reloader.set_source(source);
    }

    /// Takes freshly loaded rules if their commands leave the built-ins alone and no handler
    /// waits to cancel one of the umpire's controls (`pre_undo`, `pre_quit`…).
    pub fn accept(&mut self, loaded: Loaded) -> Result<(), ScriptError> {
        if let Some(h) = loaded
            .rules
            .handlers
            .iter()
            .find(|h| super::rule_commands::is_control_event(&h.event, &self.builtins))
        {
            let name = &h.event["pre_".len()..];
            return Err(ScriptError::new(crate::script::ScriptErrorKind::Usage(
                format!(
                    "{}: `{}` is never raised: `{name}` is not a game command, and no rule may cancel the umpire's own controls; `pre_` events are raised for the rules' own commands and the game commands {}",
                    h.origin,
                    h.event,
                    self.builtins.game.join(", ")
                ),
            )));
        }
        if let Some(c) = loaded
            .rules
            .commands
            .values()
            .find(|c| self.builtins.all.contains(&c.name))
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

    /// The rules in force as a journal record (with the hash of every file loaded); `None`
    /// when no rules are loaded.
    pub fn record(&self) -> Option<RulesRecord> {
        let l = self.loaded.as_ref()?;
        let src = self.source();
        Some(RulesRecord {
            ruleset: src.ruleset.clone(),
            variant: src.variant.clone(),
            house: src.house.clone(),
            files: l.rules.hashes.clone(),
            options: self
                .options_synced
                .as_ref()
                .filter(|(g, _)| *g == l.rules.generation)
                .map(|(_, set)| set.clone())
                .unwrap_or_default(),
        })
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
/// Only its start is read (and nothing from a FIFO or a device), so a list never waits.
fn description(path: &Path) -> String {
    let Ok(file) = crate::files::open(path) else {
        return String::new();
    };
    let mut start = Vec::new();
    let _ = std::io::Read::read_to_end(&mut std::io::Read::take(file, 64 * 1024), &mut start);
    String::from_utf8_lossy(&start)
        .lines()
        .find_map(|l| l.trim().strip_prefix("--").map(|d| d.trim().to_string()))
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

/// A script error as a command error (its text keeps file, line and what was running). A
/// fault in a house rule says how to carry on without it; the help shows the rule files'
/// frames of the traceback (the host's own frames say nothing to a club).
pub fn script_err(e: ScriptError, span: crate::span::Span) -> CommandError {
    let mut help: Vec<String> = Vec::new();
    if let Some(rule) = e.location.as_deref().and_then(house_rule_of) {
        help.push(format!(
            "the house rule `{rule}` failed: `house off {rule}` switches it off so the game can go on"
        ));
    }
    let frames: Vec<&str> = e
        .traceback
        .iter()
        .flat_map(|t| t.lines())
        .map(str::trim)
        .filter(|l| l.starts_with("rulesets/") || l.starts_with("scripts/"))
        .collect();
    if !frames.is_empty() {
        help.push(format!("called from:\n  {}", frames.join("\n  ")));
    }
    let help = (!help.is_empty()).then(|| help.join("\n"));
    CommandError::invalid(e.to_string(), help, span)
}

/// The house rule a location such as `scripts/heroes.lua:12` or `scripts/heroes/olab.lua:3`
/// is in.
fn house_rule_of(location: &str) -> Option<&str> {
    let rest = location.strip_prefix("scripts/")?;
    let first = rest.split(['/', ':']).next()?;
    Some(first.strip_suffix(".lua").unwrap_or(first))
}

/// One line saying what is in force: `rules: demo (variant classic) + ambush · generation 3`.
pub fn summary(scripts: &RulesInForce) -> String {
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
    cmd: &CommandLine,
    source: RuleSource,
    apply_schema: bool,
) -> Result<Output, CommandError> {
    let name = cmd.name.text.clone();
    let previous = ctx.state.rules.loaded.take();
    let previous_source = ctx.state.rules.source().clone();
    let schema = match ctx.state.rules.load(source) {
        Ok(loaded) => loaded.rules.schema.clone(),
        Err(e) => {
            ctx.state.rules.loaded = previous;
            return Err(script_err(e, cmd.rest_span()));
        }
    };
    let declares = ctx
        .state
        .rules
        .loaded
        .as_ref()
        .is_some_and(|l| l.rules.name.is_some())
        && schema != crate::state::Schema::default();
    let mut text = Text::new().push(Style::Strong, summary(&ctx.state.rules));
    let applied = if apply_schema && declares && *ctx.state.game.schema() != schema {
        text = text.plain("\nthe ruleset's unit schema and sequence of play now apply");
        ctx.state.change(|g| g.set_schema(schema))
    } else {
        Ok(())
    };
    // The rules in force are kept in the game, so a session continued from its journal
    // loads them again.
    let remembered = applied.and_then(|()| {
        let value = rules_value(ctx.state.rules.source());
        let now: Option<RulesRecord> = serde_json::from_value(value.clone()).ok();
        if stored_rules(&ctx.state.game)
            .zip(now)
            .is_some_and(|(a, b)| same_rules(&a, &b))
        {
            Ok(())
        } else {
            ctx.state
                .change(|g| g.set_stored(RULES_SCRIPT, RULES_KEY, Some(value)))
        }
    });
    if let Err(e) = remembered {
        ctx.state.rules.loaded = previous;
        ctx.state.rules.reloader.set_source(previous_source);
        return Err(super::commands::game::state_err(e, 0));
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

/// The rules a game's store says it is played under (`None` before any rules were set up).
pub fn stored_rules(game: &crate::state::Game) -> Option<RulesRecord> {
    serde_json::from_value(game.stored(RULES_SCRIPT, RULES_KEY)?.clone()).ok()
}

/// The rules asked for on the command line (or by `ruleset use`): `house` is `None` when no
/// house rule was named (those on stay on).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AskedRules {
    /// `--ruleset NAME`.
    pub ruleset: Option<String>,
    /// `--variant V`.
    pub variant: Option<String>,
    /// `--house NAME`, each.
    pub house: Option<Vec<String>>,
}

/// Whether two records name the same rules (ruleset, variant, house rules in order).
pub fn same_rules(a: &RulesRecord, b: &RulesRecord) -> bool {
    a.ruleset == b.ruleset && a.variant == b.variant && a.house == b.house
}

/// `olab (variant 2e) + heroes + ambushes`, or `no rules`.
pub fn describe(r: &RulesRecord) -> String {
    let mut s = match (&r.ruleset, &r.variant) {
        (Some(n), Some(v)) => format!("{n} (variant {v})"),
        (Some(n), None) => n.clone(),
        (None, _) => "no ruleset".to_string(),
    };
    for h in &r.house {
        s.push_str(&format!(" + {h}"));
    }
    s
}

/// The command that puts `r` in force as one journalled change: `ruleset use NAME [VARIANT]
/// --house A --house B` (or `--no-house`).
pub fn use_command(r: &RulesRecord) -> Option<String> {
    let mut line = format!("ruleset use {}", r.ruleset.as_deref()?);
    if let Some(v) = &r.variant {
        line.push_str(&format!(" {v}"));
    }
    if r.house.is_empty() {
        line.push_str(" --no-house");
    }
    for h in &r.house {
        line.push_str(&format!(" --house {h}"));
    }
    Some(line)
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

/// `ruleset`, `ruleset list`, `ruleset use NAME [VARIANT] [--house NAME]... [--no-house]`.
pub fn ruleset(ctx: &mut Context<'_>, inv: &Invocation<'_>) -> Result<Output, CommandError> {
    let cmd = inv.line;
    match inv.args.sub() {
        None => {
            let s = &ctx.state.rules;
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
        Some("list") => {
            let s = &ctx.state.rules;
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
        _ => {
            let args = &inv.args;
            let mut src = ctx.state.rules.source().clone();
            src.ruleset = args.text("name").map(str::to_string);
            src.variant = args.text("variant").map(str::to_string);
            if args.flag("no-house") {
                src.house.clear();
            }
            let house: Vec<String> = args
                .all("house")
                .filter_map(|a| match &a.value {
                    crate::engine::signature::Value::Text(t) => Some(t.clone()),
                    _ => None,
                })
                .collect();
            if !house.is_empty() {
                src.house = house;
            }
            switch(ctx, cmd, src, true)
        }
    }
}

/// `house list`, `house on NAME`, `house off NAME`.
pub fn house(ctx: &mut Context<'_>, inv: &Invocation<'_>) -> Result<Output, CommandError> {
    let cmd = inv.line;
    let name = inv.args.text("name").unwrap_or_default();
    let name_span = inv.args.get("name").map(|a| a.span).unwrap_or_default();
    match inv.args.sub() {
        None | Some("list") => {
            let s = &ctx.state.rules;
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
        Some("on") => {
            let known = ctx.state.rules.house_rules();
            let exists = ctx
                .state
                .rules
                .root
                .join("scripts")
                .join(format!("{name}.lua"))
                .exists();
            if !exists {
                let near = crate::state::error::nearest(name, known.iter().map(String::as_str));
                return Err(CommandError::invalid(
                    format!("no house rule `{name}` in scripts/"),
                    Some(match near.first() {
                        Some(n) => format!("did you mean `{n}`? `house list` shows them all"),
                        None => format!(
                            "the house rules are {}; `house list` describes them",
                            known.join(", ")
                        ),
                    }),
                    name_span,
                ));
            }
            let mut src = ctx.state.rules.source().clone();
            if src.house.iter().any(|h| h == name) {
                return Err(CommandError::invalid(
                    format!("house rule `{name}` is already on"),
                    Some("`house list` shows what is on".into()),
                    name_span,
                ));
            }
            src.house.push(name.to_string());
            switch(ctx, cmd, src, false)
        }
        _ => {
            let mut src = ctx.state.rules.source().clone();
            let before = src.house.len();
            src.house.retain(|h| h != name);
            if src.house.len() == before {
                return Err(CommandError::invalid(
                    format!("house rule `{name}` is not on"),
                    Some(format!("on now: {}", src.house.join(", "))),
                    name_span,
                ));
            }
            switch(ctx, cmd, src, false)
        }
    }
}

/// `reload`: loads the rules again from their files.
pub fn reload(ctx: &mut Context<'_>, inv: &Invocation<'_>) -> Result<Output, CommandError> {
    let cmd = inv.line;
    if ctx.state.rules.source().ruleset.is_none() && ctx.state.rules.source().house.is_empty() {
        return Err(CommandError::invalid(
            "no rules are loaded, so there is nothing to reload",
            Some("`ruleset use NAME` loads a ruleset".into()),
            cmd.name.span,
        ));
    }
    let src = ctx.state.rules.source().clone();
    switch(ctx, cmd, src, false)
}

/// The JSON for a reload outside a command (the REPL prints it as text).
pub fn reload_report(result: &Result<u64, ScriptError>) -> serde_json::Value {
    match result {
        Ok(g) => json!({"event": "reload", "generation": g}),
        Err(e) => json!({"event": "reload", "error": e.to_string()}),
    }
}
