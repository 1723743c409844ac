//! The script host: sandbox escapes, budgets, registration, dice and reload.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use std::time::Duration;

use super::*;
use crate::dice::DiceBox;
use crate::state::Value as V;

/// Budgets for the tests: small enough that a runaway stops fast in a debug build, with a
/// deadline far enough away that a busy machine never turns an instruction-count stop into a
/// deadline stop.
const LIMITS: Budgets = Budgets {
    instructions: 20_000_000,
    deadline: Duration::from_secs(60),
    memory: 16 << 20,
    ..Budgets::DEFAULT
};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn demo() -> Loaded {
    let src = RuleSource::new(repo(), Some("demo"));
    load(&src, LIMITS, Control::new()).unwrap()
}

fn host() -> ScriptHost {
    demo().host
}

/// Evaluates `code` with a seeded dice box.
fn eval(host: &ScriptHost, code: &str) -> Result<Vec<String>, ScriptError> {
    let mut dice = DiceBox::seeded(1);
    let mut src = dice.source(None);
    host.eval("test.lua", code, &mut src).map(|(v, _)| v)
}

/// Evaluates `code` with `queue` as the dice.
fn eval_with_dice(host: &ScriptHost, code: &str, queue: &[i64]) -> Vec<String> {
    let mut dice = DiceBox::seeded(1);
    dice.enqueue(queue.iter().copied());
    let mut src = dice.source(None);
    host.eval("test.lua", code, &mut src).unwrap().0
}

/// Asserts the host still works after a contained escape attempt.
fn still_works(host: &ScriptHost) {
    assert_eq!(eval(host, "return 1 + 1").unwrap(), ["2"]);
    assert_eq!(eval(host, "return (\"abc\"):upper()").unwrap(), ["ABC"]);
}

/// `code` fails; the message contains `needle`; the host still works.
fn contained(code: &str, needle: &str) -> ScriptError {
    let h = host();
    let err = eval(&h, code).expect_err(code);
    let shown = format!("{err} {:?}", err.kind);
    assert!(
        shown.contains(needle),
        "{code}: expected `{needle}` in `{shown}`"
    );
    still_works(&h);
    err
}

/// `code` is stopped by `budget`, at `test.lua:LINE`; the host still works.
fn stopped(code: &str, budget: Budget, line: usize) {
    let h = host();
    let err = eval(&h, code).expect_err(code);
    assert_eq!(err.budget(), Some(budget), "{code}: {err}");
    if budget != Budget::Memory {
        assert_eq!(
            err.location.as_deref(),
            Some(format!("test.lua:{line}").as_str()),
            "{code}: {err}"
        );
    }
    still_works(&h);
}

// --- the sandbox escape suite (issue 4) ---

#[test]
fn os_is_absent() {
    contained("os.execute('touch /tmp/pwned')", "global 'os'");
}

#[test]
fn io_is_absent() {
    contained("return io.open('/etc/passwd')", "global 'io'");
}

#[test]
fn require_outside_the_rule_folders_is_refused() {
    contained("return require '../../etc/passwd'", "not a module name");
    contained("return require '/etc/passwd'", "not a module name");
    contained(
        "return require 'nosuch.module'",
        "no module `nosuch.module`",
    );
}

#[test]
fn require_inside_the_rule_folders_works_and_is_cached() {
    let h = host();
    assert_eq!(
        eval(&h, "local a = require 'demo.tables'; local b = require 'demo.tables'; return a == b, a.morale.dice").unwrap(),
        ["true", "2d6"]
    );
}

#[test]
fn bytecode_cannot_be_loaded() {
    contained(
        "return load('\\27LuaT\\0\\25\\147', 'x', 'b')",
        "only text chunks",
    );
    let h = host();
    let r = eval(&h, "local f, e = load('\\27LuaT\\0\\25\\147'); return f, e").unwrap();
    assert_eq!(r[0], "nil");
    assert!(r[1].contains("binary"), "{r:?}");
    still_works(&h);
}

#[test]
fn load_of_text_runs_in_the_sandbox() {
    let h = host();
    assert_eq!(eval(&h, "return load('return os')()").unwrap(), ["nil"]);
    assert_eq!(eval(&h, "return load('return 2 * 21')()").unwrap(), ["42"]);
}

#[test]
fn string_dump_is_absent() {
    contained("return string.dump(function() end)", "field 'dump'");
    contained("return (''):dump()", "method 'dump'");
}

#[test]
fn the_string_metatable_cannot_be_changed() {
    contained("getmetatable('').__index = {}", "index a boolean");
    contained("string.upper = function() return 'pwned' end", "read-only");
    contained("rawset(string, 'upper', print)", "read-only");
    let h = host();
    assert_eq!(eval(&h, "return getmetatable('')").unwrap(), ["false"]);
}

#[test]
fn debug_is_absent() {
    contained("return debug.getregistry()", "global 'debug'");
    contained("return package.loaded", "global 'package'");
    contained("return dofile('/etc/passwd')", "global 'dofile'");
    contained("return loadfile('/etc/passwd')", "global 'loadfile'");
    contained("return collectgarbage('count')", "global 'collectgarbage'");
}

#[test]
fn setmetatable_on_globals_is_contained() {
    contained(
        "setmetatable(_G, {__index = function() return 1 end})",
        "protected metatable",
    );
    contained("umpire.roll = print", "read-only");
    contained(
        "setmetatable({}, {__gc = function() while true do end end})",
        "__gc",
    );
    // A script's own globals stay its own.
    let h = host();
    eval(&h, "x = 1; math = nil").unwrap();
    assert_eq!(eval(&h, "return x, math.floor(1.5)").unwrap(), ["nil", "1"]);
}

#[test]
fn infinite_loop_is_stopped_with_its_line() {
    stopped(
        "local x = 0\nwhile true do x = x + 1 end",
        Budget::Instructions,
        2,
    );
}

