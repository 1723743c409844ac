//! A table: a dice-range table, a cross-reference table or a keyed lookup; rolling on it
//! through the dice module and looking things up in it.

use serde::{Deserialize, Serialize};

use super::cell::Cell;
use super::error::{TableError, TableErrorKind};
use super::key::{Flaw, Key, Range, check_ranges};
use crate::dice::{self, DiceSource, Limits, Roll};

/// One row of a dice-range table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RangeRow {
    /// The (modified) rolls it covers.
    pub range: Range,
    /// What it gives.
    pub value: Cell,
}

/// The three kinds of table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TableKind {
    /// Roll the dice, add the modifier, clamp to the table's ends, read the row.
    Dice {
        /// Its rows, in order.
        rows: Vec<RangeRow>,
    },
    /// Row key × column key → value, like a combat table. If the table has dice, the row
    /// can be rolled for a given column.
    Cross {
        /// What the rows are (`own level`), for the header.
        #[serde(default)]
        row_title: String,
        /// What the columns are (`opponent level`).
        #[serde(default)]
        col_title: String,
        /// Row keys, in order.
        rows: Vec<Key>,
        /// Column keys, in order.
        cols: Vec<Key>,
        /// `cells[row][col]`.
        cells: Vec<Vec<Cell>>,
    },
    /// Name → value.
    Lookup {
        /// The entries, in order.
        entries: Vec<(String, Cell)>,
    },
}

/// A named table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Table {
    /// Its name (`terrain`).
    pub name: String,
    /// A one-line description (`FLD §14 terrain generation`).
    #[serde(default)]
    pub doc: String,
    /// The dice rolled on it (`d8`, `2d6`), for dice tables and rollable cross tables.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dice: Option<String>,
    /// Its rows and values.
    #[serde(flatten)]
    pub kind: TableKind,
}

/// Where a table's flaw is (for placing a load error on the right key).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Loc {
    Table,
    Row(usize),
    Col(usize),
}

/// The result of rolling on a table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TableRoll {
    /// The table's name.
    pub table: String,
    /// The roll, with every die (for the journal and the breakdown).
    pub roll: Roll,
    /// The dice total.
    pub raw: i64,
    /// The modifier added.
    pub modifier: i64,
    /// Total plus modifier.
    pub total: i64,
    /// The value read from the table: `total` clamped to the table's ends.
    pub clamped: i64,
    /// The column used, for a cross table.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<String>,
    /// The index of the row read.
    pub row: usize,
    /// The row's range as written (`1-4`).
    pub range: String,
    /// What the table gives.
    pub value: Cell,
}

impl TableRoll {
    /// `d8 6 +2 = 8 → 8: Built-up area`, or with clamping `d8 8 +2 = 10 → 9+: Impassable`.
    pub fn summary(&self, dice: &str) -> String {
        let m = match self.modifier {
            0 => String::new(),
            m if m > 0 => format!(" +{m}"),
            m => format!(" −{}", -m),
        };
        let clamp = if self.clamped != self.total {
            format!(" (clamped to {})", self.clamped)
        } else {
            String::new()
        };
        format!(
            "{} {}{m} = {}{clamp} → {}: {}",
            dice, self.raw, self.total, self.range, self.value
        )
    }
}

/// The result of a lookup, saying whether a numeric key was clamped to the table's ends.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Lookup {
    /// The row key used (`4-6`).
    pub row: String,
    /// The column key used, for a cross table.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub col: Option<String>,
    /// Whether a numeric key was outside the table and clamped to its ends.
    pub clamped: bool,
    /// What the table gives.
    pub value: Cell,
}

impl Table {
    /// A dice table from `(range, value)` rows, checked for overlaps and gaps.
    pub fn dice(name: &str, dice: &str, rows: Vec<(Range, Cell)>) -> Result<Table, TableError> {
        let t = Table {
            name: name.into(),
            doc: String::new(),
            dice: Some(dice.into()),
            kind: TableKind::Dice {
                rows: rows
                    .into_iter()
                    .map(|(range, value)| RangeRow { range, value })
                    .collect(),
            },
        };
        t.check()?;
        Ok(t)
    }

    /// Checks the table: dice parse, rows do not overlap or leave gaps, every roll of the
    /// dice has a row, grids are rectangular, keys are unique.
    pub fn check(&self) -> Result<(), TableError> {
        self.flaw().map_err(|(k, _)| k.into())
    }

