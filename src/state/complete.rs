//! Completion candidates for the shell's tab completion: selector words, ids, attribute
//! names and values, marker names, expiries.

use super::game::{Game, Kind};
use super::schema::AttrType;
use super::selector::PREFIXES;

/// Completion candidates for the selector word being typed (`partial`): unit, side and
/// command ids; `side:`, `team:` and `command:` values; marker names after `marked:`/`unmarked:`;
/// attribute names (as `attr:`) and choice values after `attr:`. Sorted, without
/// duplicates, each a whole word to replace `partial` with.
pub fn complete(game: &Game, partial: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |s: String| {
        if s.starts_with(partial) {
            out.push(s);
        }
    };
    if let Some((head, _)) = partial.split_once(':') {
        match head {
            "side" => game.sides.keys().for_each(|s| push(format!("side:{s}"))),
            "team" => game
                .teams()
                .into_iter()
                .for_each(|t| push(format!("team:{}", t.id))),
            "command" => game
                .commands
                .keys()
                .for_each(|c| push(format!("command:{c}"))),
            "marked" | "unmarked" => {
                let mut names: Vec<&str> =
                    game.schema().markers.keys().map(String::as_str).collect();
                for u in game.units.values() {
                    names.extend(u.markers.iter().map(|m| m.name.as_str()));
                }
                names.into_iter().for_each(|m| push(format!("{head}:{m}")));
            }
            attr => {
                if let Some(def) = game.schema().unit.get(attr)
                    && let AttrType::Choice { values } = &def.ty
                {
                    values.iter().for_each(|v| push(format!("{attr}:{v}")));
                }
            }
        }
    } else {
        push("all".into());
        PREFIXES.iter().for_each(|p| push((*p).to_string()));
        game.schema()
            .unit
            .keys()
            .for_each(|a| push(format!("{a}:")));
        game.sides
            .keys()
            .chain(game.commands.keys())
            .for_each(|id| push(id.to_string()));
        game.units
            .range::<str, _>((
                std::ops::Bound::Included(partial),
                std::ops::Bound::Unbounded,
            ))
            .take_while(|(k, _)| k.as_str().starts_with(partial))
            .for_each(|(k, _)| push(k.to_string()));
    }
    out.sort();
    out.dedup();
    out
}

fn starting_with<'a>(partial: &str, words: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<String> = words
        .into_iter()
        .filter(|w| w.starts_with(partial))
        .map(str::to_string)
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Ids of every side, command, unit and element starting with `partial`.
pub fn complete_id(game: &Game, partial: &str) -> Vec<String> {
    starting_with(partial, game.ids().map(|i| i.as_str()))
}

/// Attribute names of `kind` starting with `partial` (for `set UNIT ATTR`).
pub fn complete_attr(game: &Game, kind: Kind, partial: &str) -> Vec<String> {
    starting_with(
        partial,
        game.schema().attrs(kind).keys().map(String::as_str),
    )
}

/// Values of attribute `attr` of `kind` starting with `partial`: a choice's values, or
/// `true`/`false` for a flag (for `set UNIT ATTR VALUE`).
pub fn complete_value(game: &Game, kind: Kind, attr: &str, partial: &str) -> Vec<String> {
    match game.schema().attrs(kind).get(attr).map(|d| &d.ty) {
        Some(AttrType::Choice { values }) => {
            let lower = partial.to_lowercase();
            let mut out: Vec<String> = values
                .iter()
                .filter(|v| v.to_lowercase().starts_with(&lower))
                .cloned()
                .collect();
            out.sort();
            out
        }
        Some(AttrType::Flag) => starting_with(partial, ["true", "false"]),
        _ => Vec::new(),
    }
}

/// Marker names starting with `partial`: declared ones and any in use (for `mark` and
/// `unmark`).
pub fn complete_marker(game: &Game, partial: &str) -> Vec<String> {
    let declared = game.schema().markers.keys().map(String::as_str);
    let used = game
        .units
        .values()
        .flat_map(|u| u.markers.iter().map(|m| m.name.as_str()));
    starting_with(partial, declared.chain(used))
}

/// Expiry words starting with `partial` (`phase`, `round`, `own-turn`, `turn:SIDE`, …).
pub fn complete_expiry(game: &Game, partial: &str) -> Vec<String> {
    let mut words = vec![
        "phase".to_string(),
        "round".to_string(),
        "own-turn".to_string(),
        "1r".to_string(),
        "2r".to_string(),
    ];
    words.extend(game.side_ids().iter().map(|s| format!("turn:{s}")));
    starting_with(partial, words.iter().map(String::as_str))
}
