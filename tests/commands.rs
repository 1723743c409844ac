//! One command model: every command — built-in, or registered by any shipped ruleset or house
//! rule — has one signature, and its usage line, its `help` and the completion of its words
//! come from it; extra words are refused by every one of them.

use crate::common::{copy_dir, shipped};
use umpire::dice::DiceBox;
use umpire::engine::Session;
use umpire::engine::registry::{CommandSpec, Words};
use umpire::engine::signature::{Kind, Next, NoGame, Param, Signature, Word, next, parse};
use umpire::span::Span;

/// A session under `ruleset` with every house rule that loads on it, in a copy of the rules.
fn session(ruleset: &str, house: &[&str]) -> (tempfile::TempDir, Session) {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&shipped().join("rulesets"), &dir.path().join("rulesets"));
    copy_dir(&shipped().join("scripts"), &dir.path().join("scripts"));
    let mut s = Session::new(DiceBox::seeded(1));
    s.set_rules_root(dir.path().to_path_buf());
    let mut line = format!("ruleset use {ruleset}");
    for h in house {
        line.push_str(&format!(" --house {h}"));
    }
    assert!(s.execute(&line, None).unwrap().is_ok(), "{line}");
    (dir, s)
}

/// A word `kind` accepts, for a game resolved by [`NoGame`] (which takes any id).
fn sample(kind: &Kind) -> String {
    match kind {
        Kind::Int => "2".into(),
        Kind::Number | Kind::Distance(_) => "2.5".into(),
        Kind::Dice => "1d6".into(),
        Kind::Choice(v) => v[0].to_string(),
        Kind::Assignment => "sp=3".into(),
        _ => "x1".into(),
    }
}

/// Every form of `sig` (each path through its sub-commands), with its signature.
fn forms<'a>(sig: &'a Signature, path: Vec<String>, out: &mut Vec<(Vec<String>, &'a Signature)>) {
    if sig.subs.is_empty() || !sig.params.is_empty() || sig.bare {
        out.push((path.clone(), sig));
    }
    for sub in &sig.subs {
        let mut p = path.clone();
        p.push(sub.name.to_string());
        forms(&sub.signature, p, out);
    }
}

/// Parses `text` (the words after the name) with every id accepted.
fn parse_words(spec: &CommandSpec, text: &str) -> Result<(), String> {
    let line = format!("{} {text}", spec.name);
    let words: Vec<Word<'_>> = line
        .split(' ')
        .scan(0, |at, w| {
            let start = *at;
            *at += w.len() + 1;
            Some(Word {
                text: w,
                span: Span::new(start, start + w.len()),
            })
        })
        .filter(|w| !w.text.is_empty())
        .skip(1)
        .collect();
    parse(&spec.signature, &spec.name, &line, &words, &NoGame)
        .map(|_| ())
        .map_err(|e| e.message)
}

/// Every form of `spec`, filled with a value for each parameter, parses; with one more
/// word it is refused as too much (unless its last parameter takes the rest of the line).
fn extra_words_refused(spec: &CommandSpec) -> usize {
    let mut all = Vec::new();
    forms(&spec.signature, Vec::new(), &mut all);
    let mut checked = 0;
    for (path, sig) in all {
        let positional: Vec<&Param> = sig.params.iter().filter(|p| p.key.is_none()).collect();
        let mut words = path.clone();
        words.extend(positional.iter().map(|p| sample(&p.kind)));
        let text = words.join(" ");
        parse_words(spec, &text).unwrap_or_else(|e| panic!("`{} {text}`: {e}", spec.name));
        if positional.iter().any(|p| p.kind == Kind::Text || p.many) {
            continue; // a word more is one more word of its text or list
        }
        let err = parse_words(spec, &format!("{text} zz-extra"))
            .expect_err(&format!("`{} {text} zz-extra` was accepted", spec.name));
        assert!(
            err.contains("`zz-extra` is too much") || err.contains("`zz-extra` is not one of"),
            "`{} {text} zz-extra`: {err}",
            spec.name
        );
        checked += 1;
    }
    checked
}

