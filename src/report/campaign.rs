//! The campaign report: every battle of a campaign in order (its result, each side's roster
//! strength before and after, what changed, the Heroes' fates, the turning point), each
//! side's dice over the whole campaign against their exact odds,
//! each side's strength across the campaign as a chart, and each Hero's career. Built from
//! the campaign journal ([`crate::campaign::Story`]) and each battle's own journal (read
//! as the battle report reads it, [`super::from_file`]); rendered with the templates in
//! `templates/` like the battle report.

use serde::Serialize;

use super::{ReportError, TurningPoint};
use crate::campaign::story::{BattleStory, Career};
use crate::campaign::{Campaign, SideStrength, Story};
use crate::journal::Caps;

/// One battle as the campaign report shows it.
#[derive(Debug, Clone, Serialize)]
pub struct BattleRow {
    /// The campaign's record of it.
    pub story: BattleStory,
    /// The local date it began, `YYYY-MM-DD`.
    pub date: Option<String>,
    /// The commands in force in its journal (`None`: the journal could not be read).
    pub commands: Option<usize>,
    /// Its rounds.
    pub rounds: Option<usize>,
    /// The resolution that changed the most, if any.
    pub turning_point: Option<TurningPoint>,
    /// Why its journal could not be read, if it could not.
    pub unread: Option<String>,
    /// Each side's strength before and after, one row a side: side, before, after.
    pub sides: Vec<(String, String, String)>,
}

/// Everything the campaign report shows.
#[derive(Debug, Clone, Serialize)]
pub struct CampaignReport {
    /// The campaign's name.
    pub name: String,
    /// The rules in one line (`olab + heroes`).
    pub rules: String,
    /// The options set for every battle, name and value.
    pub options: Vec<(String, String)>,
    /// The battles, in order (ended or in progress).
    pub battles: Vec<BattleRow>,
    /// The battle in progress, if any.
    pub open: Option<String>,
    /// The sides followed, by name, in order.
    pub sides: Vec<String>,
    /// The chart's points: a label and each side's value (strength, or units when the rules
    /// name no strength), in the order of `sides`.
    pub points: Vec<(String, Vec<Option<f64>>)>,
    /// What the chart counts: `strength` or `units`.
    pub measure: String,
    /// The Heroes' and Main Characters' careers.
    pub careers: Vec<Career>,
    /// Each side's dice over the whole campaign.
    pub luck: Vec<super::dice::SideLuck>,
}

fn words(s: Option<&SideStrength>) -> String {
    match s {
        None => "–".into(),
        Some(s) => {
            let units = format!("{} unit{}", s.units, if s.units == 1 { "" } else { "s" });
            match s.strength {
                Some(v) => format!("{} ({units})", crate::dice::render::fmt_value(v)),
                None => units,
            }
        }
    }
}

/// Side `id`'s name as its roster gives it (its id when the roster has none).
fn side_name(c: &Campaign, id: &str) -> String {
    c.roster(id)
        .and_then(|text| text.parse::<toml::Table>().ok())
        .and_then(|t| {
            t.get("side")?
                .as_array()?
                .iter()
                .filter_map(toml::Value::as_table)
                .find(|s| s.get("id").and_then(toml::Value::as_str) == Some(id))?
                .get("name")?
                .as_str()
                .map(str::to_string)
        })
        .unwrap_or_else(|| id.to_string())
}

impl CampaignReport {
    /// The report of campaign `c`, reading its battles' journals with `caps`.
    pub fn build(c: &Campaign, caps: Caps) -> Result<CampaignReport, ReportError> {
        let entries = c
            .entries()
            .map_err(|e| ReportError::Campaign(e.to_string()))?;
        let story = Story::of(&entries);
        let with_strength = story
            .points
            .iter()
            .flat_map(|p| p.sides.iter().flatten())
            .any(|s| s.strength.is_some());
        let measure = if with_strength { "strength" } else { "units" };
        let value = |s: &SideStrength| {
            if with_strength {
                s.strength
            } else {
                Some(s.units as f64)
            }
        };
        let name = |id: &str| side_name(c, id);
        let mut read_ok = Vec::new();
        let battles = story
            .battles
            .iter()
            .map(|b| {
                let path = c.battle_path(&b.name);
                let read = super::from_file(&path, caps);
                let sides = story
                    .sides
                    .iter()
                    .map(|id| {
                        let find = |l: &[SideStrength]| l.iter().find(|s| &s.side == id).cloned();
                        (
                            name(id),
                            words(find(&b.start).as_ref()),
                            words(find(&b.end).as_ref()),
                        )
                    })
                    .collect();
                let (commands, rounds, turning_point, unread) = match read {
                    Ok(battle) => {
                        let row = (
                            Some(battle.transactions),
                            Some(battle.rounds.len()),
                            battle.turning_points.first().cloned(),
                            None,
                        );
                        read_ok.push(battle);
                        row
                    }
                    Err(e) => (None, None, None, Some(e.to_string())),
                };
                BattleRow {
                    story: b.clone(),
                    date: super::local_date(b.begun),
                    commands,
                    rounds,
                    turning_point,
                    unread,
                    sides,
                }
            })
            .collect();
        let rules = crate::journal::RulesRecord {
            ruleset: c.file.ruleset.clone(),
            variant: c.file.variant.clone(),
            house: c.file.house.clone(),
            ..Default::default()
        };
        Ok(CampaignReport {
            name: c.file.name.clone(),
            rules: crate::engine::rules::describe(&rules),
            options: c
                .file
                .options
                .iter()
                .map(|(k, v)| {
                    let v = v.as_str().map_or_else(|| v.to_string(), str::to_string);
                    (k.clone(), v)
                })
                .collect(),
            battles,
            open: story.open.clone(),
            sides: story.sides.iter().map(|id| name(id)).collect(),
            points: story
                .points
                .iter()
                .map(|p| {
                    (
                        p.label.clone(),
                        p.sides.iter().map(|s| s.as_ref().and_then(value)).collect(),
                    )
                })
                .collect(),
            measure: measure.to_string(),
            luck: super::dice::luck(read_ok.iter().flat_map(|b| &b.dice)),
            careers: story
                .careers
                .iter()
                .map(|h| Career {
                    side: name(&h.side),
                    ..h.clone()
                })
                .collect(),
        })
    }

    /// One line saying what was written.
    pub fn summary(&self, files: &[std::path::PathBuf]) -> String {
        let n = self
            .battles
            .iter()
            .filter(|b| b.story.result.is_some())
            .count();
        let mut s = format!(
            "campaign report of `{}` ({n} battle{} fought) written to {}",
            self.name,
            if n == 1 { "" } else { "s" },
            files
                .first()
                .map_or(String::new(), |f| f.display().to_string())
        );
        if files.len() > 1 {
            s.push_str(" (and its chart beside it)");
        }
        s
    }
}
