//! Events (`tests/data/rules/rulesets/events/tests/events.lua`): handlers that run at once, a
//! rule's own events, `step_ends` and `round_ends`, hook points with their situation; and
//! what `umpire.on` refuses when the rules load.

use crate::common::repo;

use umpire::dice::DiceBox;
use umpire::engine::Session;
use umpire::engine::rule_tests::run_paths;

#[test]
fn the_event_rule_tests_pass() {
    let file = repo().join("tests/data/rules/rulesets/events/tests/events.lua");
    let report = run_paths(&[file]).unwrap();
    println!("{report}");
    assert!(report.passed() >= 11, "\n{report}");
    assert_eq!(report.failed(), 0, "\n{report}");
}

/// A session looking for rules in a temporary folder (kept with it) whose ruleset `t` is
/// `init`, under `limits`; the ruleset is not in use yet.
fn ruleset_t(init: &str, limits: umpire::limits::Limits) -> (tempfile::TempDir, Session) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("rulesets/t")).unwrap();
    std::fs::create_dir_all(dir.path().join("scripts")).unwrap();
    std::fs::write(dir.path().join("rulesets/t/init.lua"), init).unwrap();
    let mut s = Session::new(DiceBox::seeded(1));
    s.set_limits(limits);
    s.set_rules_root(dir.path().to_path_buf());
    (dir, s)
}

/// What loading a ruleset of `init` says (the error, or `ok`).
fn load(init: &str) -> String {
    let (_dir, mut s) = ruleset_t(init, umpire::limits::Limits::DEFAULT);
    match s.execute("ruleset use t", None).expect("a command") {
        Ok(_) => "ok".into(),
        Err((_, e)) => e.to_string(),
    }
}

#[test]
fn at_once_is_for_change_events_and_its_options_are_checked() {
    let ok = load(
        "umpire.ruleset { name = 't' }\n\
         umpire.on('unit_damaged', function() end, { at_once = true })\n\
         umpire.on('element_marked', function() end, { at_once = false })",
    );
    assert_eq!(ok, "ok");
    let clock = load(
        "umpire.ruleset { name = 't' }\numpire.on('round_begins', function() end, { at_once = true })",
    );
    assert!(
        clock.contains("init.lua:2")
            && clock.contains("`at_once` is for the events a change raises"),
        "{clock}"
    );
    let own = load(
        "umpire.ruleset { name = 't' }\numpire.on('cheer', function() end, { at_once = true })",
    );
    assert!(own.contains("runs its handlers at once already"), "{own}");
    let typo = load(
        "umpire.ruleset { name = 't' }\numpire.on('unit_damaged', function() end, { atonce = true })",
    );
    assert!(typo.contains("unknown key `atonce`"), "{typo}");
    let bad =
        load("umpire.ruleset { name = 't' }\numpire.on('unit_damaged', function() end, true)");
    assert!(bad.contains("the options are a table"), "{bad}");
}

#[test]
fn emitting_while_the_rules_load_is_refused() {
    let e = load("umpire.ruleset { name = 't' }\numpire.emit('cheer', {})");
    assert!(
        e.contains("init.lua:2") && e.contains("only be used while a command or an event runs"),
        "{e}"
    );
}

/// A session under a ruleset of `init` (in a temporary folder, kept with it) with two units
/// `a1` and `a2`, each `sp` 10, and `limits`.
fn two_units(init: &str, limits: umpire::limits::Limits) -> (tempfile::TempDir, Session) {
    let (dir, mut s) = ruleset_t(init, limits);
    for line in [
        "ruleset use t",
        "add side red Red",
        "add command red r1 R",
        "add unit r1 a1 A1",
        "add unit r1 a2 A2",
    ] {
        s.execute(line, None).unwrap().unwrap();
    }
    (dir, s)
}

const TWO_UNITS_SCHEMA: &str = "umpire.ruleset { name = 't', schema = { unit = { sp = { type = 'int', default = 10 } }, \
     markers = { shaken = 'shaken' }, status = { strength = 'sp' } } }\n";

#[test]
fn the_events_after_a_command_each_have_a_budget_of_their_own() {
    // Each handler runs about 1.2 million instructions: one budget of 2 million for both
    // would run out; each event's handlers run in a call of their own, with its budget.
    let limits = umpire::limits::Limits {
        script_instructions: 2_000_000,
        ..umpire::limits::Limits::DEFAULT
    };
    let init = format!(
        "{TWO_UNITS_SCHEMA}\
         umpire.command {{ name = 'hit', run = function()\n\
           umpire.unit('a1'):set('sp', 5, 'hit')\n\
           umpire.unit('a2'):set('sp', 5, 'hit')\n\
         end }}\n\
         umpire.on('unit_damaged', function(ev)\n\
           local n = 0\n\
           for i = 1, 600000 do n = n + i end\n\
           print(ev.unit.id .. ' heard')\n\
         end)\n"
    );
    let (_dir, mut s) = two_units(&init, limits);
    let out = s.execute("hit", None).unwrap().unwrap();
    let text = umpire::engine::render::output(&out, &umpire::engine::style::Palette::plain());
    assert!(
        text.contains("a1 heard") && text.contains("a2 heard"),
        "{text}"
    );
}

#[test]
fn an_error_after_a_command_names_the_event_and_undoes_the_command() {
    let init = format!(
        "{TWO_UNITS_SCHEMA}\
         umpire.command {{ name = 'hit', run = function()\n\
           umpire.unit('a1'):set('sp', 5, 'hit')\n\
           umpire.unit('a2'):mark('shaken', 'hit')\n\
         end }}\n\
         umpire.on('unit_damaged', function(ev) print(ev.unit.id .. ' heard') end)\n\
         umpire.on('unit_marked', function(ev) error('no ' .. ev.marker) end)\n"
    );
    let (_dir, mut s) = two_units(&init, umpire::limits::Limits::DEFAULT);
    let err = s.execute("hit", None).unwrap().unwrap_err().1.to_string();
    assert!(
        err.contains("while handling event `unit_marked`") && err.contains("no shaken"),
        "{err}"
    );
    // Nothing of the command stays.
    assert_eq!(
        s.state.game.attr("a1", "sp"),
        Some(&umpire::state::Value::Int(10))
    );
}
