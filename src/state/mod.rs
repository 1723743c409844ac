//! Game state: sides, commands, units and elements; their attributes, checked against a
//! [`Schema`]; markers with expiry; the game clock; selectors; army rosters; and every
//! change as data ([`Change`]) so the journal can undo, redo and replay.
//!
//! This module knows nothing of Lua, the terminal or the journal file: the shell and the
//! script host build on it.

pub mod apply;
pub mod change;
mod check;
pub mod clock;
pub mod complete;
pub mod edit;
pub mod error;
pub mod game;
pub mod id;
pub mod marker;
pub mod roster;
pub mod schema;
mod schema_load;
mod selections;
pub mod selector;
pub mod team;
pub(crate) mod toml_doc;
pub mod value;
pub mod view;

pub use change::{Change, Note, Place};
pub use clock::{Advance, Clock, ClockPos, Expired, Sequence, Step, StepDef};
pub use complete::{
    complete, complete_attr, complete_expiry, complete_id, complete_marker, complete_value,
};
pub use edit::ChangeSet;
pub use error::{FilePos, StateError, StateErrorKind};
pub use game::{Attrs, Command, Element, Game, Kind, Side, Unit};
pub use id::Id;
pub use marker::{Expiry, Marker};
pub use roster::{load_roster, write_roster, write_roster_where};
pub use schema::{
    AttentionSpec, AttrDef, AttrType, AwaySpec, MarkerDef, Schema, StatusSpec, StrengthMax,
};
pub use selector::Selector;
pub use team::Party;
pub use value::Value;
pub use view::{Status, UnitView, bar};

#[cfg(test)]
mod prop_tests;
#[cfg(test)]
mod tests;
