//! `umpire test PATH`: rule tests written in Lua by rule authors.
//!
//! A test file declares tests with `test("name", function() … end)`. Each test opens
//! sessions with `session{ruleset = "demo", variant = …, house = {…}, seed = …}` and drives
//! them as an umpire would: `s:dice(4, 3)` queues dice, `s:run("shoot a1 b2")` runs a command
//! and returns what it printed (failing the test if the command fails), `s:fails(line)`
//! returns the error of a command that must fail, and `s:get(unit, attr)`, `s:has(unit,
//! marker)`, `s:markers(unit)` and `s:stored(script, key)` read the game. Assertions:
//! `eq(actual, expected [, what])`, `ok(cond [, what])`, `contains(text, part [, what])`;
//! a failure names the test file and line.
//!
//! Test files run in their own Lua state (the string, table and math libraries only); the
//! sessions they open load the rules in the usual sandbox, with an in-memory journal.

use std::cell::RefCell;
use std::fmt;
use std::path::{Path, PathBuf};

use mlua::{Function, Lua, LuaSerdeExt, StdLib, Table, UserData, UserDataMethods, Value};

use super::render;
use super::session::Session;
use super::style::Palette;
use crate::dice::DiceBox;

/// What happened to one test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestResult {
    /// The file it is in, as given.
    pub file: String,
    /// Its name.
    pub name: String,
    /// `None` if it passed; the failure otherwise.
    pub failure: Option<String>,
}

/// What a run of rule tests found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// Every test, in order.
    pub results: Vec<TestResult>,
    /// Files that could not be run at all (a syntax error, no tests), with why.
    pub broken: Vec<(String, String)>,
}

impl Report {
    /// How many passed.
    pub fn passed(&self) -> usize {
        self.results.iter().filter(|r| r.failure.is_none()).count()
    }

    /// How many failed (tests, and files that could not run).
    pub fn failed(&self) -> usize {
        self.results.len() - self.passed() + self.broken.len()
    }
}

impl fmt::Display for Report {
    /// One line per test, grouped by file, then the totals.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut file = None;
        for r in &self.results {
            if file != Some(&r.file) {
                writeln!(f, "{}", r.file)?;
                file = Some(&r.file);
            }
            match &r.failure {
                None => writeln!(f, "  ok    {}", r.name)?,
                Some(why) => writeln!(
                    f,
                    "  FAIL  {}\n        {}",
                    r.name,
                    why.replace('\n', "\n        ")
                )?,
            }
        }
        for (file, why) in &self.broken {
            writeln!(f, "{file}\n  BROKEN  {why}")?;
        }
        write!(f, "{} passed, {} failed", self.passed(), self.failed())
    }
}

/// The Lua test files at `path`: the file itself, or every `.lua` file under the folder
/// (sorted), except helpers that tests `require` (names starting with `_`, as `_helpers.lua`).
pub fn test_files(path: &Path) -> std::io::Result<Vec<PathBuf>> {
    if path.is_file() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut out = Vec::new();
    let mut dirs = vec![path.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d)? {
            let p = e?.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|e| e == "lua") && !is_helper(&p) {
                out.push(p);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// Whether `file` is a helper for tests (`_helpers.lua`), not a test file.
fn is_helper(file: &Path) -> bool {
    file.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with('_'))
}

/// `require(name)` in a test file: runs `name.lua` from the test file's folder once (in the
/// same Lua state, so it sees `session`, `eq` and the rest) and returns what it returns.
fn install_require(lua: &Lua, dir: PathBuf) -> mlua::Result<()> {
    let loaded = lua.create_table()?;
    let require = lua.create_function(move |lua, name: String| {
        if let Some(v) = loaded.get::<Option<mlua::Value>>(name.as_str())? {
            return Ok(v);
        }
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(fail(format!(
                "require({name:?}): a test can require a file beside it by its plain name, \
                 as require(\"_helpers\") for _helpers.lua"
            )));
        }
        let path = dir.join(format!("{name}.lua"));
        // Rule tests run under the default limits, as the sessions they open do.
        let src = crate::files::read_to_string(&path, crate::limits::Limits::DEFAULT.file)
            .map_err(|e| fail(format!("require({name:?}): {e}")))?;
        let value: mlua::Value = lua
            .load(&src)
            .set_name(format!("@{}", path.display()))
            .call(())?;
        let value = if value.is_nil() {
            mlua::Value::Boolean(true)
        } else {
            value
        };
        loaded.set(name.as_str(), value.clone())?;
        Ok(value)
    })?;
    lua.globals().set("require", require)
}

