//! `odds N COMMAND …` (issue 22): simulated runs of a rule command on copies of the game.
//! It leaves the game, the journal and the session's dice as they were; a check whose only
//! randomness is 2d6 matches `prob 2d6` within its intervals; a house rule with a known
//! effect, on against off; an option two ways; two commands; answers to the rules'
//! questions; the same counts for a seed on any number of workers; clear errors.

use std::path::Path;

use serde_json::Value;
use umpire::dice::DiceBox;
use umpire::engine::Session;

/// A ruleset `t`: `two` rolls one check of 2d6 against a unit's `hp`; `hit` rolls 1d6 with a
/// hook point and an option `bonus`; `brave` asks a question.
const RULES: &str = r#"
umpire.ruleset {
  name = "t", doc = "odds under test",
  schema = {
    unit = { hp = { type = "int", min = 0, max = 20, default = 10 } },
    markers = { shaken = "shaken" },
  },
}
umpire.option {
  name = "bonus", default = "none",
  choices = { { "none", "no bonus" }, { "one", "+1 to hit" } },
  doc = "a bonus to hit",
}
umpire.command {
  name = "two",
  args = { { name = "target", type = "unit" } },
  run = function(ctx, args)
    local c = ctx:check("Two dice")
    c:roll("2d6", "two dice")
    c:result(c:total() >= 10 and "high" or "low")
    if c:total() >= 10 then args.target:add("hp", -1, "a high roll") end
  end,
}
umpire.command {
  name = "hit",
  args = { { name = "target", type = "unit" } },
  run = function(ctx, args)
    local c = ctx:check("To hit")
    c:roll("1d6", "to hit")
    if umpire.option("bonus") == "one" then c:add(1, "bonus") end
    c:point("t.modifiers")
    if c:total() >= 5 then
      c:result("hit")
      args.target:add("hp", -2, "hit")
      args.target:mark("shaken", "hit")
    else
      c:result("miss")
    end
  end,
}
umpire.command {
  name = "brave",
  args = { { name = "target", type = "unit" } },
  run = function(ctx, args)
    local a = umpire.ask { question = "Does the captain stand firm?", choices = { "yes", "no" }, default = "no" }
    if a == "no" then umpire.fail("the captain runs") end
    local c = ctx:check("Stand")
    c:roll("1d6", "nerve")
  end,
}
"#;

/// A house rule `sharp`: +2 to hit.
const SHARP: &str = r#"
umpire.hook("t.modifiers", function(c) c:add(2, "sharp eyes", "house rule") end)
"#;

fn rules() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("rulesets/t")).unwrap();
    std::fs::create_dir_all(dir.path().join("scripts")).unwrap();
    std::fs::write(dir.path().join("rulesets/t/init.lua"), RULES).unwrap();
    std::fs::write(dir.path().join("scripts/sharp.lua"), SHARP).unwrap();
    dir
}

fn session(root: &Path) -> Session {
    let mut s = Session::new(DiceBox::seeded(1));
    s.set_rules_root(root.to_path_buf());
    for line in [
        "ruleset use t",
        "add side red Red",
        "add command red r1 R",
        "add unit r1 a1 Archers",
        "add unit r1 b1 Bowmen hp=4",
    ] {
        json(&mut s, line);
    }
    s
}

/// Runs a line that must succeed; its JSON.
fn json(s: &mut Session, line: &str) -> Value {
    match s.execute(line, None).expect("a command") {
        Ok(out) => out.to_json(),
        Err((_, e)) => panic!("`{line}` failed: {e}"),
    }
}

/// Runs a line that must fail; its error.
fn error(s: &mut Session, line: &str) -> String {
    match s.execute(line, None).expect("a command") {
        Ok(out) => panic!("`{line}` did not fail: {:?}", out.to_json()),
        Err((_, e)) => format!("{e} / {}", e.help().unwrap_or_default()),
    }
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// The difference row named `what`.
fn row<'a>(out: &'a Value, what: &str) -> &'a Value {
    out["differences"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["what"] == what)
        .unwrap_or_else(|| panic!("no row `{what}` in {}", out["differences"]))
}

