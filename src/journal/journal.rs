//! The journal of a session: records appended to a [`JournalFile`], the undo/redo
//! [`History`] over them, snapshots of the game beside the file, and replay that rebuilds
//! the game from the records alone.
//!
//! Every change reaches the file before the game shows it: a command's changes are
//! committed (appended and synced) before its result is printed; undo and redo change the
//! game in place, and put it back exactly as it was when a step does not apply or the
//! journal cannot take their record.
//!
//! The records read from the file are kept as the file's text and parsed again when asked
//! for (`undo` of an older transaction, `log`). Opening checks the whole hash chain but
//! parses and replays only the entries after the newest snapshot that fits (see
//! `snapshot.rs`); a snapshot is written every [`SNAPSHOT_EVERY`] entries.

use std::borrow::Cow;
use std::ops::Range;
use std::path::{Path, PathBuf};

use thiserror::Error;

use super::damage::Damage;
use super::file::{Caps, JournalError, JournalFile, read_file};
use super::history::{History, Step};
use super::record::{Record, RulesRecord, Transaction, now};
use super::scan::{Verified, parse_entry};
use super::snapshot;
use crate::state::{Game, StateError};

/// How many entries a journal grows between snapshots: replaying fewer than this many
/// entries takes a few milliseconds, writing a snapshot (the whole game) about as long.
pub const SNAPSHOT_EVERY: u64 = 1000;

/// Why a journal could not be replayed or an undo or redo could not be done.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum ReplayError {
    /// The file could not be read or written.
    #[error(transparent)]
    File(#[from] JournalError),
    /// A journalled change does not fit the game it is replayed onto.
    #[error("entry #{seq} of the journal does not apply to the game: {source}")]
    Stale {
        /// The entry.
        seq: u64,
        /// Why.
        source: StateError,
    },
    /// An entry read from the file when it was needed (behind a snapshot, or from an earlier
    /// session) cannot be read as an entry of this umpire.
    #[error("entry #{seq} of the journal cannot be read: {damage}")]
    Unreadable {
        /// The entry.
        seq: u64,
        /// What is wrong with its line.
        damage: Damage,
    },
    /// An undo or redo names a transaction the history cannot undo or redo there.
    #[error("entry #{seq} {what} transaction #{tx}, which is not the one the history allows")]
    OutOfOrder {
        /// The entry.
        seq: u64,
        /// `undoes` or `redoes`.
        what: &'static str,
        /// The transaction it names.
        tx: u64,
    },
}

/// The journal of one session (or of an in-memory session that keeps no file).
#[derive(Debug)]
pub struct Journal {
    file: Option<JournalFile>,
    entries: Entries,
    history: History,
    /// The rules generation whose rules this session has recorded in this journal (see
    /// [`Transaction::rules`]).
    rules_recorded: Option<u64>,
    /// The rules the latest transaction that recorded any recorded.
    last_rules: Option<RulesRecord>,
    snapshots: Snapshots,
}

/// When the journal writes snapshots, and what it knows of them.
#[derive(Debug, Clone)]
struct Snapshots {
    /// A snapshot is written once the journal is this many entries past the last (0: never).
    every: u64,
    /// The entry the newest snapshot stands at (or the last tried).
    at: u64,
    /// The entry of the snapshot the journal was opened from, if it was.
    opened_from: Option<u64>,
    /// The hash of the game the journal was replayed onto, which each snapshot records.
    start: String,
}

/// The entries of a journal, oldest first: those behind the snapshot it was opened from, kept
/// as the file's text and parsed again when asked for; the rest parsed.
#[derive(Debug, Default)]
struct Entries {
    /// The text of the file as it was read.
    text: String,
    /// Where the JSON text of each of the first entries lies in `text`.
    spans: Vec<Range<usize>>,
    /// The entries after those.
    parsed: Vec<Record>,
}

impl Entries {
    fn len(&self) -> u64 {
        (self.spans.len() + self.parsed.len()) as u64
    }

    fn push(&mut self, record: Record) {
        self.parsed.push(record);
    }

