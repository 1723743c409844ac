//! Lua rules in a running shell session: hot reload (good edit, broken edit, fix), the
//! generation in the journal, rollback of a failing script command, runaway scripts.

use std::path::Path;

use crate::common::{await_reload, copy_dir, repo};
use umpire::dice::DiceBox;
use umpire::engine::Session;
use umpire::journal::Record;

/// A session on a copy of the demo ruleset in a temporary folder, with two units.
fn session() -> (tempfile::TempDir, Session) {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(
        &repo().join("rulesets/demo"),
        &dir.path().join("rulesets/demo"),
    );
    std::fs::create_dir_all(dir.path().join("scripts")).unwrap();
    let mut s = Session::new(DiceBox::seeded(1));
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

/// Runs `line`, which must succeed; returns what it printed (plain text).
fn ok(s: &mut Session, line: &str) -> String {
    match s.execute(line, None).expect("a command") {
        Ok(out) => umpire::engine::render::output(&out, &umpire::engine::Palette::plain()),
        Err((_, e)) => panic!("`{line}` failed: {e}"),
    }
}

/// Runs `line`, which must fail; returns the error.
fn fails(s: &mut Session, line: &str) -> String {
    match s.execute(line, None).expect("a command") {
        Ok(_) => panic!("`{line}` should have failed"),
        Err((_, e)) => format!("{e}"),
    }
}

fn shoot(s: &mut Session) -> String {
    ok(s, "dice queue 4");
    ok(s, "shoot a1")
}

/// The reload after an edit: the new generation, or the error as text.
fn next_reload(s: &mut Session) -> Result<u64, String> {
    await_reload(s).map_err(|e| e.to_string())
}

fn edit(dir: &Path, from: &str, to: &str) {
    let f = dir.join("rulesets/demo/init.lua");
    let text = std::fs::read_to_string(&f).unwrap();
    assert!(text.contains(from), "`{from}` not in the demo");
    std::fs::write(&f, text.replacen(from, to, 1)).unwrap();
}

#[test]
fn an_edit_reloads_a_broken_edit_keeps_the_old_rules_and_the_fix_comes_in() {
    let (dir, mut s) = session();
    s.state.rules.reloader.watch().unwrap();
    assert!(shoot(&mut s).contains("Archers [a1] hits (4)"));
    let game = s.state.game.clone();
    assert_eq!(s.state.generation(), 1);

    edit(dir.path(), "\" hits (\"", "\" HITS (\"");
    let g = next_reload(&mut s).unwrap();
    assert!(g >= 2);
    assert_eq!(s.state.game, game, "a reload never touches the game");
    assert!(shoot(&mut s).contains("Archers [a1] HITS (4)"));

    edit(dir.path(), "c:result(\"hit\")", "c:result(\"hit\"");
    let err = next_reload(&mut s).unwrap_err();
    assert!(err.contains("rulesets/demo/init.lua:"), "{err}");
    assert_eq!(s.state.generation(), g, "the old rules stay in force");
    assert!(shoot(&mut s).contains("Archers [a1] HITS (4)"));

    edit(dir.path(), "c:result(\"hit\"", "c:result(\"hit\")");
    let fixed = next_reload(&mut s).unwrap();
    assert!(fixed > g);
    assert!(shoot(&mut s).contains("Archers [a1] HITS (4)"));
    assert_eq!(s.state.game.unit_count(), game.unit_count());
}

#[test]
fn the_journal_records_the_generation_of_each_command() {
    let (dir, mut s) = session();
    shoot(&mut s);
    edit(dir.path(), "\" hits (\"", "\" strikes (\"");
    assert!(ok(&mut s, "reload").contains("generation 2"));
    assert!(shoot(&mut s).contains("Archers [a1] strikes (4)"));
    let journal = &s.state.journal;
    let gens: Vec<u64> = (1..=journal.len())
        .filter_map(|seq| match journal.record(seq).as_deref() {
            Some(Record::Tx(tx)) if tx.command == "shoot a1" => Some(tx.generation),
            _ => None,
        })
        .collect();
    assert_eq!(gens, [1, 2]);
}

#[test]
fn a_broken_reload_by_hand_names_file_and_line_and_changes_nothing() {
    let (dir, mut s) = session();
    edit(dir.path(), "local tables", "local = tables");
    let err = fails(&mut s, "reload");
    assert!(err.contains("rulesets/demo/init.lua:4"), "{err}");
    assert_eq!(s.state.generation(), 1);
    assert!(shoot(&mut s).contains("Archers [a1] hits (4)"));
}

#[test]
fn a_failing_script_command_leaves_the_game_and_the_dice_as_they_were() {
    let (dir, mut s) = session();
    std::fs::write(
        dir.path().join("scripts/halfway.lua"),
        "-- Changes a unit, rolls, then fails.\n\
         umpire.command{name = 'halfway', args = {{name = 'u', type = 'unit'}}, run = function(ctx, a)\n\
         a.u:set('sp', 9, 'about to fail')\n\
         umpire.roll('1d6')\n\
         error('something went wrong')\n\
         end}\n",
    )
    .unwrap();
    ok(&mut s, "house on halfway");
    ok(&mut s, "dice queue 2 3");
    let game = s.state.game.clone();
    let records = s.state.journal.len();
    let err = fails(&mut s, "halfway a1");
    assert!(err.contains("scripts/halfway.lua:5"), "{err}");
    assert!(err.contains("something went wrong"), "{err}");
    assert!(err.contains("while running command `halfway`"), "{err}");
    assert_eq!(s.state.game, game);
    assert_eq!(s.state.journal.len(), records);
    assert_eq!(s.state.dice.queued().collect::<Vec<_>>(), [2, 3]);
}

#[test]
fn a_runaway_script_command_is_stopped_and_the_next_command_works() {
    let (dir, mut s) = session();
    std::fs::write(
        dir.path().join("scripts/spin.lua"),
        "-- Never ends.\numpire.command{name = 'spin', run = function()\n  while true do end\nend}\n",
    )
    .unwrap();
    ok(&mut s, "house on spin");
    let err = fails(&mut s, "spin");
    assert!(err.contains("scripts/spin.lua:3"), "{err}");
    assert!(shoot(&mut s).contains("Archers [a1] hits (4)"));
}

#[test]
fn a_script_command_may_not_take_a_builtin_name() {
    let (dir, mut s) = session();
    std::fs::write(
        dir.path().join("scripts/clash.lua"),
        "-- Shadows roll.\numpire.command{name = 'roll', run = function() end}\n",
    )
    .unwrap();
    let err = fails(&mut s, "house on clash");
    assert!(err.contains("scripts/clash.lua:2"), "{err}");
    assert!(err.contains("built-in"), "{err}");
    assert!(ok(&mut s, "roll 1d6").contains("1d6"));
    assert!(ok(&mut s, "ruleset").contains("generation 1"));
}

#[test]
fn script_commands_complete_their_choices_and_flags() {
    let (_dir, s) = session();
    let w = s.vocabulary();
    let (_, words) = s.registry.complete("morale a1 ", 10, &w);
    assert_eq!(words, ["green", "pinned", "trained", "veteran"]);
    let (_, words) = s.registry.complete("morale a1 veteran p", 19, &w);
    assert_eq!(words, ["pinned"]);
    // Where a unit is wanted, the units (not tables or sides).
    let (_, words) = s.registry.complete("morale ", 7, &w);
    assert_eq!(words, ["a1", "b2", "pinned"]);
    assert!(
        s.registry
            .complete("sh", 2, &w)
            .1
            .contains(&"shoot".to_string())
    );
}

#[test]
fn a_pre_event_can_cancel_a_builtin_command() {
    let (dir, mut s) = session();
    std::fs::write(
        dir.path().join("scripts/hold.lua"),
        "-- The clock may not pass round 1.\n\
         umpire.on('pre_next', function(e)\n\
         if umpire.clock().round == 1 and umpire.clock().phase == 'morale' then\n\
         print('the game ends after round 1 (' .. e.line .. ')')\n\
         return false\n\
         end\n\
         end)\n",
    )
    .unwrap();
    ok(&mut s, "house on hold");
    let clock = |s: &Session| s.state.game.clock().pos;
    for _ in 0..4 {
        ok(&mut s, "next");
    }
    let before = clock(&s);
    let out = ok(&mut s, "next");
    assert!(out.contains("the game ends after round 1 (next)"), "{out}");
    assert!(out.contains("cancelled"), "{out}");
    assert_eq!(clock(&s), before);
}

#[test]
fn what_a_pre_handler_of_a_builtin_prints_is_shown_and_side_arguments_are_checked() {
    let (dir, mut s) = session();
    std::fs::write(
        dir.path().join("scripts/herald.lua"),
        "-- Announces each step.\n\
         umpire.on('pre_next', function(e) print('the herald calls: ' .. e.line) end)\n\
         umpire.command{name = 'hail', args = {{name = 'side', type = 'side'}}, run = function(ctx, a)\n\
         return 'hail, ' .. a.side.name\n\
         end}\n",
    )
    .unwrap();
    ok(&mut s, "house on herald");
    let out = ok(&mut s, "next");
    assert!(out.starts_with("the herald calls: next"), "{out}");
    assert!(ok(&mut s, "hail red").contains("hail, Red"));
    let err = fails(&mut s, "hail r1");
    assert!(err.contains("no side `r1`"), "{err}");
}

#[test]
fn switching_a_house_rule_on_or_off_reloads_nothing_until_a_file_changes() {
    // Issue 12: `house on heroes` (a house rule with a sub-folder of modules) was followed
    // by a "rules reloaded" at the next prompt and a jump in the generation.
    let dir = tempfile::tempdir().unwrap();
    copy_dir(
        &crate::common::shipped().join("rulesets"),
        &dir.path().join("rulesets"),
    );
    copy_dir(
        &crate::common::shipped().join("scripts"),
        &dir.path().join("scripts"),
    );
    let mut s = Session::new(DiceBox::seeded(1));
    s.set_rules_root(dir.path().to_path_buf());
    ok(&mut s, "ruleset use olab");
    s.state.rules.reloader.watch().unwrap();
    for line in ["house on heroes", "house off heroes", "house on ambushes"] {
        ok(&mut s, line);
        let generation = s.state.generation();
        std::thread::sleep(std::time::Duration::from_millis(700));
        assert!(
            s.poll_rules().is_none(),
            "`{line}` was followed by a reload"
        );
        assert_eq!(s.state.generation(), generation);
    }
    // A real edit still reloads.
    let f = dir.path().join("scripts/ambushes.lua");
    let text = std::fs::read_to_string(&f).unwrap();
    std::fs::write(&f, format!("{text}\n-- edited\n")).unwrap();
    assert!(next_reload(&mut s).is_ok());
}

#[test]
fn a_fault_in_a_house_rule_names_its_file_and_line_and_how_to_carry_on() {
    let (dir, mut s) = session();
    std::fs::write(
        dir.path().join("scripts/fog.lua"),
        "-- fog: a broken house rule\numpire.hook('shooting.modifiers', function(c)\n  local fog = nil\n  c:add(fog.thickness, 'fog')\nend)\n",
    )
    .unwrap();
    ok(&mut s, "house on fog");
    ok(&mut s, "dice queue 4");
    let (_, e) = s.execute("shoot a1", None).unwrap().unwrap_err();
    let shown =
        umpire::engine::render::error(&e, "shoot a1", None, &umpire::engine::Palette::plain());
    assert!(
        shown.contains("scripts/fog.lua:4: attempt to index a nil value"),
        "{shown}"
    );
    assert!(
        shown.contains(
            "the house rule `fog` failed: `house off fog` switches it off so the game can go on"
        ),
        "{shown}"
    );
    assert!(
        !shown.contains("=umpire") && !shown.contains("[C]"),
        "{shown}"
    );
    // A deliberate refusal reads as plain text: no file, no traceback.
    std::fs::write(
        dir.path().join("scripts/fog.lua"),
        "-- fog\numpire.hook('shooting.modifiers', function(c)\n  error('too foggy to shoot', 0)\nend)\n",
    )
    .unwrap();
    ok(&mut s, "reload");
    let (_, e) = s.execute("shoot a1", None).unwrap().unwrap_err();
    assert_eq!(e.to_string(), "too foggy to shoot");
    assert_eq!(e.help(), None);
    ok(&mut s, "house off fog");
    assert!(shoot(&mut s).contains("Archers [a1] hits (4)"));
}

/// A `distance` argument: a plain number in the ruleset's unit, a length in another unit
/// converted (and the conversion shown), and a word that is no distance refused at the word.
#[test]
fn a_distance_argument_arrives_in_the_rulesets_unit_whatever_unit_was_typed() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("rulesets/metric")).unwrap();
    std::fs::create_dir_all(dir.path().join("scripts")).unwrap();
    std::fs::write(
        dir.path().join("rulesets/metric/init.lua"),
        r#"
umpire.ruleset { name = "metric", doc = "measures in centimetres", distance = "cm" }
umpire.command {
  name = "reach",
  args = { { name = "range", type = "distance" }, { name = "bonus", type = "int", optional = true } },
  run = function(ctx, a) return "range " .. a.range .. " " .. math.type(a.range) .. " bonus " .. tostring(a.bonus) end,
}
"#,
    )
    .unwrap();
    let mut s = Session::new(DiceBox::seeded(1));
    s.set_rules_root(dir.path().to_path_buf());
    ok(&mut s, "ruleset use metric");
    assert!(ok(&mut s, "reach 30").contains("range 30 integer bonus nil"));
    let inches = ok(&mut s, "reach 10\" 2");
    assert!(inches.contains("10in = 25.4 cm"), "{inches}");
    assert!(inches.contains("range 25.4 float bonus 2"), "{inches}");
    assert!(ok(&mut s, "reach 300mm").contains("range 30 integer"));
    let e = fails(&mut s, "reach 3ft");
    assert!(e.contains("`ft` is not a unit of length"), "{e}");
    let e = fails(&mut s, "reach near");
    assert!(e.contains("not a distance"), "{e}");
    std::fs::write(
        dir.path().join("rulesets/metric/init.lua"),
        r#"umpire.ruleset { name = "metric", distance = "yards" }"#,
    )
    .unwrap();
    let mut s = Session::new(DiceBox::seeded(1));
    s.set_rules_root(dir.path().to_path_buf());
    let e = fails(&mut s, "ruleset use metric");
    assert!(e.contains("the unit is \"in\" or \"cm\""), "{e}");
}

