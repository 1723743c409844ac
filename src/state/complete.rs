//! Completion candidates for selectors (the shell's tab completion).

use super::game::Game;
use super::schema::AttrType;
use super::selector::PREFIXES;

/// Completion candidates for the selector word being typed (`partial`): unit, side and
/// command ids; `side:` and `command:` values; marker names after `marked:`/`unmarked:`;
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
                if let Some(def) = game.schema().unit.get(attr) {
                    if let AttrType::Choice { values } = &def.ty {
                        values.iter().for_each(|v| push(format!("{attr}:{v}")));
                    }
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
