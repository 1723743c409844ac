//! Loading a [`Schema`] from TOML (the format is in `docs/state.md`):
//!
//! ```toml
//! [attrs.sp]
//! type = "int"
//! min = 0
//! max = 12
//! default = 6
//! doc = "current strength points"
//!
//! [markers.suppressed]
//! expires = "round"
//!
//! [status]
//! attrs = ["type"]
//! strength = "sp"
//! max = "start_sp"
//!
//! [clock]
//! steps = ["initiative", { each_side = ["move", "shoot", "melee"] }, "morale"]
//! ```

use indexmap::IndexMap;
use toml::de::{DeTable, DeValue};

use super::clock::{Sequence, StepDef};
use super::error::StateError;
use super::marker::Expiry;
use super::schema::{AttrDef, AttrType, AwaySpec, MarkerDef, Schema, StatusSpec, StrengthMax};
use super::toml_doc::{Doc, SValue, get};

const TOP: &[&str] = &[
    "attrs",
    "side_attrs",
    "command_attrs",
    "element_attrs",
    "markers",
    "status",
    "clock",
];
const TYPES: &str = "`int`, `number`, `text`, `flag`, `choice` or `list`";

impl Schema {
    /// Reads a schema from the TOML text `src` of `file`, checking it; errors carry the file,
    /// line and column of the bad key or value.
    pub fn from_toml(file: &str, src: &str) -> Result<Schema, StateError> {
        let doc = Doc { file, src };
        let root = doc.parse()?;
        let root = root.get_ref();
        doc.only_keys(root, TOP, "a schema")?;
        let mut schema = Schema::default();
        for (key, slot) in [
            ("attrs", &mut schema.unit),
            ("side_attrs", &mut schema.side),
            ("command_attrs", &mut schema.command),
            ("element_attrs", &mut schema.element),
        ] {
            if let Some(v) = get(root, key) {
                *slot = attrs(&doc, doc.table(v, key)?)?;
            }
        }
        if let Some(v) = get(root, "markers") {
            for (k, v) in doc.table(v, "markers")?.iter() {
                let t = doc.table(v, &format!("marker `{}`", k.get_ref()))?;
                doc.only_keys(t, &["doc", "expires", "secret", "hides"], "a marker")?;
                let mut def = MarkerDef::default();
                if let Some(d) = get(t, "doc") {
                    def.doc = doc.str(d, "doc")?.to_string();
                }
                for (key, slot) in [("secret", &mut def.secret), ("hides", &mut def.hides)] {
                    if let Some(v) = get(t, key) {
                        *slot = v.get_ref().as_bool().ok_or_else(|| {
                            doc.format(v.span(), format!("`{key}` is true or false"))
                        })?;
                    }
                }
                if let Some(e) = get(t, "expires") {
                    def.expires = Some(
                        Expiry::parse(doc.str(e, "expires")?)
                            .map_err(|m| doc.format(e.span(), m))?,
                    );
                }
                schema.markers.insert(k.get_ref().to_string(), def);
            }
        }
        if let Some(v) = get(root, "status") {
            schema.status = status(&doc, doc.table(v, "status")?)?;
        }
        if let Some(v) = get(root, "clock") {
            schema.sequence = sequence(&doc, doc.table(v, "clock")?)?;
        }
        // Checks that need the whole schema (status names) point at the `status` section.
        let at = get(root, "status").map_or(0..0, |v| v.span());
        schema.validate().map_err(|e| doc.place(e, at))?;
        schema.check_names().map_err(|e| doc.place(e, 0..0))?;
        Ok(schema)
    }
}

fn attrs(doc: &Doc<'_>, table: &DeTable<'_>) -> Result<IndexMap<String, AttrDef>, StateError> {
    let mut out = IndexMap::new();
    for (k, v) in table.iter() {
        let name = k.get_ref().to_string();
        if !name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
            || !name.starts_with(|c: char| c.is_ascii_lowercase())
        {
            return Err(doc.format(
                k.span(),
                format!("attribute names are lowercase letters, digits and `_`, found `{name}`"),
            ));
        }
        let t = doc.table(v, &format!("attribute `{name}`"))?;
        doc.only_keys(
            t,
            &["type", "min", "max", "values", "of", "default", "doc"],
            &format!("attribute `{name}`"),
        )?;
        let ty = attr_type(doc, t, v, &name)?;
        let mut def = AttrDef::new(ty);
        if let Some(d) = get(t, "default") {
            let value = doc.value(d)?;
            def.default = def
                .check(&name, &value)
                .map_err(|e| doc.place(e, d.span()))?;
        }
        if let Some(d) = get(t, "doc") {
            def.doc = doc.str(d, "doc")?.to_string();
        }
        out.insert(name, def);
    }
    Ok(out)
}

