//! Printing a table as a real aligned table (for `table show`).

use super::key::Key;
use super::table::{Table, TableKind};

/// Lays out `rows` (the first is the header) in aligned columns with a rule under the
/// header; numeric columns are right-aligned.
fn grid(rows: &[Vec<String>]) -> String {
    let n = rows.iter().map(Vec::len).max().unwrap_or(0);
    let width = |i: usize| {
        rows.iter()
            .filter_map(|r| r.get(i))
            .map(|s| s.chars().count())
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..n).map(width).collect();
    let numeric: Vec<bool> = (0..n)
        .map(|i| {
            rows.iter()
                .skip(1)
                .filter_map(|r| r.get(i))
                .all(|s| s.parse::<f64>().is_ok())
        })
        .collect();
    let mut out = String::new();
    for (ri, row) in rows.iter().enumerate() {
        let line: Vec<String> = (0..n)
            .map(|i| {
                let s = row.get(i).map_or("", String::as_str);
                if numeric[i] && i > 0 {
                    format!("{s:>w$}", w = widths[i])
                } else {
                    format!("{s:<w$}", w = widths[i])
                }
            })
            .collect();
        out.push_str("  ");
        out.push_str(line.join("  ").trim_end());
        out.push('\n');
        if ri == 0 {
            let rule: Vec<String> = widths.iter().map(|w| "─".repeat(*w)).collect();
            out.push_str("  ");
            out.push_str(&rule.join("  "));
            out.push('\n');
        }
    }
    out
}

impl Table {
    /// The table as text: a title line (name, dice, doc), then the rows in aligned columns.
    pub fn render(&self) -> String {
        let mut title = self.name.clone();
        if let Some(d) = &self.dice {
            title.push_str(&format!(" ({d})"));
        }
        if !self.doc.is_empty() {
            title.push_str(&format!(" — {}", self.doc));
        }
        title.push('\n');
        let rows: Vec<Vec<String>> = match &self.kind {
            TableKind::Dice { rows } => {
                let mut out = vec![vec![self.dice.clone().unwrap_or_default(), "result".into()]];
                out.extend(
                    rows.iter()
                        .map(|r| vec![r.range.to_string(), r.value.to_string()]),
                );
                out
            }
            TableKind::Cross {
                row_title,
                col_title,
                rows,
                cols,
                cells,
            } => {
                let corner = match (row_title.is_empty(), col_title.is_empty()) {
                    (true, true) => String::new(),
                    _ => format!("{row_title} \\ {col_title}"),
                };
                let mut out = vec![
                    std::iter::once(corner)
                        .chain(cols.iter().map(Key::to_string))
                        .collect(),
                ];
                out.extend(rows.iter().zip(cells).map(|(k, r)| {
                    std::iter::once(k.to_string())
                        .chain(r.iter().map(|c| c.to_string()))
                        .collect()
                }));
                out
            }
            TableKind::Lookup { entries } => {
                let mut out = vec![vec!["key".to_string(), "value".to_string()]];
                out.extend(entries.iter().map(|(k, v)| vec![k.clone(), v.to_string()]));
                out
            }
        };
        title + &grid(&rows)
    }
}
