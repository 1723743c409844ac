//! The exact engine on parsed notation: known odds, the conformance corpus's bounds, and a
//! differential property test against the roller (sampled totals must be possible, and the
//! sampled mean must sit within a few standard errors of the exact mean).

use proptest::prelude::*;

use super::{Distribution, ExactOptions, distribution};
use crate::dice::ast::CmpOp;
use crate::dice::error::DiceErrorKind;
use crate::dice::{Caps, DiceBox, parse, roll};

fn odds_with(expr: &str, opts: &ExactOptions) -> Result<Distribution, crate::dice::DiceError> {
    let e = parse(expr).unwrap_or_else(|e| panic!("{}", e.render(expr)));
    distribution(&e, opts)
}

fn odds(expr: &str) -> Distribution {
    let d = odds_with(expr, &ExactOptions::default()).unwrap_or_else(|e| panic!("{expr}: {e}"));
    let total: f64 = d.outcomes.iter().map(|o| o.1).sum();
    assert!(
        (total + d.cut_off - 1.0).abs() < 1e-9,
        "{expr}: mass {total} + {}",
        d.cut_off
    );
    d
}

fn close(a: f64, b: f64) {
    assert!((a - b).abs() < 1e-9, "{a} != {b}");
}

macro_rules! odds {
    ($name:ident, $expr:expr, $op:ident $x:expr, $p:expr) => {
        #[test]
        fn $name() {
            close(odds($expr).probability(CmpOp::$op, $x), $p);
        }
    };
}

odds!(two_d6_seven, "2d6", Eq 7.0, 6.0 / 36.0);
odds!(d20_eleven_or_more, "1d20", Ge 11.0, 0.5);
odds!(d20_ten_or_more, "d20", Ge 10.0, 0.55);
odds!(four_d6_keep_three_eighteen, "4d6kh3", Eq 18.0, 21.0 / 1296.0);
odds!(keep_and_drop_from_all_dice, "3d6kh2dl1", Eq 12.0, 16.0 / 216.0);
odds!(set_keep_highest_and_lowest, "(1, 2, 3, 4, 5)kh1kl1", Eq 6.0, 1.0);
odds!(reroll_until, "1d6r<3", Eq 3.0, 0.25);
odds!(reroll_once, "1d6ro1", Eq 1.0, 1.0 / 36.0);
odds!(fudge_one, "dF.1", Eq 0.0, 4.0 / 6.0);
odds!(fudge_two, "4dF", Eq 4.0, 1.0 / 81.0);
odds!(comparison, "2d6 >= 7", Eq 1.0, 21.0 / 36.0);
odds!(floor_division, "1d6 // 2", Eq 1.0, 2.0 / 6.0);
odds!(remainder_sign_of_divisor, "1d6 % -4", Eq - 3.0, 2.0 / 6.0);
odds!(round_halves_up, "round(1d4 / 2)", Eq 2.0, 2.0 / 4.0);
odds!(min_clamp, "2d6min3", Eq 6.0, 0.25);
odds!(success_counting, "20d10>=8", Eq 20.0, 0.3f64.powi(20));
odds!(group_keep_items, "{4d10*2, 5d6+10}dh1", Ge 8.0, 1.0);
odds!(one_item_group_keeps_dice, "{4d6}kh3", Eq 18.0, 21.0 / 1296.0);
// The group picks among the dice the pool kept: the lowest two of the best five.
odds!(nested_keep_picks_among_survivors, "(10d6kh5)kl2", Eq 12.0, 0.015461966703926942);
odds!(nested_keep_highest_of_lowest, "(3d6kl2)kh1", Le 1.0, 16.0 / 216.0);
odds!(labels_change_nothing, "1d20 + 5 [attack]", Eq 6.0, 0.05);

#[test]
fn explode_depth_and_cut_off_are_reported() {
    for depth in [0, 3, 5] {
        let opts = ExactOptions {
            explode_depth: depth,
            ..ExactOptions::default()
        };
        let d = odds_with("1d6!", &opts).unwrap();
        close(d.cut_off, (1.0f64 / 6.0).powi(depth as i32 + 1));
        assert_eq!(d.explode_depth, Some(depth));
    }
    let written = odds("3d6!x1");
    assert_eq!((written.cut_off, written.explode_depth), (0.0, Some(1)));
}

