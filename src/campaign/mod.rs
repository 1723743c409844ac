//! A campaign: a folder a club keeps between battles (and may put under version control).
//!
//! ```text
//! DIR/campaign.toml        name, ruleset, variant, house rules, options
//! DIR/rosters/SIDE.toml    each side as it stands now, in the format `army load` reads
//! DIR/battles/NAME.jsonl   one journal per battle
//! DIR/reports/             reports written from the battles
//! DIR/campaign.jsonl       the campaign journal: hash-chained like a battle's, every change
//!                          to the rosters between battles and every battle begun and ended
//! ```
//!
//! The rosters are plain files a club may edit by hand between battles; the campaign journal
//! keeps each version umpire wrote, so what a battle changed can be shown and taken back.
//! This module owns the folder and its files; the commands that use it are
//! `engine::commands::campaign`.

pub mod record;
pub mod rosters;
pub mod story;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

pub use record::{BattleSide, Entry, HeroFate, SideStrength};
pub use story::Story;

use crate::journal::{Caps, JournalFile};

/// The campaign file's name in its folder.
pub const FILE: &str = "campaign.toml";
/// The campaign journal's name in its folder.
pub const JOURNAL: &str = "campaign.jsonl";

/// What `campaign.toml` holds.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CampaignFile {
    /// The campaign's name (`Boudicca's revolt`).
    pub name: String,
    /// The ruleset every battle is played under.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ruleset: Option<String>,
    /// Its variant, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    /// The house rules switched on for every battle, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub house: Vec<String>,
    /// Options set for every battle (`option set NAME VALUE`), by name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub options: BTreeMap<String, toml::Value>,
}

/// An open campaign folder.
#[derive(Debug, Clone, PartialEq)]
pub struct Campaign {
    /// The folder.
    pub dir: PathBuf,
    /// What its campaign file says.
    pub file: CampaignFile,
}

/// Why a campaign could not be made, opened or written.
#[derive(Debug, thiserror::Error)]
pub enum CampaignError {
    /// The folder holds no campaign file.
    #[error("`{0}` holds no campaign (no {FILE}); `campaign new DIR` starts one")]
    NotACampaign(String),
    /// The folder already holds a campaign.
    #[error("`{0}` already holds a campaign; `campaign open {0}` opens it")]
    Exists(String),
    /// The campaign file is not valid.
    #[error("{path}: {why}")]
    BadFile {
        /// The file.
        path: String,
        /// What is wrong, with the line when known.
        why: String,
    },
    /// A file could not be read or written.
    #[error("{0}")]
    Io(String),
    /// The campaign journal could not be opened or written.
    #[error("the campaign journal: {0}")]
    Journal(#[from] crate::journal::JournalError),
}

impl Campaign {
    /// Makes a campaign in `dir` (created if needed; it may not hold one already): its
    /// folders, its campaign file and the first entry of its journal, which keeps what the
    /// first battle's store is to hold (`carried`, by store name).
    pub fn create(
        dir: &Path,
        file: CampaignFile,
        carried: BTreeMap<String, serde_json::Map<String, serde_json::Value>>,
    ) -> Result<Campaign, CampaignError> {
        if dir.join(FILE).exists() {
            return Err(CampaignError::Exists(dir.display().to_string()));
        }
        for sub in ["rosters", "battles", "reports"] {
            std::fs::create_dir_all(dir.join(sub)).map_err(|e| io(&dir.join(sub), e))?;
        }
        // Kept as a full path: the battles' journals and rosters stay found wherever the
        // shell goes on from.
        let dir = dir.canonicalize().map_err(|e| io(dir, e))?;
        let c = Campaign { dir, file };
        c.write_file()?;
        c.append(&Entry::Created {
            name: c.file.name.clone(),
            ruleset: c.file.ruleset.clone(),
            carried,
            at: crate::journal::now(),
        })?;
        Ok(c)
    }

    /// Opens the campaign in `dir`.
    pub fn open(dir: &Path) -> Result<Campaign, CampaignError> {
        let path = dir.join(FILE);
        if !path.is_file() {
            return Err(CampaignError::NotACampaign(dir.display().to_string()));
        }
        let text = crate::files::read_to_string(&path, 1 << 20)
            .map_err(|e| CampaignError::Io(e.to_string()))?;
        let file: CampaignFile = toml::from_str(&text).map_err(|e| CampaignError::BadFile {
            path: path.display().to_string(),
            why: e.to_string().trim().to_string(),
        })?;
        Ok(Campaign {
            dir: dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf()),
            file,
        })
    }