#[test]
fn infinite_loop_inside_pcall_is_not_swallowed() {
    stopped(
        "local ok = pcall(function()\n  while true do end\nend)\nreturn 'swallowed'",
        Budget::Instructions,
        2,
    );
    stopped(
        "while true do\n  pcall(function() while true do end end)\nend",
        Budget::Instructions,
        2,
    );
    stopped(
        "local ok = xpcall(function()\n  while true do end\nend, function(e) return e end)\nreturn 'swallowed'",
        Budget::Instructions,
        2,
    );
}

#[test]
fn infinite_loop_inside_a_coroutine_is_not_swallowed() {
    stopped(
        "local co = coroutine.create(function()\n  while true do end\nend)\nlocal ok = coroutine.resume(co)\nreturn 'swallowed'",
        Budget::Instructions,
        2,
    );
    stopped(
        "local f = coroutine.wrap(function()\n  while true do end\nend)\npcall(f)\nreturn 'swallowed'",
        Budget::Instructions,
        2,
    );
}

#[test]
fn deep_recursion_is_an_error() {
    let h = host();
    let err = eval(
        &h,
        "local function f(n) return 1 + f(n + 1) end\nreturn f(1)",
    )
    .unwrap_err();
    assert!(
        err.to_string().contains("stack overflow") || err.budget().is_some(),
        "{err}"
    );
    still_works(&h);
}

#[test]
fn memory_bombs_are_stopped() {
    stopped(
        "local s = string.rep('x', 1 << 30)\nreturn #s",
        Budget::Memory,
        1,
    );
    stopped(
        "local t = {}\nfor i = 1, 1e9 do t[i] = i end",
        Budget::Memory,
        2,
    );
    stopped(
        "local s = 'x'\nwhile true do s = s .. s end",
        Budget::Memory,
        2,
    );
    stopped(
        "local ok = pcall(string.rep, 'x', 1 << 30)\nreturn 'swallowed'",
        Budget::Memory,
        1,
    );
}

#[test]
fn deadline_and_interrupt_stop_a_script() {
    let limits = Budgets {
        instructions: u64::MAX,
        deadline: Duration::from_millis(50),
        ..LIMITS
    };
    let h = ScriptHost::new(limits, repo().join("rulesets"), repo().join("scripts")).unwrap();
    let err = eval(&h, "while true do end").unwrap_err();
    assert_eq!(err.budget(), Some(Budget::Deadline));
    still_works(&h);

    let limits = Budgets {
        instructions: u64::MAX,
        deadline: Duration::from_secs(60),
        ..LIMITS
    };
    let mut h = ScriptHost::new(limits, repo().join("rulesets"), repo().join("scripts")).unwrap();
    let control = Control::new();
    h.set_control(control.clone());
    let setter = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(50));
        control.interrupt();
    });
    let err = eval(&h, "while true do end").unwrap_err();
    setter.join().unwrap();
    assert_eq!(err.budget(), Some(Budget::Interrupted));
    assert_eq!(err.location.as_deref(), Some("test.lua:1"));
    still_works(&h);
}

/// An umpire who takes `pause` to type each die, always a 3; the time is reported to
/// `control` as time spent waiting (as the shell's entry does).
struct SlowUmpire {
    pause: Duration,
    asked: usize,
    control: Option<Arc<Control>>,
}

impl crate::dice::DieEntry for SlowUmpire {
    fn enter(&mut self, _: &crate::dice::DieRequest<'_>) -> Result<i64, String> {
        let control = self.control.clone().expect("set by eval_typed");
        control.waiting(|| std::thread::sleep(self.pause));
        self.asked += 1;
        Ok(3)
    }
}

/// Evaluates `code` with dice typed by a slow umpire, through the control `h` shares.
fn eval_typed(
    h: &ScriptHost,
    code: &str,
    umpire: &mut SlowUmpire,
) -> Result<Vec<String>, ScriptError> {
    umpire.control = Some(h.control());
    let mut dice = DiceBox::seeded(1);
    dice.set_mode(crate::dice::DiceMode::Enter);
    let mut src = dice.source(Some(umpire));
    h.eval("test.lua", code, &mut src).map(|(v, _)| v)
}

#[test]
fn waiting_for_typed_dice_counts_against_no_budget_but_work_after_them_does() {
    let limits = Budgets {
        instructions: u64::MAX,
        deadline: Duration::from_millis(60),
        ..LIMITS
    };
    let h = ScriptHost::new(limits, repo().join("rulesets"), repo().join("scripts")).unwrap();
    // Three dice, each typed after four times the deadline: the call still succeeds.
    let mut umpire = SlowUmpire {
        pause: Duration::from_millis(240),
        asked: 0,
        control: None,
    };
    let got = eval_typed(
        &h,
        "local a = umpire.roll('1d6') local b = umpire.roll('2d6') return a + b",
        &mut umpire,
    )
    .unwrap();
    assert_eq!(got, ["9"]);
    assert_eq!(umpire.asked, 3);
    // A loop after the dice is still stopped at the deadline.
    let err = eval_typed(&h, "umpire.roll('1d6') while true do end", &mut umpire).unwrap_err();
    assert_eq!(err.budget(), Some(Budget::Deadline));
    assert_eq!(err.location.as_deref(), Some("test.lua:1"));
    still_works(&h);
}

// --- dice ---

#[test]
fn roll_goes_through_the_callers_dice() {
    let h = host();
    let mut dice = DiceBox::seeded(1);
    dice.enqueue([3, 4, 6]);
    let mut src = dice.source(None);
    let (vals, out) = h
        .eval(
            "test.lua",
            "local t, d = umpire.roll('2d6')\nreturn t, #d, d[1], d[2], math.random(6)",
            &mut src,
        )
        .unwrap();
    assert_eq!(vals, ["7", "2", "3", "4", "6"]);
    assert_eq!(out.rolls.len(), 2);
    assert_eq!(out.rolls[0].expr(), "2d6");
    assert_eq!(out.rolls[0].total, 7.0);
}

