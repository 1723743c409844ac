//! `option`: the readings the rules let the umpire choose, listed and changed mid-game.
//!
//! The values the umpire set live in the game's store (`umpire` / `options`), so `option set`
//! is one journalled change, undone by `undo` and replayed like any other; the rules read the
//! values in force with `umpire.option(name)`. Before each command the engine hands the
//! values in force to the Lua host ([`sync`]).

use std::collections::BTreeMap;

use serde_json::{Value as Json, json};

use super::error::CommandError;
use super::output::{Output, Text};
use super::registry::Invocation;
use super::rules::RULES_SCRIPT;
use super::session::Context;
use super::session::State;
use super::style::Style;
use crate::script::OptionDef;
use crate::script::options::{OptionKind, show, values_in_force};

/// The store key of the options the umpire set.
pub const OPTIONS_KEY: &str = "options";

/// The options the umpire set in `game` (name → value), whether or not the rules in force
/// still declare them.
pub fn stored_options(game: &crate::state::Game) -> BTreeMap<String, Json> {
    game.stored(RULES_SCRIPT, OPTIONS_KEY)
        .and_then(|v| serde_json::from_value(v.clone()).ok())
        .unwrap_or_default()
}

/// Hands the values in force to the Lua host when they changed (a command, an undo, a
/// reload): what `umpire.option(name)` reads.
pub fn sync(state: &mut State) {
    let Some(loaded) = state.rules.loaded.as_ref() else {
        return;
    };
    let set = stored_options(&state.game);
    let key = (loaded.rules.generation, set);
    if state.rules.options_synced.as_ref() == Some(&key) {
        return;
    }
    let values = values_in_force(&loaded.rules.options, &key.1);
    // The host was built with the defaults; a failure here (out of memory) leaves them.
    if loaded.host.set_option_values(&values).is_ok() {
        state.rules.options_synced = Some(key);
    }
}

/// `option`, `option list`, `option set NAME VALUE`, `option reset NAME|all`.
pub fn option(ctx: &mut Context<'_>, inv: &Invocation<'_>) -> Result<Output, CommandError> {
    let defs: Vec<OptionDef> = ctx
        .state
        .rules
        .loaded
        .as_ref()
        .map(|l| l.rules.options.clone())
        .unwrap_or_default();
    match inv.args.sub() {
        None | Some("list") => Ok(list(&defs, &stored_options(&ctx.state.game))),
        Some("set") => {
            let def = find(&defs, inv)?;
            let word = inv.args.text("value").unwrap_or_default();
            let span = inv.args.get("value").map(|a| a.span).unwrap_or_default();
            let value = def.parse(word).map_err(|e| {
                CommandError::invalid(
                    e.message.clone(),
                    Some(format!("`option set {} {}`", def.name, e.expected)),
                    span,
                )
            })?;
            let mut set = stored_options(&ctx.state.game);
            let was = set.get(&def.name).cloned().unwrap_or(def.default.clone());
            if value == def.default {
                set.remove(&def.name);
            } else {
                set.insert(def.name.clone(), value.clone());
            }
            store(ctx, set)?;
            let text = Text::new()
                .push(Style::Strong, format!("{} = {}", def.name, show(&value)))
                .plain(format!(
                    "  (was {}{})",
                    show(&was),
                    if value == def.default {
                        "; this is the recommended reading"
                    } else {
                        ""
                    }
                ));
            Ok(Output::new("option")
                .field("option", def.name.clone())
                .field("value", value)
                .field("was", was)
                .text(text))
        }
        Some("reset") => {
            let name = inv.args.text("name").unwrap_or_default();
            let mut set = stored_options(&ctx.state.game);
            let reset: Vec<String> = if name == "all" {
                std::mem::take(&mut set).into_keys().collect()
            } else {
                let def = find(&defs, inv)?;
                set.remove(&def.name)
                    .map(|_| def.name.clone())
                    .into_iter()
                    .collect()
            };
            if !reset.is_empty() {
                store(ctx, set)?;
            }
            let text = if reset.is_empty() {
                Text::from_plain("nothing to reset: every option is at its recommended reading")
            } else {
                Text::new()
                    .push(Style::Strong, "back to the recommended reading: ")
                    .plain(reset.join(", "))
            };
            Ok(Output::new("option").field("reset", reset).text(text))
        }
        Some(other) => Err(CommandError::invalid(
            format!("`option {other}` is not a sub-command"),
            Some("`option list`, `option set NAME VALUE` or `option reset NAME`".into()),
            inv.line.rest_span(),
        )),
    }
}

