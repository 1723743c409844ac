//! Campaigns: a folder of rosters and battles. Two OLAB battles in a row: losses carried over,
//! the eliminated left out, a unit left at home coming through unchanged, ending a battle
//! undone and redone, and a roster edited by hand between battles still loading.

use std::path::Path;

use crate::common::shipped;
use umpire::campaign::{Campaign, Entry, rosters};
use umpire::dice::DiceBox;
use umpire::engine::Session;

fn session() -> Session {
    let mut s = Session::new(DiceBox::seeded(1));
    s.set_rules_root(shipped().to_path_buf());
    s
}

/// Runs `line`, which must succeed; what it printed.
fn ok(s: &mut Session, line: &str) -> String {
    match s.execute(line, None).expect("a command") {
        Ok(out) => umpire::engine::render::output(&out, &umpire::engine::Palette::plain()),
        Err((_, e)) => panic!("`{line}` failed: {e}"),
    }
}

/// Runs `line`, which must fail; the error and its help.
fn fails(s: &mut Session, line: &str) -> String {
    match s.execute(line, None).expect("a command") {
        Ok(out) => panic!(
            "`{line}` should have failed: {}",
            umpire::engine::render::output(&out, &umpire::engine::Palette::plain())
        ),
        Err((_, e)) => format!("{e} {}", e.help().unwrap_or_default()),
    }
}

/// The attribute `attr` of unit `id` in side `side`'s roster file (`None`: not listed).
fn in_roster(dir: &Path, side: &str, id: &str, attr: &str) -> Option<toml::Value> {
    let text = std::fs::read_to_string(dir.join("rosters").join(format!("{side}.toml"))).unwrap();
    let u = rosters::units(&text).into_iter().find(|u| u.id == id)?;
    Some(
        u.table
            .get(attr)
            .cloned()
            .unwrap_or(toml::Value::String("(default)".into())),
    )
}

