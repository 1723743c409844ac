//! Applying [`Change`]s to a [`Game`]: every assumption a change makes (ids exist, recorded
//! old values match, positions are in range, values fit the schema) is checked before
//! anything is touched, so a change applies whole or not at all.

use super::change::Change;
use super::clock::{ClockPos, Expired};
use super::error::{StateError, StateErrorKind, err};
use super::game::{Game, Kind};
use super::id::Id;
use super::marker::Marker;
use super::value::Value;

fn stale<T>(what: String) -> Result<T, StateError> {
    err(StateErrorKind::Stale(what))
}

fn check_index(index: usize, len: usize, what: &str) -> Result<(), StateError> {
    if index <= len {
        Ok(())
    } else {
        stale(format!("position {index} is past the end of {what}"))
    }
}

impl Game {
    /// Applies one change, all or nothing: on error the game is untouched. Values are
    /// checked against the schema (types, bounds, declared attributes and markers).
    pub fn apply(&mut self, change: &Change) -> Result<(), StateError> {
        self.apply_checked(change, true)
    }

    /// Undoes one change that was applied: applies its inverse, all or nothing. The state it
    /// restores was valid when it was left, so it is not checked against the schema again
    /// (the schema may have changed since: a marker no longer declared, an attribute whose
    /// bounds were narrowed); everything else is (ids, positions, recorded old values).
    pub fn revert(&mut self, change: &Change) -> Result<(), StateError> {
        self.apply_checked(&change.inverse(), false)
    }

    /// Applies `change`, checking its values against the schema only with `schema` (a caller
    /// that has just checked them passes `false`).
    pub(super) fn apply_checked(
        &mut self,
        change: &Change,
        schema: bool,
    ) -> Result<(), StateError> {
        self.apply_unkept(change, schema)?;
        self.applied_in_place(change);
        Ok(())
    }

    /// Brings what the game keeps about its units (the selections) up to date after `change`,
    /// which has just been made.
    pub(super) fn applied_in_place(&mut self, change: &Change) {
        let Game {
            selections,
            units,
            sides,
            commands,
            schema,
            ..
        } = self;
        selections.changed(
            change,
            units,
            |id| sides.contains_key(id) || commands.contains_key(id),
            schema,
        );
    }

