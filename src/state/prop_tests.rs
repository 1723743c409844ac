//! Property: any sequence of valid changes, followed by their inverses in reverse order,
//! gives back the initial game exactly (and so does its JSON).

use proptest::prelude::*;

use super::*;

const SCHEMA: &str = include_str!("../../examples/data/schema.toml");
const ROMANS: &str = include_str!("../../examples/data/romans.toml");

/// One edit, chosen by numbers so proptest can shrink it; edits that do not fit the game
/// at that moment are skipped (they must leave it untouched).
#[derive(Debug, Clone)]
enum Op {
    AddSide(u8),
    AddCommand(u8, u8),
    AddUnit(u8, u8),
    AddElement(u8, u8),
    Remove(u8),
    SetSp(u8, i64),
    SetQuality(u8, u8),
    Mark(u8, u8, u8),
    Unmark(u8, u8),
    Rename(u8, u8),
    Advance,
    TurnOrder(u8),
    SetClock(u8, u8),
    Schema(u8),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        any::<u8>().prop_map(Op::AddSide),
        (any::<u8>(), any::<u8>()).prop_map(|(a, b)| Op::AddCommand(a, b)),
        (any::<u8>(), any::<u8>()).prop_map(|(a, b)| Op::AddUnit(a, b)),
        (any::<u8>(), any::<u8>()).prop_map(|(a, b)| Op::AddElement(a, b)),
        any::<u8>().prop_map(Op::Remove),
        (any::<u8>(), -2i64..15).prop_map(|(a, b)| Op::SetSp(a, b)),
        (any::<u8>(), any::<u8>()).prop_map(|(a, b)| Op::SetQuality(a, b)),
        (any::<u8>(), any::<u8>(), any::<u8>()).prop_map(|(a, b, c)| Op::Mark(a, b, c)),
        (any::<u8>(), any::<u8>()).prop_map(|(a, b)| Op::Unmark(a, b)),
        (any::<u8>(), any::<u8>()).prop_map(|(a, b)| Op::Rename(a, b)),
        Just(Op::Advance),
        Just(Op::Advance),
        any::<u8>().prop_map(Op::TurnOrder),
        (1u8..4, any::<u8>()).prop_map(|(a, b)| Op::SetClock(a, b)),
        any::<u8>().prop_map(Op::Schema),
    ]
}

fn pick<T: Clone>(items: &[T], i: u8) -> Option<T> {
    (!items.is_empty()).then(|| items[i as usize % items.len()].clone())
}

const MARKERS: [&str; 5] = ["routed", "disordered", "suppressed", "activated", "ambush"];

