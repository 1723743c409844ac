//! Checking a table when it is loaded or built: the dice parse, rows do not overlap or
//! leave gaps, every roll of the dice has a row, grids are rectangular, keys are unique.

use super::error::{TableError, TableErrorKind};
use super::key::{Flaw, Key, Range, check_ranges};
use super::table::{Loc, Table, TableKind};
use crate::dice;

impl Table {
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
