//! Roster texts as a campaign handles them between battles: the units a roster lists, what
//! changed from one version to the next, and putting back the units a side left out of a
//! battle. Rosters are the TOML `army load` reads (`[[side]]`, `[[side.command]]`,
//! `[[side.command.unit]]`); these helpers work on their text, so a roster edited by hand is
//! read as it is.

use std::collections::BTreeMap;

use toml::{Table, Value};

/// A unit as a roster lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct RosterUnit {
    /// The side's id.
    pub side: String,
    /// The command's id.
    pub command: String,
    /// The unit's id.
    pub id: String,
    /// Its table: id, name, attributes, markers, elements.
    pub table: Table,
}

/// The units `text` lists, in order. A text that is not a roster lists none.
pub fn units(text: &str) -> Vec<RosterUnit> {
    let Ok(root) = text.parse::<Table>() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for side in tables(&root, "side") {
        let sid = id(side);
        for command in tables(side, "command") {
            let cid = id(command);
            for unit in tables(command, "unit") {
                out.push(RosterUnit {
                    side: sid.clone(),
                    command: cid.clone(),
                    id: id(unit),
                    table: unit.clone(),
                });
            }
        }
    }
    out
}

fn tables<'a>(t: &'a Table, key: &str) -> Vec<&'a Table> {
    match t.get(key) {
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_table).collect(),
        _ => Vec::new(),
    }
}

fn id(t: &Table) -> String {
    t.get("id")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

/// What changed from roster `before` to roster `after`, one line a unit: `leg1: sp 7 → 3`,
/// `war3: lost`, `reinf1: joins`. Units in neither order are listed as `after` has them.
pub fn changes(before: &str, after: &str) -> Vec<String> {
    let old: BTreeMap<String, RosterUnit> = units(before)
        .into_iter()
        .map(|u| (u.id.clone(), u))
        .collect();
    let new = units(after);
    let mut out = Vec::new();
    for u in &new {
        match old.get(&u.id) {
            None => out.push(format!("{}: joins {}", u.id, u.side)),
            Some(o) => {
                let diff = attr_changes(&o.table, &u.table);
                if !diff.is_empty() {
                    out.push(format!("{}: {}", u.id, diff.join(", ")));
                }
            }
        }
    }
    let kept: std::collections::BTreeSet<&str> = new.iter().map(|u| u.id.as_str()).collect();
    for u in units(before) {
        if !kept.contains(u.id.as_str()) {
            out.push(format!("{}: lost", u.id));
        }
    }
    out
}

/// `sp 7 → 3`, `markers [routed] → []` for each key whose value differs.
fn attr_changes(old: &Table, new: &Table) -> Vec<String> {
    let mut keys: Vec<&String> = old.keys().chain(new.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter(|k| *k != "element")
        .filter_map(|k| {
            let (a, b) = (old.get(k), new.get(k));
            (a != b).then(|| format!("{k} {} → {}", show(a), show(b)))
        })
        .collect()
}

fn show(v: Option<&Value>) -> String {
    match v {
        None => "(default)".into(),
        Some(Value::String(s)) => s.clone(),
        Some(v) => v.to_string(),
    }
}

/// `after` with the units `left` (ids) put back as `before` has them, each in its own
/// command (added to the side when `after` has no such command): the units a side left out
/// of a battle come through it unchanged.
pub fn put_back(after: &str, before: &str, left: &[String]) -> String {
    if left.is_empty() {
        return after.to_string();
    }
    let Ok(mut root) = after.parse::<Table>() else {
        return after.to_string();
    };
    for u in units(before).into_iter().filter(|u| left.contains(&u.id)) {
        let side = member(&mut root, "side", &u.side);
        let command = member(side, "command", &u.command);
        if let Value::Array(list) = command
            .entry("unit")
            .or_insert_with(|| Value::Array(Vec::new()))
        {
            list.push(Value::Table(u.table.clone()));
        }
    }
    toml::to_string(&root).unwrap_or_else(|_| after.to_string())
}

/// The table with id `id` in the array of tables `key` of `t`, added (with just its id) when
/// there is none.
fn member<'a>(t: &'a mut Table, key: &str, id_wanted: &str) -> &'a mut Table {
    let list = t.entry(key).or_insert_with(|| Value::Array(Vec::new()));
    if !list.is_array() {
        *list = Value::Array(Vec::new());
    }
    let Value::Array(list) = list else {
        unreachable!("made an array above")
    };
    let at = match list
        .iter()
        .position(|v| v.as_table().map(id).as_deref() == Some(id_wanted))
    {
        Some(i) => i,
        None => {
            let mut new = Table::new();
            new.insert("id".into(), Value::String(id_wanted.to_string()));
            list.push(Value::Table(new));
            list.len() - 1
        }
    };
    match &mut list[at] {
        Value::Table(found) => found,
        _ => unreachable!("only tables are matched or pushed"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BEFORE: &str = r#"
[[side]]
id = "romans"
[[side.command]]
id = "left"
[[side.command.unit]]
id = "leg1"
sp = 7
[[side.command.unit]]
id = "leg2"
sp = 7
[[side.command]]
id = "reserve"
[[side.command.unit]]
id = "cav1"
sp = 4
"#;

    const AFTER: &str = r#"
[[side]]
id = "romans"
[[side.command]]
id = "left"
[[side.command.unit]]
id = "leg1"
sp = 3
markers = ["routed"]
[[side.command.unit]]
id = "aux9"
sp = 2
"#;

    #[test]
    fn changes_name_each_unit_that_changed_joined_or_was_lost() {
        assert_eq!(
            changes(BEFORE, AFTER),
            [
                "leg1: markers (default) → [\"routed\"], sp 7 → 3",
                "aux9: joins romans",
                "leg2: lost",
                "cav1: lost",
            ]
        );
    }

    #[test]
    fn units_left_out_of_a_battle_are_put_back_in_their_command() {
        let merged = put_back(AFTER, BEFORE, &["cav1".into()]);
        let ids: Vec<(String, String)> = units(&merged)
            .into_iter()
            .map(|u| (u.command, u.id))
            .collect();
        assert_eq!(
            ids,
            [
                ("left".to_string(), "leg1".to_string()),
                ("left".into(), "aux9".into()),
                ("reserve".into(), "cav1".into())
            ]
        );
        assert_eq!(units(&merged)[2].table.get("sp"), Some(&Value::Integer(4)));
    }
}
