//! Reading a journal's bytes: its complete lines, checked against the length limit and the
//! hash chain, up to the first damage; where each entry's JSON text lies (entries are parsed
//! only when asked for); the incomplete last line an interrupted write may leave; and what
//! the head record says about the end.
//!
//! Opening, `replay` and `journal verify` all read through [`index`], so they agree on what
//! is intact and where the damage starts. The whole chain is always checked; parsing every
//! entry is what opening a long journal from a snapshot is spared.

use std::fmt;
use std::ops::Range;

use serde::de::DeserializeOwned;

use super::chain::{ChainCheck, GENESIS, Line, split_line};
use super::damage::{Damage, entries};
use super::head::HeadState;

/// What reading a journal's lines found, before any entry is parsed.
#[derive(Debug)]
pub(crate) struct Index {
    /// The text of the journal's complete lines (of those before the damage, when a later
    /// line is not UTF-8).
    pub text: String,
    /// Where the JSON text of each intact entry lies in `text`, the first entry first: those
    /// before the damage (all of them when there is none).
    pub spans: Vec<Range<usize>>,
    /// The hash of the last entry read (meaningful when there is no damage).
    pub last_hash: String,
    /// The hash of the entry `index` was asked to mark, when the chain reached it intact.
    pub marked: Option<String>,
    /// Bytes of the complete lines (up to and with the last newline).
    pub complete: usize,
    /// Bytes after the last newline: an entry whose write was cut short.
    pub torn: usize,
    /// The head record, as read.
    pub head: HeadState,
    /// The first damage, if any.
    pub damage: Option<Damage>,
}

impl Index {
    /// How many entries are intact.
    pub(crate) fn len(&self) -> u64 {
        self.spans.len() as u64
    }

    /// Parses entry `seq` (1-based, intact) as a `T`.
    pub(crate) fn parse<T: DeserializeOwned>(&self, seq: u64) -> Result<T, Damage> {
        let span = usize::try_from(seq)
            .ok()
            .and_then(|s| s.checked_sub(1))
            .and_then(|i| self.spans.get(i))
            .ok_or(Damage::Unreadable {
                line: usize::try_from(seq).unwrap_or(usize::MAX),
                why: "no such entry".into(),
            })?;
        parse_entry(&self.text[span.clone()], seq)
    }

    /// Parses the entries from `from` (1-based) to the last intact one. The first that cannot
    /// be read ends them: it becomes the damage (it comes before any the chain found) and the
    /// entries from it on are no longer intact.
    pub(crate) fn parse_from<T: DeserializeOwned>(&mut self, from: u64) -> Vec<T> {
        let mut out = Vec::new();
        for seq in from.max(1)..=self.len() {
            match self.parse(seq) {
                Ok(entry) => out.push(entry),
                Err(damage) => {
                    self.spans
                        .truncate(usize::try_from(seq - 1).unwrap_or(usize::MAX));
                    self.damage = Some(damage);
                    break;
                }
            }
        }
        out
    }

    /// The report `journal verify` gives.
    pub(crate) fn verified(&self) -> Verified {
        Verified {
            entries: self.len(),
            torn: self.torn as u64,
            head: self.head.clone(),
            damage: self.damage.clone(),
        }
    }
}

/// Parses the JSON text of entry `seq` (on line `seq`) as a `T`.
pub(crate) fn parse_entry<T: DeserializeOwned>(json: &str, seq: u64) -> Result<T, Damage> {
    serde_json::from_str(json).map_err(|e| Damage::Unreadable {
        line: usize::try_from(seq).unwrap_or(usize::MAX),
        why: format!("not an entry this umpire knows ({e})"),
    })
}

/// Reads the lines of `bytes` (a whole journal), lines of at most `line_limit` bytes, checks
/// the whole hash chain without parsing any entry, and compares the end with `head`. `mark`
/// asks for the hash of that entry (a snapshot's) in [`Index::marked`].
pub(crate) fn index(
    bytes: Vec<u8>,
    head: HeadState,
    line_limit: usize,
    mark: Option<u64>,
) -> Index {
    index_with(bytes, head, line_limit, mark, true)
}

