//! Case tables for the state module: schema checks, ids, markers and expiry, the clock,
//! selectors, rosters, changes and their inverses, views.

use super::*;

const SCHEMA: &str = include_str!("../../examples/data/schema.toml");
const ROMANS: &str = include_str!("../../examples/data/romans.toml");
const BRITONS: &str = include_str!("../../examples/data/britons.toml");

fn schema() -> Schema {
    Schema::from_toml("schema.toml", SCHEMA).unwrap()
}

/// The example game: Romans and Britons loaded from the example rosters.
fn game() -> Game {
    let mut g = Game::new(schema());
    for (file, src) in [("romans.toml", ROMANS), ("britons.toml", BRITONS)] {
        let changes = load_roster(&g, file, src).unwrap();
        g.apply_all(&changes).unwrap();
    }
    g
}

fn msg(e: StateError) -> String {
    e.to_string()
}

// ---- ids -------------------------------------------------------------------------------

#[test]
fn ids_are_lowercase_words_starting_with_a_letter() {
    for ok in ["leg1", "boudicca", "war-band_2", "a"] {
        assert!(Id::new(ok).is_ok(), "{ok}");
    }
    for bad in ["", "1leg", "Leg1", "leg 1", "légion", "-x", &"a".repeat(41)] {
        assert!(Id::new(bad).is_err(), "{bad}");
    }
    assert_eq!(
        msg(Id::new("Leg 1").unwrap_err()),
        "`Leg 1` is not a valid id: use lowercase letters, digits, `_` and `-`, starting with a letter (try `leg_1`)"
    );
}

// ---- schema ----------------------------------------------------------------------------

#[test]
fn out_of_bounds_value_names_attribute_value_and_bounds() {
    let mut g = game();
    let e = g.set_attr("leg1", "sp", Value::Int(13)).unwrap_err();
    assert_eq!(msg(e), "sp must be an integer from 0 to 12, found `13`");
    let e = g.set_attr_text("leg1", "sp", "six").unwrap_err();
    assert_eq!(msg(e), "sp must be an integer from 0 to 12, found `six`");
    let e = g.set_attr_text("leg1", "quality", "heroic").unwrap_err();
    assert_eq!(
        msg(e),
        "quality must be one of `poor`, `trained`, `good`, `elite`, found `heroic`"
    );
    let e = g.set_attr("leg1", "general", Value::Int(1)).unwrap_err();
    assert_eq!(
        msg(e),
        "general must be a flag (`true` or `false`), found `1`"
    );
}

#[test]
fn unknown_attribute_suggests_the_nearest() {
    let mut g = game();
    let e = g.set_attr("leg1", "spp", Value::Int(3)).unwrap_err();
    assert_eq!(
        msg(e),
        "unknown attribute `spp` for unit `leg1` (did you mean `sp`?)"
    );
}

#[test]
fn typed_values_are_parsed_and_normalised() {
    let t = AttrType::choice(["INF/A", "CAV/U"]);
    assert_eq!(t.parse("inf/a"), Some(Value::from("INF/A")));
    let list = AttrType::List {
        of: Box::new(AttrType::int_range(0, 6)),
    };
    assert_eq!(
        list.parse("1, 2,3"),
        Some(Value::List(vec![1.into(), 2.into(), 3.into()]))
    );
    assert_eq!(list.parse("1, 9"), None);
    assert_eq!(
        list.expected(),
        "a list of integers from 0 to 6",
        "list wording"
    );
    let num = AttrType::Number {
        min: Some(0.0),
        max: None,
    };
    assert_eq!(num.check(&Value::Int(2)), Some(Value::Num(2.0)));
    assert_eq!(num.parse("−1"), None);
    assert_eq!(num.expected(), "a number of at least 0");
    assert_eq!(AttrType::Flag.parse("Yes"), Some(Value::Flag(true)));
    assert_eq!(AttrType::Flag.parse("maybe"), None);
}

#[test]
fn schema_built_in_rust_equals_schema_from_toml() {
    let mut s = Schema::default();
    s.unit.insert(
        "sp".into(),
        AttrDef::new(AttrType::int_range(0, 12))
            .with_default(6)
            .with_doc("strength"),
    );
    s.sequence = Sequence::new(vec![
        StepDef::Phase("initiative".into()),
        StepDef::EachSide {
            each_side: vec!["move".into()],
        },
    ]);
    let t = Schema::from_toml(
        "s.toml",
        "[attrs.sp]\ntype = \"int\"\nmin = 0\nmax = 12\ndefault = 6\ndoc = \"strength\"\n\n[clock]\nsteps = [\"initiative\", { each_side = [\"move\"] }]\n",
    )
    .unwrap();
    assert_eq!(s, t);
}

macro_rules! schema_error {
    ($name:ident, $src:expr, $msg:expr) => {
        #[test]
        fn $name() {
            let e = Schema::from_toml("s.toml", $src).unwrap_err();
            assert_eq!(e.to_string(), $msg);
        }
    };
}

