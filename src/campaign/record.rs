//! The entries of a campaign journal (`campaign.jsonl`): one JSON object per line in the
//! hash chain of [`crate::journal`], tagged by `type`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// One entry of the campaign journal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Entry {
    /// The campaign was started.
    Created {
        /// Its name.
        name: String,
        /// Its ruleset.
        #[serde(default)]
        ruleset: Option<String>,
        /// What the rules asked the first battle to know, as for [`Entry::BattleEnded`].
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        carried: BTreeMap<String, serde_json::Map<String, serde_json::Value>>,
        /// Seconds since 1970.
        at: u64,
    },
    /// A side's roster was written outside a battle's end (when the campaign was started
    /// from the sides in play, or added from an army file).
    Roster {
        /// The side.
        side: String,
        /// Where it came from.
        reason: String,
        /// The roster's text as written.
        text: String,
        /// Seconds since 1970.
        at: u64,
    },
    /// A battle began.
    BattleBegun {
        /// The battle's name (its journal is `battles/NAME.jsonl`).
        name: String,
        /// Each side at the start: the units brought and those left out.
        sides: Vec<BattleSide>,
        /// Seconds since 1970.
        at: u64,
    },
    /// A battle ended and the rosters were written.
    BattleEnded {
        /// The battle.
        name: String,
        /// The result as the umpire gave it.
        result: String,
        /// Each roster's text before the battle's end, by side.
        before: BTreeMap<String, String>,
        /// Each roster's text as written, by side.
        after: BTreeMap<String, String>,
        /// What changed, one line each (`leg1 sp 7 → 3`, `war3 lost`).
        changes: Vec<String>,
        /// Each side's strength once the battle's losses were carried over.
        strength: Vec<SideStrength>,
        /// Each side's strength in its roster before the battle (empty in campaign journals
        /// written before it was kept).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        start: Vec<SideStrength>,
        /// Each Hero's and Main Character's fate in the battle, as the rules recorded it
        /// (`umpire.record("heroes", …)` at `battle_ends`).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        heroes: Vec<HeroFate>,
        /// What the rules asked the next battle to know (`umpire.record("carry.NAME", {KEY =
        /// VALUE})`): by store name, the keys and values set in the next battle's store.
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        carried: BTreeMap<String, serde_json::Map<String, serde_json::Value>>,
        /// Seconds since 1970.
        at: u64,
    },
    /// A battle's end was undone: the rosters are as they were before it, and the battle goes
    /// on.
    BattleReopened {
        /// The battle.
        name: String,
        /// Seconds since 1970.
        at: u64,
    },
}

/// A side as a battle began.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BattleSide {
    /// The side's id.
    pub side: String,
    /// The ids of the units brought.
    pub brought: Vec<String>,
    /// The ids of the roster's units left out of this battle.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left: Vec<String>,
}

/// A side's strength in its roster.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SideStrength {
    /// The side's id.
    pub side: String,
    /// Units in the roster.
    pub units: usize,
    /// The sum of the units' strength (the attribute `status` draws as a bar), when the
    /// rules declare one.
    #[serde(default)]
    pub strength: Option<f64>,
}

/// A Hero's or Main Character's fate in one battle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HeroFate {
    /// The unit's id.
    pub id: String,
    /// Who it is (`Boudica`, `Sergeant Aldo of the Wardens`).
    pub name: String,
    /// The side's id.
    pub side: String,
    /// `hero` or `main character`.
    pub kind: String,
    /// `stood`, `fell` (and returns for the next battle) or `lost` (its unit gone).
    pub fate: String,
    /// The round it fell in, when it fell.
    #[serde(default)]
    pub round: Option<u32>,
}

impl HeroFate {
    /// The fate in words: `stood`, `fell in round 3, returned`, `lost in round 2`.
    pub fn describe(&self) -> String {
        fate_words(&self.fate, self.round)
    }
}

/// A fate (`stood`, `fell`, `lost`) and the round it came in, in words: `stood`, `fell in
/// round 3, returned`, `lost in round 2`.
pub fn fate_words(fate: &str, round: Option<u32>) -> String {
    let when = round.map_or(String::new(), |r| format!(" in round {r}"));
    match fate {
        "fell" => format!("fell{when}, returned"),
        "lost" => format!("lost{when}"),
        other => other.to_string(),
    }
}
