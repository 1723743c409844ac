//! What the players may see of a transaction: the live board and the battle reports show a
//! command's line with its secret words masked, and its output and dice only when it touched
//! nothing secret.

use std::collections::HashSet;

use crate::journal::Transaction;
use crate::state::{Change, Game};

/// What the players must not be shown of a transaction: the markers for the umpire only
/// (declared `secret` or `hides`) and the units hidden from the players' board now.
pub struct Secrets<'g> {
    game: &'g Game,
    hidden: HashSet<&'g str>,
}

impl<'g> Secrets<'g> {
    /// The secrets of `game` as it stands now.
    pub fn of(game: &'g Game) -> Self {
        let hidden = game
            .units
            .values()
            .filter(|u| game.is_hidden(u))
            .map(|u| u.id.as_str())
            .collect();
        Secrets { game, hidden }
    }

    /// Whether `id` is a hidden unit or one of its elements.
    pub fn is_hidden(&self, id: &str) -> bool {
        self.hidden.contains(id)
            || self
                .game
                .element(id)
                .is_some_and(|e| self.hidden.contains(e.unit.as_str()))
    }

    /// Whether a word of a command line names a secret: a secret marker or a hidden unit, alone
    /// or among others (`lh1,lh2`, `a+b`, `marked:spotted`).
    pub fn in_word(&self, word: &str) -> bool {
        word.split([',', '+', ':', '='])
            .any(|w| self.game.is_secret_marker(w) || self.is_hidden(w))
    }

    /// Whether `t` placed, removed or let expire a secret marker, or changed a hidden unit:
    /// what it printed would give it away.
    pub fn touched_by(&self, t: &Transaction) -> bool {
        let secret = |m: &crate::state::Marker| self.game.is_secret_marker(&m.name);
        t.changes.iter().any(|c| match c {
            Change::Mark { unit, marker, .. } | Change::Unmark { unit, marker, .. } => {
                secret(marker) || self.is_hidden(unit.as_str())
            }
            Change::Advance { expired: e, .. } | Change::Rewind { restored: e, .. } => e
                .iter()
                .any(|x| secret(&x.marker) || self.is_hidden(x.unit.as_str())),
            Change::AddUnit { unit, .. } | Change::RemoveUnit { unit, .. } => {
                self.is_hidden(unit.id.as_str())
            }
            Change::SetAttr { id, .. }
            | Change::Rename { id, .. }
            | Change::MoveUnit { id, .. }
            | Change::MoveElement { id, .. } => self.is_hidden(id.as_str()),
            _ => false,
        })
    }

    /// `t` as the players may see it: its public line with every word naming a secret marker
    /// or a hidden unit masked, and whether its output and dice may be shown (not when it is for
    /// the umpire alone or touched a secret; then hidden units' names are masked too).
    pub fn public_view(&self, t: &Transaction) -> (String, bool) {
        let public = !t.umpire_only && !self.touched_by(t);
        let mut command = t
            .public_command()
            .split(' ')
            .map(|w| if self.in_word(w) { "‹secret›" } else { w })
            .collect::<Vec<_>>()
            .join(" ");
        if !public {
            // The names of hidden units too, where the line gives them (`add unit r1 ‹secret› Horse`).
            for id in &self.hidden {
                if let Some(u) = self.game.unit(id)
                    && !u.name.trim().is_empty()
                {
                    command = command.replace(u.name.as_str(), "‹secret›");
                }
            }
        }
        (command, public)
    }
}