schema_error!(
    schema_unknown_section,
    "[atrs.sp]\ntype = \"int\"\n",
    "s.toml:1:2: unknown key `atrs` in a schema (did you mean `attrs`?)"
);
schema_error!(
    schema_unknown_type,
    "[attrs.sp]\ntype = \"integr\"\n",
    "s.toml:2:8: unknown attribute type `integr`: use `int`, `number`, `text`, `flag`, `choice` or `list`"
);
schema_error!(
    schema_default_out_of_bounds,
    "[attrs.sp]\ntype = \"int\"\nmax = 12\ndefault = 13\n",
    "s.toml:4:11: sp must be an integer of at most 12, found `13`"
);
schema_error!(
    schema_min_on_text,
    "[attrs.name2]\ntype = \"text\"\nmin = 1\n",
    "s.toml:3:7: `min` does not apply to a `text` attribute"
);
schema_error!(
    schema_choice_without_values,
    "[attrs.q]\ntype = \"choice\"\n",
    "s.toml:2:8: choice attribute `q` needs `values = [...]`"
);
schema_error!(
    schema_missing_type,
    "[attrs.q]\ndoc = \"x\"\n",
    "s.toml:1:1: attribute `q` needs a `type`: `int`, `number`, `text`, `flag`, `choice` or `list`"
);
schema_error!(
    schema_bad_expiry,
    "[markers.x]\nexpires = \"tomorrow\"\n",
    "s.toml:2:11: unknown expiry `tomorrow`: use `phase`, `round`, `N rounds`, `own turn` or `turn SIDE`"
);
schema_error!(
    schema_status_names_unknown_attribute,
    "[attrs.sp]\ntype = \"int\"\n\n[status]\nstrength = \"ps\"\n",
    "s.toml:4:1: status strength `ps` is not a unit attribute (did you mean `sp`?)"
);
schema_error!(
    schema_toml_syntax,
    "[attrs.sp\ntype = 1\n",
    "s.toml:1:10: unclosed table, expected `]`"
);

// ---- rosters ---------------------------------------------------------------------------

#[test]
fn example_rosters_load_in_file_order() {
    let g = game();
    let ids: Vec<&str> = g.units().map(|u| u.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "leg1",
            "leg2",
            "aux1",
            "suetonius",
            "ala1",
            "scorp1",
            "boudicca",
            "war1",
            "war2",
            "war3",
            "sling1",
            "war4",
            "cha1"
        ]
    );
    assert_eq!(g.attr("leg1", "sp"), Some(&Value::Int(6)), "default");
    assert_eq!(g.attr("aux1", "sp"), Some(&Value::Int(5)));
    assert_eq!(g.attr("britons", "cinc_rating"), Some(&Value::Int(-1)));
    assert_eq!(g.unit("cha1").unwrap().markers[0].name, "ambush");
    let scorp = g.unit("scorp1").unwrap();
    assert_eq!(scorp.elements.len(), 2);
    assert_eq!(g.attr("scorp1a", "figures"), Some(&Value::Int(3)));
}

macro_rules! roster_error {
    ($name:ident, $src:expr, $msg:expr) => {
        #[test]
        fn $name() {
            let g = Game::new(schema());
            let e = load_roster(&g, "romans.toml", $src).unwrap_err();
            assert_eq!(e.to_string(), $msg);
        }
    };
}

const HEAD: &str = "[[side]]\nid = \"romans\"\n[[side.command]]\nid = \"left\"\n[[side.command.unit]]\nid = \"leg1\"\n";

roster_error!(
    roster_unknown_attribute,
    &format!("{HEAD}spp = 3\n"),
    "romans.toml:7:1: unknown attribute `spp` for unit `leg1` (did you mean `sp`?)"
);
roster_error!(
    roster_bad_value,
    &format!("{HEAD}    sp = 13\n"),
    "romans.toml:7:10: sp must be an integer from 0 to 12, found `13`"
);
roster_error!(
    roster_duplicate_id,
    &format!("{HEAD}[[side.command.unit]]\nid = \"leg1\"\n"),
    "romans.toml:8:6: `leg1` is already the id of a unit: ids are unique across the game"
);
roster_error!(
    roster_bad_id,
    "[[side]]\nid = \"Romans\"\n",
    "romans.toml:2:6: `Romans` is not a valid id: use lowercase letters, digits, `_` and `-`, starting with a letter (try `romans`)"
);
roster_error!(
    roster_missing_id,
    "[[side]]\nname = \"Romans\"\n",
    "romans.toml:1:1: this side needs an `id` (lowercase letters, digits, `_`, `-`)"
);
roster_error!(
    roster_unknown_marker,
    &format!("{HEAD}markers = [\"rooted\"]\n"),
    "romans.toml:7:12: unknown marker `rooted` (did you mean `routed`?)"
);
roster_error!(
    roster_unknown_top_key,
    "[[sides]]\nid = \"romans\"\n",
    "romans.toml:1:3: unknown key `sides` in a roster (it lists `[[side]]` tables) (did you mean `side`?)"
);

#[test]
fn roster_adds_commands_to_an_existing_side() {
    let mut g = game();
    let extra = "[[side]]\nid = \"romans\"\n[[side.command]]\nid = \"reserve\"\nunit = [{ id = \"vet1\" }]\n";
    let changes = load_roster(&g, "extra.toml", extra).unwrap();
    g.apply_all(&changes).unwrap();
    assert_eq!(g.side("romans").unwrap().commands.len(), 3);
    assert_eq!(g.unit("vet1").unwrap().side, "romans");
}

