//! The element API's rule tests (`tests/data/rules/rulesets/squads/tests/elements.lua`): a
//! test ruleset whose squads have soldiers as elements, created, moved and removed by rules.

use crate::common::repo;

use umpire::engine::rule_tests::run_paths;

#[test]
fn the_element_api_rule_tests_pass() {
    let file = repo().join("tests/data/rules/rulesets/squads/tests/elements.lua");
    let report = run_paths(&[file]).unwrap();
    println!("{report}");
    assert!(report.passed() >= 9, "\n{report}");
    assert_eq!(report.failed(), 0, "\n{report}");
}
