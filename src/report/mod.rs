//! Battle reports: a journal read back as a story for people who were not at the table.
//!
//! [`Battle::build`] walks a journal's records in order, keeps the transactions its history
//! says are in force (undone ones are left out: the journal layer's [`History`] decides), and
//! re-applies their changes to a fresh [`Game`] with [`Game::apply`], sampling the players'
//! board (`status`) after each one: the forces at the start, each side's strength over time,
//! casualties by round and the turning points come from those samples. The dice against what
//! was expected is `dice.rs`; the charts `charts.rs`; Markdown and HTML `render.rs`.
//!
//! What the players could not see stays out: a transaction for the umpire only shows its
//! command as the players may see it and no output, its dice are not counted; secret words
//! come masked from [`Transaction::public_command`]; a secret marker's name, a unit still
//! hidden when the report is made, and whatever a command printed about them are masked as the
//! live board masks them ([`Secrets`]); store values are never shown; the board sampled is the
//! public one (hidden units are not on it).

pub mod campaign;
pub mod charts;
pub mod dice;
pub mod render;

use std::path::Path;

use serde::Serialize;

use crate::journal::{Caps, History, Record, RulesRecord, Secrets, Step, Transaction};
use crate::state::{Change, Game};

/// Where the game keeps the umpire's notes (`note TEXT`): one key per note.
pub const NOTES_STORE: &str = "umpire.notes";
/// Where a campaign battle records that it ended (see `engine/commands/campaign.rs`).
pub const CAMPAIGN_STORE: &str = "umpire.campaign";

/// A report could not be made.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReportError {
    /// The journal could not be read.
    #[error("journal `{path}` could not be read: {source}")]
    Journal {
        /// The journal.
        path: String,
        /// Why.
        source: crate::journal::JournalError,
    },
    /// A journalled change does not apply to the game rebuilt so far.
    #[error("entry #{seq} of the journal does not apply to the game: {why}")]
    Stale {
        /// The entry.
        seq: u64,
        /// Why.
        why: String,
    },
    /// The campaign journal could not be read.
    #[error("the campaign journal could not be read: {0}")]
    Campaign(String),
    /// The report's file name ends in neither `.md` nor `.html`.
    #[error("`{0}`: a report is written as Markdown (`.md`) or HTML (`.html`)")]
    Format(String),
    /// A template could not be rendered (a bug).
    #[error("the report could not be rendered: {0}")]
    Render(String),
    /// The report could not be written.
    #[error("`{path}` could not be written: {why}")]
    Write {
        /// The file.
        path: String,
        /// Why.
        why: String,
    },
}

/// The rules a battle was played under.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Rules {
    /// The ruleset (none: house rules only, or no rules).
    pub ruleset: Option<String>,
    /// Its variant.
    pub variant: Option<String>,
    /// The house rules, in the order they were switched on.
    pub house: Vec<String>,
    /// The options the umpire set (`option set`), name and value.
    pub options: Vec<(String, String)>,
}

/// One unit of the forces at the start, as `status` shows it.
#[derive(Debug, Clone, Serialize)]
pub struct UnitRow {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// The key attributes' values (the schema's `status.attrs`).
    pub key: Vec<String>,
    /// `4/4`, when the schema names a strength.
    pub strength: Option<String>,
    /// Its markers the players can see.
    pub markers: Vec<String>,
}

/// One side at the start.
#[derive(Debug, Clone, Serialize)]
pub struct Force {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// `37/48`, when the schema names a strength.
    pub strength: Option<String>,
    /// Its units on the board.
    pub units: Vec<UnitRow>,
}

/// One resolution or note of the battle, in order.
#[derive(Debug, Clone, Serialize)]
pub struct Entry {
    /// The journal entry number.
    pub tx: u64,
    /// The command as the players may see it.
    pub command: String,
    /// What it printed (`None`: for the umpire only).
    pub output: Option<String>,
    /// The umpire's note, for a `note` command.
    pub note: Option<String>,
    /// The change of each side's strength it made (side name, change), where any.
    pub strength_change: Vec<(String, f64)>,
}

/// One round of the battle.
#[derive(Debug, Clone, Serialize)]
pub struct Round {
    /// The round number.
    pub number: u32,
    /// What happened in it, in order.
    pub entries: Vec<Entry>,
}

/// Each side's strength on the board after one transaction.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Sample {
    /// The transaction's entry number (0: the start).
    pub tx: u64,
    /// The round it was played in.
    pub round: u32,
    /// Each side's strength, in the order of [`Battle::sides`].
    pub strength: Vec<f64>,
}

/// The strength each side lost in one round.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Casualties {
    /// The round.
    pub round: u32,
    /// Each side's losses (strength lost, gains not counted), in the order of
    /// [`Battle::sides`].
    pub lost: Vec<f64>,
}