// ---- markers and the clock ---------------------------------------------------------------

#[test]
fn clock_walks_the_sequence_and_names_the_step() {
    let mut g = game();
    assert_eq!(g.clock_text(), "round 1 · initiative phase");
    let (_, a) = g.advance().unwrap();
    assert_eq!(a.text, "round 1 · Romans' turn · manoeuvre phase");
    assert_eq!(a.new_turn.as_ref().map(Id::as_str), Some("romans"));
    assert!(!a.new_round);
    let (_, a) = g.advance().unwrap();
    assert_eq!(a.new_turn, None);
    assert_eq!(a.phase.as_deref(), Some("shooting"));
    for _ in 0..5 {
        g.advance().unwrap();
    }
    assert_eq!(g.clock_text(), "round 1 · morale phase");
    let (_, a) = g.advance().unwrap();
    assert!(a.new_round);
    assert_eq!(a.text, "round 2 · initiative phase");
}

#[test]
fn turn_order_puts_the_initiative_winner_first() {
    let mut g = game();
    g.set_turn_order(&["britons"]).unwrap();
    g.advance().unwrap();
    assert_eq!(g.clock_text(), "round 1 · Britons' turn · manoeuvre phase");
    assert!(g.set_turn_order(&["gauls"]).is_err());
}

#[test]
fn markers_expire_in_clock_terms() {
    let mut g = game();
    g.advance().unwrap(); // romans manoeuvre
    g.mark("leg1", "activated", None).unwrap(); // schema default: end of phase
    g.mark("leg2", "suppressed", None).unwrap(); // schema default: end of round
    g.mark("aux1", "disordered", Some(Expiry::EndOfOwnTurn))
        .unwrap();
    g.mark("war1", "disordered", Some(Expiry::EndOfOwnTurn))
        .unwrap();
    g.mark("ala1", "disordered", Some(Expiry::Rounds(1)))
        .unwrap();
    g.mark("war2", "routed", None).unwrap(); // stays
    let expired = |g: &mut Game| -> Vec<String> {
        let (_, a) = g.advance().unwrap();
        a.expired.iter().map(|e| e.unit.to_string()).collect()
    };
    assert_eq!(expired(&mut g), ["leg1"]); // -> romans shooting
    // The Romans' turn under way is not their *next* turn: aux1 keeps its marker to round 2.
    assert!(expired(&mut g).is_empty()); // -> romans close combat
    assert!(expired(&mut g).is_empty()); // -> britons manoeuvre
    assert!(expired(&mut g).is_empty());
    assert!(expired(&mut g).is_empty()); // -> britons close combat
    assert_eq!(expired(&mut g), ["war1"]); // -> morale
    assert_eq!(expired(&mut g), ["leg2"]); // -> round 2 initiative
    assert_eq!(expired(&mut g), ["ala1"]); // -> round 2 romans manoeuvre
    for _ in 0..2 {
        assert!(expired(&mut g).is_empty());
    }
    assert_eq!(expired(&mut g), ["aux1"]); // end of the romans' turn in round 2
    assert_eq!(g.unit("war2").unwrap().markers.len(), 1);
}

#[test]
fn expiry_text_round_trips() {
    assert_eq!(
        Expiry::parse("turn war-band"),
        Ok(Expiry::EndOfTurn {
            side: Id::new("war-band").unwrap()
        })
    );
    assert_eq!(Expiry::parse("end-of-round"), Ok(Expiry::EndOfRound));
    assert_eq!(Expiry::parse("own_turn"), Ok(Expiry::EndOfOwnTurn));
    for e in [
        Expiry::EndOfPhase,
        Expiry::EndOfRound,
        Expiry::Rounds(3),
        Expiry::EndOfOwnTurn,
        Expiry::EndOfTurn {
            side: Id::new("romans").unwrap(),
        },
    ] {
        assert_eq!(Expiry::parse(&e.code()), Ok(e.clone()));
    }
    assert_eq!(Expiry::parse("end of round"), Ok(Expiry::EndOfRound));
    assert_eq!(Expiry::parse("2r"), Ok(Expiry::Rounds(2)));
    assert_eq!(
        Expiry::parse("end of romans' turn"),
        Ok(Expiry::EndOfTurn {
            side: Id::new("romans").unwrap()
        })
    );
    assert!(Expiry::parse("0 rounds").is_err());
}

#[test]
fn turn_expiry_needs_a_turn_in_the_sequence() {
    let mut g = game();
    let mut s = g.schema().clone();
    s.sequence = Sequence::new(vec![StepDef::Phase("move".into())]);
    g.set_schema(s).unwrap();
    let e = g
        .mark("leg1", "disordered", Some(Expiry::EndOfOwnTurn))
        .unwrap_err();
    assert_eq!(
        msg(e),
        "the sequence of play has no turn for side `romans`: use `phase`, `round` or `N rounds`"
    );
}

#[test]
fn marking_twice_and_unmarking_what_is_not_there_are_errors() {
    let mut g = game();
    g.mark("leg1", "routed", None).unwrap();
    assert_eq!(
        msg(g.mark("leg1", "routed", None).unwrap_err()),
        "`leg1` is already marked `routed`"
    );
    assert_eq!(
        msg(g.unmark("leg1", "disordered").unwrap_err()),
        "`leg1` is not marked `disordered` (it has `routed`)"
    );
    assert_eq!(
        msg(g.mark("leg1", "rooted", None).unwrap_err()),
        "unknown marker `rooted` (did you mean `routed`?)"
    );
}

