//! Rolling with fixed dice: every stage of a pool, groups, arithmetic, and the rendering.

use super::caps::Caps;
use super::parser::parse;
use super::render::{Plain, roll_line};
use super::roll::roll;
use super::source::FixedSource;

/// Rolls `expr` with the given dice and returns the plain one-line rendering.
fn line(expr: &str, dice: &[i64]) -> String {
    let e = parse(expr).unwrap_or_else(|e| panic!("{}", e.render(expr)));
    let mut src = FixedSource::new(dice.iter().copied());
    let rolls = roll(&e, &mut src, &Caps::DEFAULT).unwrap_or_else(|e| panic!("{}", e.render(expr)));
    rolls
        .iter()
        .map(|r| roll_line(r, &Plain))
        .collect::<Vec<_>>()
        .join("\n")
}

fn total(expr: &str, dice: &[i64]) -> f64 {
    let e = parse(expr).unwrap();
    roll(
        &e,
        &mut FixedSource::new(dice.iter().copied()),
        &Caps::DEFAULT,
    )
    .unwrap()[0]
        .total
}

macro_rules! rolls {
    ($name:ident, $expr:expr, $dice:expr, $line:expr) => {
        #[test]
        fn $name() {
            assert_eq!(line($expr, &$dice), $line);
        }
    };
}

