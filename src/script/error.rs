//! [`ScriptError`]: a Lua error, a budget that ran out or a bad registration, with the file
//! and line it happened at, what the host was doing and the Lua traceback.

use std::fmt;

/// Which budget a script exceeded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    /// More Lua instructions than [`Budgets::instructions`](super::Budgets::instructions).
    Instructions,
    /// Ran past [`Budgets::deadline`](super::Budgets::deadline).
    Deadline,
    /// The interrupt flag was set (Ctrl-C).
    Interrupted,
    /// The Lua state needed more than [`Budgets::memory`](super::Budgets::memory).
    Memory,
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Budget::Instructions => "script ran too long (instruction budget exhausted)",
            Budget::Deadline => "script ran too long (time limit reached)",
            Budget::Interrupted => "script interrupted",
            Budget::Memory => "script used too much memory",
        })
    }
}

/// What went wrong.
#[derive(Debug)]
#[non_exhaustive]
pub enum ScriptErrorKind {
    /// Lua raised an error (syntax or runtime), or a host function called from Lua failed.
    Lua(Box<mlua::Error>),
    /// A budget ran out; the script was stopped.
    Budget(Budget),
    /// A registration table (`umpire.command{…}`, `umpire.ruleset{…}`…) was wrong.
    Registration(String),
    /// A ruleset, house rule or module could not be found or read.
    NotFound(String),
    /// Something a caller asked for does not exist (a command, a variant).
    Usage(String),
    /// The file watcher failed.
    Watch(String),
    /// The rules refused what the umpire asked, with `umpire.fail(message)`: a plain message
    /// for the umpire, not a fault in the script (no file, line or traceback).
    Refused(String),
}

/// An error from the script host, with where and while doing what.
#[derive(Debug)]
pub struct ScriptError {
    /// What went wrong.
    pub kind: ScriptErrorKind,
    /// The script and line (`rulesets/demo/init.lua:12`), when known.
    pub location: Option<String>,
    /// What the host was doing (`while running command `shoot``).
    pub context: Option<String>,
    /// The Lua traceback, when Lua gave one.
    pub traceback: Option<String>,
}

impl ScriptError {
    /// An error of `kind` with no location yet.
    pub fn new(kind: ScriptErrorKind) -> Self {
        ScriptError {
            kind,
            location: None,
            context: None,
            traceback: None,
        }
    }

    /// The same error, saying what the host was doing (kept if one was already set: the
    /// innermost is the most precise).
    pub fn context(mut self, doing: impl Into<String>) -> Self {
        if self.context.is_none() {
            self.context = Some(doing.into());
        }
        self
    }

    /// The same error at `location` (kept if one was already set).
    pub fn at(mut self, location: Option<String>) -> Self {
        if self.location.is_none() {
            self.location = location;
        }
        self
    }

    /// Wraps a Lua error: the traceback is split off, and a budget error raised by the
    /// host's hook becomes [`ScriptErrorKind::Budget`] with the file and line the hook saw.
    pub fn from_lua(err: mlua::Error) -> Self {
        if let Some(r) = find_refusal(&err) {
            return ScriptError::new(ScriptErrorKind::Refused(r.0.clone()));
        }
        if let Some(m) = unplaced_message(&err) {
            return ScriptError::new(ScriptErrorKind::Refused(m));
        }
        let traceback = find_traceback(&err);
        if let Some(b) = find_budget(&err) {
            return ScriptError {
                kind: ScriptErrorKind::Budget(b.budget),
                location: b.location.clone(),
                context: None,
                traceback,
            };
        }
        if matches!(root(&err), mlua::Error::MemoryError(_)) {
            return ScriptError {
                kind: ScriptErrorKind::Budget(Budget::Memory),
                location: None,
                context: None,
                traceback,
            };
        }
        // A host function's error has no position in its message: take the innermost Lua
        // frame of the traceback.
        let location = lua_location(&root(&err).to_string()).or_else(|| {
            traceback
                .as_deref()
                .and_then(|t| t.lines().find_map(|l| lua_location(l.trim())))
        });
        ScriptError {
            location,
            kind: ScriptErrorKind::Lua(Box::new(err)),
            context: None,
            traceback,
        }
    }

    /// The message without location, context or traceback.
    pub fn message(&self) -> String {
        match &self.kind {
            ScriptErrorKind::Lua(e) => {
                let full = root(e).to_string();
                // The traceback is kept apart, in `traceback`.
                let msg = full.split("\nstack traceback:").next().unwrap_or(&full);
                let msg = msg.strip_prefix("runtime error: ").unwrap_or(msg);
                let msg = msg.strip_prefix("syntax error: ").unwrap_or(msg);
                match &self.location {
                    Some(loc) => msg
                        .strip_prefix(loc.as_str())
                        .and_then(|m| m.strip_prefix(": "))
                        .unwrap_or(msg)
                        .to_string(),
                    None => msg.to_string(),
                }
            }
            ScriptErrorKind::Budget(b) => b.to_string(),
            ScriptErrorKind::Registration(m)
            | ScriptErrorKind::NotFound(m)
            | ScriptErrorKind::Usage(m)
            | ScriptErrorKind::Watch(m)
            | ScriptErrorKind::Refused(m) => m.clone(),
        }
    }