#[test]
fn keep_highest_lists_dropped_dice() {
    let h = host();
    let mut dice = DiceBox::seeded(1);
    dice.enqueue([2, 5, 6, 1]);
    let mut src = dice.source(None);
    let (vals, _) = h
        .eval(
            "test.lua",
            "local t, d = umpire.roll('4d6kh3')\nreturn t, #d, d.dropped[1]",
            &mut src,
        )
        .unwrap();
    assert_eq!(vals, ["13", "3", "1"]);
}

#[test]
fn math_random_needs_bounds_and_rolls_in_range() {
    contained("return math.random()", "needs bounds");
    let h = host();
    for v in eval(
        &h,
        "local t = {} for i = 1, 50 do t[i] = math.random(2, 4) end return table.unpack(t)",
    )
    .unwrap()
    {
        let v: i64 = v.parse().unwrap();
        assert!((2..=4).contains(&v));
    }
}

#[test]
fn bad_dice_are_an_error_with_the_line() {
    let err = contained("local x = 1\nreturn umpire.roll('2d')", "bad dice `2d`");
    assert_eq!(err.location.as_deref(), Some("test.lua:2"), "{err}");
}

// --- loading and registration ---

/// A temporary `rulesets/NAME/init.lua` (and `scripts/`) holding `code`.
fn temp_ruleset(name: &str, code: &str) -> (tempfile::TempDir, RuleSource) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("rulesets").join(name)).unwrap();
    std::fs::create_dir_all(dir.path().join("scripts")).unwrap();
    std::fs::write(
        dir.path().join("rulesets").join(name).join("init.lua"),
        code,
    )
    .unwrap();
    let src = RuleSource::new(dir.path(), Some(name));
    (dir, src)
}

fn load_err(code: &str) -> ScriptError {
    let (_dir, src) = temp_ruleset("bad", code);
    load(&src, LIMITS, Arc::default()).unwrap_err()
}

#[test]
fn the_demo_registers_everything() {
    let Loaded { rules, .. } = demo();
    assert_eq!(rules.name.as_deref(), Some("demo"));
    let shoot = &rules.commands["shoot"];
    assert_eq!(shoot.origin.to_string(), "rulesets/demo/init.lua:33");
    assert_eq!(shoot.args.len(), 3);
    assert_eq!(shoot.args[0].kind, ArgKind::Unit);
    assert!(shoot.args[1].optional && shoot.args[2].optional);
    assert_eq!(rules.schema.unit["sp"].default, V::Int(4));
    assert_eq!(rules.schema.sequence.steps.len(), 3);
    assert!(rules.schema.markers.contains_key("pinned"));
    for t in ["morale", "quality", "weather"] {
        rules.tables.get(t).unwrap();
    }
    assert_eq!(rules.variants[0].name, "classic");
    assert_eq!(rules.handlers.len(), 3);
    let files: Vec<String> = rules
        .files
        .iter()
        .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(files, ["init.lua", "tables.lua"]);
}

/// A game under `rules`' schema: side `s`, command `c`, units `a1` and `b2` (named `A1`, `B2`).
fn demo_game(rules: &Rules) -> crate::state::Game {
    let mut g = crate::state::Game::new(rules.schema.clone());
    g.add_side("s", "S").unwrap();
    g.add_command("s", "c", "C").unwrap();
    for (id, name) in [("a1", "A1"), ("b2", "B2")] {
        g.add_unit("c", id, name, []).unwrap();
    }
    g
}

/// Runs command `name` of `l` on `game` with `queue` as the dice.
fn run_on(
    l: &Loaded,
    game: &mut crate::state::Game,
    name: &str,
    args: &[(&str, ArgValue)],
    queue: &[i64],
) -> Result<CallOutput, ScriptError> {
    let mut dice = DiceBox::seeded(1);
    dice.enqueue(queue.iter().copied());
    let mut s = dice.source(None);
    let mut changes = crate::state::ChangeSet::new();
    let mut world = World {
        game,
        changes: &mut changes,
    };
    l.host
        .run_command(&l.rules, name, args, &mut s, Some(&mut world))
}

/// Runs `name` of the demo on a fresh demo game.
fn run_demo(l: &Loaded, name: &str, args: &[(&str, ArgValue)], queue: &[i64]) -> CallOutput {
    let mut g = demo_game(&l.rules);
    run_on(l, &mut g, name, args, queue).unwrap()
}

fn unit(id: &str) -> ArgValue {
    ArgValue::Unit(id.into())
}

#[test]
fn a_command_runs_with_its_arguments_and_dice() {
    let l = demo();
    let out = run_demo(&l, "shoot", &[("firer", unit("a1"))], &[4]);
    assert_eq!(out.output, ["A1 [a1] hits (4)"]);
    assert_eq!(out.rolls.len(), 1);
    let out = run_demo(
        &l,
        "shoot",
        &[
            ("firer", unit("a1")),
            ("modifier", ArgValue::Value(V::Int(-1))),
        ],
        &[4],
    );
    assert_eq!(out.output, ["A1 [a1] misses (3)"]);
}

