//! What a command produces: typed [`Block`]s for people and one JSON object for machines.
//!
//! A command never prints. It returns an [`Output`]; the shell renders the blocks as (maybe
//! coloured) text, or prints [`Output::to_json`] as one line in `--json` mode. Errors take the
//! same road through [`error_json`]. The shapes are documented in `docs/json.md`.

use serde_json::{Map, Value, json};

use super::error::CommandError;
use super::style::Style;
use crate::dice::ast::CmpOp;
use crate::dice::exact::Answer;
use crate::dice::{Distribution, Roll};

/// The result of one command.
#[derive(Debug, Clone, PartialEq)]
pub struct Output {
    /// The command's canonical name (`roll`, also when typed as `r`).
    pub command: String,
    /// What to show a person, in order.
    pub blocks: Vec<Block>,
    /// The command's fields for `--json` (`"command"` is added by [`Output::to_json`]).
    pub json: Map<String, Value>,
    /// Whether the shell should stop after this command (`quit`).
    pub quit: bool,
    /// A rules' command's checks, kept typed: made into the JSON field `checks` (every
    /// factor with every die) only when the JSON is asked for, not for every command.
    pub checks: Option<Vec<std::sync::Arc<crate::script::Breakdown>>>,
    /// A rules' command's changes with their reasons and its printed lines, kept typed: the
    /// JSON fields `notes` and `output`, made only when the JSON is asked for.
    pub said: Option<Said>,
}

/// What the rules' calls of a command changed (each change with its reason) and printed.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Said {
    /// Each change with its reason, in order.
    pub notes: Vec<crate::state::Note>,
    /// The lines printed, in order.
    pub printed: Vec<String>,
}

impl Output {
    /// An output for `command` with no blocks and no fields yet.
    pub fn new(command: &str) -> Self {
        Output {
            command: command.to_string(),
            blocks: Vec::new(),
            json: Map::new(),
            quit: false,
            checks: None,
            said: None,
        }
    }

    /// Adds a block.
    pub fn block(mut self, block: Block) -> Self {
        self.blocks.push(block);
        self
    }

    /// Adds a block of text.
    pub fn text(self, text: Text) -> Self {
        self.block(Block::Text(text))
    }

    /// Sets a JSON field.
    pub fn field(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.json.insert(key.to_string(), value.into());
        self
    }

    /// The JSON object: `{"command": …, …fields}`.
    pub fn to_json(&self) -> Value {
        let mut m = self.json.clone();
        m.insert("command".into(), Value::String(self.command.clone()));
        if let Some(checks) = &self.checks {
            m.insert(
                "checks".into(),
                serde_json::to_value(checks.iter().map(|c| &**c).collect::<Vec<_>>())
                    .unwrap_or(Value::Null),
            );
        }
        if let Some(s) = &self.said {
            m.insert(
                "notes".into(),
                serde_json::to_value(&s.notes).unwrap_or(Value::Null),
            );
            m.insert(
                "output".into(),
                serde_json::to_value(&s.printed).unwrap_or(Value::Null),
            );
        }
        Value::Object(m)
    }
}

/// The JSON object for a failed command: `{"command", "error", "help", "span"}`. `command` is
/// the canonical name when the name was known, otherwise `null`.
pub fn error_json(command: Option<&str>, err: &CommandError) -> Value {
    json!({
        "command": command,
        "error": err.to_string(),
        "help": err.help(),
        "span": err.span.map(|s| json!({"start": s.start, "end": s.end})),
    })
}

/// A number for JSON: whole values as integers (`14`, not `14.0`), others as they are.
pub fn num(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 9_007_199_254_740_992.0 {
        Value::from(x as i64)
    } else {
        Value::from(x)
    }
}

/// One piece of a command's output for people.
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    /// Styled text.
    Text(Text),
    /// One roll, drawn as `4d6kh3 (4, 4, 6, ~~3~~) = 14`.
    Roll(Roll),
    /// An exact distribution, drawn as a bar chart, or one probability.
    Prob(ProbReport),
    /// An itemised resolution: title, one factor a line (value, label, dice, rule), total
    /// and outcome.
    Check(std::sync::Arc<crate::script::Breakdown>),
}

/// Text made of styled pieces; newlines inside pieces break lines.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Text(pub Vec<(Style, String)>);

impl Text {
    /// Empty text.
    pub fn new() -> Self {
        Text(Vec::new())
    }

    /// Appends `s` in `style`.
    pub fn push(mut self, style: Style, s: impl Into<String>) -> Self {
        self.0.push((style, s.into()));
        self
    }

    /// Appends plain `s`.
    pub fn plain(self, s: impl Into<String>) -> Self {
        self.push(Style::Plain, s)
    }

    /// Appends the pieces of `other`.
    pub fn extend(mut self, other: Text) -> Self {
        self.0.extend(other.0);
        self
    }

    /// Plain text.
    pub fn from_plain(s: impl Into<String>) -> Self {
        Text::new().plain(s)
    }
}

/// What `prob` found.
#[derive(Debug, Clone, PartialEq)]
pub struct ProbReport {
    /// The expression whose distribution this is, in canonical notation.
    pub expr: String,
    /// Its exact distribution.
    pub dist: Distribution,
    /// For `prob X OP N`: the comparison and P(X OP N).
    pub compare: Option<Comparison>,
}

/// A comparison against a constant and its probability.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Comparison {
    /// The operator.
    pub op: CmpOp,
    /// The constant.
    pub value: f64,
    /// P(expr OP value), with how the cut-off tail entered it.
    pub answer: Answer,
}
