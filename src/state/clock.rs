//! The game clock: rounds, and within a round an ordered list of steps (each side's turn with
//! its phases, or phases in which every side acts), all from the rule system's data.
//!
//! The [`Sequence`] is declared by the rules (part of the [`Schema`](super::Schema)); it is
//! expanded into concrete [`Step`]s with the game's sides in turn order. The [`Clock`] holds
//! the current [`ClockPos`] and the turn order; [`Game::advance`](super::Game::advance) moves
//! it one step and reports an [`Advance`].

use std::fmt;

use serde::{Deserialize, Serialize};

use super::error::{StateError, StateErrorKind};
use super::id::Id;
use super::marker::{Expiry, Marker};

/// One entry of a sequence of play.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum StepDef {
    /// A phase in which every side acts (`"initiative"`, `"morale"`). In TOML: a string.
    Phase(String),
    /// Each side in turn order takes a turn made of these phases (one step per phase; a turn
    /// with no phases is one step). In TOML: `{ each_side = ["move", "shoot"] }`.
    EachSide {
        /// The phases of each side's turn.
        each_side: Vec<String>,
    },
}

/// The sequence of play of one round. An empty sequence is a clock of bare rounds.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sequence {
    /// The steps of a round, in order.
    #[serde(default)]
    pub steps: Vec<StepDef>,
}

/// One concrete step of a round: a phase, a side's turn, or a phase of a side's turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// The phase, if the step has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<String>,
    /// Whose turn it is, if it is one side's turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<Id>,
}

impl Sequence {
    /// A sequence from its steps.
    pub fn new(steps: Vec<StepDef>) -> Self {
        Sequence { steps }
    }

    /// The concrete steps of a round with `sides` in turn order (never empty).
    pub fn steps(&self, sides: &[Id]) -> Vec<Step> {
        let mut out = Vec::new();
        for def in &self.steps {
            match def {
                StepDef::Phase(p) => out.push(Step {
                    phase: Some(p.clone()),
                    side: None,
                }),
                StepDef::EachSide { each_side } => {
                    for side in sides {
                        if each_side.is_empty() {
                            out.push(Step {
                                phase: None,
                                side: Some(side.clone()),
                            });
                        }
                        for p in each_side {
                            out.push(Step {
                                phase: Some(p.clone()),
                                side: Some(side.clone()),
                            });
                        }
                    }
                }
            }
        }
        if out.is_empty() {
            out.push(Step {
                phase: None,
                side: None,
            });
        }
        out
    }

    /// Checks that phase names are not empty.
    pub fn validate(&self) -> Result<(), StateError> {
        let empty = self.steps.iter().any(|d| match d {
            StepDef::Phase(p) => p.trim().is_empty(),
            StepDef::EachSide { each_side } => each_side.iter().any(|p| p.trim().is_empty()),
        });
        if empty {
            Err(StateErrorKind::Clock("a phase of the sequence has an empty name".into()).into())
        } else {
            Ok(())
        }
    }
}

/// A position of the clock: round (from 1) and step within the round (from 0). Positions
/// order by round, then step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ClockPos {
    /// The round, from 1.
    pub round: u32,
    /// The step within the round, from 0.
    pub step: u32,
}

impl ClockPos {
    /// The start of the game: round 1, first step.
    pub const START: ClockPos = ClockPos { round: 1, step: 0 };
}

impl Default for ClockPos {
    fn default() -> Self {
        ClockPos::START
    }
}

impl fmt::Display for ClockPos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "round {} step {}", self.round, self.step + 1)
    }
}

/// The clock of a game: where it is, and the order in which sides take their turns.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clock {
    /// The current position.
    pub pos: ClockPos,
    /// The sides' turn order (the initiative winner first, say); sides not listed follow in
    /// the game's order. Empty: the game's order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub turn_order: Vec<Id>,
}

impl Clock {
    /// The sides in turn order, given all sides in the game's order.
    pub fn sides_in_order(&self, sides: &[Id]) -> Vec<Id> {
        let mut out: Vec<Id> = self
            .turn_order
            .iter()
            .filter(|s| sides.contains(s))
            .cloned()
            .collect();
        let rest: Vec<Id> = sides.iter().filter(|s| !out.contains(s)).cloned().collect();
        out.extend(rest);
        out
    }
}

/// The position after `pos` in a round of `len` steps.
pub fn next_pos(pos: ClockPos, len: usize) -> ClockPos {
    if (pos.step as usize) + 1 < len {
        ClockPos {
            round: pos.round,
            step: pos.step + 1,
        }
    } else {
        ClockPos {
            round: pos.round + 1,
            step: 0,
        }
    }
}

/// The last position at which a marker placed at `pos` with `expiry` holds, given the
/// round's `steps`; `None` for a side's turn, which is matched as the clock advances (see
/// [`Marker::expires_leaving`]). A turn expiry for a side with no turn in the sequence is an
/// error.
pub fn resolve_expiry(
    expiry: &Expiry,
    pos: ClockPos,
    steps: &[Step],
    own_side: &Id,
) -> Result<Option<ClockPos>, StateError> {
    let last = steps.len().max(1) as u32 - 1;
    Ok(Some(match expiry {
        Expiry::EndOfPhase => pos,
        Expiry::EndOfRound => ClockPos {
            round: pos.round,
            step: last,
        },
        Expiry::Rounds(n) if pos.step > 0 => ClockPos {
            round: pos.round + n,
            step: pos.step - 1,
        },
        Expiry::Rounds(n) => ClockPos {
            round: pos.round + n - 1,
            step: last,
        },
        Expiry::EndOfOwnTurn | Expiry::EndOfTurn { .. } => {
            let side = match expiry {
                Expiry::EndOfTurn { side } => side,
                _ => own_side,
            };
            if !steps.iter().any(|s| s.side.as_ref() == Some(side)) {
                return Err(StateErrorKind::Clock(format!(
                    "the sequence of play has no turn for side `{side}`: use `phase`, `round` or `N rounds`"
                ))
                .into());
            }
            return Ok(None);
        }
    }))
}

/// A marker the clock removed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Expired {
    /// The unit or element it was on.
    pub unit: Id,
    /// Its index in the unit's (or element's) markers before any was removed.
    pub index: usize,
    /// The marker.
    pub marker: Marker,
}

/// What advancing the clock one step did, for the shell to print.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Advance {
    /// Where the clock was.
    pub from: ClockPos,
    /// Where it is now.
    pub to: ClockPos,
    /// A new round began.
    pub new_round: bool,
    /// A side's turn began (the side).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_turn: Option<Id>,
    /// The phase now under way, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phase: Option<String>,
    /// `round 3 · Romans' turn · shooting phase`.
    pub text: String,
    /// Markers that expired.
    pub expired: Vec<Expired>,
}

/// `round 3 · Romans' turn · shooting phase`, given a step and a way to name sides.
pub fn describe(pos: ClockPos, step: Option<&Step>, side_name: impl Fn(&Id) -> String) -> String {
    let mut parts = vec![format!("round {}", pos.round)];
    if let Some(step) = step {
        if let Some(side) = &step.side {
            let name = side_name(side);
            let poss = if name.ends_with('s') {
                format!("{name}'")
            } else {
                format!("{name}'s")
            };
            parts.push(format!("{poss} turn"));
        }
        if let Some(p) = &step.phase {
            if p.to_lowercase().contains("phase") {
                parts.push(p.clone());
            } else {
                parts.push(format!("{p} phase"));
            }
        }
    }
    parts.join(" · ")
}
