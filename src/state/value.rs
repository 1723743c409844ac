//! Attribute values: plain JSON values (numbers, strings, booleans, arrays).

use std::fmt;

use serde::{Deserialize, Serialize};

/// The value of an attribute. Serialised as a plain JSON value: `6`, `2.5`, `"INF/A"`, `true`,
/// `["pike", "shield"]`. Choices are stored as [`Value::Text`] in the declared spelling.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Value {
    /// A flag.
    Flag(bool),
    /// An integer.
    Int(i64),
    /// A (finite) number.
    Num(f64),
    /// Text, or one of a choice's values.
    Text(String),
    /// A list of values of one type.
    List(Vec<Value>),
}

impl Value {
    /// The value as a number, if it is an integer or a number.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Int(i) => Some(*i as f64),
            Value::Num(n) => Some(*n),
            _ => None,
        }
    }

    /// The value as an integer, if it is one.
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// The value as text, if it is text or a choice.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Text(s) => Some(s),
            _ => None,
        }
    }

    /// The value as a flag, if it is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Flag(b) => Some(*b),
            _ => None,
        }
    }
}

impl fmt::Display for Value {
    /// Plain text: `6`, `2.5`, `INF/A`, `true`, `pike, shield`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Flag(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Num(n) => write!(f, "{n}"),
            Value::Text(s) => f.write_str(s),
            Value::List(items) => {
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{v}")?;
                }
                Ok(())
            }
        }
    }
}

impl From<i64> for Value {
    fn from(v: i64) -> Self {
        Value::Int(v)
    }
}

impl From<f64> for Value {
    fn from(v: f64) -> Self {
        Value::Num(v)
    }
}

impl From<bool> for Value {
    fn from(v: bool) -> Self {
        Value::Flag(v)
    }
}

impl From<&str> for Value {
    fn from(v: &str) -> Self {
        Value::Text(v.to_string())
    }
}

impl From<String> for Value {
    fn from(v: String) -> Self {
        Value::Text(v)
    }
}