// ---- selectors ---------------------------------------------------------------------------

fn select(g: &Game, text: &str) -> Result<Vec<String>, StateError> {
    Ok(Selector::parse(text)?
        .resolve(g)?
        .into_iter()
        .map(|u| u.id.to_string())
        .collect())
}

macro_rules! selects {
    ($name:ident, $text:expr, [$($id:expr),*]) => {
        #[test]
        fn $name() {
            let mut g = game();
            g.set_attr("war1", "sp", Value::Int(2)).unwrap();
            g.mark("war2", "routed", None).unwrap();
            let expected: Vec<&str> = vec![$($id),*];
            assert_eq!(select(&g, $text).unwrap(), expected);
        }
    };
}

selects!(select_by_id, "leg2", ["leg2"]);
selects!(select_by_unique_prefix, "sue", ["suetonius"]);
selects!(select_by_name_prefix, "batav", ["aux1"]);
selects!(select_names_are_a_union, "leg1 aux1,leg1", ["leg1", "aux1"]);
selects!(
    select_side,
    "side:britons type:WBD",
    ["war1", "war2", "war3", "war4"]
);
selects!(
    select_side_by_bare_id,
    "romans type:CAV*",
    ["suetonius", "ala1"]
);
selects!(select_command, "command:horn", ["war4", "cha1"]);
selects!(select_glob, "type:inf*", ["leg1", "leg2", "aux1"]);
selects!(select_less_than, "sp<3", ["war1"]);
selects!(
    select_at_least,
    "sp>=6 side:romans",
    ["leg1", "leg2", "ala1"]
);
selects!(select_equal_text, "quality=elite", ["leg1", "suetonius"]);
selects!(select_marked, "marked:routed", ["war2"]);
selects!(
    select_unmarked,
    "command:centre unmarked:routed type:WBD",
    ["war1", "war3"]
);
selects!(select_list_item, "weapons:jav*", ["ala1"]);
selects!(select_flag, "general=true", ["suetonius", "boudicca"]);
selects!(select_name_then_filter, "leg1 leg2 quality=good", ["leg2"]);

macro_rules! select_error {
    ($name:ident, $text:expr, $msg:expr, $span:expr) => {
        #[test]
        fn $name() {
            let g = game();
            let e = select(&g, $text).unwrap_err();
            assert_eq!(e.to_string(), $msg);
            let (a, b) = $span;
            assert_eq!(e.span, Some(crate::span::Span::new(a, b)));
        }
    };
}

select_error!(
    select_unknown_name,
    "leg1 lge2",
    "no unit `lge2` (did you mean `leg2`?)",
    (5, 9)
);
select_error!(
    select_ambiguous_prefix,
    "war",
    "`war` matches 4 units: `war1`, `war2`, `war3`, `war4` (type more of the name)",
    (0, 3)
);
select_error!(
    select_unknown_side,
    "side:romams type:X",
    "no side `romams` (did you mean `romans`?)",
    (0, 11)
);
select_error!(
    select_unknown_attr,
    "side:romans tpye:INF",
    "unknown attribute `tpye` for units (did you mean `type`?)",
    (12, 20)
);
select_error!(
    select_nothing_matches,
    "side:romans type:WBD",
    "no unit matches `side:romans type:WBD`",
    (0, 20)
);
select_error!(
    select_comparison_needs_a_number,
    "sp<x",
    "`sp<x` compares with `x`, which is not a number",
    (0, 4)
);
select_error!(
    select_empty_prefix,
    "all side:",
    "expected a name after `side:`",
    (4, 9)
);

#[test]
fn completion_offers_ids_prefixes_and_values() {
    let g = game();
    assert_eq!(complete(&g, "le"), ["left", "leg1", "leg2"]);
    assert_eq!(complete(&g, "side:"), ["side:britons", "side:romans"]);
    assert!(complete(&g, "marked:r").contains(&"marked:routed".to_string()));
    assert_eq!(complete(&g, "qual"), ["quality:"]);
    assert_eq!(complete(&g, "quality:e"), ["quality:elite"]);
    assert!(complete(&g, "").contains(&"all".to_string()));
}

// ---- changes -----------------------------------------------------------------------------

#[test]
fn every_change_is_undone_by_its_inverse() {
    let start = game();
    let mut g = start.clone();
    let mut set = ChangeSet::new();
    set.push(g.set_attr("leg1", "sp", Value::Int(2)).unwrap());
    set.push(g.mark("leg1", "routed", None).unwrap());
    set.push(g.mark("leg2", "activated", None).unwrap());
    set.push(g.rename("leg1", "Legio XIV (battered)").unwrap());
    set.push(g.advance().unwrap().0);
    set.extend(g.remove("scorp1").unwrap());
    set.extend(g.remove("britons").unwrap());
    set.push(g.add_side("gauls", "Gauls").unwrap());
    set.push(g.set_turn_order(&["gauls"]).unwrap());
    set.push(g.set_clock(4, 2).unwrap());
    assert_ne!(g, start);
    set.rollback(&mut g).unwrap();
    assert_eq!(g, start);
    assert_eq!(
        serde_json::to_string(&g).unwrap(),
        serde_json::to_string(&start).unwrap()
    );
}