    /// Writes the campaign file (all or nothing).
    pub fn write_file(&self) -> Result<(), CampaignError> {
        let text = toml::to_string(&self.file).map_err(|e| CampaignError::Io(e.to_string()))?;
        let text = format!(
            "# An umpire campaign: `umpire --campaign {}` opens it. Rosters are in rosters/.\n{text}",
            self.dir.display()
        );
        crate::files::replace(&self.dir.join(FILE), text.as_bytes())
            .map_err(|e| CampaignError::Io(e.to_string()))
    }

    /// The roster file of side `side`.
    pub fn roster_path(&self, side: &str) -> PathBuf {
        self.dir.join("rosters").join(format!("{side}.toml"))
    }

    /// The journal of battle `name`.
    pub fn battle_path(&self, name: &str) -> PathBuf {
        self.dir.join("battles").join(format!("{name}.jsonl"))
    }

    /// The reports folder.
    pub fn reports_dir(&self) -> PathBuf {
        self.dir.join("reports")
    }

    /// The sides that have a roster, by id, sorted.
    pub fn sides(&self) -> Vec<String> {
        let mut out: Vec<String> = std::fs::read_dir(self.dir.join("rosters"))
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| {
                let name = e.file_name().into_string().ok()?;
                name.strip_suffix(".toml").map(str::to_string)
            })
            .collect();
        out.sort();
        out
    }

    /// The text of side `side`'s roster as it is on disk (`None` when it has none).
    pub fn roster(&self, side: &str) -> Option<String> {
        crate::files::read_to_string(&self.roster_path(side), 16 << 20).ok()
    }

    /// Writes side `side`'s roster (all or nothing).
    pub fn write_roster(&self, side: &str, text: &str) -> Result<(), CampaignError> {
        crate::files::replace(&self.roster_path(side), text.as_bytes())
            .map_err(|e| CampaignError::Io(e.to_string()))
    }

    /// Appends `entry` to the campaign journal (opened, written, synced and closed).
    pub fn append(&self, entry: &Entry) -> Result<u64, CampaignError> {
        let mut opened =
            JournalFile::open::<serde::de::IgnoredAny>(self.dir.join(JOURNAL), Caps::default())?;
        Ok(opened.journal.append(entry)?)
    }

    /// Every entry of the campaign journal, in order (the chain checked as it is read).
    pub fn entries(&self) -> Result<Vec<Entry>, CampaignError> {
        let path = self.dir.join(JOURNAL);
        if !path.exists() {
            return Ok(Vec::new());
        }
        let (entries, _) = crate::journal::read_file::<Entry>(&path, Caps::default())?;
        Ok(entries)
    }

    /// The battle begun and not yet ended, if any: its name.
    pub fn open_battle(&self) -> Result<Option<String>, CampaignError> {
        let mut open = None;
        for e in self.entries()? {
            match e {
                Entry::BattleBegun { name, .. } => open = Some(name),
                Entry::BattleEnded { .. } => open = None,
                Entry::BattleReopened { name, .. } => open = Some(name),
                _ => {}
            }
        }
        Ok(open)
    }
}

fn io(path: &Path, e: std::io::Error) -> CampaignError {
    CampaignError::Io(format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_campaign_is_made_once_opened_again_and_journals_its_entries() {
        let dir = tempfile::tempdir().unwrap();
        let file = CampaignFile {
            name: "Revolt".into(),
            ruleset: Some("olab".into()),
            house: vec!["heroes".into()],
            ..CampaignFile::default()
        };
        let c = Campaign::create(dir.path(), file.clone(), BTreeMap::new()).unwrap();
        assert!(matches!(
            Campaign::create(dir.path(), file.clone(), BTreeMap::new()),
            Err(CampaignError::Exists(_))
        ));
        let again = Campaign::open(dir.path()).unwrap();
        assert_eq!(again.file, file);
        c.write_roster("romans", "[[side]]\nid = \"romans\"\n")
            .unwrap();
        assert_eq!(c.sides(), ["romans"]);
        c.append(&Entry::BattleBegun {
            name: "first".into(),
            sides: vec![],
            at: 1,
        })
        .unwrap();
        assert_eq!(c.open_battle().unwrap().as_deref(), Some("first"));
        assert_eq!(c.entries().unwrap().len(), 2);
        assert!(matches!(
            Campaign::open(&dir.path().join("rosters")),
            Err(CampaignError::NotACampaign(_))
        ));
    }
}
