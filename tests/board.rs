//! The board at club scale (issue 21): `status` of a 400-unit game fits one 50-line screen,
//! summarising each team, side and command and listing the units that need attention (as each
//! ruleset declares it), for all four rule systems; `status all` still lists every unit.
//! Allied sides (teams): a 2-against-2 OLAB game rolls one initiative a team. Completion after
//! commas and of what fits each argument; the next set proposed for the prompt.

use crate::common::shipped;
use umpire::dice::DiceBox;
use umpire::engine::Session;
use umpire::engine::output::Output;

fn run(s: &mut Session, line: &str) -> String {
    match s.execute(line, None).expect("a command") {
        Ok(out) => umpire::engine::render::output(&out, &umpire::engine::Palette::plain()),
        Err((_, e)) => panic!("`{line}` failed: {e}"),
    }
}

/// A game of `ruleset` with two sides of ten commands of twenty units (`attrs` on each), then
/// `damage` run; returns the session.
fn club_game(ruleset: &str, attrs: &str, damage: &[&str]) -> Session {
    let mut s = Session::new(DiceBox::seeded(1));
    s.set_rules_root(shipped().to_path_buf());
    run(&mut s, &format!("ruleset use {ruleset}"));
    for side in ["red", "blue"] {
        run(&mut s, &format!("add side {side} {side}"));
        for c in 0..10 {
            run(&mut s, &format!("add command {side} {side}{c} {side}_{c}"));
            for u in 0..20 {
                run(
                    &mut s,
                    &format!("add unit {side}{c} {side}{c}u{u} U{u} {attrs}"),
                );
            }
        }
    }
    for line in damage {
        run(&mut s, line);
    }
    s
}

/// `status` fits 50 lines and names each unit in `attention` (and no other unit).
fn fits_and_lists(s: &mut Session, attention: &[&str]) {
    let out = run(s, "status");
    let lines = out.lines().count();
    assert!(lines <= 50, "{lines} lines:\n{out}");
    assert!(
        out.contains(&format!("needs attention ({})", attention.len())),
        "{out}"
    );
    for id in attention {
        assert!(
            out.lines()
                .any(|l| l.trim_start().starts_with(&format!("{id} "))),
            "{id}:\n{out}"
        );
    }
    assert!(
        out.contains("red [red]") && out.contains("red_9 [red9]"),
        "{out}"
    );
    let all = run(s, "status all");
    assert!(all.lines().count() > 50, "`status all` lists every unit");
}

#[test]
fn olab_at_400_stands() {
    let mut s = club_game(
        "olab",
        "type=INF/U sp=4 sp_start=4",
        &[
            "set red0u1 sp 1",
            "mark blue2u7 out_of_command",
            "set blue5u5 sp 0",
        ],
    );
    fits_and_lists(&mut s, &["red0u1", "blue2u7"]);
    let out = run(&mut s, "status");
    assert!(
        out.contains("199/200 in play · eliminated 1"),
        "the eliminated stand is counted away:\n{out}"
    );
    assert!(out.contains("routed 1"), "{out}");
    // A change to many units is one line; `log 1 all` lists each.
    let marked = run(&mut s, "mark side:red suppressed until phase");
    assert_eq!(marked.lines().count(), 1, "{marked}");
    assert!(
        marked.contains("marked suppressed until end of phase on 200 units: red0u0"),
        "{marked}"
    );
    assert!(run(&mut s, "log 1 all").lines().count() > 200);
    let next = run(&mut s, "next");
    assert!(
        next.contains("expired: suppressed on 200 of them"),
        "{next}"
    );
}

#[test]
fn fld_at_400_units() {
    let mut s = club_game(
        "fld",
        "figures=12 files=6 integrity=24 integrity_start=24",
        &[
            "mark red1u1 disordered",
            "set blue3u3 integrity 10",
            "mark blue4u4 broken",
        ],
    );
    fits_and_lists(&mut s, &["red1u1", "blue3u3", "blue4u4"]);
}