    /// Applies `change`, leaving what the selections keep as it was (see `apply_checked`).
    fn apply_unkept(&mut self, change: &Change, schema: bool) -> Result<(), StateError> {
        use Change::*;
        match change {
            SetSchema { old, new } => {
                if self.schema != **old {
                    return stale("the schema differs from the one recorded".into());
                }
                new.validate()?;
                self.schema = (**new).clone();
            }
            AddSide { index, side } => {
                self.check_new_id(&side.id)?;
                check_index(*index, self.side_order.len(), "the sides")?;
                if !side.commands.is_empty() {
                    return stale(format!("side `{}` must be added empty", side.id));
                }
                if schema {
                    self.check_attrs(Kind::Side, &side.id, &side.attrs)?;
                }
                self.side_order.insert(*index, side.id.clone());
                self.sides.insert(side.id.clone(), side.clone());
            }
            RemoveSide { index, side } => {
                let current = self.find_side(side.id.as_str())?;
                if !current.commands.is_empty() {
                    return err(StateErrorKind::NotEmpty {
                        what: "side",
                        id: side.id.to_string(),
                        count: current.commands.len(),
                        children: "commands",
                    });
                }
                if current != side || self.side_order.get(*index) != Some(&side.id) {
                    return stale(format!("side `{}` differs from the one recorded", side.id));
                }
                self.side_order.remove(*index);
                self.sides.remove(&side.id);
            }
            AddCommand { index, command } => {
                self.check_new_id(&command.id)?;
                let side = self.find_side(command.side.as_str())?;
                check_index(*index, side.commands.len(), "the side's commands")?;
                if !command.units.is_empty() {
                    return stale(format!("command `{}` must be added empty", command.id));
                }
                if schema {
                    self.check_attrs(Kind::Command, &command.id, &command.attrs)?;
                }
                self.sides
                    .get_mut(&command.side)
                    .expect("checked")
                    .commands
                    .insert(*index, command.id.clone());
                self.commands.insert(command.id.clone(), command.clone());
            }
            RemoveCommand { index, command } => {
                let current = self.find_command(command.id.as_str())?;
                if !current.units.is_empty() {
                    return err(StateErrorKind::NotEmpty {
                        what: "command",
                        id: command.id.to_string(),
                        count: current.units.len(),
                        children: "units",
                    });
                }
                let side = &self.sides[&command.side];
                if current != command || side.commands.get(*index) != Some(&command.id) {
                    return stale(format!(
                        "command `{}` differs from the one recorded",
                        command.id
                    ));
                }
                self.sides
                    .get_mut(&command.side)
                    .expect("checked")
                    .commands
                    .remove(*index);
                self.commands.remove(&command.id);
            }
            AddUnit { index, unit } => {
                self.check_new_id(&unit.id)?;
                let command = self.find_command(unit.command.as_str())?;
                if command.side != unit.side {
                    return stale(format!(
                        "unit `{}` names side `{}` but command `{}` is in side `{}`",
                        unit.id, unit.side, command.id, command.side
                    ));
                }
                check_index(*index, command.units.len(), "the command's units")?;
                if !unit.elements.is_empty() {
                    return stale(format!("unit `{}` must be added without elements", unit.id));
                }
                if schema {
                    self.check_attrs(Kind::Unit, &unit.id, &unit.attrs)?;
                }
                self.commands
                    .get_mut(&unit.command)
                    .expect("checked")
                    .units
                    .insert(*index, unit.id.clone());
                self.units.insert(unit.id.clone(), unit.clone());
            }
            RemoveUnit { index, unit } => {
                let current = self.find_unit(unit.id.as_str())?;
                if !current.elements.is_empty() {
                    return err(StateErrorKind::NotEmpty {
                        what: "unit",
                        id: unit.id.to_string(),
                        count: current.elements.len(),
                        children: "elements",
                    });
                }
                let command = &self.commands[&unit.command];
                if current != unit || command.units.get(*index) != Some(&unit.id) {
                    return stale(format!("unit `{}` differs from the one recorded", unit.id));
                }
                self.commands
                    .get_mut(&unit.command)
                    .expect("checked")
                    .units
                    .remove(*index);
                self.units.remove(&unit.id);
            }
            AddElement { index, element } => {
                self.check_new_id(&element.id)?;
                let unit = self.find_unit(element.unit.as_str())?;
                check_index(*index, unit.elements.len(), "the unit's elements")?;
                if schema {
                    self.check_attrs(Kind::Element, &element.id, &element.attrs)?;
                }
                self.units
                    .get_mut(&element.unit)
                    .expect("checked")
                    .elements
                    .insert(*index, element.id.clone());
                self.elements.insert(element.id.clone(), element.clone());
            }
            RemoveElement { index, element } => {
                let current = self
                    .elements
                    .get(&element.id)
                    .ok_or_else(|| self.unknown(Kind::Element, element.id.as_str()))?;
                let unit = &self.units[&element.unit];
                if current != element || unit.elements.get(*index) != Some(&element.id) {
                    return stale(format!(
                        "element `{}` differs from the one recorded",
                        element.id
                    ));
                }
                self.units
                    .get_mut(&element.unit)
                    .expect("checked")
                    .elements
                    .remove(*index);
                self.elements.remove(&element.id);
            }
            Rename { id, old, new } => {
                let name = self.name_slot(id)?;
                if name != old {
                    return stale(format!("`{id}` is called `{name}`, not `{old}`"));
                }
                *name = new.clone();
            }
            SetStore {
                script,
                key,
                old,
                new,
            } => {
                if self.stored(script, key) != old.as_ref() {
                    return stale(format!(
                        "store {script}.{key} is {}, not {}",
                        self.stored(script, key)
                            .map_or("unset".to_string(), |v| v.to_string()),
                        old.as_ref().map_or("unset".to_string(), |v| v.to_string())
                    ));
                }
                let entries = self.store.entry(script.clone()).or_default();
                match new {
                    Some(v) => {
                        entries.insert(key.clone(), v.clone());
                    }
                    None => {
                        entries.remove(key);
                    }
                }
                if entries.is_empty() {
                    self.store.remove(script);
                }
            }
            SetAttr { id, attr, old, new } => {
                let (kind, attrs) = self
                    .attrs_of(id.as_str())
                    .ok_or_else(|| self.unknown_any(id.as_str()))?;
                if attrs.get(attr) != old.as_ref() {
                    return stale(format!(
                        "`{id}` {attr} is {}, not {}",
                        show_opt(attrs.get(attr)),
                        show_opt(old.as_ref())
                    ));
                }
                let new = match new {
                    Some(v) if !schema => Some(v.clone()),
                    Some(v) => Some(
                        self.schema
                            .attr(kind, attr, &format_args!("{kind} `{id}`"))?
                            .check(attr, v)?,
                    ),
                    None => None,
                };
                let attrs = self.attrs_slot(kind, id);
                match new {
                    Some(v) => attrs.insert(attr.clone(), v),
                    None => attrs.remove(attr),
                };
            }
            Mark {
                unit,
                index,
                marker,
            } => {
                let markers = self.markers_of(unit.as_str())?;
                if markers.iter().any(|m| m.name == marker.name) {
                    return err(StateErrorKind::AlreadyMarked {
                        unit: unit.to_string(),
                        marker: marker.name.clone(),
                    });
                }
                check_index(*index, markers.len(), "the markers")?;
                if schema {
                    self.schema.check_marker(&marker.name)?;
                }
                self.markers_slot(unit).insert(*index, marker.clone());
            }
            Unmark {
                unit,
                index,
                marker,
            } => {
                let markers = self.markers_of(unit.as_str())?;
                if markers.get(*index) != Some(marker) {
                    return match markers.iter().position(|m| m.name == marker.name) {
                        None => err(StateErrorKind::NotMarked {
                            unit: unit.to_string(),
                            marker: marker.name.clone(),
                            has: markers.iter().map(|m| m.name.clone()).collect(),
                        }),
                        Some(_) => stale(format!(
                            "marker `{}` of `{unit}` differs from the one recorded",
                            marker.name
                        )),
                    };
                }
                self.markers_slot(unit).remove(*index);
            }
            MoveUnit { id, from, to } => {
                let u = self.find_unit(id.as_str())?;
                if u.command != from.parent
                    || self.commands[&from.parent].units.get(from.index) != Some(id)
                {
                    return stale(format!(
                        "unit `{id}` is not at position {} of command `{}`",
                        from.index, from.parent
                    ));
                }
                let target = self.find_command(to.parent.as_str())?;
                let len = target.units.len() - usize::from(to.parent == from.parent);
                check_index(to.index, len, "the command's units")?;
                let side = target.side.clone();
                self.commands
                    .get_mut(&from.parent)
                    .expect("checked")
                    .units
                    .remove(from.index);
                self.commands
                    .get_mut(&to.parent)
                    .expect("checked")
                    .units
                    .insert(to.index, id.clone());
                let u = self.units.get_mut(id).expect("checked");
                u.command = to.parent.clone();
                u.side = side;
            }
            MoveElement { id, from, to } => {
                let e = self
                    .elements
                    .get(id)
                    .ok_or_else(|| self.unknown(Kind::Element, id.as_str()))?;
                if e.unit != from.parent
                    || self.units[&from.parent].elements.get(from.index) != Some(id)
                {
                    return stale(format!(
                        "element `{id}` is not at position {} of unit `{}`",
                        from.index, from.parent
                    ));
                }
                let target = self.find_unit(to.parent.as_str())?;
                let len = target.elements.len() - usize::from(to.parent == from.parent);
                check_index(to.index, len, "the unit's elements")?;
                self.units
                    .get_mut(&from.parent)
                    .expect("checked")
                    .elements
                    .remove(from.index);
                self.units
                    .get_mut(&to.parent)
                    .expect("checked")
                    .elements
                    .insert(to.index, id.clone());
                self.elements.get_mut(id).expect("checked").unit = to.parent.clone();
            }
            Advance { from, to, expired } => self.move_clock(*from, *to, expired, false)?,
            Rewind { from, to, restored } => self.move_clock(*from, *to, restored, true)?,
            SetClock { old, new } => {
                if self.clock.pos != *old {
                    return stale(format!("the clock is at {}, not {old}", self.clock.pos));
                }
                self.clock.pos = *new;
            }
            SetTeam { side, old, new } => {
                let Some(s) = self.sides.get_mut(side.as_str()) else {
                    return stale(format!("no side `{side}`"));
                };
                if s.team != *old {
                    return stale(format!("side `{side}` is in another team than recorded"));
                }
                s.team.clone_from(new);
            }
            SetTurnOrder { old, new } => {
                if self.clock.turn_order != *old {
                    return stale("the turn order differs from the one recorded".into());
                }
                // Sides are checked by `Game::set_turn_order`; a side removed since stays
                // listed, harmlessly (turn order skips sides that are gone), so that undoing
                // across its removal still applies.
                for (i, side) in new.iter().enumerate() {
                    if new[..i].contains(side) {
                        return err(StateErrorKind::Clock(format!(
                            "side `{side}` is twice in the turn order"
                        )));
                    }
                }
                self.clock.turn_order.clone_from(new);
            }
            Replace { old, new } => {
                if *self != **old {
                    return stale("the game differs from the one recorded".into());
                }
                *self = (**new).clone();
            }
        }
        Ok(())
    }

