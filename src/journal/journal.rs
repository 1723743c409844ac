//! The journal of a session: records appended to a [`JournalFile`], the undo/redo
//! [`History`] over them, and replay that rebuilds the game from the records alone.
//!
//! Every change reaches the file before the game shows it: a command's changes are
//! committed (appended and synced) before its result is printed, and undo and redo work on
//! a copy of the game that is swapped in only once the journal has the record.

use std::path::{Path, PathBuf};

use thiserror::Error;

use super::file::{Caps, JournalError, JournalFile, read_file};
use super::history::{History, Step};
use super::record::{Record, Transaction, now};
use super::scan::Verified;
use crate::state::{Game, StateError};

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
    records: Vec<Record>,
    history: History,
    /// The rules generation whose rules this session has recorded in this journal (see
    /// [`Transaction::rules`]).
    rules_recorded: Option<u64>,
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
    /// The command line of the transaction.
    pub command: String,
    /// One line per change, as it now reads (`war4 sp 0 → 5`).
    pub changes: Vec<String>,
    /// How many rolls the transaction made (they stay in the journal).
    pub rolls: usize,
}

impl Journal {
    /// A journal kept in memory only (tests, `--no-journal`): undo and redo still work.
    pub fn in_memory() -> Self {
        Journal {
            file: None,
            records: Vec::new(),
            history: History::new(),
            rules_recorded: None,
        }
    }

    /// Opens (or creates) the journal at `path` and replays it onto `game`, which should be
    /// the game the journal started from (an empty game for a journal umpire created).
    /// Returns the journal and any warning (a torn last line that was dropped, or no head
    /// record to tell whether entries were lost at the end).
    pub fn open(
        path: &Path,
        game: &mut Game,
        caps: Caps,
    ) -> Result<(Journal, Option<String>), ReplayError> {
        let opened = JournalFile::open::<Record>(path, caps)?;
        let mut journal = Journal {
            file: Some(opened.journal),
            records: Vec::new(),
            history: History::new(),
            rules_recorded: None,
        };
        let mut replayed = game.clone();
        for record in opened.entries {
            journal.replay_one(&mut replayed, record)?;
        }
        *game = replayed;
        Ok((journal, opened.warning))
    }

