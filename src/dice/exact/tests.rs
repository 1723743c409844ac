//! Known distributions, semantics checks against brute-force enumeration, and errors.
//! Expressions are built by hand until the parser lands.

use super::*;
use crate::dice::ast::{
    BinaryOp, Brackets, CmpOp, Compare, Count, Dice, DiceExpr, ExplodeKind, Expr, FudgeKind, Func,
    Group, KeepDrop, Modifier, Modifiers, RerollKind, Selector, Sides, UnaryOp,
};
use crate::dice::error::DiceErrorKind;
use std::sync::Arc;

// ---- building expressions ------------------------------------------------------------------

fn dice(count: u64, sides: u64, mods: Vec<Modifier>) -> Expr {
    Expr::Dice(Arc::new(Dice {
        count: Some(Count::Number(count)),
        sides: Sides::Number(sides),
        mods: mods.into(),
    }))
}

fn fudge(count: u64, kind: FudgeKind) -> Expr {
    Expr::Dice(Arc::new(Dice {
        count: Some(Count::Number(count)),
        sides: Sides::Fudge(kind),
        mods: Modifiers::new(),
    }))
}

fn num(x: f64) -> Expr {
    Expr::Num(x)
}

fn bin(op: BinaryOp, a: Expr, b: Expr) -> Expr {
    Expr::Binary(op, Box::new([a, b]))
}

fn cmp(op: CmpOp, v: f64) -> Compare {
    Compare::new(op, v)
}

fn kh(n: u64) -> Modifier {
    Modifier::KeepDrop(KeepDrop::Keep, Selector::Highest(Count::Number(n)))
}
fn kl(n: u64) -> Modifier {
    Modifier::KeepDrop(KeepDrop::Keep, Selector::Lowest(Count::Number(n)))
}
fn dh(n: u64) -> Modifier {
    Modifier::KeepDrop(KeepDrop::Drop, Selector::Highest(Count::Number(n)))
}
fn dl(n: u64) -> Modifier {
    Modifier::KeepDrop(KeepDrop::Drop, Selector::Lowest(Count::Number(n)))
}
fn explode(kind: ExplodeKind, on: Option<Compare>, limit: Option<u32>) -> Modifier {
    Modifier::Explode { kind, on, limit }
}
fn target(success: Compare, failure: Option<Compare>) -> Modifier {
    Modifier::Target { success, failure }
}
fn set(items: Vec<Expr>, mods: Vec<Modifier>) -> Expr {
    Expr::Group(Arc::new(Group {
        brackets: Brackets::Parens,
        items,
        mods: mods.into(),
    }))
}
fn braces(items: Vec<Expr>, mods: Vec<Modifier>) -> Expr {
    Expr::Group(Arc::new(Group {
        brackets: Brackets::Braces,
        items,
        mods: mods.into(),
    }))
}

fn with(e: Expr, opts: &ExactOptions) -> Result<Distribution, crate::dice::DiceError> {
    distribution(
        &DiceExpr {
            repeat: None,
            expr: e,
            comment: None,
        },
        opts,
    )
}

fn dist(e: Expr) -> Distribution {
    let d = with(e, &ExactOptions::default()).expect("supported");
    assert_mass(&d);
    d
}

fn err(e: Expr) -> DiceErrorKind {
    with(e, &ExactOptions::default())
        .expect_err("an error")
        .kind
        .as_ref()
        .clone()
}

fn p(d: &Distribution, v: f64) -> f64 {
    d.probability(CmpOp::Eq, v)
}

fn close(a: f64, b: f64) {
    assert!((a - b).abs() < 1e-9, "{a} != {b}");
}

fn assert_mass(d: &Distribution) {
    let total: f64 = d.outcomes.iter().map(|o| o.1).sum();
    close(total + d.cut_off, 1.0);
    assert!(
        d.outcomes.windows(2).all(|w| w[0].0 < w[1].0),
        "sorted, distinct"
    );
    assert!(
        d.outcomes.iter().all(|o| o.1 > 0.0),
        "no zero-probability outcomes"
    );
}

