//! The hash chain: each line carries the hash of the line before it and its own hash, so
//! changing, removing or reordering any entry that has another after it is detected and
//! located.
//!
//! The chain alone cannot see entries cut from the end (what is left still chains; the head
//! record in `head.rs` is for that), and it is no signature: whoever edits an entry and
//! recomputes every hash after it makes a journal that checks out.
//!
//! A line is `{"seq":N,"prev":"<hash of line N-1>","hash":"<hash of this entry>","entry":{…}}`
//! where an entry's hash is SHA-256 over `seq`, `prev` and the entry's JSON text exactly as
//! written. The first line's `prev` is [`GENESIS`].

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use sha2::{Digest, Sha256};

use super::damage::Damage;

/// The `prev` of the first entry.
pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// The hash of entry `seq` whose predecessor hashed to `prev`.
pub fn entry_hash(seq: u64, prev: &str, entry_json: &str) -> String {
    let mut h = Sha256::new();
    h.update(seq.to_le_bytes());
    h.update(prev.as_bytes());
    h.update(entry_json.as_bytes());
    format!("{:x}", h.finalize())
}

/// One line as stored, borrowing the entry's JSON text.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Line<'a> {
    pub seq: u64,
    pub prev: String,
    pub hash: String,
    #[serde(borrow)]
    pub entry: &'a RawValue,
}

/// Walks a journal line by line, checking each against the chain so far.
#[derive(Debug, Clone)]
pub(crate) struct ChainCheck {
    prev: String,
    count: u64,
}

impl ChainCheck {
    pub(crate) fn new() -> Self {
        ChainCheck {
            prev: GENESIS.to_string(),
            count: 0,
        }
    }

    /// The hash of the last line checked.
    pub(crate) fn last_hash(&self) -> &str {
        &self.prev
    }

    /// How many lines have checked out.
    pub(crate) fn count(&self) -> u64 {
        self.count
    }

    /// Checks the next line (1-based `line_no`), already parsed.
    pub(crate) fn check(&mut self, line_no: usize, line: &Line<'_>) -> Result<(), Damage> {
        let expected_seq = self.count + 1;
        if line.seq != expected_seq {
            return Err(Damage::Altered {
                seq: expected_seq,
                line: line_no,
                why: format!(
                    "expected entry #{expected_seq}, found #{} (entries removed or reordered)",
                    line.seq
                ),
            });
        }
        if line.prev != self.prev {
            // The previous line's text no longer hashes to what this line recorded.
            return Err(Damage::Altered {
                seq: line.seq.saturating_sub(1).max(1),
                line: line_no.saturating_sub(1).max(1),
                why: "its text does not match the hash recorded by the entry after it".into(),
            });
        }
        let hash = entry_hash(line.seq, &line.prev, line.entry.get());
        if hash != line.hash {
            return Err(Damage::Altered {
                seq: line.seq,
                line: line_no,
                why: "its text does not match its own hash".into(),
            });
        }
        self.prev = hash;
        self.count += 1;
        Ok(())
    }
}
