//! The tables a session knows, by name, in the order they were loaded (`table list`).

use indexmap::IndexMap;

use super::error::{TableError, TableErrorKind};
use super::load::load_tables;
use super::table::Table;

/// Tables by name, in load order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TableSet {
    tables: IndexMap<String, Table>,
}

impl TableSet {
    /// An empty set.
    pub fn new() -> Self {
        TableSet::default()
    }

    /// Adds a table after checking it; a second table of the same name is an error.
    pub fn insert(&mut self, table: Table) -> Result<(), TableError> {
        table.check()?;
        if self.tables.contains_key(&table.name) {
            return Err(TableErrorKind::Duplicate(table.name).into());
        }
        self.tables.insert(table.name.clone(), table);
        Ok(())
    }

    /// Loads every table in a TOML file; all or nothing.
    pub fn load_toml(&mut self, file: &str, src: &str) -> Result<usize, TableError> {
        let tables = load_tables(file, src)?;
        if let Some(t) = tables.iter().find(|t| self.tables.contains_key(&t.name)) {
            return Err(
                TableError::from(TableErrorKind::Duplicate(t.name.clone())).in_file(file, src, 0)
            );
        }
        let n = tables.len();
        for t in tables {
            self.tables.insert(t.name.clone(), t);
        }
        Ok(n)
    }

    /// The table `name`, or an error suggesting the nearest names.
    pub fn get(&self, name: &str) -> Result<&Table, TableError> {
        self.tables.get(name).ok_or_else(|| {
            TableErrorKind::UnknownTable {
                name: name.to_string(),
                suggestions: crate::state::error::nearest(
                    name,
                    self.tables.keys().map(String::as_str),
                ),
            }
            .into()
        })
    }

    /// Every table, in load order.
    pub fn iter(&self) -> impl Iterator<Item = &Table> + '_ {
        self.tables.values()
    }

    /// Table names starting with `partial`, for completion.
    pub fn complete(&self, partial: &str) -> Vec<String> {
        self.tables
            .keys()
            .filter(|k| k.starts_with(partial))
            .cloned()
            .collect()
    }

    /// How many tables.
    pub fn len(&self) -> usize {
        self.tables.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.tables.is_empty()
    }
}
