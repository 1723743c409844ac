//! Every change to a game as data: applied all-or-nothing, inverted exactly, serialised for
//! the journal.
//!
//! A command builds its changes (usually through the helpers in `edit.rs`, which apply them
//! as they go), the journal stores them, `undo` applies their inverses in reverse order and
//! `replay` applies them again. [`Game::apply`](super::Game::apply) (in `apply.rs`) checks everything a change assumes (ids
//! exist, recorded old values match, positions are in range) before touching anything.

use serde::{Deserialize, Serialize};

use super::clock::{ClockPos, Expired};
use super::game::{Command, Element, Game, Side, Unit};
use super::id::Id;
use super::marker::Marker;
use super::schema::Schema;
use super::value::Value;

/// The store namespace of a script's `secret` table starts with this (`secret:ambushes`):
/// its values are never shown in the line a change is shown by.
pub const SECRET_STORE: &str = "secret:";

/// One change to a game. Adding and removing carry the position in the parent's list so the
/// inverse puts things back exactly where they were; setting carries the old value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "change", rename_all = "snake_case")]
pub enum Change {
    /// Replace the schema (and with it the sequence of play).
    SetSchema {
        /// The schema before.
        old: Box<Schema>,
        /// The schema after.
        new: Box<Schema>,
    },
    /// Add an empty side at `index` in the side order.
    AddSide {
        /// Position among the sides.
        index: usize,
        /// The side (with no commands).
        side: Side,
    },
    /// Remove an empty side.
    RemoveSide {
        /// Its position among the sides.
        index: usize,
        /// The side as it was.
        side: Side,
    },
    /// Add an empty command at `index` in its side's commands.
    AddCommand {
        /// Position in the side's commands.
        index: usize,
        /// The command (with no units).
        command: Command,
    },
    /// Remove an empty command.
    RemoveCommand {
        /// Its position in the side's commands.
        index: usize,
        /// The command as it was.
        command: Command,
    },
    /// Add a unit with no elements at `index` in its command's units.
    AddUnit {
        /// Position in the command's units.
        index: usize,
        /// The unit (attributes and markers included, no elements).
        unit: Unit,
    },
    /// Remove a unit with no elements.
    RemoveUnit {
        /// Its position in the command's units.
        index: usize,
        /// The unit as it was.
        unit: Unit,
    },
    /// Add an element at `index` in its unit's elements.
    AddElement {
        /// Position in the unit's elements.
        index: usize,
        /// The element.
        element: Element,
    },
    /// Remove an element.
    RemoveElement {
        /// Its position in the unit's elements.
        index: usize,
        /// The element as it was.
        element: Element,
    },
    /// Move a unit (with its elements, attributes and markers) to another command, perhaps
    /// of another side.
    MoveUnit {
        /// The unit.
        id: Id,
        /// The command it leaves, and its position there.
        from: Place,
        /// The command it joins, and its position there.
        to: Place,
    },
    /// Move an element (with its attributes and markers) to another unit.
    MoveElement {
        /// The element.
        id: Id,
        /// The unit it leaves, and its position there.
        from: Place,
        /// The unit it joins, and its position there.
        to: Place,
    },
    /// Change a display name.
    Rename {
        /// What is renamed.
        id: Id,
        /// The name before.
        old: String,
        /// The name after.
        new: String,
    },
    /// Set (or clear, with `None`) an attribute of a side, command, unit or element.
    SetAttr {
        /// Whose attribute.
        id: Id,
        /// The attribute.
        attr: String,
        /// The stored value before (`None`: the default applied).
        old: Option<Value>,
        /// The stored value after.
        new: Option<Value>,
    },
    /// Put a marker on a unit or an element at `index` in its markers.
    Mark {
        /// The unit or element (the field keeps its name so older journals read the same).
        unit: Id,
        /// Position in its markers.
        index: usize,
        /// The marker.
        marker: Marker,
    },
    /// Take a marker off a unit or an element.
    Unmark {
        /// The unit or element.
        unit: Id,
        /// Its position in the unit's markers.
        index: usize,
        /// The marker as it was.
        marker: Marker,
    },
    /// The clock moves forward; `expired` markers are removed.
    Advance {
        /// Where it was.
        from: ClockPos,
        /// Where it goes.
        to: ClockPos,
        /// The markers removed (index = position before removal, ascending per unit).
        expired: Vec<Expired>,
    },
    /// The inverse of [`Change::Advance`]: the clock moves back and markers are restored.
    Rewind {
        /// Where it was.
        from: ClockPos,
        /// Where it goes.
        to: ClockPos,
        /// The markers put back.
        restored: Vec<Expired>,
    },
    /// The clock is set by hand (no marker expires).
    SetClock {
        /// Where it was.
        old: ClockPos,
        /// Where it goes.
        new: ClockPos,
    },
    /// A side joins a team, leaves one (`new: None`) or moves to another.
    SetTeam {
        /// The side.
        side: Id,
        /// Its team before.
        old: Option<Id>,
        /// Its team after.
        new: Option<Id>,
    },
    /// The sides' turn order changes (initiative).
    SetTurnOrder {
        /// The order before.
        old: Vec<Id>,
        /// The order after.
        new: Vec<Id>,
    },
    /// A script's `store` entry is set (or removed, with `None`).
    SetStore {
        /// The script's name (the ruleset or house rule).
        script: String,
        /// The key.
        key: String,
        /// The value before.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        old: Option<serde_json::Value>,
        /// The value after.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        new: Option<serde_json::Value>,
    },
    /// The whole game is replaced (`load`, `replay`): undoable like any other change.
    Replace {
        /// The game before.
        old: Box<Game>,
        /// The game after.
        new: Box<Game>,
    },
}

