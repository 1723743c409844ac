//! The hardest mechanic of each rule system still to come, written in miniature on the rules
//! API as test rulesets (`tests/data/rules/rulesets/`): an FLD shooting bucket with
//! penetration (`fld_bucket`), an Undying Lands integrity test per vignette (`ul_integrity`),
//! an OpenD6 opposed damage roll between soldiers (`od6_damage`). Exact dice, asserted totals.

use crate::common::repo;
use umpire::engine::rule_tests::run_paths;

fn passes(ruleset: &str, file: &str, tests: usize) {
    let path = repo()
        .join("tests/data/rules/rulesets")
        .join(ruleset)
        .join("tests")
        .join(file);
    let report = run_paths(&[path]).unwrap();
    println!("{report}");
    assert_eq!(report.passed(), tests, "\n{report}");
    assert_eq!(report.failed(), 0, "\n{report}");
}

#[test]
fn fld_a_bucket_to_hit_then_to_penetrate_natural_and_additive_armour() {
    passes("fld_bucket", "bucket.lua", 3);
}

#[test]
fn undying_lands_an_integrity_test_on_each_vignette() {
    passes("ul_integrity", "integrity.lua", 3);
}

#[test]
fn opend6_an_opposed_damage_roll_between_two_soldiers_of_two_squads() {
    passes("od6_damage", "damage.lua", 5);
}
