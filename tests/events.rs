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

/// What loading a ruleset of `init` says (the error, or `ok`).
fn load(init: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("rulesets/t")).unwrap();
    std::fs::create_dir_all(dir.path().join("scripts")).unwrap();
    std::fs::write(dir.path().join("rulesets/t/init.lua"), init).unwrap();
    let mut s = Session::new(DiceBox::seeded(1));
    s.set_rules_root(dir.path().to_path_buf());
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
