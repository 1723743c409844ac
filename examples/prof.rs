use umpire::dice::{DiceBox, Limits, parse, roll};
fn main() {
    let which = std::env::args().nth(1).unwrap();
    let text = std::env::args().nth(2).unwrap();
    let mut dice = DiceBox::seeded(1);
    let e0 = parse(&text).unwrap();
    let mut t = 0.0;
    for _ in 0..10000 {
        if which == "parse" {
            t += parse(&text).unwrap().repeat.unwrap_or(1) as f64;
        } else {
            t += roll(&e0, &mut dice.source(None), &Limits::DEFAULT).unwrap()[0].total;
        }
    }
    println!("{t}");
}
