//! The budget of work of one exact evaluation: every loop whose cost grows with the request
//! (convolutions, keep/drop states, explosion chains, unique dice) charges its steps here
//! before doing them, and the evaluation is refused once the total passes
//! [`ExactOptions::max_work`](super::ExactOptions::max_work). A step is about one
//! multiply-add, or one value copied into or compared within a state, so the cap bounds time
//! and memory together: a request that would run for minutes fails at once, naming the cap.

use std::cell::Cell;

use super::super::error::{DiceError, DiceErrorKind};
use crate::span::Span;

/// What copying, hashing and storing one state of a hash-map walk costs beside its values, in
/// steps (an allocation and a hash are worth a few dozen multiply-adds).
pub(super) const STATE_OVERHEAD: usize = 16;

/// Steps spent so far against a cap. Shared by reference through one evaluation.
#[derive(Debug)]
pub(super) struct Budget {
    cap: u64,
    used: Cell<u64>,
}

impl Budget {
    /// A fresh budget of `cap` steps.
    pub fn new(cap: u64) -> Self {
        Budget {
            cap,
            used: Cell::new(0),
        }
    }

    /// Charges `steps` for `what`; an error naming the cap once the total passes it.
    pub fn charge(&self, steps: usize, what: &str) -> Result<(), DiceError> {
        let used = self.used.get().saturating_add(steps as u64);
        self.used.set(used);
        if used > self.cap {
            return Err(DiceError::new(
                DiceErrorKind::TooMuchWork {
                    what: what.to_string(),
                    cap: self.cap,
                },
                Span::default(),
            ));
        }
        Ok(())
    }

    /// Steps charged so far.
    #[cfg(test)]
    pub fn used(&self) -> u64 {
        self.used.get()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charges_add_up_and_the_cap_is_named() {
        let b = Budget::new(100);
        assert!(b.charge(60, "a sum").is_ok());
        assert_eq!(b.used(), 60);
        let e = b.charge(41, "a sum").unwrap_err();
        assert!(matches!(
            *e.kind,
            DiceErrorKind::TooMuchWork { cap: 100, .. }
        ));
        let text = e.to_string();
        assert!(text.contains("100") && text.contains("a sum"), "{text}");
        assert!(e.help().is_some_and(|h| h.contains("roll 100x")));
    }

    #[test]
    fn a_huge_charge_saturates_instead_of_wrapping() {
        let b = Budget::new(10);
        assert!(b.charge(usize::MAX, "x").is_err());
        assert!(b.charge(usize::MAX, "x").is_err());
        assert_eq!(b.used(), u64::MAX);
    }
}
