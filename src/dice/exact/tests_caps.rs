//! Tests of the exact engine's limits and honesty: the work cap refuses what would hang,
//! impossible events are exactly 0 (never -0), and the cut-off explosion tail is counted in,
//! left out or turned into a range according to where it lies.

use super::{CutOffSide, Distribution, ExactOptions, distribution};
use crate::dice::ast::CmpOp;
use crate::dice::error::{DiceError, DiceErrorKind};
use crate::dice::parse;

fn odds_with(expr: &str, opts: &ExactOptions) -> Result<Distribution, DiceError> {
    distribution(&parse(expr).expect("valid notation"), opts)
}

fn odds(expr: &str) -> Distribution {
    odds_with(expr, &ExactOptions::default()).expect("supported")
}

fn is_work_cap(e: &DiceError, cap: u64) -> bool {
    matches!(&*e.kind, DiceErrorKind::TooMuchWork { cap: c, .. } if *c == cap)
}

#[test]
fn requests_that_used_to_hang_are_refused_by_the_work_cap() {
    // A small cap, so that the test is quick unoptimised; the shape of the refusal is the
    // same at the default cap.
    let opts = ExactOptions {
        max_work: 2_000_000,
        ..ExactOptions::default()
    };
    for text in [
        "999dF.1uo<=5>=10cf=100",
        "40d6uo",
        "999dF.1uo",
        "30d6uo",
        "20d6!x100dl2",
        "20d6!x100dl(1d4)",
        "8d6!x100dl1",
        "(1d100)d(1d100)",
        "1d1000!>500x100",
    ] {
        let t = std::time::Instant::now();
        let e = odds_with(text, &opts).expect_err(text);
        assert!(is_work_cap(&e, 2_000_000), "{text}: {e}");
        assert!(t.elapsed().as_secs() < 5, "{text}: {:?}", t.elapsed());
        let message = e.to_string();
        assert!(message.contains("2,000,000 steps"), "{message}");
        assert!(message.contains("the cap on exact-odds work"), "{message}");
        assert!(e.help().unwrap().contains("roll 100x"), "{text}");
    }
}

#[test]
fn the_default_cap_is_the_named_limit() {
    assert_eq!(
        ExactOptions::default().max_work,
        crate::dice::Caps::DEFAULT.max_exact_work
    );
    let e = odds_with("40d6uo", &ExactOptions::default()).unwrap_err();
    assert!(
        is_work_cap(&e, crate::dice::Caps::DEFAULT.max_exact_work),
        "{e}"
    );
}

#[test]
fn ordinary_pools_stay_within_the_cap() {
    let opts = ExactOptions::default();
    for text in [
        "10d6",
        "4d6kh3",
        "20d10>=8",
        "3d6!",
        "100d10",
        "10d10!",
        "100d6kh50",
        "100d20dl2",
        "20d6!x3dl1",
        "{10d6!x3dl1, 10d6!x3dl1}",
        "{4d6kh3, 4d6kh3, 4d6kh3}kh1",
        "10d6uo",
        "30d6!dl2",
        "20d10!x5kh3dl2",
    ] {
        odds_with(text, &opts).unwrap_or_else(|e| panic!("{text}: {e}"));
    }
}

#[test]
fn impossible_events_are_zero_not_negative_zero() {
    for (text, op, x) in [
        ("2d6", CmpOp::Gt, 12.0),
        ("3d6", CmpOp::Gt, 18.0),
        ("2d6", CmpOp::Lt, 2.0),
    ] {
        let d = odds(text);
        let p = d.probability(op, x);
        assert!(p == 0.0 && p.is_sign_positive(), "{text}: {p}");
        let a = d.answer(op, x);
        assert!(a.low.is_sign_positive() && a.high.is_sign_positive());
        assert_eq!(a.cut_off, CutOffSide::Nothing);
    }
}

#[test]
fn a_tail_wholly_above_the_threshold_is_counted_in() {
    let d = odds("1d6!");
    assert_eq!(d.cut_off_range, Some((37.0, 606.0)));
    let a = d.answer(CmpOp::Ge, 7.0);
    assert_eq!(a.cut_off, CutOffSide::In);
    assert!((a.low - 1.0 / 6.0).abs() < 1e-15, "{}", a.low);
    assert_eq!(a.low, a.high);
    // Compounding: the same tail, through the clamp and score.
    let a = odds("1d6!!").answer(CmpOp::Ge, 7.0);
    assert_eq!(a.cut_off, CutOffSide::In);
    assert!((a.low - 1.0 / 6.0).abs() < 1e-15);
}

#[test]
fn a_tail_wholly_below_is_left_out() {
    let d = odds("1d6!");
    let a = d.answer(CmpOp::Lt, 7.0);
    assert_eq!(a.cut_off, CutOffSide::Out);
    assert!((a.low - 5.0 / 6.0).abs() < 1e-15);
    assert_eq!(d.answer(CmpOp::Eq, 3.0).cut_off, CutOffSide::Out);
}

#[test]
fn a_tail_on_both_sides_gives_a_range() {
    let d = odds("1d6!");
    let a = d.answer(CmpOp::Ge, 40.0);
    assert_eq!(a.cut_off, CutOffSide::Split);
    assert!((a.high - a.low - d.cut_off).abs() < 1e-18);
    // An unknown tail (a remainder) is a range however the question is put.
    let d = odds("3d6! % 7");
    assert_eq!(d.answer(CmpOp::Ge, 0.0).cut_off, CutOffSide::Split);
}

#[test]
fn the_tail_follows_sums_products_groups_and_rounding() {
    // Three dice, one at least 37, the others at least 1.
    assert_eq!(odds("3d6!").cut_off_range.unwrap().0, 39.0);
    assert_eq!(odds("1d6! * 2").cut_off_range, Some((74.0, 1212.0)));
    assert_eq!(odds("1d6! - 10").cut_off_range, Some((27.0, 596.0)));
    // Division is not followed: anywhere.
    assert_eq!(
        odds("floor(1d6! / 1)").cut_off_range,
        Some((f64::NEG_INFINITY, f64::INFINITY))
    );
    assert_eq!(odds("{1d6!, 1d4}").cut_off_range, Some((38.0, 610.0)));
    assert_eq!(odds("floor(1d6! * 2)").cut_off_range, Some((74.0, 1212.0)));
    assert_eq!(odds("max(1d6!, 3)").cut_off_range, Some((37.0, 606.0)));
    // Success counting: a cut chain has six sixes, all successes, then 0 to 95 more.
    let d = odds("1d6>=5!");
    assert_eq!(d.cut_off_range, Some((6.0, 101.0)));
    assert_eq!(d.answer(CmpOp::Ge, 6.0).cut_off, CutOffSide::In);
}
