//! Convenience edits: each builds the [`Change`] for one step, applies it, and returns it
//! for the journal. A command collects them in a [`ChangeSet`] and rolls the set back if a
//! later step fails, so a failed command changes nothing.

use super::change::Change;
use super::clock::{Advance, Expired, describe, next_pos, resolve_expiry};
use super::error::{StateError, StateErrorKind, err};
use super::game::{Attrs, Command, Element, Game, Kind, Side, Unit};
use super::id::Id;
use super::marker::{Expiry, Marker};
use super::schema::Schema;
use super::value::Value;

/// The changes a command made so far, in order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ChangeSet {
    changes: Vec<Change>,
}

impl ChangeSet {
    /// An empty set.
    pub fn new() -> Self {
        ChangeSet::default()
    }

    /// Records a change that was applied.
    pub fn push(&mut self, change: Change) {
        self.changes.push(change);
    }

    /// Records several changes that were applied, in order.
    pub fn extend(&mut self, changes: impl IntoIterator<Item = Change>) {
        self.changes.extend(changes);
    }

    /// The changes so far.
    pub fn changes(&self) -> &[Change] {
        &self.changes
    }

    /// Whether nothing changed.
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }

    /// How many changes so far.
    pub fn len(&self) -> usize {
        self.changes.len()
    }

    /// The latest change.
    pub fn last(&self) -> Option<&Change> {
        self.changes.last()
    }

    /// Undoes every recorded change (the command failed), leaving the set empty.
    pub fn rollback(&mut self, game: &mut Game) -> Result<(), StateError> {
        let changes = std::mem::take(&mut self.changes);
        game.undo_all(&changes)
    }

    /// The recorded changes, for the journal.
    pub fn into_changes(self) -> Vec<Change> {
        self.changes
    }
}

impl From<Vec<Change>> for ChangeSet {
    /// Changes already applied, in order.
    fn from(changes: Vec<Change>) -> Self {
        ChangeSet { changes }
    }
}

impl Game {
    fn applied(&mut self, change: Change) -> Result<Change, StateError> {
        self.apply(&change)?;
        Ok(change)
    }

    /// Replaces the schema.
    pub fn set_schema(&mut self, schema: Schema) -> Result<Change, StateError> {
        self.applied(Change::SetSchema {
            old: Box::new(self.schema.clone()),
            new: Box::new(schema),
        })
    }

    /// Adds a side after the others; its attributes start at the schema's defaults.
    pub fn add_side(&mut self, id: &str, name: &str) -> Result<Change, StateError> {
        let id = Id::new(id)?;
        check_name(name)?;
        let attrs = defaults(&self.schema, Kind::Side);
        let side = Side {
            id,
            name: name.to_string(),
            attrs,
            commands: Vec::new(),
            team: None,
        };
        self.applied(Change::AddSide {
            index: self.side_order.len(),
            side,
        })
    }

    /// Adds a command at the end of `side`.
    pub fn add_command(&mut self, side: &str, id: &str, name: &str) -> Result<Change, StateError> {
        let id = Id::new(id)?;
        check_name(name)?;
        let s = self.find_side(side)?;
        let command = Command {
            id,
            name: name.to_string(),
            side: s.id.clone(),
            attrs: defaults(&self.schema, Kind::Command),
            units: Vec::new(),
        };
        self.applied(Change::AddCommand {
            index: s.commands.len(),
            command,
        })
    }

    /// Adds a unit at the end of `command`, with `attrs` over the schema's defaults (each
    /// checked: unknown names and bad values are errors).
    pub fn add_unit(
        &mut self,
        command: &str,
        id: &str,
        name: &str,
        attrs: impl IntoIterator<Item = (String, Value)>,
    ) -> Result<Change, StateError> {
        let id = Id::new(id)?;
        check_name(name)?;
        let c = self.find_command(command)?;
        let mut unit = Unit::new(id, name);
        unit.side = c.side.clone();
        unit.command = c.id.clone();
        unit.attrs = self.checked_attrs(Kind::Unit, &unit.id, attrs)?;
        self.applied(Change::AddUnit {
            index: c.units.len(),
            unit,
        })
    }

    /// Adds an element at the end of `unit`'s elements.
    pub fn add_element(
        &mut self,
        unit: &str,
        id: &str,
        name: &str,
        attrs: impl IntoIterator<Item = (String, Value)>,
    ) -> Result<Change, StateError> {
        let id = Id::new(id)?;
        check_name(name)?;
        let u = self.find_unit(unit)?;
        let index = u.elements.len();
        let mut element = Element::new(id, name, u.id.clone());
        element.attrs = self.checked_attrs(Kind::Element, &element.id, attrs)?;
        self.applied(Change::AddElement { index, element })
    }

