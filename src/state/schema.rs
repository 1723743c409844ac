//! The schema: which attributes sides, commands, units and elements have (with types,
//! bounds, defaults and a doc line), which markers exist, what `status` shows, and the clock's
//! sequence. A rule system declares it (from TOML here, from Lua later) and the game checks
//! every value against it.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use super::clock::Sequence;
use super::error::{StateError, StateErrorKind, nearest};
use super::game::Kind;
use super::marker::Expiry;
use super::value::Value;

/// The type of an attribute, with its bounds or allowed values.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum AttrType {
    /// An integer, optionally bounded (inclusive).
    Int {
        /// Lowest allowed value.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        min: Option<i64>,
        /// Highest allowed value.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        max: Option<i64>,
    },
    /// A finite number, optionally bounded (inclusive). Integers are accepted.
    Number {
        /// Lowest allowed value.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        min: Option<f64>,
        /// Highest allowed value.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        max: Option<f64>,
    },
    /// Free text.
    Text,
    /// `true` or `false` (`yes`/`no`, `on`/`off` when typed).
    Flag,
    /// One of a fixed list of values (matched without regard to case, stored as declared).
    Choice {
        /// The allowed values.
        values: Vec<String>,
    },
    /// A list of values of one type (typed as `a, b, c`).
    List {
        /// The type of each item.
        of: Box<AttrType>,
    },
}

impl AttrType {
    /// An unbounded integer.
    pub fn int() -> Self {
        AttrType::Int {
            min: None,
            max: None,
        }
    }

    /// An integer from `min` to `max` inclusive.
    pub fn int_range(min: i64, max: i64) -> Self {
        AttrType::Int {
            min: Some(min),
            max: Some(max),
        }
    }

    /// A choice among `values`.
    pub fn choice<S: Into<String>>(values: impl IntoIterator<Item = S>) -> Self {
        AttrType::Choice {
            values: values.into_iter().map(Into::into).collect(),
        }
    }

    /// The value `v` if it fits this type, normalised (integers become numbers for a number
    /// attribute, choices take their declared spelling); `None` if it does not fit.
    pub fn check(&self, v: &Value) -> Option<Value> {
        match (self, v) {
            (AttrType::Int { min, max }, Value::Int(i)) => {
                (min.is_none_or(|m| *i >= m) && max.is_none_or(|m| *i <= m)).then(|| v.clone())
            }
            (AttrType::Number { min, max }, Value::Int(_) | Value::Num(_)) => {
                let n = v.as_f64()?;
                (n.is_finite() && min.is_none_or(|m| n >= m) && max.is_none_or(|m| n <= m))
                    .then_some(Value::Num(n))
            }
            (AttrType::Text, Value::Text(_)) | (AttrType::Flag, Value::Flag(_)) => Some(v.clone()),
            (AttrType::Choice { values }, Value::Text(s)) => values
                .iter()
                .find(|c| c.eq_ignore_ascii_case(s))
                .map(|c| Value::Text(c.clone())),
            (AttrType::List { of }, Value::List(items)) => items
                .iter()
                .map(|i| of.check(i))
                .collect::<Option<Vec<_>>>()
                .map(Value::List),
            _ => None,
        }
    }

    /// Parses text typed by the umpire (`6`, `-1`, `2.5`, `yes`, `INF/A`, `pike, shield`)
    /// into a value of this type; `None` if it does not fit.
    pub fn parse(&self, text: &str) -> Option<Value> {
        let t = text.trim();
        let v = match self {
            AttrType::Int { .. } => Value::Int(t.replace('−', "-").parse().ok()?),
            AttrType::Number { .. } => Value::Num(t.replace('−', "-").parse().ok()?),
            AttrType::Text | AttrType::Choice { .. } => Value::Text(t.to_string()),
            AttrType::Flag => Value::Flag(match t.to_ascii_lowercase().as_str() {
                "true" | "yes" | "on" | "y" | "1" => true,
                "false" | "no" | "off" | "n" | "0" => false,
                _ => return None,
            }),
            AttrType::List { of } => {
                if t.is_empty() {
                    Value::List(Vec::new())
                } else {
                    Value::List(
                        t.split(',')
                            .map(|item| of.parse(item))
                            .collect::<Option<Vec<_>>>()?,
                    )
                }
            }
        };
        self.check(&v)
    }