#[test]
fn apply_all_is_all_or_nothing() {
    let start = game();
    let mut g = start.clone();
    let good = g.clone().set_attr("leg1", "sp", Value::Int(1)).unwrap();
    let bad = Change::SetAttr {
        id: Id::new("leg2").unwrap(),
        attr: "sp".into(),
        old: Some(Value::Int(3)), // stale: leg2 has 6 by default, stored explicitly
        new: Some(Value::Int(2)),
    };
    let (i, e) = g.apply_all(&[good, bad]).unwrap_err();
    assert_eq!(i, 1);
    assert!(matches!(e.kind, StateErrorKind::Stale(_)), "{e}");
    assert_eq!(g, start);
}

#[test]
fn undo_all_is_all_or_nothing_and_reapply_all_puts_it_back() {
    let start = game();
    let mut g = start.clone();
    let changes = vec![
        g.set_attr("leg1", "sp", Value::Int(2)).unwrap(),
        g.mark("leg1", "routed", None).unwrap(),
        g.set_attr("leg2", "sp", Value::Int(4)).unwrap(),
    ];
    let done = g.clone();
    // leg1's sp changed since: leg2's change and the mark revert, then leg1's sp does not.
    let since = g.set_attr("leg1", "sp", Value::Int(9)).unwrap();
    let before = g.clone();
    let e = g.undo_all(&changes).unwrap_err();
    assert!(matches!(e.kind, StateErrorKind::Stale(_)), "{e}");
    assert_eq!(g, before);
    g.apply(&since.inverse()).unwrap();
    g.undo_all(&changes).unwrap();
    assert_eq!(g, start);
    g.reapply_all(&changes).unwrap();
    assert_eq!(g, done);
}

#[test]
fn removing_a_non_empty_group_by_a_single_change_is_refused() {
    let mut g = game();
    let side = g.side("britons").unwrap().clone();
    let e = g.apply(&Change::RemoveSide { index: 1, side }).unwrap_err();
    assert_eq!(
        msg(e),
        "side `britons` still has 2 commands: remove them first"
    );
}