    /// The same error with its message cut to at most `max` bytes and its traceback to
    /// four times that (a script's error can carry any text: `error(("x"):rep(3e7))`).
    pub fn shortened(mut self, max: usize) -> Self {
        let message = self.message();
        if message.len() > max {
            let short = super::api::output::cut(&message, max).into_owned();
            self.kind = match self.kind {
                ScriptErrorKind::Refused(_) => ScriptErrorKind::Refused(short),
                ScriptErrorKind::Lua(_) => {
                    ScriptErrorKind::Lua(Box::new(mlua::Error::runtime(short)))
                }
                ScriptErrorKind::Registration(_) => ScriptErrorKind::Registration(short),
                ScriptErrorKind::NotFound(_) => ScriptErrorKind::NotFound(short),
                ScriptErrorKind::Usage(_) => ScriptErrorKind::Usage(short),
                kind => kind,
            };
        }
        if let Some(t) = &self.traceback
            && t.len() > max.saturating_mul(4)
        {
            self.traceback = Some(super::api::output::cut(t, max.saturating_mul(4)).into_owned());
        }
        self
    }

    /// The budget that ran out, if that is what happened.
    pub fn budget(&self) -> Option<Budget> {
        match self.kind {
            ScriptErrorKind::Budget(b) => Some(b),
            _ => None,
        }
    }
}

impl fmt::Display for ScriptError {
    /// `rulesets/demo/init.lua:12: attempt to index a nil value (while running command `shoot`)`
    /// — the traceback is not included; print [`ScriptError::traceback`] separately.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let ScriptErrorKind::Refused(m) = &self.kind {
            return f.write_str(m);
        }
        if let Some(loc) = &self.location {
            write!(f, "{loc}: ")?;
        }
        f.write_str(&self.message())?;
        if let Some(c) = &self.context {
            write!(f, " ({c})")?;
        }
        Ok(())
    }
}

impl std::error::Error for ScriptError {}

impl From<mlua::Error> for ScriptError {
    fn from(e: mlua::Error) -> Self {
        ScriptError::from_lua(e)
    }
}

/// The error raised inside Lua when a budget runs out (carried through `mlua::Error`).
#[derive(Debug, Clone)]
pub(crate) struct BudgetExceeded {
    pub budget: Budget,
    pub location: Option<String>,
}

impl fmt::Display for BudgetExceeded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.location {
            Some(loc) => write!(f, "{loc}: {}", self.budget),
            None => write!(f, "{}", self.budget),
        }
    }
}

impl std::error::Error for BudgetExceeded {}

/// The innermost error behind callback and context wrappers.
fn root(e: &mlua::Error) -> &mlua::Error {
    match e {
        mlua::Error::CallbackError { cause, .. } => root(cause),
        mlua::Error::WithContext { cause, .. } => root(cause),
        _ => e,
    }
}

/// What `umpire.fail(message)` raises (carried through `mlua::Error`).
#[derive(Debug, Clone)]
pub(crate) struct Refusal(pub String);

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Refusal {}

fn find_refusal(e: &mlua::Error) -> Option<&Refusal> {
    match e {
        mlua::Error::CallbackError { cause, .. } => find_refusal(cause),
        mlua::Error::WithContext { cause, .. } => find_refusal(cause),
        _ => e.downcast_ref::<Refusal>(),
    }
}

/// The message of an error a script raised on purpose without a position (`error(msg, 0)`):
/// like `umpire.fail`, a refusal to show as it is. Errors of the Lua machine and of library
/// functions always carry the script's file and line, and those of host functions come
/// wrapped as callback errors, so neither is taken for one.
fn unplaced_message(e: &mlua::Error) -> Option<String> {
    match e {
        mlua::Error::WithContext { cause, .. } => unplaced_message(cause),
        mlua::Error::RuntimeError(msg) => {
            let msg = msg.split("\nstack traceback:").next().unwrap_or(msg);
            (lua_location(msg).is_none() && !msg.starts_with('[')).then(|| msg.to_string())
        }
        _ => None,
    }
}

fn find_budget(e: &mlua::Error) -> Option<&BudgetExceeded> {
    match e {
        mlua::Error::CallbackError { cause, .. } => find_budget(cause),
        mlua::Error::WithContext { cause, .. } => find_budget(cause),
        _ => e.downcast_ref::<BudgetExceeded>(),
    }
}

fn find_traceback(e: &mlua::Error) -> Option<String> {
    match e {
        mlua::Error::CallbackError { traceback, cause } => {
            find_traceback(cause).or_else(|| Some(traceback.clone()))
        }
        mlua::Error::WithContext { cause, .. } => find_traceback(cause),
        mlua::Error::RuntimeError(msg) => msg
            .find("\nstack traceback:")
            .map(|i| msg[i + 1..].to_string()),
        _ => None,
    }
}

/// `file:line` from a Lua message `file:line: message` (chunk names are `@rulesets/…` or
/// `@scripts/…`, so Lua prints them as they are).
pub(crate) fn lua_location(msg: &str) -> Option<String> {
    let msg = msg.strip_prefix("runtime error: ").unwrap_or(msg);
    let msg = msg.strip_prefix("syntax error: ").unwrap_or(msg);
    let first = msg.lines().next()?;
    let mut parts = first.splitn(3, ':');
    let file = parts.next()?;
    let line = parts.next()?;
    parts.next()?;
    if file.ends_with(".lua") && !line.is_empty() && line.bytes().all(|b| b.is_ascii_digit()) {
        Some(format!("{file}:{line}"))
    } else {
        None
    }
}
