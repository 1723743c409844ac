//! A table: a dice-range table, a cross-reference table or a keyed lookup; rolling on it
//! through the dice module and looking things up in it.

use serde::{Deserialize, Serialize};

use super::cell::Cell;
use super::error::{TableError, TableErrorKind};
use super::key::{Key, Range};
use super::lookup::clamp_to;
use crate::dice::{self, Caps, DiceSource, Roll};

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

    /// A cross-reference table (`cells[row][col]`), checked.
    pub fn cross(
        name: &str,
        rows: Vec<Key>,
        cols: Vec<Key>,
        cells: Vec<Vec<Cell>>,
    ) -> Result<Table, TableError> {
        let t = Table {
            name: name.into(),
            doc: String::new(),
            dice: None,
            kind: TableKind::Cross {
                row_title: String::new(),
                col_title: String::new(),
                rows,
                cols,
                cells,
            },
        };
        t.check()?;
        Ok(t)
    }

    /// A lookup table from `(key, value)` entries, checked.
    pub fn keyed(name: &str, entries: Vec<(String, Cell)>) -> Result<Table, TableError> {
        let t = Table {
            name: name.into(),
            doc: String::new(),
            dice: None,
            kind: TableKind::Lookup { entries },
        };
        t.check()?;
        Ok(t)
    }

    /// The same table with a doc line.
    pub fn with_doc(mut self, doc: impl Into<String>) -> Self {
        self.doc = doc.into();
        self
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
        let roll = dice::roll_expr(&expr.expr, source, &Caps::default())?;
        let raw = roll.total.round() as i64;
        let total = raw.saturating_add(modifier);
        let (clamped, row) = clamp_to(keys, total);
        Ok((roll, raw, total, clamped, row))
    }
}
