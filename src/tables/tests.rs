//! Case tables for tables: loading, overlap and gap detection, clamping, rolling through the
//! dice sources, lookups and rendering.

use super::*;
use crate::dice::source::FixedSource;

const EXAMPLES: &str = include_str!("../../examples/data/tables.toml");

fn set() -> TableSet {
    let mut s = TableSet::new();
    s.load_toml("tables.toml", EXAMPLES).unwrap();
    s
}

#[test]
fn example_tables_load_in_file_order() {
    let names: Vec<String> = set().iter().map(|t| t.name.clone()).collect();
    assert_eq!(
        names,
        [
            "terrain",
            "combat",
            "activation",
            "initiative_irregular",
            "orders"
        ]
    );
}

#[test]
fn ranges_parse_in_every_written_form() {
    let r = |s| Range::parse(s);
    assert_eq!(r("5"), Some(Range::new(5, 5)));
    assert_eq!(r("1-4"), Some(Range::new(1, 4)));
    assert_eq!(r("1 – 3"), Some(Range::new(1, 3)));
    assert_eq!(r("1..3"), Some(Range::new(1, 3)));
    assert_eq!(r("-3--1"), Some(Range::new(-3, -1)));
    assert_eq!(r("−2"), Some(Range::new(-2, -2)));
    assert_eq!(
        r("9+"),
        Some(Range {
            lo: Some(9),
            hi: None
        })
    );
    assert_eq!(
        r("<=0"),
        Some(Range {
            lo: None,
            hi: Some(0)
        })
    );
    assert_eq!(r("4-1"), None);
    assert_eq!(r("open"), None);
}

#[test]
fn rolls_are_modified_then_clamped_to_the_ends() {
    let s = set();
    let t = s.get("terrain").unwrap();
    let roll = |v: i64, m: i64| t.roll(m, &mut FixedSource::new([v])).unwrap();
    let r = roll(3, 0);
    assert_eq!(
        (r.raw, r.total, r.clamped, r.range.as_str()),
        (3, 3, 3, "1-4")
    );
    assert_eq!(r.value, Cell::from("No terrain / open"));
    let r = roll(8, 2);
    assert_eq!((r.raw, r.total, r.clamped), (8, 10, 10), "9+ is open-ended");
    assert_eq!(r.value, Cell::from("Impassable"));
    let r = roll(1, -3);
    assert_eq!((r.total, r.clamped, r.range.as_str()), (-2, 1, "1-4"));
    assert_eq!(
        r.summary("d8"),
        "d8 1 −3 = -2 (clamped to 1) → 1-4: No terrain / open"
    );
    assert_eq!(
        r.roll.dice().len(),
        1,
        "the roll keeps its dice for the journal"
    );
}

#[test]
fn closed_tables_clamp_at_the_top() {
    let t = Table::dice(
        "morale",
        "2d6",
        vec![
            (Range::new(2, 6), "break".into()),
            (Range::new(7, 9), "hold".into()),
            (Range::new(10, 12), "pass".into()),
        ],
    )
    .unwrap();
    let r = t.roll(3, &mut FixedSource::new([6, 5])).unwrap();
    assert_eq!((r.raw, r.total, r.clamped), (11, 14, 12));
    assert_eq!(r.value, Cell::from("pass"));
    assert!(t.at(0).unwrap().clamped);
}

#[test]
fn cross_lookups_match_numbers_ranges_and_names() {
    let s = set();
    let combat = s.get("combat").unwrap();
    assert_eq!(combat.lookup("4", "3").unwrap().value, Cell::Int(4));
    assert_eq!(combat.lookup("6", "1").unwrap().value, Cell::Int(2));
    let clamped = combat.lookup("9", "1").unwrap();
    assert!(clamped.clamped, "FLD-D04: inputs outside 1..6 clamp");
    assert_eq!(clamped.value, Cell::Int(2));
    let act = s.get("activation").unwrap();
    assert_eq!(act.lookup("5", "3").unwrap().row, "4-6");
    assert_eq!(act.lookup("12", "1").unwrap().value, Cell::Int(3));
    assert_eq!(act.lookup_args(&["7-8", "2"]).unwrap().value, Cell::Int(3));
    let orders = s.get("orders").unwrap();
    assert_eq!(orders.get("at").unwrap().value, Cell::from("attack"));
    assert_eq!(
        orders.get("R").unwrap().value.to_string(),
        "order rush, move double rate toward the nearest enemy"
    );
}

#[test]
fn lookup_errors_name_the_valid_keys() {
    let s = set();
    let e = s.get("orders").unwrap().get("charge").unwrap_err();
    assert_eq!(
        e.to_string(),
        "no key `charge` in table `orders`: use `AT`, `A`, `W`, `P`, `R`, `LR`"
    );
    let e = s.get("combat").unwrap().lookup("4", "x").unwrap_err();
    assert_eq!(
        e.to_string(),
        "no column `x` in table `combat`: use `1`, `2`, `3`, `4`, `5`, `6`"
    );
    let e = s.get("combat").unwrap().lookup_args(&["4"]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "table `combat` needs a row and a column, found 1 key(s)"
    );
    assert_eq!(
        s.get("terain").unwrap_err().to_string(),
        "no table `terain` (did you mean `terrain`?)"
    );
    assert!(
        s.get("combat")
            .unwrap()
            .roll(0, &mut FixedSource::new([1]))
            .is_err()
    );
}

#[test]
fn a_cross_table_with_dice_rolls_its_row_for_a_column() {
    let s = set();
    let t = s.get("initiative_irregular").unwrap();
    let r = t.roll_column("3", 1, &mut FixedSource::new([5])).unwrap();
    assert_eq!((r.total, r.clamped, r.range.as_str()), (6, 6, "6"));
    assert_eq!(r.value, Cell::from("A"));
    assert_eq!(r.column.as_deref(), Some("3"));
}