#[test]
fn game_and_changes_round_trip_through_json() {
    let mut g = game();
    let c = g.mark("leg1", "suppressed", None).unwrap();
    let text = serde_json::to_string(&g).unwrap();
    let back: Game = serde_json::from_str(&text).unwrap();
    assert_eq!(back, g);
    let ct = serde_json::to_string(&c).unwrap();
    assert_eq!(serde_json::from_str::<Change>(&ct).unwrap(), c);
    assert!(ct.starts_with(r#"{"change":"mark","unit":"leg1""#), "{ct}");
}

// ---- views -------------------------------------------------------------------------------

#[test]
fn show_has_the_documented_json_shape() {
    let mut g = game();
    g.mark("leg1", "suppressed", None).unwrap();
    let v = serde_json::to_value(g.view("leg1").unwrap()).unwrap();
    assert_eq!(
        v,
        serde_json::json!({
            "id": "leg1",
            "name": "Legio XIV, 1st cohort",
            "side": "romans",
            "command": "left",
            "attrs": {
                "type": "INF/A", "quality": "elite", "sp": 6, "start_sp": 6,
                "general": false, "weapons": []
            },
            "markers": [{"name": "suppressed", "expires": "end of round"}]
        })
    );
}

#[test]
fn status_renders_aligned_strength_bars() {
    let mut g = game();
    g.set_attr("leg2", "sp", Value::Int(3)).unwrap();
    g.mark("leg2", "disordered", None).unwrap();
    let text = g.status().render(100);
    assert!(
        text.starts_with("round 1 · initiative phase\nRomans (6 units, sp 27/30)\n"),
        "{text}"
    );
    assert!(
        text.contains("leg2      INF/A ███░░ 3/6 disordered"),
        "{text}"
    );
    assert_eq!(bar(6.0, 10.0, 5), "███░░ 6/10");
    assert_eq!(bar(-1.0, 4.0, 4), "░░░░ -1/4");
}

#[test]
fn the_status_of_some_units_is_the_whole_board_cut_down_to_them() {
    let mut g = game();
    g.set_attr("leg2", "sp", Value::Int(3)).unwrap();
    let ids: Vec<String> = g.units().map(|u| u.id.to_string()).collect();
    // Every run of consecutive units, and two scattered ones, in either order.
    let mut picks: Vec<Vec<&str>> = (0..ids.len())
        .flat_map(|i| (i + 1..=ids.len()).map(move |j| (i, j)))
        .map(|(i, j)| ids[i..j].iter().map(String::as_str).collect())
        .collect();
    picks.push(vec![ids[ids.len() - 1].as_str(), ids[0].as_str()]);
    for pick in picks {
        let mut board = g.status();
        for side in &mut board.sides {
            for c in &mut side.commands {
                c.units.retain(|u| pick.contains(&u.id.as_str()));
            }
            side.commands.retain(|c| !c.units.is_empty());
            side.unit_count = side.commands.iter().map(|c| c.units.len()).sum();
            if let Some(total) = &mut side.strength {
                let lines = side.commands.iter().flat_map(|c| &c.units);
                let (v, m) = lines
                    .filter(|u| u.away.is_none())
                    .filter_map(|u| u.strength)
                    .fold((0.0, 0.0), |(v, m), s| (v + s.value, m + s.max));
                (total.value, total.max) = (v, m);
            }
        }
        board.sides.retain(|s| !s.commands.is_empty());
        assert_eq!(g.status_of(&pick), board, "{pick:?}");
    }
    assert!(g.status_of(&["nobody"]).sides.is_empty());
}

#[test]
fn a_saved_game_is_checked_when_read_back() {
    let g = game();
    g.check().unwrap();
    let mut v = serde_json::to_value(&g).unwrap();
    v["units"]["leg1"]["command"] = serde_json::json!("right");
    let bad: Game = serde_json::from_value(v).unwrap();
    assert_eq!(
        bad.check().unwrap_err().to_string(),
        "inconsistent game: unit `leg1` of command `left` is missing or elsewhere"
    );
}

#[test]
fn number_attributes_survive_json() {
    let mut s = schema();
    s.unit.insert(
        "move".into(),
        AttrDef::new(AttrType::Number {
            min: Some(0.0),
            max: None,
        }),
    );
    let mut g = game();
    g.set_schema(s).unwrap();
    g.set_attr("leg1", "move", Value::Int(4)).unwrap();
    assert_eq!(g.attr("leg1", "move"), Some(&Value::Num(4.0)));
    let back: Game = serde_json::from_str(&serde_json::to_string(&g).unwrap()).unwrap();
    assert_eq!(back, g);
}

#[test]
fn undo_restores_state_the_new_rules_would_refuse() {
    // Rules reloaded mid-game drop a marker and an attribute; undoing past that still works.
    let start = game();
    let mut g = start.clone();
    let mut set = ChangeSet::new();
    set.push(g.mark("leg1", "routed", None).unwrap());
    let mut s = g.schema().clone();
    s.markers.shift_remove("routed");
    s.unit.shift_remove("quality");
    set.push(g.set_schema(s).unwrap());
    set.push(g.unmark("leg1", "routed").unwrap());
    set.extend(g.remove("leg2").unwrap());
    assert!(g.mark("leg1", "routed", None).is_err());
    set.rollback(&mut g).unwrap();
    assert_eq!(g, start);
}

#[test]
fn turn_expiry_follows_a_turn_order_changed_by_initiative() {
    let mut g = game();
    for _ in 0..4 {
        g.advance().unwrap(); // -> round 1, britons' manoeuvre
    }
    assert_eq!(g.clock_text(), "round 1 · Britons' turn · manoeuvre phase");
    g.mark("war1", "disordered", Some(Expiry::EndOfOwnTurn))
        .unwrap();
    for _ in 0..4 {
        assert!(g.advance().unwrap().1.expired.is_empty()); // -> round 2 initiative
    }
    g.set_turn_order(&["britons"]).unwrap(); // britons won the initiative
    for _ in 0..3 {
        assert!(g.advance().unwrap().1.expired.is_empty());
    }
    assert_eq!(
        g.clock_text(),
        "round 2 · Britons' turn · close combat phase"
    );
    let (_, a) = g.advance().unwrap();
    assert_eq!(a.text, "round 2 · Romans' turn · manoeuvre phase");
    assert_eq!(
        a.expired.len(),
        1,
        "gone at the end of the britons' (first) turn"
    );
}

#[test]
fn changes_describe_themselves_for_undo_messages() {
    let mut g = game();
    let c = g.set_attr("war4", "sp", Value::Int(0)).unwrap();
    assert_eq!(c.to_string(), "war4 sp 6 → 0");
    assert_eq!(c.inverse().to_string(), "war4 sp 0 → 6");
    let c = g.mark("leg1", "suppressed", None).unwrap();
    assert_eq!(c.to_string(), "leg1 marked suppressed (end of round)");
    for _ in 0..7 {
        g.advance().unwrap();
    }
    let (c, _) = g.advance().unwrap();
    assert_eq!(
        c.to_string(),
        "clock round 1 step 8 → round 2 step 1 (expired: leg1 suppressed)"
    );
}

#[test]
fn completion_helpers_for_commands() {
    let g = game();
    assert_eq!(complete_id(&g, "scorp1"), ["scorp1", "scorp1a", "scorp1b"]);
    assert_eq!(complete_attr(&g, Kind::Unit, "s"), ["sp", "start_sp"]);
    assert_eq!(complete_value(&g, Kind::Unit, "quality", "E"), ["elite"]);
    assert_eq!(
        complete_value(&g, Kind::Unit, "general", ""),
        ["false", "true"]
    );
    assert_eq!(complete_marker(&g, "a"), ["activated", "ambush"]);
    assert_eq!(
        complete_expiry(&g, "turn:"),
        ["turn:britons", "turn:romans"]
    );
}

#[test]
fn a_club_night_board_of_240_units_stays_compact() {
    let mut g = Game::new(schema());
    for s in 0..4 {
        let side = format!("side{s}");
        g.add_side(&side, &format!("Side {s}")).unwrap();
        for c in 0..4 {
            let command = format!("{side}c{c}");
            g.add_command(&side, &command, &format!("Command {c}"))
                .unwrap();
            for u in 0..15 {
                let attrs = [("sp".to_string(), Value::Int(u % 7))];
                g.add_unit(&command, &format!("{command}u{u}"), "unit", attrs)
                    .unwrap();
            }
        }
    }
    let text = g.status().render(120);
    let lines = text.lines().count();
    assert!(lines <= 1 + 4 + 16 + 16 * 4, "{lines} lines:\n{text}");
    assert!(text.lines().all(|l| l.chars().count() <= 120), "{text}");
}

#[test]
fn typed_attribute_text_is_parsed_against_the_schema() {
    let s = schema();
    assert_eq!(
        s.parse_value(Kind::Unit, "sp", "5", "unit `x`"),
        Ok(Value::Int(5))
    );
    assert_eq!(
        s.parse_value(Kind::Unit, "weapons", "pilum, gladius", "unit `x`"),
        Ok(Value::List(vec!["pilum".into(), "gladius".into()]))
    );
    assert_eq!(
        s.parse_value(Kind::Side, "cinc", "1", "side `romans`")
            .unwrap_err()
            .to_string(),
        "unknown attribute `cinc` for side `romans` (did you mean `cinc_rating`?)"
    );
}

#[test]
fn units_away_from_the_board_show_where_they_are_and_leave_the_strength_total() {
    let src = "[attrs]\nsp = { type = \"int\", min = 0, max = 6, default = 6 }\n\
               off = { type = \"choice\", values = [\"no\", \"routed_off\"], default = \"no\" }\n\
               [status]\nstrength = \"sp\"\naway = { attr = \"off\", present = \"no\" }\n";
    let schema = crate::state::Schema::from_toml("s.toml", src).unwrap();
    let mut g = Game::new(schema);
    g.add_side("a", "A").unwrap();
    g.add_command("a", "c", "C").unwrap();
    g.add_unit("c", "u1", "U1", []).unwrap();
    g.add_unit("c", "u2", "U2", []).unwrap();
    g.set_attr("u2", "off", Value::Text("routed_off".into()))
        .unwrap();
    let status = g.status();
    let side = &status.sides[0];
    assert_eq!(side.strength.unwrap().value, 6.0);
    assert_eq!(
        side.commands[0].units[1].away.as_deref(),
        Some("routed_off")
    );
    assert!(status.render(80).contains("routed_off"));
    let bad = "[attrs]\nsp = { type = \"int\" }\n[status]\naway = { attr = \"gone\", present = \"no\" }\n";
    let err = crate::state::Schema::from_toml("s.toml", bad).unwrap_err();
    assert!(err.to_string().contains("gone"), "{err}");
}

// ---- elements: markers, naming, picking, moving ------------------------------------------

#[test]
fn elements_carry_markers_that_undo_and_expire_by_the_clock() {
    let mut g = game();
    let before = g.clone();
    let c = g.mark("scorp1a", "suppressed", None).unwrap();
    assert_eq!(g.markers_of("scorp1a").unwrap()[0].name, "suppressed");
    assert_eq!(c.to_string(), "scorp1a marked suppressed (end of round)");
    assert!(g.mark("scorp1a", "suppressed", None).is_err());
    // `own turn` on an element is its unit's side's turn.
    g.mark("scorp1b", "routed", Some(Expiry::EndOfOwnTurn))
        .unwrap();
    assert_eq!(
        g.element("scorp1b").unwrap().markers[0].expiry,
        Some(Expiry::EndOfTurn {
            side: Id::new("romans").unwrap()
        })
    );
    let u = g.unmark("scorp1b", "routed").unwrap();
    g.revert(&u).unwrap();
    g.unmark("scorp1b", "routed").unwrap();
    // The clock takes the element's marker off at the end of the round, and undoing the
    // advance puts it back.
    let mut expired = Vec::new();
    let mut advances = Vec::new();
    for _ in 0..g.steps().len() {
        let (c, a) = g.advance().unwrap();
        expired.extend(a.expired);
        advances.push(c);
    }
    assert_eq!(expired.len(), 1);
    assert_eq!(expired[0].unit.as_str(), "scorp1a");
    assert!(g.element("scorp1a").unwrap().markers.is_empty());
    g.undo_all(&advances).unwrap();
    assert_eq!(g.markers_of("scorp1a").unwrap().len(), 1);
    let e = g.unmark("scorp1a", "routed").unwrap_err();
    assert_eq!(
        msg(e),
        "`scorp1a` is not marked `routed` (it has `suppressed`)"
    );
    // Undoing everything gives back the game exactly.
    let mut g2 = before.clone();
    let c = g2.mark("scorp1a", "suppressed", None).unwrap();
    g2.revert(&c).unwrap();
    assert_eq!(g2, before);
    assert!(msg(g.mark("nobody", "routed", None).unwrap_err()).contains("no unit or element"));
}

#[test]
fn an_element_is_named_by_its_id_or_unit_dot_element() {
    let g = game();
    assert_eq!(g.find_element("scorp1a").unwrap().id.as_str(), "scorp1a");
    assert_eq!(
        g.find_element("scorp1.scorp1b").unwrap().id.as_str(),
        "scorp1b"
    );
    assert_eq!(g.find_element("scorp1.2").unwrap().id.as_str(), "scorp1b");
    let e = g.find_element("scorp1.scorp1c").unwrap_err();
    assert!(msg(e).contains("did you mean `scorp1.scorp1a`"), "{}", "x");
    assert!(g.find_element("scorp1.3").is_err());
    assert!(g.find_element("nobody.1").is_err());
    // Another unit's element is not found through this unit.
    assert!(g.find_element("leg1.scorp1a").is_err());
}

#[test]
fn a_units_elements_are_picked_by_attribute_marker_and_name() {
    let mut g = game();
    g.set_attr("scorp1b", "figures", Value::Int(0)).unwrap();
    g.mark("scorp1a", "routed", None).unwrap();
    let u = g.unit("scorp1").unwrap().clone();
    let pick = |g: &Game, s: &str| {
        Selector::parse(s)
            .unwrap()
            .pick_elements(g, &u)
            .map(|v| v.iter().map(|i| i.to_string()).collect::<Vec<_>>())
    };
    assert_eq!(pick(&g, "all").unwrap(), ["scorp1a", "scorp1b"]);
    assert_eq!(pick(&g, "figures>0").unwrap(), ["scorp1a"]);
    assert_eq!(pick(&g, "unmarked:routed").unwrap(), ["scorp1b"]);
    assert_eq!(
        pick(&g, "figures>0 unmarked:routed").unwrap(),
        Vec::<String>::new()
    );
    assert_eq!(pick(&g, "right").unwrap(), ["scorp1b"]);
    assert_eq!(pick(&g, "scorp1b,scorp1a").unwrap(), ["scorp1a", "scorp1b"]);
    assert!(msg(pick(&g, "side:romans").unwrap_err()).contains("picks units, not elements"));
    assert!(msg(pick(&g, "figurs>0").unwrap_err()).contains("did you mean `figures`"));
    assert!(pick(&g, "leg1a").is_err());
}

#[test]
fn units_and_elements_move_and_moving_back_undoes_it() {
    let mut g = game();
    let before = g.clone();
    let c = g.move_unit("scorp1", "britons-left").err();
    assert!(c.is_some(), "no such command");
    let britons_command = g.side("britons").unwrap().commands[0].to_string();
    let from_command = g.unit("scorp1").unwrap().command.to_string();
    let m = g.move_unit("scorp1", &britons_command).unwrap();
    assert_eq!(g.unit("scorp1").unwrap().side.as_str(), "britons");
    assert_eq!(
        m.to_string(),
        format!("unit scorp1 moved from {from_command} to {britons_command}")
    );
    assert!(
        g.commands[britons_command.as_str()]
            .units
            .last()
            .is_some_and(|u| u.as_str() == "scorp1")
    );
    assert!(msg(g.move_unit("scorp1", &britons_command).unwrap_err()).contains("already in"));
    // The change round-trips through JSON as the journal keeps it.
    let json = serde_json::to_string(&m).unwrap();
    assert_eq!(serde_json::from_str::<Change>(&json).unwrap(), m);
    g.revert(&m).unwrap();
    assert_eq!(g, before);
    let e = g.move_element("scorp1a", "leg1").unwrap();
    assert_eq!(g.element("scorp1a").unwrap().unit.as_str(), "leg1");
    assert_eq!(
        g.unit("leg1").unwrap().elements.last().unwrap().as_str(),
        "scorp1a"
    );
    g.revert(&e).unwrap();
    assert_eq!(g, before);
    // Removing a unit takes its elements with it; undone, all come back in place.
    let changes = g.remove("scorp1").unwrap();
    assert!(g.element("scorp1a").is_none());
    g.undo_all(&changes).unwrap();
    assert_eq!(g, before);
}

#[test]
fn games_saved_before_element_markers_still_load() {
    let old = r#"{"id":"e1","name":"E1","unit":"u1","attrs":{"figures":3}}"#;
    let e: Element = serde_json::from_str(old).unwrap();
    assert!(e.markers.is_empty());
    assert_eq!(serde_json::to_string(&e).unwrap(), old);
}

#[test]
fn the_element_strength_is_named_or_shared_with_units() {
    let mut s = schema();
    assert_eq!(s.element_strength(), None);
    s.status.element_strength = Some("figures".into());
    assert_eq!(s.element_strength(), Some("figures"));
    s.validate().unwrap();
    s.status.element_strength = Some("figurs".into());
    assert!(
        s.validate()
            .unwrap_err()
            .to_string()
            .contains("not an element attribute (did you mean `figures`?)")
    );
    let toml = SCHEMA.replace("[status]", "[status]\nelement_strength = \"figures\"");
    let s = Schema::from_toml("schema.toml", &toml).unwrap();
    assert_eq!(s.element_strength(), Some("figures"));
}

#[test]
fn an_attention_marker_must_be_declared() {
    let mut s = schema();
    s.status.attention = Some(crate::state::AttentionSpec {
        markers: vec!["routed".into()],
        ..Default::default()
    });
    s.validate().unwrap();
    let mut att = s.status.attention.clone().unwrap();
    att.unmarked.insert("routd".into(), vec!["move".into()]);
    s.status.attention = Some(att);
    let e = s.validate().unwrap_err().to_string();
    assert!(
        e.contains("status attention marker `routd` is not declared"),
        "{e}"
    );
    assert!(e.contains("did you mean `routed`?"), "{e}");
}
