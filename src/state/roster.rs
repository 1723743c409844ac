//! Army rosters: sides, commands, units (and elements) with their attributes, from TOML,
//! checked against the game's schema and turned into [`Change`]s.
//!
//! ```toml
//! [[side]]
//! id = "romans"
//! name = "Suetonius' Romans"
//! team = "allies"              # optional: the team this side plays in with its allies
//! cinc_rating = 0              # any other key is a side attribute
//!
//! [[side.command]]
//! id = "left"
//! name = "Left wing"
//!
//! [[side.command.unit]]
//! id = "leg1"
//! name = "Legio XIV, 1st cohort"
//! type = "INF/A"               # unit attributes
//! sp = 6
//! markers = ["ambush"]
//!
//! [[side.command.unit.element]]
//! id = "leg1a"
//! ```
//!
//! A side that already exists in the game gets the roster's commands appended. Errors name
//! the file, line and column of the bad key or value. [`write_roster`] writes sides as they
//! stand now in the same format, so what it writes loads again.

use toml::de::DeTable;

use super::change::Change;
use super::error::StateError;
use super::game::{Game, Kind};
use super::id::Id;
use super::toml_doc::{Doc, SValue, get};
use super::value::Value;

/// Reads the roster in `src` (from `file`) against `game` and returns the changes that add
/// it, in order. `game` is not modified; applying the changes to it in order succeeds.
pub fn load_roster(game: &Game, file: &str, src: &str) -> Result<Vec<Change>, StateError> {
    let doc = Doc { file, src };
    let root = doc.parse()?;
    let root = root.get_ref();
    doc.only_keys(root, &["side"], "a roster (it lists `[[side]]` tables)")?;
    // Build on a copy so ids, positions and values are checked exactly as they will apply.
    let mut scratch = game.clone();
    let mut changes = Vec::new();
    let Some(sides) = get(root, "side") else {
        return Err(doc.format(0..0, "a roster needs at least one `[[side]]`".into()));
    };
    for side in doc.array(sides, "`side`")? {
        let t = doc.table(side, "a side")?;
        let (id, name) = ident(&doc, t, side, "side")?;
        if scratch.side(id.as_str()).is_none() {
            let c = scratch
                .add_side(id.as_str(), &name)
                .map_err(|e| doc.place(e, span_of(t, "id", side)))?;
            changes.push(c);
        }
        if let Some(team) = get(t, "team") {
            let name = doc.str(team, "a team's name")?;
            let c = scratch
                .set_team(id.as_str(), Some(name))
                .map_err(|e| doc.place(e, team.span()))?;
            changes.push(c);
        }
        changes.extend(attrs(
            &doc,
            &mut scratch,
            t,
            &id,
            Kind::Side,
            &["command", "team"],
        )?);
        for command in list(&doc, t, "command")? {
            let ct = doc.table(command, "a command")?;
            let (cid, cname) = ident(&doc, ct, command, "command")?;
            let c = scratch
                .add_command(id.as_str(), cid.as_str(), &cname)
                .map_err(|e| doc.place(e, span_of(ct, "id", command)))?;
            changes.push(c);
            changes.extend(attrs(
                &doc,
                &mut scratch,
                ct,
                &cid,
                Kind::Command,
                &["unit"],
            )?);
            for unit in list(&doc, ct, "unit")? {
                let ut = doc.table(unit, "a unit")?;
                let (uid, uname) = ident(&doc, ut, unit, "unit")?;
                let c = scratch
                    .add_unit(cid.as_str(), uid.as_str(), &uname, [])
                    .map_err(|e| doc.place(e, span_of(ut, "id", unit)))?;
                changes.push(c);
                changes.extend(attrs(
                    &doc,
                    &mut scratch,
                    ut,
                    &uid,
                    Kind::Unit,
                    &["element", "markers"],
                )?);
                if let Some(ms) = get(ut, "markers") {
                    for m in doc.array(ms, "markers")? {
                        let name = doc.str(m, "a marker name")?;
                        let c = scratch
                            .mark(uid.as_str(), name, None)
                            .map_err(|e| doc.place(e, m.span()))?;
                        changes.push(c);
                    }
                }
                for element in list(&doc, ut, "element")? {
                    let et = doc.table(element, "an element")?;
                    let (eid, ename) = ident(&doc, et, element, "element")?;
                    let c = scratch
                        .add_element(uid.as_str(), eid.as_str(), &ename, [])
                        .map_err(|e| doc.place(e, span_of(et, "id", element)))?;
                    changes.push(c);
                    changes.extend(attrs(&doc, &mut scratch, et, &eid, Kind::Element, &[])?);
                }
            }
        }
    }
    Ok(changes)
}

/// The sides `sides` (every side when empty) as they stand in `game`, as a roster in the
/// format [`load_roster`] reads: each attribute of each side, command, unit and element that
/// differs from the schema's default or that `status` shows, and
/// each unit's markers that last until removed (markers that expire belong to the moment,
/// not to the army). The error names a side the game does not have.
pub fn write_roster(game: &Game, sides: &[&str]) -> Result<String, String> {
    write_roster_where(game, sides, &|_| true)
}

