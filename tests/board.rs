//! The board at club scale: `status` of a 400-unit game fits one 50-line screen, summarising
//! each side and command and listing the units that need attention (as each ruleset declares
//! it), for all four rule systems; `status all` still lists every unit.

use crate::common::shipped;
use umpire::dice::DiceBox;
use umpire::engine::Session;

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
        out.contains("1 away"),
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
