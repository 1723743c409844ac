//! Parse and roll one expression N times and nothing else, for exact instruction counts under
//! callgrind: the difference between a run of N and a run of 0, over N, is the cost of one
//! (`bash benches/profile/instructions.sh` does this for issue 2's expressions). Unlike the
//! criterion benches, nothing here depends on how many iterations a timer chose.
//!
//! `cargo bench --bench count -- MODE EXPR N`, MODE one of `all` (parse, roll and drop both),
//! `parse` (parse and drop the tree) and `roll` (roll a tree parsed once, drop the roll).
//! Run with no arguments (as `cargo bench` does) it does nothing.

use std::hint::black_box;
use umpire::dice::{Caps, DiceBox, parse, roll};

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let [mode, text, n] = args.as_slice() else {
        return;
    };
    let n: u64 = n.parse().expect("N is a whole number");
    let mut dice = DiceBox::seeded(1);
    let tree = parse(text).expect("the expression parses");
    // One of each before counting, so first-use costs (the allocator's, the generator's) are
    // in both runs and cancel out.
    black_box(roll(&tree, &mut dice.source(None), &Caps::DEFAULT).expect("it rolls"));
    for _ in 0..n {
        match mode.as_str() {
            "all" => {
                let e = parse(black_box(text)).unwrap();
                black_box(roll(&e, &mut dice.source(None), &Caps::DEFAULT).unwrap());
            }
            "parse" => {
                black_box(parse(black_box(text)).unwrap());
            }
            "roll" => {
                black_box(roll(black_box(&tree), &mut dice.source(None), &Caps::DEFAULT).unwrap());
            }
            _ => panic!("MODE is all, parse or roll"),
        }
    }
}