    /// What a value of this type must be, in words: `an integer from 0 to 12`.
    pub fn expected(&self) -> String {
        fn bounds<T: std::fmt::Display>(noun: &str, min: &Option<T>, max: &Option<T>) -> String {
            match (min, max) {
                (Some(a), Some(b)) => format!("{noun} from {a} to {b}"),
                (Some(a), None) => format!("{noun} of at least {a}"),
                (None, Some(b)) => format!("{noun} of at most {b}"),
                (None, None) => noun.to_string(),
            }
        }
        match self {
            AttrType::Int { min, max } => bounds("an integer", min, max),
            AttrType::Number { min, max } => bounds("a number", min, max),
            AttrType::Text => "text".into(),
            AttrType::Flag => "a flag (`true` or `false`)".into(),
            AttrType::Choice { values } => {
                let list: Vec<String> = values.iter().map(|v| format!("`{v}`")).collect();
                format!("one of {}", list.join(", "))
            }
            AttrType::List { of } => format!("a list of {}", plural(&of.expected())),
        }
    }

    /// The natural default when an attribute declares none: the lower bound or 0, empty
    /// text, `false`, the first choice, an empty list.
    pub fn zero(&self) -> Value {
        match self {
            AttrType::Int { min, max } => Value::Int(min.unwrap_or(0).min(max.unwrap_or(i64::MAX))),
            AttrType::Number { min, max } => {
                Value::Num(min.unwrap_or(0.0).min(max.unwrap_or(f64::MAX)))
            }
            AttrType::Text => Value::Text(String::new()),
            AttrType::Flag => Value::Flag(false),
            AttrType::Choice { values } => Value::Text(values.first().cloned().unwrap_or_default()),
            AttrType::List { .. } => Value::List(Vec::new()),
        }
    }
}

/// `an integer from 0 to 12` → `integers from 0 to 12` (good enough for list messages).
fn plural(s: &str) -> String {
    let s = s
        .strip_prefix("an ")
        .or_else(|| s.strip_prefix("a "))
        .unwrap_or(s);
    match s.split_once(' ') {
        Some((noun, rest)) if !noun.ends_with('s') => format!("{noun}s {rest}"),
        None if !s.ends_with('s') && s != "text" => format!("{s}s"),
        _ => s.to_string(),
    }
}

/// One declared attribute.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AttrDef {
    /// Its type.
    #[serde(rename = "type")]
    pub ty: AttrType,
    /// The value a new side, command, unit or element gets (checked against the type).
    pub default: Value,
    /// A one-line description, shown by `help` and completion.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub doc: String,
}

impl AttrDef {
    /// An attribute of type `ty` with the type's natural default and no doc.
    pub fn new(ty: AttrType) -> Self {
        let default = ty.zero();
        AttrDef {
            ty,
            default,
            doc: String::new(),
        }
    }

    /// The same attribute with `default` (checked when the schema is checked).
    pub fn with_default(mut self, default: impl Into<Value>) -> Self {
        self.default = default.into();
        self
    }

    /// The same attribute with a doc line.
    pub fn with_doc(mut self, doc: impl Into<String>) -> Self {
        self.doc = doc.into();
        self
    }

    /// Checks `v` for the attribute called `name`: the normalised value, or an error naming
    /// the attribute, the value and what was expected.
    pub fn check(&self, name: &str, v: &Value) -> Result<Value, StateError> {
        self.ty.check(v).ok_or_else(|| {
            StateErrorKind::BadValue {
                attr: name.to_string(),
                expected: self.ty.expected(),
                found: v.to_string(),
            }
            .into()
        })
    }

    /// Parses text typed for the attribute called `name`.
    pub fn parse(&self, name: &str, text: &str) -> Result<Value, StateError> {
        self.ty.parse(text).ok_or_else(|| {
            StateErrorKind::BadValue {
                attr: name.to_string(),
                expected: self.ty.expected(),
                found: text.to_string(),
            }
            .into()
        })
    }
}

/// One declared marker.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MarkerDef {
    /// A one-line description.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub doc: String,
    /// The expiry a marker gets when `mark` names none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires: Option<Expiry>,
    /// For the umpire only: never on the board (`status`) the players see.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub secret: bool,
    /// Hides the unit that carries it: a unit with this marker is left off the board, its
    /// strength and count too (implies `secret`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hides: bool,
}

impl MarkerDef {
    /// Whether the players may not see it.
    pub fn is_secret(&self) -> bool {
        self.secret || self.hides
    }
}

