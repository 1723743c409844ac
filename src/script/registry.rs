//! [`Rules`]: everything a load registered — the ruleset's schema, sequence, tables and
//! variants, the commands and the event handlers — and the `umpire.ruleset`,
//! `umpire.command`, `umpire.on` and `umpire.table` functions that fill it.
//!
//! Registration tables are checked strictly: an unknown key, a missing one or a value of the
//! wrong type is an error naming it and the file and line of the call. A fresh [`Rules`] is
//! built on every load, so nothing is ever registered twice.

use std::fmt;
use std::path::PathBuf;

use indexmap::IndexMap;
use mlua::{Function, Lua, Table, Value};

use super::host::HostData;
use crate::state::{
    AttrDef, AttrType, Expiry, MarkerDef, Schema, Sequence, StatusSpec, StepDef, StrengthMax,
};
use crate::tables::{Cell, Key, Range, Table as RuleTable, TableSet};

/// The file and line a registration was made at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    /// The script, as Lua names it (`rulesets/demo/init.lua`).
    pub file: String,
    /// The line.
    pub line: usize,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

/// A variant of the ruleset (an older edition, an optional rule set).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variant {
    /// Its name, as typed in `ruleset use NAME VARIANT`.
    pub name: String,
    /// One line saying what it is.
    pub doc: String,
}

/// The type of a command argument; the shell parses and checks it before `run` is called.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ArgKind {
    /// One unit id (`"unit"`).
    Unit,
    /// One element (`"element"`): its id, or `UNIT.ELEMENT` as typed.
    Element,
    /// One side id (`"side"`).
    Side,
    /// One command id (`"group"`: a command of units, as `add command` makes).
    Group,
    /// A selector, one or more units (`"selector"`).
    Selector,
    /// Words of unit ids, `a+b` joining ids in one word, or one of `values` (`"units"`): the
    /// rest of the line, each id checked and completed; `run` gets the words as typed.
    UnitWords(Vec<String>),
    /// An integer (`"int"`).
    Int,
    /// A number (`"number"`).
    Number,
    /// A distance (`"distance"`): a number in the ruleset's unit, or with a unit of its own
    /// (`12"`, `30cm`) converted to it.
    Distance,
    /// A dice expression (`"dice"`).
    Dice,
    /// One of a list of words (`"choice"` with `values = {…}`).
    Choice(Vec<String>),
    /// A flag: present or not (`"flag"`).
    Flag,
    /// The rest of the line (`"text"`).
    Text,
}

/// One declared command argument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArgSpec {
    /// Its name: the key in `run`'s `args` table.
    pub name: String,
    /// Its type.
    pub kind: ArgKind,
    /// Whether it may be left out (flags always may).
    pub optional: bool,
    /// One line for `help`.
    pub help: String,
    /// Whether what is typed for it is for the umpire only (`secret = true`): kept in the
    /// journal, masked wherever the players may see the command.
    pub secret: bool,
}

/// A command registered with `umpire.command{name, args, help, run}`.
#[derive(Debug, Clone)]
pub struct CommandDef {
    /// The command word.
    pub name: String,
    /// The help text.
    pub help: String,
    /// Its arguments, in order.
    pub args: Vec<ArgSpec>,
    /// Where it was registered (shown by `help`).
    pub origin: Origin,
    /// Whether its output is for the umpire's eyes only (`secret = true`).
    pub secret: bool,
    pub(crate) run: Function,
}

/// An event handler registered with `umpire.on(event, fn)`.
#[derive(Debug, Clone)]
pub struct EventHandler {
    /// The event name (`unit_damaged`, `pre_shoot`…).
    pub event: String,
    /// Where it was registered.
    pub origin: Origin,
    /// Whether it runs at once when a script makes the change (`{ at_once = true }`; change
    /// events only), rather than after the command.
    pub at_once: bool,
    pub(crate) func: Function,
}

/// Named registry key of the handlers by event as the trusted Lua runs them at once:
/// `{all = {event = {fn…}}, at_once = {event = {fn…}}}`.
pub(crate) const LISTENERS_KEY: &str = "umpire.listeners";

/// Everything one load of the rules registered. Holds Lua functions: use it only with the
/// [`ScriptHost`](super::ScriptHost) it was loaded into.
#[derive(Debug, Clone, Default)]
pub struct Rules {
    /// The ruleset's name (`None` when only house rules are loaded).
    pub name: Option<String>,
    /// The ruleset's one-line description.
    pub doc: String,
    /// Where `umpire.ruleset` was called.
    pub origin: Option<Origin>,
    /// The unit schema, with the clock's sequence in [`Schema::sequence`].
    pub schema: Schema,
    /// Tables declared in the ruleset or with `umpire.table`.
    pub tables: TableSet,
    /// The declared variants.
    pub variants: Vec<Variant>,
    /// The unit its distances are in (`distance = "in"` or `"cm"`; inches unless declared):
    /// what a `distance` argument is converted to.
    pub distance: crate::distance::Unit,
    /// The active variant.
    pub variant: Option<String>,
    /// The commands, in registration order.
    pub commands: IndexMap<String, CommandDef>,
    /// The event handlers, in registration order.
    pub handlers: Vec<EventHandler>,
    /// The options (`umpire.option{…}`), in declaration order.
    pub options: Vec<super::options::OptionDef>,
    /// The check hooks (`umpire.hook`), in registration order; [`EventHandler::event`] is the
    /// hook point's name.
    pub hooks: Vec<EventHandler>,
    /// Every file loaded (ruleset, house rules, required modules).
    pub files: Vec<PathBuf>,
    /// The SHA-256 of every file loaded, as it was read, by its name as shown
    /// (`rulesets/olab/init.lua`): kept with the journal, so a game continued later can say
    /// which rule files changed in between.
    pub hashes: std::collections::BTreeMap<String, String>,
    /// The rules generation: 1 for the first load, bumped by every successful reload.
    pub generation: u64,
    /// [`Rules::hooks`] as the Lua table checks read (built once per load).
    pub(crate) hook_table: Option<Table>,
}