    /// Removes `id` and everything under it (elements, units, commands), innermost first.
    pub fn remove(&mut self, id: &str) -> Result<Vec<Change>, StateError> {
        let kind = self.kind_of(id).ok_or_else(|| self.unknown_any(id))?;
        let mut plan = Vec::new();
        self.plan_remove(kind, id, &mut plan);
        self.apply_all(&plan).map_err(|(_, e)| e)?;
        Ok(plan)
    }

    fn plan_remove(&self, kind: Kind, id: &str, plan: &mut Vec<Change>) {
        match kind {
            Kind::Side => {
                let side = &self.sides[id];
                for c in side.commands.iter().rev() {
                    self.plan_remove(Kind::Command, c.as_str(), plan);
                }
                let mut side = side.clone();
                side.commands.clear();
                let index = self
                    .side_order
                    .iter()
                    .position(|s| s == id)
                    .expect("listed");
                plan.push(Change::RemoveSide { index, side });
            }
            Kind::Command => {
                let command = &self.commands[id];
                for u in command.units.iter().rev() {
                    self.plan_remove(Kind::Unit, u.as_str(), plan);
                }
                let mut command = command.clone();
                command.units.clear();
                let index = self.sides[&command.side]
                    .commands
                    .iter()
                    .position(|c| c == id)
                    .expect("listed");
                plan.push(Change::RemoveCommand { index, command });
            }
            Kind::Unit => {
                let unit = &self.units[id];
                for e in unit.elements.iter().rev() {
                    self.plan_remove(Kind::Element, e.as_str(), plan);
                }
                let mut unit = unit.clone();
                unit.elements.clear();
                let index = self.commands[&unit.command]
                    .units
                    .iter()
                    .position(|u| u == id)
                    .expect("listed");
                plan.push(Change::RemoveUnit { index, unit });
            }
            Kind::Element => {
                let element = self.elements[id].clone();
                let index = self.units[&element.unit]
                    .elements
                    .iter()
                    .position(|e| e == id)
                    .expect("listed");
                plan.push(Change::RemoveElement { index, element });
            }
        }
    }

    /// Renames `id` (its display name; ids never change).
    pub fn rename(&mut self, id: &str, name: &str) -> Result<Change, StateError> {
        let id = Id::new(id)?;
        check_name(name)?;
        if self.kind_of(id.as_str()).is_none() {
            return Err(self.unknown_any(id.as_str()));
        }
        let old = self.name_of(id.as_str());
        self.applied(Change::Rename {
            id,
            old,
            new: name.to_string(),
        })
    }

    /// Sets attribute `attr` of `id` (a side, command, unit or element) to `value`.
    pub fn set_attr(&mut self, id: &str, attr: &str, value: Value) -> Result<Change, StateError> {
        let kind = self.kind_of(id).ok_or_else(|| self.unknown_any(id))?;
        let def = self
            .schema
            .attr(kind, attr, &format_args!("{kind} `{id}`"))?;
        let new = def.check(attr, &value)?;
        let id = Id::new(id)?;
        // Checked against the schema just above, and the old value is the one it replaces:
        // set in place (what `apply` would check holds by construction).
        let old = self
            .attrs_slot(kind, &id)
            .insert(attr.to_string(), new.clone());
        let change = Change::SetAttr {
            id,
            attr: attr.to_string(),
            old,
            new: Some(new),
        };
        self.applied_in_place(&change);
        Ok(change)
    }

    /// Sets (or, with `None`, removes) `key` in script `script`'s store.
    pub fn set_stored(
        &mut self,
        script: &str,
        key: &str,
        value: Option<serde_json::Value>,
    ) -> Result<Change, StateError> {
        self.applied(Change::SetStore {
            script: script.to_string(),
            key: key.to_string(),
            old: self.stored(script, key).cloned(),
            new: value,
        })
    }

    /// Sets attribute `attr` of `id` from text typed by the umpire (`6`, `yes`, `INF/A`).
    pub fn set_attr_text(
        &mut self,
        id: &str,
        attr: &str,
        text: &str,
    ) -> Result<Change, StateError> {
        let (kind, _) = self.attrs_of(id).ok_or_else(|| self.unknown_any(id))?;
        let value = self
            .schema
            .attr(kind, attr, &format_args!("{kind} `{id}`"))?
            .parse(attr, text)?;
        self.set_attr(id, attr, value)
    }

