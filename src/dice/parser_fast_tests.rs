//! The parser's fast path against the nom rules: wherever the fast path accepts a text, it
//! must give exactly the tree the nom rules give, and `parse` must give exactly what the nom
//! rules alone give (the same tree, or the same error) for every text.

use proptest::prelude::*;

use super::caps::Caps;
use super::parser::{fast_request, parse_with, parse_with_nom};

/// Checks one text; returns whether the fast path took it.
fn same(text: &str) -> bool {
    let l = Caps::DEFAULT;
    let nom = parse_with_nom(text, &l);
    assert_eq!(
        parse_with(text, &l),
        nom,
        "parse differs from nom on {text:?}"
    );
    match fast_request(text, &l) {
        Some(fast) => {
            assert_eq!(
                Ok(&fast),
                nom.as_ref(),
                "fast path differs from nom on {text:?}"
            );
            true
        }
        None => false,
    }
}

/// Sums of pools and numbers, the shape the fast path reads, with blanks and modifiers.
fn simple_sum() -> impl Strategy<Value = String> {
    let modifier = prop_oneof![
        Just(""),
        Just("kh3"),
        Just("kl1"),
        Just("k2"),
        Just("dl1"),
        Just("d1"),
        Just("p1"),
        Just("!"),
        Just("!!"),
        Just("!p"),
        Just("!!p"),
        Just("!x3"),
        Just("!>=5"),
        Just("e6"),
        Just("r1"),
        Just("ro<3"),
        Just("ra1"),
        Just("u"),
        Just(">=8"),
        Just(">=5f<=1"),
        Just("=6"),
        Just("cs>=19"),
        Just("cf<=1"),
        Just("min2"),
        Just("max5"),
        Just("mi-1"),
        Just("s"),
        Just("sd"),
        Just("!="),
        Just("x"),
        Just("kh"),
        Just("."),
        Just("["),
        // The edges of the fast pool reader (`fast_dice`).
        Just("kh0"),
        Just("dh2"),
        Just("k01"),
        Just("kl99999999999"),
        Just(">3"),
        Just("<2"),
        Just("<=2"),
        Just("<>3"),
        Just("=08"),
        Just(">=8.5"),
        Just(">=8."),
        Just(">=-1"),
        Just(">=1234567890"),
        Just("==6"),
        Just(">=8f"),
        Just("!p>3"),
        Just("!x"),
        Just("d"),
        Just("k>3"),
    ];
    let pool = (
        prop_oneof![
            Just(String::new()),
            (0u32..30).prop_map(|n| n.to_string()),
            Just("01".to_string()),
            Just("5000".to_string())
        ],
        prop_oneof![Just("d"), Just("D")],
        prop_oneof![
            Just("6"),
            Just("10"),
            Just("20"),
            Just("1"),
            Just("0"),
            Just("06"),
            Just("%"),
            Just("F"),
            Just("F.1"),
            Just("(2+2)")
        ],
        proptest::collection::vec(modifier, 0..4),
    )
        .prop_map(|(n, d, s, m)| format!("{n}{d}{s}{}", m.concat()));
    let term = prop_oneof![
        3 => pool,
        1 => (0u64..5_000_000_000).prop_map(|n| n.to_string()),
        1 => Just("007".to_string()),
        1 => Just("2.5".to_string()),
    ];
    let blank = prop_oneof![Just(""), Just(""), Just(" "), Just("\t"), Just("  ")];
    (
        blank.clone(),
        term.clone(),
        proptest::collection::vec(
            (
                blank.clone(),
                prop_oneof![Just("+"), Just("-"), Just("*"), Just(">="), Just("#")],
                blank.clone(),
                term,
            ),
            0..4,
        ),
        blank,
    )
        .prop_map(|(a, first, rest, z)| {
            let mut s = format!("{a}{first}");
            for (b, op, c, t) in rest {
                s.push_str(&format!("{b}{op}{c}{t}"));
            }
            s.push_str(z);
            s
        })
}

/// Text made of the notation's own characters.
fn dice_ish() -> impl Strategy<Value = String> {
    proptest::string::string_regex(r"[0-9dDkhlrfoapFx%+\-*/^(){}\[\], <>=.#!uscemin]{0,24}")
        .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    #[test]
    fn fast_path_agrees_on_simple_sums(text in simple_sum()) {
        same(&text);
    }

    #[test]
    fn fast_path_agrees_on_notation_characters(text in dice_ish()) {
        same(&text);
    }

    #[test]
    fn fast_path_agrees_on_any_text(text in "\\PC{0,20}") {
        same(&text);
    }
}

#[test]
fn fast_path_takes_the_benchmark_expressions() {
    for text in [
        "1d6",
        "3d6+2",
        "4d6kh3",
        "10d6!",
        "20d10>=8",
        "2d20kl1+5",
        " d20 + 1d4 - 1 ",
    ] {
        assert!(same(text), "fast path did not take {text:?}");
    }
    for text in [
        "-3",
        "2x 3d6",
        "3d6 # fire",
        "3d6 [fire]",
        "(3d6)",
        "3d6*2",
        "1.5",
    ] {
        assert!(!same(text), "fast path took {text:?}");
    }
}

#[test]
fn fast_path_agrees_on_the_corpus() {
    // Where the shared conformance corpus lies beside the repository (tests/data says).
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(include_str!("../../tests/data/shared_corpus_path.txt").trim());
    let Ok(text) = std::fs::read_to_string(&path) else {
        let path = path.display();
        eprintln!("corpus not found at {path}: skipped");
        return;
    };
    let mut taken = 0;
    for line in text.lines().skip(1) {
        if let Some(expr) = line.split('\t').next() {
            taken += usize::from(same(expr));
        }
    }
    assert!(taken > 0);
}