/// Where a unit or element is in its parent's list: the parent's id and the position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Place {
    /// The command (of a unit) or unit (of an element).
    pub parent: Id,
    /// The position in the parent's list, from 0.
    pub index: usize,
}

/// A change with the reason the rules gave for it (shown under a command's output and kept
/// in the journal).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Note {
    /// The change, for people (`leg1 sp 4 → 3`).
    pub change: String,
    /// Why (`lost a stand to shooting (5.2.4)`).
    pub reason: String,
}

impl std::fmt::Display for Note {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} — {}", self.change, self.reason)
    }
}

impl Change {
    /// The change that undoes this one: applying a change then its inverse gives back the
    /// game exactly.
    pub fn inverse(&self) -> Change {
        use Change::*;
        match self.clone() {
            SetSchema { old, new } => SetSchema { old: new, new: old },
            AddSide { index, side } => RemoveSide { index, side },
            RemoveSide { index, side } => AddSide { index, side },
            AddCommand { index, command } => RemoveCommand { index, command },
            RemoveCommand { index, command } => AddCommand { index, command },
            AddUnit { index, unit } => RemoveUnit { index, unit },
            RemoveUnit { index, unit } => AddUnit { index, unit },
            AddElement { index, element } => RemoveElement { index, element },
            RemoveElement { index, element } => AddElement { index, element },
            MoveUnit { id, from, to } => MoveUnit {
                id,
                from: to,
                to: from,
            },
            MoveElement { id, from, to } => MoveElement {
                id,
                from: to,
                to: from,
            },
            Rename { id, old, new } => Rename {
                id,
                old: new,
                new: old,
            },
            SetAttr { id, attr, old, new } => SetAttr {
                id,
                attr,
                old: new,
                new: old,
            },
            Mark {
                unit,
                index,
                marker,
            } => Unmark {
                unit,
                index,
                marker,
            },
            Unmark {
                unit,
                index,
                marker,
            } => Mark {
                unit,
                index,
                marker,
            },
            Advance { from, to, expired } => Rewind {
                from: to,
                to: from,
                restored: expired,
            },
            Rewind { from, to, restored } => Advance {
                from: to,
                to: from,
                expired: restored,
            },
            SetClock { old, new } => SetClock { old: new, new: old },
            SetTurnOrder { old, new } => SetTurnOrder { old: new, new: old },
            SetTeam { side, old, new } => SetTeam {
                side,
                old: new,
                new: old,
            },
            SetStore {
                script,
                key,
                old,
                new,
            } => SetStore {
                script,
                key,
                old: new,
                new: old,
            },
            Replace { old, new } => Replace { old: new, new: old },
        }
    }
}