#[test]
fn two_olab_battles_carry_losses_over_and_an_end_can_be_undone() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("revolt");
    let d = dir.display().to_string();
    let mut s = session();
    ok(&mut s, "ruleset use olab");
    ok(&mut s, "house on heroes");
    ok(&mut s, "army load examples/olab/romans.toml");
    ok(&mut s, "army load examples/olab/britons.toml");
    ok(&mut s, "option set canister adds");
    let made = ok(&mut s, &format!("campaign new {d} Boudicca's revolt"));
    assert!(
        made.contains("rosters written: romans (20 units), britons (20 units)"),
        "{made}"
    );
    assert!(fails(&mut s, &format!("campaign new {d}")).contains("already holds a campaign"));
    let file = std::fs::read_to_string(dir.join("campaign.toml")).unwrap();
    assert!(
        file.contains("ruleset = \"olab\"")
            && file.contains("canister = \"adds\"")
            && file.contains("house = [\"heroes\"]"),
        "{file}"
    );

    // Battle one: the campaign's rules and options, both rosters loaded.
    let begun = ok(&mut s, "battle new watling");
    assert!(begun.contains("› army load"), "{begun}");
    assert!(begun.contains("› option set canister adds"), "{begun}");
    assert_eq!(s.state.game.unit_count(), 40);
    assert!(fails(&mut s, "battle new again").contains("has not ended"));
    ok(&mut s, "set leg1 sp 3");
    ok(&mut s, "set chariot1 sp 0");
    // Boudica, a Main Character, falls: the heroes house rule brings her back next battle.
    assert!(ok(&mut s, "set boudica sp 0").contains("will return in the next battle"));
    let plan = ok(&mut s, "battle end romans win plan");
    assert!(plan.contains("chariot1: lost"), "{plan}");
    assert!(plan.contains("nothing written"), "{plan}");
    assert_eq!(
        in_roster(&dir, "romans", "leg1", "sp"),
        Some(toml::Value::Integer(7))
    );
    let end = ok(&mut s, "battle end romans win");
    assert!(end.contains("leg1: sp 7 → 3"), "{end}");
    assert!(
        end.contains("back for the next battle (8.8.4): Boudica"),
        "{end}"
    );
    assert_eq!(
        in_roster(&dir, "romans", "leg1", "sp"),
        Some(toml::Value::Integer(3))
    );
    assert_eq!(
        in_roster(&dir, "romans", "leg1", "sp_start"),
        Some(toml::Value::Integer(3))
    );
    assert_eq!(
        in_roster(&dir, "romans", "leg1", "markers"),
        Some(toml::Value::String("(default)".into())),
        "the rout does not carry over"
    );
    assert_eq!(
        in_roster(&dir, "britons", "chariot1", "sp"),
        None,
        "the eliminated are left out"
    );
    assert_eq!(
        in_roster(&dir, "britons", "boudica", "sp"),
        in_roster(&dir, "britons", "boudica", "sp_start"),
        "the fallen Main Character is back at her starting SP"
    );
    assert_ne!(in_roster(&dir, "britons", "boudica", "sp"), None);

    // Undo takes the end back: the rosters as they were; redo writes them again.
    let undone = ok(&mut s, "undo");
    assert!(undone.contains("rosters are as they were"), "{undone}");
    assert_eq!(
        in_roster(&dir, "romans", "leg1", "sp"),
        Some(toml::Value::Integer(7))
    );
    assert!(ok(&mut s, "campaign").contains("in progress: battle `watling`"));
    ok(&mut s, "redo");
    assert_eq!(
        in_roster(&dir, "romans", "leg1", "sp"),
        Some(toml::Value::Integer(3))
    );
    let shown = ok(&mut s, "campaign");
    assert!(shown.contains("watling: romans win"), "{shown}");
    assert!(shown.contains("britons       19 units"), "{shown}");

    // Between battles the club edits a roster by hand: it still loads.
    let path = dir.join("rosters/romans.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        text.replace("name = \"Legionaries 2\"", "name = \"Legio II (veterans)\""),
    )
    .unwrap();

    // Battle two, in a fresh session opening the campaign; leg3 stays at home.
    let mut t = session();
    ok(&mut t, &format!("campaign open {d}"));
    assert!(fails(&mut t, "battle new second leave nobody").contains("no unit `nobody`"));
    ok(&mut t, "battle new second leave leg3");
    assert!(t.state.game.unit("leg3").is_none(), "left at home");
    assert_eq!(
        t.state.game.unit("leg2").map(|u| u.name.as_str()),
        Some("Legio II (veterans)")
    );
    assert_eq!(
        t.state.game.attr("leg1", "sp"),
        Some(&umpire::state::Value::Int(3)),
        "battle one's losses carried over"
    );
    // Boudica, fallen in battle one, is on the table again, still a Main Character.
    assert_eq!(
        t.state
            .game
            .attr("boudica", "off_table")
            .map(ToString::to_string),
        Some("no".into())
    );
    assert_eq!(
        t.state.game.attr("boudica", "main_character"),
        Some(&umpire::state::Value::Flag(true))
    );
    assert!(number(&t, "boudica", "sp").unwrap() > 0.0);
    ok(&mut t, "set leg2 sp 0");
    ok(&mut t, "battle end britons win as planned");
    let shown = ok(&mut t, "campaign");
    assert!(
        shown.contains("Boudica") && shown.contains("2 battles · watling: fell in round"),
        "{shown}"
    );
    assert!(shown.contains("second: stood"), "{shown}");
    assert_eq!(
        in_roster(&dir, "romans", "leg3", "sp"),
        Some(toml::Value::Integer(7)),
        "home unit unchanged"
    );
    assert_eq!(in_roster(&dir, "romans", "leg2", "sp"), None);
    // An end is known by what it stored, not by its words ("planned" is no `plan`).
    ok(&mut t, "undo");
    assert_ne!(
        in_roster(&dir, "romans", "leg2", "sp"),
        None,
        "undone: leg2 is back"
    );
    ok(&mut t, "redo");
    assert_eq!(in_roster(&dir, "romans", "leg2", "sp"), None);

    // The campaign journal holds every step, chained.
    let c = Campaign::open(&dir).unwrap();
    let kinds: Vec<&str> = c
        .entries()
        .unwrap()
        .iter()
        .map(|e| match e {
            Entry::Created { .. } => "created",
            Entry::Roster { .. } => "roster",
            Entry::BattleBegun { .. } => "begun",
            Entry::BattleEnded { .. } => "ended",
            Entry::BattleReopened { .. } => "reopened",
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "created", "roster", "roster", "begun", "ended", "reopened", "ended", "begun", "ended",
            "reopened", "ended"
        ]
    );
    assert!(umpire::journal::verify_file(&dir.join("campaign.jsonl"), Default::default()).is_ok());
}

