//! Issue 13, hardening against hostile house rules, in a running shell session: what reaches
//! the terminal is what it seems, the umpire's own controls cannot be cancelled, a house rule
//! cannot rig a battle's dice, and a script cannot make the host hold more than its limits.
//! (The Lua-level escape suite, the budgets and the stop times are in `src/script/`.)

use std::path::Path;

use crate::common::{copy_dir, repo};
use umpire::dice::DiceBox;
use umpire::engine::{Palette, Session, render};

/// A session on a copy of the demo ruleset in a temporary folder, with two units.
fn session() -> (tempfile::TempDir, Session) {
    session_with(&[])
}

/// [`session`] under the limits `NAME=VALUE` (as `--limit` takes them).
fn session_with(limits: &[&str]) -> (tempfile::TempDir, Session) {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(
        &repo().join("rulesets/demo"),
        &dir.path().join("rulesets/demo"),
    );
    std::fs::create_dir_all(dir.path().join("scripts")).unwrap();
    let mut s = Session::new(DiceBox::seeded(1));
    let mut l = umpire::limits::Limits::default();
    for a in limits {
        l.set(a).unwrap();
    }
    s.set_limits(l);
    s.set_rules_root(dir.path().to_path_buf());
    for line in [
        "ruleset use demo",
        "add side red Red",
        "add command red r1 R",
        "add unit r1 a1 Archers",
        "add unit r1 b2 Spears sp=1",
    ] {
        ok(&mut s, line);
    }
    (dir, s)
}

/// Writes `scripts/NAME.lua` and switches it on.
fn house(dir: &Path, s: &mut Session, name: &str, code: &str) {
    std::fs::write(dir.join(format!("scripts/{name}.lua")), code).unwrap();
    ok(s, &format!("house on {name}"));
}

/// Runs `line`, which must succeed; returns what it printed (plain text, as the terminal
/// gets it).
fn ok(s: &mut Session, line: &str) -> String {
    match s.execute(line, None).expect("a command") {
        Ok(out) => render::output(&out, &Palette::plain()),
        Err((_, e)) => panic!("`{line}` failed: {e}"),
    }
}

/// Runs `line`, which must fail; returns the error as the terminal gets it.
fn fails(s: &mut Session, line: &str) -> String {
    match s.execute(line, None).expect("a command") {
        Ok(out) => panic!(
            "`{line}` should have failed: {}",
            render::output(&out, &Palette::plain())
        ),
        Err((_, e)) => render::error(&e, line, None, &Palette::plain()),
    }
}

/// Nothing in `text` a terminal would act on: no C0 control but newline, no DEL, no C1, no
/// bidirectional control.
fn inert(text: &str) -> bool {
    !text.contains(umpire::escape::is_unsafe)
}

// --- what reaches the terminal is what it seems ---

#[test]
fn script_output_reaches_the_terminal_with_its_controls_visible() {
    let (dir, mut s) = session();
    house(
        dir.path(),
        &mut s,
        "liar",
        "-- Prints terminal controls everywhere it can.\n\
         umpire.command{name = 'fake', args = {{name = 'u', type = 'unit'}}, run = function(ctx, a)\n\
           print('\\27[1A\\27[2Kfake: 1d6 (6) = 6')\n\
           print('\\27]0;pwned\\7 and \\27[2J\\27[H and \\r\\27[K')\n\
           print('8-bit CSI \\u{9b}2J, DEL \\127, NEL \\u{85}, bell \\7')\n\
           print('bidi \\u{202e}6 = )6( 6d1\\u{202c} and \\u{2066}isolate\\u{2069}')\n\
           local c = ctx:check('Check \\27[31mred')\n\
           c:add(1, 'label \\27[2K', 'rule \\u{9b}1A')\n\
           c:roll('1d6 [\\27[2J]', 'roll')\n\
           c:result('\\27[32mhit')\n\
           a.u:set('sp', 3, 'reason \\u{202e}txet')\n\
           return '\\27[5mblink'\n\
         end}\n\
         umpire.command{name = 'refuse', run = function() umpire.fail('no \\27[2J way') end}\n\
         umpire.command{name = 'crash', run = function() error('boom \\27]0;title\\7') end}\n",
    );
    let out = ok(&mut s, "fake a1");
    assert!(inert(&out), "{out:?}");
    for shown in [
        "\\u{1b}[1A\\u{1b}[2Kfake: 1d6 (6) = 6",
        "\\u{1b}]0;pwned\\u{7} and \\u{1b}[2J\\u{1b}[H and \\u{d}\\u{1b}[K",
        "8-bit CSI \\u{9b}2J, DEL \\u{7f}, NEL \\u{85}, bell \\u{7}",
        "bidi \\u{202e}6 = )6( 6d1\\u{202c} and \\u{2066}isolate\\u{2069}",
        "Check \\u{1b}[31mred",
        "label \\u{1b}[2K (rule \\u{9b}1A)",
        "1d6 [\\u{1b}[2J]",
        "\\u{1b}[32mhit",
        "reason \\u{202e}txet",
        "\\u{1b}[5mblink",
    ] {
        assert!(out.contains(shown), "`{shown}` not in {out}");
    }
    let err = fails(&mut s, "refuse");
    assert!(inert(&err) && err.contains("no \\u{1b}[2J way"), "{err:?}");
    let err = fails(&mut s, "crash");
    assert!(
        inert(&err) && err.contains("boom \\u{1b}]0;title\\u{7}"),
        "{err:?}"
    );
    // The next command works.
    assert!(ok(&mut s, "roll 1d6").starts_with("1d6 ("));
}