#[test]
fn undying_lands_at_400_units() {
    let mut s = club_game(
        "undying_lands",
        "ip=20 ip_start=20",
        &["mark red2u2 disordered", "set blue6u6 ip 12"],
    );
    fits_and_lists(&mut s, &["red2u2", "blue6u6"]);
}

#[test]
fn opend6_at_400_squads() {
    let mut s = club_game(
        "opend6fm",
        "soldiers=1 start_size=1",
        &[
            "set red3u3 state shaken",
            "add element blue7u7 b77a Ann",
            "mark blue7u7.b77a wounded",
        ],
    );
    fits_and_lists(&mut s, &["red3u3", "blue7u7"]);
    assert!(run(&mut s, "status").contains("1 wounded"));
}

#[test]
fn a_small_game_keeps_the_full_board() {
    let mut s = Session::new(DiceBox::seeded(1));
    s.set_rules_root(shipped().to_path_buf());
    run(&mut s, "ruleset use olab");
    run(&mut s, "army load examples/olab/romans.toml");
    let out = run(&mut s, "status");
    assert!(!out.contains("needs attention"), "{out}");
    assert!(out.contains("leg1"), "{out}");
}

/// Runs `line`, which must succeed, and returns its output.
fn output(s: &mut Session, line: &str) -> Output {
    match s.execute(line, None).expect("a command") {
        Ok(out) => out,
        Err((_, e)) => panic!("`{line}` failed: {e}"),
    }
}

/// A session of `ruleset` with the club army file of four sides in two teams loaded.
fn club_file(ruleset: &str) -> Session {
    let mut s = Session::new(DiceBox::seeded(1));
    s.set_rules_root(shipped().to_path_buf());
    run(&mut s, &format!("ruleset use {ruleset}"));
    let loaded = run(&mut s, &format!("army load tests/data/club/{ruleset}.toml"));
    assert!(loaded.contains("400 units"), "{loaded}");
    s
}

#[test]
fn the_club_army_files_fit_one_screen_with_their_teams() {
    for (ruleset, damage, attention) in [
        ("olab", "set pink3u3 sp 2", "pink3u3  sp lost"),
        ("fld", "mark navy2u2 broken", "navy2u2  broken"),
        ("undying_lands", "set blue1u1 ip 3", "blue1u1  ip lost"),
        (
            "opend6fm",
            "set red4u4 state broken",
            "red4u4  state broken",
        ),
    ] {
        let mut s = club_file(ruleset);
        run(&mut s, damage);
        let out = run(&mut s, "status");
        assert!(out.lines().count() <= 50, "{ruleset}: {out}");
        assert!(
            out.contains("team west ") && out.contains("team east "),
            "{out}"
        );
        assert!(out.contains("needs attention (1):"), "{ruleset}: {out}");
        assert!(out.contains(attention), "{ruleset}: {out}");
    }
}

#[test]
fn olab_lists_the_stands_not_yet_activated_after_those_in_trouble() {
    let mut s = club_file("olab");
    run(&mut s, "mark navy1u1 routed");
    run(&mut s, "next");
    run(&mut s, "next");
    let out = run(&mut s, "status");
    assert!(out.lines().count() <= 50, "{out}");
    assert!(
        out.contains("needs attention (1; not activated 399):"),
        "{out}"
    );
    let first = out
        .lines()
        .skip_while(|l| !l.starts_with("needs attention"))
        .nth(1)
        .unwrap();
    assert!(
        first.contains("navy1u1") && first.contains("routed, not activated"),
        "{out}"
    );
    assert!(
        out.contains("not activated 100"),
        "counted a side at a time:\n{out}"
    );
}

