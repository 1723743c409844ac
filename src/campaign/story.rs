//! The campaign as it stands, read from its journal: the battles fought in order (an end
//! undone is taken back, a battle begun again after it counts once), each side's strength
//! before and after each, and each Hero's career. `campaign` shows it; the campaign report
//! (`crate::report::campaign`) draws it.

use std::collections::BTreeMap;

use serde::Serialize;

use super::{Entry, HeroFate, SideStrength};

/// One battle of the campaign.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BattleStory {
    /// Its name (its journal is `battles/NAME.jsonl`).
    pub name: String,
    /// Seconds since 1970 when it began.
    pub begun: u64,
    /// The result, once ended.
    pub result: Option<String>,
    /// Seconds since 1970 when it ended.
    pub ended: Option<u64>,
    /// Each side's roster strength before it (empty for campaigns journalled before this was
    /// kept).
    pub start: Vec<SideStrength>,
    /// Each side's roster strength after it, once ended.
    pub end: Vec<SideStrength>,
    /// What changed in the rosters, one line each.
    pub changes: Vec<String>,
    /// Each Hero's and Main Character's fate in it.
    pub heroes: Vec<HeroFate>,
    /// The units left at home, by side.
    pub left: Vec<(String, Vec<String>)>,
}

/// One Hero's or Main Character's career: every battle it was recorded in.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Career {
    /// The unit's id.
    pub id: String,
    /// Who it is (the latest name recorded).
    pub name: String,
    /// The side's id.
    pub side: String,
    /// `hero` or `main character` (the latest recorded).
    pub kind: String,
    /// Each battle fought: its name and the fate in words (`fell in round 3, returned`).
    pub battles: Vec<(String, String)>,
    /// How many times it fell.
    pub fell: usize,
}

/// A side's strength at one point of the campaign.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Point {
    /// `before watling`, `after watling`.
    pub label: String,
    /// Each side's units and strength there, in the order of [`Story::sides`] (`None`: the
    /// side had no roster then).
    pub sides: Vec<Option<SideStrength>>,
}

/// The campaign's history.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Story {
    /// The battles, in the order they began.
    pub battles: Vec<BattleStory>,
    /// The battle in progress, if any.
    pub open: Option<String>,
    /// The sides met in the battles' strengths, in order of first appearance.
    pub sides: Vec<String>,
    /// Each side's strength before and after each battle, in order.
    pub points: Vec<Point>,
    /// The Heroes' and Main Characters' careers, by side then id.
    pub careers: Vec<Career>,
}

impl Story {
    /// The story of the entries of a campaign journal, in order.
    pub fn of(entries: &[Entry]) -> Story {
        let mut battles: Vec<BattleStory> = Vec::new();
        let mut open = None;
        for e in entries {
            match e {
                Entry::BattleBegun {
                    name, sides, at, ..
                } => {
                    battles.retain(|b| &b.name != name);
                    battles.push(BattleStory {
                        name: name.clone(),
                        begun: *at,
                        result: None,
                        ended: None,
                        start: Vec::new(),
                        end: Vec::new(),
                        changes: Vec::new(),
                        heroes: Vec::new(),
                        left: sides
                            .iter()
                            .filter(|s| !s.left.is_empty())
                            .map(|s| (s.side.clone(), s.left.clone()))
                            .collect(),
                    });
                    open = Some(name.clone());
                }
                Entry::BattleReopened { name, .. } => {
                    if let Some(b) = battles.iter_mut().find(|b| &b.name == name) {
                        b.result = None;
                        b.ended = None;
                        b.end.clear();
                        b.changes.clear();
                        b.heroes.clear();
                    }
                    open = Some(name.clone());
                }
                Entry::BattleEnded {
                    name,
                    result,
                    changes,
                    strength,
                    start,
                    heroes,
                    at,
                    ..
                } => {
                    let at_ = *at;
                    let b = match battles.iter().position(|b| &b.name == name) {
                        Some(i) => &mut battles[i],
                        None => {
                            battles.push(BattleStory {
                                name: name.clone(),
                                begun: at_,
                                result: None,
                                ended: None,
                                start: Vec::new(),
                                end: Vec::new(),
                                changes: Vec::new(),
                                heroes: Vec::new(),
                                left: Vec::new(),
                            });
                            battles.last_mut().expect("pushed")
                        }
                    };
                    b.result = Some(result.clone());
                    b.ended = Some(at_);
                    b.start = start.clone();
                    b.end = strength.clone();
                    b.changes = changes.clone();
                    b.heroes = heroes.clone();
                    open = None;
                }
                _ => {}
            }
        }
        let mut sides: Vec<String> = Vec::new();
        for b in &battles {
            for s in b.start.iter().chain(&b.end) {
                if !sides.contains(&s.side) {
                    sides.push(s.side.clone());
                }
            }
        }
        let at = |list: &[SideStrength]| -> Vec<Option<SideStrength>> {
            sides
                .iter()
                .map(|id| list.iter().find(|s| &s.side == id).cloned())
                .collect()
        };
        let mut points = Vec::new();
        for b in battles.iter().filter(|b| b.result.is_some()) {
            if !b.start.is_empty() {
                points.push(Point {
                    label: format!("before {}", b.name),
                    sides: at(&b.start),
                });
            }
            points.push(Point {
                label: format!("after {}", b.name),
                sides: at(&b.end),
            });
        }
        let mut careers: BTreeMap<(String, String), Career> = BTreeMap::new();
        for b in battles.iter().filter(|b| b.result.is_some()) {
            for h in &b.heroes {
                let c = careers
                    .entry((h.side.clone(), h.id.clone()))
                    .or_insert_with(|| Career {
                        id: h.id.clone(),
                        name: h.name.clone(),
                        side: h.side.clone(),
                        kind: h.kind.clone(),
                        battles: Vec::new(),
                        fell: 0,
                    });
                c.name = h.name.clone();
                c.kind = h.kind.clone();
                c.battles.push((b.name.clone(), h.describe()));
                if h.fate != "stood" {
                    c.fell += 1;
                }
            }
        }
        Story {
            battles,
            open,
            sides,
            points,
            careers: careers.into_values().collect(),
        }
    }