    /// Rebuilds the game a journal file describes, starting from `game`, without writing to
    /// it (and without re-rolling anything: rolls are in the records). A damaged journal is
    /// replayed up to the damage, which [`Replayed::verified`] names.
    pub fn replay_file(path: &Path, mut game: Game, caps: Caps) -> Result<Replayed, ReplayError> {
        let (records, verified) = read_file::<Record>(path, caps)?;
        let entries = records.len();
        let mut journal = Journal::in_memory();
        for record in records {
            journal.replay_one(&mut game, record)?;
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

    fn replay_one(&mut self, game: &mut Game, record: Record) -> Result<(), ReplayError> {
        let seq = self.records.len() as u64 + 1;
        match &record {
            Record::Session { .. } => {}
            Record::Tx(tx) => {
                game.apply_all(&tx.changes)
                    .map_err(|(_, source)| ReplayError::Stale { seq, source })?;
                self.history.record(Step::Did(seq));
            }
            Record::Undo { tx, .. } => {
                let changes = self.changes_of(*tx);
                if self.history.next_undo() != Some(*tx) {
                    return Err(ReplayError::OutOfOrder {
                        seq,
                        what: "undoes",
                        tx: *tx,
                    });
                }
                game.undo_all(&changes)
                    .map_err(|source| ReplayError::Stale { seq, source })?;
                self.history.record(Step::Undo(*tx));
            }
            Record::Redo { tx, .. } => {
                let changes = self.changes_of(*tx);
                if self.history.next_redo() != Some(*tx) {
                    return Err(ReplayError::OutOfOrder {
                        seq,
                        what: "redoes",
                        tx: *tx,
                    });
                }
                game.apply_all(&changes)
                    .map_err(|(_, source)| ReplayError::Stale { seq, source })?;
                self.history.record(Step::Redo(*tx));
            }
        }
        self.records.push(record);
        Ok(())
    }

    fn changes_of(&self, tx: u64) -> Vec<crate::state::Change> {
        match self.record(tx) {
            Some(Record::Tx(t)) => t.changes.clone(),
            _ => Vec::new(),
        }
    }

    /// Appends a record, synced to disk when there is a file.
    fn append(&mut self, record: Record) -> Result<u64, JournalError> {
        if let Some(file) = &mut self.file {
            file.append(&record)?;
        }
        self.records.push(record);
        Ok(self.records.len() as u64)
    }

    /// Records that a session opened the journal.
    pub fn start_session(&mut self, seed: u64) -> Result<u64, JournalError> {
        self.append(Record::Session {
            version: env!("CARGO_PKG_VERSION").into(),
            at: now(),
            seed,
        })
    }

    /// Commits a transaction whose changes are already applied to the game: appends it
    /// (synced) and makes it the latest thing `undo` would reverse. When this fails the
    /// caller must roll the changes back: the game may not show what the journal lacks.
    pub fn commit(&mut self, tx: Transaction) -> Result<u64, JournalError> {
        let recorded = tx.rules.as_ref().map(|_| tx.generation);
        let seq = self.append(Record::Tx(tx))?;
        if recorded.is_some() {
            self.rules_recorded = recorded;
        }
        self.history.record(Step::Did(seq));
        Ok(seq)
    }

    /// Undoes the latest transaction in force, if any.
    pub fn undo(&mut self, game: &mut Game) -> Result<Option<Reversal>, ReplayError> {
        let Some(tx) = self.history.next_undo() else {
            return Ok(None);
        };
        let seq = self.records.len() as u64 + 1;
        let changes = self.changes_of(tx);
        let mut next = game.clone();
        next.undo_all(&changes)
            .map_err(|source| ReplayError::Stale { seq, source })?;
        self.append(Record::Undo { tx, at: now() })?;
        self.history.record(Step::Undo(tx));
        *game = next;
        Ok(Some(
            self.reversal(
                tx,
                changes
                    .iter()
                    .rev()
                    .map(|c| c.inverse().to_string())
                    .collect(),
            ),
        ))
    }

    /// Redoes the latest undone transaction, if any.
    pub fn redo(&mut self, game: &mut Game) -> Result<Option<Reversal>, ReplayError> {
        let Some(tx) = self.history.next_redo() else {
            return Ok(None);
        };
        let seq = self.records.len() as u64 + 1;
        let changes = self.changes_of(tx);
        let mut next = game.clone();
        next.apply_all(&changes)
            .map_err(|(_, source)| ReplayError::Stale { seq, source })?;
        self.append(Record::Redo { tx, at: now() })?;
        self.history.record(Step::Redo(tx));
        *game = next;
        Ok(Some(self.reversal(
            tx,
            changes.iter().map(ToString::to_string).collect(),
        )))
    }

    fn reversal(&self, tx: u64, changes: Vec<String>) -> Reversal {
        let (command, rolls) = match self.record(tx) {
            Some(Record::Tx(t)) => (t.command.clone(), t.rolls.len()),
            _ => (String::new(), 0),
        };
        Reversal {
            tx,
            command,
            changes,
            rolls,
        }
    }

    /// The record with entry number `seq` (1-based).
    pub fn record(&self, seq: u64) -> Option<&Record> {
        self.records.get(usize::try_from(seq).ok()?.checked_sub(1)?)
    }

    /// Every record, oldest first (entry `i` is number `i + 1`).
    pub fn records(&self) -> &[Record] {
        &self.records
    }

    /// Whether transaction `seq` is in force (not undone).
    pub fn in_force(&self, seq: u64) -> bool {
        self.history.applied().contains(&seq)
    }

    /// The last `n` transactions, newest last, with whether each is in force.
    pub fn recent(&self, n: usize) -> Vec<(u64, &Transaction, bool)> {
        let mut out: Vec<(u64, &Transaction, bool)> = self
            .records
            .iter()
            .enumerate()
            .rev()
            .filter_map(|(i, r)| match r {
                Record::Tx(t) => Some((i as u64 + 1, t)),
                _ => None,
            })
            .take(n)
            .map(|(seq, t)| (seq, t, self.in_force(seq)))
            .collect();
        out.reverse();
        out
    }

    /// The rules recorded last (by the first transaction of a rules generation): what the
    /// game was last played under. `None` for a journal without any (older journals).
    pub fn last_rules(&self) -> Option<&super::RulesRecord> {
        self.records.iter().rev().find_map(|r| match r {
            Record::Tx(t) => t.rules.as_ref(),
            _ => None,
        })
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