#[test]
fn battle_commands_without_a_campaign_say_how_to_open_one() {
    let mut s = session();
    assert!(fails(&mut s, "battle new x").contains("`campaign open DIR`"));
    assert!(fails(&mut s, "campaign").contains("no campaign is open"));
    assert!(fails(&mut s, "campaign open /nonexistent/place").contains("holds no campaign"));
}

/// A campaign of `ruleset` begun from `armies` (after `setup`): battle one's `battle_lines`
/// then its end; returns the campaign folder (kept alive by the temp dir) for checks.
fn one_battle(
    ruleset: &str,
    armies: &[&str],
    setup: &[&str],
    battle_lines: &[&str],
) -> (tempfile::TempDir, std::path::PathBuf, String) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("c");
    let mut s = session();
    ok(&mut s, &format!("ruleset use {ruleset}"));
    for a in armies {
        ok(&mut s, &format!("army load {a}"));
    }
    for l in setup {
        ok(&mut s, l);
    }
    ok(&mut s, &format!("campaign new {}", dir.display()));
    let begun = ok(&mut s, "battle new first");
    assert!(!begun.contains("failed"), "{begun}");
    for l in battle_lines {
        ok(&mut s, l);
    }
    let end = ok(&mut s, "battle end a draw");
    (tmp, dir, end)
}

#[test]
fn an_fld_battle_carries_its_losses_over() {
    let (_tmp, dir, end) = one_battle(
        "fld",
        &["examples/fld/light.toml", "examples/fld/dark.toml"],
        &["muster"],
        &["set pikes integrity 20", "set bows integrity 0"],
    );
    assert!(end.contains("bows: lost"), "{end}");
    let integrity = in_roster(&dir, "light", "pikes", "integrity")
        .and_then(|v| v.as_float().or(v.as_integer().map(|i| i as f64)));
    assert_eq!(integrity, Some(20.0));
    assert_eq!(
        in_roster(&dir, "light", "pikes", "integrity_start"),
        in_roster(&dir, "light", "pikes", "integrity"),
        "the next battle's losses count from what is left"
    );
    assert_eq!(in_roster(&dir, "light", "bows", "integrity"), None);
}

#[test]
fn an_undying_lands_battle_loses_the_vignettes_left_with_no_ip() {
    let (_tmp, dir, end) = one_battle(
        "undying_lands",
        &[
            "examples/undying_lands/vale.toml",
            "examples/undying_lands/horde.toml",
        ],
        &["muster"],
        &["set pikes.1 ip 0", "set pikes.2 ip 5"],
    );
    assert!(end.contains("pikes:"), "{end}");
    let text = std::fs::read_to_string(dir.join("rosters/vale.toml")).unwrap();
    let pikes = rosters::units(&text)
        .into_iter()
        .find(|u| u.id == "pikes")
        .unwrap();
    let vignettes = pikes
        .table
        .get("element")
        .and_then(|e| e.as_array())
        .unwrap();
    assert_eq!(
        vignettes.len(),
        1,
        "the vignette with no IP is gone: {text}"
    );
    assert_eq!(vignettes[0].get("ip"), vignettes[0].get("ip_start"));
}