#[test]
fn units_change_with_a_reason_and_the_store_keeps_data() {
    let l = demo();
    let mut g = demo_game(&l.rules);
    let out = run_on(
        &l,
        &mut g,
        "shoot",
        &[("firer", unit("a1")), ("target", unit("b2"))],
        &[6],
    )
    .unwrap();
    assert_eq!(g.attr("b2", "sp"), Some(&V::Int(3)));
    assert_eq!(out.notes.len(), 1);
    assert_eq!(out.notes[0].change, "b2 sp 4 → 3");
    assert_eq!(out.notes[0].reason, "hit by A1 [a1] (5.2.4)");
    assert_eq!(g.stored("demo", "shots"), Some(&serde_json::json!(1)));
    run_on(&l, &mut g, "shoot", &[("firer", unit("a1"))], &[1]).unwrap();
    assert_eq!(g.stored("demo", "shots"), Some(&serde_json::json!(2)));

    // A change without a reason is refused, naming what is missing.
    let (_dir, src) = temp_ruleset(
        "bare",
        "umpire.command{name = 'x', args = {{name = 'u', type = 'unit'}}, run = function(ctx, a)\n  a.u:set('sp', 1)\nend}",
    );
    let bare = load(&src, LIMITS, Arc::default()).unwrap();
    let err = run_on(&bare, &mut g, "x", &[("u", unit("a1"))], &[]).unwrap_err();
    assert!(err.to_string().contains("needs a reason"), "{err}");
    assert_eq!(err.location.as_deref(), Some("rulesets/bare/init.lua:2"));
}

#[test]
fn a_variant_changes_the_rules() {
    let mut src = RuleSource::new(repo(), Some("demo"));
    src.variant = Some("classic".into());
    let l = load(&src, LIMITS, Arc::default()).unwrap();
    let out = run_demo(&l, "shoot", &[("firer", unit("a1"))], &[4]);
    assert_eq!(out.output, ["A1 [a1] misses (4)"]);

    src.variant = Some("modern".into());
    let err = load(&src, LIMITS, Arc::default()).unwrap_err();
    assert!(err.to_string().contains("no variant `modern`"), "{err}");
}

#[test]
fn events_reach_handlers_and_pre_events_cancel() {
    let l = demo();
    let mut g = demo_game(&l.rules);
    let mut dice = DiceBox::seeded(1);
    let mut s = dice.source(None);
    let (go, out) = l
        .host
        .emit(
            &l.rules,
            "round_begins",
            &[("round", ArgValue::Value(V::Int(3)))],
            &mut s,
            None,
        )
        .unwrap();
    assert!(go);
    assert_eq!(out.output, ["round 3 begins"]);
    g.mark("b2", "routed", None).unwrap();
    let mut changes = crate::state::ChangeSet::new();
    let mut world = World {
        game: &mut g,
        changes: &mut changes,
    };
    let (go, out) = l
        .host
        .emit(
            &l.rules,
            "pre_shoot",
            &[("firer", unit("b2"))],
            &mut s,
            Some(&mut world),
        )
        .unwrap();
    assert!(!go);
    assert_eq!(out.output, ["B2 [b2] is routed and cannot shoot (7.3)"]);
    let (go, _) = l
        .host
        .emit(
            &l.rules,
            "pre_shoot",
            &[("firer", unit("a1"))],
            &mut s,
            Some(&mut world),
        )
        .unwrap();
    assert!(go);
}

#[test]
fn a_lua_error_in_a_command_names_file_line_and_command() {
    let (_dir, src) = temp_ruleset(
        "oops",
        "umpire.command{name = 'boom', run = function(ctx, args)\n  local t = nil\n  return t.x\nend}\n",
    );
    let Loaded { host, rules } = load(&src, LIMITS, Arc::default()).unwrap();
    let mut dice = DiceBox::seeded(1);
    let mut s = dice.source(None);
    let err = host
        .run_command(&rules, "boom", &[], &mut s, None)
        .unwrap_err();
    assert_eq!(err.location.as_deref(), Some("rulesets/oops/init.lua:3"));
    let shown = err.to_string();
    assert!(shown.contains("while running command `boom`"), "{shown}");
    assert!(shown.contains("attempt to index a nil value"), "{shown}");
    assert!(!shown.contains("stack traceback"), "{shown}");
    let tb = err.traceback.as_deref().unwrap_or_default();
    assert!(tb.contains("rulesets/oops/init.lua:3"), "{err:?}");
}

#[test]
fn a_runaway_command_names_its_line_and_the_next_call_works() {
    let (_dir, src) = temp_ruleset(
        "loop",
        "umpire.command{name = 'spin', run = function()\n  while true do end\nend}\numpire.command{name = 'ok', run = function() return 'fine' end}\n",
    );
    let Loaded { host, rules } = load(&src, LIMITS, Arc::default()).unwrap();
    let mut dice = DiceBox::seeded(1);
    let mut s = dice.source(None);
    let err = host
        .run_command(&rules, "spin", &[], &mut s, None)
        .unwrap_err();
    assert_eq!(err.budget(), Some(Budget::Instructions));
    assert_eq!(err.location.as_deref(), Some("rulesets/loop/init.lua:2"));
    assert!(
        err.to_string().contains("while running command `spin`"),
        "{err}"
    );
    assert_eq!(
        host.run_command(&rules, "ok", &[], &mut s, None)
            .unwrap()
            .output,
        ["fine"]
    );
}

#[test]
fn registration_is_strict() {
    let err = load_err("umpire.command{name = 'x', run = function() end, helpp = 'typo'}");
    assert!(err.to_string().contains("unknown key `helpp`"), "{err}");
    assert_eq!(err.location.as_deref(), Some("rulesets/bad/init.lua:1"));
    assert!(
        err.to_string()
            .contains("while loading rulesets/bad/init.lua"),
        "{err}"
    );

    let err = load_err("\numpire.ruleset{name = 'x', schema = {unit = {sp = {type = 'integer'}}}}");
    assert!(err.to_string().contains("unknown type `integer`"), "{err}");
    assert_eq!(err.location.as_deref(), Some("rulesets/bad/init.lua:2"));

    let err = load_err(
        "umpire.command{name = 'x', run = function() end}\numpire.command{name = 'x', run = function() end}",
    );
    assert!(
        err.to_string()
            .contains("already registered at rulesets/bad/init.lua:1"),
        "{err}"
    );

    let err = load_err(
        "umpire.command{name = 'x', args = {{name = 'n', type = 'nmber'}}, run = function() end}",
    );
    assert!(err.to_string().contains("unknown type `nmber`"), "{err}");

    let err =
        load_err("umpire.table{name = 't', dice = '1d6', rows = {{'1-3', 'a'}, {'5-6', 'b'}}}");
    assert!(
        err.location.as_deref() == Some("rulesets/bad/init.lua:1"),
        "{err}"
    );
}