    /// Applies `changes` in order, all or nothing: if one fails, those already applied are
    /// undone and the error is returned with the index of the failing change.
    pub fn apply_all(&mut self, changes: &[Change]) -> Result<(), (usize, StateError)> {
        for (i, c) in changes.iter().enumerate() {
            if let Err(e) = self.apply(c) {
                self.undo_all(&changes[..i])
                    .expect("inverses of applied changes apply");
                return Err((i, e));
            }
        }
        Ok(())
    }

    /// Undoes `changes` (which were applied in order): their inverses in reverse order, all
    /// or nothing: if one fails, those already undone are applied again and the error is
    /// returned, so the game is exactly as it was.
    pub fn undo_all(&mut self, changes: &[Change]) -> Result<(), StateError> {
        self.undo_each(changes, |_| {})
    }

    /// [`Game::undo_all`], giving the inverses it applied in the order applied (what an undo
    /// shows), each made once.
    pub fn undo_all_listed(&mut self, changes: &[Change]) -> Result<Vec<Change>, StateError> {
        let mut undone = Vec::with_capacity(changes.len());
        self.undo_each(changes, |c| undone.push(c))?;
        Ok(undone)
    }

    fn undo_each(
        &mut self,
        changes: &[Change],
        mut undone: impl FnMut(Change),
    ) -> Result<(), StateError> {
        for (i, c) in changes.iter().enumerate().rev() {
            let inverse = c.inverse();
            if let Err(e) = self.apply_checked(&inverse, false) {
                for again in &changes[i + 1..] {
                    self.apply_checked(again, false)
                        .expect("changes just undone apply again");
                }
                return Err(e);
            }
            undone(inverse);
        }
        Ok(())
    }

