//! The game: sides, commands, units and elements, their attributes and markers, the schema
//! they are checked against, and the clock.
//!
//! Entities live in flat maps keyed by [`Id`] (lookups cost O(log n) whatever the size of the
//! game); display order is insertion order, kept in each parent's list of children. The game
//! only changes through [`Change`](super::Change)s, so every change can be journalled,
//! inverted and replayed.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::clock::{Clock, Step, describe};
use super::error::{StateError, StateErrorKind, nearest};
use super::id::Id;
use super::marker::Marker;
use super::schema::Schema;
use super::value::Value;

/// Attribute values by name (only values set explicitly; [`Game::attr`] falls back to the
/// schema's default).
pub type Attrs = BTreeMap<String, Value>;

/// What an id names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A side (an army, a player).
    Side,
    /// A command of a side (wing, division, battle).
    Command,
    /// A unit of a command.
    Unit,
    /// An element of a unit (stand, vignette, figure).
    Element,
}

impl Kind {
    /// Every kind, outermost first.
    pub const ALL: [Kind; 4] = [Kind::Side, Kind::Command, Kind::Unit, Kind::Element];

    /// `side`, `command`, `unit`, `element`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Side => "side",
            Kind::Command => "command",
            Kind::Unit => "unit",
            Kind::Element => "element",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A side of the game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Side {
    /// Its id (`romans`).
    pub id: Id,
    /// Its display name (`Suetonius' Romans`).
    pub name: String,
    /// Its attributes.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub attrs: Attrs,
    /// Its commands, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub commands: Vec<Id>,
    /// The team it plays in with its allies (`allies`), if any: the sides of one team share
    /// what their ruleset says a team shares (OLAB: initiative and army morale).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub team: Option<Id>,
}

/// A command of a side.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Command {
    /// Its id (`left`).
    pub id: Id,
    /// Its display name.
    pub name: String,
    /// The side it belongs to.
    pub side: Id,
    /// Its attributes.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub attrs: Attrs,
    /// Its units, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub units: Vec<Id>,
}

/// A unit of a command.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    /// Its id (`leg1`).
    pub id: Id,
    /// Its display name.
    pub name: String,
    /// The side it belongs to.
    pub side: Id,
    /// The command it belongs to.
    pub command: Id,
    /// Its attributes.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub attrs: Attrs,
    /// Its markers, in the order they were placed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub markers: Vec<Marker>,
    /// Its elements, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub elements: Vec<Id>,
}

impl Unit {
    /// A unit with no attributes, markers or elements (the side and command are filled in
    /// when it is added to a command).
    pub fn new(id: Id, name: impl Into<String>) -> Self {
        Unit {
            side: id.clone(),
            command: id.clone(),
            id,
            name: name.into(),
            attrs: Attrs::new(),
            markers: Vec::new(),
            elements: Vec::new(),
        }
    }

    /// The index of the marker called `name`, if the unit has it.
    pub fn marker(&self, name: &str) -> Option<usize> {
        self.markers.iter().position(|m| m.name == name)
    }
}

/// An element of a unit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Element {
    /// Its id.
    pub id: Id,
    /// Its display name.
    pub name: String,
    /// The unit it belongs to.
    pub unit: Id,
    /// Its attributes.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub attrs: Attrs,
    /// Its markers, in the order they were placed (absent in games saved before elements
    /// carried markers: none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub markers: Vec<Marker>,
}

impl Element {
    /// An element of `unit` with no attributes or markers.
    pub fn new(id: Id, name: impl Into<String>, unit: Id) -> Self {
        Element {
            id,
            name: name.into(),
            unit,
            attrs: Attrs::new(),
            markers: Vec::new(),
        }
    }

    /// The index of the marker called `name`, if the element has it.
    pub fn marker(&self, name: &str) -> Option<usize> {
        self.markers.iter().position(|m| m.name == name)
    }
}

/// The whole state of a game. Changes go through [`Game::apply`] (see
/// [`Change`](super::Change)); reading is free.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Game {
    pub(crate) schema: Schema,
    pub(crate) clock: Clock,
    pub(crate) side_order: Vec<Id>,
    pub(crate) sides: BTreeMap<Id, Side>,
    pub(crate) commands: BTreeMap<Id, Command>,
    pub(crate) units: BTreeMap<Id, Unit>,
    pub(crate) elements: BTreeMap<Id, Element>,
    /// Rule state that is not unit state: each script's `store` (plain JSON data), by
    /// script name and key.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) store: BTreeMap<String, BTreeMap<String, serde_json::Value>>,
    /// What the selectors asked so far pick, kept up to date as changes apply (not part of
    /// the game: never saved, not compared, not copied).
    #[serde(skip)]
    pub(crate) selections: super::selections::Selections,
}

impl Game {
    /// An empty game under `schema`, its clock at round 1.
    pub fn new(schema: Schema) -> Self {
        Game {
            schema,
            ..Game::default()
        }
    }

    /// The value a script stored under `key` in its `store` (`script` is the ruleset's or the
    /// house rule's name).
    pub fn stored(&self, script: &str, key: &str) -> Option<&serde_json::Value> {
        self.store.get(script)?.get(key)
    }