    /// The battles ended, in order.
    pub fn ended(&self) -> impl Iterator<Item = &BattleStory> {
        self.battles.iter().filter(|b| b.result.is_some())
    }

    /// What the latest battle still ended (or, before any, the campaign's start) asked the
    /// next battle to know (`carry.NAME` records), by store name: an end undone hands back
    /// what the end before it said.
    pub fn carried(
        entries: &[Entry],
    ) -> BTreeMap<String, serde_json::Map<String, serde_json::Value>> {
        let mut said = Vec::new();
        for e in entries {
            match e {
                Entry::Created { carried, .. } | Entry::BattleEnded { carried, .. } => {
                    said.push(carried)
                }
                Entry::BattleReopened { .. } if said.len() > 1 => {
                    said.pop();
                }
                _ => {}
            }
        }
        said.last().map(|c| (*c).clone()).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ended(name: &str, side: &str, strength: f64, carried: &str) -> Entry {
        let mut keep = BTreeMap::new();
        keep.insert(
            "heroes".to_string(),
            serde_json::json!({ "declared": { carried: "hero" } })
                .as_object()
                .unwrap()
                .clone(),
        );
        Entry::BattleEnded {
            name: name.into(),
            result: format!("{name} won"),
            before: BTreeMap::new(),
            after: BTreeMap::new(),
            changes: vec![],
            strength: vec![SideStrength {
                side: side.into(),
                units: 2,
                strength: Some(strength),
            }],
            start: vec![SideStrength {
                side: side.into(),
                units: 3,
                strength: Some(strength + 1.0),
            }],
            heroes: vec![HeroFate {
                id: "h".into(),
                name: "Hal".into(),
                side: side.into(),
                kind: "hero".into(),
                fate: if name == "a" { "fell" } else { "stood" }.into(),
                round: (name == "a").then_some(2),
            }],
            carried: keep,
            at: 1,
        }
    }

    fn begun(name: &str) -> Entry {
        Entry::BattleBegun {
            name: name.into(),
            sides: vec![],
            at: 1,
        }
    }

    #[test]
    fn an_end_undone_counts_once_and_hands_back_what_the_end_before_carried() {
        let entries = vec![
            begun("a"),
            ended("a", "red", 10.0, "x"),
            begun("b"),
            ended("b", "red", 7.0, "y"),
            Entry::BattleReopened {
                name: "b".into(),
                at: 2,
            },
        ];
        let story = Story::of(&entries);
        assert_eq!(story.open.as_deref(), Some("b"));
        assert_eq!(story.ended().count(), 1);
        let labels: Vec<&str> = story.points.iter().map(|p| p.label.as_str()).collect();
        assert_eq!(labels, ["before a", "after a"]);
        assert_eq!(
            story.careers[0].battles,
            [("a".to_string(), "fell in round 2, returned".to_string())]
        );
        assert_eq!(
            Story::carried(&entries)["heroes"]["declared"],
            serde_json::json!({ "x": "hero" })
        );
        // Ended again: both battles count, the second's record is the one carried.
        let mut again = entries.clone();
        again.push(ended("b", "red", 6.0, "z"));
        let story = Story::of(&again);
        assert_eq!(story.careers[0].battles.len(), 2);
        assert_eq!(story.careers[0].fell, 1);
        assert_eq!(
            story.points.last().unwrap().sides[0]
                .as_ref()
                .unwrap()
                .strength,
            Some(6.0)
        );
        assert_eq!(
            Story::carried(&again)["heroes"]["declared"],
            serde_json::json!({ "z": "hero" })
        );
    }
}
