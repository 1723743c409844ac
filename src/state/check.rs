//! Checking a whole game for consistency, for games read back from a save file (which may
//! have been edited by hand): every change made through [`Game::apply`] keeps these true.

use std::collections::BTreeSet;

use super::error::{StateError, StateErrorKind};
use super::game::Game;
use super::id::Id;

fn bad(message: String) -> StateError {
    StateErrorKind::Format(format!("inconsistent game: {message}")).into()
}

impl Game {
    /// Checks that parents and children agree, ids are unique across the game, and every
    /// stored attribute fits the schema. Call it after deserialising a saved game.
    pub fn check(&self) -> Result<(), StateError> {
        self.schema.validate()?;
        let mut seen: BTreeSet<&Id> = BTreeSet::new();
        for id in self.ids() {
            if !seen.insert(id) {
                return Err(bad(format!("`{id}` is used twice")));
            }
        }
        let listed: BTreeSet<&Id> = self.side_order.iter().collect();
        if listed.len() != self.side_order.len() || listed.len() != self.sides.len() {
            return Err(bad("the side order does not list every side once".into()));
        }
        let mut counts = [0usize; 3];
        for id in &self.side_order {
            let side = self
                .sides
                .get(id)
                .ok_or_else(|| bad(format!("side `{id}` is listed but missing")))?;
            for cid in &side.commands {
                let c = self
                    .commands
                    .get(cid)
                    .filter(|c| c.side == *id)
                    .ok_or_else(|| {
                        bad(format!(
                            "command `{cid}` of side `{id}` is missing or elsewhere"
                        ))
                    })?;
                counts[0] += 1;
                for uid in &c.units {
                    let u = self
                        .units
                        .get(uid)
                        .filter(|u| u.command == *cid && u.side == *id)
                        .ok_or_else(|| {
                            bad(format!(
                                "unit `{uid}` of command `{cid}` is missing or elsewhere"
                            ))
                        })?;
                    counts[1] += 1;
                    for eid in &u.elements {
                        self.elements
                            .get(eid)
                            .filter(|e| e.unit == *uid)
                            .ok_or_else(|| {
                                bad(format!(
                                    "element `{eid}` of unit `{uid}` is missing or elsewhere"
                                ))
                            })?;
                        counts[2] += 1;
                    }
                    let mut names = BTreeSet::new();
                    for m in &u.markers {
                        if !names.insert(&m.name) {
                            return Err(bad(format!("unit `{uid}` has marker `{}` twice", m.name)));
                        }
                    }
                }
            }
        }
        if counts != [self.commands.len(), self.units.len(), self.elements.len()] {
            return Err(bad(
                "some commands, units or elements belong to nothing".into()
            ));
        }
        for id in self.ids() {
            let (kind, attrs) = self.attrs_of(id.as_str()).expect("listed");
            for (name, v) in attrs {
                // Attributes the schema no longer declares are kept (rules may be reloaded).
                if let Some(def) = self.schema.attrs(kind).get(name) {
                    def.check(name, v)?;
                }
            }
        }
        Ok(())
    }
}