#[test]
fn an_opend6_battle_loses_the_incapacitated_and_heals_the_wounded() {
    let (_tmp, dir, end) = one_battle(
        "opend6fm",
        &[
            "examples/opend6fm/frostmere.toml",
            "examples/opend6fm/goblins.toml",
        ],
        &[],
        &["mark wardens.w1 incapacitated", "mark wardens.w2 wounded"],
    );
    assert!(end.contains("wardens:"), "{end}");
    let text = std::fs::read_to_string(dir.join("rosters/frostmere.toml")).unwrap();
    let wardens = rosters::units(&text)
        .into_iter()
        .find(|u| u.id == "wardens")
        .unwrap();
    let soldiers: Vec<&str> = wardens
        .table
        .get("element")
        .and_then(|e| e.as_array())
        .unwrap()
        .iter()
        .filter_map(|e| e.get("id").and_then(|i| i.as_str()))
        .collect();
    assert!(!soldiers.contains(&"w1"), "{soldiers:?}");
    assert!(soldiers.contains(&"w2"), "{soldiers:?}");
    assert_eq!(
        wardens.table.get("start_size"),
        Some(&toml::Value::Integer(soldiers.len() as i64))
    );
    assert!(!text.contains("wounded"), "{text}");
}

/// The value of `attr` of unit `id` in the game, as a number.
fn number(s: &Session, id: &str, attr: &str) -> Option<f64> {
    s.state.game.attr(id, attr).and_then(|v| v.as_f64())
}

#[test]
fn two_fld_battles_carry_a_fallen_hero_and_the_losses_an_end_undone_and_a_hand_edit() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("marches");
    let d = dir.display().to_string();
    let mut s = session();
    ok(&mut s, "ruleset use fld");
    ok(&mut s, "house on heroes");
    ok(&mut s, "army load examples/fld/light.toml");
    ok(&mut s, "army load examples/fld/dark.toml");
    ok(&mut s, "muster");
    // Declared before the campaign starts: FLD keeps Heroes in the heroes store, which the
    // campaign carries into its first battle.
    ok(&mut s, "hero pikes");
    ok(&mut s, "hero bows main");
    ok(&mut s, &format!("campaign new {d} The Marches"));
    let begun = ok(&mut s, "battle new ford");
    assert!(
        begun.contains("carried from the last battle: heroes.declared"),
        "{begun}"
    );
    let heroes = ok(&mut s, "heroes");
    assert!(heroes.contains("pikes (light, hero)"), "{heroes}");
    assert!(heroes.contains("bows (light, main character)"), "{heroes}");
    // The pikes' Hero falls; the orcs lose some of their Integrity Points.
    let start = number(&s, "pikes", "integrity_start").unwrap();
    assert!(ok(&mut s, "set pikes integrity 0").contains("will return in the next battle"));
    ok(&mut s, "set orcs integrity 9");
    let end = ok(&mut s, "battle end a bloody draw");
    assert!(end.contains("fell in round 1, returned"), "{end}");
    assert!(end.contains("orcs: integrity"), "{end}");
    let integrity = |dir: &Path, side: &str, id: &str| {
        in_roster(dir, side, id, "integrity")
            .and_then(|v| v.as_float().or(v.as_integer().map(|i| i as f64)))
    };
    assert_eq!(
        integrity(&dir, "light", "pikes"),
        Some(start),
        "the fallen Hero is back at his start"
    );
    assert_eq!(integrity(&dir, "dark", "orcs"), Some(9.0));

    // Undone, the rosters are as they were; redone, written again.
    ok(&mut s, "undo");
    assert_eq!(integrity(&dir, "dark", "orcs"), Some(16.0));
    ok(&mut s, "redo");
    assert_eq!(integrity(&dir, "dark", "orcs"), Some(9.0));

    // The campaign's status: the strength over the campaign and the Heroes' careers.
    let shown = ok(&mut s, "campaign");
    assert!(shown.contains("strength over the campaign"), "{shown}");
    assert!(shown.contains("(before ford, after ford)"), "{shown}");
    assert!(
        shown.contains("1 battle · ford: fell in round 1, returned"),
        "{shown}"
    );
    assert!(
        shown.contains("(light, main character): 1 battle · ford: stood"),
        "{shown}"
    );

    // The club renames the orcs by hand between battles.
    let path = dir.join("rosters/dark.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("id = \"orcs\""), "{text}");
    let edited = text.replacen(
        "name = \"Orc Spears (assumed)\"",
        "name = \"Orcs of the Black Pass\"",
        1,
    );
    assert_ne!(edited, text);
    std::fs::write(&path, edited).unwrap();

    // Battle two, in a fresh session: the losses, the Hero and the edit are all there.
    let mut t = session();
    ok(&mut t, &format!("campaign open {d}"));
    ok(&mut t, "battle new pass");
    assert_eq!(
        number(&t, "orcs", "integrity"),
        Some(9.0),
        "losses carried over"
    );
    assert_eq!(number(&t, "orcs", "integrity_start"), Some(9.0));
    assert_eq!(
        number(&t, "pikes", "integrity"),
        Some(start),
        "the Hero is back"
    );
    assert!(
        t.state
            .game
            .markers_of("pikes")
            .unwrap()
            .iter()
            .any(|m| m.name == "mustered"),
        "still mustered"
    );
    let heroes = ok(&mut t, "heroes");
    assert!(
        heroes.contains("pikes (light, hero)"),
        "still a Hero: {heroes}"
    );
    assert!(
        ok(&mut t, "show orcs").contains("Orcs of the Black Pass"),
        "the hand edit loaded"
    );
    // Still a Hero in the rules too: he falls again and is noted to return.
    assert!(ok(&mut t, "set pikes integrity 0").contains("will return in the next battle"));
    ok(&mut t, "battle end dark win");
    let shown = ok(&mut t, "campaign");
    assert!(
        shown.contains(
            "2 battles · ford: fell in round 1, returned; pass: fell in round 1, returned"
        ),
        "{shown}"
    );
}