#[test]
fn every_command_has_one_signature_for_usage_help_completion_and_parsing() {
    let (mut checked, mut refused) = (0, 0);
    for (ruleset, house) in [
        ("demo", vec!["veterans"]),
        (
            "olab",
            vec!["heroes", "ambushes", "magic", "ko_fire", "suppressive_fire"],
        ),
    ] {
        let (_dir, mut s) = session(ruleset, &house);
        let specs: Vec<CommandSpec> = s.registry.specs().to_vec();
        assert!(
            specs.iter().any(|c| c.from_rules()),
            "{ruleset}: no rule commands"
        );
        for spec in &specs {
            // The usage line is the name and the signature's usage.
            let usage = spec.usage();
            let sig = spec.signature.usage();
            assert_eq!(
                usage.trim(),
                format!("{} {sig}", spec.name).trim(),
                "{}",
                spec.name
            );
            // `help CMD` shows that usage and every parameter the signature declares.
            let out = s
                .execute(&format!("help {}", spec.name), None)
                .unwrap()
                .unwrap();
            assert_eq!(out.json["usage"], usage, "{}", spec.name);
            let help = out.json["help"].as_str().unwrap();
            for p in &spec.signature.params {
                let shown = match &p.key {
                    Some(k) => k.to_string(),
                    None => p.name.to_uppercase(),
                };
                assert!(
                    help.contains(&shown),
                    "help {}: `{shown}` missing:\n{help}",
                    spec.name
                );
            }
            for sub in &spec.signature.subs {
                assert!(
                    help.contains(sub.name.as_ref()),
                    "help {}: `{}` missing",
                    spec.name,
                    sub.name
                );
            }
            // Completion after the name offers what the signature says comes first.
            let words = s.vocabulary();
            let (_, offered) =
                s.registry
                    .complete(&format!("{} ", spec.name), spec.name.len() + 1, &words);
            match next(&spec.signature, &[]) {
                Next::Words(w) => {
                    for x in w {
                        assert!(
                            offered.contains(&x),
                            "{}: `{x}` not offered: {offered:?}",
                            spec.name
                        );
                    }
                }
                Next::Values(kinds, w) => {
                    for x in w {
                        assert!(
                            offered.contains(&x),
                            "{}: `{x}` not offered: {offered:?}",
                            spec.name
                        );
                    }
                    if kinds.contains(&Kind::Unit) {
                        assert!(
                            words.units.iter().all(|u| offered.contains(u)),
                            "{}: units not offered",
                            spec.name
                        );
                    }
                }
            }
            refused += extra_words_refused(spec);
            checked += 1;
        }
    }
    assert!(checked > 60, "only {checked} commands checked");
    assert!(refused > 60, "only {refused} forms refused an extra word");
}

#[test]
fn completion_offers_only_what_fits_the_argument() {
    let (_dir, mut s) = session("olab", &[]);
    for line in [
        "army load examples/olab/romans.toml",
        "army load examples/olab/britons.toml",
        "set war3 off_table eliminated",
    ] {
        assert!(s.execute(line, None).unwrap().is_ok(), "{line}");
    }
    let w: Words = s.vocabulary();
    assert!(
        !w.units.contains(&"war3".to_string()),
        "an eliminated stand is offered"
    );
    let (_, offered) = s.registry.complete("shoot arc1 war", 14, &w);
    assert!(offered.contains(&"war1".to_string()) && !offered.contains(&"war3".to_string()));
    assert!(offered.iter().all(|o| o.starts_with("war")), "{offered:?}");
    // After a comma, the ids of the next stand in the list.
    let (_, offered) = s.registry.complete("activate leg1,le", 16, &w);
    assert!(offered.contains(&"leg1,leg2".to_string()), "{offered:?}");
    // Where a marker is wanted, markers, not units.
    let (_, offered) = s.registry.complete("mark leg1 rou", 13, &w);
    assert_eq!(offered, ["routed"]);
    // A file where a file is wanted.
    let (_, offered) = s.registry.complete("army load examples/olab/ro", 26, &w);
    assert_eq!(offered, ["examples/olab/romans.toml"]);
    // The options the rules declare where an option is wanted.
    let (_, offered) = s.registry.complete("option set sc", 13, &w);
    assert_eq!(offered, ["score_on_time"]);
}