    /// Puts marker `name` on `unit` (a unit or an element). `expiry: None` takes the
    /// schema's default expiry for that marker (none if it declares none); `own turn` on an
    /// element is its unit's side's turn.
    pub fn mark(
        &mut self,
        unit: &str,
        name: &str,
        expiry: Option<Expiry>,
    ) -> Result<Change, StateError> {
        self.schema.check_marker(name)?;
        let index = self.markers_of(unit)?.len();
        let side = self.owner_unit(unit).expect("marked").side.clone();
        let expiry = expiry.or_else(|| {
            self.schema
                .markers
                .get(name)
                .and_then(|d| d.expires.clone())
        });
        let until = match &expiry {
            Some(e) => resolve_expiry(e, self.clock.pos, &self.steps(), &side)?,
            None => None,
        };
        let expiry = match expiry {
            Some(Expiry::EndOfOwnTurn) => Some(Expiry::EndOfTurn { side }),
            e => e,
        };
        self.applied(Change::Mark {
            unit: Id::new(unit)?,
            index,
            marker: Marker {
                name: name.to_string(),
                expiry,
                since: self.clock.pos,
                until,
            },
        })
    }

    /// Takes marker `name` off `unit` (a unit or an element).
    pub fn unmark(&mut self, unit: &str, name: &str) -> Result<Change, StateError> {
        let markers = self.markers_of(unit)?;
        let Some(index) = markers.iter().position(|m| m.name == name) else {
            return err(StateErrorKind::NotMarked {
                unit: unit.to_string(),
                marker: name.to_string(),
                has: markers.iter().map(|m| m.name.clone()).collect(),
            });
        };
        let marker = markers[index].clone();
        self.applied(Change::Unmark {
            unit: Id::new(unit)?,
            index,
            marker,
        })
    }

    /// Moves unit `id` to the end of command `command` (of any side), with its elements,
    /// attributes and markers.
    pub fn move_unit(&mut self, id: &str, command: &str) -> Result<Change, StateError> {
        let u = self.find_unit(id)?;
        let target = self.find_command(command)?;
        if u.command == target.id {
            return err(StateErrorKind::AlreadyIn {
                id: id.to_string(),
                parent_kind: "command",
                parent: command.to_string(),
            });
        }
        let from = super::change::Place {
            index: self.commands[&u.command]
                .units
                .iter()
                .position(|x| x.as_str() == id)
                .expect("listed"),
            parent: u.command.clone(),
        };
        let to = super::change::Place {
            parent: target.id.clone(),
            index: target.units.len(),
        };
        self.applied(Change::MoveUnit {
            id: u.id.clone(),
            from,
            to,
        })
    }

    /// Moves element `id` to the end of unit `unit`'s elements, with its attributes and
    /// markers.
    pub fn move_element(&mut self, id: &str, unit: &str) -> Result<Change, StateError> {
        let e = self
            .elements
            .get(id)
            .ok_or_else(|| self.unknown(Kind::Element, id))?;
        let target = self.find_unit(unit)?;
        if e.unit == target.id {
            return err(StateErrorKind::AlreadyIn {
                id: id.to_string(),
                parent_kind: "unit",
                parent: unit.to_string(),
            });
        }
        let from = super::change::Place {
            index: self.units[&e.unit]
                .elements
                .iter()
                .position(|x| x.as_str() == id)
                .expect("listed"),
            parent: e.unit.clone(),
        };
        let to = super::change::Place {
            parent: target.id.clone(),
            index: target.elements.len(),
        };
        self.applied(Change::MoveElement {
            id: e.id.clone(),
            from,
            to,
        })
    }