impl std::fmt::Display for Change {
    /// One line for people (`undo` messages, the log): `leg1 sp 6 → 4`,
    /// `leg1 marked routed`, `clock round 1 step 8 → round 2 step 1 (expired: leg2 suppressed)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use Change::*;
        // A value, or `default` (written straight into `f`: a change line is made for every
        // change a command shows).
        struct Opt<'a>(&'a Option<Value>);
        impl std::fmt::Display for Opt<'_> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                match self.0 {
                    Some(v) => v.fmt(f),
                    None => f.write_str("default"),
                }
            }
        }
        let markers = |list: &[Expired]| {
            list.iter()
                .map(|e| format!("{} {}", e.unit, e.marker.name))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match self {
            SetSchema { .. } => write!(f, "schema replaced"),
            AddSide { side, .. } => write!(f, "side {} added", side.id),
            RemoveSide { side, .. } => write!(f, "side {} removed", side.id),
            AddCommand { command, .. } => {
                write!(f, "command {} added to {}", command.id, command.side)
            }
            RemoveCommand { command, .. } => write!(f, "command {} removed", command.id),
            AddUnit { unit, .. } => write!(f, "unit {} added to {}", unit.id, unit.command),
            RemoveUnit { unit, .. } => write!(f, "unit {} removed", unit.id),
            AddElement { element, .. } => {
                write!(f, "element {} added to {}", element.id, element.unit)
            }
            RemoveElement { element, .. } => write!(f, "element {} removed", element.id),
            MoveUnit { id, from, to } => {
                write!(f, "unit {id} moved from {} to {}", from.parent, to.parent)
            }
            MoveElement { id, from, to } => {
                write!(
                    f,
                    "element {id} moved from {} to {}",
                    from.parent, to.parent
                )
            }
            Rename { id, old, new } => write!(f, "{id} renamed from “{old}” to “{new}”"),
            SetAttr { id, attr, old, new } => {
                write!(f, "{id} {attr} {} → {}", Opt(old), Opt(new))
            }
            Mark { unit, marker, .. } => write!(f, "{unit} marked {marker}"),
            Unmark { unit, marker, .. } => write!(f, "{unit} unmarked {}", marker.name),
            Advance { from, to, expired }
            | Rewind {
                from,
                to,
                restored: expired,
            } => {
                write!(f, "clock {from} → {to}")?;
                if !expired.is_empty() {
                    let word = if matches!(self, Advance { .. }) {
                        "expired"
                    } else {
                        "restored"
                    };
                    write!(f, " ({word}: {})", markers(expired))?;
                }
                Ok(())
            }
            SetClock { old, new } => write!(f, "clock set from {old} to {new}"),
            SetTeam { side, old, new } => match (old, new) {
                (_, Some(t)) => write!(f, "{side} in team {t}"),
                (Some(t), None) => write!(f, "{side} leaves team {t}"),
                (None, None) => write!(f, "{side} in no team"),
            },
            SetTurnOrder { new, .. } => {
                let list: Vec<&str> = new.iter().map(Id::as_str).collect();
                write!(f, "turn order {}", list.join(", "))
            }
            SetStore {
                script, key, new, ..
            } => match (new, script.strip_prefix(SECRET_STORE)) {
                // A secret store's values are the umpire's: the journal keeps them, no line
                // shown for the change does.
                (Some(_), Some(owner)) => write!(f, "secret {owner}.{key} set (‹secret›)"),
                (None, Some(owner)) => write!(f, "secret {owner}.{key} removed"),
                (Some(v), None) => write!(f, "store {script}.{key} = {v}"),
                (None, None) => write!(f, "store {script}.{key} removed"),
            },
            Replace { new, .. } => write!(f, "game replaced ({} units)", new.unit_count()),
        }
    }
}