/// Runs the test files found at each of `paths` (see [`collect`]).
pub fn run_paths(paths: &[PathBuf]) -> std::io::Result<Report> {
    let mut report = Report::default();
    for p in paths {
        for file in collect(p)? {
            run_file(&file, &mut report);
        }
    }
    Ok(report)
}

/// The test files for `path`: a `.lua` file is one; a folder that is (or is inside) a
/// `tests` folder gives all its `.lua` files; any other folder gives the `.lua` files of
/// every `tests` folder below it (so `umpire test rulesets` runs every ruleset's tests).
pub fn collect(path: &Path) -> std::io::Result<Vec<PathBuf>> {
    if !path.exists() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!("{}: no such file or folder", path.display()),
        ));
    }
    let files = test_files(path)?;
    if path.is_file() {
        return Ok(files);
    }
    let is_tests = |p: &Path| p.components().any(|c| c.as_os_str() == "tests");
    if is_tests(path) {
        return Ok(files);
    }
    let in_tests = |f: &Path| {
        f.strip_prefix(path)
            .ok()
            .and_then(Path::parent)
            .is_some_and(is_tests)
    };
    Ok(files.into_iter().filter(|f| in_tests(f)).collect())
}

/// The folder holding `rulesets/` for a test file: the nearest one above it.
fn root_for(file: &Path) -> PathBuf {
    let abs = file.canonicalize().unwrap_or_else(|_| file.to_path_buf());
    abs.ancestors()
        .find(|d| d.join("rulesets").is_dir())
        .map(Path::to_path_buf)
        .unwrap_or_else(|| super::rules::rules_root(None))
}

/// A session driven from a test, with the answers queued for the next command's questions
/// (`s:answers("yes", "no")`; what the command leaves unused is dropped) and what the last
/// command recorded for programs (`umpire.record`: `s:record(key)`).
struct TestSession(
    Session,
    std::collections::VecDeque<String>,
    Option<serde_json::Value>,
);

/// The umpire as a test plays it: questions answered from the queue (the default when it
/// is empty); dice are never typed (queue them with `s:dice`).
struct Answers<'a>(&'a mut std::collections::VecDeque<String>);

impl crate::dice::DieEntry for Answers<'_> {
    fn enter(&mut self, request: &crate::dice::DieRequest<'_>) -> Result<i64, String> {
        Err(format!(
            "a test types no dice: queue {} with s:dice(…)",
            request.purpose
        ))
    }

    fn ask(&mut self, question: &crate::question::Question<'_>) -> Result<Option<String>, String> {
        match self.0.pop_front() {
            Some(typed) => question.answer(&typed).map(Some),
            None => Ok(None),
        }
    }
}

fn fail(msg: impl Into<String>) -> mlua::Error {
    mlua::Error::runtime(msg.into())
}

impl TestSession {
    fn run(&mut self, line: &str) -> Result<String, String> {
        self.2 = None;
        let mut answers = Answers(&mut self.1);
        let executed = self.0.execute(line, Some(&mut answers));
        // The answers queued are for this command's questions alone.
        self.1.clear();
        match executed {
            None => Ok(String::new()),
            Some(Ok(out)) => {
                self.2 = out.to_json().get("record").cloned();
                Ok(render::output(&out, &Palette::plain()))
            }
            Some(Err((_, e))) => {
                let mut msg = e.to_string();
                if let Some(h) = e.help() {
                    msg.push_str(&format!("\n({h})"));
                }
                Err(msg)
            }
        }
    }
}