/// A resolution that changed the battle the most.
#[derive(Debug, Clone, Serialize)]
pub struct TurningPoint {
    /// The transaction's entry number.
    pub tx: u64,
    /// Its round.
    pub round: u32,
    /// The command as the players may see it.
    pub command: String,
    /// The total strength it changed (the sum over sides of each side's change, unsigned).
    pub total: f64,
    /// Each side's change.
    pub changes: Vec<(String, f64)>,
}

/// How the battle ended.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Outcome {
    /// The result recorded by `battle end` (a campaign battle), `None` otherwise.
    pub result: Option<String>,
    /// What `battle end` printed: what carries over to the campaign.
    pub carried_over: Option<String>,
    /// Each side's strength at the end (name, `value/max`).
    pub strength: Vec<(String, String)>,
    /// The clock at the end.
    pub clock: String,
}

/// Everything a report shows, built from a journal.
#[derive(Debug, Clone, Serialize)]
pub struct Battle {
    /// The battle's name (the journal's file stem).
    pub name: String,
    /// The local date it was played (of the first transaction), `YYYY-MM-DD`.
    pub date: Option<String>,
    /// The rules.
    pub rules: Rules,
    /// The strength attribute, when the schema names one.
    pub strength_attr: Option<String>,
    /// The key attributes' names.
    pub key_attrs: Vec<String>,
    /// The forces at the start (before the first roll).
    pub forces: Vec<Force>,
    /// The names of the sides whose strength is followed, in order.
    pub sides: Vec<String>,
    /// The commands before the first roll (set-up), with the umpire's notes.
    pub setup: Vec<Entry>,
    /// Round by round, from the first roll on.
    pub rounds: Vec<Round>,
    /// Each side's strength at the start and after each transaction from the first roll on.
    pub samples: Vec<Sample>,
    /// The strength each side lost, round by round.
    pub casualties: Vec<Casualties>,
    /// The few resolutions that changed the most.
    pub turning_points: Vec<TurningPoint>,
    /// The dice against what was expected.
    pub dice: Vec<dice::DiceKind>,
    /// Each side's dice, all kinds together, against their exact odds.
    pub luck: Vec<dice::SideLuck>,
    /// How it ended.
    pub outcome: Outcome,
    /// How many transactions were undone (left out).
    pub undone: usize,
    /// How many transactions are in the report.
    pub transactions: usize,
}

/// How many turning points a report names.
pub const TURNING_POINTS: usize = 3;

/// Reads the journal at `path` without changing it and builds its report.
pub fn from_file(path: &Path, caps: Caps) -> Result<Battle, ReportError> {
    let (records, _verified) =
        crate::journal::read_file::<Record>(path, caps).map_err(|source| ReportError::Journal {
            path: path.display().to_string(),
            source,
        })?;
    let mut history = History::new();
    for (i, r) in records.iter().enumerate() {
        let seq = i as u64 + 1;
        match r {
            Record::Tx(_) => history.record(Step::Did(seq)),
            Record::Undo { tx, .. } => history.record(Step::Undo(*tx)),
            Record::Redo { tx, .. } => history.record(Step::Redo(*tx)),
            Record::Session { .. } => true,
        };
    }
    let name = battle_name(path);
    let numbered = records.iter().enumerate().map(|(i, r)| (i as u64 + 1, r));
    Battle::build(name, numbered, history.applied())
}

/// The battle's name: the journal's file stem.
pub fn battle_name(path: &Path) -> String {
    path.file_stem().map_or_else(
        || "battle".to_string(),
        |s| s.to_string_lossy().into_owned(),
    )
}

/// Whether `tx` is an umpire's note, and its text.
pub fn note_text(tx: &Transaction) -> Option<String> {
    tx.changes.iter().find_map(|c| match c {
        Change::SetStore {
            script,
            new: Some(v),
            ..
        } if script == NOTES_STORE => v["text"].as_str().map(str::to_string),
        _ => None,
    })
}

/// Each side's strength on the players' board, by side id.
fn board_strength(game: &Game) -> Vec<(String, String, f64, f64)> {
    game.status()
        .sides
        .into_iter()
        .filter_map(|s| s.strength.map(|st| (s.id, s.name, st.value, st.max)))
        .collect()
}

pub(crate) fn local_date(at: u64) -> Option<String> {
    let ts = jiff::Timestamp::from_second(i64::try_from(at).ok()?).ok()?;
    Some(
        ts.to_zoned_datetime(jiff::tz::TimeZone::system())
            .date()
            .to_string(),
    )
}

fn number(v: f64) -> String {
    crate::dice::render::fmt_value(v)
}