/// [`write_roster`] with only the units `keep` says yes to (a campaign leaves out the units
/// a battle destroyed).
pub fn write_roster_where(
    game: &Game,
    sides: &[&str],
    keep: &dyn Fn(&super::game::Unit) -> bool,
) -> Result<String, String> {
    use toml::{Table, Value as Toml};
    // What differs from the schema's default, and always the attributes `status` shows (the
    // strength above all): the roster stays short enough to edit by hand, its key numbers
    // are in it, and loading fills the rest in again.
    let status = &game.schema().status;
    let max_attr = match &status.max {
        Some(super::schema::StrengthMax::Attr(a)) => Some(a.as_str()),
        _ => None,
    };
    let key = |k: &str| {
        status.attrs.iter().any(|a| a == k)
            || status.strength.as_deref() == Some(k)
            || max_attr == Some(k)
    };
    let attrs = |t: &mut Table, kind: Kind, attrs: &super::game::Attrs| {
        for (k, v) in attrs {
            let default = game.schema().attrs(kind).get(k).map(|d| &d.default);
            if default != Some(v) || (kind == Kind::Unit && key(k)) {
                t.insert(k.clone(), toml_value(v));
            }
        }
    };
    fn head(id: &Id, name: &str) -> Table {
        let mut t = Table::new();
        t.insert("id".into(), Toml::String(id.to_string()));
        if name != id.as_str() {
            t.insert("name".into(), Toml::String(name.to_string()));
        }
        t
    }
    let chosen: Vec<&super::game::Side> = if sides.is_empty() {
        game.sides().collect()
    } else {
        sides
            .iter()
            .map(|id| {
                game.side(id)
                    .ok_or_else(|| format!("there is no side `{id}`"))
            })
            .collect::<Result<_, _>>()?
    };
    let mut out = Vec::new();
    for side in chosen {
        let mut st = head(&side.id, &side.name);
        if let Some(team) = &side.team {
            st.insert("team".into(), Toml::String(team.to_string()));
        }
        attrs(&mut st, Kind::Side, &side.attrs);
        let mut commands = Vec::new();
        for command in game.commands_of(side) {
            let mut ct = head(&command.id, &command.name);
            attrs(&mut ct, Kind::Command, &command.attrs);
            let mut units = Vec::new();
            for unit in game.units_of(command).filter(|u| keep(u)) {
                let mut ut = head(&unit.id, &unit.name);
                attrs(&mut ut, Kind::Unit, &unit.attrs);
                let lasting: Vec<Toml> = unit
                    .markers
                    .iter()
                    .filter(|m| m.expiry.is_none())
                    .map(|m| Toml::String(m.name.clone()))
                    .collect();
                if !lasting.is_empty() {
                    ut.insert("markers".into(), Toml::Array(lasting));
                }
                let elements: Vec<Toml> = game
                    .elements_of(unit)
                    .map(|e| {
                        let mut et = head(&e.id, &e.name);
                        attrs(&mut et, Kind::Element, &e.attrs);
                        Toml::Table(et)
                    })
                    .collect();
                if !elements.is_empty() {
                    ut.insert("element".into(), Toml::Array(elements));
                }
                units.push(Toml::Table(ut));
            }
            if !units.is_empty() {
                ct.insert("unit".into(), Toml::Array(units));
            }
            commands.push(Toml::Table(ct));
        }
        if !commands.is_empty() {
            st.insert("command".into(), Toml::Array(commands));
        }
        out.push(Toml::Table(st));
    }
    let mut root = Table::new();
    root.insert("side".into(), Toml::Array(out));
    toml::to_string(&root).map_err(|e| e.to_string())
}

/// A game value as TOML.
fn toml_value(v: &Value) -> toml::Value {
    match v {
        Value::Flag(b) => toml::Value::Boolean(*b),
        Value::Int(i) => toml::Value::Integer(*i),
        Value::Num(n) => toml::Value::Float(*n),
        Value::Text(t) => toml::Value::String(t.clone()),
        Value::List(l) => toml::Value::Array(l.iter().map(toml_value).collect()),
    }
}

/// The id (required) and name (defaults to the id) of a table.
fn ident(
    doc: &Doc<'_>,
    t: &DeTable<'_>,
    whole: &SValue<'_>,
    what: &str,
) -> Result<(Id, String), StateError> {
    let Some(idv) = get(t, "id") else {
        return Err(doc.format(
            whole.span(),
            format!("this {what} needs an `id` (lowercase letters, digits, `_`, `-`)"),
        ));
    };
    let id = Id::new(doc.str(idv, "`id`")?).map_err(|e| doc.place(e, idv.span()))?;
    let name = match get(t, "name") {
        Some(n) => doc.str(n, "`name`")?.to_string(),
        None => id.to_string(),
    };
    Ok((id, name))
}

/// The array of tables under `key` (empty if absent).
fn list<'t, 'a>(
    doc: &Doc<'_>,
    t: &'t DeTable<'a>,
    key: &str,
) -> Result<&'t [SValue<'a>], StateError> {
    match get(t, key) {
        Some(v) => doc.array(v, &format!("`{key}`")),
        None => Ok(&[]),
    }
}

/// The span of `key`'s value, or of the whole table.
fn span_of(t: &DeTable<'_>, key: &str, whole: &SValue<'_>) -> std::ops::Range<usize> {
    get(t, key).map_or(whole.span(), |v| v.span())
}

/// Sets every key of `t` other than `id`, `name` and `reserved` as an attribute of `id`.
fn attrs(
    doc: &Doc<'_>,
    game: &mut Game,
    t: &DeTable<'_>,
    id: &Id,
    kind: Kind,
    reserved: &[&str],
) -> Result<Vec<Change>, StateError> {
    let mut out = Vec::new();
    for (k, v) in t.iter() {
        let key = k.get_ref().as_ref();
        if key == "id" || key == "name" || reserved.contains(&key) {
            continue;
        }
        game.schema()
            .attr(kind, key, &format_args!("{kind} `{id}`"))
            .map_err(|e| doc.place(e, k.span()))?;
        let value: Value = doc.value(v)?;
        let c = game
            .set_attr(id.as_str(), key, value)
            .map_err(|e| doc.place(e, v.span()))?;
        out.push(c);
    }
    Ok(out)
}