impl UserData for TestSession {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method_mut("run", |_, s, line: String| {
            s.run(&line)
                .map_err(|e| fail(format!("`{line}` failed: {e}")))
        });
        methods.add_method_mut("fails", |_, s, line: String| match s.run(&line) {
            Ok(out) => Err(fail(format!(
                "`{line}` should have failed, but printed:\n{out}"
            ))),
            Err(e) => Ok(e),
        });
        methods.add_method_mut("answers", |_, s, answers: mlua::Variadic<String>| {
            s.1.extend(answers.iter().cloned());
            Ok(())
        });
        methods.add_method_mut("dice", |_, s, values: mlua::Variadic<i64>| {
            s.0.state.dice.enqueue(values.iter().copied());
            Ok(())
        });
        methods.add_method("get", |lua, s, (id, attr): (String, String)| {
            let game = &s.0.state.game;
            game.attrs_of(&id)
                .ok_or_else(|| fail(format!("no unit, side or command `{id}`")))?;
            match game.attr(&id, &attr) {
                Some(v) => lua.to_value(v),
                None => Err(fail(format!("`{id}` has no attribute `{attr}`"))),
            }
        });
        // Units and elements carry markers.
        methods.add_method("has", |_, s, (id, marker): (String, String)| {
            let markers =
                s.0.state
                    .game
                    .markers_of(&id)
                    .map_err(|e| fail(e.to_string()))?;
            Ok(markers.iter().any(|m| m.name == marker))
        });
        methods.add_method("markers", |_, s, id: String| {
            let markers =
                s.0.state
                    .game
                    .markers_of(&id)
                    .map_err(|e| fail(e.to_string()))?;
            Ok(markers.iter().map(|m| m.name.clone()).collect::<Vec<_>>())
        });
        methods.add_method("stored", |lua, s, (script, key): (String, String)| match s
            .0
            .state
            .game
            .stored(&script, &key)
        {
            Some(v) => lua.to_value(v),
            None => Ok(Value::Nil),
        });
        // What the last command that succeeded recorded (`umpire.record`): one key, or all.
        methods.add_method("record", |lua, s, key: Option<String>| {
            let record = s.2.as_ref();
            match key {
                None => record.map_or(Ok(Value::Nil), |r| lua.to_value(r)),
                Some(k) => match record.and_then(|r| r.get(&k)) {
                    Some(v) => lua.to_value(v),
                    None => Ok(Value::Nil),
                },
            }
        });
        methods.add_method("exists", |_, s, id: String| {
            Ok(s.0.state.game.kind_of(&id).is_some())
        });
    }
}

/// The assertion helpers and `test`, in Lua (they raise errors pointing at the caller).
const PRELUDE: &str = r#"
local tests = ...
local function show(v)
  if type(v) == "string" then return string.format("%q", v) end
  return tostring(v)
