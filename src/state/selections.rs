//! [`Selections`]: the units that selectors without names pick, kept by the game and brought
//! up to date as each change applies, so that the rules can ask again and again "how many
//! stands of red are still to activate?" at a cost that does not grow with the army.
//!
//! A selector is worked out in full (every unit tested) the first time it is asked; after
//! that, a change to one unit (an attribute, a marker, a marker the clock took off) tests
//! only that unit again, and a change that could alter what any selector means (the schema,
//! sides, commands or units added, removed or renamed, a side changing team) forgets
//! everything. A few dozen
//! selectors are kept, the least recently asked dropped first. The game owns them but they
//! are not part of it: a copy of the game starts without, comparing games ignores them, and
//! they are never saved.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

use super::change::Change;
use super::error::StateError;
use super::game::{Game, Unit};
use super::id::Id;
use super::schema::Schema;
use super::selector::{Filter, Selector};

/// Most selectors kept at once.
const MAX_KEPT: usize = 32;

/// The units picked by the selectors asked so far (see the module docs).
#[derive(Default)]
pub(crate) struct Selections(RefCell<Kept>);

#[derive(Default)]
struct Kept {
    entries: Vec<Entry>,
    /// Counts the questions asked, to tell the least recently asked entry.
    asked: u64,
}

/// One selector: its text, its terms ready to test a unit, and the units it picks now.
struct Entry {
    text: String,
    filters: Vec<Filter>,
    picked: BTreeSet<Id>,
    asked: u64,
}

impl Selections {
    /// Calls `f` with the units `selector` (which names no unit) picks in `game`, working
    /// them out only if not kept already.
    pub(crate) fn with<R>(
        &self,
        game: &Game,
        selector: &Selector,
        f: impl FnOnce(&BTreeSet<Id>) -> R,
    ) -> Result<R, StateError> {
        let mut kept = self.0.borrow_mut();
        kept.asked += 1;
        let asked = kept.asked;
        let found = kept.entries.iter().position(|e| e.text == selector.text);
        let i = match found {
            Some(i) => i,
            None => {
                let filters = selector.filters(game)?;
                let picked = game
                    .units
                    .values()
                    .filter(|u| filters.iter().all(|f| f.matches(u)))
                    .map(|u| u.id.clone())
                    .collect();
                if kept.entries.len() >= MAX_KEPT
                    && let Some(oldest) =
                        (0..kept.entries.len()).min_by_key(|&i| kept.entries[i].asked)
                {
                    kept.entries.swap_remove(oldest);
                }
                kept.entries.push(Entry {
                    text: selector.text.clone(),
                    filters,
                    picked,
                    asked,
                });
                kept.entries.len() - 1
            }
        };
        let entry = &mut kept.entries[i];
        entry.asked = asked;
        Ok(f(&entry.picked))
    }

    /// Brings what is kept up to date after `change` has applied to a game with `units` and
    /// `schema`.
    pub(crate) fn changed(
        &mut self,
        change: &Change,
        units: &BTreeMap<Id, Unit>,
        groups: impl Fn(&Id) -> bool,
        schema: &Schema,
    ) {
        let kept = self.0.get_mut();
        if kept.entries.is_empty() {
            return;
        }
        let mut retest = |id: &Id| {
            let unit = units.get(id);
            for e in &mut kept.entries {
                let now = unit.is_some_and(|u| e.filters.iter().all(|f| f.matches(u)));
                if now != e.picked.contains(id) {
                    if now {
                        e.picked.insert(id.clone());
                    } else {
                        e.picked.remove(id);
                    }
                }
            }
        };
        let declared_marker = |m: &str| schema.markers.is_empty() || schema.markers.contains_key(m);
        match change {
            // What a selector tests of one unit: test that unit again. A name the schema does
            // not declare is valid in a selector only while some unit carries it: forget.
            Change::SetAttr { id, attr, .. } => {
                if !units.contains_key(id) {
                    return;
                }
                if schema.unit.contains_key(attr) {
                    retest(id);
                } else {
                    kept.entries.clear();
                }
            }
            Change::Mark { unit, marker, .. } | Change::Unmark { unit, marker, .. } => {
                if declared_marker(&marker.name) {
                    retest(unit);
                } else {
                    kept.entries.clear();
                }
            }
            Change::Advance { expired, .. } => {
                for e in expired {
                    retest(&e.unit);
                }
            }
            Change::Rewind { restored, .. } => {
                for e in restored {
                    retest(&e.unit);
                }
            }
            // A side or command found by a prefix of its name may now be another.
            Change::Rename { id, .. } => {
                if groups(id) {
                    kept.entries.clear();
                }
            }
            // Nothing a selector without names tests.
            Change::SetStore { .. }
            | Change::SetClock { .. }
            | Change::SetTurnOrder { .. }
            | Change::AddElement { .. }
            | Change::RemoveElement { .. }
            | Change::MoveElement { .. } => {}
            // The schema (defaults, declared names), the sides, commands and units.
            Change::SetSchema { .. }
            | Change::AddSide { .. }
            | Change::RemoveSide { .. }
            | Change::AddCommand { .. }
            | Change::RemoveCommand { .. }
            | Change::AddUnit { .. }
            | Change::RemoveUnit { .. }
            | Change::MoveUnit { .. }
            | Change::SetTeam { .. }
            | Change::Replace { .. } => kept.entries.clear(),
        }
    }
}

impl Clone for Selections {
    /// A copy starts with nothing kept (it is worked out again when asked).
    fn clone(&self) -> Self {
        Selections::default()
    }
}

impl PartialEq for Selections {
    /// What is kept is not part of the game: games compare equal whatever they keep.
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::fmt::Debug for Selections {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Selections")
    }
}