    /// Entry `seq` (1-based).
    fn get(&self, seq: u64) -> Result<Cow<'_, Record>, ReplayError> {
        let missing = || ReplayError::Unreadable {
            seq,
            damage: Damage::Unreadable {
                line: usize::try_from(seq).unwrap_or(usize::MAX),
                why: "the journal has no such entry".into(),
            },
        };
        let i = usize::try_from(seq)
            .ok()
            .and_then(|s| s.checked_sub(1))
            .ok_or_else(missing)?;
        match self.spans.get(i) {
            Some(span) => parse_entry(&self.text[span.clone()], seq)
                .map(Cow::Owned)
                .map_err(|damage| ReplayError::Unreadable { seq, damage }),
            None => self
                .parsed
                .get(i - self.spans.len())
                .map(Cow::Borrowed)
                .ok_or_else(missing),
        }
    }
}

/// A journal file replayed onto a game.
#[derive(Debug)]
pub struct Replayed {
    /// The game the entries rebuild.
    pub game: Game,
    /// How many entries were replayed.
    pub entries: usize,
    /// What checking the file found: when it is damaged, the entries replayed are those
    /// before the damage.
    pub verified: Verified,
}

/// What undo or redo did.
#[derive(Debug, Clone, PartialEq)]
pub struct Reversal {
    /// The transaction's entry number.
    pub tx: u64,
    /// The command line of the transaction, as the players may see it.
    pub command: String,
    /// One line per change, as it now reads (`war4 sp 0 → 5`).
    pub changes: Vec<String>,
    /// How many rolls the transaction made (they stay in the journal).
    pub rolls: usize,
    /// Who typed it (see [`Transaction::by`]): `None` for the host.
    pub by: Option<String>,
}

impl Journal {
    /// A journal kept in memory only (tests, `--no-journal`): undo and redo still work.
    pub fn in_memory() -> Self {
        Journal {
            file: None,
            entries: Entries::default(),
            history: History::new(),
            rules_recorded: None,
            last_rules: None,
            snapshots: Snapshots {
                every: 0,
                at: 0,
                opened_from: None,
                start: String::new(),
            },
        }
    }

    /// Opens (or creates) the journal at `path` and replays it onto `game`, which should be
    /// the game the journal started from (an empty game for a journal umpire created).
    /// Returns the journal and any warning (a torn last line that was dropped, or no head
    /// record to tell whether entries were lost at the end).
    ///
    /// The whole hash chain is checked; when a snapshot beside the journal fits it, the game
    /// is taken from the snapshot and only the entries after it are replayed. A snapshot is
    /// written every [`SNAPSHOT_EVERY`] entries.
    pub fn open(
        path: &Path,
        game: &mut Game,
        caps: Caps,
    ) -> Result<(Journal, Option<String>), ReplayError> {
        Journal::open_with(path, game, caps, SNAPSHOT_EVERY)
    }

    /// [`Journal::open`], writing a snapshot every `every` entries (0: never; a snapshot
    /// already beside the journal is still used).
    pub fn open_with(
        path: &Path,
        game: &mut Game,
        caps: Caps,
        every: u64,
    ) -> Result<(Journal, Option<String>), ReplayError> {
        let start = snapshot::start_hash(game);
        let found = snapshot::read(path, &start, caps.file);
        let mut reading = JournalFile::read(path, caps, found.as_ref().map(|f| f.entries()))?;
        // Taken only when the chain, checked, has the entry it names with the hash it gives.
        let from = found.and_then(|f| {
            let at = f.entries();
            f.body(reading.index.marked.as_deref()?).map(|b| (at, b))
        });
        let at = from.as_ref().map_or(0, |(at, _)| *at);
        // Parsed before anything is changed: an entry that cannot be read refuses the journal.
        let tail: Vec<Record> = reading.index.parse_from(at + 1);
        let (file, warning, mut index) = reading.finish()?;
        index
            .spans
            .truncate(usize::try_from(at).unwrap_or(usize::MAX));
        let (mut replayed, history, last_rules) = match from {
            Some((_, body)) => (body.game, body.history, body.last_rules),
            None => (game.clone(), History::new(), None),
        };
        let mut journal = Journal {
            file: Some(file),
            entries: Entries {
                // Nothing to keep when every entry is parsed.
                text: if at == 0 { String::new() } else { index.text },
                spans: index.spans,
                parsed: tail,
            },
            history,
            rules_recorded: None,
            last_rules,
            snapshots: Snapshots {
                every,
                at,
                opened_from: (at > 0).then_some(at),
                start,
            },
        };
        for seq in at + 1..=journal.entries.len() {
            journal.replay_one(&mut replayed, seq)?;
        }
        *game = replayed;
        journal.snapshot_if_due(game);
        Ok((journal, warning))
    }