#[test]
fn roll_and_add_adds_one_die_when_any_matches() {
    // No 1 on two dice: 25/36. Otherwise one more d6 is added.
    close(odds("2d6ra1").mean(), 7.0 + 11.0 / 36.0 * 3.5);
    let d = odds("2d6ra1");
    close(d.probability(CmpOp::Eq, 2.0), 0.0);
    close(d.probability(CmpOp::Eq, 3.0), 1.0 / 216.0);
    // Success counting counts the added die too.
    close(
        odds("1d6ra1>=4").probability(CmpOp::Eq, 1.0),
        3.0 / 6.0 + 1.0 / 6.0 * 0.5,
    );
}

#[test]
fn unique_dice_reroll_repeats() {
    // Two different faces: seven is 6 of the 30 ordered pairs.
    let d = odds("2d6u");
    close(d.probability(CmpOp::Eq, 7.0), 6.0 / 30.0);
    close(d.probability(CmpOp::Eq, 2.0), 0.0);
    // Once: a double survives only if the reroll repeats it.
    close(odds("2d6uo").probability(CmpOp::Eq, 2.0), 1.0 / 216.0);
    // Only values above 4 must differ: a double 1 stays.
    close(odds("2d6u>4").probability(CmpOp::Eq, 2.0), 1.0 / 36.0);
    close(odds("2d6u>4").probability(CmpOp::Eq, 12.0), 0.0);
}

#[test]
fn twenty_d10_successes_average_six() {
    close(odds("20d10>=8").mean(), 6.0);
    assert!((odds("4d6kh3").mean() - 12.2446).abs() < 1e-4);
    close(odds("3d6").mean(), 10.5);
}

#[test]
fn unsupported_notation_says_what() {
    for (expr, word) in [
        ("5d10!u", "unique"),
        ("2d6ra1kh1", "ra"),
        ("{4d6+1d8}kh3", "one-item"),
        ("{4d6k>3}dl1", "compare point"),
    ] {
        match odds_with(expr, &ExactOptions::default()) {
            Err(e) => match *e.kind {
                DiceErrorKind::Unsupported { what } => assert!(what.contains(word), "{what}"),
                k => panic!("{expr}: {k:?}"),
            },
            Ok(_) => panic!("{expr} should be unsupported"),
        }
    }
}

#[test]
fn division_by_a_die_that_can_be_zero_is_an_error() {
    let e = odds_with("10 / (1d3 - 2)", &ExactOptions::default()).unwrap_err();
    assert_eq!(*e.kind, DiceErrorKind::DivisionByZero);
}

#[test]
fn explode_cap_hit_names_the_cap() {
    let opts = ExactOptions {
        max_outcomes: 1000,
        ..ExactOptions::default()
    };
    let e = odds_with("999d6", &opts).unwrap_err();
    assert!(e.to_string().contains("1000"), "{e}");
}

// ---- the conformance corpus ----------------------------------------------------------------

fn bound(s: &str) -> f64 {
    match s {
        "inf" => f64::INFINITY,
        "-inf" => f64::NEG_INFINITY,
        "-" => f64::NAN,
        s => s.parse().unwrap(),
    }
}

/// Rows whose corpus bound follows a peer's reading that umpire does not share; the exact
/// odds show the bound cannot be reached here (the roller's corpus test only checks that
/// rolls stay inside the bounds, so it passes them).
const UNREACHED: &[&str] = &[
    // `k1` and `ph1` both pick the single highest die (ties broken the same way), so the
    // kept die is always dropped: 0. The corpus's 0..9 reads it differently.
    "10d6k1ph1",
];

