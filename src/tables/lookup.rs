//! Looking things up in a table: a row by total, a cell by row and column, a value by key.

use super::error::{TableError, TableErrorKind};
use super::key::{Key, Range};
use super::table::{Lookup, Table, TableKind};

impl Table {
    /// The row of a dice table for a (modified) total, clamped to the table's ends.
    pub fn at(&self, total: i64) -> Result<Lookup, TableError> {
        match &self.kind {
            TableKind::Dice { rows } => {
                let keys: Vec<Range> = rows.iter().map(|r| r.range).collect();
                let (clamped, row) = clamp_to(&keys, total);
                Ok(Lookup {
                    row: rows[row].range.to_string(),
                    col: None,
                    clamped: clamped != total,
                    value: rows[row].value.clone(),
                })
            }
            _ => Err(
                TableErrorKind::Usage(format!("table `{}` is not a dice table", self.name)).into(),
            ),
        }
    }

    /// The value at row `row`, column `col` of a cross table. Keys match a name without
    /// regard to case, or a number in a range; numbers beyond the ends are clamped.
    pub fn lookup(&self, row: &str, col: &str) -> Result<Lookup, TableError> {
        let TableKind::Cross {
            rows, cols, cells, ..
        } = &self.kind
        else {
            return Err(TableErrorKind::Usage(format!(
                "table `{}` is not a cross-reference table: look it up with one key",
                self.name
            ))
            .into());
        };
        let (r, rc) = self.find_key(rows, row, "row")?;
        let (c, cc) = self.find_key(cols, col, "column")?;
        Ok(Lookup {
            row: rows[r].to_string(),
            col: Some(cols[c].to_string()),
            clamped: rc || cc,
            value: cells[r][c].clone(),
        })
    }

    /// The value for `key` in a lookup table (or the row for a number in a dice table).
    pub fn get(&self, key: &str) -> Result<Lookup, TableError> {
        match &self.kind {
            TableKind::Lookup { entries } => entries
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(key.trim()))
                .map(|(k, v)| Lookup {
                    row: k.clone(),
                    col: None,
                    clamped: false,
                    value: v.clone(),
                })
                .ok_or_else(|| {
                    TableErrorKind::UnknownKey {
                        table: self.name.clone(),
                        axis: "key",
                        key: key.to_string(),
                        valid: entries.iter().map(|(k, _)| k.clone()).collect(),
                    }
                    .into()
                }),
            TableKind::Dice { .. } => match key.trim().replace('−', "-").parse::<i64>() {
                Ok(n) => self.at(n),
                Err(_) => Err(TableErrorKind::Usage(format!(
                    "table `{}` is a dice table: look up a number, found `{key}`",
                    self.name
                ))
                .into()),
            },
            TableKind::Cross { .. } => Err(TableErrorKind::Usage(format!(
                "table `{}` is a cross-reference table: look up a row and a column",
                self.name
            ))
            .into()),
        }
    }

    /// Looks up with the keys the umpire typed: one key for a lookup or dice table, a row
    /// and a column for a cross table.
    pub fn lookup_args(&self, keys: &[&str]) -> Result<Lookup, TableError> {
        match (&self.kind, keys) {
            (TableKind::Cross { .. }, [row, col]) => self.lookup(row, col),
            (TableKind::Cross { .. }, _) => Err(TableErrorKind::Usage(format!(
                "table `{}` needs a row and a column, found {} key(s)",
                self.name,
                keys.len()
            ))
            .into()),
            (_, [key]) => self.get(key),
            _ => Err(TableErrorKind::Usage(format!(
                "table `{}` needs one key, found {}",
                self.name,
                keys.len()
            ))
            .into()),
        }
    }

    /// The index of the key matching `text`, and whether a number was clamped.
    pub(crate) fn find_key(
        &self,
        keys: &[Key],
        text: &str,
        axis: &'static str,
    ) -> Result<(usize, bool), TableError> {
        let t = text.trim();
        if let Some(i) = keys.iter().position(|k| match k {
            Key::Name(n) => n.eq_ignore_ascii_case(t),
            Key::Range(r) => r.to_string() == t,
        }) {
            return Ok((i, false));
        }
        if let Ok(n) = t.replace('−', "-").parse::<i64>() {
            let ranges: Option<Vec<Range>> = keys
                .iter()
                .map(|k| match k {
                    Key::Range(r) => Some(*r),
                    Key::Name(_) => None,
                })
                .collect();
            if let Some(rs) = ranges.filter(|r| !r.is_empty()) {
                let (clamped, i) = clamp_to(&rs, n);
                return Ok((i, clamped != n));
            }
        }
        Err(TableErrorKind::UnknownKey {
            table: self.name.clone(),
            axis,
            key: text.to_string(),
            valid: keys.iter().map(Key::to_string).collect(),
        }
        .into())
    }
}

/// `v` clamped to the span of `ranges` (which do not overlap and leave no gaps), and the
/// index of the range holding it.
pub(crate) fn clamp_to(ranges: &[Range], v: i64) -> (i64, usize) {
    let lo = ranges.iter().filter_map(|r| r.lo).min();
    let hi = ranges.iter().filter_map(|r| r.hi).max();
    let unbounded_lo = ranges.iter().any(|r| r.lo.is_none());
    let unbounded_hi = ranges.iter().any(|r| r.hi.is_none());
    let mut c = v;
    if !unbounded_lo && let Some(lo) = lo {
        c = c.max(lo);
    }
    if !unbounded_hi && let Some(hi) = hi {
        c = c.min(hi);
    }
    let row = ranges
        .iter()
        .position(|r| r.contains(c))
        .unwrap_or_else(|| {
            // Only with gaps (tables built without checks): take the nearest row below.
            ranges
                .iter()
                .enumerate()
                .filter(|(_, r)| r.hi.is_some_and(|h| h < c))
                .max_by_key(|(_, r)| r.hi)
                .map_or(0, |(i, _)| i)
        });
    (c, row)
}