    /// Rebuilds the game a journal file describes, starting from `game`, without writing to
    /// it (and without re-rolling anything: rolls are in the records). A damaged journal is
    /// replayed up to the damage, which [`Replayed::verified`] names.
    pub fn replay_file(path: &Path, mut game: Game, caps: Caps) -> Result<Replayed, ReplayError> {
        let (records, verified) = read_file::<Record>(path, caps)?;
        let entries = records.len();
        let mut journal = Journal::in_memory();
        for record in records {
            journal.entries.push(record);
            journal.replay_one(&mut game, journal.entries.len())?;
        }
        Ok(Replayed {
            game,
            entries,
            verified,
        })
    }

    /// Uses `caps` from now on (the session's limits changed).
    pub fn set_caps(&mut self, caps: Caps) {
        if let Some(file) = &mut self.file {
            file.set_caps(caps);
        }
    }

    /// The journal file, for fault tests to wrap its store.
    #[cfg(test)]
    pub(crate) fn file_mut(&mut self) -> Option<&mut JournalFile> {
        self.file.as_mut()
    }

    /// Replays entry `seq`, already among the entries, onto `game`.
    fn replay_one(&mut self, game: &mut Game, seq: u64) -> Result<(), ReplayError> {
        let record = self.entries.get(seq)?;
        match &*record {
            Record::Session { .. } => {}
            Record::Tx(tx) => {
                game.apply_all(&tx.changes)
                    .map_err(|(_, source)| ReplayError::Stale { seq, source })?;
                if let Some(rules) = &tx.rules {
                    self.last_rules = Some((**rules).clone());
                }
                self.history.record(Step::Did(seq));
            }
            Record::Undo { tx, .. } => {
                if self.history.next_undo() != Some(*tx) {
                    return Err(ReplayError::OutOfOrder {
                        seq,
                        what: "undoes",
                        tx: *tx,
                    });
                }
                let done = transaction(&self.entries, *tx, seq, "undoes")?;
                game.undo_all(&done.changes)
                    .map_err(|source| ReplayError::Stale { seq, source })?;
                self.history.record(Step::Undo(*tx));
            }
            Record::Redo { tx, .. } => {
                if self.history.next_redo() != Some(*tx) {
                    return Err(ReplayError::OutOfOrder {
                        seq,
                        what: "redoes",
                        tx: *tx,
                    });
                }
                let done = transaction(&self.entries, *tx, seq, "redoes")?;
                game.apply_all(&done.changes)
                    .map_err(|(_, source)| ReplayError::Stale { seq, source })?;
                self.history.record(Step::Redo(*tx));
            }
        }
        Ok(())
    }

    /// Appends a record, synced to disk when there is a file.
    fn append(&mut self, record: Record) -> Result<u64, JournalError> {
        self.write(&record)?;
        self.entries.push(record);
        Ok(self.entries.len())
    }

    /// Writes `record` to the file, if the journal has one (synced).
    fn write(&mut self, record: &Record) -> Result<(), JournalError> {
        match &mut self.file {
            Some(file) => file.append(record).map(drop),
            None => Ok(()),
        }
    }

