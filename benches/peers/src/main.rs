//! Parse-and-roll throughput of umpire and peer dice crates on issue 2's six expressions.
//!
//! `peers bench [CRATE]` times each (crate, expression) pair: a warm-up that sizes the run to
//! about `SECS` seconds (default 1), then the best of three runs, in million parse+rolls per
//! second. `peers count CRATE INDEX N` runs one pair N times, for instruction counts under
//! callgrind (`(count at N − count at 0) / N`). `peers sanity` prints each pair's mean over
//! 200,000 rolls, to check that each crate's spelling means the same roll.

use std::hint::black_box;
use std::str::FromStr;
use std::time::Instant;

/// The expressions, in umpire's notation.
const EXPRESSIONS: [&str; 6] = ["1d6", "3d6+2", "4d6kh3", "10d6!", "20d10>=8", "2d20kl1+5"];
/// Their exact means, for `sanity`.
const MEANS: [f64; 6] = [3.5, 12.5, 12.2446, 42.0, 6.0, 12.175];
const CRATES: [&str; 6] = ["umpire", "ndm", "tyche", "caith", "dnd_dice_roller", "dice-parser"];
const SEED: u64 = 0x5eed_1234;

/// Each crate's spelling of the six expressions; `None` where it has no way to write it.
fn spelling(krate: &str) -> [Option<&'static str>; 6] {
    match krate {
        "umpire" => EXPRESSIONS.map(Some),
        "ndm" => [Some("1d6"), Some("3d6+2"), Some("4d6:H3"), Some("10d6!"), None, Some("2d20:L1+5")],
        // tyche explodes with `x`, and has no success counting.
        "tyche" => [Some("1d6"), Some("3d6+2"), Some("4d6kh3"), Some("10d6x"), None, Some("2d20kl1+5")],
        "caith" => [Some("1d6"), Some("3d6+2"), Some("4d6K3"), Some("10d6!"), Some("20d10t8"), Some("2d20k1+5")],
        // A trailing `d` is disadvantage: two d20s, the lower kept.
        "dnd_dice_roller" => [Some("1d6"), Some("3d6+2"), None, None, None, Some("1d20+5d")],
        // Keep-highest only through its API, not its notation.
        "dice-parser" => [Some("1d6"), Some("3d6+2"), None, None, None, None],
        _ => panic!("unknown crate {krate}"),
    }
}

type Roller = Box<dyn FnMut(&'static str) -> i64>;

/// Parses the text and rolls it once, as each crate is meant to be used.
fn roller(krate: &str) -> Roller {
    use rand08::SeedableRng as _;
    match krate {
        "umpire" => {
            let mut dice = umpire::dice::DiceBox::seeded(SEED);
            Box::new(move |s| {
                let e = umpire::dice::parse(s).unwrap();
                let limits = umpire::dice::Caps::DEFAULT;
                umpire::dice::roll(&e, &mut dice.source(None), &limits).unwrap()[0].total as i64
            })
        }
        // ndm rolls while parsing, with its thread generator.
        "ndm" => Box::new(|s| match s.parse::<ndm::RollSet>().unwrap().words.last() {
            Some(ndm::DiceWords::Total(t)) => *t as i64,
            _ => panic!("ndm gave no total"),
        }),
        "tyche" => {
            let mut rng = tyche::dice::roller::FastRand::with_seed(SEED);
            Box::new(move |s| {
                let e: tyche::Expr = s.parse().unwrap();
                e.eval(&mut rng).unwrap().calc().unwrap() as i64
            })
        }
        "caith" => {
            let mut rng = rand08::rngs::SmallRng::seed_from_u64(SEED);
            Box::new(move |s| {
                let r = caith::Roller::new(s).unwrap().roll_with(&mut rng).unwrap();
                r.as_single().unwrap().get_total()
            })
        }
        "dnd_dice_roller" => {
            let mut rng = rand08::rngs::SmallRng::seed_from_u64(SEED);
            Box::new(move |s| {
                let r = dnd_dice_roller::roll::Roll::from_str(s).unwrap();
                r.roll_from_rng(&mut rng)[0].final_result as i64
            })
        }
        "dice-parser" => {
            let mut rng = <rand09::rngs::SmallRng as rand09::SeedableRng>::seed_from_u64(SEED);
            Box::new(move |s| {
                let e = dice_parser::DiceExpr::parse(s).unwrap();
                e.roll_with_rng(&mut rng).unwrap().total as i64
            })
        }
        _ => panic!("unknown crate {krate}"),
    }
}

/// The (crate, expression index, spelling) pairs to run.
fn pairs(only: Option<&str>) -> Vec<(&'static str, usize, &'static str)> {
    CRATES
        .into_iter()
        .filter(|c| only.is_none_or(|o| o == *c))
        .flat_map(|c| {
            spelling(c)
                .into_iter()
                .enumerate()
                .filter_map(move |(i, s)| s.map(|s| (c, i, s)))
        })
        .collect()
}

fn seconds(f: &mut Roller, text: &'static str, n: u64) -> f64 {
    let t = Instant::now();
    for _ in 0..n {
        black_box(f(black_box(text)));
    }
    t.elapsed().as_secs_f64()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("bench") => {
            let secs: f64 = std::env::var("SECS").ok().and_then(|v| v.parse().ok()).unwrap_or(1.0);
            for (c, i, text) in pairs(args.get(2).map(String::as_str)) {
                let mut f = roller(c);
                let mut n = 1u64;
                let n = loop {
                    let t = seconds(&mut f, text, n);
                    if t > 0.2 {
                        break ((n as f64) * secs / t).ceil() as u64;
                    }
                    n *= 2;
                };
                let rates: Vec<f64> = (0..3).map(|_| n as f64 / seconds(&mut f, text, n) / 1e6).collect();
                let best = rates.iter().copied().fold(0.0, f64::max);
                println!("{c}\t{}\t{text}\t{best:.2} M/s", EXPRESSIONS[i]);
            }
        }
        Some("count") => {
            let (c, i, n): (&str, usize, u64) = (&args[2], args[3].parse().unwrap(), args[4].parse().unwrap());
            let text = spelling(c)[i].expect("the crate cannot write that expression");
            let mut f = roller(c);
            black_box(f(black_box(text)));
            for _ in 0..n {
                black_box(f(black_box(text)));
            }
        }
        Some("sanity") => {
            for (c, i, text) in pairs(args.get(2).map(String::as_str)) {
                let mut f = roller(c);
                let n = 200_000;
                let mean = (0..n).map(|_| f(text) as f64).sum::<f64>() / n as f64;
                println!("{c}\t{}\t{text}\tmean {mean:.3} (exact {:.3})", EXPRESSIONS[i], MEANS[i]);
            }
        }
        _ => eprintln!("usage: peers bench [CRATE] | count CRATE INDEX N | sanity [CRATE]"),
    }
}
