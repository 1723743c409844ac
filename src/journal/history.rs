//! Undo and redo over journalled transactions.
//!
//! The journal is append-only, so undoing is itself journalled: a [`Step::Undo`] names the
//! transaction it reverses. Replaying the steps in order rebuilds exactly which transactions
//! are in force, so the live session and a replay always agree.

use serde::{Deserialize, Serialize};

/// One step of the history, as journalled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", content = "tx", rename_all = "snake_case")]
pub enum Step {
    /// Transaction `seq` was done.
    Did(u64),
    /// Transaction `seq` was undone.
    Undo(u64),
    /// Transaction `seq` was redone.
    Redo(u64),
}

/// Which transactions are in force, and which can be redone.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct History {
    applied: Vec<u64>,
    undone: Vec<u64>,
}

impl History {
    /// An empty history.
    pub fn new() -> Self {
        Self::default()
    }

    /// The transaction `undo` would reverse.
    pub fn next_undo(&self) -> Option<u64> {
        self.applied.last().copied()
    }

    /// The transaction `redo` would bring back.
    pub fn next_redo(&self) -> Option<u64> {
        self.undone.last().copied()
    }

    /// Transactions in force, oldest first.
    pub fn applied(&self) -> &[u64] {
        &self.applied
    }

    /// Records a step. A new transaction drops everything that could have been redone.
    /// Returns `false` (and changes nothing) for an undo or redo that does not match the
    /// history, which only a damaged journal can contain.
    pub fn record(&mut self, step: Step) -> bool {
        match step {
            Step::Did(seq) => {
                self.applied.push(seq);
                self.undone.clear();
            }
            Step::Undo(seq) if self.next_undo() == Some(seq) => {
                self.applied.pop();
                self.undone.push(seq);
            }
            Step::Redo(seq) if self.next_redo() == Some(seq) => {
                self.undone.pop();
                self.applied.push(seq);
            }
            Step::Undo(_) | Step::Redo(_) => return false,
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undo_then_redo_restores() {
        let mut h = History::new();
        h.record(Step::Did(1));
        h.record(Step::Did(2));
        assert!(h.record(Step::Undo(2)));
        assert_eq!(h.applied(), &[1]);
        assert!(h.record(Step::Redo(2)));
        assert_eq!(h.applied(), &[1, 2]);
    }

    #[test]
    fn a_new_transaction_drops_the_redo_tail() {
        let mut h = History::new();
        h.record(Step::Did(1));
        h.record(Step::Undo(1));
        h.record(Step::Did(2));
        assert_eq!(h.next_redo(), None);
        assert_eq!(h.applied(), &[2]);
    }

    #[test]
    fn undo_of_the_wrong_transaction_is_refused() {
        let mut h = History::new();
        h.record(Step::Did(1));
        h.record(Step::Did(2));
        assert!(!h.record(Step::Undo(1)));
        assert_eq!(h.applied(), &[1, 2]);
    }

    #[test]
    fn any_depth() {
        let mut h = History::new();
        for i in 1..=50 {
            h.record(Step::Did(i));
        }
        for i in (1..=50).rev() {
            assert!(h.record(Step::Undo(i)));
        }
        assert_eq!(h.applied(), &[] as &[u64]);
        assert_eq!(h.next_redo(), Some(1));
    }
}
