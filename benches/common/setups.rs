//! The set-ups the ruleset benchmarks share (`benches/rulesets.rs`, `benches/odds.rs`):
//! each a list of shell lines, the first choosing the ruleset.

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