/// A session on the shipped rules after `lines`, each of which must succeed.
fn shipped_session(lines: &[&str]) -> Session {
    let mut s = Session::new(DiceBox::seeded(1));
    s.set_rules_root(shipped().to_path_buf());
    for line in lines {
        if let Err((_, e)) = s.execute(line, None).unwrap() {
            panic!("`{line}`: {e}");
        }
    }
    s
}

/// The OLAB Ancient pair in the manoeuvre phase of round 1, `dice` queued.
fn olab_battle(dice: &str) -> Session {
    shipped_session(&[
        "ruleset use olab",
        "army load examples/olab/romans.toml",
        "army load examples/olab/britons.toml",
        "next",
        "next",
        &format!("dice queue {dice}"),
    ])
}

#[test]
fn set_changes_a_side_or_a_command_attribute_when_its_id_is_named_alone() {
    let mut s = shipped_session(&["ruleset use olab", "army load examples/olab/romans.toml"]);
    let run = |s: &mut Session, line: &str| match s.execute(line, None).unwrap() {
        Ok(out) => umpire::engine::render::output(&out, &umpire::engine::Palette::plain()),
        Err((_, e)) => format!("error: {e}"),
    };
    assert_eq!(
        run(&mut s, "set romans cinc_rating 1"),
        "romans cinc_rating 0 → 1"
    );
    assert_eq!(
        run(&mut s, "set legate_cmd threshold 30"),
        "legate_cmd threshold 0 → 30"
    );
    assert!(run(&mut s, "set romans cinc_rating 2").contains("from -1 to 1"));
    // A unit attribute through a side still sets every unit of the side.
    // (20 stands: one line sums it up; `log 1 all` lists each.)
    let all = run(&mut s, "set romans sp 5");
    assert!(all.contains("sp = 5 on 20 units"), "{all}");
    assert!(run(&mut s, "undo 3").contains("cinc_rating 1 → 0"));
}

#[test]
fn ids_typed_in_capitals_as_scenario_sheets_write_them_are_found() {
    let mut s = shipped_session(&[
        "ruleset use olab",
        "army load examples/olab/romans.toml",
        "army load examples/olab/britons.toml",
        "set LEG1 sp 4",
        "mark Leg1,LEG2 suppressed",
        "reach ARC1 WAR7 8",
    ]);
    assert_eq!(
        s.state.game.attr("leg1", "sp"),
        Some(&umpire::state::Value::Int(4))
    );
    // A value keeps its capitals: `type=INF/U` is not an id.
    assert!(
        s.execute("set type=WBD off_table no", None)
            .unwrap()
            .is_ok()
    );
}

#[test]
fn an_olab_shot_records_its_numbers_for_programs() {
    let mut s = olab_battle("5 3 3");
    let out = s.execute("shoot arc1 war7 8", None).unwrap().unwrap();
    assert_eq!(
        out.to_json()["record"]["shots"],
        serde_json::json!([{"target": "war7", "d6": 5, "pre_save": 10, "save": 6, "hp": 4}])
    );
}

#[test]
fn an_olab_close_combat_records_its_numbers_for_programs() {
    let mut s = olab_battle("4 3 3 2 2 2");
    let out = s.execute("cc leg1 war1", None).unwrap().unwrap();
    let r = &out.to_json()["record"]["cc"];
    assert_eq!(r["defender"], "war1");
    assert_eq!(r["attackers"], serde_json::json!(["leg1"]));
    assert_eq!(r["struck_back"], "leg1");
    assert_eq!(
        (r["hp_defender"].as_i64(), r["hp_back"].as_i64()),
        (Some(7), Some(1))
    );
    assert_eq!(r["defender_leaves"], true);
}