/// Where the Lua code that called the current Rust function is: the nearest frame of a rule
/// file (a registration made through `pcall(umpire.on, …)` is placed at the `pcall`; C
/// functions and umpire's own Lua, whose chunk names start with `=`, are skipped).
pub(super) fn caller(lua: &Lua) -> Origin {
    for level in 1..16 {
        let found = lua.inspect_stack(level, |d| {
            let src = d.source();
            let file = src.source.as_deref().unwrap_or("?");
            (src.what != "C" && !file.starts_with('=')).then(|| Origin {
                file: file.strip_prefix('@').unwrap_or(file).to_string(),
                line: d.current_line().unwrap_or(0),
            })
        });
        match found {
            Some(Some(origin)) => return origin,
            Some(None) => continue,
            None => break,
        }
    }
    Origin {
        file: "?".into(),
        line: 0,
    }
}

pub(super) fn fail<T>(origin: &Origin, msg: impl fmt::Display) -> mlua::Result<T> {
    Err(mlua::Error::runtime(format!("{origin}: {msg}")))
}

/// Checks a name a script registers (a command's argument, a table, a variant, an event…):
/// no control characters or bidirectional overrides (it is shown in lists and prompts), and
/// at most the `text` limit.
pub(super) fn check_name(lua: &Lua, origin: &Origin, name: &str, what: &str) -> mlua::Result<()> {
    crate::escape::check_name(name, what).or_else(|m| fail(origin, m))?;
    super::api::output::check_text(lua, name, &what)
        .map_err(|e| mlua::Error::runtime(format!("{origin}: {e}")))
}

/// Checks a text a script registers to be shown (a doc line: at most the `text` limit; a
/// command's help: at most the `output` limit).
pub(super) fn check_doc(
    lua: &Lua,
    origin: &Origin,
    text: &str,
    what: &str,
    long: bool,
) -> mlua::Result<()> {
    let limits = super::host::budgets(lua);
    let max = if long { limits.output } else { limits.text };
    if text.len() > max {
        return fail(
            origin,
            format!(
                "{what} is {} bytes, more than the {} it may have (the `{}` limit)",
                text.len(),
                super::data::shown_bytes(max),
                if long { "output" } else { "text" }
            ),
        );
    }
    Ok(())
}

/// Fails on any key of `t` not in `allowed`.
pub(super) fn check_keys(
    t: &Table,
    what: &str,
    allowed: &[&str],
    origin: &Origin,
) -> mlua::Result<()> {
    for pair in t.pairs::<Value, Value>() {
        let (k, _) = pair?;
        let ok = match &k {
            Value::String(s) => allowed.iter().any(|a| s.as_bytes() == a.as_bytes()),
            _ => false,
        };
        if !ok {
            let key = match &k {
                Value::String(s) => s.to_string_lossy(),
                Value::Integer(i) => format!("[{i}]"),
                v => format!("[{}]", v.type_name()),
            };
            return fail(
                origin,
                format!(
                    "unknown key `{key}` in {what} (expected {})",
                    allowed.join(", ")
                ),
            );
        }
    }
    Ok(())
}

/// A field that must be a string.
pub(super) fn string_field(
    t: &Table,
    key: &str,
    what: &str,
    origin: &Origin,
    required: bool,
) -> mlua::Result<Option<String>> {
    match t.get::<Value>(key)? {
        Value::Nil if !required => Ok(None),
        Value::Nil => fail(origin, format!("{what} needs `{key}`")),
        Value::String(s) => Ok(Some(s.to_str()?.to_string())),
        v => fail(
            origin,
            format!(
                "`{key}` in {what} must be a string, not a {}",
                v.type_name()
            ),
        ),
    }
}

/// `t.key` as `true`/`false` (absent: `false`).
fn bool_field(t: &Table, key: &str, what: &str, origin: &Origin) -> mlua::Result<bool> {
    match t.get::<Value>(key)? {
        Value::Nil => Ok(false),
        Value::Boolean(b) => Ok(b),
        v => fail(
            origin,
            format!(
                "`{key}` in {what} must be true or false, not a {}",
                v.type_name()
            ),
        ),
    }
}

fn table_field(t: &Table, key: &str, what: &str, origin: &Origin) -> mlua::Result<Option<Table>> {
    match t.get::<Value>(key)? {
        Value::Nil => Ok(None),
        Value::Table(t) => Ok(Some(t)),
        v => fail(
            origin,
            format!("`{key}` in {what} must be a table, not a {}", v.type_name()),
        ),
    }
}

