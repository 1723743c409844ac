//! [`NotationText`]: the notation a roll carries, kept inline when short.
//!
//! Every roll carries its expression and every pool its notation as text (for the breakdown,
//! `--json` and the journal). Nearly all of them are a few bytes long (`4d6kh3`,
//! `1d20 + 5`), so they are kept inside the value instead of in a heap allocation of their
//! own, which would cost more than the rest of rolling a small pool. Longer text moves to a
//! `String`. Either way the value reads as a `&str` and serialises as a plain string.
//!
//! A rolled pool or group does not even write its notation while rolling: it keeps the
//! parsed node it came from ([`Written`]) and writes the text when it is shown or serialised.

use std::borrow::Borrow;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::ast::Notation;

/// The most bytes kept inline (the value is the size of a `String` plus one word either way).
const INLINE: usize = 30;

/// Text in canonical dice notation: a pool's `4d6kh3`, a roll's `1d20 + 5`. Kept inline
/// (no heap allocation) up to 30 bytes, in a `String` beyond. Reads as a `&str` (it
/// dereferences to one, and compares equal to any string with the same text); serialises as
/// a string.
#[derive(Clone)]
pub struct NotationText(Repr);

#[derive(Clone)]
enum Repr {
    /// The first `len` bytes of `bytes`, always whole UTF-8 characters.
    Inline {
        len: u8,
        bytes: [u8; INLINE],
    },
    Heap(String),
}

impl NotationText {
    /// An empty text.
    pub const fn new() -> Self {
        NotationText(Repr::Inline {
            len: 0,
            bytes: [0; INLINE],
        })
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        match &self.0 {
            // Only whole `str`s and `char`s are ever written inline, so this cannot fail.
            Repr::Inline { len, bytes } => std::str::from_utf8(&bytes[..usize::from(*len)])
                .expect("inline text is built from whole characters"),
            Repr::Heap(s) => s,
        }
    }

    /// Appends `s`.
    #[inline]
    pub fn push_str(&mut self, s: &str) {
        match &mut self.0 {
            Repr::Inline { len, bytes } => {
                let at = usize::from(*len);
                match bytes.get_mut(at..at + s.len()) {
                    Some(to) => {
                        to.copy_from_slice(s.as_bytes());
                        *len += s.len() as u8;
                    }
                    None => self.spill(s),
                }
            }
            Repr::Heap(h) => h.push_str(s),
        }
    }

    /// Appends one ASCII byte's worth of text, or any character.
    #[inline]
    pub fn push(&mut self, c: char) {
        match &mut self.0 {
            Repr::Inline { len, bytes } if c.is_ascii() && usize::from(*len) < INLINE => {
                bytes[usize::from(*len)] = c as u8;
                *len += 1;
            }
            _ => self.push_str(c.encode_utf8(&mut [0; 4])),
        }
    }

    /// Moves the text to a `String` and appends `s` there.
    #[cold]
    fn spill(&mut self, s: &str) {
        let mut h = String::with_capacity(self.len() + s.len() + 16);
        h.push_str(self.as_str());
        h.push_str(s);
        self.0 = Repr::Heap(h);
    }
}

impl Default for NotationText {
    fn default() -> Self {
        NotationText::new()
    }
}

impl Deref for NotationText {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for NotationText {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for NotationText {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Display for NotationText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

impl fmt::Debug for NotationText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Write for NotationText {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.push_str(s);
        Ok(())
    }
}

impl PartialEq for NotationText {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for NotationText {}

impl PartialEq<str> for NotationText {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for NotationText {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for NotationText {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<NotationText> for str {
    fn eq(&self, other: &NotationText) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<NotationText> for &str {
    fn eq(&self, other: &NotationText) -> bool {
        *self == other.as_str()
    }
}

impl PartialEq<NotationText> for String {
    fn eq(&self, other: &NotationText) -> bool {
        self == other.as_str()
    }
}

impl Hash for NotationText {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl From<&str> for NotationText {
    fn from(s: &str) -> Self {
        let mut t = NotationText::new();
        t.push_str(s);
        t
    }
}

impl From<String> for NotationText {
    fn from(s: String) -> Self {
        if s.len() <= INLINE {
            NotationText::from(s.as_str())
        } else {
            NotationText(Repr::Heap(s))
        }
    }
}

impl From<NotationText> for String {
    fn from(t: NotationText) -> String {
        match t.0 {
            Repr::Heap(s) => s,
            Repr::Inline { .. } => t.as_str().to_owned(),
        }
    }
}

impl Serialize for NotationText {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for NotationText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(NotationText::from)
    }
}

/// The notation of a rolled pool or group: the parsed node it was rolled from, written out
/// when it is asked for (rolling never formats text nobody reads), or the text itself when
/// the roll was read back from JSON. Either way it shows, compares and serialises as the
/// canonical text.
#[derive(Clone)]
pub enum Written<T> {
    /// The node of the parsed expression (shared with it, not copied).
    Node(Arc<T>),
    /// The text, as read back from the journal or `--json`.
    Text(Box<str>),
}

impl<T: Notation> Written<T> {
    /// Appends the notation to `out`.
    pub fn write_to(&self, out: &mut NotationText) {
        match self {
            Written::Node(n) => n.write_notation(out),
            Written::Text(t) => out.push_str(t),
        }
    }

    /// The notation as text.
    pub fn text(&self) -> NotationText {
        let mut out = NotationText::new();
        self.write_to(&mut out);
        out
    }
}

impl<T: Notation> fmt::Display for Written<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}

impl<T: Notation> fmt::Debug for Written<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.text().as_str(), f)
    }
}

impl<T: Notation> PartialEq for Written<T> {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Written::Text(a), Written::Text(b)) => a == b,
            _ => self.text() == other.text(),
        }
    }
}

impl<T: Notation> Serialize for Written<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text())
    }
}

impl<'de, T> Deserialize<'de> for Written<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(|s| Written::Text(s.into_boxed_str()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_and_long_text_read_back_the_same() {
        let long = "10d10!>=9x3r<2kh5>=8f<=1cs=10cf=1sd";
        for text in [
            "",
            "1d6",
            "é",
            "1d20 + 5",
            "1234567890123456789012345678901",
            long,
        ] {
            let mut t = NotationText::new();
            for piece in text.split_inclusive(['d', ' ']) {
                t.push_str(piece);
            }
            assert_eq!(t, text);
            assert_eq!(t.len(), text.len());
            let mut c = NotationText::new();
            text.chars().for_each(|ch| c.push(ch));
            assert_eq!(c, t);
            assert_eq!(NotationText::from(text.to_string()), t);
            assert_eq!(String::from(t.clone()), text);
            let json = serde_json::to_string(&t).unwrap();
            assert_eq!(json, serde_json::to_string(text).unwrap());
            assert_eq!(serde_json::from_str::<NotationText>(&json).unwrap(), t);
            assert_eq!(format!("{t} {t:?}"), format!("{text} {text:?}"));
        }
    }
}