rolls!(
    keep_highest_drops_lowest,
    "4d6kh3",
    [4, 4, 6, 3],
    "4d6kh3 (4, 4, 6, ~~3~~) = 14"
);
rolls!(
    drop_lowest,
    "4d6d1",
    [2, 5, 1, 6],
    "4d6dl1 (2, 5, ~~1~~, 6) = 13"
);
rolls!(
    keep_lowest,
    "2d20kl1+5",
    [12, 7],
    "2d20kl1 (~~12~~, 7) + 5 = 12"
);
rolls!(
    keep_highest_and_lowest,
    "(1, 2, 3, 4, 5)kh1kl1",
    [],
    "(1, ~~2~~, ~~3~~, ~~4~~, 5)kh1kl1 = 6"
);
rolls!(
    keep_and_drop_pick_from_all_dice,
    "3d6kh2dl1",
    [2, 5, 4],
    "3d6kh2dl1 (~~2~~, 5, 4) = 9"
);
rolls!(
    ties_split_between_highest_and_lowest,
    "5d8dh2kl3",
    [5, 5, 5, 5, 5],
    "5d8dh2kl3 (5, 5, 5, ~~5~~, ~~5~~) = 15"
);
rolls!(
    explode_adds_dice,
    "3d6!",
    [6, 6, 2, 3, 1],
    "3d6! (6!, 6!, 2, 3, 1) = 18"
);
rolls!(
    explode_on_compare,
    "2d10!>=9",
    [9, 3, 4],
    "2d10!>=9 (9!, 3, 4) = 16"
);
rolls!(
    explode_limit_stops,
    "1d6!x2",
    [6, 6, 6],
    "1d6!x2 (6!, 6!, 6) = 18"
);
rolls!(compound, "2d6!!", [6, 5, 2], "2d6!! (6+5=11!, 2) = 13");
rolls!(penetrate, "1d6!p", [6, 6, 3], "1d6!p (6!, 5!, 2) = 13");
rolls!(
    reroll_until,
    "2d6r<3",
    [1, 2, 5, 4],
    "2d6r<3 (~~1~~ ~~2~~ 5, 4) = 9"
);
rolls!(
    reroll_once_keeps_second,
    "2d6ro<3",
    [1, 2, 4],
    "2d6ro<3 (~~1~~ 2, 4) = 6"
);
rolls!(
    reroll_defaults_to_lowest_face,
    "1d10r",
    [1, 1, 7],
    "1d10r (~~1~~ ~~1~~ 7) = 7"
);
rolls!(
    reroll_and_add,
    "2d6ra1",
    [1, 4, 5],
    "2d6ra=1 (1, 4, 5) = 10"
);
rolls!(
    unique_rerolls_duplicates,
    "3d6u",
    [2, 2, 2, 5, 1],
    "3d6u (2, ~~2~~ 5, ~~2~~ 1) = 8"
);
rolls!(
    successes,
    "5d10>=8",
    [8, 3, 10, 7, 9],
    "5d10>=8 (8*, 3, 10*, 7, 9*) = 3"
);
rolls!(
    successes_minus_failures,
    "4d10>=8f<=1",
    [8, 1, 1, 5],
    "4d10>=8f<=1 (8*, 1_, 1_, 5) = -1"
);
rolls!(
    success_count_in_arithmetic,
    "4d6>5f<=2+2d6",
    [6, 1, 3, 6, 2, 2],
    "4d6>5f<=2 (6*, 1_, 3, 6*) + 2d6 (2, 2) = 5"
);
rolls!(
    crit_markers,
    "2d20cs>=20cf<=1",
    [20, 1],
    "2d20cs>=20cf<=1 (20**, 1__) = 21"
);
rolls!(
    clamps,
    "4d10min3max6",
    [1, 9, 4, 6],
    "4d10min3max6 (3, 6, 4, 6) = 19"
);
rolls!(sorted, "4d6sd", [2, 6, 1, 4], "4d6sd (6, 4, 2, 1) = 13");
rolls!(fudge, "4dF", [-1, 0, 1, 1], "4dF (-1, 0, 1, 1) = 1");
rolls!(
    group_keeps_best_item,
    "{2d6, 1d8+2}kh1",
    [3, 4, 6],
    "{~~2d6 (3, 4)~~, 1d8 (6) + 2}kh1 = 8"
);
rolls!(
    single_item_group_keeps_dice,
    "{4d6+2d8}kh2",
    [1, 2, 6, 3, 8, 4],
    "{4d6 (~~1~~, ~~2~~, 6, ~~3~~) + 2d8 (8, ~~4~~)}kh2 = 14"
);
rolls!(
    group_success_on_totals,
    "{4d6}>10",
    [3, 3, 3, 3],
    "{4d6 (3, 3, 3, 3)*}>10 = 1"
);
rolls!(
    arithmetic_precedence,
    "1d6+2*3",
    [4],
    "1d6 (4) + 2 * 3 = 10"
);
rolls!(minus_three_dice, "-3d6", [1, 2, 3], "-3d6 (1, 2, 3) = -6");
rolls!(exact_division, "1d20/2", [15], "1d20 (15) / 2 = 7.5");
rolls!(
    rounding_functions,
    "floor(1d20/2) + ceil(1d20/2) + round(5/2)",
    [15, 15],
    "floor(1d20 (15) / 2) + ceil(1d20 (15) / 2) + round(5 / 2) = 18"
);
rolls!(
    label_shown,
    "1d20+5 [attack]",
    [12],
    "1d20 (12) + 5 [attack] = 17"
);
rolls!(
    comment_shown,
    "2d6 # morale",
    [3, 4],
    "2d6 (3, 4) = 7  # morale"
);
rolls!(
    repeat_lists_each_roll,
    "3x 1d6",
    [1, 2, 3],
    "1d6 (1) = 1\n1d6 (2) = 2\n1d6 (3) = 3"
);
rolls!(
    computed_count,
    "(1d4)d6",
    [2, 5, 6],
    "(1d4 (2))d6 (5, 6) = 11"
);
rolls!(
    computed_size_and_keep_count,
    "6d(1d4+2)k(1d2)",
    [4, 1, 2, 3, 4, 5, 6, 2],
    "6d(1d4 (4) + 2)kh(1d2 (2)) (~~1~~, ~~2~~, ~~3~~, ~~4~~, 5, 6) = 11"
);
rolls!(
    computed_counts_inside_computed_counts,
    "((1d2)d3)d6",
    [2, 1, 3, 6, 5, 4, 3],
    "((1d2 (2))d3 (1, 3))d6 (6, 5, 4, 3) = 18"
);
rolls!(
    group_keep_count_computed,
    "{1d6, 1d8, 1d10}k(1d2)",
    [3, 7, 9, 2],
    "{~~1d6 (3)~~, 1d8 (7), 1d10 (9)}kh(1d2 (2)) = 16"
);
rolls!(
    group_modifiers_with_brackets_are_shown,
    "{1d6, 1d8}kh(1+0)",
    [3, 7],
    "{~~1d6 (3)~~, 1d8 (7)}kh(1 + 0) = 7"
);
rolls!(
    comparison_gives_one_or_zero,
    "1d6 >= 4",
    [5],
    "1d6 (5) >= 4 = 1"
);