    pub(crate) fn flaw(&self) -> Result<(), (TableErrorKind, Loc)> {
        let dice_range = match &self.dice {
            Some(d) => Some(dice_span(d).map_err(|e| (e, Loc::Table))?),
            None => None,
        };
        let ranges =
            |keys: &[Option<Range>], labels: &[String], loc: fn(usize) -> Loc, cover: bool| {
                let rs: Vec<Range> = keys.iter().flatten().copied().collect();
                if rs.len() != keys.len() {
                    return Ok(()); // Names mixed in: no range checks.
                }
                check_ranges(&rs, true).map_err(|(i, j, f)| flaw_kind(labels, i, j, f, loc))?;
                if let (Some((lo, hi)), false, true) = (dice_range, rs.is_empty(), cover) {
                    let min = rs
                        .iter()
                        .map(|r| r.lo.unwrap_or(i64::MIN))
                        .min()
                        .unwrap_or(0);
                    let max = rs
                        .iter()
                        .map(|r| r.hi.unwrap_or(i64::MAX))
                        .max()
                        .unwrap_or(0);
                    let missing = if lo < min {
                        Some(Range::new(lo, (min - 1).min(hi)))
                    } else if hi > max {
                        Some(Range::new(lo.max(max + 1), hi))
                    } else {
                        None
                    };
                    if let Some(m) = missing {
                        return Err((
                            TableErrorKind::Uncovered {
                                dice: self.dice.clone().unwrap_or_default(),
                                missing: m.to_string(),
                            },
                            Loc::Table,
                        ));
                    }
                }
                Ok(())
            };
        match &self.kind {
            TableKind::Dice { rows } => {
                if rows.is_empty() {
                    return Err((
                        TableErrorKind::Format("a dice table needs rows".into()),
                        Loc::Table,
                    ));
                }
                let keys: Vec<Option<Range>> = rows.iter().map(|r| Some(r.range)).collect();
                let labels: Vec<String> = rows.iter().map(|r| r.range.to_string()).collect();
                ranges(&keys, &labels, Loc::Row, true)
            }
            TableKind::Cross {
                rows, cols, cells, ..
            } => {
                if cells.len() != rows.len() {
                    return Err((
                        TableErrorKind::Format(format!(
                            "{} rows of cells for {} row keys",
                            cells.len(),
                            rows.len()
                        )),
                        Loc::Table,
                    ));
                }
                for (i, r) in cells.iter().enumerate() {
                    if r.len() != cols.len() {
                        return Err((
                            TableErrorKind::Format(format!(
                                "row `{}` has {} cells but the table has {} columns",
                                rows[i],
                                r.len(),
                                cols.len()
                            )),
                            Loc::Row(i),
                        ));
                    }
                }
                // Only the rows are rolled on, so only they must cover the dice.
                for (keys, loc, cover) in [
                    (rows, Loc::Row as fn(usize) -> Loc, true),
                    (cols, Loc::Col, false),
                ] {
                    let labels: Vec<String> = keys.iter().map(Key::to_string).collect();
                    for (i, l) in labels.iter().enumerate() {
                        if labels[..i].iter().any(|x| x.eq_ignore_ascii_case(l)) {
                            return Err((
                                TableErrorKind::Format(format!("key `{l}` appears twice")),
                                loc(i),
                            ));
                        }
                    }
                    let rs: Vec<Option<Range>> = keys
                        .iter()
                        .map(|k| match k {
                            Key::Range(r) => Some(*r),
                            Key::Name(_) => None,
                        })
                        .collect();
                    ranges(&rs, &labels, loc, cover)?;
                }
                Ok(())
            }
            TableKind::Lookup { entries } => {
                for (i, (k, _)) in entries.iter().enumerate() {
                    if entries[..i].iter().any(|(x, _)| x.eq_ignore_ascii_case(k)) {
                        return Err((
                            TableErrorKind::Format(format!("key `{k}` appears twice")),
                            Loc::Row(i),
                        ));
                    }
                }
                Ok(())
            }
        }
    }

    /// Rolls the table's dice through `source`, adds `modifier`, clamps to the table's ends
    /// and reads the row. For a cross table with dice, use [`Table::roll_column`].
    pub fn roll(
        &self,
        modifier: i64,
        source: &mut dyn DiceSource,
    ) -> Result<TableRoll, TableError> {
        match &self.kind {
            TableKind::Dice { rows } => {
                let keys: Vec<Range> = rows.iter().map(|r| r.range).collect();
                let (roll, raw, total, clamped, row) = self.roll_rows(&keys, modifier, source)?;
                Ok(TableRoll {
                    table: self.name.clone(),
                    roll,
                    raw,
                    modifier,
                    total,
                    clamped,
                    column: None,
                    row,
                    range: rows[row].range.to_string(),
                    value: rows[row].value.clone(),
                })
            }
            TableKind::Cross { .. } => Err(TableErrorKind::Usage(format!(
                "table `{}` is a cross-reference table: roll it for a column (`table roll {} COLUMN`) or look up a row and a column",
                self.name, self.name
            ))
            .into()),
            TableKind::Lookup { .. } => Err(TableErrorKind::Usage(format!(
                "table `{}` is a lookup table: there is nothing to roll, look up a key",
                self.name
            ))
            .into()),
        }
    }