#[test]
fn new_names_with_control_characters_are_refused() {
    let (dir, mut s) = session();
    for line in [
        "add side blue Blue\u{1b}[2J",
        "add command red r2 R\u{9b}1A",
        "add unit r1 c3 Evil\u{202e}stinu",
        "add element a1 e1 E\u{7}",
        "rename a1 Arch\u{1b}]0;x\u{7}ers",
        "rename a1 Arch\rers",
    ] {
        let err = fails(&mut s, line);
        assert!(
            err.contains("names may not hold control characters"),
            "{line}: {err}"
        );
        assert!(inert(&err), "{err:?}");
    }
    assert_eq!(s.state.game.unit_count(), 2);
    assert!(ok(&mut s, "show a1").contains("Archers"));
    // An army file with such a name is refused with its place in the file.
    let army = dir.path().join("evil.toml");
    std::fs::write(
        &army,
        "[[side]]\nid = \"blue\"\nname = \"Blue\"\n[[side.command]]\nid = \"b1\"\nname = \"B\"\n\
         [[side.command.unit]]\nid = \"x1\"\nname = \"X\\u001b[2J\"\n",
    )
    .unwrap();
    let err = fails(&mut s, &format!("army load {}", army.display()));
    assert!(
        err.contains("names may not hold control characters"),
        "{err}"
    );
    assert!(
        s.state.game.side("blue").is_none(),
        "nothing of the file is added"
    );
    // So is a schema naming an attribute or marker with one.
    let schema = dir.path().join("evil_schema.toml");
    std::fs::write(&schema, "[markers.\"shaken\\u001b[2J\"]\ndoc = \"bad\"\n").unwrap();
    let err = fails(&mut s, &format!("schema load {}", schema.display()));
    assert!(
        err.contains("names may not hold control characters"),
        "{err}"
    );
}

#[test]
fn names_already_in_the_game_are_shown_escaped() {
    let (_dir, mut s) = session();
    // As if replayed from an old journal, which keeps names as they were typed.
    s.state
        .apply_changes(vec![umpire::state::Change::Rename {
            id: umpire::state::Id::new("a1").unwrap(),
            old: "Archers".into(),
            new: "Arch\u{1b}[2Jers\u{202e}".into(),
        }])
        .unwrap();
    for line in ["show a1", "shoot a1 b2"] {
        let out = ok(&mut s, line);
        assert!(inert(&out), "{line}: {out:?}");
        assert!(out.contains("Arch\\u{1b}[2Jers\\u{202e}"), "{line}: {out}");
    }
}

#[test]
fn a_typed_line_with_controls_is_shown_escaped_with_the_caret_under_the_bad_part() {
    let (_dir, mut s) = session();
    for (line, bad) in [
        ("roll 1d6 [\u{1b}[2J] + 2x", "x"),
        ("roll 1d6 [\u{202e}] + 2x", "x"),
        ("roll 1d6 \u{9b}2J + 2", "\\u{9b}2J + 2"),
    ] {
        let err = fails(&mut s, line);
        assert!(inert(&err), "{err:?}");
        let lines: Vec<&str> = err.lines().collect();
        let (src, caret) = (lines[1], lines[2]);
        let at = caret.find('^').unwrap();
        let width = caret.trim().chars().count();
        let under: String = src.chars().skip(at).take(width).collect();
        assert_eq!(under, bad, "{err}");
    }
    // A roll whose label holds controls is shown escaped, and so is its line in `log`.
    let out = ok(&mut s, "roll 1d6 [\u{1b}[2J] # \u{1b}]0;x\u{7}");
    assert!(inert(&out) && out.contains("[\\u{1b}[2J]"), "{out:?}");
    assert!(out.contains("# \\u{1b}]0;x\\u{7}"), "{out:?}");
    let log = ok(&mut s, "log 1");
    assert!(inert(&log) && log.contains("\\u{1b}[2J"), "{log:?}");
}