#[test]
fn odds_changes_neither_the_game_nor_the_journal_nor_the_dice() {
    let root = rules();
    let mut s = session(root.path());
    json(&mut s, "dice queue 6 6");
    let game = s.state.game.clone();
    let journal = s.state.journal.len();
    let mut dice = s.state.dice.clone();
    let out = json(&mut s, "odds 3000 --seed 3 hit b1");
    assert_eq!(out["variants"][0]["runs"], 3000);
    assert_eq!(s.state.game, game, "the game is as it was");
    assert_eq!(s.state.journal.len(), journal, "nothing was journalled");
    assert_eq!(
        s.state.dice.queued().collect::<Vec<_>>(),
        [6, 6],
        "the queued dice are not used"
    );
    json(&mut s, "dice queue clear");
    dice.clear_queue();
    // The session's generator did not advance: it rolls what a copy taken before rolls.
    let mut src = dice.source(None);
    let expected = umpire::dice::roll(
        &umpire::dice::parse("10d6").unwrap(),
        &mut src,
        &umpire::dice::Caps::DEFAULT,
    )
    .unwrap();
    let rolled = json(&mut s, "roll 10d6");
    assert_eq!(rolled["total"], expected[0].total as i64);
    // What the runs did is counted: b1 loses 2 HP on a hit (5 or 6), and is shaken.
    let v = &out["variants"][0];
    let hp = &v["attributes"][0];
    assert_eq!(
        (hp["id"].as_str(), hp["attr"].as_str()),
        (Some("b1"), Some("hp"))
    );
    assert_eq!(hp["before"], 4);
    let p2 = hp["values"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["value"] == 2)
        .unwrap();
    let ci = &p2["ci"];
    assert!(f(&ci[0]) <= 1.0 / 3.0 && 1.0 / 3.0 <= f(&ci[1]), "{p2}");
    assert_eq!(v["markers"][0]["marker"], "shaken");
    assert_eq!(v["markers"][0]["set"]["count"], p2["count"]);
}

#[test]
fn a_check_of_2d6_matches_the_exact_odds_of_prob() {
    let root = rules();
    let mut s = session(root.path());
    let exact = json(&mut s, "prob 2d6");
    let out = json(&mut s, "odds 20000 --seed 11 two a1");
    let check = &out["variants"][0]["checks"][0];
    assert_eq!(check["title"], "Two dice");
    assert_eq!(check["made"]["count"], 20000);
    let totals = check["totals"].as_array().unwrap();
    assert_eq!(totals.len(), 11, "2 to 12");
    for pair in exact["dist"].as_array().unwrap() {
        let (value, p) = (&pair[0], f(&pair[1]));
        let t = totals.iter().find(|t| t["value"] == *value).unwrap();
        let (lo, hi) = (f(&t["ci"][0]), f(&t["ci"][1]));
        assert!(lo <= p && p <= hi, "P({value}) = {p} outside [{lo}, {hi}]");
    }
    let mean = &check["total"];
    assert!(
        f(&mean["mean_ci"][0]) <= 7.0 && 7.0 <= f(&mean["mean_ci"][1]),
        "{mean}"
    );
    // The built-in `roll` through odds: the same dice, the same counts.
    let rolled = json(&mut s, "odds 20000 --seed 11 roll 2d6");
    let r = &rolled["variants"][0]["rolls"][0];
    assert_eq!(
        r["totals"], check["totals"],
        "the same seed rolls the same 2d6"
    );
}