/// [`index`]; `fast` false sends every line through the JSON parser (tests compare the two).
fn index_with(
    mut bytes: Vec<u8>,
    head: HeadState,
    line_limit: usize,
    mark: Option<u64>,
    fast: bool,
) -> Index {
    let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let torn = bytes.len() - complete;
    bytes.truncate(complete);
    // Checked once for the whole text; a line that is not UTF-8 is read by the parser, which
    // says where.
    let (text, valid) = match String::from_utf8(bytes) {
        Ok(text) => (Ok(text), complete),
        Err(e) => {
            let valid = e.utf8_error().valid_up_to();
            (Err(e.into_bytes()), valid)
        }
    };
    let all: &[u8] = match &text {
        Ok(t) => t.as_bytes(),
        Err(b) => b,
    };
    let mut spans = Vec::new();
    let mut chain = ChainCheck::new();
    let want = match &head {
        HeadState::Found(h) => Some(h.entries),
        _ => None,
    };
    // The hash of the entry the head record names, once read.
    let mut hash_at_head = (want == Some(0)).then(|| GENESIS.to_string());
    let mut marked = None;
    let mut damage = None;
    // Where the lines read intact end.
    let mut intact = 0;
    let mut start = 0;
    let mut line_no = 0;
    while start < all.len() {
        line_no += 1;
        // Every line ends with a newline (`all` is the complete lines); text is searched with
        // `str::find`, which is much faster than looking at each byte in turn.
        let end = match &text {
            Ok(t) => t[start..].find('\n'),
            Err(b) => b[start..].iter().position(|&c| c == b'\n'),
        }
        .map_or(all.len(), |n| start + n);
        let body = &all[start..end];
        match read_line(&mut chain, line_no, body, fast && end <= valid, line_limit) {
            Ok(span) => spans.push(start + span.start..start + span.end),
            Err(d) => {
                // An altered entry found through the next line's `prev` was already read.
                spans.truncate(usize::try_from(d.intact()).unwrap_or(usize::MAX));
                damage = Some(d);
                break;
            }
        }
        start = end + 1;
        intact = start;
        if want == Some(chain.count()) {
            hash_at_head = Some(chain.last_hash().to_string());
        }
        if mark == Some(chain.count()) {
            marked = Some(chain.last_hash().to_string());
        }
    }
    // An entry found altered through the next line's `prev` was marked before it was found.
    if mark.is_some_and(|m| m > spans.len() as u64) {
        marked = None;
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
    let text = match text {
        Ok(text) => text,
        // Every line read intact is UTF-8 (the first that is not is damage).
        Err(bytes) => String::from_utf8_lossy(&bytes[..intact]).into_owned(),
    };
    Index {
        text,
        spans,
        last_hash: chain.last_hash().to_string(),
        marked,
        complete,
        torn,
        head,
        damage,
    }
}

/// Reads the entries of `bytes` (a whole journal) as `T`s, lines of at most `line_limit`
/// bytes, and compares the end with `head`: the entries before the first damage, and what
/// reading found.
pub(crate) fn scan<T: DeserializeOwned>(
    bytes: Vec<u8>,
    head: HeadState,
    line_limit: usize,
) -> (Vec<T>, Index) {
    let mut index = index(bytes, head, line_limit, None);
    let entries = index.parse_from(1);
    (entries, index)
}

/// Checks one complete line (without its newline) against the length limit and the chain;
/// where its entry's JSON text lies in it. `fast` says the line is known to be UTF-8, so it
/// may be taken apart without the parser.
fn read_line(
    chain: &mut ChainCheck,
    line_no: usize,
    bytes: &[u8],
    fast: bool,
    line_limit: usize,
) -> Result<Range<usize>, Damage> {
    let unreadable = |why: String| Damage::Unreadable { line: line_no, why };
    // A line over the limit is not parsed at all.
    if bytes.len() + 1 > line_limit {
        return Err(Damage::TooLong {
            line: line_no,
            bytes: bytes.len() + 1,
            limit: line_limit,
        });
    }
    // The line as umpire writes it, and the next of the chain: nothing more to look at.
    if fast
        && let Some(split) = split_line(bytes)
        && chain.check_split(bytes, &split)
    {
        return Ok(split.entry);
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
    // The entry's text is borrowed from the line: where it starts is how far its first byte
    // is from the line's.
    let entry = line.entry.get();
    let start = entry.as_ptr() as usize - text.as_ptr() as usize;
    Ok(start..start + entry.len())
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

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::journal::chain::entry_hash;
    use crate::journal::head::Head;

    /// A journal of `n` entries as umpire writes it, and the hash of each entry. With
    /// `altered`, that entry is edited and its own hash recomputed, as someone who knew the
    /// format but stopped there would do: only the next entry's `prev` tells.
    fn journal(n: u64, altered: Option<u64>) -> (Vec<u8>, Vec<String>) {
        let mut out = String::new();
        let mut prev = GENESIS.to_string();
        let mut hashes = Vec::new();
        for seq in 1..=n {
            let entry = format!(r#"{{"n":{seq},"text":"entry {seq} — «{seq}»"}}"#);
            let hash = entry_hash(seq, &prev, &entry);
            let (shown, shown_hash) = if altered == Some(seq) {
                let edited = entry.replace("entry", "Entry");
                let h = entry_hash(seq, &prev, &edited);
                (edited, h)
            } else {
                (entry, hash.clone())
            };
            out.push_str(&format!(
                r#"{{"seq":{seq},"prev":"{prev}","hash":"{shown_hash}","entry":{shown}}}"#
            ));
            out.push('\n');
            hashes.push(hash.clone());
            prev = hash;
        }
        (out.into_bytes(), hashes)
    }

    /// What two readings of the same bytes must agree on.
    fn seen(i: &Index) -> impl PartialEq + std::fmt::Debug {
        (
            i.spans.clone(),
            i.damage.clone(),
            i.last_hash.clone(),
            i.marked.clone(),
            (i.complete, i.torn),
            i.spans
                .iter()
                .map(|s| i.text[s.clone()].to_string())
                .collect::<Vec<_>>(),
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        /// Whatever happened to a journal — a byte changed, lost or added, a line lost,
        /// doubled or moved, line ends turned into CRLF, spaces added, an entry edited with
        /// its own hash recomputed, the file cut — taking lines apart without the parser
        /// finds exactly what the parser finds.
        #[test]
        fn the_fast_reading_finds_what_the_parser_finds(
            n in 1u64..8,
            what in 0u8..10,
            at in any::<prop::sample::Index>(),
            byte in any::<u8>(),
            mark in 0u64..9,
            with_head in any::<bool>(),
        ) {
            let altered = (what == 8).then(|| at.index(n as usize) as u64 + 1);
            let (mut bytes, hashes) = journal(n, altered);
            let h = Head::new(n, &hashes[hashes.len() - 1]);
            let lines: Vec<Vec<u8>> = bytes.split_inclusive(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
            let line = at.index(lines.len());
            let i = at.index(bytes.len());
            match what {
                0 => bytes[i] = byte,
                1 => { bytes.remove(i); }
                2 => bytes.insert(i, byte),
                3 => bytes = lines.iter().enumerate().filter(|(j, _)| *j != line).flat_map(|(_, l)| l.clone()).collect(),
                4 => bytes = lines.iter().enumerate().flat_map(|(j, l)| if j == line { [l.clone(), l.clone()].concat() } else { l.clone() }).collect(),
                5 => bytes = lines.iter().rev().flatten().copied().collect(),
                6 => bytes = String::from_utf8(bytes).unwrap().replace('\n', "\r\n").into_bytes(),
                7 => bytes = String::from_utf8(bytes).unwrap().replace(r#"","entry":"#, r#"", "entry": "#).into_bytes(),
                8 => {}
                _ => bytes.truncate(i),
            }
            let head = if with_head { HeadState::Found(h) } else { HeadState::Missing };
            let fast = index_with(bytes.clone(), head.clone(), 1 << 20, Some(mark), true);
            let slow = index_with(bytes, head, 1 << 20, Some(mark), false);
            prop_assert_eq!(seen(&fast), seen(&slow));
        }
    }

    #[test]
    fn a_journal_as_written_is_read_without_the_parser_and_whole() {
        let (bytes, hashes) = journal(5, None);
        let head = HeadState::Found(Head::new(5, &hashes[4]));
        let i = index(bytes, head, 1 << 20, Some(3));
        assert_eq!((i.len(), &i.damage, &i.last_hash), (5, &None, &hashes[4]));
        assert_eq!(i.marked.as_ref(), Some(&hashes[2]));
        assert_eq!(
            &i.text[i.spans[1].clone()],
            r#"{"n":2,"text":"entry 2 — «2»"}"#
        );
        let entry: serde_json::Value = i.parse(4).unwrap();
        assert_eq!(entry["n"], 4);
    }
}