/// Issue 21: a 2-against-2 OLAB game has one initiative a team.
#[test]
fn a_two_against_two_olab_game_rolls_one_initiative_a_team() {
    let mut s = Session::new(DiceBox::seeded(1));
    s.set_rules_root(shipped().to_path_buf());
    run(&mut s, "ruleset use olab");
    for army in ["romans", "britons", "french", "british"] {
        run(&mut s, &format!("army load examples/olab/{army}.toml"));
    }
    run(&mut s, "team west romans french");
    run(&mut s, "team east britons british");
    assert_eq!(
        run(&mut s, "team"),
        "team west: romans, french\nteam east: britons, british"
    );
    let out = output(&mut s, "initiative");
    let text = umpire::engine::render::output(&out, &umpire::engine::Palette::plain());
    // One breakdown a team (ties roll again among the tied teams only).
    let firsts = text
        .lines()
        .filter(|l| l.starts_with("Initiative 3.3, round 1: team ") && !l.contains("roll 2"))
        .count();
    assert_eq!(firsts, 2, "{text}");
    let winner = out.json["record"]["initiative"]["winner"].as_str().unwrap();
    assert!(["west", "east"].contains(&winner), "{winner}");
    let totals = out.json["record"]["initiative"]["totals"]
        .as_object()
        .unwrap();
    assert_eq!(totals.len(), 2, "one total a team: {totals:?}");
    // Teams are journalled: undone, each side rolls for itself again.
    run(&mut s, "undo");
    run(&mut s, "undo");
    run(&mut s, "undo");
    assert!(run(&mut s, "team").contains("no side is in a team"));
    let out = output(&mut s, "initiative");
    let totals = out.json["record"]["initiative"]["totals"]
        .as_object()
        .unwrap();
    assert_eq!(totals.len(), 4, "{totals:?}");
}

#[test]
fn status_shows_one_players_side_or_the_whole_team() {
    let mut s = club_file("olab");
    let team = output(&mut s, "status team:west");
    let units = team.json["units"].as_array().unwrap();
    assert_eq!(units.len(), 200);
    assert!(
        units
            .iter()
            .all(|u| ["red", "pink"].contains(&u["side"].as_str().unwrap()))
    );
    let side = output(&mut s, "status side:pink");
    assert_eq!(side.json["units"].as_array().unwrap().len(), 100);
    let text = run(&mut s, "status command:pink2");
    assert!(text.contains("team west"), "{text}");
    // A side leaves its team; the selector follows.
    run(&mut s, "team none pink");
    let team = output(&mut s, "status team:west");
    assert_eq!(team.json["units"].as_array().unwrap().len(), 100);
    let e = s.execute("status team:north", None).unwrap().unwrap_err().1;
    assert!(e.to_string().contains("the teams are west, east"), "{e}");
}

#[test]
fn completion_after_commas_and_of_what_fits_the_argument() {
    let mut s = club_file("olab");
    run(&mut s, "set red0u3 off_table eliminated");
    let words = s.vocabulary();
    let tab = |line: &str| umpire::shell::helper::complete(&s.registry, &words, line, line.len()).1;
    // After a comma: the next stand, never one the list holds, never one eliminated.
    let offered = tab("activate red0u1,red0u2,red0u");
    assert!(
        offered.contains(&"red0u1,red0u2,red0u4".to_string()),
        "{offered:?}"
    );
    assert!(
        !offered
            .iter()
            .any(|o| o.ends_with(",red0u1") || o.ends_with(",red0u2")),
        "{offered:?}"
    );
    assert!(
        !offered.iter().any(|o| o.ends_with(",red0u3")),
        "{offered:?}"
    );
    // Where a side is wanted, sides; teams after `team:`; markers where a marker is.
    assert_eq!(tab("team west p"), ["pink"]);
    let teams = tab("status team:");
    assert!(
        teams.contains(&"team:east".to_string()) && teams.contains(&"team:west".to_string()),
        "{teams:?}"
    );
    assert_eq!(tab("mark red0u1 out_of"), ["out_of_command"]);
    // A file where a file is wanted.
    assert_eq!(
        tab("army load tests/data/club/ol"),
        ["tests/data/club/olab.toml"]
    );
    // An element where an element is: after its unit's dot.
    let mut s = club_file("opend6fm");
    run(&mut s, "add element red0u1 ann Ann");
    run(&mut s, "add element red0u1 bob Bob");
    let words = s.vocabulary();
    let tab = |line: &str| umpire::shell::helper::complete(&s.registry, &words, line, line.len()).1;
    assert_eq!(tab("mark red0u1."), ["red0u1.ann", "red0u1.bob"]);
    assert!(tab("mark red0u1.ann w").contains(&"wounded".to_string()));
}