/// What `status` shows for each unit.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct StatusSpec {
    /// The key attributes shown after the unit's id, in order.
    #[serde(default)]
    pub attrs: Vec<String>,
    /// The attribute drawn as a strength bar, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strength: Option<String>,
    /// The bar's full length: a number, or the name of an attribute holding each unit's own
    /// maximum (`start_sp`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<StrengthMax>,
    /// The attribute of elements whose fall raises `element_damaged` (TOML `element_strength
    /// = "hp"`). Without it, the attribute named by `strength`, if elements declare one of
    /// that name (see [`Schema::element_strength`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub element_strength: Option<String>,
    /// Units off the board: those whose attribute `attr` is not `present` are shown with that
    /// attribute's value (`routed_off`) in `status`, and not counted in the side's strength.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub away: Option<AwaySpec>,
    /// What makes a unit need the umpire's attention, for the summary `status` gives of a
    /// large game. Without it: any marker, or a strength below its full value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attention: Option<AttentionSpec>,
}

/// What makes a unit need the umpire's attention (`status.attention` of a schema): any one of
/// these.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct AttentionSpec {
    /// Markers on the unit (`routed`, `out_of_command`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub markers: Vec<String>,
    /// Markers on any of its elements (`wounded`), counted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub element_markers: Vec<String>,
    /// Attributes and the values that need attention (`state`: `shaken`, `broken`).
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub values: IndexMap<String, Vec<Value>>,
    /// A strength below its full value (damaged).
    #[serde(default)]
    pub damaged: bool,
    /// Markers a unit needs attention for lacking, each with the phases it is wanted in (none
    /// listed: always): OLAB's `activated` in the phases played in sets, so the stands not
    /// yet activated are counted and listed after those with something wrong.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub unmarked: IndexMap<String, Vec<String>>,
}

/// Which attribute says a unit has left the board (`status.away` of a schema).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AwaySpec {
    /// The attribute (`off_table`).
    pub attr: String,
    /// Its value while the unit is on the board (`no`).
    pub present: Value,
}

/// A strength bar's full length.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum StrengthMax {
    /// The same for every unit.
    Fixed(i64),
    /// Read from this attribute of each unit.
    Attr(String),
}

/// What a rule system declares about the state of a game.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Schema {
    /// Unit attributes, in the order `show` lists them.
    #[serde(default)]
    pub unit: IndexMap<String, AttrDef>,
    /// Element (stand, figure) attributes.
    #[serde(default)]
    pub element: IndexMap<String, AttrDef>,
    /// Side attributes (a C-in-C's rating, casualties…).
    #[serde(default)]
    pub side: IndexMap<String, AttrDef>,
    /// Command attributes (a general's rating, losses…).
    #[serde(default)]
    pub command: IndexMap<String, AttrDef>,
    /// Declared markers. When empty, any marker name is accepted.
    #[serde(default)]
    pub markers: IndexMap<String, MarkerDef>,
    /// What `status` shows.
    #[serde(default)]
    pub status: StatusSpec,
    /// The clock's sequence of play.
    #[serde(default)]
    pub sequence: Sequence,
}

impl Schema {
    /// The attribute of elements whose fall raises `element_damaged`: `status.element_strength`,
    /// else `status.strength` when elements declare an attribute of that name.
    pub fn element_strength(&self) -> Option<&str> {
        match &self.status.element_strength {
            Some(a) => Some(a),
            None => self
                .status
                .strength
                .as_deref()
                .filter(|a| self.element.contains_key(*a)),
        }
    }

    /// The attributes declared for `kind`.
    pub fn attrs(&self, kind: Kind) -> &IndexMap<String, AttrDef> {
        match kind {
            Kind::Side => &self.side,
            Kind::Command => &self.command,
            Kind::Unit => &self.unit,
            Kind::Element => &self.element,
        }
    }

    /// The declared attribute `name` of `kind`, or an error suggesting the nearest name;
    /// `owner` names what it was set on (``unit `leg1` ``), written out only for the error
    /// (pass `&format_args!(…)`).
    pub fn attr(
        &self,
        kind: Kind,
        name: &str,
        owner: &dyn std::fmt::Display,
    ) -> Result<&AttrDef, StateError> {
        let attrs = self.attrs(kind);
        attrs.get(name).ok_or_else(|| {
            StateErrorKind::UnknownAttr {
                attr: name.to_string(),
                owner: owner.to_string(),
                suggestions: nearest(name, attrs.keys().map(String::as_str)),
            }
            .into()
        })
    }

    /// Parses text typed by the umpire for attribute `name` of `kind` (`add unit … sp=5`);
    /// `owner` names what it is for, as in [`Schema::attr`].
    pub fn parse_value(
        &self,
        kind: Kind,
        name: &str,
        text: &str,
        owner: &str,
    ) -> Result<Value, StateError> {
        self.attr(kind, name, &owner)?.parse(name, text)
    }

