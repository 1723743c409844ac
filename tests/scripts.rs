//! The project's own rule tests (`rulesets/*/tests/*.lua`), run as `umpire test rulesets`
//! would, and the test runner's own behaviour on failing and broken test files.

use crate::common::repo;

use umpire::engine::rule_tests::{Report, run_paths};

#[test]
fn every_shipped_rule_test_passes() {
    let shipped = crate::common::shipped();
    let report = run_paths(&[shipped.join("rulesets"), shipped.join("scripts")]).unwrap();
    println!("{report}");
    assert!(report.passed() > 0, "no rule tests found");
    assert_eq!(report.failed(), 0, "\n{report}");
}

fn run_one(code: &str) -> Report {
    run_with(code, &[])
}

/// Runs `code` as `tests/t.lua` of a copy of the demo ruleset, with `helpers` (name, code)
/// written beside it.
fn run_with(code: &str, helpers: &[(&str, &str)]) -> Report {
    let dir = tempfile::tempdir().unwrap();
    let demo = repo().join("rulesets/demo");
    let to = dir.path().join("rulesets/demo");
    std::fs::create_dir_all(to.join("tests")).unwrap();
    for f in ["init.lua", "tables.lua"] {
        std::fs::copy(demo.join(f), to.join(f)).unwrap();
    }
    std::fs::write(to.join("tests/t.lua"), code).unwrap();
    for (name, text) in helpers {
        std::fs::write(to.join("tests").join(name), text).unwrap();
    }
    run_paths(&[dir.path().join("rulesets")]).unwrap()
}

#[test]
fn a_test_file_requires_helpers_beside_it_which_are_not_tests_themselves() {
    let helper = "local h = {}\nfunction h.two() return 2 end\nreturn h\n";
    let report = run_with(
        "local h = require '_helpers'\n\
         test('uses the helper', function() eq(h.two(), 2) end)\n\
         test('loads it once', function() ok(require('_helpers') == h) end)\n",
        &[("_helpers.lua", helper)],
    );
    assert!(report.broken.is_empty(), "{:?}", report.broken);
    assert_eq!((report.passed(), report.failed()), (2, 0), "{report}");
    let report = run_with(
        "local x = require '../secrets'\ntest('x', function() end)\n",
        &[],
    );
    assert!(
        report.broken[0].1.contains("by its plain name"),
        "{:?}",
        report.broken
    );
    let report = run_with(
        "local x = require '_missing'\ntest('x', function() end)\n",
        &[],
    );
    assert!(
        report.broken[0].1.contains("cannot read") && report.broken[0].1.contains("_missing.lua"),
        "{:?}",
        report.broken
    );
}

#[test]
fn a_failing_assertion_names_the_test_file_and_line() {
    let report = run_one(
        "test('passes', function() eq(1, 1) end)\n\
         test('fails', function()\n  local s = session{ruleset = 'demo'}\n  eq(s:run('roll 1'), 'two')\nend)\n",
    );
    assert_eq!(report.passed(), 1);
    assert_eq!(report.failed(), 1);
    let why = report.results[1].failure.as_deref().unwrap();
    assert!(
        why.contains("tests/t.lua:4: expected \"two\", got"),
        "{why}"
    );
}

#[test]
fn a_failing_command_fails_the_test_with_its_error() {
    let report = run_one(
        "test('bad command', function()\n  local s = session{ruleset = 'demo'}\n  s:run('shoot nobody')\nend)\n",
    );
    let why = report.results[0].failure.as_deref().unwrap();
    assert!(why.contains("`shoot nobody` failed"), "{why}");
    assert!(why.contains("no unit `nobody`"), "{why}");
}

#[test]
fn broken_and_empty_test_files_are_reported() {
    let report = run_one("test('x', function() end");
    assert_eq!(report.broken.len(), 1);
    assert!(
        report.broken[0].1.contains("t.lua:1"),
        "{:?}",
        report.broken
    );
    let report = run_one("-- nothing here\n");
    assert!(
        report.broken[0].1.contains("no tests"),
        "{:?}",
        report.broken
    );
    let report = run_one("test('x', function() session{rules = 'demo'} end)");
    let why = report.results[0].failure.as_deref().unwrap();
    assert!(why.contains("unknown key `rules`"), "{why}");
}
