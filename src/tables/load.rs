//! Loading tables from TOML (the format is in `docs/tables.md`):
//!
//! ```toml
//! [terrain]
//! doc = "FLD §14 terrain generation"
//! dice = "d8"
//! [terrain.rows]
//! 1-4 = "open"
//! 5 = "gentle hill"
//! "9+" = "impassable"
//!
//! [combat]
//! row_title = "your level"
//! col_title = "their level"
//! cols = [1, 2, 3, 4, 5, 6]
//! [combat.rows]
//! 1 = [4, 5, 5, 6, 6, 6]
//!
//! [weapons.entries]
//! spear = { range = 0, factor = 1 }
//! ```
//!
//! Ranges are checked for overlaps and gaps on load; errors name the file, line and column
//! of the offending row or column key.

use indexmap::IndexMap;
use toml::de::{DeTable, DeValue};

use super::cell::Cell;
use super::error::{TableError, TableErrorKind};
use super::key::{Key, Range};
use super::table::{Loc, RangeRow, Table, TableKind};
use crate::state::toml_doc::{Doc, SValue, get};

const KEYS: &[&str] = &[
    "doc",
    "dice",
    "rows",
    "cols",
    "row_title",
    "col_title",
    "entries",
];

/// Reads every table in the TOML text `src` of `file`, in file order.
pub fn load_tables(file: &str, src: &str) -> Result<Vec<Table>, TableError> {
    let doc = Doc { file, src };
    let root = doc.parse()?;
    let mut out = Vec::new();
    for (name, v) in root.get_ref().iter() {
        let name_s = name.get_ref().to_string();
        let t = doc.table(v, &format!("table `{name_s}`"))?;
        doc.only_keys(t, KEYS, &format!("table `{name_s}`"))?;
        let (table, spans) = table(&doc, &name_s, t, v)?;
        if let Err((kind, loc)) = table.flaw() {
            let at = match loc {
                Loc::Table => name.span(),
                Loc::Row(i) => spans.rows.get(i).cloned().unwrap_or(name.span()),
                Loc::Col(i) => spans.cols.get(i).cloned().unwrap_or(name.span()),
            };
            return Err(TableError::from(kind).in_file(file, src, at.start));
        }
        if out.iter().any(|t: &Table| t.name == name_s) {
            return Err(TableError::from(TableErrorKind::Duplicate(name_s)).in_file(
                file,
                src,
                name.span().start,
            ));
        }
        out.push(table);
    }
    Ok(out)
}

#[derive(Default)]
struct Spans {
    rows: Vec<std::ops::Range<usize>>,
    cols: Vec<std::ops::Range<usize>>,
}

fn table(
    doc: &Doc<'_>,
    name: &str,
    t: &DeTable<'_>,
    whole: &SValue<'_>,
) -> Result<(Table, Spans), TableError> {
    let text = |key: &str| -> Result<Option<String>, TableError> {
        Ok(match get(t, key) {
            Some(v) => Some(doc.str(v, &format!("`{key}`"))?.to_string()),
            None => None,
        })
    };
    let mut spans = Spans::default();
    let doc_line = text("doc")?.unwrap_or_default();
    let dice = text("dice")?;
    let kind = if let Some(entries) = get(t, "entries") {
        for k in ["rows", "cols", "dice"] {
            if let Some(v) = get(t, k) {
                return Err(doc
                    .format(
                        v.span(),
                        format!("a lookup table (with `entries`) has no `{k}`"),
                    )
                    .into());
            }
        }
        let mut list = Vec::new();
        for (k, v) in doc.table(entries, "`entries`")?.iter() {
            spans.rows.push(k.span());
            list.push((k.get_ref().to_string(), cell(doc, v)?));
        }
        TableKind::Lookup { entries: list }
    } else if let Some(cols) = get(t, "cols") {
        let mut col_keys = Vec::new();
        for c in doc.array(cols, "`cols`")? {
            spans.cols.push(c.span());
            col_keys.push(key(doc, c)?);
        }
        let Some(rows) = get(t, "rows") else {
            return Err(doc
                .format(
                    whole.span(),
                    format!(
                        "cross table `{name}` needs `[{name}.rows]`: a row key = [cells…] per row"
                    ),
                )
                .into());
        };
        let mut row_keys = Vec::new();
        let mut cells = Vec::new();
        for (k, v) in doc.table(rows, "`rows`")?.iter() {
            spans.rows.push(k.span());
            row_keys.push(Key::parse(k.get_ref()));
            cells.push(
                doc.array(v, &format!("row `{}`", k.get_ref()))?
                    .iter()
                    .map(|c| cell(doc, c))
                    .collect::<Result<Vec<_>, _>>()?,
            );
        }
        TableKind::Cross {
            row_title: text("row_title")?.unwrap_or_default(),
            col_title: text("col_title")?.unwrap_or_default(),
            rows: row_keys,
            cols: col_keys,
            cells,
        }
    } else if let Some(rows) = get(t, "rows") {
        for k in ["row_title", "col_title"] {
            if let Some(v) = get(t, k) {
                return Err(doc
                    .format(v.span(), format!("`{k}` is for cross tables (with `cols`)"))
                    .into());
            }
        }
        if dice.is_none() {
            return Err(doc
                .format(whole.span(), format!("dice table `{name}` needs `dice = \"d6\"` (or `cols` for a cross table, `entries` for a lookup)"))
                .into());
        }
        let mut list = Vec::new();
        for (k, v) in doc.table(rows, "`rows`")?.iter() {
            spans.rows.push(k.span());
            let Some(range) = Range::parse(k.get_ref()) else {
                return Err(doc
                    .format(
                        k.span(),
                        format!(
                            "`{}` is not a range: use `5`, `1-4`, `9+` or `<=0`",
                            k.get_ref()
                        ),
                    )
                    .into());
            };
            list.push(RangeRow {
                range,
                value: cell(doc, v)?,
            });
        }
        TableKind::Dice { rows: list }
    } else {
        return Err(doc
            .format(
                whole.span(),
                format!(
                    "table `{name}` needs `rows` (a dice or cross table) or `entries` (a lookup)"
                ),
            )
            .into());
    };
    Ok((
        Table {
            name: name.to_string(),
            doc: doc_line,
            dice,
            kind,
        },
        spans,
    ))
}

fn key(doc: &Doc<'_>, v: &SValue<'_>) -> Result<Key, TableError> {
    match v.get_ref() {
        DeValue::String(s) => Ok(Key::parse(s)),
        DeValue::Integer(_) => {
            let n = doc.int(v, "a column key")?;
            Ok(Key::Range(Range::new(n, n)))
        }
        other => Err(doc
            .format(
                v.span(),
                format!(
                    "a column key is a number, a range or a name, found {}",
                    other.type_str()
                ),
            )
            .into()),
    }
}

fn cell(doc: &Doc<'_>, v: &SValue<'_>) -> Result<Cell, TableError> {
    Ok(match v.get_ref() {
        DeValue::String(s) => Cell::Text(s.to_string()),
        DeValue::Integer(_) => Cell::Int(doc.int(v, "a value")?),
        DeValue::Float(_) => Cell::Num(doc.num(v, "a value")?),
        DeValue::Table(t) => {
            let mut r = IndexMap::new();
            for (k, v) in t.iter() {
                r.insert(k.get_ref().to_string(), cell(doc, v)?);
            }
            Cell::Record(r)
        }
        other => {
            return Err(doc
                .format(
                    v.span(),
                    format!(
                        "a table value is text, a number or a record, found {}",
                        other.type_str()
                    ),
                )
                .into());
        }
    })
}