    /// Checks a marker name against the declared markers (any name when none are declared).
    pub fn check_marker(&self, name: &str) -> Result<(), StateError> {
        if self.markers.is_empty() || self.markers.contains_key(name) {
            Ok(())
        } else {
            let mut declared: Vec<String> = self.markers.keys().cloned().collect();
            declared.sort();
            Err(StateErrorKind::UnknownMarker {
                name: name.to_string(),
                suggestions: nearest(name, self.markers.keys().map(String::as_str)),
                declared,
            }
            .into())
        }
    }

    /// Checks the names a new schema brings (attributes, choices, markers, phases) for control
    /// characters and bidirectional overrides (see [`crate::escape::check_name`]). Not part of
    /// [`Schema::validate`]: a schema already in a journal replays as it is.
    pub fn check_names(&self) -> Result<(), StateError> {
        let bad = |m: String| StateError::from(StateErrorKind::BadName(m));
        let check = |name: &str, what: &str| crate::escape::check_name(name, what).map_err(bad);
        for kind in Kind::ALL {
            for (name, def) in self.attrs(kind) {
                check(name, "the attribute")?;
                if let AttrType::Choice { values } = &def.ty {
                    for v in values {
                        check(v, &format!("a value of `{name}`"))?;
                    }
                }
            }
        }
        for name in self.markers.keys() {
            check(name, "the marker")?;
        }
        for step in &self.sequence.steps {
            let phases = match step {
                super::clock::StepDef::Phase(p) => std::slice::from_ref(p),
                super::clock::StepDef::EachSide { each_side } => each_side.as_slice(),
            };
            for p in phases {
                check(p, "the phase")?;
            }
        }
        Ok(())
    }

    /// Checks the schema itself: defaults fit their types, bounds are in order, choices are
    /// not empty, `status` names declared attributes, the sequence is well formed.
    pub fn validate(&self) -> Result<(), StateError> {
        for kind in Kind::ALL {
            for (name, def) in self.attrs(kind) {
                check_type(name, &def.ty)?;
                def.check(name, &def.default).map_err(|e| {
                    StateError::from(StateErrorKind::Format(format!(
                        "the default of `{name}` does not fit: {e}"
                    )))
                })?;
            }
        }
        let known = |a: &str, what: &str| -> Result<(), StateError> {
            if self.unit.contains_key(a) {
                Ok(())
            } else {
                Err(StateErrorKind::Format(format!(
                    "status {what} `{a}` is not a unit attribute{}",
                    super::error::did_you_mean(&nearest(a, self.unit.keys().map(String::as_str)))
                ))
                .into())
            }
        };
        for a in &self.status.attrs {
            known(a, "attribute")?;
        }
        if let Some(s) = &self.status.strength {
            known(s, "strength")?;
        }
        if let Some(StrengthMax::Attr(a)) = &self.status.max {
            known(a, "max")?;
        }
        if let Some(a) = &self.status.element_strength
            && !self.element.contains_key(a)
        {
            return Err(StateErrorKind::Format(format!(
                "status element_strength `{a}` is not an element attribute{}",
                super::error::did_you_mean(&nearest(a, self.element.keys().map(String::as_str)))
            ))
            .into());
        }
        if let Some(away) = &self.status.away {
            known(&away.attr, "away")?;
        }
        // A misspelt marker would never make a unit need attention: refuse it.
        if let Some(att) = &self.status.attention
            && !self.markers.is_empty()
        {
            for m in att.markers.iter().chain(att.unmarked.keys()) {
                if !self.markers.contains_key(m) {
                    return Err(StateErrorKind::Format(format!(
                        "status attention marker `{m}` is not declared{}",
                        super::error::did_you_mean(&nearest(
                            m,
                            self.markers.keys().map(String::as_str)
                        ))
                    ))
                    .into());
                }
            }
        }
        self.sequence.validate()
    }
}

fn check_type(name: &str, ty: &AttrType) -> Result<(), StateError> {
    let bad = |m: &str| Err(StateErrorKind::Format(format!("attribute `{name}`: {m}")).into());
    match ty {
        AttrType::Int {
            min: Some(a),
            max: Some(b),
        } if a > b => bad("`min` is above `max`"),
        AttrType::Number {
            min: Some(a),
            max: Some(b),
        } if a > b => bad("`min` is above `max`"),
        AttrType::Choice { values } if values.is_empty() => bad("a choice needs some `values`"),
        AttrType::List { of } => check_type(name, of),
        _ => Ok(()),
    }
}