fn support(d: &Distribution) -> Vec<f64> {
    d.outcomes.iter().map(|o| o.0).collect()
}

// ---- brute force: every ordered roll of a small pool ---------------------------------------

/// Every ordered roll of `n` dice with `faces`, and its probability.
fn rolls(n: usize, faces: &[(f64, f64)]) -> Vec<(Vec<f64>, f64)> {
    let mut out = vec![(Vec::new(), 1.0)];
    for _ in 0..n {
        out = out
            .into_iter()
            .flat_map(|(v, p)| {
                faces.iter().map(move |&(f, q)| {
                    let mut w = v.clone();
                    w.push(f);
                    (w, p * q)
                })
            })
            .collect();
    }
    out
}

/// Set semantics, written independently of the engine: a stable sort gives each die a rank.
fn kept_total(roll: &[f64], mods: &[Modifier]) -> f64 {
    let n = roll.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| roll[a].total_cmp(&roll[b]));
    let mut rank = vec![0; n];
    for (r, &i) in order.iter().enumerate() {
        rank[i] = r;
    }
    let picks = |sel: &Selector, i: usize| match sel {
        Selector::Highest(Count::Number(k)) => rank[i] + *k as usize >= n,
        Selector::Lowest(Count::Number(k)) => rank[i] < *k as usize,
        Selector::Matching(c) => c.matches(roll[i]),
        _ => unreachable!(),
    };
    let keeps: Vec<&Selector> = mods
        .iter()
        .filter_map(|m| match m {
            Modifier::KeepDrop(KeepDrop::Keep, s) => Some(s),
            _ => None,
        })
        .collect();
    let drops: Vec<&Selector> = mods
        .iter()
        .filter_map(|m| match m {
            Modifier::KeepDrop(KeepDrop::Drop, s) => Some(s),
            _ => None,
        })
        .collect();
    (0..n)
        .filter(|&i| keeps.is_empty() || keeps.iter().any(|s| picks(s, i)))
        .filter(|&i| !drops.iter().any(|s| picks(s, i)))
        .map(|i| roll[i])
        .sum()
}

fn brute(n: usize, faces: &[(f64, f64)], mods: &[Modifier]) -> Vec<(f64, f64)> {
    let mut acc: Vec<(f64, f64)> = Vec::new();
    for (r, p) in rolls(n, faces) {
        let t = kept_total(&r, mods);
        match acc.iter_mut().find(|o| o.0 == t) {
            Some(o) => o.1 += p,
            None => acc.push((t, p)),
        }
    }
    acc.sort_by(|a, b| a.0.total_cmp(&b.0));
    acc
}

fn same(a: &[(f64, f64)], b: &[(f64, f64)]) {
    assert_eq!(a.len(), b.len(), "{a:?} vs {b:?}");
    for (x, y) in a.iter().zip(b) {
        assert_eq!(x.0, y.0);
        close(x.1, y.1);
    }
}

fn d6() -> Vec<(f64, f64)> {
    (1..=6).map(|f| (f as f64, 1.0 / 6.0)).collect()
}

// ---- known distributions -------------------------------------------------------------------

#[test]
fn two_d6_rolls_seven_one_time_in_six() {
    let d = dist(dice(2, 6, vec![]));
    close(p(&d, 7.0), 6.0 / 36.0);
    assert_eq!(support(&d), (2..=12).map(f64::from).collect::<Vec<_>>());
    assert_eq!(d.cut_off, 0.0);
    assert_eq!(d.explode_depth, None);
}

#[test]
fn three_d6_mean_is_ten_and_a_half() {
    let d = dist(dice(3, 6, vec![]));
    close(d.mean(), 10.5);
    close(d.stddev(), (3.0 * 35.0 / 12.0f64).sqrt());
}

#[test]
fn four_d6_keep_highest_three_mean() {
    let d = dist(dice(4, 6, vec![kh(3)]));
    assert!((d.mean() - 12.2446).abs() < 1e-4, "{}", d.mean());
    close(d.mean(), 15869.0 / 1296.0);
}

