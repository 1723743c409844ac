//! Fuzzes the dice parser and roller: no input may panic, everything that parses must print
//! back to text that parses to the same expression, and rolling it must not panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use umpire::dice::{DiceBox, Caps, parse, roll};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(expr) = parse(text) else { return };
    let printed = expr.to_string();
    // The canonical form spaces its operators, so it can outgrow the length cap that the
    // original text fitted under; within the cap it must read back the same.
    if printed.len() <= Caps::DEFAULT.max_len {
        let again = parse(&printed).unwrap_or_else(|e| panic!("{text:?} printed as {printed:?} fails: {e}"));
        assert_eq!(again, expr, "{text:?} printed as {printed:?}");
    }
    let mut dice = DiceBox::seeded(1);
    let _ = roll(&expr, &mut dice.source(None), &Caps::DEFAULT);
});