    /// Writes a snapshot of `game` (the game after the last entry) if the journal has grown
    /// enough since the last. A snapshot only saves time at the next opening, so one that
    /// cannot be written fails nothing (the journal has every entry); it is tried again when
    /// the journal has grown as much again.
    fn snapshot_if_due(&mut self, game: &Game) {
        let len = self.entries.len();
        let s = &mut self.snapshots;
        let Some(file) = &mut self.file else {
            return;
        };
        if s.every == 0 || len < s.at.saturating_add(s.every) {
            return;
        }
        s.at = len;
        let bytes = snapshot::encode(
            len,
            file.last_hash(),
            &s.start,
            &self.history,
            self.last_rules.as_ref(),
            game,
        );
        if let Ok(bytes) = bytes {
            let _ = file.write_snapshot(&bytes);
        }
    }

    /// Records that a session opened the journal.
    pub fn start_session(&mut self, seed: u64) -> Result<u64, JournalError> {
        self.append(Record::Session {
            version: env!("CARGO_PKG_VERSION").into(),
            at: now(),
            seed,
        })
    }

    /// Commits a transaction whose changes are already applied to `game`: appends it
    /// (synced) and makes it the latest thing `undo` would reverse (and may write a snapshot
    /// of `game`). When this fails the caller must roll the changes back (the game may not
    /// show what the journal lacks), so the transaction comes back with the error.
    pub fn commit(
        &mut self,
        tx: Transaction,
        game: &Game,
    ) -> Result<u64, (JournalError, Box<Transaction>)> {
        let recorded = tx.rules.clone().map(|r| (tx.generation, *r));
        let record = Record::Tx(tx);
        if let Err(e) = self.write(&record) {
            let Record::Tx(tx) = record else {
                unreachable!("made a transaction just above")
            };
            return Err((e, Box::new(tx)));
        }
        self.entries.push(record);
        let seq = self.entries.len();
        if let Some((generation, rules)) = recorded {
            self.rules_recorded = Some(generation);
            self.last_rules = Some(rules);
        }
        self.history.record(Step::Did(seq));
        self.snapshot_if_due(game);
        Ok(seq)
    }

    /// Undoes the latest transaction in force, if any, in place: its changes are reverted
    /// in reverse order and the undo is journalled. If a change does not revert, or the
    /// journal cannot take the record, the game and the history are left exactly as they
    /// were and the error is returned.
    pub fn undo(&mut self, game: &mut Game) -> Result<Option<Reversal>, ReplayError> {
        let Some(tx) = self.history.next_undo() else {
            return Ok(None);
        };
        let seq = self.entries.len() + 1;
        let reversal = {
            let done = transaction(&self.entries, tx, seq, "undoes")?;
            let undone = game
                .undo_all_listed(&done.changes)
                .map_err(|source| ReplayError::Stale { seq, source })?;
            Reversal {
                tx,
                command: done.public_command().to_string(),
                changes: undone.iter().map(ToString::to_string).collect(),
                rolls: done.rolls.len(),
                by: done.by.clone(),
            }
        };
        if let Err(e) = self.append(Record::Undo { tx, at: now() }) {
            // The journal lacks the undo, so the game may not show it.
            if let Ok(done) = transaction(&self.entries, tx, seq, "undoes") {
                game.reapply_all(&done.changes)
                    .expect("changes just undone apply again");
            }
            return Err(e.into());
        }
        self.history.record(Step::Undo(tx));
        self.snapshot_if_due(game);
        Ok(Some(reversal))
    }

    /// Redoes the latest undone transaction, if any, in place: its changes are applied again
    /// and the redo is journalled. If a change does not apply, or the journal cannot take
    /// the record, the game and the history are left exactly as they were and the error is
    /// returned.
    pub fn redo(&mut self, game: &mut Game) -> Result<Option<Reversal>, ReplayError> {
        let Some(tx) = self.history.next_redo() else {
            return Ok(None);
        };
        let seq = self.entries.len() + 1;
        let reversal = {
            let done = transaction(&self.entries, tx, seq, "redoes")?;
            game.apply_all(&done.changes)
                .map_err(|(_, source)| ReplayError::Stale { seq, source })?;
            Reversal {
                tx,
                command: done.public_command().to_string(),
                changes: done.changes.iter().map(ToString::to_string).collect(),
                rolls: done.rolls.len(),
                by: done.by.clone(),
            }
        };
        if let Err(e) = self.append(Record::Redo { tx, at: now() }) {
            // The journal lacks the redo, so the game may not show it.
            if let Ok(done) = transaction(&self.entries, tx, seq, "redoes") {
                game.undo_all(&done.changes)
                    .expect("changes just applied undo");
            }
            return Err(e.into());
        }
        self.history.record(Step::Redo(tx));
        self.snapshot_if_due(game);
        Ok(Some(reversal))
    }