#[test]
fn d20_ten_or_more_is_55_percent_and_eleven_or_more_half() {
    // The brief said "1d20 >= 11 = 0.55"; that is the odds of 10 or more.
    let d = dist(dice(1, 20, vec![]));
    close(d.probability(CmpOp::Ge, 10.0), 0.55);
    close(d.probability(CmpOp::Ge, 11.0), 0.5);
}

#[test]
fn twenty_d10_successes_on_eight_average_six() {
    let d = dist(dice(20, 10, vec![target(cmp(CmpOp::Ge, 8.0), None)]));
    close(d.mean(), 6.0);
    close(p(&d, 20.0), 0.3f64.powi(20));
}

#[test]
fn failures_subtract_from_successes() {
    let d = dist(dice(
        3,
        10,
        vec![target(cmp(CmpOp::Ge, 8.0), Some(cmp(CmpOp::Eq, 1.0)))],
    ));
    close(d.mean(), 3.0 * (0.3 - 0.1));
    close(p(&d, -3.0), 0.001);
}

#[test]
fn fudge_dice_have_their_odds() {
    let one = dist(fudge(1, FudgeKind::One));
    close(p(&one, 0.0), 4.0 / 6.0);
    close(p(&one, 1.0), 1.0 / 6.0);
    let four = dist(fudge(4, FudgeKind::Two));
    close(p(&four, 0.0), 19.0 / 81.0);
    close(p(&four, 4.0), 1.0 / 81.0);
}

#[test]
fn percentile_die_is_one_to_a_hundred() {
    let d = dist(Expr::Dice(Arc::new(Dice {
        count: None,
        sides: Sides::Percent,
        mods: Modifiers::new(),
    })));
    assert_eq!(support(&d), (1..=100).map(f64::from).collect::<Vec<_>>());
}

#[test]
fn reroll_until_gives_the_remaining_faces_evenly() {
    let d = dist(dice(
        1,
        6,
        vec![Modifier::Reroll {
            kind: RerollKind::Until,
            on: Some(cmp(CmpOp::Lt, 3.0)),
        }],
    ));
    assert_eq!(support(&d), vec![3.0, 4.0, 5.0, 6.0]);
    for v in 3..=6 {
        close(p(&d, v as f64), 0.25);
    }
}

#[test]
fn reroll_once_keeps_the_second_roll() {
    let d = dist(dice(
        1,
        6,
        vec![Modifier::Reroll {
            kind: RerollKind::Once,
            on: None,
        }],
    ));
    close(p(&d, 1.0), 1.0 / 36.0);
    close(p(&d, 4.0), 7.0 / 36.0);
}

#[test]
fn written_explode_limit_is_exact() {
    let d = dist(dice(
        3,
        6,
        vec![explode(ExplodeKind::Standard, None, Some(1))],
    ));
    assert_eq!(d.cut_off, 0.0);
    assert_eq!(d.explode_depth, Some(1));
    // One die: 1..5, or 6 plus one more roll (which does not explode again).
    close(d.mean(), 3.0 * (15.0 / 6.0 + (6.0 + 3.5) / 6.0));
    assert_eq!(d.outcomes.last().unwrap().0, 36.0);
}

#[test]
fn explode_cut_off_is_reported() {
    for depth in 0..=6 {
        let opts = ExactOptions {
            explode_depth: depth,
            ..ExactOptions::default()
        };
        let d = with(
            dice(1, 6, vec![explode(ExplodeKind::Standard, None, None)]),
            &opts,
        )
        .unwrap();
        assert_mass(&d);
        close(d.cut_off, (1.0f64 / 6.0).powi(depth as i32 + 1));
        assert_eq!(d.explode_depth, Some(depth));
        // The largest total kept: `depth` sixes and a five.
        assert_eq!(d.outcomes.last().unwrap().0, 6.0 * depth as f64 + 5.0);
    }
}

#[test]
fn compound_explosion_of_one_die_matches_standard() {
    let a = dist(dice(1, 6, vec![explode(ExplodeKind::Standard, None, None)]));
    let b = dist(dice(1, 6, vec![explode(ExplodeKind::Compound, None, None)]));
    same(&a.outcomes, &b.outcomes);
    close(a.cut_off, b.cut_off);
}