#[test]
fn an_opend6_hero_is_a_soldier_who_comes_back_and_stays_a_hero() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("c");
    let mut s = session();
    ok(&mut s, "ruleset use opend6fm");
    ok(&mut s, "house on heroes");
    ok(&mut s, "army load examples/opend6fm/frostmere.toml");
    ok(&mut s, "army load examples/opend6fm/goblins.toml");
    ok(&mut s, &format!("campaign new {}", dir.display()));
    ok(&mut s, "battle new first");
    ok(&mut s, "hero wardens.w_sgt");
    // His extra wound level spent, then two wounds' worth: he is out.
    ok(&mut s, "dice queue 2 6 3");
    ok(&mut s, "damage wardens.w_sgt 5 now");
    ok(&mut s, "dice queue 2 6 3");
    let fell = ok(&mut s, "damage wardens.w_sgt 5 now");
    assert!(fell.contains("will return in the next battle"), "{fell}");
    ok(&mut s, "mark wardens.w1 incapacitated");
    let end = ok(&mut s, "battle end goblins win");
    assert!(end.contains("fell in round"), "{end}");
    let text = std::fs::read_to_string(dir.join("rosters/frostmere.toml")).unwrap();
    let wardens = rosters::units(&text)
        .into_iter()
        .find(|u| u.id == "wardens")
        .unwrap();
    let soldiers: Vec<&str> = wardens.table["element"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e.get("id").and_then(|i| i.as_str()))
        .collect();
    assert!(
        soldiers.contains(&"w_sgt"),
        "the Hero is back: {soldiers:?}"
    );
    assert!(!soldiers.contains(&"w1"), "{soldiers:?}");

    let mut t = session();
    ok(&mut t, &format!("campaign open {}", dir.display()));
    ok(&mut t, "battle new second");
    let heroes = ok(&mut t, "heroes");
    assert!(
        heroes.contains("(frostmere, hero)"),
        "still a Hero: {heroes}"
    );
}

/// A campaign of two OLAB battles with the heroes house rule, made in `dir`: battle one leg1
/// 7 → 3, chariot1 4 → 0 (lost), Boudica falls (and returns); battle two leaves leg3 at home,
/// leg2 7 → 0 (lost). Returns the session.
pub fn two_battle_campaign(dir: &Path) -> Session {
    let mut s = session();
    for line in [
        "ruleset use olab".to_string(),
        "house on heroes".into(),
        "army load examples/olab/romans.toml".into(),
        "army load examples/olab/britons.toml".into(),
        format!("campaign new {} Boudicca's revolt", dir.display()),
        "battle new watling".into(),
        "set leg1 sp 3".into(),
        "set chariot1 sp 0".into(),
        "set boudica sp 0".into(),
        "battle end romans win".into(),
        "battle new mona leave leg3".into(),
        "set leg2 sp 0".into(),
        "battle end britons hold".into(),
    ] {
        ok(&mut s, &line);
    }
    s
}