impl Battle {
    /// The report of the records `records` (entry number and record, in order) of which the
    /// transactions `applied` are in force, named `name`.
    pub fn build<'a>(
        name: String,
        records: impl IntoIterator<Item = (u64, &'a Record)>,
        applied: &[u64],
    ) -> Result<Battle, ReportError> {
        let in_force: std::collections::HashSet<u64> = applied.iter().copied().collect();
        let mut game = Game::default();
        let mut undone = 0;
        let mut date = None;
        let mut rules_record: Option<RulesRecord> = None;
        let mut started = false;
        let mut battle = Battle {
            name,
            date: None,
            rules: Rules::default(),
            strength_attr: None,
            key_attrs: Vec::new(),
            forces: Vec::new(),
            sides: Vec::new(),
            setup: Vec::new(),
            rounds: Vec::new(),
            samples: Vec::new(),
            casualties: Vec::new(),
            turning_points: Vec::new(),
            dice: Vec::new(),
            luck: Vec::new(),
            outcome: Outcome::default(),
            undone: 0,
            transactions: 0,
        };
        // Side ids followed, with their names, in order of first appearance.
        let mut side_ids: Vec<String> = Vec::new();
        let mut tally = dice::Tally::default();
        let mut carried_over = None;
        // The transactions shown, to mask at the end what is still secret then.
        let mut shown: std::collections::HashMap<u64, &'a Transaction> = Default::default();
        // Each side's strength on the board after the latest command (once started).
        let mut board = Vec::new();
        for (seq, record) in records {
            let Record::Tx(tx) = record else { continue };
            if !in_force.contains(&seq) {
                undone += 1;
                continue;
            }
            if let Some(r) = &tx.rules {
                rules_record = Some((**r).clone());
            }
            date = date.or_else(|| local_date(tx.at));
            if !started && !tx.rolls.is_empty() {
                started = true;
                battle.start(&game, &mut side_ids);
                board = board_strength(&game);
            }
            let round = game.clock().pos.round;
            // Whose each roll was, told from the game as it stood when it was rolled.
            let roll_sides: Vec<Option<String>> = if started && !tx.umpire_only {
                dice::sides_of(&game, tx)
            } else {
                Vec::new()
            };
            game.apply_all(&tx.changes)
                .map_err(|(_, e)| ReportError::Stale {
                    seq,
                    why: e.to_string(),
                })?;
            battle.transactions += 1;
            if tx.command.trim_start().starts_with("battle end") && !tx.command.contains("plan") {
                carried_over = Some(tx.output.clone());
            }
            shown.insert(seq, tx);
            let mut entry = Entry {
                tx: seq,
                command: tx.public_command().to_string(),
                output: (!tx.umpire_only).then(|| tx.output.clone()),
                note: note_text(tx),
                strength_change: Vec::new(),
            };
            if !started {
                battle.setup.push(entry);
                continue;
            }
            // The board before is the board after the command before (or at the start).
            let after = board_strength(&game);
            let before = std::mem::replace(&mut board, after.clone());
            if !tx.umpire_only {
                tally.add(tx, &roll_sides);
            }
            for (id, ..) in &after {
                if !side_ids.contains(id) {
                    side_ids.push(id.clone());
                }
            }
            let value = |list: &[(String, String, f64, f64)], id: &str| {
                list.iter().find(|s| s.0 == id).map_or(0.0, |s| s.2)
            };
            let changes: Vec<(String, f64)> = side_ids
                .iter()
                .map(|id| (id.clone(), value(&after, id) - value(&before, id)))
                .collect();
            let names = |id: &str| game.side(id).map_or(id.to_string(), |s| s.name.clone());
            entry.strength_change = changes
                .iter()
                .filter(|(_, d)| *d != 0.0)
                .map(|(id, d)| (names(id), *d))
                .collect();
            battle.samples.push(Sample {
                tx: seq,
                round,
                strength: side_ids.iter().map(|id| value(&after, id)).collect(),
            });
            let lost: Vec<f64> = changes.iter().map(|(_, d)| (-d).max(0.0)).collect();
            match battle.casualties.iter_mut().find(|c| c.round == round) {
                Some(c) => {
                    c.lost.resize(lost.len(), 0.0);
                    for (a, b) in c.lost.iter_mut().zip(&lost) {
                        *a += b;
                    }
                }
                None => battle.casualties.push(Casualties { round, lost }),
            }
            let total: f64 = changes.iter().map(|(_, d)| d.abs()).sum();
            if total > 0.0 && entry.output.is_some() {
                battle.turning_points.push(TurningPoint {
                    tx: seq,
                    round,
                    command: entry.command.clone(),
                    total,
                    changes: entry.strength_change.clone(),
                });
            }
            match battle.rounds.last_mut() {
                Some(r) if r.number == round => r.entries.push(entry),
                _ => battle.rounds.push(Round {
                    number: round,
                    entries: vec![entry],
                }),
            }
        }
        if !started {
            battle.start(&game, &mut side_ids);
        }
        // What is still secret at the end stays out: a secret marker's name, a hidden unit, and
        // the output of whatever touched them (as the live board shows them).
        let secrets = Secrets::of(&game);
        let entries = battle
            .setup
            .iter_mut()
            .chain(battle.rounds.iter_mut().flat_map(|r| r.entries.iter_mut()));
        for entry in entries {
            if let Some(tx) = shown.get(&entry.tx) {
                let (command, public) = secrets.public_view(tx);
                entry.command = command;
                if !public {
                    entry.output = None;
                }
            }
        }
        battle
            .turning_points
            .retain_mut(|tp| match shown.get(&tp.tx) {
                Some(tx) => {
                    let (command, public) = secrets.public_view(tx);
                    tp.command = command;
                    public
                }
                None => true,
            });
        // Sides that joined later get 0 before they did.
        let n = side_ids.len();
        for s in &mut battle.samples {
            s.strength.resize(n, 0.0);
        }
        for c in &mut battle.casualties {
            c.lost.resize(n, 0.0);
        }
        battle.sides = side_ids
            .iter()
            .map(|id| game.side(id).map_or(id.clone(), |s| s.name.clone()))
            .collect();
        battle
            .turning_points
            .sort_by(|a, b| b.total.total_cmp(&a.total).then(a.tx.cmp(&b.tx)));
        battle.turning_points.truncate(TURNING_POINTS);
        battle.dice = tally.kinds();
        battle.luck = dice::luck(&battle.dice);
        battle.date = date;
        battle.undone = undone;
        battle.rules = rules_of(&game, rules_record.as_ref());
        let ended = game.stored(CAMPAIGN_STORE, "ended");
        battle.outcome = Outcome {
            result: ended.map(|v| {
                let result = v["result"].as_str().unwrap_or_default();
                match v["battle"].as_str() {
                    Some(b) => format!("{b}: {result}"),
                    None => result.to_string(),
                }
            }),
            carried_over: ended.and(carried_over),
            strength: board_strength(&game)
                .into_iter()
                .map(|(_, name, v, m)| (name, format!("{}/{}", number(v), number(m))))
                .collect(),
            clock: game.clock_text(),
        };
        Ok(battle)
    }