#[test]
fn penetrating_extra_rolls_count_one_less() {
    let d = dist(dice(
        1,
        6,
        vec![explode(ExplodeKind::Penetrate, None, None)],
    ));
    close(p(&d, 5.0), 1.0 / 6.0);
    close(p(&d, 6.0), 1.0 / 36.0); // 6 then a 1 counting 0
    close(p(&d, 10.0), 1.0 / 36.0); // 6 then 5 (counts 4)
    close(p(&d, 11.0), 1.0 / 216.0); // 6, 6 (counts 5), 1 (counts 0)
}

#[test]
fn compound_penetrating_fudge_never_ends_on_plus_one() {
    let d = dist(Expr::Dice(Arc::new(Dice {
        count: Some(Count::Number(1)),
        sides: Sides::Fudge(FudgeKind::Two),
        mods: smallvec::smallvec![explode(ExplodeKind::CompoundPenetrate, None, None)],
    })));
    assert_eq!(support(&d), vec![-1.0, 0.0]);
    close(d.cut_off, (1.0f64 / 3.0).powi(6));
}

#[test]
fn explosions_add_successes_from_extra_dice() {
    // One d10 exploding on 10, success on 8+: 8,9 -> 1; 10 -> 1 + next die's successes.
    let opts = ExactOptions {
        explode_depth: 1,
        ..ExactOptions::default()
    };
    let d = with(
        dice(
            1,
            10,
            vec![
                target(cmp(CmpOp::Ge, 8.0), None),
                explode(ExplodeKind::Standard, None, None),
            ],
        ),
        &opts,
    )
    .unwrap();
    assert_mass(&d);
    close(p(&d, 0.0), 0.7);
    close(p(&d, 1.0), 0.2 + 0.1 * 0.7);
    close(p(&d, 2.0), 0.1 * 0.2);
    close(d.cut_off, 0.01);
}

#[test]
fn clamps_apply_to_each_die() {
    let d = dist(dice(2, 6, vec![Modifier::Min(3)]));
    assert_eq!(support(&d)[0], 6.0);
    close(p(&d, 6.0), 0.25);
    let m = dist(dice(1, 6, vec![Modifier::Max(4)]));
    close(p(&m, 4.0), 0.5);
}

#[test]
fn comparisons_give_one_or_zero() {
    let d = dist(bin(BinaryOp::Cmp(CmpOp::Eq), dice(2, 6, vec![]), num(7.0)));
    assert_eq!(support(&d), vec![0.0, 1.0]);
    close(p(&d, 1.0), 1.0 / 6.0);
}

#[test]
fn division_floor_division_and_remainder() {
    let half = dist(bin(BinaryOp::Div, dice(1, 6, vec![]), num(2.0)));
    assert_eq!(support(&half), vec![0.5, 1.0, 1.5, 2.0, 2.5, 3.0]);
    let v = |e| dist(e).outcomes[0].0;
    assert_eq!(v(bin(BinaryOp::FloorDiv, num(-7.0), num(2.0))), -4.0);
    assert_eq!(v(bin(BinaryOp::Rem, num(-7.0), num(3.0))), 2.0);
    assert_eq!(v(bin(BinaryOp::Rem, num(7.0), num(-3.0))), -2.0);
    assert_eq!(v(Expr::Call(Func::Round, vec![num(2.5)])), 3.0);
    assert_eq!(v(Expr::Call(Func::Round, vec![num(-2.5)])), -2.0);
    assert_eq!(v(Expr::Call(Func::Sign, vec![num(0.0)])), 0.0);
    assert_eq!(v(bin(BinaryOp::Pow, num(2.0), num(10.0))), 1024.0);
    assert_eq!(v(Expr::Unary(UnaryOp::Neg, Box::new(num(3.0)))), -3.0);
}

