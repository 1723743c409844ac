//! Reading a journal's bytes: its complete lines, checked against the length limit and the
//! hash chain and parsed into entries, up to the first damage; the incomplete last line an
//! interrupted write may leave; and what the head record says about the end.
//!
//! Opening, `replay` and `journal verify` all read through [`scan`], so they agree on what
//! is intact and where the damage starts.

use std::fmt;

use serde::de::DeserializeOwned;

use super::chain::{ChainCheck, GENESIS, Line};
use super::damage::{Damage, entries};
use super::head::HeadState;

/// What reading a journal found.
#[derive(Debug)]
pub(crate) struct Scan<T> {
    /// The entries before the damage (all of them when there is none).
    pub entries: Vec<T>,
    /// The hash of the last entry read (meaningful when there is no damage).
    pub last_hash: String,
    /// Bytes of the complete lines (up to and with the last newline).
    pub complete: usize,
    /// Bytes after the last newline: an entry whose write was cut short.
    pub torn: usize,
    /// The head record, as read.
    pub head: HeadState,
    /// The first damage, if any.
    pub damage: Option<Damage>,
}

impl<T> Scan<T> {
    /// The report `journal verify` gives.
    pub(crate) fn verified(&self) -> Verified {
        Verified {
            entries: self.entries.len() as u64,
            torn: self.torn as u64,
            head: self.head.clone(),
            damage: self.damage.clone(),
        }
    }
}

/// Reads the entries of `bytes` (a whole journal), lines of at most `line_limit` bytes,
/// and compares the end with `head`.
pub(crate) fn scan<T: DeserializeOwned>(
    bytes: &[u8],
    head: HeadState,
    line_limit: usize,
) -> Scan<T> {
    let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let mut entries = Vec::new();
    let mut chain = ChainCheck::new();
    let want = match &head {
        HeadState::Found(h) => Some(h.entries),
        _ => None,
    };
    // The hash of the entry the head record names, once read.
    let mut hash_at_head = (want == Some(0)).then(|| GENESIS.to_string());
    let mut damage = None;
    let lines = complete
        .checked_sub(1)
        .map(|end| bytes[..end].split(|&b| b == b'\n'));
    for (i, text) in lines.into_iter().flatten().enumerate() {
        let line_no = i + 1;
        match read_line(&mut chain, line_no, text, line_limit) {
            Ok(entry) => entries.push(entry),
            Err(d) => {
                // An altered entry found through the next line's `prev` was already read.
                entries.truncate(usize::try_from(d.intact()).unwrap_or(usize::MAX));
                damage = Some(d);
                break;
            }
        }
        if want == Some(chain.count()) {
            hash_at_head = Some(chain.last_hash().to_string());
        }
    }
    if damage.is_none()
        && let HeadState::Found(h) = &head
    {
        let found = chain.count();
        if h.entries > found {
            damage = Some(Damage::Lost {
                expected: h.entries,
                found,
            });
        } else if hash_at_head.as_deref() != Some(h.hash.as_str()) {
            damage = Some(Damage::Replaced {
                seq: h.entries,
                found,
            });
        }
    }
    Scan {
        entries,
        last_hash: chain.last_hash().to_string(),
        complete,
        torn: bytes.len() - complete,
        head,
        damage,
    }
}

/// Reads one complete line (without its newline): its length, text, chain and entry.
fn read_line<T: DeserializeOwned>(
    chain: &mut ChainCheck,
    line_no: usize,
    bytes: &[u8],
    line_limit: usize,
) -> Result<T, Damage> {
    let unreadable = |why: String| Damage::Unreadable { line: line_no, why };
    // A line over the limit is not parsed at all.
    if bytes.len() + 1 > line_limit {
        return Err(Damage::TooLong {
            line: line_no,
            bytes: bytes.len() + 1,
            limit: line_limit,
        });
    }
    let text = std::str::from_utf8(bytes).map_err(|e| {
        unreadable(format!(
            "not UTF-8 text (byte {} of the line)",
            e.valid_up_to() + 1
        ))
    })?;
    let line: Line<'_> =
        serde_json::from_str(text).map_err(|e| unreadable(format!("not a journal entry ({e})")))?;
    chain.check(line_no, &line)?;
    serde_json::from_str(line.entry.get())
        .map_err(|e| unreadable(format!("not an entry this umpire knows ({e})")))
}

/// What checking a whole journal found: `journal verify`'s answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    /// Entries whose chain checks out, from the first (those before the damage, if any).
    pub entries: u64,
    /// Bytes of an incomplete last line, left by a write that was cut short (0: none). It
    /// was never committed: its result was never shown.
    pub torn: u64,
    /// The head record, as found.
    pub head: HeadState,
    /// The first damage, or `None` when the journal is intact.
    pub damage: Option<Damage>,
}

impl Verified {
    /// Whether nothing is wrong (as far as can be told without a head record).
    pub fn is_intact(&self) -> bool {
        self.damage.is_none()
    }
}

impl fmt::Display for Verified {
    /// One paragraph: intact or not, what the head record lets umpire say about the end, an
    /// incomplete last line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.damage {
            None => {
                write!(
                    f,
                    "journal intact: {}, chain verified",
                    entries(self.entries)
                )?;
                match &self.head {
                    HeadState::Found(_) => write!(
                        f,
                        "; its head record confirms nothing is missing at the end"
                    )?,
                    HeadState::Missing => write!(
                        f,
                        "; it has no head record, so umpire cannot tell whether entries were lost at the end"
                    )?,
                    HeadState::Unreadable { why } => write!(
                        f,
                        "; its head record cannot be read ({why}), so umpire cannot tell whether entries were lost at the end"
                    )?,
                }
            }
            Some(d) => {
                let what = match d {
                    Damage::Altered { .. } => "altered",
                    Damage::Lost { .. } => "cut short",
                    Damage::Replaced { .. } => "replaced",
                    Damage::Deleted { .. } => "missing",
                    _ => "damaged",
                };
                write!(f, "journal {what}: {d}")?;
                match d.intact() {
                    _ if d.at_the_end() => {}
                    0 => write!(f, "; no entry before it")?,
                    1 => write!(f, "; the 1 entry before it is intact")?,
                    n => write!(f, "; the {n} entries before it are intact")?,
                }
            }
        }
        if self.torn > 0 {
            write!(
                f,
                "; an interrupted write left an incomplete last entry ({} bytes), never committed",
                self.torn
            )?;
        }
        Ok(())
    }
}