    /// Applies again `changes` just undone with [`Game::undo_all`], all or nothing: the game
    /// is as it was before the undo. Like [`Game::revert`], this puts back a state that was
    /// valid when it was left, so values are not checked against the schema again.
    pub fn reapply_all(&mut self, changes: &[Change]) -> Result<(), StateError> {
        for (i, c) in changes.iter().enumerate() {
            if let Err(e) = self.apply_checked(c, false) {
                for done in changes[..i].iter().rev() {
                    self.revert(done)
                        .expect("inverses of applied changes apply");
                }
                return Err(e);
            }
        }
        Ok(())
    }

    fn move_clock(
        &mut self,
        from: ClockPos,
        to: ClockPos,
        markers: &[Expired],
        restore: bool,
    ) -> Result<(), StateError> {
        if self.clock.pos != from {
            return stale(format!("the clock is at {}, not {from}", self.clock.pos));
        }
        // Work on copies of the affected marker lists, then commit them all.
        let mut lists: Vec<(Id, Vec<Marker>)> = Vec::new();
        for e in markers {
            let list = match lists.iter_mut().position(|(u, _)| *u == e.unit) {
                Some(i) => &mut lists[i].1,
                None => {
                    let list = self.markers_of(e.unit.as_str())?.to_vec();
                    lists.push((e.unit.clone(), list));
                    &mut lists.last_mut().expect("pushed").1
                }
            };
            if restore {
                check_index(e.index, list.len(), "the markers")?;
                list.insert(e.index, e.marker.clone());
            } else if list.get(e.index) != Some(&e.marker) {
                return stale(format!(
                    "`{}` has no marker `{}` at position {}",
                    e.unit, e.marker.name, e.index
                ));
            }
        }
        if !restore {
            for (unit, list) in &mut lists {
                let mut idx: Vec<usize> = markers
                    .iter()
                    .filter(|e| e.unit == *unit)
                    .map(|e| e.index)
                    .collect();
                idx.sort_unstable();
                idx.dedup();
                for i in idx.into_iter().rev() {
                    list.remove(i);
                }
            }
        }
        for (unit, list) in lists {
            *self.markers_slot(&unit) = list;
        }
        self.clock.pos = to;
        Ok(())
    }

