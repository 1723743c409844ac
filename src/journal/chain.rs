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
//!
//! Checking the chain needs no entry parsed: a line laid out exactly as umpire writes it is
//! taken apart by [`split_line`] and its hash checked over the bytes of its entry, which is
//! what lets a long journal be checked whole in a few milliseconds. Any other layout (spaces,
//! another order of fields, a line umpire did not write) goes through the JSON parser, which
//! also names what is wrong with a damaged line.

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use sha2::{Digest, Sha256};

use super::damage::Damage;

/// The `prev` of the first entry.
pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// The hash of entry `seq` whose predecessor hashed to `prev`.
pub fn entry_hash(seq: u64, prev: &str, entry_json: &str) -> String {
    let hex = entry_hash_hex(seq, prev.as_bytes(), entry_json.as_bytes());
    hex.iter().map(|&b| char::from(b)).collect()
}

/// [`entry_hash`] as the bytes of its text, without allocating.
fn entry_hash_hex(seq: u64, prev: &[u8], entry_json: &[u8]) -> [u8; 64] {
    let mut h = Sha256::new();
    h.update(seq.to_le_bytes());
    h.update(prev);
    h.update(entry_json);
    hex_bytes(&h.finalize().into())
}

/// The 32 bytes of a hash in lowercase hexadecimal.
fn hex_bytes(bytes: &[u8; 32]) -> [u8; 64] {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = [0u8; 64];
    for (pair, b) in out.chunks_exact_mut(2).zip(bytes) {
        pair[0] = DIGITS[usize::from(b >> 4)];
        pair[1] = DIGITS[usize::from(b & 15)];
    }
    out
}

/// `bytes` in lowercase hexadecimal.
pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A line as umpire writes it, taken apart without a JSON parser.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Split<'a> {
    /// The entry number.
    pub seq: u64,
    /// The previous entry's hash, as written (64 hexadecimal digits).
    pub prev: &'a [u8],
    /// This entry's hash, as written (64 bytes).
    pub hash: &'a [u8],
    /// Where the entry's JSON text lies in the line.
    pub entry: std::ops::Range<usize>,
}

/// Takes apart a line (without its newline) laid out exactly as umpire writes it,
/// `{"seq":N,"prev":"<64 hex>","hash":"<64 hex>","entry":{…}}` with nothing else; `None`
/// for any other layout. The entry's text is not looked into: its hash vouches for it.
pub(crate) fn split_line(line: &[u8]) -> Option<Split<'_>> {
    let rest = line.strip_prefix(br#"{"seq":"#)?;
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    // JSON numbers have no leading zeros, and entries are numbered from 1.
    if digits == 0 || rest[0] == b'0' {
        return None;
    }
    let mut seq: u64 = 0;
    for &d in &rest[..digits] {
        seq = seq.checked_mul(10)?.checked_add(u64::from(d - b'0'))?;
    }
    let rest = rest[digits..].strip_prefix(br#","prev":""#)?;
    // What the hashes hold is checked against the chain, not here.
    let (prev, rest) = rest.split_at_checked(64)?;
    let rest = rest.strip_prefix(br#"","hash":""#)?;
    let (hash, rest) = rest.split_at_checked(64)?;
    let rest = rest.strip_prefix(br#"","entry":"#)?;
    let entry = rest.strip_suffix(b"}")?;
    // Entries are objects: what a line cut short or joined to another would not end as.
    if !(entry.starts_with(b"{") && entry.ends_with(b"}")) {
        return None;
    }
    let start = line.len() - rest.len();
    Some(Split {
        seq,
        prev,
        hash,
        entry: start..start + entry.len(),
    })
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

    /// Checks the next line, taken apart by [`split_line`] from `line`: `true` when it is the
    /// next entry of the chain (and the chain moves on), `false` when it is not (and nothing
    /// changes: [`ChainCheck::check`] on the parsed line then says what is wrong).
    pub(crate) fn check_split(&mut self, line: &[u8], split: &Split<'_>) -> bool {
        if split.seq != self.count + 1 || split.prev != self.prev.as_bytes() {
            return false;
        }
        let hash = entry_hash_hex(split.seq, split.prev, &line[split.entry.clone()]);
        if hash != split.hash {
            return false;
        }
        self.prev.clear();
        self.prev
            .push_str(std::str::from_utf8(&hash).expect("hexadecimal digits are ASCII"));
        self.count += 1;
        true
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

#[cfg(test)]
mod tests {
    use super::*;

    fn line(seq: u64, prev: &str, entry: &str) -> String {
        let hash = entry_hash(seq, prev, entry);
        format!(r#"{{"seq":{seq},"prev":"{prev}","hash":"{hash}","entry":{entry}}}"#)
    }

    #[test]
    fn a_line_as_written_is_taken_apart_as_the_parser_reads_it() {
        let entry = r#"{"n":1,"text":"a } and a \" inside"}"#;
        let text = line(12, GENESIS, entry);
        let split = split_line(text.as_bytes()).unwrap();
        let parsed: Line<'_> = serde_json::from_str(&text).unwrap();
        assert_eq!(split.seq, parsed.seq);
        assert_eq!(split.prev, parsed.prev.as_bytes());
        assert_eq!(split.hash, parsed.hash.as_bytes());
        assert_eq!(&text[split.entry.clone()], parsed.entry.get());
        // And it is the line the writer makes.
        let raw = RawValue::from_string(entry.to_string()).unwrap();
        let written = Line {
            seq: 12,
            prev: GENESIS.into(),
            hash: parsed.hash.clone(),
            entry: &raw,
        };
        assert_eq!(serde_json::to_string(&written).unwrap(), text);
    }

    #[test]
    fn other_layouts_are_left_to_the_parser() {
        let good = line(3, GENESIS, r#"{"n":3}"#);
        for text in [
            good.replace(r#"{"seq":3"#, r#"{ "seq":3"#),
            good.replace(r#"{"seq":3"#, r#"{"seq":03"#),
            good.replace(r#""seq":3"#, r#""seq":99999999999999999999"#),
            good.replace(GENESIS, &GENESIS[1..]),
            good.replace(r#""entry""#, r#""entries""#),
            format!("{good} "),
            good.replace(r#"{"n":3}"#, ""),
            good[..good.len() - 1].to_string(),
        ] {
            assert_eq!(split_line(text.as_bytes()), None, "{text}");
        }
    }

    #[test]
    fn a_split_line_checks_against_the_chain_as_the_parsed_one_does() {
        let first = line(1, GENESIS, r#"{"n":1}"#);
        let second = line(2, &entry_hash(1, GENESIS, r#"{"n":1}"#), r#"{"n":2}"#);
        let mut chain = ChainCheck::new();
        let split = split_line(first.as_bytes()).unwrap();
        assert!(chain.check_split(first.as_bytes(), &split));
        // The same line again is not the next entry; the chain stays where it was.
        assert!(!chain.check_split(first.as_bytes(), &split));
        assert_eq!(chain.count(), 1);
        let altered = second.replace(r#""n":2"#, r#""n":7"#);
        let split = split_line(altered.as_bytes()).unwrap();
        assert!(!chain.check_split(altered.as_bytes(), &split));
        let split = split_line(second.as_bytes()).unwrap();
        assert!(chain.check_split(second.as_bytes(), &split));
        assert_eq!(
            chain.last_hash(),
            entry_hash(2, &entry_hash(1, GENESIS, r#"{"n":1}"#), r#"{"n":2}"#)
        );
    }
}
