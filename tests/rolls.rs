//! Rolls as objects and opposed checks: the rule tests of the `rolls` test ruleset
//! (`tests/data/rules/rulesets/rolls/tests/rolls.lua`: an FLD-style bucket, OpenD6-style
//! opposed Wild Die tests), and every die of a breakdown's roll in the JSON.

use crate::common::repo;

use umpire::dice::DiceBox;
use umpire::engine::Session;
use umpire::engine::rule_tests::run_paths;

#[test]
fn the_roll_object_and_opposed_check_rule_tests_pass() {
    let file = repo().join("tests/data/rules/rulesets/rolls/tests/rolls.lua");
    let report = run_paths(&[file]).unwrap();
    println!("{report}");
    assert!(report.passed() >= 6, "\n{report}");
    assert_eq!(report.failed(), 0, "\n{report}");
}

/// A session under the `rolls` test ruleset with two soldiers.
fn session() -> Session {
    let mut s = Session::new(DiceBox::seeded(1));
    s.set_rules_root(repo().join("tests/data/rules"));
    for line in [
        "ruleset use rolls",
        "add side red Red",
        "add command red rc R",
        "add unit rc a Anna",
        "add unit rc b Boris",
    ] {
        if let Err((_, e)) = s.execute(line, None).expect("a command") {
            panic!("`{line}`: {e}");
        }
    }
    s
}

#[test]
fn a_big_bucket_is_summed_up_on_its_line_and_every_die_is_in_the_json() {
    let mut s = session();
    let mut q = vec![6; 7];
    q.extend([4; 12]);
    q.extend([2; 29]);
    q.extend([5; 19]);
    s.state.dice.enqueue(q);
    let out = s.execute("fire 48", None).unwrap().unwrap();
    let text = umpire::engine::render::output(&out, &umpire::engine::Palette::plain());
    assert!(
        text.contains("to hit: 48d6>=4 [19 successes, 7 sixes] (4.1)"),
        "{text}"
    );
    let json = out.to_json();
    let factor = &json["checks"][0]["factors"][0];
    assert_eq!(factor["dice"], "48d6>=4 [19 successes, 7 sixes]");
    let roll = &factor["roll"];
    assert_eq!(roll["expr"], "48d6>=4");
    assert_eq!(roll["total"], 19.0);
    let dice = roll["tree"]["dice"].as_array().unwrap();
    assert_eq!(dice.len(), 48);
    assert_eq!(dice.iter().filter(|d| d["success"] == true).count(), 19);
    assert_eq!(dice[0]["value"], 6);
    // The penetration roll, the second check, has its own 19 dice.
    let pen = &json["checks"][1]["factors"][0]["roll"]["tree"]["dice"];
    assert_eq!(pen.as_array().unwrap().len(), 19);
}

#[test]
fn an_opposed_check_is_a_check_with_its_sides_in_the_json() {
    let mut s = session();
    s.state.dice.enqueue([3, 4, 5, 1, 1, 2]);
    let out = s.execute("oppose a b none", None).unwrap().unwrap();
    let json = out.to_json();
    let checks = json["checks"].as_array().unwrap();
    assert_eq!(checks.len(), 3);
    let o = &checks[2];
    assert_eq!(o["title"], "Opposed test 2.4");
    assert_eq!(o["result"], "a by 8");
    assert_eq!(o["total"], 8.0);
    assert_eq!(o["opposed"]["sides"][0]["name"], "a");
    assert_eq!(o["opposed"]["sides"][0]["total"], 12.0);
    assert_eq!(o["opposed"]["sides"][0]["won"], true);
    assert_eq!(o["opposed"]["sides"][1]["won"], false);
    assert_eq!(o["opposed"]["rule"], "2.4");
    assert!(o["opposed"].get("tie").is_none());
}