end
function test(name, fn)
  if type(name) ~= "string" or type(fn) ~= "function" then
    error("test(name, function() ... end)", 2)
  end
  tests[#tests + 1] = { name = name, fn = fn }
end
function eq(actual, expected, what)
  if actual ~= expected then
    error((what and (what .. ": ") or "") .. "expected " .. show(expected) .. ", got " .. show(actual), 2)
  end
end
function ok(cond, what)
  if not cond then error(what or "expected a true value", 2) end
end
function contains(text, part, what)
  if type(text) ~= "string" or not string.find(text, part, 1, true) then
    error((what and (what .. ": ") or "") .. "expected " .. show(part) .. " in:\n" .. tostring(text), 2)
  end
end
"#;

/// Runs one test file, adding what happened to `report`.
pub fn run_file(file: &Path, report: &mut Report) {
    let shown = file.display().to_string();
    let root = root_for(file);
    let lua = match Lua::new_with(
        StdLib::STRING | StdLib::TABLE | StdLib::MATH,
        mlua::LuaOptions::default(),
    ) {
        Ok(l) => l,
        Err(e) => {
            report.broken.push((shown, e.to_string()));
            return;
        }
    };
    let tests = RefCell::new(Vec::new());
    let loaded = (|| -> mlua::Result<()> {
        let list = lua.create_table()?;
        lua.load(PRELUDE)
            .set_name("=umpire test")
            .call::<()>(list.clone())?;
        let root = root.clone();
        let session = lua.create_function(move |_, opts: Option<Table>| {
            new_session(&root, opts).map_err(fail)
        })?;
        lua.globals().set("session", session)?;
        install_require(
            &lua,
            file.parent().map(Path::to_path_buf).unwrap_or_default(),
        )?;
        let src = crate::files::read_to_string(file, crate::limits::Limits::DEFAULT.file)
            .map_err(|e| fail(e.to_string()))?;
        lua.load(&src).set_name(format!("@{shown}")).exec()?;
        for t in list.sequence_values::<Table>() {
            let t = t?;
            tests
                .borrow_mut()
                .push((t.get::<String>("name")?, t.get::<Function>("fn")?));
        }
        Ok(())
    })();
    if let Err(e) = loaded {
        report.broken.push((shown, first_line(&e)));
        return;
    }
    let tests = tests.into_inner();
    if tests.is_empty() {
        report.broken.push((
            shown,
            "no tests: declare them with test(name, function() … end)".into(),
        ));
        return;
    }
    for (name, f) in tests {
        let failure = f.call::<()>(()).err().map(|e| first_line(&e));
        report.results.push(TestResult {
            file: shown.clone(),
            name,
            failure,
        });
    }
}

/// A Lua error's message without mlua's traceback.
fn first_line(e: &mlua::Error) -> String {
    let text = match e {
        mlua::Error::CallbackError { cause, .. } => return first_line(cause),
        mlua::Error::RuntimeError(m) | mlua::Error::SyntaxError { message: m, .. } => m.clone(),
        e => e.to_string(),
    };
    match text.find("\nstack traceback:") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

/// `session{ruleset, variant, house, seed}`: a fresh session with those rules loaded.
fn new_session(root: &Path, opts: Option<Table>) -> Result<TestSession, String> {
    let get = |k: &str| -> Result<Option<Value>, String> {
        match &opts {
            Some(t) => t
                .get::<Value>(k)
                .map(|v| (!v.is_nil()).then_some(v))
                .map_err(|e| e.to_string()),
            None => Ok(None),
        }
    };
    if let Some(t) = &opts {
        for pair in t.pairs::<String, Value>() {
            let (k, _) = pair.map_err(|e| e.to_string())?;
            if !["ruleset", "variant", "house", "seed"].contains(&k.as_str()) {
                return Err(format!(
                    "session{{…}}: unknown key `{k}` (expected ruleset, variant, house, seed)"
                ));
            }
        }
    }
    let text = |v: Option<Value>| v.and_then(|v| v.as_string().map(|s| s.to_string_lossy()));
    let seed = get("seed")?.and_then(|v| v.as_integer()).unwrap_or(1);
    let mut s = Session::new(DiceBox::seeded(seed as u64));
    s.set_rules_root(root.to_path_buf());
    let mut t = TestSession(s, Default::default(), None);
    if let Some(r) = text(get("ruleset")?) {
        let variant = text(get("variant")?).map_or(String::new(), |v| format!(" {v}"));
        t.run(&format!("ruleset use {r}{variant}"))?;
    }
    if let Some(Value::Table(h)) = get("house")? {
        for name in h.sequence_values::<String>() {
            let name = name.map_err(|e| e.to_string())?;
            t.run(&format!("house on {name}"))?;
        }
    }
    Ok(t)
}