fn run(g: &mut Game, op: &Op, n: usize) -> Result<Vec<Change>, StateError> {
    let sides: Vec<String> = g.side_ids().iter().map(|s| s.to_string()).collect();
    let commands: Vec<String> = g.commands.keys().map(|c| c.to_string()).collect();
    let units: Vec<String> = g.units().map(|u| u.id.to_string()).collect();
    let all: Vec<String> = g.ids().map(|i| i.to_string()).collect();
    let none = || StateError::from(StateErrorKind::Clock("nothing to pick".into()));
    let one = |r: Result<Change, StateError>| r.map(|c| vec![c]);
    match op {
        Op::AddSide(k) => one(g.add_side(&format!("s{n}x{k}"), "side")),
        Op::AddCommand(s, k) => {
            let s = pick(&sides, *s).ok_or_else(none)?;
            one(g.add_command(&s, &format!("c{n}x{k}"), "command"))
        }
        Op::AddUnit(c, k) => {
            let c = pick(&commands, *c).ok_or_else(none)?;
            let attrs = [("sp".to_string(), Value::Int(i64::from(*k % 13)))];
            one(g.add_unit(&c, &format!("u{n}x{k}"), "unit", attrs))
        }
        Op::AddElement(u, k) => {
            let u = pick(&units, *u).ok_or_else(none)?;
            one(g.add_element(&u, &format!("e{n}x{k}"), "stand", []))
        }
        Op::Remove(i) => g.remove(&pick(&all, *i).ok_or_else(none)?),
        Op::SetSp(u, v) => {
            one(g.set_attr(&pick(&units, *u).ok_or_else(none)?, "sp", Value::Int(*v)))
        }
        Op::SetQuality(u, q) => {
            let q = ["poor", "trained", "good", "elite"][*q as usize % 4];
            one(g.set_attr_text(&pick(&units, *u).ok_or_else(none)?, "quality", q))
        }
        Op::Mark(u, m, e) => {
            let expiry = match e % 5 {
                0 => None,
                1 => Some(Expiry::EndOfPhase),
                2 => Some(Expiry::EndOfRound),
                3 => Some(Expiry::Rounds(u32::from(*e % 3) + 1)),
                _ => Some(Expiry::EndOfOwnTurn),
            };
            let u = pick(&units, *u).ok_or_else(none)?;
            one(g.mark(&u, MARKERS[*m as usize % 5], expiry))
        }
        Op::Unmark(u, m) => {
            let u = pick(&units, *u).ok_or_else(none)?;
            one(g.unmark(&u, MARKERS[*m as usize % 5]))
        }
        Op::Rename(i, k) => one(g.rename(&pick(&all, *i).ok_or_else(none)?, &format!("name {k}"))),
        Op::Advance => g.advance().map(|(c, _)| vec![c]),
        Op::TurnOrder(s) => {
            let s = pick(&sides, *s).ok_or_else(none)?;
            one(g.set_turn_order(&[s.as_str()]))
        }
        Op::Schema(k) => {
            // Rules reloaded mid-game: a marker or an attribute dropped, bounds narrowed.
            let mut schema = g.schema().clone();
            match k % 4 {
                0 => {
                    schema.markers.shift_remove(MARKERS[*k as usize / 4 % 5]);
                }
                1 => {
                    schema.unit["sp"] = AttrDef::new(AttrType::int_range(0, 8)).with_default(6);
                }
                2 => {
                    schema.unit.shift_remove("quality");
                }
                _ => schema = Schema::from_toml("schema.toml", SCHEMA).unwrap(),
            }
            one(g.set_schema(schema))
        }
        Op::SetClock(r, s) => {
            let len = g.steps().len() as u32;
            one(g.set_clock(u32::from(*r), u32::from(*s) % len))
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn inverses_in_reverse_order_restore_the_game(ops in prop::collection::vec(op(), 0..60)) {
        let mut start = Game::new(Schema::from_toml("schema.toml", SCHEMA).unwrap());
        start.add_side("britons", "Britons").unwrap();
        let roster = load_roster(&start, "romans.toml", ROMANS).unwrap();
        start.apply_all(&roster).unwrap();
        let mut g = start.clone();
        let mut log: Vec<Change> = Vec::new();
        for (n, op) in ops.iter().enumerate() {
            let before = g.clone();
            match run(&mut g, op, n) {
                Ok(changes) => {
                    // Every recorded change also survives a trip through JSON.
                    for c in &changes {
                        let text = serde_json::to_string(c).unwrap();
                        prop_assert_eq!(&serde_json::from_str::<Change>(&text).unwrap(), c);
                    }
                    log.extend(changes);
                }
                Err(_) => prop_assert_eq!(&g, &before, "a failed edit changed the game"),
            }
        }
        // Replaying the log on the start gives the same game.
        let mut replay = start.clone();
        replay.apply_all(&log).map_err(|(i, e)| TestCaseError::fail(format!("replay {i}: {e}")))?;
        prop_assert_eq!(&replay, &g);
        g.undo_all(&log).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&g, &start);
        prop_assert_eq!(serde_json::to_string(&g).unwrap(), serde_json::to_string(&start).unwrap());
    }
}

/// Selectors without names, over what `run` changes: attributes, markers, sides.
const SELECTORS: [&str; 8] = [
    "sp<4",
    "quality=elite|good",
    "marked:routed",
    "unmarked:activated sp>2",
    "side:britons marked:disordered|suppressed",
    "type:INF*|CAV* quality!=poor",
    "marked:routed unmarked:ambush|suppressed",
    "general=false sp>=6",
];

/// What each selector counts and picks in `g`, against a copy that keeps nothing (and so
/// works everything out afresh).
fn same_as_afresh(g: &Game) -> Result<(), TestCaseError> {
    let fresh = g.clone();
    for text in SELECTORS {
        let s = Selector::parse(text).unwrap();
        let kept = (s.count(g).ok(), s.pick(g).ok());
        let afresh = (s.count(&fresh).ok(), s.pick(&fresh).ok());
        prop_assert_eq!(&kept, &afresh, "{}", text);
        let resolved = match s.resolve_ids(&fresh) {
            Ok(ids) => Some(ids),
            Err(e) if matches!(e.kind, StateErrorKind::NoMatch { .. }) => Some(Vec::new()),
            Err(_) => None,
        };
        prop_assert_eq!(&kept.1, &resolved, "{}", text);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn what_the_game_keeps_of_a_selector_follows_every_change(
        ops in prop::collection::vec(op(), 0..60)
    ) {
        let mut g = Game::new(Schema::from_toml("schema.toml", SCHEMA).unwrap());
        g.add_side("britons", "Britons").unwrap();
        let roster = load_roster(&g, "romans.toml", ROMANS).unwrap();
        g.apply_all(&roster).unwrap();
        let mut log: Vec<Change> = Vec::new();
        same_as_afresh(&g)?;
        for (n, op) in ops.iter().enumerate() {
            if let Ok(changes) = run(&mut g, op, n) {
                log.extend(changes);
            }
            same_as_afresh(&g)?;
        }
        // Undone one change at a time, as `undo` does.
        while let Some(c) = log.pop() {
            g.revert(&c).map_err(|e| TestCaseError::fail(e.to_string()))?;
            same_as_afresh(&g)?;
        }
    }
}
