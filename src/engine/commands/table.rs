//! The table commands: `table list`, `table show`, `table roll`, `table lookup`, `table load`.

use serde_json::json;

use crate::engine::commands::game::read_file;
use crate::engine::error::CommandError;
use crate::engine::output::{Block, Output, Text};
use crate::engine::registry::Invocation;
use crate::engine::session::{Context, reborrow};
use crate::engine::style::Style;
use crate::tables::{Table, TableSet};

fn table_err(e: impl std::fmt::Display, span: crate::span::Span) -> CommandError {
    CommandError::invalid(e.to_string(), None, span)
}

/// A parameter's text and span.
struct Named {
    text: String,
    span: crate::span::Span,
}

fn named(inv: &Invocation<'_>, name: &str) -> Option<Named> {
    let a = inv.args.get(name)?;
    Some(Named {
        text: inv.args.text(name).map_or_else(
            || inv.line.line[a.span.start..a.span.end].to_string(),
            str::to_string,
        ),
        span: a.span,
    })
}

/// The table a command names, or an error under its name that lists the tables.
fn find<'t>(tables: &'t TableSet, w: &Named) -> Result<&'t Table, CommandError> {
    tables.get(&w.text).map_err(|e| table_err(e, w.span))
}

/// `table …`.
pub fn table(ctx: &mut Context<'_>, inv: &Invocation<'_>) -> Result<Output, CommandError> {
    let name = || -> Result<Named, CommandError> {
        Ok(named(inv, "table").expect("the signature requires TABLE"))
    };
    match inv.args.sub().unwrap_or_default() {
        "list" => {
            let mut t = Text::new();
            let mut names = Vec::new();
            for (i, table) in ctx.state.all_tables().iter().enumerate() {
                if i > 0 {
                    t = t.plain("\n");
                }
                t = t
                    .push(Style::Strong, table.name.clone())
                    .push(Style::Dim, format!("  {}", table.doc));
                names.push(table.name.clone());
            }
            if names.is_empty() {
                t = t.plain("no tables loaded (`table load FILE`)");
            }
            Ok(Output::new("table").field("tables", json!(names)).text(t))
        }
        "show" => {
            let w: Named = name()?;
            let tables = ctx.state.all_tables();
            let table = find(&tables, &w)?;
            Ok(Output::new("table")
                .field("table", serde_json::to_value(table).unwrap_or_default())
                .text(Text::from_plain(table.render())))
        }
        "roll" => {
            let w: Named = name()?;
            let modifier = inv.args.int("modifier").unwrap_or(0);
            let column = named(inv, "column");
            let column = column.as_ref();
            let table = find(&ctx.state.all_tables(), &w)?.clone();
            let saved = ctx.state.dice.clone();
            let rolled = {
                let mut source = ctx.state.dice.source(reborrow(&mut ctx.entry));
                match column {
                    Some(c) => table.roll_column(&c.text, modifier, &mut source),
                    None => table.roll(modifier, &mut source),
                }
            };
            let r = rolled.map_err(|e| {
                ctx.state.dice = saved;
                table_err(e, column.map_or(w.span, |c| c.span))
            })?;
            ctx.state.record_roll(&r.roll);
            let summary = r.summary(&r.roll.expr());
            Ok(Output::new("table")
                .field("roll", serde_json::to_value(&r).unwrap_or_default())
                .block(Block::Roll(r.roll.clone()))
                .text(
                    Text::new()
                        .push(Style::Strong, format!("{}: ", table.name))
                        .plain(summary),
                ))
        }
        "lookup" => {
            let w: Named = name()?;
            let tables = ctx.state.all_tables();
            let table = find(&tables, &w)?;
            let mut keys: Vec<&str> = vec![inv.args.text("row").unwrap_or_default()];
            keys.extend(inv.args.text("column"));
            let found = table
                .lookup_args(&keys)
                .map_err(|e| table_err(e, inv.line.rest_span()))?;
            let clamp = if found.clamped {
                " (clamped to the table's end)"
            } else {
                ""
            };
            let key = match &found.col {
                Some(c) => format!("{} × {c}", found.row),
                None => found.row.clone(),
            };
            Ok(Output::new("table")
                .field("lookup", serde_json::to_value(&found).unwrap_or_default())
                .text(
                    Text::new()
                        .push(Style::Strong, format!("{}: ", table.name))
                        .plain(format!("{key} → {}{clamp}", found.value)),
                ))
        }
        "load" => {
            let w = named(inv, "file").expect("the signature requires FILE");
            let text = read_file(inv, ctx.state.limits.file)?;
            let n = ctx
                .state
                .tables
                .load_toml(&w.text, &text)
                .map_err(|e| table_err(e, w.span))?;
            Ok(Output::new("table")
                .field("loaded", n)
                .text(Text::from_plain(format!(
                    "loaded {n} tables from {}",
                    w.text
                ))))
        }
        other => unreachable!("the signature has no `table {other}`"),
    }
}