#[test]
fn rolling_while_loading_is_an_error() {
    let err = load_err("local x = umpire.roll('1d6')");
    assert!(
        err.to_string().contains("while a command or an event runs"),
        "{err}"
    );
}

#[test]
fn a_syntax_error_names_file_and_line() {
    let err = load_err("local x = 1\nlocal y = = 2\n");
    assert_eq!(
        err.location.as_deref(),
        Some("rulesets/bad/init.lua:2"),
        "{err}"
    );
}

#[test]
fn a_runaway_load_is_stopped() {
    let err = load_err("local x\nwhile true do x = 1 end");
    assert_eq!(err.budget(), Some(Budget::Instructions));
    assert_eq!(err.location.as_deref(), Some("rulesets/bad/init.lua:2"));
}

#[test]
fn house_rules_layer_over_the_ruleset() {
    let (dir, mut src) = temp_ruleset(
        "base",
        "umpire.command{name = 'a', run = function() return 'a' end}",
    );
    std::fs::write(
        dir.path().join("scripts/extra.lua"),
        "umpire.command{name = 'b', run = function() return 'b' end}",
    )
    .unwrap();
    src.house.push("extra".into());
    let Loaded { rules, .. } = load(&src, LIMITS, Arc::default()).unwrap();
    assert_eq!(rules.commands.keys().collect::<Vec<_>>(), ["a", "b"]);
    assert_eq!(rules.commands["b"].origin.file, "scripts/extra.lua");
}

// --- reload ---

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.path().is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

fn shoot(l: &Loaded, die: i64) -> String {
    run_demo(l, "shoot", &[("firer", unit("a1"))], &[die])
        .output
        .join("\n")
}

/// Waits for the reload that follows an edit, then lets stray events settle.
fn next_reload(r: &mut Reloader) -> Result<Loaded, ScriptError> {
    let got = r
        .wait(Duration::from_secs(10))
        .expect("no reload after an edit");
    std::thread::sleep(Duration::from_millis(400));
    while let Some(again) = r.poll() {
        if got.is_ok() != again.is_ok() {
            return again;
        }
    }
    got
}

#[test]
fn reload_swaps_in_good_rules_and_keeps_the_old_on_error() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(
        &repo().join("rulesets/demo"),
        &dir.path().join("rulesets/demo"),
    );
    let src = RuleSource::new(dir.path(), Some("demo"));
    let init = dir.path().join("rulesets/demo/init.lua");
    let original = std::fs::read_to_string(&init).unwrap();

    let mut r = Reloader::new(src, LIMITS, Arc::default());
    let mut live = r.reload().unwrap();
    assert_eq!(live.rules.generation, 1);
    r.watch().unwrap();
    assert_eq!(shoot(&live, 4), "A1 [a1] hits (4)");

    // An edit: new behaviour after the poll.
    std::fs::write(&init, original.replace(" hits (", " HITS (")).unwrap();
    live = next_reload(&mut r).unwrap();
    assert!(live.rules.generation >= 2);
    assert_eq!(shoot(&live, 4), "A1 [a1] HITS (4)");

    // A broken edit: the error names file and line; the old rules stay.
    std::fs::write(&init, original.replace("local need =", "local need = =")).unwrap();
    let err = next_reload(&mut r).unwrap_err();
    let line = original
        .lines()
        .position(|l| l.contains("local need ="))
        .unwrap()
        + 1;
    assert_eq!(
        err.location,
        Some(format!("rulesets/demo/init.lua:{line}")),
        "{err}"
    );
    assert_eq!(shoot(&live, 4), "A1 [a1] HITS (4)");
    let generation = r.generation();

    // The fix: new behaviour again.
    std::fs::write(&init, original.replace(" hits (", " hit! (")).unwrap();
    live = next_reload(&mut r).unwrap();
    assert!(live.rules.generation > generation);
    assert_eq!(shoot(&live, 4), "A1 [a1] hit! (4)");

    // A required module is watched too.
    let tables = dir.path().join("rulesets/demo/tables.lua");
    let t = std::fs::read_to_string(&tables).unwrap();
    std::fs::write(&tables, t.replace("\"holds\"", "\"stands firm\"")).unwrap();
    live = next_reload(&mut r).unwrap();
    let morale = live.rules.tables.get("morale").unwrap();
    assert!(format!("{morale:?}").contains("stands firm"));
}

#[test]
fn reload_by_hand_rebuilds_from_scratch() {
    let mut r = Reloader::new(
        RuleSource::new(repo(), Some("demo")),
        LIMITS,
        Arc::default(),
    );
    let a = r.reload().unwrap();
    let b = r.reload().unwrap();
    assert_eq!(a.rules.commands.len(), b.rules.commands.len());
    assert_eq!(b.rules.generation, 2);
    assert_eq!(r.generation(), 2);
}

// --- the breakdown builder ---

#[test]
fn a_check_renders_one_line_per_factor_with_its_rule() {
    let l = demo();
    let out = run_demo(
        &l,
        "shoot",
        &[
            ("firer", unit("a1")),
            ("modifier", ArgValue::Value(V::Int(-2))),
        ],
        &[5],
    );
    assert_eq!(out.checks.len(), 1);
    let c = &out.checks[0];
    assert_eq!(c.total, 3.0);
    assert_eq!(c.result.as_deref(), Some("miss"));
    assert_eq!(
        c.to_string(),
        "Shooting 5.2\n      5  to hit: 1d6 [5] (5.2.1)\n     -2  modifiers (5.2.2)\n  =   3  miss"
    );
    assert_eq!(out.render(), format!("{c}\nA1 [a1] misses (3)"));
}

