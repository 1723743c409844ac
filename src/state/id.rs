//! Ids typed by the umpire (`leg1`, `boudicca`): checked once, then trusted.

use std::borrow::Borrow;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::error::{StateError, StateErrorKind};

/// Longest id accepted, in bytes.
pub const MAX_ID_LEN: usize = 40;

/// The id of a side, command, unit or element: lowercase ASCII letters, digits, `_` and `-`,
/// starting with a letter, at most [`MAX_ID_LEN`] bytes. Ids are unique across a game.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Id(String);

impl Id {
    /// Checks `text` and makes an id of it; the error suggests a valid spelling.
    pub fn new(text: &str) -> Result<Id, StateError> {
        if is_valid(text) {
            Ok(Id(text.to_string()))
        } else {
            let hint = suggest(text).filter(|h| is_valid(h));
            Err(StateErrorKind::BadId {
                id: text.to_string(),
                hint,
            }
            .into())
        }
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

fn is_valid(text: &str) -> bool {
    let mut chars = text.chars();
    matches!(chars.next(), Some('a'..='z'))
        && text.len() <= MAX_ID_LEN
        && chars.all(|c| matches!(c, 'a'..='z' | '0'..='9' | '_' | '-'))
}

fn suggest(text: &str) -> Option<String> {
    let s: String = text
        .trim()
        .to_lowercase()
        .chars()
        .map(|c| if c.is_whitespace() { '_' } else { c })
        .filter(|c| matches!(c, 'a'..='z' | '0'..='9' | '_' | '-'))
        .collect();
    let s = s.trim_start_matches(|c: char| !c.is_ascii_lowercase());
    (!s.is_empty()).then(|| s.chars().take(MAX_ID_LEN).collect())
}

impl TryFrom<String> for Id {
    type Error = StateError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        if is_valid(&s) { Ok(Id(s)) } else { Id::new(&s) }
    }
}

impl TryFrom<&str> for Id {
    type Error = StateError;
    fn try_from(s: &str) -> Result<Self, Self::Error> {
        Id::new(s)
    }
}

impl From<Id> for String {
    fn from(id: Id) -> String {
        id.0
    }
}

impl Borrow<str> for Id {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Id {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl PartialEq<str> for Id {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for Id {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}