/// The option `inv`'s `name` argument names, or an error listing the options.
fn find<'a>(defs: &'a [OptionDef], inv: &Invocation<'_>) -> Result<&'a OptionDef, CommandError> {
    let name = inv.args.text("name").unwrap_or_default();
    let span = inv.args.get("name").map(|a| a.span).unwrap_or_default();
    if let Some(d) = defs.iter().find(|d| d.name == name) {
        return Ok(d);
    }
    let help = if defs.is_empty() {
        "the rules in force declare no options".to_string()
    } else {
        let near = crate::state::error::nearest(name, defs.iter().map(|d| d.name.as_str()));
        match near.first() {
            Some(n) => format!("did you mean `{n}`? `option list` shows them all"),
            None => format!(
                "the options are {}; `option list` describes them",
                defs.iter()
                    .map(|d| d.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    };
    Err(CommandError::invalid(
        format!("no option `{name}`"),
        Some(help),
        span,
    ))
}

/// Keeps `set` as the options the umpire set: one change in the game.
fn store(ctx: &mut Context<'_>, set: BTreeMap<String, Json>) -> Result<(), CommandError> {
    let value = (!set.is_empty()).then(|| json!(set));
    ctx.state
        .change(|g| g.set_stored(RULES_SCRIPT, OPTIONS_KEY, value))
        .map_err(|e| super::commands::game::state_err(e, 0))
}

/// The list: each option with its value, the recommended reading, its choices and rule.
fn list(defs: &[OptionDef], set: &BTreeMap<String, Json>) -> Output {
    let values = values_in_force(defs, set);
    let mut text = Text::new().push(Style::Strong, "options");
    let mut rows = Vec::new();
    for (d, (_, v)) in defs.iter().zip(&values) {
        let changed = *v != d.default;
        text = text
            .plain("\n  ")
            .push(Style::Strong, d.name.clone())
            .plain(" = ")
            .push(if changed { Style::Number } else { Style::Plain }, show(v))
            .push(
                Style::Dim,
                if changed {
                    format!("  (recommended: {})", show(&d.default))
                } else {
                    "  (recommended)".to_string()
                },
            );
        let rule = if d.rule.is_empty() {
            String::new()
        } else {
            format!(" ({})", d.rule)
        };
        text = text.plain(format!("\n      {}{rule}", d.doc));
        if let OptionKind::Choice(choices) = &d.kind {
            for (c, m) in choices.iter().zip(&d.means) {
                let mark = if Json::String(c.clone()) == *v {
                    "›"
                } else {
                    " "
                };
                text = text.push(Style::Dim, format!("\n      {mark} {c}"));
                if !m.is_empty() {
                    text = text.push(Style::Dim, format!(": {m}"));
                }
            }
        } else {
            text = text.push(Style::Dim, format!("\n        {}", d.expected()));
        }
        rows.push(json!({
            "name": d.name,
            "value": v,
            "default": d.default,
            "choices": match &d.kind { OptionKind::Choice(c) => json!(c), _ => Json::Null },
            "doc": d.doc,
            "rule": d.rule,
            "declared": d.origin.to_string(),
        }));
    }
    if defs.is_empty() {
        text = text.plain("\n  (the rules in force declare none)");
    }
    Output::new("option").field("options", rows).text(text)
}