    fn check_new_id(&self, id: &Id) -> Result<(), StateError> {
        match self.kind_of(id.as_str()) {
            Some(kind) => err(StateErrorKind::DuplicateId {
                id: id.to_string(),
                kind: kind.name(),
            }),
            None => Ok(()),
        }
    }

    fn check_attrs(
        &self,
        kind: Kind,
        id: &Id,
        attrs: &super::game::Attrs,
    ) -> Result<(), StateError> {
        for (name, v) in attrs {
            let def = self
                .schema
                .attr(kind, name, &format_args!("{kind} `{id}`"))?;
            if def.check(name, v)? != *v {
                // Stored values are normalised; a journal entry is never rewritten on the fly.
                return stale(format!("{name} of `{id}` is not normalised (`{v}`)"));
            }
        }
        Ok(())
    }

    pub(crate) fn unknown_any(&self, id: &str) -> StateError {
        let candidates: Vec<&str> = self.ids().map(Id::as_str).collect();
        StateErrorKind::Unknown {
            what: "side, command, unit or element",
            name: id.to_string(),
            suggestions: super::error::nearest(id, candidates),
        }
        .into()
    }

    /// The markers of unit or element `id` (checked by the caller).
    fn markers_slot(&mut self, id: &Id) -> &mut Vec<Marker> {
        if self.units.contains_key(id) {
            &mut self.units.get_mut(id).expect("checked").markers
        } else {
            &mut self
                .elements
                .get_mut(id)
                .expect("checked by the caller")
                .markers
        }
    }

    fn name_slot(&mut self, id: &Id) -> Result<&mut String, StateError> {
        match self.kind_of(id.as_str()) {
            Some(Kind::Side) => Ok(&mut self.sides.get_mut(id).expect("kind").name),
            Some(Kind::Command) => Ok(&mut self.commands.get_mut(id).expect("kind").name),
            Some(Kind::Unit) => Ok(&mut self.units.get_mut(id).expect("kind").name),
            Some(Kind::Element) => Ok(&mut self.elements.get_mut(id).expect("kind").name),
            None => Err(self.unknown_any(id.as_str())),
        }
    }

    /// The attributes of `id`, which the caller has found to be of `kind`.
    pub(super) fn attrs_slot(&mut self, kind: Kind, id: &Id) -> &mut super::game::Attrs {
        let found = match kind {
            Kind::Side => self.sides.get_mut(id).map(|s| &mut s.attrs),
            Kind::Command => self.commands.get_mut(id).map(|c| &mut c.attrs),
            Kind::Unit => self.units.get_mut(id).map(|u| &mut u.attrs),
            Kind::Element => self.elements.get_mut(id).map(|e| &mut e.attrs),
        };
        found.expect("checked by the caller")
    }
}

fn show_opt(v: Option<&Value>) -> String {
    v.map_or_else(|| "unset".into(), |v| format!("`{v}`"))
}