    /// Everything script `script` has stored.
    pub fn store_of(&self, script: &str) -> Option<&BTreeMap<String, serde_json::Value>> {
        self.store.get(script)
    }

    /// The schema values are checked against.
    pub fn schema(&self) -> &Schema {
        &self.schema
    }

    /// The clock.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// What `id` names, if anything.
    pub fn kind_of(&self, id: &str) -> Option<Kind> {
        if self.units.contains_key(id) {
            Some(Kind::Unit)
        } else if self.elements.contains_key(id) {
            Some(Kind::Element)
        } else if self.commands.contains_key(id) {
            Some(Kind::Command)
        } else if self.sides.contains_key(id) {
            Some(Kind::Side)
        } else {
            None
        }
    }

    /// The side `id`.
    pub fn side(&self, id: &str) -> Option<&Side> {
        self.sides.get(id)
    }

    /// The command `id`.
    pub fn command(&self, id: &str) -> Option<&Command> {
        self.commands.get(id)
    }

    /// The unit `id`.
    pub fn unit(&self, id: &str) -> Option<&Unit> {
        self.units.get(id)
    }

    /// The element `id`.
    pub fn element(&self, id: &str) -> Option<&Element> {
        self.elements.get(id)
    }

    /// The sides in order.
    pub fn sides(&self) -> impl Iterator<Item = &Side> + '_ {
        self.side_order.iter().map(|id| &self.sides[id])
    }

    /// The side ids in order.
    pub fn side_ids(&self) -> &[Id] {
        &self.side_order
    }

    /// The commands of `side`, in order.
    pub fn commands_of<'a>(&'a self, side: &'a Side) -> impl Iterator<Item = &'a Command> + 'a {
        side.commands.iter().map(|id| &self.commands[id])
    }

    /// The units of `command`, in order.
    pub fn units_of<'a>(&'a self, command: &'a Command) -> impl Iterator<Item = &'a Unit> + 'a {
        command.units.iter().map(|id| &self.units[id])
    }

    /// The elements of `unit`, in order.
    pub fn elements_of<'a>(&'a self, unit: &'a Unit) -> impl Iterator<Item = &'a Element> + 'a {
        unit.elements.iter().map(|id| &self.elements[id])
    }

    /// Every unit in display order: side by side, command by command.
    pub fn units(&self) -> impl Iterator<Item = &Unit> + '_ {
        self.sides()
            .flat_map(|s| self.commands_of(s))
            .flat_map(|c| self.units_of(c))
    }

    /// How many units the game has.
    pub fn unit_count(&self) -> usize {
        self.units.len()
    }

    /// Every id in the game (sides, commands, units, elements), for completion.
    pub fn ids(&self) -> impl Iterator<Item = &Id> + '_ {
        self.sides
            .keys()
            .chain(self.commands.keys())
            .chain(self.units.keys())
            .chain(self.elements.keys())
    }

    /// The display name of `id` (the id itself if it names nothing).
    pub fn name_of(&self, id: &str) -> String {
        self.name_ref(id).unwrap_or(id).to_string()
    }

    /// The display name of `id`, if it names something.
    pub fn name_ref(&self, id: &str) -> Option<&str> {
        Some(match self.kind_of(id)? {
            Kind::Side => &self.sides[id].name,
            Kind::Command => &self.commands[id].name,
            Kind::Unit => &self.units[id].name,
            Kind::Element => &self.elements[id].name,
        })
    }

    /// The attributes stored on `id` (one lookup per kind, units first).
    pub fn attrs_of(&self, id: &str) -> Option<(Kind, &Attrs)> {
        if let Some(u) = self.units.get(id) {
            return Some((Kind::Unit, &u.attrs));
        }
        if let Some(e) = self.elements.get(id) {
            return Some((Kind::Element, &e.attrs));
        }
        if let Some(c) = self.commands.get(id) {
            return Some((Kind::Command, &c.attrs));
        }
        self.sides.get(id).map(|s| (Kind::Side, &s.attrs))
    }

    /// The value of attribute `attr` of `id`: the stored value, else the schema's default.
    pub fn attr(&self, id: &str, attr: &str) -> Option<&Value> {
        let (kind, attrs) = self.attrs_of(id)?;
        attrs
            .get(attr)
            .or_else(|| self.schema.attrs(kind).get(attr).map(|d| &d.default))
    }

    /// Every attribute of `id` with its value: the schema's attributes in declared order
    /// (stored value or default), then any stored attribute the schema no longer declares.
    pub fn attr_list(&self, id: &str) -> Vec<(&str, &Value)> {
        let Some((kind, attrs)) = self.attrs_of(id) else {
            return Vec::new();
        };
        let declared = self.schema.attrs(kind);
        let mut out: Vec<(&str, &Value)> = declared
            .iter()
            .map(|(k, d)| (k.as_str(), attrs.get(k).unwrap_or(&d.default)))
            .collect();
        out.extend(
            attrs
                .iter()
                .filter(|(k, _)| !declared.contains_key(k.as_str()))
                .map(|(k, v)| (k.as_str(), v)),
        );
        out
    }

    /// Where unit `id` comes in display order: its side's place among the sides, its
    /// command's among the side's, its own among the command's.
    pub fn display_key(&self, id: &Id) -> Option<(usize, usize, usize)> {
        let u = self.units.get(id)?;
        let side = self.side_order.iter().position(|s| *s == u.side)?;
        let command = self
            .sides
            .get(&u.side)?
            .commands
            .iter()
            .position(|c| *c == u.command)?;
        let at = self
            .commands
            .get(&u.command)?
            .units
            .iter()
            .position(|x| x == id)?;
        Some((side, command, at))
    }

    /// The markers of unit or element `id` (the two kinds that carry markers), or an error
    /// naming the nearest units and elements.
    pub fn markers_of(&self, id: &str) -> Result<&[Marker], StateError> {
        if let Some(u) = self.units.get(id) {
            return Ok(&u.markers);
        }
        if let Some(e) = self.elements.get(id) {
            return Ok(&e.markers);
        }
        Err(self.unknown_marked(id))
    }

    /// The "no unit or element" error for `id`, with the nearest unit and element ids.
    pub(crate) fn unknown_marked(&self, id: &str) -> StateError {
        let candidates = self
            .units
            .keys()
            .chain(self.elements.keys())
            .map(Id::as_str);
        StateErrorKind::Unknown {
            what: "unit or element",
            name: id.to_string(),
            suggestions: nearest(id, candidates),
        }
        .into()
    }

    /// The unit that owns the markers of `id`: the unit itself, or an element's unit (whose
    /// side an `own turn` expiry follows and whose place orders what `next` reports).
    pub fn owner_unit(&self, id: &str) -> Option<&Unit> {
        self.units
            .get(id)
            .or_else(|| self.units.get(self.elements.get(id)?.unit.as_str()))
    }

    /// The element a word names: its id, or `UNIT.ELEMENT` where `ELEMENT` is the element's
    /// id or its number in the unit's list (from 1, as `show UNIT` lists them). An unknown
    /// word is an error naming the nearest elements (of that unit, after a dot).
    pub fn find_element(&self, word: &str) -> Result<&Element, StateError> {
        let Some((unit, part)) = word.split_once('.') else {
            return self
                .elements
                .get(word)
                .ok_or_else(|| self.unknown(Kind::Element, word));
        };
        let u = self.find_unit(unit)?;
        let found = match part.parse::<usize>() {
            Ok(n) if n >= 1 => u.elements.get(n - 1),
            _ => u.elements.iter().find(|e| e.as_str() == part),
        };
        match found {
            Some(id) => Ok(&self.elements[id]),
            None => Err(StateErrorKind::Unknown {
                what: "element",
                name: word.to_string(),
                suggestions: nearest(part, u.elements.iter().map(Id::as_str).collect::<Vec<_>>())
                    .into_iter()
                    .map(|s| format!("{unit}.{s}"))
                    .collect(),
            }
            .into()),
        }
    }

    /// The unit `id`, or an error suggesting the nearest unit ids and names.
    pub fn find_unit(&self, id: &str) -> Result<&Unit, StateError> {
        self.units
            .get(id)
            .ok_or_else(|| self.unknown(Kind::Unit, id))
    }

    /// The side `id`, or an error suggesting the nearest side.
    pub fn find_side(&self, id: &str) -> Result<&Side, StateError> {
        self.sides
            .get(id)
            .ok_or_else(|| self.unknown(Kind::Side, id))
    }

    /// The command `id`, or an error suggesting the nearest command.
    pub fn find_command(&self, id: &str) -> Result<&Command, StateError> {
        self.commands
            .get(id)
            .ok_or_else(|| self.unknown(Kind::Command, id))
    }

    /// The "no such thing" error for `name`, with the nearest ids of that kind.
    pub fn unknown(&self, kind: Kind, name: &str) -> StateError {
        let candidates: Vec<&str> = match kind {
            Kind::Side => self.sides.keys().map(Id::as_str).collect(),
            Kind::Command => self.commands.keys().map(Id::as_str).collect(),
            Kind::Unit => self.units.keys().map(Id::as_str).collect(),
            Kind::Element => self.elements.keys().map(Id::as_str).collect(),
        };
        StateErrorKind::Unknown {
            what: kind.name(),
            name: name.to_string(),
            suggestions: nearest(name, candidates),
        }
        .into()
    }

    /// The concrete steps of a round, with the sides in turn order.
    pub fn steps(&self) -> Vec<Step> {
        self.schema
            .sequence
            .steps(&self.clock.sides_in_order(&self.side_order))
    }

    /// The current step.
    pub fn step(&self) -> Option<Step> {
        self.steps().get(self.clock.pos.step as usize).cloned()
    }

    /// Where the game is: `round 3 · Romans' turn · shooting phase`.
    pub fn clock_text(&self) -> String {
        describe(self.clock.pos, self.step().as_ref(), |id| {
            self.name_of(id.as_str())
        })
    }
}