/// Every valid corpus row the engine supports has its support inside the corpus bounds, and
/// reaches them (unless the extreme's probability is too small for an `f64`, or explodes).
#[test]
fn corpus_bounds_hold_for_exact_odds() {
    // Where the shared conformance corpus lies beside the repository (tests/data says).
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(include_str!("../../../tests/data/shared_corpus_path.txt").trim());
    let Ok(text) = std::fs::read_to_string(&path) else {
        let path = path.display();
        eprintln!("skipping: {path} not found");
        return;
    };
    let overrides = include_str!("../../../tests/data/corpus_overrides.tsv");
    let overridden: Vec<&str> = overrides
        .lines()
        .skip(1)
        .map(|l| l.split('\t').next().unwrap())
        .collect();
    let rows = text.lines().skip(1).chain(overrides.lines().skip(1));
    let mut failures = Vec::new();
    let mut checked = 0;
    for (i, line) in rows.enumerate() {
        let f: Vec<&str> = line.split('\t').collect();
        let from_corpus = i < text.lines().count() - 1;
        if f.len() < 4 || f[1] != "yes" || (from_corpus && overridden.contains(&f[0])) {
            continue;
        }
        let Ok(e) = parse(f[0]) else { continue };
        let t0 = std::time::Instant::now();
        let res = distribution(&e, &ExactOptions::default());
        if t0.elapsed().as_millis() > 200 {
            eprintln!("slow: {} {:?}", f[0], t0.elapsed());
        }
        let d = match res {
            Ok(d) => d,
            Err(err) => {
                if !matches!(
                    *err.kind,
                    DiceErrorKind::Unsupported { .. }
                        | DiceErrorKind::TooManyOutcomes { .. }
                        | DiceErrorKind::TooMuchWork { .. }
                ) {
                    failures.push(format!("{}: {err}", f[0]));
                }
                continue;
            }
        };
        checked += 1;
        let (min, max) = (bound(f[2]), bound(f[3]));
        let (lo, plo) = d.outcomes[0];
        let (hi, phi) = d.outcomes[d.outcomes.len() - 1];
        let inside = lo >= min - 0.006 && hi <= max + 0.006;
        let reach_lo = plo < 1e-200 || min == f64::NEG_INFINITY || (lo - min).abs() < 0.006;
        let reach_hi =
            phi < 1e-200 || (max == f64::INFINITY && d.cut_off > 0.0) || (hi - max).abs() < 0.006;
        let ok = inside && reach_lo && reach_hi;
        if !ok && !UNREACHED.contains(&f[0]) {
            failures.push(format!("{}: exact {lo}..{hi}, corpus {min}..{max}", f[0]));
        }
    }
    assert!(
        failures.is_empty(),
        "{} rows:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(checked > 150, "only {checked} rows checked");
}

// ---- exact against sampled -----------------------------------------------------------------

fn pool() -> impl Strategy<Value = String> {
    let count = 1u32..5;
    let die = prop::sample::select(vec![
        "d2", "d4", "d6", "d8", "d10", "d20", "dF", "dF.1", "d%",
    ]);
    let mods = prop::sample::select(vec![
        "", "", "kh1", "kl2", "dl1", "dh1", "kh1kl1", "kh2dl1", "k>3", "d<2", "!", "!!", "!p",
        "!!p", "!x2", "!>=5", "r1", "r<3", "ro1", "ro>4", ">=4", ">=4f1", ">3f<2", "min2", "max4",
        "min2max5", "!kh2", "!>=4kl1", "!!kh1", "r<2kh2", ">=5!", "!p>=5", "min3kh2", "sd",
        "cs>=5",
    ]);
    (count, die, mods).prop_map(|(n, d, m)| format!("{n}{d}{m}"))
}

fn expr() -> impl Strategy<Value = String> {
    let nested = (
        pool(),
        prop::sample::select(vec!["kl1", "kh1", "dl1", "kh2dl1", ">=4"]),
    )
        .prop_map(|(p, m)| format!("({p}){m}"));
    let leaf = prop_oneof![
        4 => pool(),
        1 => nested,
        1 => (1u32..10).prop_map(|n| n.to_string())
    ];
    leaf.prop_recursive(2, 6, 3, |inner| {
        prop_oneof![
            (
                inner.clone(),
                prop::sample::select(vec!["+", "-", "*", "/", "//", ">=", "=="]),
                inner.clone()
            )
                .prop_map(|(a, op, b)| format!("({a}) {op} ({b})")),
            (
                inner.clone(),
                inner.clone(),
                prop::sample::select(vec!["kh1", "kl1", "dl1", ">=5", ""])
            )
                .prop_map(|(a, b, m)| format!("{{{a}, {b}}}{m}")),
            (
                prop::sample::select(vec!["floor", "abs", "max", "min"]),
                inner.clone(),
                inner
            )
                .prop_map(|(f, a, b)| match f {
                    "max" | "min" => format!("{f}({a}, {b})"),
                    _ => format!("{f}({a})"),
                }),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn sampled_rolls_agree_with_exact_odds(text in expr(), seed in 0u64..1000) {
        let Ok(e) = parse(&text) else { return Ok(()) };
        // Deep enough that what is cut off cannot show in 2000 rolls.
        let opts = ExactOptions { explode_depth: 30, max_outcomes: 50_000, ..ExactOptions::default() };
        let t0 = std::time::Instant::now();
        let res = distribution(&e, &opts);
        if t0.elapsed().as_millis() > 100 { eprintln!("SLOW exact {text}: {:?}", t0.elapsed()); }
        let d = match res {
            Ok(d) => d,
            Err(err) => match *err.kind {
                DiceErrorKind::DivisionByZero | DiceErrorKind::Unsupported { .. }
                | DiceErrorKind::TooManyOutcomes { .. }
                | DiceErrorKind::TooMuchWork { .. } => return Ok(()),
                k => return Err(TestCaseError::fail(format!("{text}: {k:?}"))),
            },
        };
        if d.cut_off > 1e-7 {
            // Explodes too often (`d%!>=5`) to compare with a roller that goes 100 deep.
            return Ok(());
        }
        let mut dice = DiceBox::seeded(seed);
        let n = 2000;
        let mut sum = 0.0;
        for _ in 0..n {
            let r = roll(&e, &mut dice.source(None), &Caps::DEFAULT)
                .map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
            let t = r[0].total;
            let at = d.outcomes.partition_point(|o| o.0 < t - 1e-9);
            prop_assert!(
                at < d.outcomes.len() && (d.outcomes[at].0 - t).abs() <= 1e-9,
                "{}: rolled {} which the exact odds say is impossible", text, t
            );
            sum += t;
        }
        let se = d.stddev() / (n as f64).sqrt();
        // For rare outcomes one roll moves the mean further than the normal approximation
        // allows: give a few rolls' worth of slack.
        let range = d.outcomes[d.outcomes.len() - 1].0 - d.outcomes[0].0;
        let slack = 3.0 * range / n as f64;
        let diff = (sum / n as f64 - d.mean()).abs();
        prop_assert!(diff <= 5.0 * se + slack + 1e-9, "{}: sampled mean {} vs exact {} (se {})", text, sum / n as f64, d.mean(), se);
    }
}

#[test]
fn huge_keep_drop_is_refused_quickly_not_computed_for_minutes() {
    let t = std::time::Instant::now();
    let e = odds_with("999d100dl1", &ExactOptions::default()).unwrap_err();
    assert!(matches!(*e.kind, DiceErrorKind::TooMuchWork { .. }), "{e}");
    assert!(t.elapsed().as_secs() < 5);
    // Keeping a few of many dice stays cheap.
    close(
        odds("999d6kh3").probability(CmpOp::Eq, 18.0),
        1.0 - (5.0f64 / 6.0).powi(999)
            - 999.0 * (1.0 / 6.0) * (5.0f64 / 6.0).powi(998)
            - 999.0 * 998.0 / 2.0 * (1.0f64 / 36.0) * (5.0f64 / 6.0).powi(997),
    );
}

#[test]
fn explosions_followed_to_the_rollers_cap_are_exact() {
    let opts = ExactOptions {
        explode_depth: u32::MAX,
        ..ExactOptions::default()
    };
    let d = odds_with("1d6!", &opts).unwrap();
    assert_eq!((d.cut_off, d.explode_depth), (0.0, Some(100)));
    assert_eq!(d.outcomes.last().unwrap().0, 606.0);
}