/// A `units` argument: words of unit ids (`a+b` joined in one word) or one of its words; each
/// id is checked before `run` and completed, after a `+` or `,` too; `run` gets the words.
#[test]
fn a_units_argument_checks_and_completes_each_id() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("rulesets/groups")).unwrap();
    std::fs::create_dir_all(dir.path().join("scripts")).unwrap();
    std::fs::write(
        dir.path().join("rulesets/groups/init.lua"),
        r#"
umpire.ruleset { name = "groups", doc = "units in groups" }
umpire.command {
  name = "activate",
  args = { { name = "units", type = "units", values = { "all", "none" }, help = "who acts" } },
  run = function(ctx, a) return "acting: " .. a.units end,
}
"#,
    )
    .unwrap();
    let mut s = Session::new(DiceBox::seeded(1));
    s.set_rules_root(dir.path().to_path_buf());
    for line in [
        "ruleset use groups",
        "add side red Red",
        "add command red r1 R",
        "add unit r1 bows Bows",
        "add unit r1 guard Guard",
        "add unit r1 pikes Pikes",
    ] {
        ok(&mut s, line);
    }
    assert!(ok(&mut s, "activate pikes bows+guard").contains("acting: pikes bows+guard"));
    assert!(ok(&mut s, "activate ALL").contains("acting: all"));
    let e = fails(&mut s, "activate pikes bows+gaurd");
    assert!(e.contains("bows+gaurd"), "{e}");
    let w = s.vocabulary();
    let (_, words) = s.registry.complete("activate bows+g", 15, &w);
    assert_eq!(words, ["bows+guard"]);
    let (_, words) = s.registry.complete("activate pikes a", 16, &w);
    assert_eq!(words, ["all"]);
}