/// Runs `f` on the rules being loaded, or fails outside loading.
pub(super) fn with_rules<R>(
    lua: &Lua,
    origin: &Origin,
    what: &str,
    f: impl FnOnce(&mut Rules) -> Result<R, String>,
) -> mlua::Result<R> {
    let mut d = lua
        .app_data_mut::<HostData>()
        .ok_or_else(|| mlua::Error::runtime("host data missing"))?;
    let Some(rules) = d.rules.as_mut() else {
        return fail(
            origin,
            format!("{what} can only be called while the rules load, at the top level of a script"),
        );
    };
    f(rules).or_else(|m| fail(origin, m))
}

/// Names of `t`'s string keys, sorted (Lua tables have no order).
fn sorted_pairs(t: &Table, what: &str, origin: &Origin) -> mlua::Result<Vec<(String, Value)>> {
    let mut out = Vec::new();
    for pair in t.pairs::<Value, Value>() {
        let (k, v) = pair?;
        match k {
            Value::String(s) => out.push((s.to_str()?.to_string(), v)),
            k => {
                return fail(
                    origin,
                    format!(
                        "{what} must be keyed by names, found a {} key",
                        k.type_name()
                    ),
                );
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

/// `umpire.ruleset{name, doc, schema, sequence, tables, variants, distance}`.
pub(crate) fn lua_ruleset(lua: &Lua, t: Table) -> mlua::Result<()> {
    let origin = caller(lua);
    const WHAT: &str = "umpire.ruleset{…}";
    check_keys(
        &t,
        WHAT,
        &[
            "name", "doc", "schema", "sequence", "tables", "variants", "distance",
        ],
        &origin,
    )?;
    let name = string_field(&t, "name", WHAT, &origin, true)?.unwrap_or_default();
    check_name(lua, &origin, &name, "the ruleset's name")?;
    let doc = string_field(&t, "doc", WHAT, &origin, false)?.unwrap_or_default();
    check_doc(lua, &origin, &doc, "the ruleset's doc", false)?;
    let mut schema = match table_field(&t, "schema", WHAT, &origin)? {
        Some(s) => schema(&s, &origin)?,
        None => Schema::default(),
    };
    if let Some(seq) = table_field(&t, "sequence", WHAT, &origin)? {
        schema.sequence = sequence(&seq, &origin)?;
    }
    schema
        .validate()
        .and_then(|()| schema.check_names())
        .or_else(|e| fail(&origin, format!("bad schema: {e}")))?;
    let mut tables = Vec::new();
    if let Some(ts) = table_field(&t, "tables", WHAT, &origin)? {
        for (name, v) in sorted_pairs(&ts, "`tables`", &origin)? {
            let Value::Table(spec) = v else {
                return fail(&origin, format!("table `{name}` must be a table"));
            };
            check_name(lua, &origin, &name, "a table's name")?;
            tables.push(rule_table(&spec, Some(name), &origin)?);
        }
    }
    let distance = match string_field(&t, "distance", WHAT, &origin, false)? {
        None => crate::distance::Unit::default(),
        Some(w) => match crate::distance::Unit::from_word(&w) {
            Some(u) => u,
            None => {
                return fail(
                    &origin,
                    format!("`distance = \"{w}\"` in {WHAT}: the unit is \"in\" or \"cm\""),
                );
            }
        },
    };
    let mut variants = Vec::new();
    if let Some(vs) = table_field(&t, "variants", WHAT, &origin)? {
        for (name, v) in sorted_pairs(&vs, "`variants`", &origin)? {
            let Value::String(doc) = v else {
                return fail(
                    &origin,
                    format!("variant `{name}` must be a one-line description (a string)"),
                );
            };
            check_name(lua, &origin, &name, "a variant's name")?;
            let doc = doc.to_str()?.to_string();
            check_doc(lua, &origin, &doc, "a variant's doc", false)?;
            variants.push(Variant { name, doc });
        }
    }
    with_rules(lua, &origin, "umpire.ruleset", |rules| {
        if let Some(prev) = &rules.origin {
            return Err(format!("the ruleset is already declared at {prev}"));
        }
        rules.name = Some(name);
        rules.doc = doc;
        rules.origin = Some(origin.clone());
        rules.schema = schema;
        rules.variants = variants;
        rules.distance = distance;
        for table in tables {
            rules.tables.insert(table).map_err(|e| e.to_string())?;
        }
        Ok(())
    })
}

fn schema(t: &Table, origin: &Origin) -> mlua::Result<Schema> {
    const WHAT: &str = "`schema`";
    check_keys(
        t,
        WHAT,
        &["unit", "element", "side", "command", "markers", "status"],
        origin,
    )?;
    let mut s = Schema::default();
    for (key, map) in [
        ("unit", &mut s.unit),
        ("element", &mut s.element),
        ("side", &mut s.side),
        ("command", &mut s.command),
    ] {
        if let Some(attrs) = table_field(t, key, WHAT, origin)? {
            for (name, v) in sorted_pairs(&attrs, &format!("`schema.{key}`"), origin)? {
                map.insert(
                    name.clone(),
                    attr(&v, &format!("schema.{key}.{name}"), origin)?,
                );
            }
        }
    }
    if let Some(markers) = table_field(t, "markers", WHAT, origin)? {
        for (name, v) in sorted_pairs(&markers, "`schema.markers`", origin)? {
            let what = format!("marker `{name}`");
            let def = match v {
                Value::String(doc) => MarkerDef {
                    doc: doc.to_str()?.to_string(),
                    ..MarkerDef::default()
                },
                Value::Table(m) => {
                    check_keys(&m, &what, &["doc", "expires", "secret", "hides"], origin)?;
                    let expires = match string_field(&m, "expires", &what, origin, false)? {
                        Some(e) => Some(
                            Expiry::parse(&e).or_else(|e| fail(origin, format!("{what}: {e}")))?,
                        ),
                        None => None,
                    };
                    MarkerDef {
                        doc: string_field(&m, "doc", &what, origin, false)?.unwrap_or_default(),
                        expires,
                        secret: bool_field(&m, "secret", &what, origin)?,
                        hides: bool_field(&m, "hides", &what, origin)?,
                    }
                }
                v => {
                    return fail(
                        origin,
                        format!(
                            "{what} must be a description or a table, not a {}",
                            v.type_name()
                        ),
                    );
                }
            };
            s.markers.insert(name, def);
        }
    }
    if let Some(st) = table_field(t, "status", WHAT, origin)? {
        const W: &str = "`schema.status`";
        check_keys(
            &st,
            W,
            &[
                "attrs",
                "strength",
                "element_strength",
                "max",
                "away",
                "attention",
            ],
            origin,
        )?;
        let mut spec = StatusSpec::default();
        if let Some(attrs) = table_field(&st, "attrs", W, origin)? {
            spec.attrs = attrs
                .sequence_values::<String>()
                .collect::<mlua::Result<_>>()?;
        }
        spec.strength = string_field(&st, "strength", W, origin, false)?;
        spec.element_strength = string_field(&st, "element_strength", W, origin, false)?;
        spec.max = match st.get::<Value>("max")? {
            Value::Nil => None,
            Value::Integer(i) => Some(StrengthMax::Fixed(i)),
            Value::String(s) => Some(StrengthMax::Attr(s.to_str()?.to_string())),
            v => {
                return fail(
                    origin,
                    format!(
                        "`max` in {W} must be a number or an attribute name, not a {}",
                        v.type_name()
                    ),
                );
            }
        };
        if let Some(away) = table_field(&st, "away", W, origin)? {
            const A: &str = "`schema.status.away`";
            check_keys(&away, A, &["attr", "present"], origin)?;
            let attr = string_field(&away, "attr", A, origin, true)?.unwrap_or_default();
            let present = lua_to_state(&away.get::<Value>("present")?).ok_or_else(|| {
                mlua::Error::runtime(format!(
                    "{origin}: {A} needs `present`, the value while the unit is on the board"
                ))
            })?;
            spec.away = Some(crate::state::AwaySpec { attr, present });
        }
        if let Some(att) = table_field(&st, "attention", W, origin)? {
            const A: &str = "`schema.status.attention`";
            check_keys(
                &att,
                A,
                &[
                    "markers",
                    "element_markers",
                    "values",
                    "damaged",
                    "unmarked",
                ],
                origin,
            )?;
            let words = |key: &str| -> mlua::Result<Vec<String>> {
                Ok(match table_field(&att, key, A, origin)? {
                    Some(list) => list
                        .sequence_values::<String>()
                        .collect::<mlua::Result<_>>()?,
                    None => Vec::new(),
                })
            };
            let mut values = IndexMap::new();
            if let Some(vt) = table_field(&att, "values", A, origin)? {
                for (attr, list) in sorted_pairs(&vt, "`schema.status.attention.values`", origin)? {
                    let Value::Table(list) = list else {
                        return fail(
                            origin,
                            format!(
                                "{A}: `values.{attr}` is a list of the values that need attention"
                            ),
                        );
                    };
                    let mut vs = Vec::new();
                    for v in list.sequence_values::<Value>() {
                        vs.push(lua_to_state(&v?).ok_or_else(|| {
                            mlua::Error::runtime(format!(
                                "{origin}: {A}: `values.{attr}` holds a value that is not a number, word or flag"
                            ))
                        })?);
                    }
                    values.insert(attr, vs);
                }
            }
            // `unmarked = { activated = { "manoeuvre", … } }`: a marker lacked, in those phases.
            let mut unmarked = IndexMap::new();
            if let Some(ut) = table_field(&att, "unmarked", A, origin)? {
                for (marker, phases) in
                    sorted_pairs(&ut, "`schema.status.attention.unmarked`", origin)?
                {
                    let Value::Table(phases) = phases else {
                        return fail(
                            origin,
                            format!(
                                "{A}: `unmarked.{marker}` is a list of the phases it is wanted in ({{}}: always)"
                            ),
                        );
                    };
                    let phases = phases
                        .sequence_values::<String>()
                        .collect::<mlua::Result<Vec<_>>>()?;
                    unmarked.insert(marker, phases);
                }
            }
            spec.attention = Some(crate::state::AttentionSpec {
                markers: words("markers")?,
                element_markers: words("element_markers")?,
                values,
                damaged: att.get::<Option<bool>>("damaged")?.unwrap_or(false),
                unmarked,
            });
        }
        s.status = spec;
    }
    Ok(s)
}

/// An attribute: `"int"`, or `{type = "int", min = 0, max = 6, default = 4, doc = "…"}`.
fn attr(v: &Value, what: &str, origin: &Origin) -> mlua::Result<AttrDef> {
    let t = match v {
        Value::String(s) => return Ok(AttrDef::new(attr_type(&s.to_str()?, None, what, origin)?)),
        Value::Table(t) => t,
        v => {
            return fail(
                origin,
                format!(
                    "`{what}` must be a type name or a table, not a {}",
                    v.type_name()
                ),
            );
        }
    };
    let w = format!("`{what}`");
    check_keys(
        t,
        &w,
        &["type", "min", "max", "values", "of", "default", "doc"],
        origin,
    )?;
    let ty_name = string_field(t, "type", &w, origin, true)?.unwrap_or_default();
    let mut ty = attr_type(&ty_name, Some(t), what, origin)?;
    match &mut ty {
        AttrType::Int { min, max } => {
            *min = t.get::<Option<i64>>("min")?;
            *max = t.get::<Option<i64>>("max")?;
        }
        AttrType::Number { min, max } => {
            *min = t.get::<Option<f64>>("min")?;
            *max = t.get::<Option<f64>>("max")?;
        }
        _ => {
            if t.contains_key("min")? || t.contains_key("max")? {
                return fail(
                    origin,
                    format!("{w}: `min` and `max` are for int and number attributes"),
                );
            }
        }
    }
    let mut def = AttrDef::new(ty);
    match t.get::<Value>("default")? {
        Value::Nil => {}
        v => {
            let value = lua_to_state(&v)
                .ok_or_else(|| mlua::Error::runtime(format!("{origin}: {w}: bad default")))?;
            // Normalised to the type (a whole-number default of a `number` is stored as one).
            def.default = def.ty.check(&value).ok_or_else(|| {
                mlua::Error::runtime(format!(
                    "{origin}: {w}: the default {value} is not {}",
                    def.ty.expected()
                ))
            })?;
        }
    }
    if let Some(doc) = string_field(t, "doc", &w, origin, false)? {
        def = def.with_doc(doc);
    }
    Ok(def)
}

fn attr_type(name: &str, t: Option<&Table>, what: &str, origin: &Origin) -> mlua::Result<AttrType> {
    Ok(match name {
        "int" => AttrType::int(),
        "number" => AttrType::Number {
            min: None,
            max: None,
        },
        "text" => AttrType::Text,
        "flag" => AttrType::Flag,
        "choice" => {
            let Some(values) = t
                .map(|t| t.get::<Option<Vec<String>>>("values"))
                .transpose()?
                .flatten()
            else {
                return fail(origin, format!("`{what}`: a choice needs `values = {{…}}`"));
            };
            AttrType::choice(values)
        }
        "list" => {
            let Some(of) = t
                .map(|t| t.get::<Option<String>>("of"))
                .transpose()?
                .flatten()
            else {
                return fail(
                    origin,
                    format!("`{what}`: a list needs `of = \"int\"` (the item type)"),
                );
            };
            AttrType::List {
                of: Box::new(attr_type(&of, None, what, origin)?),
            }
        }
        other => {
            return fail(
                origin,
                format!(
                    "`{what}`: unknown type `{other}` (expected int, number, text, flag, choice or list)"
                ),
            );
        }
    })
}

/// Deepest nesting of lists in a value a script gives (deeper would overflow the host's
/// stack when the value is written or dropped).
pub(crate) const MAX_LIST_DEPTH: usize = 16;

/// A plain Lua value as a game value (lists nested at most [`MAX_LIST_DEPTH`] deep).
pub(crate) fn lua_to_state(v: &Value) -> Option<crate::state::Value> {
    let mut room = usize::MAX;
    lua_to_state_within(v, &mut room)
}

/// [`lua_to_state`], taking at most `room` bytes (texts by their length, anything else as
/// eight): `None`, with `room` at 0, for a bigger value.
pub(crate) fn lua_to_state_within(v: &Value, room: &mut usize) -> Option<crate::state::Value> {
    to_state(v, 0, room)
}

fn to_state(v: &Value, depth: usize, room: &mut usize) -> Option<crate::state::Value> {
    use crate::state::Value as V;
    let take = |room: &mut usize, n: usize| -> Option<()> {
        if *room < n {
            *room = 0;
            return None;
        }
        *room -= n;
        Some(())
    };
    Some(match v {
        Value::Boolean(b) => {
            take(room, 8)?;
            V::Flag(*b)
        }
        Value::Integer(i) => {
            take(room, 8)?;
            V::Int(*i)
        }
        Value::Number(n) => {
            take(room, 8)?;
            V::Num(*n)
        }
        Value::String(s) => {
            take(room, s.as_bytes().len())?;
            V::Text(s.to_str().ok()?.to_string())
        }
        Value::Table(t) if depth < MAX_LIST_DEPTH => {
            take(room, 8)?;
            let mut items = Vec::new();
            for v in t.sequence_values::<Value>() {
                items.push(to_state(&v.ok()?, depth + 1, room)?);
            }
            V::List(items)
        }
        _ => return None,
    })
}

/// `{"initiative", {each_side = {"move", "shoot"}}, "morale"}`.
fn sequence(t: &Table, origin: &Origin) -> mlua::Result<Sequence> {
    let mut steps = Vec::new();
    for v in t.sequence_values::<Value>() {
        steps.push(match v? {
            Value::String(s) => StepDef::Phase(s.to_str()?.to_string()),
            Value::Table(t) => {
                check_keys(&t, "a step of `sequence`", &["each_side"], origin)?;
                let phases = t.get::<Option<Vec<String>>>("each_side")?.unwrap_or_default();
                StepDef::EachSide { each_side: phases }
            }
            v => return fail(origin, format!("a step of `sequence` must be a phase name or {{each_side = {{…}}}}, not a {}", v.type_name())),
        });
    }
    let seq = Sequence::new(steps);
    seq.validate()
        .or_else(|e| fail(origin, format!("bad sequence: {e}")))?;
    Ok(seq)
}

/// A table cell: a number, text, or a record of named cells.
fn cell(v: &Value, origin: &Origin) -> mlua::Result<Cell> {
    cell_at(v, origin, 0)
}

fn cell_at(v: &Value, origin: &Origin, depth: usize) -> mlua::Result<Cell> {
    if depth > MAX_LIST_DEPTH {
        return fail(
            origin,
            format!("records in a table cell are nested more than {MAX_LIST_DEPTH} deep"),
        );
    }
    Ok(match v {
        Value::Integer(i) => Cell::Int(*i),
        Value::Number(n) => Cell::Num(*n),
        Value::String(s) => Cell::Text(s.to_str()?.to_string()),
        Value::Table(t) => {
            let mut r = IndexMap::new();
            for (k, v) in sorted_pairs(t, "a record cell", origin)? {
                r.insert(k, cell_at(&v, origin, depth + 1)?);
            }
            Cell::Record(r)
        }
        v => {
            return fail(
                origin,
                format!(
                    "a table cell must be a number, text or a record, not a {}",
                    v.type_name()
                ),
            );
        }
    })
}

fn key_text(v: &Value) -> mlua::Result<String> {
    Ok(match v {
        Value::Integer(i) => i.to_string(),
        Value::String(s) => s.to_str()?.to_string(),
        v => {
            return Err(mlua::Error::runtime(format!(
                "a table key must be a number or text, not a {}",
                v.type_name()
            )));
        }
    })
}

/// A dice table `{dice = "2d6", rows = {{"2-6", "miss"}, …}}`, a lookup table
/// `{entries = {{"green", 3}, …}}` or a cross table `{rows = {…}, cols = {…}, cells = {{…}}}`.
fn rule_table(t: &Table, name: Option<String>, origin: &Origin) -> mlua::Result<RuleTable> {
    let what = match &name {
        Some(n) => format!("table `{n}`"),
        None => "umpire.table{…}".to_string(),
    };
    let mut allowed = vec!["doc", "dice", "rows", "entries", "cols", "cells"];
    if name.is_none() {
        allowed.push("name");
    }
    check_keys(t, &what, &allowed, origin)?;
    let name = match name {
        Some(n) => n,
        None => string_field(t, "name", &what, origin, true)?.unwrap_or_default(),
    };
    let doc = string_field(t, "doc", &what, origin, false)?.unwrap_or_default();
    let pairs = |key: &str| -> mlua::Result<Vec<(String, Cell)>> {
        let Some(rows) = table_field(t, key, &what, origin)? else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        for row in rows.sequence_values::<Table>() {
            let row = row
                .or_else(|_| fail(origin, format!("{what}: each of `{key}` is {{key, value}}")))?;
            let k = key_text(&row.get::<Value>(1)?)
                .or_else(|e| fail(origin, format!("{what}: {e}")))?;
            out.push((k, cell(&row.get::<Value>(2)?, origin)?));
        }
        Ok(out)
    };
    let built = if let Some(dice) = string_field(t, "dice", &what, origin, false)? {
        let mut rows = Vec::new();
        for (k, c) in pairs("rows")? {
            let range = Range::parse(&k).ok_or_else(|| {
                mlua::Error::runtime(format!(
                    "{origin}: {what}: `{k}` is not a range (write `3`, `1-4` or `9+`)"
                ))
            })?;
            rows.push((range, c));
        }
        RuleTable::dice(&name, &dice, rows)
    } else if t.contains_key("entries")? {
        RuleTable::keyed(&name, pairs("entries")?)
    } else if t.contains_key("cells")? {
        let keys = |key: &str| -> mlua::Result<Vec<Key>> {
            let Some(list) = table_field(t, key, &what, origin)? else {
                return fail(origin, format!("{what}: a cross table needs `{key}`"));
            };
            list.sequence_values::<Value>()
                .map(|v| Ok(Key::parse(&key_text(&v?)?)))
                .collect()
        };
        let mut cells = Vec::new();
        let rows_of_cells = table_field(t, "cells", &what, origin)?;
        for row in rows_of_cells
            .iter()
            .flat_map(|c| c.sequence_values::<Table>())
        {
            let row = row?;
            cells.push(
                row.sequence_values::<Value>()
                    .map(|v| cell(&v?, origin))
                    .collect::<mlua::Result<Vec<_>>>()?,
            );
        }
        RuleTable::cross(&name, keys("rows")?, keys("cols")?, cells)
    } else {
        return fail(
            origin,
            format!("{what} needs `dice` and `rows`, `entries`, or `rows`, `cols` and `cells`"),
        );
    };
    built.map(|t| t.with_doc(doc)).or_else(|e| fail(origin, e))
}

/// `umpire.table{name, …}`: declares a table.
/// `umpire.table{…}` declares a table (while loading); `umpire.table("name")` returns a
/// handle to a declared one, with `:lookup(key [, col])` and `:roll([modifier [, col]])`.
pub(crate) fn lua_table(lua: &Lua, t: Value) -> mlua::Result<Value> {
    let origin = caller(lua);
    let t = match t {
        Value::String(name) => {
            let make: Function = lua.named_registry_value(TABLE_HANDLE_KEY)?;
            return make.call(name);
        }
        Value::Table(t) => t,
        v => {
            return fail(
                &origin,
                format!(
                    "umpire.table takes a declaration {{name = …, …}} or a table's name, not a {}",
                    v.type_name()
                ),
            );
        }
    };
    let table = rule_table(&t, None, &origin)?;
    check_name(lua, &origin, &table.name, "a table's name")?;
    with_rules(lua, &origin, "umpire.table", |rules| {
        rules.tables.insert(table).map_err(|e| e.to_string())
    })?;
    Ok(Value::Nil)
}

/// Named registry key of the table-handle maker (see [`TABLE_HANDLE`]).
pub(crate) const TABLE_HANDLE_KEY: &str = "umpire.table_handle";

/// Trusted Lua: `umpire.table("name")` handles over `umpire.lookup` and `umpire.roll_table`.
pub(crate) const TABLE_HANDLE: &str = include_str!("lua/table_handle.lua");

fn valid_word(name: &str) -> bool {
    let mut b = name.bytes();
    b.next().is_some_and(|c| c.is_ascii_lowercase())
        && b.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_' || c == b'-')
}

/// `umpire.command{name, args, help, run}`.
pub(crate) fn lua_command(lua: &Lua, t: Table) -> mlua::Result<()> {
    let origin = caller(lua);
    const WHAT: &str = "umpire.command{…}";
    check_keys(
        &t,
        WHAT,
        &["name", "args", "help", "run", "secret"],
        &origin,
    )?;
    let name = string_field(&t, "name", WHAT, &origin, true)?.unwrap_or_default();
    if !valid_word(&name) {
        return fail(
            &origin,
            format!("command name `{name}` must be a lowercase word (letters, digits, `_`, `-`)"),
        );
    }
    let what = format!("command `{name}`");
    check_name(lua, &origin, &name, "a command's name")?;
    let help = string_field(&t, "help", &what, &origin, false)?.unwrap_or_default();
    check_doc(lua, &origin, &help, &format!("the help of {what}"), true)?;
    let run = match t.get::<Value>("run")? {
        Value::Function(f) => f,
        Value::Nil => {
            return fail(
                &origin,
                format!("{what} needs `run = function(ctx, args) … end`"),
            );
        }
        v => {
            return fail(
                &origin,
                format!(
                    "`run` in {what} must be a function, not a {}",
                    v.type_name()
                ),
            );
        }
    };
    let mut args = Vec::new();
    if let Some(list) = table_field(&t, "args", &what, &origin)? {
        for a in list.sequence_values::<Value>() {
            let Value::Table(a) = a? else {
                return fail(
                    &origin,
                    format!("each of `args` in {what} is {{name = …, type = …}}"),
                );
            };
            let aw = format!("an argument of {what}");
            check_keys(
                &a,
                &aw,
                &["name", "type", "optional", "help", "values", "secret"],
                &origin,
            )?;
            let arg_name = string_field(&a, "name", &aw, &origin, true)?.unwrap_or_default();
            check_name(
                lua,
                &origin,
                &arg_name,
                &format!("an argument's name in {what}"),
            )?;
            let ty = string_field(&a, "type", &aw, &origin, true)?.unwrap_or_default();
            let kind = match ty.as_str() {
                "unit" => ArgKind::Unit,
                "element" => ArgKind::Element,
                "side" => ArgKind::Side,
                "group" => ArgKind::Group,
                "selector" => ArgKind::Selector,
                "units" => {
                    ArgKind::UnitWords(a.get::<Option<Vec<String>>>("values")?.unwrap_or_default())
                }
                "int" => ArgKind::Int,
                "number" => ArgKind::Number,
                "distance" => ArgKind::Distance,
                "dice" => ArgKind::Dice,
                "flag" => ArgKind::Flag,
                "text" => ArgKind::Text,
                "choice" => {
                    ArgKind::Choice(a.get::<Option<Vec<String>>>("values")?.unwrap_or_default())
                }
                other => {
                    return fail(
                        &origin,
                        format!(
                            "argument `{arg_name}` of {what}: unknown type `{other}` (expected unit, element, side, group, selector, units, int, number, distance, dice, choice, flag or text)"
                        ),
                    );
                }
            };
            if let ArgKind::Choice(values) = &kind {
                for v in values {
                    check_name(
                        lua,
                        &origin,
                        v,
                        &format!("a value of argument `{arg_name}`"),
                    )?;
                }
            }
            if matches!(&kind, ArgKind::Choice(v) if v.is_empty()) {
                return fail(
                    &origin,
                    format!("argument `{arg_name}` of {what}: a choice needs `values = {{…}}`"),
                );
            }
            let arg_help = string_field(&a, "help", &aw, &origin, false)?.unwrap_or_default();
            check_doc(
                lua,
                &origin,
                &arg_help,
                &format!("the help of `{arg_name}`"),
                false,
            )?;
            args.push(ArgSpec {
                optional: a.get::<Option<bool>>("optional")?.unwrap_or(false)
                    || kind == ArgKind::Flag,
                help: arg_help,
                secret: bool_field(&a, "secret", &aw, &origin)?,
                name: arg_name,
                kind,
            });
        }
    }
    let def = CommandDef {
        name: name.clone(),
        help,
        args,
        origin: origin.clone(),
        secret: bool_field(&t, "secret", &what, &origin)?,
        run,
    };
    with_rules(lua, &origin, "umpire.command", |rules| {
        if let Some(prev) = rules.commands.get(&name) {
            return Err(format!(
                "command `{name}` is already registered at {}",
                prev.origin
            ));
        }
        rules.commands.insert(name, def);
        Ok(())
    })
}

/// `umpire.on(event, fn [, {at_once = true}])`. `at_once` is for the change events
/// ([`AT_ONCE_EVENTS`](super::events::AT_ONCE_EVENTS)): the handler runs when a script makes
/// the change, inside the same call, instead of after the command.
pub(crate) fn lua_on(lua: &Lua, (event, func, opts): (Value, Value, Value)) -> mlua::Result<()> {
    let origin = caller(lua);
    let Value::String(event) = event else {
        return fail(
            &origin,
            "umpire.on(event, fn): the event is a name such as \"round_begins\"",
        );
    };
    let Value::Function(func) = func else {
        return fail(
            &origin,
            "umpire.on(event, fn): the handler must be a function",
        );
    };
    let event = event.to_str()?.to_string();
    check_name(lua, &origin, &event, "an event's name")?;
    let at_once = match opts {
        Value::Nil => false,
        Value::Table(t) => {
            let what = "the options of umpire.on";
            check_keys(&t, what, &["at_once"], &origin)?;
            bool_field(&t, "at_once", what, &origin)?
        }
        v => {
            return fail(
                &origin,
                format!(
                    "umpire.on(event, fn, options): the options are a table such as {{ at_once = true }}, not a {}",
                    v.type_name()
                ),
            );
        }
    };
    if at_once && !super::events::AT_ONCE_EVENTS.contains(&event.as_str()) {
        return fail(
            &origin,
            format!(
                "umpire.on: `at_once` is for the events a change raises ({}); `{event}` {}",
                super::events::AT_ONCE_EVENTS.join(", "),
                if super::events::reserved(&event) {
                    "is raised by umpire's own commands and the clock: leave `at_once` out"
                } else {
                    "is a rule's own event, and `umpire.emit` runs its handlers at once already: leave `at_once` out"
                }
            ),
        );
    }
    let f = func.clone();
    with_rules(lua, &origin, "umpire.on", |rules| {
        rules.handlers.push(EventHandler {
            event: event.clone(),
            origin: origin.clone(),
            at_once,
            func,
        });
        Ok(())
    })?;
    // The trusted Lua's lists: every handler for `umpire.emit`, the `at_once` ones for a
    // script's changes.
    let listeners: Table = lua.named_registry_value(LISTENERS_KEY)?;
    let lists: &[&str] = if at_once {
        &["all", "at_once"]
    } else {
        &["all"]
    };
    for key in lists {
        let by_event: Table = listeners.raw_get(*key)?;
        let list = match by_event.raw_get::<Option<Table>>(event.as_str())? {
            Some(l) => l,
            None => {
                let l = lua.create_table()?;
                by_event.raw_set(event.as_str(), l.clone())?;
                l
            }
        };
        list.raw_push(f.clone())?;
    }
    if at_once
        && let Some(mut d) = lua.app_data_mut::<HostData>()
        && !d.at_once.contains(&event)
    {
        d.at_once.push(event);
    }
    Ok(())
}

/// `umpire.hook(point, fn)`: `fn(c, ctx, situation)` runs where a check calls `c:point(point,
/// situation)` (the situation read-only; `nil` when the check gives none).
pub(crate) fn lua_hook(lua: &Lua, (point, func): (Value, Value)) -> mlua::Result<()> {
    let origin = caller(lua);
    let Value::String(point) = point else {
        return fail(
            &origin,
            "umpire.hook(point, fn): the point is a name such as \"shooting.modifiers\"",
        );
    };
    let Value::Function(func) = func else {
        return fail(
            &origin,
            "umpire.hook(point, fn): the hook must be a function",
        );
    };
    let event = point.to_str()?.to_string();
    check_name(lua, &origin, &event, "a hook point's name")?;
    with_rules(lua, &origin, "umpire.hook", |rules| {
        rules.hooks.push(EventHandler {
            event,
            origin: origin.clone(),
            at_once: false,
            func,
        });
        Ok(())
    })
}

/// Installs the functions the rules declare with into `umpire`: `ruleset`, `command`, `on`,
/// `table` and `hook`.
pub(crate) fn install(lua: &Lua, umpire: &Table) -> mlua::Result<()> {
    umpire.set("ruleset", lua.create_function(lua_ruleset)?)?;
    umpire.set("command", lua.create_function(lua_command)?)?;
    umpire.set("on", lua.create_function(lua_on)?)?;
    umpire.set("table", lua.create_function(lua_table)?)?;
    umpire.set("hook", lua.create_function(lua_hook)?)?;
    Ok(())
}

/// `umpire.ruleset_name()`: the name of the ruleset loaded (`nil`: house rules only), also
/// while house rules load.
pub(crate) fn lua_ruleset_name(lua: &Lua, (): ()) -> mlua::Result<Option<String>> {
    let d = lua
        .app_data_ref::<HostData>()
        .ok_or_else(|| mlua::Error::runtime("host data missing"))?;
    Ok(match &d.rules {
        Some(r) => r.name.clone(),
        None => d.ruleset_name.clone(),
    })
}
