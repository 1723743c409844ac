//! Seeded rolls pinned to what they gave before the dice engine was optimised: the same
//! seed must keep giving the same dice, kept, exploded and counted the same way, whatever
//! fast paths the parser and roller take. `testdata/pinned_rolls.jsonl` holds, for each
//! expression, its 50 rolls with seed 1 as JSON; `UMPIRE_PIN_REGENERATE=1` rewrites it (only
//! do that for a deliberate change of behaviour).

use super::caps::Caps;
use super::parser::parse;
use super::roll::roll;
use super::source::DiceBox;

/// The benchmark's expressions and some that reach the other per-die paths.
const PINNED: [&str; 20] = [
    "1d6",
    "3d6+2",
    "4d6kh3",
    "10d6!",
    "20d10>=8",
    "2d20kl1+5",
    "6d6!!",
    "6d6!p",
    "5d6!!p",
    "8d6!>=5x2",
    "4d6r1",
    "4d6ro<3",
    "4d6ra1",
    "6d6r<2!",
    "3d6u",
    "4dF+1",
    "3d6min2max5",
    "10d10>=8f<=1cs=10",
    "2x 3d6!",
    "d%+d20-1d4*2",
];

fn pinned_lines() -> Vec<String> {
    PINNED
        .iter()
        .map(|text| {
            let e = parse(text).unwrap();
            let mut dice = DiceBox::seeded(1);
            let rolls: Vec<_> = (0..50)
                .map(|_| roll(&e, &mut dice.source(None), &Caps::DEFAULT).unwrap())
                .collect();
            serde_json::to_string(&(text, rolls)).unwrap()
        })
        .collect()
}

#[test]
fn seeded_rolls_are_pinned() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/src/dice/testdata/pinned_rolls.jsonl"
    );
    let got = pinned_lines();
    if std::env::var_os("UMPIRE_PIN_REGENERATE").is_some() {
        std::fs::write(path, got.join("\n") + "\n").unwrap();
        return;
    }
    let want = std::fs::read_to_string(path).unwrap();
    let want: Vec<&str> = want.lines().collect();
    assert_eq!(want.len(), got.len(), "pinned expressions changed");
    for (w, g) in want.iter().zip(&got) {
        assert_eq!(*w, g, "seeded rolls changed");
    }
}

/// Queued values go first, then the generator, for every per-die path.
#[test]
fn queued_then_seeded_rolls_are_pinned() {
    let mut out = Vec::new();
    for text in ["10d6!", "6d6!!", "4d6r1", "3d6u", "4d6ra1", "4d6kh3"] {
        let e = parse(text).unwrap();
        let mut dice = DiceBox::seeded(3);
        dice.enqueue([6, 6, 1, 2]);
        let r = roll(&e, &mut dice.source(None), &Caps::DEFAULT).unwrap();
        let values: Vec<i64> = r[0].dice().iter().map(|d| d.value).collect();
        out.push(format!("{text}: {values:?} {:?}", r[0].sources));
    }
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/src/dice/testdata/pinned_queue.txt"
    );
    if std::env::var_os("UMPIRE_PIN_REGENERATE").is_some() {
        std::fs::write(path, out.join("\n") + "\n").unwrap();
        return;
    }
    let want = std::fs::read_to_string(path).unwrap();
    assert_eq!(want, out.join("\n") + "\n");
}

/// The generator's dice one request at a time, never handing out the generator itself: the
/// slow path every shortcut must agree with.
struct OneAtATime(DiceBox);

impl super::source::DiceSource for OneAtATime {
    fn next_die(
        &mut self,
        request: &super::source::DieRequest<'_>,
    ) -> Result<(i64, super::source::SourceKind), super::error::DiceError> {
        self.0.source(None).next_die(request)
    }
}

proptest::proptest! {
    /// Every shortcut straight to the generator (whole plain pools, exploding pools, the
    /// per-die path) gives the same roll as asking for one die at a time.
    #[test]
    fn generator_shortcuts_roll_what_one_at_a_time_rolls(
        count in 1u32..12,
        sides in proptest::sample::select(vec!["1", "2", "6", "10", "F", "%"]),
        mods in proptest::sample::select(vec![
            "", "!", "!p", "!>=5", "!<3", "!x2", "!>4x1", "!pmin2", "!max4", "kh2!", ">=4!",
            "!!", "!!p", "r1", "ro<3", "min2max5", "kh3", ">=5f1", "r<2!", "!sd", "!cs>5",
        ]),
        seed in 0u64..500,
    ) {
        let text = format!("{count}d{sides}{mods}");
        let Ok(e) = parse(&text) else { return Ok(()) };
        let fast = roll(&e, &mut DiceBox::seeded(seed).source(None), &Caps::DEFAULT);
        let slow = roll(&e, &mut OneAtATime(DiceBox::seeded(seed)), &Caps::DEFAULT);
        proptest::prop_assert_eq!(fast, slow, "{}", text);
    }
}