// --- the umpire's own controls cannot be taken away ---

#[test]
fn a_rule_that_would_cancel_one_of_the_umpires_controls_is_refused_at_load() {
    let (dir, mut s) = session();
    let controls = [
        "undo", "redo", "house", "reload", "ruleset", "journal", "quit", "help", "dice", "limits",
        "log", "save", "load", "replay", "show", "status", "clock", "prob",
    ];
    for name in controls {
        std::fs::write(
            dir.path().join("scripts/lockout.lua"),
            format!(
                "-- Locks the umpire out.\nlocal ok = pcall(umpire.on, 'pre_{name}', function() return false end)\n"
            ),
        )
        .unwrap();
        let err = fails(&mut s, "house on lockout");
        assert!(err.contains("scripts/lockout.lua:2"), "{name}: {err}");
        assert!(
            err.contains(&format!("`pre_{name}` is never raised")),
            "{name}: {err}"
        );
    }
    // The same from the ruleset itself, and on a reload after an edit.
    let init = dir.path().join("rulesets/demo/init.lua");
    let original = std::fs::read_to_string(&init).unwrap();
    std::fs::write(
        &init,
        format!("{original}\numpire.on('pre_undo', function() return false end)\n"),
    )
    .unwrap();
    let err = fails(&mut s, "reload");
    assert!(err.contains("rulesets/demo/init.lua:"), "{err}");
    assert!(err.contains("`pre_undo` is never raised"), "{err}");
    // The rules in force are unchanged and every control still works.
    std::fs::write(&init, original).unwrap();
    ok(&mut s, "set a1 sp 2");
    assert!(ok(&mut s, "undo").contains("undone"));
    ok(&mut s, "redo");
    ok(&mut s, "dice");
    ok(&mut s, "help");
    ok(&mut s, "limits");
}

#[test]
fn game_commands_stay_cancellable_and_controls_run_whatever_the_rules_say() {
    let (dir, mut s) = session();
    house(
        dir.path(),
        &mut s,
        "strict",
        "-- Cancels every game command it can.\n\
         for _, name in ipairs({'add', 'remove', 'rename', 'set', 'mark', 'unmark', 'next', 'army', 'schema', 'roll', 'table'}) do\n\
           umpire.on('pre_' .. name, function() print('no ' .. name) return false end)\n\
         end\n",
    );
    for (line, name) in [
        ("set a1 sp 2", "set"),
        ("next", "next"),
        ("roll 1d6", "roll"),
        ("rename a1 Bowmen", "rename"),
        ("mark a1 pinned", "mark"),
        ("table roll weather", "table"),
    ] {
        let out = ok(&mut s, line);
        assert!(
            out.contains(&format!("no {name}")) && out.contains("cancelled"),
            "{out}"
        );
    }
    assert!(ok(&mut s, "show a1").contains("Archers"));
    assert!(ok(&mut s, "house off strict").contains("rules: demo"));
    assert!(ok(&mut s, "set a1 sp 2").contains("sp"));
}

// --- host memory is budgeted too ---

/// Switches on a house rule `hog` with one command `hog` whose body is `code` (with `ctx`,
/// `a.u` a unit handle).
fn hog(dir: &Path, s: &mut Session, code: &str) {
    house(
        dir,
        s,
        "hog",
        &format!(
            "-- Makes the host hold too much.\n\
             umpire.command{{name = 'hog', args = {{{{name = 'u', type = 'unit', optional = true}}}}, run = function(ctx, a)\n{code}\nend}}\n"
        ),
    );
}