#[test]
fn a_house_rule_hooks_into_a_check() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(
        &repo().join("rulesets/demo"),
        &dir.path().join("rulesets/demo"),
    );
    std::fs::create_dir_all(dir.path().join("scripts")).unwrap();
    std::fs::write(
        dir.path().join("scripts/smoke.lua"),
        "umpire.hook('shooting.modifiers', function(c, ctx)\n  c:add(-1, 'smoke', 'house')\n  c:remove('modifiers')\nend)\n",
    )
    .unwrap();
    let mut src = RuleSource::new(dir.path(), Some("demo"));
    src.house.push("smoke".into());
    std::fs::write(
        dir.path().join("scripts/name.lua"),
        "assert(umpire.ruleset_name() == 'demo', 'the ruleset is known while house rules load')\n",
    )
    .unwrap();
    src.house.push("name".into());
    let Loaded { host, rules } = load(&src, LIMITS, Arc::default()).unwrap();
    assert_eq!(rules.hooks[0].origin.to_string(), "scripts/smoke.lua:1");
    let l = Loaded { host, rules };
    let out = run_demo(
        &l,
        "shoot",
        &[
            ("firer", unit("a1")),
            ("modifier", ArgValue::Value(V::Int(2))),
        ],
        &[5],
    );
    let labels: Vec<&str> = out.checks[0]
        .factors
        .iter()
        .map(|f| f.label.as_str())
        .collect();
    assert_eq!(labels, ["to hit", "smoke"]);
    assert_eq!(out.output, ["A1 [a1] hits (4)"]);
}

#[test]
fn the_sandbox_keeps_ordinary_pcall_and_coroutines_working() {
    let h = host();
    assert_eq!(
        eval(&h, "local ok, e = pcall(error, 'x', 0); return ok, e").unwrap(),
        ["false", "x"]
    );
    assert_eq!(
        eval(
            &h,
            "local ok, e = pcall(error, {code = 7}); return ok, e.code"
        )
        .unwrap(),
        ["false", "7"]
    );
    assert_eq!(
        eval(&h, "local co = coroutine.wrap(function(a) local b = coroutine.yield(a + 1) return b * 2 end)\nreturn co(1), co(5)").unwrap(),
        ["2", "10"]
    );
    stopped(
        "xpcall(function()\n  while true do end\nend, function(e) while true do end end)\nreturn 'swallowed'",
        Budget::Instructions,
        2,
    );
}

// --- tables from Lua ---

#[test]
fn tables_are_looked_up_and_rolled_through_the_host() {
    let l = demo();
    let mut g = demo_game(&l.rules);
    let q = |v: &str| ArgValue::Value(V::Text(v.into()));
    let out = run_on(
        &l,
        &mut g,
        "morale",
        &[("unit", unit("b2")), ("quality", q("veteran"))],
        &[3, 4],
    )
    .unwrap();
    assert_eq!(out.checks[0].total, 8.0);
    assert_eq!(out.checks[0].result.as_deref(), Some("holds"));
    assert_eq!(out.rolls.len(), 1);
    let out = run_on(
        &l,
        &mut g,
        "morale",
        &[
            ("unit", unit("b2")),
            ("pinned", ArgValue::Value(V::Flag(true))),
        ],
        &[3, 4],
    )
    .unwrap();
    assert_eq!(out.checks[0].total, 6.0);
    assert_eq!(out.checks[0].result.as_deref(), Some("falls back"));
    assert_eq!(
        out.notes[0].change,
        "b2 marked pinned (end of the next turn of s)"
    );
    let rolled = eval_with_dice(&l.host, "return umpire.roll_table('morale', 1)", &[5, 6]);
    assert_eq!(rolled, ["holds", "12"]);
    let handle = eval_with_dice(
        &l.host,
        "local q = umpire.table('quality')\nlocal m = umpire.table('morale')\nreturn q:lookup('green'), m:roll(-1)",
        &[1, 2],
    );
    assert_eq!(handle, ["-1", "falls back", "2"]);
    let err = contained("return umpire.lookup('quality', 'elite')", "elite");
    assert_eq!(err.location.as_deref(), Some("test.lua:1"));
    contained("return umpire.roll_table('nosuch')", "nosuch");
}

#[test]
fn a_module_outside_the_ruleset_folder_is_watched() {
    let (dir, src) = temp_ruleset(
        "r",
        "local u = require 'common.util'\numpire.command{name = 'v', run = function() return u.v end}\n",
    );
    let util = dir.path().join("rulesets/common/util.lua");
    std::fs::create_dir_all(util.parent().unwrap()).unwrap();
    std::fs::write(&util, "return {v = 'one'}\n").unwrap();
    let mut r = Reloader::new(src, LIMITS, Arc::default());
    let live = r.reload().unwrap();
    r.watch().unwrap();
    let run = |l: &Loaded| {
        let mut dice = DiceBox::seeded(1);
        let mut s = dice.source(None);
        l.host
            .run_command(&l.rules, "v", &[], &mut s, None)
            .unwrap()
            .output
    };
    assert_eq!(run(&live), ["one"]);
    std::fs::write(&util, "return {v = 'two'}\n").unwrap();
    let live = next_reload(&mut r).unwrap();
    assert_eq!(run(&live), ["two"]);
}

#[test]
fn attribute_defaults_are_normalised_to_their_type() {
    let (_dir, src) = temp_ruleset(
        "n",
        "umpire.ruleset{name = 'n', schema = {unit = {pcp = {type = 'number', default = 0}}}}",
    );
    let l = load(&src, LIMITS, Arc::default()).unwrap();
    assert_eq!(l.rules.schema.unit["pcp"].default, V::Num(0.0));
    let err = load_err(
        "umpire.ruleset{name = 'n', schema = {unit = {q = {type = 'int', default = 'x'}}}}",
    );
    assert!(err.to_string().contains("the default x is not"), "{err}");
}