#[test]
fn a_divisor_that_can_be_zero_is_an_error() {
    let zero_or_one = bin(BinaryOp::Sub, dice(1, 2, vec![]), num(1.0));
    assert_eq!(
        err(bin(BinaryOp::Div, dice(1, 6, vec![]), zero_or_one.clone())),
        DiceErrorKind::DivisionByZero
    );
    assert_eq!(
        err(bin(BinaryOp::Rem, num(5.0), zero_or_one)),
        DiceErrorKind::DivisionByZero
    );
}

#[test]
fn values_past_two_to_the_53_are_out_of_range() {
    assert!(matches!(
        err(bin(BinaryOp::Pow, num(10.0), num(20.0))),
        DiceErrorKind::OutOfRange { .. }
    ));
    let neg = bin(BinaryOp::Sub, dice(1, 6, vec![]), num(4.0));
    assert!(matches!(
        err(Expr::Call(Func::Sqrt, vec![neg])),
        DiceErrorKind::OutOfRange { .. }
    ));
}

#[test]
fn min_and_max_functions_take_the_product() {
    let d = dist(Expr::Call(
        Func::Max,
        vec![dice(1, 6, vec![]), dice(1, 6, vec![])],
    ));
    close(p(&d, 6.0), 11.0 / 36.0);
}

// ---- keep/drop: set semantics --------------------------------------------------------------

#[test]
fn keep_highest_and_lowest_of_a_set_is_their_union() {
    let items = (1..=5).map(|x| num(x as f64)).collect();
    let d = dist(set(items, vec![kh(1), kl(1)]));
    assert_eq!(d.outcomes, vec![(6.0, 1.0)]);
}

#[test]
fn keep_and_drop_sets_are_picked_from_all_dice() {
    let cases: Vec<Vec<Modifier>> = vec![
        vec![kh(3)],
        vec![kl(1)],
        vec![dl(1)],
        vec![dh(1)],
        vec![kh(2), dl(1)],
        vec![kh(3), dh(1)],
        vec![kh(1), kl(1)],
        vec![dh(1), dl(1)],
        vec![Modifier::KeepDrop(
            KeepDrop::Keep,
            Selector::Matching(cmp(CmpOp::Gt, 3.0)),
        )],
        vec![
            Modifier::KeepDrop(KeepDrop::Drop, Selector::Matching(cmp(CmpOp::Eq, 6.0))),
            kh(2),
        ],
        vec![kh(9)],
        vec![dl(9)],
    ];
    for mods in cases {
        for n in [1, 3, 4] {
            let d = dist(dice(n as u64, 6, mods.clone()));
            same(&d.outcomes, &brute(n, &d6(), &mods));
        }
    }
}

#[test]
fn keep_drop_on_clamped_and_rerolled_dice_uses_final_values() {
    let mods = vec![
        Modifier::Min(2),
        Modifier::Reroll {
            kind: RerollKind::Once,
            on: None,
        },
        kh(2),
    ];
    let d = dist(dice(3, 6, mods.clone()));
    let mut face: Vec<(f64, f64)> = vec![(2.0, 1.0 / 6.0 + 1.0 / 36.0)];
    face.extend((3..=6).map(|f| (f as f64, 7.0 / 36.0)));
    let face = vec![(2.0, 1.0 / 36.0 + 7.0 / 36.0)]
        .into_iter()
        .chain(face.into_iter().skip(1))
        .collect::<Vec<_>>();
    same(&d.outcomes, &brute(3, &face, &[kh(2)]));
}

#[test]
fn keep_highest_of_exploding_dice_sees_the_extra_dice() {
    // 2d4!x1kh2: each die is 1..3, or 4 plus an extra die; keep the best two of all.
    let d = dist(dice(
        2,
        4,
        vec![explode(ExplodeKind::Standard, None, Some(1)), kh(2)],
    ));
    assert_eq!(d.outcomes.last().unwrap().0, 8.0);
    // Eight needs two 4s: both dice (1/16), or one die and its extra die (3/8 * 1/4).
    close(p(&d, 8.0), 1.0 / 16.0 + 3.0 / 32.0);
    close(p(&d, 2.0), 1.0 / 16.0);
}