/// Side `side`'s total SP in roster `text`, summed here from the roster's own numbers.
fn sp_total(text: &str) -> f64 {
    rosters::units(text)
        .iter()
        .map(|u| u.table.get("sp").and_then(|v| v.as_integer()).unwrap() as f64)
        .sum()
}

#[test]
fn the_campaign_reports_chart_numbers_are_the_rosters_before_and_after_each_battle() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("revolt");
    let mut s = two_battle_campaign(&dir);
    let c = Campaign::open(&dir).unwrap();
    let r = umpire::report::campaign::CampaignReport::build(&c, Default::default()).unwrap();
    assert_eq!(r.sides, ["Boudicca's Britons", "Suetonius' Romans"]);
    assert_eq!(r.measure, "strength");
    // Worked out from the rosters the campaign journal kept, not from the report's code.
    let mut expected = Vec::new();
    for e in c.entries().unwrap() {
        if let Entry::BattleEnded {
            name,
            before,
            after,
            ..
        } = e
        {
            for (when, texts) in [("before", &before), ("after", &after)] {
                expected.push((
                    format!("{when} {name}"),
                    vec![
                        Some(sp_total(&texts["britons"])),
                        Some(sp_total(&texts["romans"])),
                    ],
                ));
            }
        }
    }
    assert_eq!(r.points, expected);
    // The losses as the test made them: romans −4 then −7; britons −4 (chariot1) in battle one.
    let romans: Vec<f64> = r.points.iter().map(|p| p.1[1].unwrap()).collect();
    assert_eq!(romans[0] - romans[1], 4.0);
    assert_eq!(romans[2] - romans[3], 7.0);
    let britons: Vec<f64> = r.points.iter().map(|p| p.1[0].unwrap()).collect();
    assert_eq!(britons[0] - britons[1], 4.0, "chariot1 lost, Boudica back");

    // Boudica's career: two battles, fell in the first.
    assert_eq!(r.careers.len(), 1);
    let b = &r.careers[0];
    assert_eq!((b.id.as_str(), b.fell), ("boudica", 1));
    assert_eq!(
        b.battles,
        [
            (
                "watling".to_string(),
                "fell in round 1, returned".to_string()
            ),
            ("mona".into(), "stood".into())
        ]
    );

    // The Markdown report, from the shell: its chart beside it, the battles and the careers.
    let md = tmp.path().join("revolt.md");
    let said = ok(&mut s, &format!("campaign report {}", md.display()));
    assert!(said.contains("2 battles fought"), "{said}");
    let text = std::fs::read_to_string(&md).unwrap();
    for part in [
        "# Boudicca's revolt",
        "- **Rules**: olab + heroes",
        "### 1. watling",
        "**Result**: romans win",
        "### 2. mona",
        "Left at home: romans: leg3.",
        "- leg2: lost",
        "![Strength across the campaign](revolt-strength.svg)",
        "| before watling |",
        "| Boudica on her chariot [boudica] (main character) | Boudicca's Britons | 2 | 1 | watling: fell in round 1, returned; mona: stood |",
    ] {
        assert!(text.contains(part), "{part}\nnot in\n{text}");
    }
    let svg = std::fs::read_to_string(tmp.path().join("revolt-strength.svg")).unwrap();
    assert!(svg.contains("<svg") && svg.contains("Suetonius"), "{svg}");
    assert!(
        fails(&mut s, "campaign report revolt.txt").contains("Markdown or HTML"),
        "a format it cannot write is refused"
    );
}

#[test]
fn the_example_campaign_runs_without_an_error_and_writes_its_report() {
    let root = crate::common::shipped();
    let _ = std::fs::remove_dir_all(root.join("revolt"));
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args(["--seed", "7", "--no-color", "--no-journal"])
        .args(["run", "examples/olab/campaign.umpire"])
        .current_dir(root)
        .env("UMPIRE_HISTORY", "/nonexistent/never-used")
        .env_remove("UMPIRE_JOURNAL")
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}\n{out}");
    assert!(!err.contains("error"), "{err}");
    assert!(
        out.contains("campaign report of `Boudicca's revolt` (2 battles fought)"),
        "{out}"
    );
    assert!(
        out.contains("watling: stood; mona: fell in round 2, returned"),
        "{out}"
    );
    let page = std::fs::read_to_string(root.join("revolt/reports/campaign.html")).unwrap();
    assert!(page.contains("id=\"campaign-chart\""));
    std::fs::remove_dir_all(root.join("revolt")).unwrap();
}