#[test]
fn a_ko_roll_records_what_it_needed_and_made_for_programs() {
    let mut s = shipped_session(&[
        "ruleset use olab --house ko_fire",
        "add side red Red",
        "add side blue Blue",
        "add command red r1 Reds",
        "add command blue b1 Blues",
        "add unit r1 tiger Tiger type=TNK sp=9 sp_start=9 armour=heavy speed=slow weapon=bl_80_130",
        "add unit b1 t34 T-34 type=TNK sp=8 sp_start=8 armour=medium speed=medium weapon=bl_to79",
        "dice queue 4 3",
    ]);
    let out = s.execute("ko tiger t34 30 flank", None).unwrap().unwrap();
    assert_eq!(
        out.to_json()["record"]["ko"],
        serde_json::json!({"target": "t34", "row": "bl_80_130", "column": "medium",
            "ko_need": 4, "ko_roll": 4, "knocked_out": true})
    );
}

/// `army save` writes sides as they stand and `army load` reads them back to the same
/// state: attributes changed in play, lasting markers (not those that expire), elements;
/// it will not write over a file without `force`.
#[test]
fn an_army_saved_mid_game_loads_back_as_it_stood() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("after.toml");
    let file = file.to_str().unwrap();
    let run = |s: &mut Session, line: &str| match s.execute(line, None).unwrap() {
        Ok(out) => umpire::engine::render::output(&out, &umpire::engine::Palette::plain()),
        Err((_, e)) => format!("error: {e}"),
    };
    let mut s = olab_battle("6");
    for line in [
        "set leg1 sp 2",
        "set romans pcp_lost 12",
        "mark leg2 routed",
        "mark leg3 shot",
    ] {
        assert!(!run(&mut s, line).starts_with("error"), "{line}");
    }
    let saved = run(&mut s, &format!("army save {file} romans"));
    assert!(saved.contains("saved romans (20 units)"), "{saved}");
    let again = run(&mut s, &format!("army save {file}"));
    assert!(again.contains("exists"), "{again}");
    assert!(run(&mut s, &format!("army save {file} force")).contains("saved romans, britons"));
    let mut t = shipped_session(&["ruleset use olab"]);
    assert!(run(&mut t, &format!("army load {file}")).contains("loaded"));
    for side in ["romans", "britons"] {
        assert_eq!(s.state.game.side(side), t.state.game.side(side), "{side}");
    }
    for (a, b) in s.state.game.units().zip(t.state.game.units()) {
        assert_eq!((&a.id, &a.name, &a.attrs), (&b.id, &b.name, &b.attrs));
        let lasting: Vec<&str> = a
            .markers
            .iter()
            .filter(|m| m.expiry.is_none())
            .map(|m| m.name.as_str())
            .collect();
        let names: Vec<&str> = b.markers.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(lasting, names, "{}", a.id);
    }
    assert!(t.state.game.unit("leg3").unwrap().markers.is_empty());
    // Elements, in a game without rules.
    let mut e = Session::new(DiceBox::seeded(1));
    for line in [
        "add side alpha Alpha",
        "add command alpha a1 First",
        "add unit a1 sq1 Squad 1",
        "add element sq1 sq1a Ann",
        "add element sq1 sq1b Bob",
    ] {
        assert!(!run(&mut e, line).starts_with("error"), "{line}");
    }
    let efile = dir.path().join("squads.toml");
    run(&mut e, &format!("army save {}", efile.display()));
    let mut f = Session::new(DiceBox::seeded(1));
    run(&mut f, &format!("army load {}", efile.display()));
    assert_eq!(
        f.state.game.element("sq1b").map(|x| &x.name),
        Some(&"Bob".to_string())
    );
    let nobody = run(
        &mut f,
        &format!("army save {} nobody", dir.path().join("x.toml").display()),
    );
    assert!(
        nobody.contains("expected a side, found `nobody`"),
        "{nobody}"
    );
    assert!(!dir.path().join("x.toml").exists());
}
