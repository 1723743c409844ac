//! The store's tables are views that write through (`store.reserves.red = {…}`,
//! `table.insert(store.list, x)`): the rule tests of a test ruleset.

use crate::common::repo;
use umpire::engine::rule_tests::run_paths;

#[test]
fn the_store_rule_tests_pass() {
    let file = repo().join("tests/data/rules/rulesets/stores/tests/stores.lua");
    let report = run_paths(&[file]).unwrap();
    println!("{report}");
    assert_eq!(report.passed(), 4, "\n{report}");
    assert_eq!(report.failed(), 0, "\n{report}");
}