#[test]
fn one_item_brace_group_keeps_dice_of_its_pool() {
    let a = dist(braces(vec![dice(4, 6, vec![])], vec![kh(3)]));
    let b = dist(dice(4, 6, vec![kh(3)]));
    same(&a.outcomes, &b.outcomes);
}

#[test]
fn group_keeps_items_by_total() {
    // (1d4, 2+2, 3d6kl1)kh1: at least 4.
    let d = dist(set(
        vec![
            dice(1, 4, vec![]),
            bin(BinaryOp::Add, num(2.0), num(2.0)),
            dice(3, 6, vec![kl(1)]),
        ],
        vec![kh(1)],
    ));
    assert_eq!(support(&d), vec![4.0, 5.0, 6.0]);
    let one = dist(dice(3, 6, vec![kl(1)]));
    close(p(&d, 6.0), p(&one, 6.0));
    // {4d10*2, 5d6+10}dh1 is the smaller of the two.
    let a = bin(BinaryOp::Mul, dice(4, 10, vec![]), num(2.0));
    let b = bin(BinaryOp::Add, dice(5, 6, vec![]), num(10.0));
    let g = dist(braces(vec![a.clone(), b.clone()], vec![dh(1)]));
    let m = dist(Expr::Call(Func::Min, vec![a, b]));
    same(&g.outcomes, &m.outcomes);
}

#[test]
fn group_success_counting_counts_items() {
    let items = vec![dice(1, 6, vec![]), dice(1, 6, vec![]), dice(1, 6, vec![])];
    let d = dist(set(items, vec![target(cmp(CmpOp::Ge, 4.0), None)]));
    for k in 0..=3 {
        let c = [1.0, 3.0, 3.0, 1.0][k];
        close(p(&d, k as f64), c / 8.0);
    }
}

// ---- counts and sides ----------------------------------------------------------------------

#[test]
fn a_rolled_count_of_zero_is_an_empty_pool() {
    let count = Count::Expr(Box::new(bin(BinaryOp::Sub, dice(1, 2, vec![]), num(1.0))));
    let d = dist(Expr::Dice(Arc::new(Dice {
        count: Some(count),
        sides: Sides::Number(6),
        mods: Modifiers::new(),
    })));
    close(p(&d, 0.0), 0.5);
    close(p(&d, 3.0), 1.0 / 12.0);
}

#[test]
fn rolled_sides_mix_the_dice() {
    let sides = Sides::Expr(Box::new(bin(BinaryOp::Add, dice(1, 2, vec![]), num(3.5))));
    let d = dist(Expr::Dice(Arc::new(Dice {
        count: None,
        sides,
        mods: Modifiers::new(),
    })));
    close(p(&d, 1.0), 0.5 / 4.0 + 0.5 / 5.0);
    close(p(&d, 5.0), 0.5 / 5.0);
}

#[test]
fn a_negative_count_is_an_error() {
    let count = Count::Expr(Box::new(num(-1.0)));
    let e = Expr::Dice(Arc::new(Dice {
        count: Some(count),
        sides: Sides::Number(6),
        mods: Modifiers::new(),
    }));
    assert!(matches!(err(e), DiceErrorKind::NoDice { .. }));
}

#[test]
fn rolled_keep_counts_mix_the_selections() {
    let c = Count::Expr(Box::new(dice(1, 2, vec![])));
    let d = dist(dice(
        2,
        6,
        vec![Modifier::KeepDrop(KeepDrop::Keep, Selector::Highest(c))],
    ));
    let one = dist(dice(2, 6, vec![kh(1)]));
    let two = dist(dice(2, 6, vec![]));
    close(d.mean(), (one.mean() + two.mean()) / 2.0);
}

// ---- what is not supported, and caps -------------------------------------------------------