/// `hog` fails saying `said`, changes nothing, and the session goes on.
fn refused(limits: &[&str], code: &str, said: &str) {
    let (dir, mut s) = session_with(limits);
    ok(&mut s, "set a1 sp 3");
    hog(dir.path(), &mut s, code);
    let game = s.state.game.clone();
    let records = s.state.journal.len() as usize;
    let start = std::time::Instant::now();
    let err = fails(&mut s, "hog a1");
    let took = start.elapsed();
    assert!(err.contains(said), "{code}: {err}");
    assert!(
        took < std::time::Duration::from_secs(20),
        "{code}: {took:?}"
    );
    assert_eq!(s.state.game, game, "{code}: the game changed");
    assert_eq!(
        s.state.journal.len() as usize,
        records,
        "{code}: journalled"
    );
    assert!(ok(&mut s, "dice queue 4").contains("queued"));
    assert!(ok(&mut s, "shoot a1").contains("Archers [a1] hits (4)"));
}

#[test]
fn the_store_holds_at_most_its_limit_per_script() {
    let big = "local big = ('x'):rep(20 * 1024 * 1024)\n";
    // The issue's case: 20 MB values one after another (here within one command).
    refused(
        &["script-time=60s"],
        &format!("{big}for i = 1, 60 do store['v' .. i] = big end"),
        "the store of `hog` would hold",
    );
    // One value sharing a string many times: refused before it is built.
    refused(
        &["store=1MiB"],
        "local s = ('x'):rep(100000)\nlocal t = {}\nfor i = 1, 1000 do t[i] = s end\nstore.t = t",
        "takes more than the 1 MiB the store of `hog` may hold",
    );
    // Overwriting one key in a loop: the writes of one command are bounded too.
    refused(
        &["store=1MiB"],
        "for i = 1, 1e6 do store.x = ('y'):rep(1000) .. i end",
        "more than the 1 MiB one command may write",
    );
    // Nested deeper than the host can walk, or holding itself.
    refused(
        &[],
        "local t = {}\nfor i = 1, 100000 do t = {t} end\nstore.deep = t",
        "nested more than 64 deep",
    );
    refused(
        &[],
        "local t = {}\nt.me = t\nstore.loop = t",
        "hold themselves",
    );
    // A key as long as a reason is refused too.
    refused(
        &[],
        "store[('k'):rep(5000)] = 1",
        "a store key is 5000 bytes",
    );
    // Across commands the store fills up to the limit, and no further.
    let (dir, mut s) = session_with(&["store=1MiB"]);
    hog(
        dir.path(),
        &mut s,
        "store['k' .. (store.n or 0)] = ('x'):rep(300 * 1024)\nstore.n = (store.n or 0) + 1",
    );
    for _ in 0..3 {
        ok(&mut s, "hog");
    }
    let err = fails(&mut s, "hog");
    assert!(err.contains("would hold"), "{err}");
    ok(&mut s, "undo");
    ok(&mut s, "hog");
}

#[test]
fn one_command_prints_at_most_its_output_limit() {
    for code in [
        "while true do print(('x'):rep(1000)) end",
        "local s = ('x'):rep(8 * 1024 * 1024)\nprint(s, s, s, s, s, s)",
        "return ('x'):rep(2 * 1024 * 1024)",
        "for i = 1, 1e6 do a.u:set('sp', i % 3, ('r'):rep(4000)) end",
        "local c = ctx:check('Long')\nfor i = 1, 1e6 do c:add(1, ('l'):rep(4000)) end",
        "local c = ctx:check('Long')\nfor i = 1, 1e6 do c:roll('1d6', ('l'):rep(4000)) end",
        "for i = 1, 1e6 do ctx:check(('t'):rep(4000)) end",
    ] {
        refused(&[], code, "(the `output` limit");
    }
    // Several calls of one command together: each event's handler prints half the limit.
    let (dir, mut s) = session_with(&["output=64KiB"]);
    house(
        dir.path(),
        &mut s,
        "noisy",
        "-- Talks a lot on every change.\n\
         umpire.on('unit_damaged', function(e) print(('x'):rep(40 * 1024)) end)\n\
         umpire.command{name = 'hurt', run = function()\n\
           for _, u in ipairs(umpire.units('all')) do u:add('sp', -1, 'hurt') end\n\
         end}\n",
    );
    let err = fails(&mut s, "hurt");
    assert!(
        err.contains("more than 65536 bytes (the `output` limit)"),
        "{err}"
    );
    assert_eq!(
        s.state.game.attr("a1", "sp"),
        Some(&umpire::state::Value::Int(4))
    );
    assert!(ok(&mut s, "roll 1d6").starts_with("1d6"));
}