    /// The record with entry number `seq` (1-based); `None` when there is none, or when it
    /// cannot be read (an entry read from the file is parsed when asked for: [`Journal::undo`]
    /// says what is wrong with it).
    pub fn record(&self, seq: u64) -> Option<Cow<'_, Record>> {
        self.entries.get(seq).ok()
    }

    /// How many entries the journal holds.
    pub fn len(&self) -> u64 {
        self.entries.len()
    }

    /// Whether the journal holds no entry.
    pub fn is_empty(&self) -> bool {
        self.entries.len() == 0
    }

    /// The entry of the snapshot the journal was opened from (`None`: it was rebuilt from
    /// every entry, or kept in memory).
    pub fn opened_from_snapshot(&self) -> Option<u64> {
        self.snapshots.opened_from
    }

    /// The undo/redo history: which transactions are in force, and which can be redone.
    pub fn history(&self) -> &History {
        &self.history
    }

    /// Whether transaction `seq` is in force (not undone).
    pub fn in_force(&self, seq: u64) -> bool {
        self.history.applied().contains(&seq)
    }

    /// The last `n` transactions, newest last, with whether each is in force.
    pub fn recent(&self, n: usize) -> Result<Vec<(u64, Cow<'_, Transaction>, bool)>, ReplayError> {
        let mut out = Vec::new();
        let mut seq = self.entries.len();
        while seq > 0 && out.len() < n {
            let tx = match self.entries.get(seq)? {
                Cow::Borrowed(Record::Tx(t)) => Some(Cow::Borrowed(t)),
                Cow::Owned(Record::Tx(t)) => Some(Cow::Owned(t)),
                _ => None,
            };
            if let Some(tx) = tx {
                out.push((seq, tx, self.in_force(seq)));
            }
            seq -= 1;
        }
        out.reverse();
        Ok(out)
    }

    /// The rules recorded last (by the first transaction of a rules generation): what the
    /// game was last played under. `None` for a journal without any (older journals).
    pub fn last_rules(&self) -> Option<&RulesRecord> {
        self.last_rules.as_ref()
    }

    /// Whether the rules of `generation` still need recording with the next transaction
    /// (each session records each generation it commits under once).
    pub fn needs_rules(&self, generation: u64) -> bool {
        generation > 0 && self.rules_recorded != Some(generation)
    }

    /// The journal file's path, when there is one.
    pub fn path(&self) -> Option<&Path> {
        self.file.as_ref().map(JournalFile::path)
    }

    /// The path as an owned value, for messages.
    pub fn path_buf(&self) -> Option<PathBuf> {
        self.path().map(Path::to_path_buf)
    }

    /// The transaction `undo` would reverse next.
    pub fn next_undo(&self) -> Option<u64> {
        self.history.next_undo()
    }

    /// The transaction `redo` would bring back next.
    pub fn next_redo(&self) -> Option<u64> {
        self.history.next_redo()
    }
}

/// Transaction `tx`, which entry `seq` undoes or redoes (`what`).
fn transaction<'a>(
    entries: &'a Entries,
    tx: u64,
    seq: u64,
    what: &'static str,
) -> Result<Cow<'a, Transaction>, ReplayError> {
    match entries.get(tx)? {
        Cow::Borrowed(Record::Tx(t)) => Ok(Cow::Borrowed(t)),
        Cow::Owned(Record::Tx(t)) => Ok(Cow::Owned(t)),
        _ => Err(ReplayError::OutOfOrder { seq, what, tx }),
    }
}
