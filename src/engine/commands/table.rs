//! The table commands: `table list`, `table show`, `table roll`, `table lookup`, `table load`.

use serde_json::json;

use crate::engine::commands::game::read_file;
use crate::engine::error::CommandError;
use crate::engine::line::{CommandLine, Word};
use crate::engine::output::{Block, Output, Text};
use crate::engine::session::{Context, reborrow};
use crate::engine::style::Style;
use crate::tables::{Table, TableSet};

const USAGE: &str = "table list · table show NAME · table roll NAME [+N] [COLUMN] · table lookup NAME ROW [COLUMN] · table load FILE";

fn table_err(e: impl std::fmt::Display, span: crate::span::Span) -> CommandError {
    CommandError::invalid(e.to_string(), None, span)
}

/// The table a command names, or an error under its name that lists the tables.
fn find<'t>(tables: &'t TableSet, w: &Word) -> Result<&'t Table, CommandError> {
    tables.get(&w.text).map_err(|e| table_err(e, w.span))
}

/// `table …`.
pub fn table(ctx: &mut Context<'_>, cmd: &CommandLine) -> Result<Output, CommandError> {
    let Some(action) = cmd.args.first() else {
        return Err(CommandError::usage(
            "`table` needs an action",
            USAGE,
            cmd.rest_span(),
        ));
    };
    let args = &cmd.args[1..];
    let name = || {
        args.first().ok_or_else(|| {
            CommandError::usage(
                format!("`table {}` needs a table name", action.text),
                USAGE,
                cmd.rest_span(),
            )
        })
    };
    match action.text.as_str() {
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
            let w = name()?;
            let tables = ctx.state.all_tables();
            let table = find(&tables, w)?;
            Ok(Output::new("table")
                .field("table", serde_json::to_value(table).unwrap_or_default())
                .text(Text::from_plain(table.render())))
        }
        "roll" => {
            let w = name()?;
            let mut modifier = 0;
            let mut column = None;
            for a in &args[1..] {
                match a.text.parse::<i64>() {
                    Ok(m) => modifier = m,
                    Err(_) => column = Some(a),
                }
            }
            let table = find(&ctx.state.all_tables(), w)?.clone();
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
            let w = name()?;
            let tables = ctx.state.all_tables();
            let table = find(&tables, w)?;
            let keys: Vec<&str> = args[1..].iter().map(|a| a.text.as_str()).collect();
            let found = table
                .lookup_args(&keys)
                .map_err(|e| table_err(e, cmd.rest_span()))?;
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
            let w = name()?;
            let text = read_file(w, ctx.state.limits.file)?;
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
        other => Err(CommandError::usage(
            format!("unknown `table` action `{other}`"),
            USAGE,
            action.span,
        )),
    }
}