fn attr_type(
    doc: &Doc<'_>,
    t: &DeTable<'_>,
    whole: &SValue<'_>,
    name: &str,
) -> Result<AttrType, StateError> {
    let Some(tv) = get(t, "type") else {
        return Err(doc.format(
            whole.span(),
            format!("attribute `{name}` needs a `type`: {TYPES}"),
        ));
    };
    let ty = doc.str(tv, "type")?;
    let allow = |keys: &[&str]| -> Result<(), StateError> {
        for k in ["min", "max", "values", "of"] {
            if !keys.contains(&k)
                && let Some(v) = get(t, k)
            {
                return Err(doc.format(
                    v.span(),
                    format!("`{k}` does not apply to a `{ty}` attribute"),
                ));
            }
        }
        Ok(())
    };
    Ok(match ty {
        "int" | "integer" => {
            allow(&["min", "max"])?;
            AttrType::Int {
                min: get(t, "min").map(|v| doc.int(v, "min")).transpose()?,
                max: get(t, "max").map(|v| doc.int(v, "max")).transpose()?,
            }
        }
        "number" | "float" => {
            allow(&["min", "max"])?;
            AttrType::Number {
                min: get(t, "min").map(|v| doc.num(v, "min")).transpose()?,
                max: get(t, "max").map(|v| doc.num(v, "max")).transpose()?,
            }
        }
        "text" | "string" => {
            allow(&[])?;
            AttrType::Text
        }
        "flag" | "bool" => {
            allow(&[])?;
            AttrType::Flag
        }
        "choice" => {
            allow(&["values"])?;
            let Some(vs) = get(t, "values") else {
                return Err(doc.format(
                    tv.span(),
                    format!("choice attribute `{name}` needs `values = [...]`"),
                ));
            };
            let values = doc
                .array(vs, "values")?
                .iter()
                .map(|v| doc.str(v, "a choice value").map(str::to_string))
                .collect::<Result<Vec<_>, _>>()?;
            if values.is_empty() {
                return Err(doc.format(vs.span(), "a choice needs at least one value".into()));
            }
            AttrType::Choice { values }
        }
        "list" => {
            allow(&["of"])?;
            let of = match get(t, "of") {
                None => AttrType::Text,
                Some(of) => match of.get_ref() {
                    DeValue::String(s) => {
                        let mut inner = DeTable::new();
                        inner.insert(
                            toml::Spanned::new(of.span(), "type".into()),
                            toml::Spanned::new(of.span(), DeValue::String(s.clone())),
                        );
                        attr_type(doc, &inner, of, name)?
                    }
                    DeValue::Table(inner) => attr_type(doc, inner, of, name)?,
                    _ => {
                        return Err(doc.format(
                            of.span(),
                            "`of` must be a type name or a table like `{ type = \"int\", min = 0 }`"
                                .into(),
                        ));
                    }
                },
            };
            AttrType::List { of: Box::new(of) }
        }
        other => {
            return Err(doc.format(
                tv.span(),
                format!("unknown attribute type `{other}`: use {TYPES}"),
            ));
        }
    })
}

fn status(doc: &Doc<'_>, t: &DeTable<'_>) -> Result<StatusSpec, StateError> {
    doc.only_keys(
        t,
        &["attrs", "strength", "max", "away", "element_strength"],
        "status",
    )?;
    let mut spec = StatusSpec::default();
    if let Some(a) = get(t, "attrs") {
        spec.attrs = doc
            .array(a, "status attrs")?
            .iter()
            .map(|v| doc.str(v, "an attribute name").map(str::to_string))
            .collect::<Result<_, _>>()?;
    }
    if let Some(s) = get(t, "strength") {
        spec.strength = Some(doc.str(s, "strength")?.to_string());
    }
    if let Some(s) = get(t, "element_strength") {
        spec.element_strength = Some(doc.str(s, "element_strength")?.to_string());
    }
    if let Some(m) = get(t, "max") {
        spec.max = Some(match m.get_ref() {
            DeValue::String(s) => StrengthMax::Attr(s.to_string()),
            _ => StrengthMax::Fixed(doc.int(m, "max")?),
        });
    }
    if let Some(a) = get(t, "away") {
        let away = doc.table(a, "status away")?;
        doc.only_keys(away, &["attr", "present"], "status away")?;
        let (Some(attr), Some(present)) = (get(away, "attr"), get(away, "present")) else {
            return Err(doc.format(
                a.span(),
                "`away` needs `attr` and `present`: away = { attr = \"off_table\", present = \"no\" }"
                    .into(),
            ));
        };
        spec.away = Some(AwaySpec {
            attr: doc.str(attr, "an attribute name")?.to_string(),
            present: doc.value(present)?,
        });
    }
    Ok(spec)
}

fn sequence(doc: &Doc<'_>, t: &DeTable<'_>) -> Result<Sequence, StateError> {
    doc.only_keys(t, &["steps"], "clock")?;
    let mut steps = Vec::new();
    if let Some(s) = get(t, "steps") {
        for step in doc.array(s, "steps")? {
            steps.push(match step.get_ref() {
                DeValue::String(p) => StepDef::Phase(p.to_string()),
                DeValue::Table(st) => {
                    doc.only_keys(st, &["each_side"], "a step")?;
                    let Some(phases) = get(st, "each_side") else {
                        return Err(doc.format(
                            step.span(),
                            "a step is a phase name or `{ each_side = [\"move\", \"shoot\"] }`"
                                .into(),
                        ));
                    };
                    StepDef::EachSide {
                        each_side: doc
                            .array(phases, "each_side")?
                            .iter()
                            .map(|p| doc.str(p, "a phase name").map(str::to_string))
                            .collect::<Result<_, _>>()?,
                    }
                }
                _ => {
                    return Err(doc.format(
                        step.span(),
                        "a step is a phase name or `{ each_side = [\"move\", \"shoot\"] }`".into(),
                    ));
                }
            });
        }
    }
    let seq = Sequence::new(steps);
    seq.validate()
        .map_err(|e| doc.place(e, t.iter().next().map_or(0..0, |(k, _)| k.span())))?;
    Ok(seq)
}