    /// The change that advances the clock one step, with the markers that expire (without
    /// applying it).
    pub fn plan_advance(&self) -> Change {
        let from = self.clock.pos;
        let steps = self.steps();
        let to = next_pos(from, steps.len());
        // Every unit's and element's markers once, in the map's order (no lookups), then
        // the few that expire put in display order (an element's after its unit's).
        let mut expired = Vec::new();
        let marked = self
            .units
            .values()
            .map(|u| (&u.id, &u.markers))
            .chain(self.elements.values().map(|e| (&e.id, &e.markers)));
        for (id, markers) in marked {
            for (index, marker) in markers.iter().enumerate() {
                if marker.expires_leaving(from, &steps) {
                    expired.push(Expired {
                        unit: id.clone(),
                        index,
                        marker: marker.clone(),
                    });
                }
            }
        }
        expired.sort_by_cached_key(|e| {
            let (unit, at) = match self.elements.get(&e.unit) {
                Some(el) => (
                    &el.unit,
                    self.units
                        .get(&el.unit)
                        .and_then(|u| u.elements.iter().position(|x| *x == e.unit))
                        .map_or(0, |i| i + 1),
                ),
                None => (&e.unit, 0),
            };
            (self.display_key(unit), at, e.index)
        });
        Change::Advance { from, to, expired }
    }

    /// Advances the clock one step: the change for the journal, and what happened (new
    /// round, new turn, the phase now under way, the markers that expired).
    pub fn advance(&mut self) -> Result<(Change, Advance), StateError> {
        let before = self.step();
        let change = self.applied(self.plan_advance())?;
        let Change::Advance { from, to, expired } = &change else {
            unreachable!("plan_advance makes an advance")
        };
        let after = self.step();
        let new_turn = after
            .as_ref()
            .and_then(|s| s.side.clone())
            .filter(|s| to.round != from.round || before.and_then(|b| b.side).as_ref() != Some(s));
        let report = Advance {
            from: *from,
            to: *to,
            new_round: to.round != from.round,
            new_turn,
            phase: after.as_ref().and_then(|s| s.phase.clone()),
            text: describe(*to, after.as_ref(), |id| self.name_of(id.as_str())),
            expired: expired.clone(),
        };
        Ok((change, report))
    }

    /// Sets the clock by hand (no marker expires).
    pub fn set_clock(&mut self, round: u32, step: u32) -> Result<Change, StateError> {
        let len = self.steps().len() as u32;
        if round == 0 || step >= len {
            return err(StateErrorKind::Clock(format!(
                "there is no round {round} step {}: rounds start at 1 and a round has {len} steps",
                step + 1
            )));
        }
        self.applied(Change::SetClock {
            old: self.clock.pos,
            new: super::clock::ClockPos { round, step },
        })
    }

    /// Puts `side` in the team `team` (`None`: in no team, on its own). A team is a name
    /// its sides share; it exists while a side is in it.
    pub fn set_team(&mut self, side: &str, team: Option<&str>) -> Result<Change, StateError> {
        let s = self.find_side(side)?;
        let new = team.map(Id::new).transpose()?;
        if let Some(t) = &new
            && self.sides.contains_key(t.as_str())
            && t != &s.id
        {
            return Err(StateErrorKind::Team(format!(
                "`{t}` is a side's id: give the team a name of its own (`team allies {} …`)",
                s.id
            ))
            .into());
        }
        self.applied(Change::SetTeam {
            side: s.id.clone(),
            old: s.team.clone(),
            new,
        })
    }

    /// Sets the sides' turn order (the sides not named follow in the game's order).
    pub fn set_turn_order(&mut self, sides: &[&str]) -> Result<Change, StateError> {
        let new = sides
            .iter()
            .map(|s| self.find_side(s).map(|s| s.id.clone()))
            .collect::<Result<Vec<_>, _>>()?;
        self.applied(Change::SetTurnOrder {
            old: self.clock.turn_order.clone(),
            new,
        })
    }

    fn checked_attrs(
        &self,
        kind: Kind,
        id: &Id,
        given: impl IntoIterator<Item = (String, Value)>,
    ) -> Result<Attrs, StateError> {
        let mut attrs = defaults(&self.schema, kind);
        for (name, v) in given {
            let def = self
                .schema
                .attr(kind, &name, &format_args!("{kind} `{id}`"))?;
            let v = def.check(&name, &v)?;
            attrs.insert(name, v);
        }
        Ok(attrs)
    }
}

/// The schema's defaults for every attribute of `kind`.
pub fn defaults(schema: &Schema, kind: Kind) -> Attrs {
    schema
        .attrs(kind)
        .iter()
        .map(|(k, d)| (k.clone(), d.default.clone()))
        .collect()
}

/// A new name may not hold control characters or bidirectional overrides (names already in
/// a journal are replayed as they are, and shown escaped).
fn check_name(name: &str) -> Result<(), StateError> {
    crate::escape::check_name(name, "name")
        .map_err(|m| super::error::StateErrorKind::BadName(m).into())
}
