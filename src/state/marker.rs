//! Markers (routed, suppressed, disordered, activated, in ambush…) and when they expire.
//!
//! An expiry is stated in game-clock terms ([`Expiry`]). When the marker is placed, phase and
//! round expiries are resolved to the last clock position at which the marker still holds
//! ([`Marker::until`]); a side's turn is matched when the clock leaves the end of a turn of
//! that side that began after [`Marker::since`] (so a turn order changed by initiative is
//! followed). The clock removes expired markers as it advances.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::clock::{ClockPos, Step};
use super::id::Id;

/// When a marker expires, in game-clock terms. Written (in TOML, JSON and on the command
/// line) as `phase`, `round`, `2 rounds`, `own turn` or `turn romans`; `end of` in front is
/// allowed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Expiry {
    /// At the end of the current phase (the clock's current step).
    EndOfPhase,
    /// At the end of the current round.
    EndOfRound,
    /// After this many full rounds: it is gone when the clock reaches the same step that
    /// many rounds later (`1 rounds` placed in round 3's shooting phase lasts until round
    /// 4's shooting phase begins).
    Rounds(u32),
    /// At the end of this side's next turn (the next turn of that side that begins after
    /// the marker is placed).
    EndOfTurn {
        /// The side.
        side: Id,
    },
    /// At the end of the marked unit's own side's next turn (resolved to
    /// [`Expiry::EndOfTurn`] when placed).
    EndOfOwnTurn,
}

impl Expiry {
    /// Parses `phase`, `round`, `N rounds`, `own turn`, `turn SIDE` (or `SIDE turn`),
    /// optionally preceded by `end of` or `until`.
    pub fn parse(text: &str) -> Result<Expiry, String> {
        let lower = text.trim().to_lowercase();
        let mut t = lower.as_str();
        for prefix in [
            "until ", "end of ", "end-of-", "end_of_", "the ", "this ", "next ",
        ] {
            t = t.strip_prefix(prefix).unwrap_or(t).trim_start();
        }
        let spaced = t
            .replace("own-turn", "own turn")
            .replace("own_turn", "own turn");
        let words: Vec<&str> = spaced.split_whitespace().collect();
        let fail = || {
            format!(
                "unknown expiry `{text}`: use `phase`, `round`, `N rounds`, `own turn` or `turn SIDE`"
            )
        };
        match words.as_slice() {
            ["phase"] => Ok(Expiry::EndOfPhase),
            ["round"] => Ok(Expiry::EndOfRound),
            [n, "round" | "rounds"] | ["rounds" | "round", n] => {
                let n: u32 = n.parse().map_err(|_| fail())?;
                if n == 0 {
                    Err(format!("`{text}`: a marker must last at least 1 round"))
                } else {
                    Ok(Expiry::Rounds(n))
                }
            }
            ["own" | "its", "turn"] | ["own"] => Ok(Expiry::EndOfOwnTurn),
            ["turn", side] | [side, "turn"] => {
                let side = side.trim_end_matches("'s").trim_end_matches('\'');
                let side = side.strip_prefix("turn:").unwrap_or(side);
                Id::new(side)
                    .map(|side| Expiry::EndOfTurn { side })
                    .map_err(|_| fail())
            }
            [w] if w.starts_with("turn:") => Id::new(&w[5..])
                .map(|side| Expiry::EndOfTurn { side })
                .map_err(|_| fail()),
            [w] if w.ends_with('r') && w[..w.len() - 1].parse::<u32>().is_ok() => {
                Expiry::parse(&format!("{} rounds", &w[..w.len() - 1]))
            }
            _ => Err(fail()),
        }
    }

    /// The short written form that [`Expiry::parse`] reads back.
    pub fn code(&self) -> String {
        match self {
            Expiry::EndOfPhase => "phase".into(),
            Expiry::EndOfRound => "round".into(),
            Expiry::Rounds(n) => format!("{n} rounds"),
            Expiry::EndOfTurn { side } => format!("turn {side}"),
            Expiry::EndOfOwnTurn => "own turn".into(),
        }
    }
}

impl fmt::Display for Expiry {
    /// Words for people: `end of phase`, `after 2 rounds`, `end of romans' next turn`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expiry::EndOfPhase => f.write_str("end of phase"),
            Expiry::EndOfRound => f.write_str("end of round"),
            Expiry::Rounds(1) => f.write_str("after 1 round"),
            Expiry::Rounds(n) => write!(f, "after {n} rounds"),
            Expiry::EndOfTurn { side } => write!(f, "end of the next turn of {side}"),
            Expiry::EndOfOwnTurn => f.write_str("end of its side's next turn"),
        }
    }
}

impl TryFrom<String> for Expiry {
    type Error = String;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        Expiry::parse(&s)
    }
}

impl From<Expiry> for String {
    fn from(e: Expiry) -> String {
        e.code()
    }
}

/// A marker on a unit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Marker {
    /// Its name (`routed`).
    pub name: String,
    /// The expiry it was placed with, if any (`own turn` is stored as `turn SIDE`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expiry: Option<Expiry>,
    /// Where the clock was when it was placed.
    #[serde(default)]
    pub since: ClockPos,
    /// For phase and round expiries: the last clock position at which it holds; the clock
    /// removes it when advancing from this position or a later one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until: Option<ClockPos>,
}

impl Marker {
    /// A marker that stays until it is removed.
    pub fn new(name: impl Into<String>) -> Self {
        Marker {
            name: name.into(),
            expiry: None,
            since: ClockPos::START,
            until: None,
        }
    }

    /// Whether advancing the clock from `from` (a step of a round made of `steps`) removes
    /// this marker.
    pub fn expires_leaving(&self, from: ClockPos, steps: &[Step]) -> bool {
        if let Some(Expiry::EndOfTurn { side }) = &self.expiry {
            let s = from.step as usize;
            let is = |i: usize| steps.get(i).and_then(|st| st.side.as_ref()) == Some(side);
            if !is(s) || is(s + 1) {
                return false; // Not the last step of one of that side's turns.
            }
            let mut start = s;
            while start > 0 && is(start - 1) {
                start -= 1;
            }
            let began = ClockPos {
                round: from.round,
                step: start as u32,
            };
            return began > self.since;
        }
        self.until.is_some_and(|u| u <= from)
    }
}

impl fmt::Display for Marker {
    /// `routed`, or `suppressed (end of round)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        if let Some(e) = &self.expiry {
            write!(f, " ({e})")?;
        }
        Ok(())
    }
}