#[test]
fn unsupported_combinations_say_so() {
    let e = err(dice(
        5,
        10,
        vec![
            Modifier::Unique {
                once: false,
                on: None,
            },
            explode(ExplodeKind::Standard, None, None),
        ],
    ));
    assert!(
        matches!(&e, DiceErrorKind::Unsupported { what } if what.contains("unique")),
        "{e:?}"
    );
    let e = err(dice(
        2,
        6,
        vec![
            Modifier::Reroll {
                kind: RerollKind::Add,
                on: None,
            },
            kh(1),
        ],
    ));
    assert!(
        matches!(&e, DiceErrorKind::Unsupported { what } if what.contains("ra")),
        "{e:?}"
    );
}

#[test]
fn growing_past_the_cap_is_an_error_naming_it() {
    let opts = ExactOptions {
        max_outcomes: 100,
        ..ExactOptions::default()
    };
    let e = with(dice(100, 10, vec![]), &opts).unwrap_err();
    assert!(
        matches!(*e.kind, DiceErrorKind::TooManyOutcomes { cap: 100, .. }),
        "{e:?}"
    );
    assert!(e.to_string().contains("100"));
}

#[test]
fn probabilities_sum_to_one_minus_the_cut_off() {
    let exprs = vec![
        dice(10, 6, vec![]),
        dice(4, 6, vec![kh(3)]),
        dice(3, 6, vec![explode(ExplodeKind::Standard, None, None)]),
        dice(
            10,
            10,
            vec![explode(
                ExplodeKind::Compound,
                Some(cmp(CmpOp::Ge, 9.0)),
                None,
            )],
        ),
        dice(
            6,
            10,
            vec![
                target(cmp(CmpOp::Ge, 8.0), None),
                explode(ExplodeKind::Standard, Some(cmp(CmpOp::Ge, 9.0)), None),
            ],
        ),
        dice(
            3,
            6,
            vec![explode(ExplodeKind::Penetrate, None, None), kh(2)],
        ),
        dice(100, 10, vec![]),
        bin(BinaryOp::Div, dice(4, 6, vec![]), dice(1, 4, vec![])),
    ];
    for e in exprs {
        dist(e);
    }
}

#[test]
fn keep_drop_over_exploding_chains_matches_brute_force() {
    use super::die::{DieRule, Explode};
    use crate::dice::source::Faces;
    let cases: Vec<Vec<Modifier>> = vec![
        vec![kh(2)],
        vec![kl(1)],
        vec![dl(1)],
        vec![dh(2), dl(1)],
        vec![kh(1), kl(1)],
        vec![Modifier::KeepDrop(
            KeepDrop::Keep,
            Selector::Matching(cmp(CmpOp::Ge, 3.0)),
        )],
        vec![
            Modifier::KeepDrop(KeepDrop::Drop, Selector::Matching(cmp(CmpOp::Eq, 4.0))),
            kl(2),
        ],
        vec![kh(9)],
    ];
    let rule = DieRule {
        faces: Faces::Numbered { sides: 4 },
        reroll: None,
        explode: Some(Explode {
            kind: ExplodeKind::Penetrate,
            on: Some(cmp(CmpOp::Ge, 3.0)),
            limit: Some(2),
        }),
        lo: None,
        hi: Some(3),
    };
    let (chains, lost) = rule.chains(5, 1_000_000).unwrap();
    assert_eq!(lost, 0.0);
    for mods in cases {
        let mut expect: Vec<(f64, f64)> = Vec::new();
        for (a, pa) in &chains {
            for (b, pb) in &chains {
                for (c, pc) in &chains {
                    let pool: Vec<f64> = a.iter().chain(b).chain(c).copied().collect();
                    let t = kept_total(&pool, &mods);
                    match expect.iter_mut().find(|o| o.0 == t) {
                        Some(o) => o.1 += pa * pb * pc,
                        None => expect.push((t, pa * pb * pc)),
                    }
                }
            }
        }
        expect.sort_by(|x, y| x.0.total_cmp(&y.0));
        let mut all = vec![
            explode(ExplodeKind::Penetrate, Some(cmp(CmpOp::Ge, 3.0)), Some(2)),
            Modifier::Max(3),
        ];
        all.extend(mods.clone());
        let d = dist(dice(3, 4, all));
        same(&d.outcomes, &expect);
    }
}