    /// Rolls the row of a cross table that has dice, for column `col`.
    pub fn roll_column(
        &self,
        col: &str,
        modifier: i64,
        source: &mut dyn DiceSource,
    ) -> Result<TableRoll, TableError> {
        let TableKind::Cross {
            rows, cols, cells, ..
        } = &self.kind
        else {
            return self.roll(modifier, source);
        };
        let (c, _) = self.find_key(cols, col, "column")?;
        let keys: Option<Vec<Range>> = rows
            .iter()
            .map(|k| match k {
                Key::Range(r) => Some(*r),
                Key::Name(_) => None,
            })
            .collect();
        let keys = keys.ok_or_else(|| {
            TableError::from(TableErrorKind::Usage(format!(
                "table `{}` has named rows: there is nothing to roll",
                self.name
            )))
        })?;
        let (roll, raw, total, clamped, row) = self.roll_rows(&keys, modifier, source)?;
        Ok(TableRoll {
            table: self.name.clone(),
            roll,
            raw,
            modifier,
            total,
            clamped,
            column: Some(cols[c].to_string()),
            row,
            range: rows[row].to_string(),
            value: cells[row][c].clone(),
        })
    }

    fn roll_rows(
        &self,
        keys: &[Range],
        modifier: i64,
        source: &mut dyn DiceSource,
    ) -> Result<(Roll, i64, i64, i64, usize), TableError> {
        let notation = self.dice.as_deref().ok_or_else(|| {
            TableError::from(TableErrorKind::Usage(format!(
                "table `{}` has no dice to roll",
                self.name
            )))
        })?;
        let expr = dice::parse(notation)?;
        let roll = dice::roll_expr(&expr.expr, source, &Limits::default())?;
        let raw = roll.total.round() as i64;
        let total = raw.saturating_add(modifier);
        let (clamped, row) = clamp_to(keys, total);
        Ok((roll, raw, total, clamped, row))
    }

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
    fn find_key(
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

fn flaw_kind(
    labels: &[String],
    i: usize,
    j: usize,
    f: Flaw,
    loc: fn(usize) -> Loc,
) -> (TableErrorKind, Loc) {
    match f {
        Flaw::Overlap(v) => (
            TableErrorKind::Overlap {
                first: labels[i].clone(),
                second: labels[j].clone(),
                value: v,
            },
            loc(j),
        ),
        Flaw::Gap(r) => (
            TableErrorKind::Gap {
                before: labels[i].clone(),
                after: labels[j].clone(),
                missing: r.to_string(),
            },
            loc(j),
        ),
    }
}

/// `v` clamped to the span of `ranges` (which do not overlap and leave no gaps), and the
/// index of the range holding it.
fn clamp_to(ranges: &[Range], v: i64) -> (i64, usize) {
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

/// The lowest and highest total the dice `notation` can roll.
fn dice_span(notation: &str) -> Result<(i64, i64), TableErrorKind> {
    let expr = dice::parse(notation).map_err(TableErrorKind::Dice)?;
    if let Ok(d) = dice::exact::distribution(&expr, &dice::ExactOptions::default())
        && let (Some(first), Some(last)) = (d.outcomes.first(), d.outcomes.last())
    {
        return Ok((first.0.round() as i64, last.0.round() as i64));
    }
    // Until the exact engine handles everything: `NdM`, `dM`, `NdM+K`, `NdM-K`.
    let t: String = notation.chars().filter(|c| !c.is_whitespace()).collect();
    let t = t.to_lowercase();
    let (dice_part, k) = match t.rfind(['+', '-']) {
        Some(i) if i > 0 => (&t[..i], t[i..].parse::<i64>().ok()),
        _ => (t.as_str(), Some(0)),
    };
    let parsed = dice_part.split_once('d').and_then(|(n, m)| {
        let n: i64 = if n.is_empty() { 1 } else { n.parse().ok()? };
        let m: i64 = if m == "%" { 100 } else { m.parse().ok()? };
        Some((n, m))
    });
    match (parsed, k) {
        (Some((n, m)), Some(k)) if n > 0 && m > 0 => Ok((n + k, n * m + k)),
        _ => Err(TableErrorKind::Usage(format!(
            "cannot tell which totals `{notation}` can roll: use dice like `d8` or `2d6+1`"
        ))),
    }
}