#[test]
fn an_undying_lands_hero_is_still_a_hero_in_the_next_battle() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("c");
    let mut s = session();
    for line in [
        "ruleset use undying_lands".to_string(),
        "house on heroes".into(),
        "army load examples/undying_lands/vale.toml".into(),
        "army load examples/undying_lands/horde.toml".into(),
        "muster".into(),
        "hero pikes".into(),
        format!("campaign new {}", dir.display()),
        "battle new first".into(),
    ] {
        ok(&mut s, &line);
    }
    assert!(ok(&mut s, "heroes").contains("pikes (vale, hero)"));
    let end = ok(&mut s, "battle end vale win");
    assert!(end.contains("(vale, hero): stood"), "{end}");
    let mut t = session();
    ok(&mut t, &format!("campaign open {}", dir.display()));
    ok(&mut t, "battle new second");
    let heroes = ok(&mut t, "heroes");
    assert!(heroes.contains("pikes (vale, hero)"), "{heroes}");
    assert!(
        t.state
            .game
            .markers_of("pikes")
            .unwrap()
            .iter()
            .any(|m| m.name == "mustered"),
        "still mustered"
    );
}

#[test]
fn the_campaign_reports_luck_is_each_sides_dice_over_every_battle() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("c");
    let mut s = session();
    for line in [
        "ruleset use demo",
        "add side red Red",
        "add side blue Blue",
        "add command red r1 R",
        "add command blue b1 B",
        "add unit r1 archers Archers sp=10",
        "add unit b1 slingers Slingers sp=10",
    ] {
        ok(&mut s, line);
    }
    ok(&mut s, &format!("campaign new {}", dir.display()));
    for battle in ["one", "two"] {
        ok(&mut s, &format!("battle new {battle}"));
        for _ in 0..4 {
            ok(&mut s, "shoot archers 0");
            ok(&mut s, "shoot slingers 0");
        }
        ok(&mut s, "dice queue 6");
        ok(&mut s, "shoot archers 0");
        ok(&mut s, "battle end a draw");
    }
    // Worked out from the battles' journals: each generated 1d6 against 3.5, by who shot.
    let (mut red, mut blue) = (Vec::new(), Vec::new());
    for battle in ["one", "two"] {
        let (records, _) = umpire::journal::read_file::<umpire::journal::Record>(
            &dir.join(format!("battles/{battle}.jsonl")),
            Default::default(),
        )
        .unwrap();
        for r in records {
            let umpire::journal::Record::Tx(tx) = r else {
                continue;
            };
            for roll in &tx.rolls {
                if roll.sources.contains(umpire::dice::SourceKind::Queue) {
                    continue;
                }
                match roll.by.as_deref() {
                    Some("archers") => red.push(roll.total),
                    Some("slingers") => blue.push(roll.total),
                    _ => {}
                }
            }
        }
    }
    assert_eq!((red.len(), blue.len()), (8, 8));
    let z =
        |v: &[f64]| v.iter().map(|x| x - 3.5).sum::<f64>() / (v.len() as f64 * 35.0 / 12.0).sqrt();
    let c = Campaign::open(&dir).unwrap();
    let r = umpire::report::campaign::CampaignReport::build(&c, Default::default()).unwrap();
    let luck: Vec<(&str, u64)> = r.luck.iter().map(|l| (l.side.as_str(), l.rolls)).collect();
    assert_eq!(luck, [("Red", 8), ("Blue", 8)], "queued dice are not luck");
    assert!((r.luck[0].z.unwrap() - z(&red)).abs() < 1e-9);
    assert!((r.luck[1].z.unwrap() - z(&blue)).abs() < 1e-9);
}