#[test]
fn a_house_rule_on_against_off_shows_its_known_effect() {
    let root = rules();
    let mut s = session(root.path());
    let out = json(&mut s, "odds 6000 --seed 5 --house sharp hit b1");
    let labels: Vec<&str> = out["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["without sharp", "with sharp"]);
    // +2: the mean total rises by exactly 2; a hit (5+) goes from 1/3 to 2/3.
    let mean = row(&out, "[1] mean total");
    assert!(
        f(&mean["ci"][0]) <= 2.0 && 2.0 <= f(&mean["ci"][1]),
        "{mean}"
    );
    let hit = row(&out, "[1] hit");
    let d = 2.0 / 3.0 - 1.0 / 3.0;
    assert!(f(&hit["ci"][0]) <= d && d <= f(&hit["ci"][1]), "{hit}");
    assert!(f(&hit["ci"][0]) > 0.3, "a clear rise: {hit}");
    // The session's rules are as they were: no house rule.
    let shown = json(&mut s, "house");
    assert_eq!(shown["on"], serde_json::json!([]), "{shown}");
}

#[test]
fn an_option_set_two_ways() {
    let root = rules();
    let mut s = session(root.path());
    let out = json(&mut s, "odds 6000 --seed 9 --option bonus=one hit b1");
    assert_eq!(out["variants"][0]["label"], "bonus = none");
    assert_eq!(out["variants"][1]["label"], "bonus = one");
    let mean = row(&out, "[1] mean total");
    assert!(
        f(&mean["ci"][0]) <= 1.0 && 1.0 <= f(&mean["ci"][1]),
        "{mean}"
    );
    let hit = row(&out, "[1] hit");
    let d = 0.5 - 1.0 / 3.0;
    assert!(f(&hit["ci"][0]) <= d && d <= f(&hit["ci"][1]), "{hit}");
    // Both values given; the option in force is untouched.
    let out = json(&mut s, "odds 2000 --seed 9 --option bonus=one,none hit b1");
    assert_eq!(out["variants"][0]["label"], "bonus = one");
    assert!(
        umpire::engine::options::stored_options(&s.state.game).is_empty(),
        "no option was set in the game"
    );
}

#[test]
fn two_commands_side_by_side() {
    let root = rules();
    let mut s = session(root.path());
    let out = json(&mut s, "odds 4000 --seed 2 hit b1 vs two b1");
    assert_eq!(out["compared"], "commands");
    let lines: Vec<&str> = out["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["line"].as_str().unwrap())
        .collect();
    assert_eq!(lines, ["hit b1", "two b1"]);
    // hit: 4 → 2 in a third of runs (mean 10/3); two: 4 → 3 in a sixth (mean 23/6).
    let mean = row(&out, "b1 hp: mean after");
    let d = 23.0 / 6.0 - 10.0 / 3.0;
    assert!(f(&mean["ci"][0]) <= d && d <= f(&mean["ci"][1]), "{mean}");
}

#[test]
fn questions_take_the_answer_given_or_their_default_and_say_which() {
    let root = rules();
    let mut s = session(root.path());
    let out = json(&mut s, "odds 500 --seed 1 brave a1");
    let v = &out["variants"][0];
    assert_eq!(
        v["refused"]["count"], 500,
        "the default `no`: the captain runs"
    );
    assert_eq!(v["reasons"][0]["reason"], "the captain runs");
    assert_eq!(v["answers"][0]["by"], "default");
    let out = json(
        &mut s,
        "odds 500 --seed 1 --answer \"stand firm=yes\" brave a1",
    );
    let v = &out["variants"][0];
    assert_eq!(v["refused"]["count"], 0);
    assert_eq!(v["answers"][0]["answer"], "yes");
    assert_eq!(v["answers"][0]["by"], "given");
    assert_eq!(v["checks"][0]["made"]["count"], 500);
}

#[test]
fn a_seed_gives_the_same_counts_on_any_number_of_workers() {
    let root = rules();
    let mut s = session(root.path());
    let runs: Vec<Value> = [1, 2, 3]
        .iter()
        .map(|w| {
            let out = json(
                &mut s,
                &format!("odds 3000 --seed 77 --workers {w} --house sharp hit b1"),
            );
            assert_eq!(out["seed"], 77);
            out
        })
        .collect();
    assert!(
        runs[1]["workers"].as_u64().unwrap() >= 2,
        "{}",
        runs[1]["workers"]
    );
    for r in &runs[1..] {
        assert_eq!(r["variants"], runs[0]["variants"]);
        assert_eq!(r["differences"], runs[0]["differences"]);
    }
    let other = json(&mut s, "odds 3000 --seed 78 --house sharp hit b1");
    assert_ne!(
        other["variants"], runs[0]["variants"],
        "another seed, other dice"
    );
}

#[test]
fn bad_calls_are_refused_clearly() {
    let root = rules();
    let mut s = session(root.path());
    assert!(error(&mut s, "odds many hit b1").contains("not a number of runs"));
    assert!(error(&mut s, "odds 0 hit b1").contains("not a number of runs"));
    assert!(error(&mut s, "odds 10 hti b1").contains("did you mean `hit`"));
    assert!(error(&mut s, "odds 10 hit zz").contains("zz"));
    assert!(error(&mut s, "odds 10 undo").contains("not one"));
    assert!(error(&mut s, "odds 10 prob 2d6").contains("exact already"));
    assert!(error(&mut s, "odds 10 --house nothing hit b1").contains("no house rule"));
    assert!(error(&mut s, "odds 10 --option nope=1 hit b1").contains("no option `nope`"));
    assert!(error(&mut s, "odds 10 --option bonus=two hit b1").contains("bonus"));
    assert!(error(&mut s, "odds 10 --seed x hit b1").contains("not a seed"));
    assert!(error(&mut s, "odds 10 --fast hit b1").contains("not a flag"));
    assert!(error(&mut s, "odds 10 hit b1 vs").contains("command after it"));
    assert!(
        error(&mut s, "odds 10 --house sharp hit b1 vs two b1").contains("one thing at a time")
    );
}

#[test]
fn outcomes_known_for_the_same_dice_are_the_rules_own() {
    let root = rules();
    let mut s = session(root.path());
    for line in [
        "odds 5000 --seed 4 --house sharp hit b1",
        "odds 3000 --seed 4 two a1",
        "odds 2000 --seed 4 --answer yes brave a1",
    ] {
        let memo = json(&mut s, line);
        let plain = json(&mut s, &line.replace("--seed 4", "--seed 4 --no-memo"));
        assert_eq!(memo["variants"], plain["variants"], "{line}");
        let runs = plain["resolved_by_the_rules"].as_u64().unwrap();
        assert!(
            memo["resolved_by_the_rules"].as_u64().unwrap() < runs / 4,
            "{line}: {} of {runs} through the rules",
            memo["resolved_by_the_rules"]
        );
    }
}

/// OLAB's shooting and close combat as the benches set them up.
fn olab() -> Session {
    let mut s = Session::new(DiceBox::seeded(1));
    s.set_rules_root(crate::common::shipped().to_path_buf());
    for line in [
        "ruleset use olab",
        "period 1943",
        "add side red Red",
        "add side blue Blue",
        "add command red r1 R",
        "add command blue b1 B",
        "add unit r1 rifles Riflemen type=SKI/F sp=6 sp_start=6 weapon=rifle",
        "add unit r1 cat Cataphracts type=CAV/A sp=8 sp_start=8 general=superior",
        "add unit r1 wbd Warband type=WBD sp=6 sp_start=6",
        "add unit b1 leg Legionaries type=INF/A sp=12 sp_start=12",
        "add unit b1 tgt Target type=INF/U sp=4 sp_start=4",
    ] {
        json(&mut s, line);
    }
    s
}

#[test]
fn olab_shooting_and_close_combat_with_and_without_the_memo() {
    let mut s = olab();
    for line in [
        "odds 1500 --seed 8 shoot rifles tgt 12 flank cover",
        "odds 1500 --seed 8 cc wbd leg front cat flank charge defended",
    ] {
        let memo = json(&mut s, line);
        let plain = json(&mut s, &line.replace("--seed 8", "--seed 8 --no-memo"));
        assert_eq!(memo["variants"], plain["variants"], "{line}");
        assert_eq!(memo["variants"][0]["refused"]["count"], 0, "{line}");
    }
    // The shot: 1d6 + SP 6 + rifle … against a 2d6 save; the target (SP 4) is eliminated in
    // some runs and untouched in others.
    let out = json(&mut s, "odds 3000 --seed 8 shoot rifles tgt 12");
    let sp = &out["variants"][0]["attributes"][0];
    assert_eq!(
        (sp["id"].as_str(), sp["attr"].as_str()),
        (Some("tgt"), Some("sp"))
    );
    let values: Vec<i64> = sp["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["value"].as_i64().unwrap())
        .collect();
    assert_eq!(values.first(), Some(&0));
    assert_eq!(values.last(), Some(&4));
}

#[test]
fn ctrl_c_stops_early_and_shows_what_was_gathered() {
    let root = rules();
    let mut s = session(root.path());
    let control = s.state.rules.control.clone();
    let pressed = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(1500));
        control.interrupt();
    });
    let out = json(&mut s, "odds 10000000 --seed 1 --no-memo two a1");
    pressed.join().unwrap();
    assert_eq!(out["stopped"], true);
    let runs = out["variants"][0]["runs"].as_u64().unwrap();
    assert!(runs < 10_000_000, "{runs}");
    let made = &out["variants"][0]["checks"];
    assert!(runs == 0 || made[0]["made"]["count"] == runs, "{made}");
    // The session goes on as before.
    s.state.rules.control.clear_interrupt();
    json(&mut s, "two a1");
}

#[test]
fn json_shows_the_same_as_data() {
    let root = rules();
    let mut s = session(root.path());
    let out = match s.execute("odds 300 --seed 2 --json two a1", None).unwrap() {
        Ok(out) => out,
        Err((_, e)) => panic!("{e}"),
    };
    let shown = umpire::engine::render::output(&out, &umpire::engine::Palette::plain());
    let read: Value = serde_json::from_str(&shown).expect("the text is JSON");
    assert_eq!(read, out.to_json());
    assert_eq!(read["variants"][0]["checks"][0]["made"]["count"], 300);
}

#[test]
fn built_in_game_commands_run_without_rules_too() {
    let mut s = Session::new(DiceBox::seeded(1));
    let out = json(&mut s, "odds 600 --seed 3 roll 3d6");
    let r = &out["variants"][0]["rolls"][0];
    assert_eq!(r["roll"], "roll 1: 3d6");
    let mean = &r["total"]["mean_ci"];
    assert!(f(&mean[0]) <= 10.5 && 10.5 <= f(&mean[1]), "{r}");
    assert!(error(&mut s, "odds 10 shoot a1").contains("shoot"));
}
