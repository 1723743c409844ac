//! What the benches share (each includes this file with `#[path = "common/mod.rs"]` and uses
//! what it needs): the repository, a session that runs lines which must succeed, and the
//! set-ups of the ruleset benchmarks, each a list of shell lines, the first choosing the
//! ruleset.

use std::path::PathBuf;

use umpire::dice::DiceBox;
use umpire::engine::Session;

/// The repository (its `rulesets/` and `examples/`).
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs a line that must succeed.
pub fn run(s: &mut Session, line: &str) {
    match s.execute(line, None) {
        Some(Ok(_)) | None => {}
        Some(Err((_, e))) => panic!("`{line}` failed: {e:?}"),
    }
}

/// A session with the repository's rules and `setup` run (its first line chooses the ruleset).
pub fn session(setup: &[&str]) -> Session {
    let mut s = Session::new(DiceBox::seeded(1));
    s.set_rules_root(repo());
    for l in setup {
        run(&mut s, l);
    }
    s
}

/// OLAB: riflemen at a target in cover (AD 1943), and a General's cataphracts and a charging
/// warband against legionaries on a defended line.
pub const OLAB: &[&str] = &[
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
    "add unit b1 tgt Target type=INF/U sp=12 sp_start=12",
];

/// OpenD6: the example forces (the Ice Rangers, Frostmere and the goblins).
pub const OD6: &[&str] = &[
    "ruleset use opend6fm",
    "army load examples/opend6fm/ice_rangers.toml",
    "army load examples/opend6fm/frostmere.toml",
    "army load examples/opend6fm/goblins.toml",
];

/// FLD: two units of 48 figures in four ranks of 12, hand weapons, both fighting in full.
pub const FLD: &[&str] = &[
    "ruleset use fld",
    "add side light Light",
    "add side dark Dark",
    "add command light l1 Lights",
    "add command dark d1 Darks",
    "add unit l1 sw Swordsmen figures=48 files=12 height=6 melee=3 strength=3 armour=partial_sh morale=4",
    "add unit d1 cw Chaos_Warriors figures=48 files=12 height=7 attacks=2 melee=4 strength=4 natural=1 armour=plate_sh morale=5",
    "muster",
];

/// Undying Lands: the example armies (the warband of three vignettes, the pikes of three).
pub const UL: &[&str] = &[
    "ruleset use undying_lands",
    "army load examples/undying_lands/vale.toml",
    "army load examples/undying_lands/horde.toml",
    "muster",
];