#[test]
fn rolls_go_through_any_dice_source() {
    use crate::dice::DiceBox;
    let s = set();
    let t = s.get("terrain").unwrap();
    let mut dice = DiceBox::seeded(7);
    dice.enqueue([6]);
    let r = t.roll(0, &mut dice.source(None)).unwrap();
    assert_eq!(r.value, Cell::from("Steep hill"));
    assert_eq!(
        r.roll.sources.iter().collect::<Vec<_>>(),
        [crate::dice::SourceKind::Queue]
    );
    let mut bad = DiceBox::seeded(7);
    bad.enqueue([9]);
    assert!(
        t.roll(0, &mut bad.source(None)).is_err(),
        "a 9 is never a d8"
    );
}

macro_rules! load_error {
    ($name:ident, $src:expr, $msg:expr) => {
        #[test]
        fn $name() {
            let e = load_tables("t.toml", $src).unwrap_err();
            assert_eq!(e.to_string(), $msg);
        }
    };
}

load_error!(
    overlapping_rows,
    "[t]\ndice = \"d6\"\n[t.rows]\n1-3 = \"a\"\n3-6 = \"b\"\n",
    "t.toml:5:1: rows `1-3` and `3-6` overlap: 3 is in both"
);
load_error!(
    gap_between_rows,
    "[t]\ndice = \"d8\"\n[t.rows]\n1-4 = \"a\"\n6-8 = \"b\"\n",
    "t.toml:5:1: no row covers 5 (between rows `1-4` and `6-8`)"
);
load_error!(
    rows_short_of_the_dice,
    "[t]\ndice = \"2d6\"\n[t.rows]\n2-6 = \"a\"\n7-11 = \"b\"\n",
    "t.toml:1:2: `2d6` can roll 12, which no row covers"
);
load_error!(
    overlapping_columns,
    "[t]\ncols = [\"1-3\", \"2-6\"]\n[t.rows]\na = [1, 2]\n",
    "t.toml:2:16: rows `1-3` and `2-6` overlap: 2 is in both"
);
load_error!(
    ragged_cross_row,
    "[t]\ncols = [1, 2]\n[t.rows]\na = [1, 2]\nb = [1]\n",
    "t.toml:5:1: row `b` has 1 cells but the table has 2 columns"
);
load_error!(
    bad_range_key,
    "[t]\ndice = \"d6\"\n[t.rows]\none = \"a\"\n",
    "t.toml:4:1: `one` is not a range: use `5`, `1-4`, `9+` or `<=0`"
);
load_error!(
    dice_table_without_dice,
    "[t]\n[t.rows]\n1 = \"a\"\n",
    "t.toml:1:1: dice table `t` needs `dice = \"d6\"` (or `cols` for a cross table, `entries` for a lookup)"
);
load_error!(
    unknown_table_key,
    "[t]\ndcie = \"d6\"\n",
    "t.toml:2:1: unknown key `dcie` in table `t` (did you mean `dice`?)"
);
load_error!(
    bad_dice,
    "[t]\ndice = \"d\"\n[t.rows]\n1 = \"a\"\n",
    "t.toml:1:2: expected die size after `d`, found end of input"
);

#[test]
fn a_table_built_in_rust_is_checked_too() {
    let e = Table::dice(
        "t",
        "d6",
        vec![
            (Range::new(1, 3), "a".into()),
            (Range::new(5, 6), "b".into()),
        ],
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "no row covers 4 (between rows `1-3` and `5-6`)"
    );
}

#[test]
fn tables_render_as_aligned_text() {
    let s = set();
    assert_eq!(
        s.get("terrain").unwrap().render(),
        "terrain (d8) — FLD §14 terrain generation (+2 if the square touches a table edge)\n\
         \x20 d8   result\n\
         \x20 ───  ─────────────────\n\
         \x20 1-4  No terrain / open\n\
         \x20 5    Gentle hill\n\
         \x20 6    Steep hill\n\
         \x20 7    Wood\n\
         \x20 8    Built-up area\n\
         \x20 9+   Impassable\n"
    );
    let combat = s.get("combat").unwrap().render();
    assert!(
        combat.contains("  own \\ opponent  1  2  3  4  5  6\n"),
        "{combat}"
    );
    assert!(
        combat.contains("  4               3  3  4  4  5  5\n"),
        "{combat}"
    );
}

#[test]
fn tables_round_trip_through_json() {
    for t in set().iter() {
        let text = serde_json::to_string(t).unwrap();
        let back: Table = serde_json::from_str(&text).unwrap();
        assert_eq!(&back, t);
    }
}

#[test]
fn cross_and_keyed_tables_build_in_rust() {
    let k = |s: &str| Key::parse(s);
    let t = Table::cross(
        "morale",
        vec![k("1"), k("2-3")],
        vec![k("steady"), k("shaken")],
        vec![vec![1.into(), 2.into()], vec![3.into(), 4.into()]],
    )
    .unwrap()
    .with_doc("test");
    assert_eq!(t.lookup("3", "SHAKEN").unwrap().value, Cell::Int(4));
    let e = Table::cross(
        "bad",
        vec![k("1-3"), k("3")],
        vec![k("a")],
        vec![vec![1.into()], vec![2.into()]],
    )
    .unwrap_err();
    assert_eq!(e.to_string(), "rows `1-3` and `3` overlap: 3 is in both");
    let e = Table::keyed("dup", vec![("a".into(), 1.into()), ("A".into(), 2.into())]).unwrap_err();
    assert_eq!(e.to_string(), "key `A` appears twice");
}