    /// The forces on the board as they stand at the start, and the first sample.
    fn start(&mut self, game: &Game, side_ids: &mut Vec<String>) {
        let status = game.status();
        self.strength_attr = status.strength_attr.clone();
        self.key_attrs = status.key_attrs.clone();
        self.forces = status
            .sides
            .iter()
            .map(|s| Force {
                id: s.id.clone(),
                name: s.name.clone(),
                strength: s
                    .strength
                    .map(|st| format!("{}/{}", number(st.value), number(st.max))),
                units: s
                    .commands
                    .iter()
                    .flat_map(|c| &c.units)
                    .map(|u| UnitRow {
                        id: u.id.clone(),
                        name: game.name_of(&u.id),
                        key: u.key.iter().map(ToString::to_string).collect(),
                        strength: u
                            .strength
                            .map(|st| format!("{}/{}", number(st.value), number(st.max))),
                        markers: u.markers.clone(),
                    })
                    .collect(),
            })
            .collect();
        let start = board_strength(game);
        for (id, ..) in &start {
            side_ids.push(id.clone());
        }
        self.samples.push(Sample {
            tx: 0,
            round: game.clock().pos.round,
            strength: start.iter().map(|s| s.2).collect(),
        });
    }
}

/// The rules a game's store records, with the options set, or the journal's record of them
/// (older journals).
fn rules_of(game: &Game, record: Option<&RulesRecord>) -> Rules {
    let stored = crate::engine::rules::stored_rules(game);
    let r = stored.as_ref().or(record);
    let options = crate::engine::options::stored_options(game)
        .into_iter()
        .map(|(k, v)| {
            let v = v.as_str().map_or_else(|| v.to_string(), str::to_string);
            (k, v)
        })
        .collect();
    Rules {
        ruleset: r.and_then(|r| r.ruleset.clone()),
        variant: r.and_then(|r| r.variant.clone()),
        house: r.map(|r| r.house.clone()).unwrap_or_default(),
        options,
    }
}

/// One line saying what was written: `report of `night` (38 commands, 3 rounds) written to
/// night.html`, and the chart files beside a Markdown report.
pub fn summary(b: &Battle, files: &[std::path::PathBuf]) -> String {
    let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    let mut s = format!(
        "report of `{}` ({}, {}) written to {}",
        b.name,
        plural(b.transactions, "command"),
        plural(b.rounds.len(), "round"),
        files
            .first()
            .map_or(String::new(), |f| f.display().to_string())
    );
    if files.len() > 1 {
        s.push_str(&format!(" (and {} chart files beside it)", files.len() - 1));
    }
    s
}
