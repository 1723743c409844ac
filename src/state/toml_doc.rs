//! Reading TOML data files with a span for every key and value, so errors name the file,
//! line and column of the bad key or value.

use std::ops::Range;

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use super::error::{StateError, StateErrorKind, did_you_mean, nearest};
use super::value::Value;

/// A TOML value with its span.
pub(crate) type SValue<'a> = Spanned<DeValue<'a>>;

/// A data file being read: its name (for messages) and text.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Doc<'a> {
    pub file: &'a str,
    pub src: &'a str,
}

impl<'a> Doc<'a> {
    /// Parses the file; a TOML syntax error keeps the parser's position.
    pub fn parse(&self) -> Result<Spanned<DeTable<'a>>, StateError> {
        DeTable::parse(self.src).map_err(|e| {
            let offset = e.span().map_or(0, |s| s.start);
            StateError::from(StateErrorKind::Toml(first_line(e.message())))
                .in_file(self.file, self.src, offset)
        })
    }

    /// An error at `span`.
    pub fn err(&self, span: Range<usize>, kind: StateErrorKind) -> StateError {
        StateError::from(kind).in_file(self.file, self.src, span.start)
    }

    /// A format error at `span`.
    pub fn format(&self, span: Range<usize>, message: String) -> StateError {
        self.err(span, StateErrorKind::Format(message))
    }

    /// Moves an error without a position to `span`.
    pub fn place(&self, e: StateError, span: Range<usize>) -> StateError {
        if e.at.is_some() {
            e
        } else {
            e.in_file(self.file, self.src, span.start)
        }
    }

    /// The table in `v`, or an error naming `what`.
    pub fn table<'v, 'b>(
        &self,
        v: &'v SValue<'b>,
        what: &str,
    ) -> Result<&'v DeTable<'b>, StateError> {
        v.get_ref().as_table().ok_or_else(|| {
            self.format(
                v.span(),
                format!("{what} must be a table, found {}", v.get_ref().type_str()),
            )
        })
    }

    /// The array in `v`, or an error naming `what`.
    pub fn array<'v, 'b>(
        &self,
        v: &'v SValue<'b>,
        what: &str,
    ) -> Result<&'v [SValue<'b>], StateError> {
        v.get_ref().as_array().map(|a| &a[..]).ok_or_else(|| {
            self.format(
                v.span(),
                format!("{what} must be an array, found {}", v.get_ref().type_str()),
            )
        })
    }

    /// The string in `v`, or an error naming `what`.
    pub fn str<'v>(&self, v: &'v SValue<'_>, what: &str) -> Result<&'v str, StateError> {
        v.get_ref().as_str().ok_or_else(|| {
            self.format(
                v.span(),
                format!("{what} must be a string, found {}", v.get_ref().type_str()),
            )
        })
    }

    /// The integer in `v`, or an error naming `what`.
    pub fn int(&self, v: &SValue<'_>, what: &str) -> Result<i64, StateError> {
        match to_value(v.get_ref()) {
            Ok(Value::Int(i)) => Ok(i),
            _ => Err(self.format(
                v.span(),
                format!(
                    "{what} must be an integer, found {}",
                    v.get_ref().type_str()
                ),
            )),
        }
    }

    /// The number in `v` (integer or float), or an error naming `what`.
    pub fn num(&self, v: &SValue<'_>, what: &str) -> Result<f64, StateError> {
        to_value(v.get_ref())
            .ok()
            .and_then(|v| v.as_f64())
            .ok_or_else(|| {
                self.format(
                    v.span(),
                    format!("{what} must be a number, found {}", v.get_ref().type_str()),
                )
            })
    }

    /// A plain value (no tables, no dates).
    pub fn value(&self, v: &SValue<'_>) -> Result<Value, StateError> {
        to_value(v.get_ref()).map_err(|m| self.format(v.span(), m))
    }

    /// Errors on the first key of `table` not in `known`, suggesting the nearest.
    pub fn only_keys(
        &self,
        table: &DeTable<'_>,
        known: &[&str],
        what: &str,
    ) -> Result<(), StateError> {
        for (k, _) in table.iter() {
            if !known.contains(&k.get_ref().as_ref()) {
                let key = k.get_ref().as_ref();
                return Err(self.format(
                    k.span(),
                    format!(
                        "unknown key `{key}` in {what}{}",
                        did_you_mean(&nearest(key, known.iter().copied()))
                    ),
                ));
            }
        }
        Ok(())
    }
}

/// Looks up `key` in a table.
pub(crate) fn get<'t, 'a>(table: &'t DeTable<'a>, key: &str) -> Option<&'t SValue<'a>> {
    table
        .iter()
        .find(|(k, _)| k.get_ref() == key)
        .map(|(_, v)| v)
}

/// A TOML value as a plain [`Value`].
pub(crate) fn to_value(v: &DeValue<'_>) -> Result<Value, String> {
    Ok(match v {
        DeValue::String(s) => Value::Text(s.to_string()),
        DeValue::Integer(i) => Value::Int(
            i64::from_str_radix(i.as_str(), i.radix())
                .map_err(|_| format!("integer `{i}` is too large"))?,
        ),
        DeValue::Float(f) => {
            let n: f64 = f
                .as_str()
                .parse()
                .map_err(|_| format!("`{f}` is not a number"))?;
            if !n.is_finite() {
                return Err(format!("`{f}` is not a finite number"));
            }
            Value::Num(n)
        }
        DeValue::Boolean(b) => Value::Flag(*b),
        DeValue::Datetime(d) => return Err(format!("dates are not values, found `{d}`")),
        DeValue::Array(a) => Value::List(
            a.iter()
                .map(|v| to_value(v.get_ref()))
                .collect::<Result<_, _>>()?,
        ),
        DeValue::Table(_) => return Err("a table is not a value".into()),
    })
}

fn first_line(s: &str) -> String {
    let line = s.lines().next().unwrap_or("").trim();
    let mut c = line.chars();
    match c.next() {
        Some(f) => f.to_lowercase().chain(c).collect(),
        None => "invalid TOML".into(),
    }
}