#[test]
fn sides_and_commands_are_handles_and_refusals_are_plain() {
    let (_dir, src) = temp_ruleset(
        "g",
        "umpire.ruleset{name = 'g', schema = {side = {morale = {type = 'int', default = 3}}, unit = {sp = 'int'}, markers = {routed = 'r'}}}\n\
         umpire.command{name = 'x', args = {{name = 's', type = 'side'}}, run = function(ctx, a)\n\
           local c = umpire.group('c')\n\
           a.s:set('morale', a.s.morale - 1, 'a bad day')\n\
           return a.s.name .. ' ' .. a.s.morale .. ' ' .. c.name .. ' ' .. c.side .. ' ' .. #umpire.units('marked:routed')\n\
         end}\n\
         umpire.command{name = 'no', run = function() umpire.fail('not in this phase (3.3)') end}\n\
         umpire.command{name = 'typo', run = function() return umpire.unit('a1'):has('rooted') end}\n",
    );
    let l = load(&src, LIMITS, Arc::default()).unwrap();
    let mut g = crate::state::Game::new(l.rules.schema.clone());
    g.add_side("s", "Blue").unwrap();
    g.add_command("s", "c", "Foot").unwrap();
    g.add_unit("c", "a1", "A1", []).unwrap();
    let out = run_on(&l, &mut g, "x", &[("s", unit("s"))], &[]).unwrap();
    assert_eq!(out.output, ["Blue [s] 2 Foot [c] s 0"]);
    assert_eq!(g.attr("s", "morale"), Some(&V::Int(2)));
    let err = run_on(&l, &mut g, "no", &[], &[]).unwrap_err();
    assert_eq!(err.to_string(), "not in this phase (3.3)");
    assert!(err.traceback.is_none());
    let err = run_on(&l, &mut g, "typo", &[], &[]).unwrap_err();
    assert!(err.to_string().contains("rooted"), "{err}");
}

/// A game under `l`'s schema with one unit `a1` (side `s`, command `c`) of two elements,
/// `e1` and `e2`.
fn one_squad(l: &Loaded) -> crate::state::Game {
    let mut g = crate::state::Game::new(l.rules.schema.clone());
    g.add_side("s", "S").unwrap();
    g.add_command("s", "c", "C").unwrap();
    g.add_unit("c", "a1", "A1", []).unwrap();
    g.add_element("a1", "e1", "E1", []).unwrap();
    g.add_element("a1", "e2", "E2", []).unwrap();
    g
}

#[test]
fn an_id_has_one_handle_while_scripts_hold_it() {
    let (_dir, src) = temp_ruleset(
        "h",
        "umpire.ruleset{name = 'h', schema = {element = {hp = {type = 'int', default = 2}}}}\n\
         local kept\n\
         umpire.command{name = 'x', run = function()\n\
           local u = umpire.unit('a1')\n\
           local seen = {}\n\
           for _, e in ipairs(u:elements()) do seen[e] = true end\n\
           local same = 0\n\
           for _, e in ipairs(u:elements('hp>0')) do if seen[e] then same = same + 1 end end\n\
           local again = rawequal(u, umpire.unit('a1')) and rawequal(u, umpire.unit(u))\n\
           local before = kept and rawequal(kept, u)\n\
           kept = u\n\
           return same .. ' ' .. tostring(again) .. ' ' .. tostring(before) .. ' ' .. (next(u) == nil and 'empty' or 'fields')\n\
         end}\n",
    );
    let l = load(&src, LIMITS, Arc::default()).unwrap();
    let mut g = one_squad(&l);
    let out = run_on(&l, &mut g, "x", &[], &[]).unwrap();
    // A second listing gives the same handles: usable as the same keys of a table.
    assert_eq!(out.output, ["2 true nil empty"]);
    // A handle a script kept is the one the next command gets.
    let out = run_on(&l, &mut g, "x", &[], &[]).unwrap();
    assert_eq!(out.output, ["2 true true empty"]);
}

#[test]
fn a_handle_is_recorded_and_stored_as_its_id() {
    let (_dir, src) = temp_ruleset(
        "k",
        "umpire.ruleset{name = 'k'}\n\
         umpire.command{name = 'x', run = function()\n\
           local u = umpire.unit('a1')\n\
           local els = u:elements()\n\
           umpire.record('who', { unit = u, side = umpire.side('s'), group = umpire.group('c'), els = els })\n\
           store.target = u\n\
           store.pair = { els[1], els[2] }\n\
           return type(store.target)\n\
         end}\n",
    );
    let l = load(&src, LIMITS, Arc::default()).unwrap();
    let mut g = one_squad(&l);
    let out = run_on(&l, &mut g, "x", &[], &[]).unwrap();
    // Not `{}` (a handle's table is empty): the id, which a program or a later command can use.
    assert_eq!(
        out.record["who"],
        serde_json::json!({"unit": "a1", "side": "s", "group": "c", "els": ["e1", "e2"]})
    );
    assert_eq!(out.output, ["string"]);
    assert_eq!(g.stored("k", "target"), Some(&serde_json::json!("a1")));
    assert_eq!(
        g.stored("k", "pair"),
        Some(&serde_json::json!(["e1", "e2"]))
    );
}

#[test]
fn what_a_call_has_read_follows_its_own_changes() {
    let (_dir, src) = temp_ruleset(
        "c",
        "umpire.ruleset{name = 'c', schema = {unit = {sp = {type = 'int', default = 5}}, markers = {routed = 'r'}}}\n\
         umpire.command{name = 'x', run = function()\n\
           local a, b = umpire.unit('a1'), umpire.unit('a1')\n\
           local before, marked = a.sp, a:has('routed')\n\
           b:set('sp', before - 2, 'hit')\n\
           b:mark('routed', 'broke')\n\
           return before .. ' ' .. a.sp .. ' ' .. tostring(marked) .. ' ' .. tostring(a:has('routed'))\n\
         end}\n",
    );
    let l = load(&src, LIMITS, Arc::default()).unwrap();
    let mut g = crate::state::Game::new(l.rules.schema.clone());
    g.add_side("s", "S").unwrap();
    g.add_command("s", "c", "C").unwrap();
    g.add_unit("c", "a1", "A1", []).unwrap();
    let out = run_on(&l, &mut g, "x", &[], &[]).unwrap();
    assert_eq!(out.output, ["5 3 false true"]);
    // The next call reads the game afresh.
    g.set_attr("a1", "sp", V::Int(1)).unwrap();
    g.unmark("a1", "routed").unwrap();
    let out = run_on(&l, &mut g, "x", &[], &[]).unwrap();
    assert_eq!(out.output, ["1 -1 false true"]);
}