#[test]
fn division_by_zero_while_rolling_is_an_error() {
    let e = parse("10 / (1d2 - 1)").unwrap();
    let err = roll(&e, &mut FixedSource::new([1]), &Caps::DEFAULT).unwrap_err();
    assert_eq!(err.to_string(), "division by zero");
}

#[test]
fn rerolls_past_the_cap_are_an_error() {
    let e = parse("1d6r<6").unwrap();
    let err = roll(
        &e,
        &mut FixedSource::new(std::iter::repeat_n(1, 2000)),
        &Caps::DEFAULT,
    )
    .unwrap_err();
    assert!(err.to_string().contains("(the reroll cap)"), "{err}");
}

#[test]
fn total_dice_are_capped() {
    let e = parse("999d6!>=2").unwrap();
    let err = roll(
        &e,
        &mut FixedSource::new(std::iter::repeat_n(6, 20_000)),
        &Caps::DEFAULT,
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the roll needs more than 10000 dice in all (explosions and rerolls included)"
    );
}

#[test]
fn computed_sides_that_always_explode_are_refused() {
    let e = parse("d(1d1)!").unwrap();
    let err = roll(&e, &mut FixedSource::new([1, 1]), &Caps::DEFAULT).unwrap_err();
    assert!(err.to_string().contains("explodes on every face"), "{err}");
}

#[test]
fn a_queued_impossible_value_is_refused() {
    let e = parse("1d6").unwrap();
    let err = roll(&e, &mut FixedSource::new([7]), &Caps::DEFAULT).unwrap_err();
    assert_eq!(err.to_string(), "7 is not a face of a d6");
}

#[test]
fn totals_of_the_largest_pools_are_exact() {
    let dice = vec![9_999_999_999; 999];
    assert_eq!(total("999d9999999999", &dice), 9_989_999_999_001.0);
}

#[test]
fn roll_serialises_every_die() {
    let e = parse("4d6kh3").unwrap();
    let r = &roll(&e, &mut FixedSource::new([4, 4, 6, 3]), &Caps::DEFAULT).unwrap()[0];
    let json = serde_json::to_value(r).unwrap();
    assert_eq!(json["total"], 14.0);
    assert_eq!(json["tree"]["kind"], "pool");
    assert_eq!(json["tree"]["dice"][3]["kept"], false);
    assert_eq!(json["sources"][0], "queue");
}

#[test]
fn a_die_rerolled_for_uniqueness_is_clamped_too() {
    assert_eq!(line("2d6min3u", &[3, 1, 5]), "2d6min3u (3, ~~3~~ 5) = 8");
    assert_eq!(line("2d6min3u", &[4, 2]), "2d6min3u (4, 3) = 7");
}

#[test]
fn worked_out_values_keep_small_numbers_and_literals_as_written() {
    use crate::dice::render::fmt_value;
    assert_eq!(fmt_value(10.0 / 3.0), "3.33");
    assert_eq!(fmt_value(0.005), "0.005");
    assert_eq!(fmt_value(1.0 / 3000.0), "0.000333");
    assert_eq!(fmt_value(-0.25), "-0.25");
    assert_eq!(fmt_value(-0.0), "0");
    assert_eq!(line("0.005*1000", &[]), "0.005 * 1000 = 5");
    assert_eq!(line("0.001", &[]), "0.001 = 0.001");
}

#[test]
fn a_negative_keep_count_says_so() {
    let e = parse("4d6kh(0-2)").unwrap();
    let err = roll(&e, &mut FixedSource::new([1, 2, 3, 4]), &Caps::DEFAULT).unwrap_err();
    assert_eq!(
        err.to_string(),
        "a keep/drop count cannot be below zero, found -2"
    );
    assert!(err.help().unwrap().contains("kh(1d4)"));
}