#[test]
fn reasons_labels_titles_and_names_are_at_most_the_text_limit() {
    let huge = "local huge = ('r'):rep(30 * 1024 * 1024)\n";
    for (code, said) in [
        (
            format!("{huge}a.u:set('sp', 2, huge)"),
            "the reason for changing a1 sp is",
        ),
        (
            format!("{huge}a.u:mark('pinned', huge)"),
            "the reason for marking a1 pinned is",
        ),
        (
            format!("{huge}ctx:check('x'):add(1, huge)"),
            "the label of c:add is",
        ),
        (
            format!("{huge}ctx:check('x'):add(1, 'ok', huge)"),
            "the rule of c:add is",
        ),
        (
            format!("{huge}ctx:check(huge)"),
            "the title of ctx:check is",
        ),
        (
            format!("{huge}ctx:check('x'):result(huge)"),
            "the result of c:result is",
        ),
        (
            format!("{huge}ctx:check('x'):roll('1d6', huge)"),
            "the label of c:roll is",
        ),
        (
            "a.u:set('sp', 2, ('r'):rep(4097))".to_string(),
            "is 4097 bytes, more than the 4 KiB",
        ),
    ] {
        refused(&[], &code, said);
    }
    // A club can allow longer texts.
    let (dir, mut s) = session_with(&["text=16KiB"]);
    hog(dir.path(), &mut s, "a.u:set('sp', 2, ('r'):rep(10000))");
    ok(&mut s, "hog a1");
    // A refusal or an error carrying a huge message is cut, saying how much.
    for code in [
        "umpire.fail(('no '):rep(10 * 1024 * 1024))",
        "error(('boom '):rep(2 * 1024 * 1024))",
    ] {
        let (dir, mut s) = session();
        hog(dir.path(), &mut s, code);
        let err = fails(&mut s, "hog");
        assert!(err.len() < 16 * 1024, "{code}: {} bytes", err.len());
        assert!(err.contains("more bytes cut)"), "{code}: {err}");
    }
    // Registered names and docs are held to it at load.
    for code in [
        "umpire.command{name = 'x', args = {{name = ('n'):rep(5000), type = 'int'}}, run = function() end}",
        "umpire.on(('e'):rep(5000), function() end)",
        "umpire.hook(('h'):rep(5000), function() end)",
        "umpire.table{name = ('t'):rep(5000), entries = {{'a', 1}}}",
        "umpire.command{name = 'x', args = {{name = 'c', type = 'choice', values = {'ok', 'bad\\27[2J'}}}, run = function() end}",
        "umpire.on('evil\\27]0;x\\7', function() end)",
        "umpire.command{name = 'x', help = ('h'):rep(2 * 1024 * 1024), run = function() end}",
    ] {
        let (dir, mut s) = session();
        std::fs::write(
            dir.path().join("scripts/names.lua"),
            format!("-- Names.\n{code}\n"),
        )
        .unwrap();
        let err = fails(&mut s, "house on names");
        assert!(err.contains("scripts/names.lua:2"), "{code}: {err}");
        assert!(inert(&err), "{err:?}");
    }
}

// --- a house rule trying to rig the dice leaves a battle's dice unchanged ---

/// Tries everything the issue found, and more, at load, at every hook point of OLAB and in
/// its events; catches every failure itself, so that it loads and the battle goes on. It
/// never prints and never changes a check through its methods: if it changes anything, the
/// battle differs.
const HOSTILE: &str = r#"-- A hostile house rule: tries to rig the dice and to reach what others see.
local function fake(expr) return 12, { 6, 6, dropped = {}, expr = expr }, expr .. " [6, 6]" end
local tries = {
  function() local _, real = pairs(umpire); real.roll = fake end,
  function() local f = pairs(umpire); local k, v = f(nil, nil); v.roll = fake end,
  function() rawset(umpire, "roll", fake) end,
  function() umpire.roll = fake end,
  function() local _, real = pairs(math); real.random = function() return 6 end end,
  function() rawset(math, "random", function() return 6 end) end,
  function() local _, real = pairs(string); real.format = function() return "6" end end,
  function() getmetatable("").__index.rep = function() return "" end end,
  function() getmetatable("").__index = { format = function() return "" end } end,
  function() setmetatable(_G, { __index = function() return fake end }) end,
  function() load("umpire.roll = ...")(fake) end,
  function() for _, lib in pairs({ string, table, math, coroutine, utf8, umpire }) do
    for k, v in pairs(lib) do if type(v) == "table" then v.roll = fake end end end end,
}
for _, try in ipairs(tries) do pcall(try) end