/// The demo ruleset with the house rule `scripts/NAME.lua` holding `body`, loaded.
fn demo_with_house_rule(name: &str, body: &str) -> (tempfile::TempDir, Loaded) {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(
        &repo().join("rulesets/demo"),
        &dir.path().join("rulesets/demo"),
    );
    std::fs::create_dir_all(dir.path().join("scripts")).unwrap();
    std::fs::write(dir.path().join(format!("scripts/{name}.lua")), body).unwrap();
    let mut src = RuleSource::new(dir.path(), Some("demo"));
    src.house.push(name.into());
    let loaded = load(&src, LIMITS, Arc::default()).unwrap();
    (dir, loaded)
}

#[test]
fn a_budget_that_runs_out_in_the_hosts_own_lua_names_the_rules_line_that_called_it() {
    // The loop spends nearly all its instructions inside the breakdown builder (trusted Lua):
    // the error must still name the house rule's line, never `=umpire check`.
    let (_dir, l) = demo_with_house_rule(
        "loop",
        "umpire.hook('shooting.modifiers', function(c, ctx)\n  c:add(1, 'x')\n  while true do c:find('y'); c:total() end\nend)\n",
    );
    let mut g = demo_game(&l.rules);
    let err = run_on(&l, &mut g, "shoot", &[("firer", unit("a1"))], &[4]).unwrap_err();
    assert_eq!(err.budget(), Some(Budget::Instructions), "{err}");
    assert_eq!(err.location.as_deref(), Some("scripts/loop.lua:3"), "{err}");
    assert!(!err.to_string().contains("=umpire"), "{err}");
}

#[test]
fn a_deliberate_refusal_reads_as_plain_text() {
    for body in [
        "umpire.hook('shooting.modifiers', function(c) error('the mist hides the target', 0) end)\n",
        "umpire.hook('shooting.modifiers', function(c) umpire.fail('the mist hides the target') end)\n",
    ] {
        let (_dir, l) = demo_with_house_rule("mist", body);
        let mut g = demo_game(&l.rules);
        let err = run_on(&l, &mut g, "shoot", &[("firer", unit("a1"))], &[4]).unwrap_err();
        assert_eq!(err.to_string(), "the mist hides the target", "{body}");
        assert!(matches!(err.kind, ScriptErrorKind::Refused(_)), "{body}");
        assert_eq!(err.traceback, None, "{body}");
    }
    // An error with a position (the default level) is a fault in the script: it keeps its
    // file and line.
    let (_dir, l) = demo_with_house_rule(
        "broken",
        "umpire.hook('shooting.modifiers', function(c)\n  local x = nil\n  return x.y\nend)\n",
    );
    let mut g = demo_game(&l.rules);
    let err = run_on(&l, &mut g, "shoot", &[("firer", unit("a1"))], &[4]).unwrap_err();
    assert_eq!(
        err.location.as_deref(),
        Some("scripts/broken.lua:3"),
        "{err}"
    );
}

#[path = "raw_tests.rs"]
mod raw;
#[path = "runaway_tests.rs"]
mod runaways;

#[test]
fn pairs_walks_keys_in_one_order_whatever_the_run() {
    let h = host();
    let out = eval(
        &h,
        r#"
        local t = { zeta = 1, alpha = 2, [3] = "c", [1] = "a", mid = 3, [true] = 0, [false] = 0 }
        t.beta = 4
        local ks = {}
        for k in pairs(t) do ks[#ks + 1] = tostring(k) end
        -- a read-only view (the options, a table's rows) walks the same way
        local seen = {}
        for k in pairs(string) do seen[#seen + 1] = k end
        local sorted = true
        for i = 2, #seen do if seen[i - 1] > seen[i] then sorted = false end end
        -- a key set to nil while walking is skipped, the others still come
        local u = { a = 1, b = 2, c = 3 }
        local walked = {}
        for k in pairs(u) do walked[#walked + 1] = k; u.b = nil end
        return table.concat(ks, ","), tostring(sorted), table.concat(walked, ",")
        "#,
    )
    .unwrap();
    assert_eq!(out, ["1,3,alpha,beta,mid,zeta,false,true", "true", "a,c"]);
}

#[test]
fn integers_become_text_as_stock_lua_writes_them() {
    // vendor/lua-src writes integers' digits itself instead of through snprintf.
    let h = host();
    let cases = [
        0i64,
        7,
        -7,
        10,
        99,
        -100,
        1_234_567_890_123,
        i64::MAX,
        i64::MIN,
        i64::MIN + 1,
    ];
    let list = cases
        .iter()
        .map(|n| format!("math.tointeger({n:?}) or math.mininteger"))
        .collect::<Vec<_>>()
        .join(", ");
    let code = format!(
        "local out = {{}}
        for _, n in ipairs({{ {list} }}) do
          out[#out + 1] = tostring(n) .. '|' .. n .. '|' .. string.format('%d', n)
        end
        return table.concat(out, ' ')"
    );
    let want = cases
        .iter()
        .map(|n| format!("{n}|{n}|{n}"))
        .collect::<Vec<_>>()
        .join(" ");
    assert_eq!(eval(&h, &code).unwrap(), [want]);
}