#[test]
fn the_next_set_is_proposed_for_the_prompt() {
    let mut s = club_file("olab");
    run(&mut s, "mark blue0u4 out_of_command");
    run(&mut s, "next");
    run(&mut s, "next");
    let out = output(&mut s, "activate red0u0,red0u1,red0u2,red0u3,red0u4");
    // The other team's turn; the stand out of command must move in its first set (PN 3.3).
    assert_eq!(
        umpire::shell::helper::proposal(&out).as_deref(),
        Some("activate blue0u4,blue0u0,blue0u1,blue0u2,blue0u3")
    );
    let text = umpire::engine::render::output(&out, &umpire::engine::Palette::plain());
    assert_eq!(text.lines().count(), 1, "one line a set: {text}");
}

/// In a real terminal: after a set, the prompt starts with the next set; Enter accepts it.
#[cfg(unix)]
#[test]
fn the_prompt_offers_the_next_set_and_enter_accepts_it() {
    use rexpect::session::spawn_command;
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_umpire"));
    cmd.args([
        "--no-journal",
        "--no-color",
        "--no-pager",
        "--seed",
        "1",
        "--ruleset",
        "olab",
        "--history",
        "/dev/null",
        "--rules",
    ])
    .arg(shipped())
    .current_dir(env!("CARGO_MANIFEST_DIR"))
    .env("TERM", "xterm");
    let mut s = spawn_command(cmd, Some(20_000)).expect("umpire starts in a pty");
    // Each line once the one before has answered (a real terminal redraws as it is typed).
    for (line, answer) in [
        ("army load examples/olab/romans.toml", "20 units"),
        ("army load examples/olab/britons.toml", "20 units"),
        ("next", "command phase"),
        ("next", "manoeuvre phase"),
        ("activate leg1,leg2,leg3,leg4,arc1", "britons 20"),
    ] {
        s.exp_string("olab#1> ").unwrap();
        s.send_line(line).unwrap();
        s.exp_string(answer).unwrap();
    }
    // The Britons' turn: the prompt holds their first five stands; Enter runs them.
    s.exp_string("olab#1> ").unwrap();
    s.exp_string("boudica,nobles,chariot1,chariot2,war1")
        .unwrap();
    s.send_line("").unwrap();
    s.exp_string("britons set 1 (manoeuvre, 3.3)").unwrap();
}

/// In a real terminal of 20 lines: `help`, longer than that, goes through `$PAGER` (here a
/// `sed` that marks each line); with `--no-pager` it is printed as it is.
#[cfg(unix)]
#[test]
fn long_output_goes_through_the_pager_in_a_terminal() {
    use rexpect::session::spawn_command;
    for (flag, paged) in [("", true), ("--no-pager", false)] {
        let mut cmd = std::process::Command::new("sh");
        cmd.arg("-c")
            .arg(format!(
                "stty rows 20 cols 100; exec \"$0\" --no-journal --no-color --history /dev/null {flag}"
            ))
            .arg(env!("CARGO_BIN_EXE_umpire"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("TERM", "xterm")
            .env("PAGER", "sed s/^/paged:/")
            .env_remove("UMPIRE_NO_PAGER");
        let mut s = spawn_command(cmd, Some(20_000)).expect("umpire starts in a pty");
        s.exp_string("umpire> ").unwrap();
        s.send_line("help").unwrap();
        let before = s.exp_string("for one command").unwrap();
        assert_eq!(before.contains("paged:"), paged, "{flag}: {before}");
        s.send_line("quit").unwrap();
    }
}