local function attack(c, ctx)
  local attempts = {
    function() getmetatable(ctx).check = function() error("no checks") end end,
    function() getmetatable(c).roll = function() return 12 end end,
    function() getmetatable(c).__index.add = function() end end,
    function() c.lines[1][4] = "2d6 [6, 6]" end,
    function() rawset(c, "lines", {}) end,
    function() for k, v in pairs(c) do v[1] = 6 end end,
    function() for k, v in pairs(ctx) do if type(v) == "table" then for p in pairs(v) do v[p] = nil end end end end,
    function() c.hooks["olab.shooting.save"] = {} end,
    function() for k, v in pairs(ctx.args) do rawset(ctx.args, k, nil) end end,
    function() for k, v in pairs(ctx.args) do if type(v) == "table" then rawset(v, "sp", 99) end end end,
    function() for k, v in pairs(ctx.args) do if type(v) == "table" then for h in pairs(v) do rawset(h, "__index", fake) end end end end,
    function() c:set("shooting D6", 6) end,
    function() c:remove("shooting D6") end,
    function() umpire.roll = fake end,
  }
  for _, a in ipairs(attempts) do pcall(a) end
end
for _, point in ipairs({ "olab.combat.before_save", "olab.combat.modifiers", "olab.morale.modifiers",
  "olab.move.allowance", "olab.rally.modifiers", "olab.shooting.cover", "olab.shooting.modifiers",
  "olab.shooting.save" }) do
  umpire.hook(point, attack)
end
for _, event in ipairs({ "pre_shoot", "pre_precontact", "pre_fight", "pre_morale", "pre_charge",
  "unit_damaged", "unit_marked", "round_begins", "step_begins" }) do
  umpire.on(event, function(e)
    pcall(function() e.firer = e.target end)
    pcall(rawset, e, "unit", nil)
    pcall(function() for k, v in pairs(e) do if type(v) == "table" then rawset(v, "id", "x") end end end)
  end)
end
"#;

/// Plays `examples/olab/battle.umpire` (seed 7), with the house rule `extra` switched on
/// after the ruleset if given; for each command that rolled, the command, what it showed and
/// the dice journalled.
fn battle(extra: Option<&str>) -> Vec<(String, String, Vec<i64>)> {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&repo().join("rulesets"), &dir.path().join("rulesets"));
    copy_dir(&repo().join("scripts"), &dir.path().join("scripts"));
    if let Some(code) = extra {
        std::fs::write(dir.path().join("scripts/hostile.lua"), code).unwrap();
    }
    let mut s = Session::new(DiceBox::seeded(7));
    s.set_rules_root(dir.path().to_path_buf());
    let script = std::fs::read_to_string(repo().join("examples/olab/battle.umpire")).unwrap();
    let mut played = Vec::new();
    for line in script.lines() {
        let line = line.replace(
            "examples/",
            &format!("{}/", repo().join("examples").display()),
        );
        let Some(done) = s.execute(&line, None) else {
            continue;
        };
        if line.starts_with("ruleset use") && extra.is_some() {
            ok(&mut s, "house on hostile");
        }
        let last = s.state.journal.record(s.state.journal.len());
        if let Ok(out) = done
            && let Some(umpire::journal::Record::Tx(tx)) = last.as_deref()
            && tx.command == line.trim()
            && !tx.rolls.is_empty()
        {
            let dice = tx
                .rolls
                .iter()
                .flat_map(|r| r.dice().into_iter().map(|d| d.value).collect::<Vec<_>>())
                .collect();
            played.push((line.clone(), render::output(&out, &Palette::plain()), dice));
        }
    }
    played
}

#[test]
fn a_house_rule_trying_to_rig_the_dice_leaves_the_battle_as_it_was() {
    let plain = battle(None);
    let rigged = battle(Some(HOSTILE));
    assert!(plain.len() >= 10, "only {} commands rolled", plain.len());
    assert!(
        plain.iter().any(|(l, _, _)| l.starts_with("shoot")),
        "no shooting in the battle"
    );
    assert_eq!(plain.len(), rigged.len());
    for ((line, shown, dice), (_, rigged_shown, rigged_dice)) in plain.iter().zip(&rigged) {
        assert_eq!(dice, rigged_dice, "`{line}`: other dice");
        assert_eq!(shown, rigged_shown, "`{line}`: another breakdown");
    }
}
