//! Property tests for the dice notation: no input makes the parser or roller panic, and
//! printing a parsed expression gives text that parses back to the same expression; a roll's
//! notation, written from its tree when asked for, is its expression's, and survives JSON.

use proptest::prelude::*;
use umpire::dice::{Caps, DiceBox, parse, roll};

/// Text made of the notation's own characters, so most cases get deep into the parser.
fn dice_ish() -> impl Strategy<Value = String> {
    proptest::string::string_regex(r"[0-9dDkhlrfoapFx%+\-*/^(){}\[\], <>=.#!uscemin]{0,40}")
        .unwrap()
}

/// Valid expressions, built from the grammar.
fn expression() -> impl Strategy<Value = String> {
    let modifier = prop_oneof![
        Just(String::new()),
        (1u8..4).prop_map(|n| format!("kh{n}")),
        (1u8..4).prop_map(|n| format!("kl{n}")),
        (1u8..3).prop_map(|n| format!("dl{n}")),
        Just("!".to_string()),
        Just("!!".to_string()),
        Just("!p".to_string()),
        (1u8..4).prop_map(|n| format!("!x{n}")),
        Just("r=1".to_string()),
        Just("ro=1".to_string()),
        Just(">=4".to_string()),
        Just(">=5f<=1".to_string()),
        Just("min2".to_string()),
        Just("max5".to_string()),
        Just("sd".to_string()),
        Just("cs>=6".to_string()),
    ];
    let dice = (
        1u16..12,
        prop_oneof![
            Just("6".to_string()),
            Just("10".to_string()),
            Just("20".to_string()),
            Just("%".to_string()),
            Just("F".to_string()),
            Just("F.1".to_string())
        ],
        modifier,
    )
        .prop_map(|(n, s, m)| format!("{n}d{s}{m}"));
    let number = prop_oneof![
        (0u32..100).prop_map(|n| n.to_string()),
        (0u32..1000).prop_map(|n| format!("{}.{}", n / 10, n % 10))
    ];
    let leaf = prop_oneof![dice, number];
    leaf.prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            (
                inner.clone(),
                prop_oneof![
                    Just("+"),
                    Just("-"),
                    Just("*"),
                    Just("//"),
                    Just("%"),
                    Just("/"),
                    Just(" >= "),
                    Just("^")
                ],
                inner.clone()
            )
                .prop_map(|(a, op, b)| format!("({a}) {op} ({b})")),
            inner.clone().prop_map(|a| format!("-({a})")),
            inner.clone().prop_map(|a| format!("({a})")),
            inner.clone().prop_map(|a| format!("floor({a})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("max({a}, {b})")),
            (inner.clone(), inner.clone(), 1u8..3)
                .prop_map(|(a, b, k)| format!("{{{a}, {b}}}kh{k}")),
            (inner.clone(), inner).prop_map(|(a, b)| format!("({a}, {b})>3")),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn parser_and_roller_never_panic(s in dice_ish()) {
        if let Ok(e) = parse(&s) {
            let mut dice = DiceBox::seeded(1);
            let _ = roll(&e, &mut dice.source(None), &Caps::DEFAULT);
        }
    }

    #[test]
    fn arbitrary_text_never_panics(s in any::<String>()) {
        let _ = parse(&s).map_err(|e| e.render(&s));
    }

    #[test]
    fn display_parses_back_to_the_same_expression(s in expression()) {
        let e = parse(&s).map_err(|e| TestCaseError::fail(e.render(&s)))?;
        let printed = e.to_string();
        let again = parse(&printed).map_err(|err| TestCaseError::fail(format!("{s} printed as {printed}: {}", err.render(&printed))))?;
        prop_assert_eq!(again, e, "{} printed as {}", s, printed);
    }

    #[test]
    fn anything_that_parses_prints_back_the_same(s in dice_ish()) {
        if let Ok(e) = parse(&s) {
            let printed = e.to_string();
            let again = parse(&printed);
            prop_assert!(again.is_ok(), "{:?} printed as {:?} fails: {:?}", s, printed, again);
            prop_assert_eq!(again.unwrap(), e);
        }
    }

    #[test]
    fn a_roll_writes_its_expressions_notation_and_reads_back_from_json(
        s in prop_oneof![expression(), dice_ish().prop_map(|s| format!("{s} [x]"))],
        seed in 0u64..1000,
    ) {
        let Ok(e) = parse(&s) else { return Ok(()) };
        let mut dice = DiceBox::seeded(seed);
        let Ok(rolls) = roll(&e, &mut dice.source(None), &Caps::DEFAULT) else { return Ok(()) };
        let r = &rolls[0];
        prop_assert_eq!(r.expr().to_string(), e.expr.to_string());
        let json = serde_json::to_string(r).unwrap();
        let back: umpire::dice::Roll = serde_json::from_str(&json)
            .map_err(|err| TestCaseError::fail(format!("{json}: {err}")))?;
        prop_assert_eq!(&back, r);
        prop_assert_eq!(back.expr(), r.expr());
        prop_assert_eq!(serde_json::to_string(&back).unwrap(), json);
    }

    #[test]
    fn valid_expressions_roll_within_the_caps(s in expression(), seed in 0u64..1000) {
        let e = parse(&s).unwrap();
        let mut dice = DiceBox::seeded(seed);
        match roll(&e, &mut dice.source(None), &Caps::DEFAULT) {
            Ok(r) => prop_assert!(r[0].total.is_finite()),
            // Arithmetic on random values may divide by zero or leave the exact range; that
            // must be an error, never a panic or an infinity.
            Err(err) => {
                let msg = err.to_string();
                prop_assert!(msg.contains("division by zero") || msg.contains("out of range") || msg.contains("dice"), "{}", msg);
            }
        }
    }
}
