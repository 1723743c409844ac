//! Loading the rules: a ruleset folder (`rulesets/NAME/init.lua`) and house-rule scripts
//! (`scripts/NAME.lua`) into a fresh [`ScriptHost`], giving a fresh [`Rules`].

use std::path::PathBuf;
use std::sync::Arc;

use super::error::{ScriptError, ScriptErrorKind};
use super::host::{HostData, ScriptHost};
use super::registry::Rules;
use super::sandbox::{Budgets, Control};

/// What to load: where the rule folders are, which ruleset (and variant), which house rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleSource {
    /// The `rulesets/` folder.
    pub rulesets: PathBuf,
    /// The `scripts/` folder (house rules and shared helpers).
    pub scripts: PathBuf,
    /// The ruleset to load (`rulesets/NAME/init.lua`), if any.
    pub ruleset: Option<String>,
    /// The variant to select (must be declared by the ruleset).
    pub variant: Option<String>,
    /// House rules to layer on, in order (`scripts/NAME.lua`).
    pub house: Vec<String>,
}

impl RuleSource {
    /// The ruleset `name` under `root/rulesets`, with `root/scripts` for house rules.
    pub fn new(root: impl Into<PathBuf>, ruleset: Option<&str>) -> Self {
        let root = root.into();
        RuleSource {
            rulesets: root.join("rulesets"),
            scripts: root.join("scripts"),
            ruleset: ruleset.map(str::to_string),
            variant: None,
            house: Vec::new(),
        }
    }

    /// The folders and files a watcher should watch: the ruleset folder and the house-rule
    /// files (files pulled in with `require` are added from [`Rules::files`]).
    pub fn watched(&self) -> Vec<PathBuf> {
        let mut out = Vec::new();
        if let Some(r) = &self.ruleset {
            out.push(self.rulesets.join(r));
        }
        for h in &self.house {
            out.push(self.scripts.join(format!("{h}.lua")));
        }
        out
    }
}

/// A host with the rules loaded into it: swap both in together.
#[derive(Debug)]
pub struct Loaded {
    /// The Lua state the rules live in.
    pub host: ScriptHost,
    /// What was registered.
    pub rules: Rules,
}

fn check_name(name: &str, what: &str) -> Result<(), ScriptError> {
    let ok = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if ok {
        Ok(())
    } else {
        Err(ScriptError::new(ScriptErrorKind::NotFound(format!(
            "`{name}` is not a {what} name (letters, digits, `_` and `-`)"
        ))))
    }
}

/// Loads `src` into a fresh host with budgets `limits` (each file gets a fresh budget) and
/// the control shared with the session (Ctrl-C, time waited). The [`Rules`] have generation 0; the caller numbers them.
pub fn load(
    src: &RuleSource,
    budgets: Budgets,
    control: Arc<Control>,
) -> Result<Loaded, ScriptError> {
    let mut host = ScriptHost::new(budgets, &src.rulesets, &src.scripts)?;
    host.set_control(control);
    host.set_variant(src.variant.as_deref())?;
    if let Some(mut d) = host.lua().app_data_mut::<HostData>() {
        d.rules = Some(Rules::default());
    }
    if let Some(name) = &src.ruleset {
        check_name(name, "ruleset")?;
        let path = src.rulesets.join(name).join("init.lua");
        // Anything else at the path (a FIFO, a device) is refused by name when read.
        if !path.exists() {
            return Err(ScriptError::new(ScriptErrorKind::NotFound(format!(
                "no ruleset `{name}`: rulesets/{name}/init.lua does not exist"
            ))));
        }
        host.exec_file(&path, &format!("rulesets/{name}/init.lua"))?;
    }
    for h in &src.house {
        check_name(h, "house rule")?;
        let path = src.scripts.join(format!("{h}.lua"));
        if !path.exists() {
            return Err(ScriptError::new(ScriptErrorKind::NotFound(format!(
                "no house rule `{h}`: scripts/{h}.lua does not exist"
            ))));
        }
        host.exec_file(&path, &format!("scripts/{h}.lua"))?;
    }
    let mut rules = host
        .lua()
        .app_data_mut::<HostData>()
        .and_then(|mut d| d.rules.take())
        .unwrap_or_default();
    rules.files = host.files();
    rules.hashes = host.file_hashes();
    if let Some(v) = &src.variant
        && !rules.variants.iter().any(|x| &x.name == v)
    {
        let known: Vec<&str> = rules.variants.iter().map(|v| v.name.as_str()).collect();
        return Err(ScriptError::new(ScriptErrorKind::Usage(format!(
            "no variant `{v}` in ruleset `{}` (declared: {})",
            rules.name.as_deref().unwrap_or("?"),
            if known.is_empty() {
                "none".to_string()
            } else {
                known.join(", ")
            }
        ))));
    }
    rules.variant = src.variant.clone();
    rules.hook_table = Some(super::host::hook_table(host.lua(), &rules)?);
    if let Some(mut d) = host.lua().app_data_mut::<HostData>() {
        d.tables = rules.tables.clone();
        d.ruleset_name = rules.name.clone();
    }
    Ok(Loaded { host, rules })
}
