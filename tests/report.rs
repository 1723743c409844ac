//! Battle reports (`report PATH`, `umpire report JOURNAL PATH`) and the umpire's notes: each
//! chart's numbers against figures worked out by hand from a fixed journal, the dice against
//! their exact odds, secrets kept out, the golden Markdown report of the example OLAB battle,
//! the HTML page opened in a real headless browser (when one is installed), and `log` as the
//! table saw it.

use std::path::{Path, PathBuf};

use umpire::dice::DiceBox;
use umpire::engine::Session;
use umpire::report::Battle;

fn session(journal: &Path, rules: Option<&Path>) -> Session {
    let mut game = umpire::state::Game::default();
    let (j, _) =
        umpire::journal::Journal::open(journal, &mut game, umpire::journal::Caps::DEFAULT).unwrap();
    let mut s = Session::with_journal(DiceBox::seeded(1), j, game);
    if let Some(r) = rules {
        s.set_rules_root(r.to_path_buf());
    }
    s
}

fn ok(s: &mut Session, line: &str) -> String {
    match s.execute(line, None).expect("a command") {
        Ok(out) => umpire::engine::render::output(&out, &umpire::engine::Palette::plain()),
        Err((_, e)) => panic!("`{line}` failed: {e}"),
    }
}

/// The fixed battle: Romans 30 and Britons 38 at the first roll; round 1: leg1 6 → 2, war1 6
/// → 0 (war2 6 → 3 undone); round 2: boudicca 5 → 1, leg1 2 → 4 (a gain); two queued 2d6
/// (7 and 12), one generated 1d6; two notes.
fn fixed_battle(dir: &Path) -> PathBuf {
    let path = dir.join("watling.jsonl");
    let mut s = session(&path, None);
    let examples = crate::common::repo().join("examples/data");
    for line in [
        format!("schema load {}", examples.join("schema.toml").display()),
        format!("army load {}", examples.join("romans.toml").display()),
        format!("army load {}", examples.join("britons.toml").display()),
        "note the river is in flood: fords only".to_string(),
        "dice queue 3 4".to_string(),
        "roll 2d6".to_string(),
        "set leg1 sp 2".to_string(),
        "set war1 sp 0".to_string(),
        "set war2 sp 3".to_string(),
        "undo".to_string(),
    ] {
        ok(&mut s, &line);
    }
    for _ in 0..8 {
        ok(&mut s, "next");
    }
    for line in [
        "dice queue 6 6",
        "roll 2d6",
        "set boudicca sp 1",
        "set leg1 sp 4",
        "note the Romans rally on the hill",
        "roll 1d6",
    ] {
        ok(&mut s, line);
    }
    path
}

#[test]
fn each_charts_numbers_are_the_figures_of_the_fixed_journal() {
    let dir = tempfile::tempdir().unwrap();
    let path = fixed_battle(dir.path());
    let b = umpire::report::from_file(&path, umpire::journal::Caps::DEFAULT).unwrap();
    assert_eq!(b.name, "watling");
    assert_eq!(b.sides, ["Romans", "Britons"]);
    assert_eq!(b.undone, 1);
    // Forces at the first roll, as `status` shows them.
    let strength: Vec<_> = b.forces.iter().map(|f| f.strength.clone()).collect();
    assert_eq!(
        strength,
        [Some("30/30".to_string()), Some("38/38".to_string())]
    );
    assert_eq!(b.forces[0].units[0].id, "leg1");
    assert_eq!(b.forces[0].units[0].strength.as_deref(), Some("6/6"));
    // Strength over time: the start, then after each of the 16 commands from the first roll.
    let series: Vec<(u32, Vec<f64>)> = b
        .samples
        .iter()
        .map(|s| (s.round, s.strength.clone()))
        .collect();
    let mut expected = vec![
        (1, vec![30.0, 38.0]), // start
        (1, vec![30.0, 38.0]), // roll 2d6
        (1, vec![26.0, 38.0]), // leg1 6 → 2
        (1, vec![26.0, 32.0]), // war1 6 → 0 (war2 undone: not there)
    ];
    expected.extend(std::iter::repeat_n((1, vec![26.0, 32.0]), 8)); // next ×8
    expected.extend([
        (2, vec![26.0, 32.0]), // roll 2d6
        (2, vec![26.0, 28.0]), // boudicca 5 → 1
        (2, vec![28.0, 28.0]), // leg1 2 → 4
        (2, vec![28.0, 28.0]), // note
        (2, vec![28.0, 28.0]), // roll 1d6
    ]);
    assert_eq!(series, expected);
    // Casualties by side and round: losses only (leg1's gain is not a casualty).
    let casualties: Vec<(u32, Vec<f64>)> = b
        .casualties
        .iter()
        .map(|c| (c.round, c.lost.clone()))
        .collect();
    assert_eq!(casualties, [(1, vec![4.0, 6.0]), (2, vec![0.0, 4.0])]);
    // Turning points: the largest total change, ties in order of play.
    let turning: Vec<(&str, f64)> = b
        .turning_points
        .iter()
        .map(|t| (t.command.as_str(), t.total))
        .collect();
    assert_eq!(
        turning,
        [
            ("set war1 sp 0", 6.0),
            ("set leg1 sp 2", 4.0),
            ("set boudicca sp 1", 4.0)
        ]
    );
    // Rounds: the undone command is left out; notes in their place.
    let round1: Vec<&str> = b.rounds[0]
        .entries
        .iter()
        .map(|e| e.command.as_str())
        .collect();
    assert!(!round1.contains(&"set war2 sp 3"), "{round1:?}");
    assert_eq!(
        b.setup.last().unwrap().note.as_deref(),
        Some("the river is in flood: fords only")
    );
    let notes: Vec<_> = b.rounds[1]
        .entries
        .iter()
        .filter_map(|e| e.note.clone())
        .collect();
    assert_eq!(notes, ["the Romans rally on the hill"]);
    // The dice: two queued 2d6 (7, 12), one generated 1d6.
    let kinds: Vec<(&str, u64)> = b.dice.iter().map(|k| (k.expr.as_str(), k.count)).collect();
    assert_eq!(kinds, [("2d6", 2), ("1d6", 1)]);
    let two = &b.dice[0];
    assert_eq!(two.mean, 9.5);
    assert_eq!(two.sources.len(), 1);
    assert_eq!((two.sources[0].source, two.sources[0].count), ("queued", 2));
    assert_eq!(two.z, None, "queued dice are no luck to judge");
    assert_eq!(b.dice[1].sources[0].source, "generated");
    // The charts are drawn from those numbers: one line a side, one bar a side and round.
    let charts = umpire::report::render::charts(&b).unwrap();
    let strength = charts.strength.unwrap();
    assert!(strength.matches("<polyline").count() >= 2, "{strength}");
    let casualties = charts.casualties.unwrap();
    assert!(casualties.contains("Romans") && casualties.contains("Britons"));
    assert_eq!(charts.dice.len(), 2);
}

#[test]
fn dice_against_expected_uses_the_exact_distribution() {
    let d = umpire::report::dice::exact("2d6").unwrap();
    let p7 = d.outcomes.iter().find(|o| o.0 == 7.0).unwrap().1;
    assert!((p7 - 6.0 / 36.0).abs() < 1e-12, "{p7}");
    let dir = tempfile::tempdir().unwrap();
    let b = umpire::report::from_file(&fixed_battle(dir.path()), umpire::journal::Caps::DEFAULT)
        .unwrap();
    let two = b.dice.iter().find(|k| k.expr == "2d6").unwrap();
    let seven = two.outcomes.iter().find(|o| o.value == 7.0).unwrap();
    assert_eq!(seven.total, 1);
    assert!((seven.probability.unwrap() - 6.0 / 36.0).abs() < 1e-12);
    assert!((seven.expected.unwrap() - 2.0 * 6.0 / 36.0).abs() < 1e-12);
    // Every total 2d6 can show is listed, those never rolled too, and the odds add up to 1.
    let values: Vec<f64> = two.outcomes.iter().map(|o| o.value).collect();
    assert_eq!(values, (2..=12).map(f64::from).collect::<Vec<_>>());
    let sum: f64 = two.outcomes.iter().filter_map(|o| o.probability).sum();
    assert!((sum - 1.0).abs() < 1e-12);
    assert!((two.expected_mean.unwrap() - 7.0).abs() < 1e-12);
}

#[test]
fn the_shell_writes_the_battle_so_far_and_notes_are_undoable() {
    let dir = tempfile::tempdir().unwrap();
    let path = fixed_battle(dir.path());
    let mut s = session(&path, None);
    let md = dir.path().join("so-far.md");
    let out = ok(&mut s, &format!("report {}", md.display()));
    assert!(
        out.contains("report of `watling` (20 commands, 2 rounds)"),
        "{out}"
    );
    let text = std::fs::read_to_string(&md).unwrap();
    assert!(text.contains("> **Umpire's note**"), "{text}");
    assert!(text.contains("![Strength on the board](so-far-strength.svg)"));
    assert!(dir.path().join("so-far-strength.svg").exists());
    // A note is one transaction: `undo` takes it back, and the report leaves it out.
    assert!(ok(&mut s, "note the ford is held").contains("note 3: the ford is held"));
    ok(&mut s, "undo");
    let html = dir.path().join("so-far.html");
    ok(&mut s, &format!("report {}", html.display()));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(!page.contains("the ford is held"));
    assert!(page.contains("the Romans rally on the hill"));
    // What the table typed is text on the page, never markup.
    ok(&mut s, "note <script>alert(1)</script> & <b>so on</b>");
    ok(&mut s, &format!("report {}", html.display()));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(
        !page.contains("<script>") && !page.contains("<b>so on"),
        "{page}"
    );
    assert!(page.contains("&lt;script&gt;alert(1)&lt;&#x2f;script&gt; &amp; &lt;b&gt;so on"));
    // Another extension is refused, naming the two.
    let err = match s.execute("report night.pdf", None).unwrap() {
        Err((_, e)) => e.to_string(),
        Ok(_) => panic!("a .pdf report was written"),
    };
    assert!(err.contains("Markdown or HTML"), "{err}");
}

#[test]
fn an_ambush_not_yet_sprung_keeps_its_hiding_place_out_of_the_report() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("isandlwana.jsonl");
    let mut s = session(&path, Some(crate::common::shipped()));
    for line in [
        "ruleset use olab --house ambushes",
        "add side zulus Zulus",
        "add side british British",
        "add command zulus z1 Horns",
        "add command british b1 Column",
        "add unit b1 inf1 Line1 type=INF/U sp=4 sp_start=4",
    ] {
        ok(&mut s, line);
    }
    for i in 1..=3 {
        ok(
            &mut s,
            &format!("add unit z1 wbd{i} Warband{i} type=WBD sp=5 sp_start=5"),
        );
    }
    ok(&mut s, "ambush wbd1,wbd2 the donga below the hill");
    ok(&mut s, "roll 1d6");
    ok(&mut s, "enter inf1 the kraal");
    for ext in ["md", "html"] {
        let report = dir.path().join(format!("isandlwana.{ext}"));
        ok(&mut s, &format!("report {}", report.display()));
        let text = std::fs::read_to_string(&report).unwrap();
        assert!(text.contains("ambush wbd1,wbd2 ‹secret›"), "{text}");
        assert!(text.contains("1d6"), "what the table saw stays in");
        for word in ["donga", "below the hill"] {
            assert!(
                !text.contains(word),
                "`{word}` in the .{ext} report:\n{text}"
            );
        }
    }
    // Sprung, it is told as the table saw it.
    ok(&mut s, "enter inf1 the donga below the hill");
    let report = dir.path().join("sprung.md");
    ok(&mut s, &format!("report {}", report.display()));
    let text = std::fs::read_to_string(&report).unwrap();
    assert!(text.contains("appears from ambush in the donga"), "{text}");
}

/// The example OLAB battle's journal (`--seed 7`), in `dir`.
fn olab_battle(dir: &Path) -> PathBuf {
    let journal = dir.join("olab_battle.jsonl");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args(["--seed", "7", "--no-color", "--journal"])
        .arg(&journal)
        .args(["run", "examples/olab/battle.umpire"])
        .current_dir(crate::common::shipped())
        .env("UMPIRE_HISTORY", "/nonexistent/never-used")
        .env_remove("UMPIRE_JOURNAL")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    journal
}

fn umpire_report(journal: &Path, report: &Path) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_umpire"))
        .arg("report")
        .arg(journal)
        .arg(report)
        .output()
        .unwrap()
}

#[test]
fn golden_markdown_report_of_the_example_olab_battle() {
    let dir = tempfile::tempdir().unwrap();
    let journal = olab_battle(dir.path());
    let md = dir.path().join("olab_battle.md");
    let o = umpire_report(&journal, &md);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(said.contains("(and 4 chart files beside it)"), "{said}");
    // The date is the day the test runs.
    let text: String = std::fs::read_to_string(&md)
        .unwrap()
        .lines()
        .map(|l| match l.strip_prefix("- **Date**: ") {
            Some(_) => "- **Date**: [DATE]\n".to_string(),
            None => format!("{l}\n"),
        })
        .collect();
    let expected = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/report/olab_battle.md");
    snapbox::Assert::new()
        .action_env(snapbox::assert::DEFAULT_ACTION_ENV)
        .normalize_paths(false)
        .eq(text, snapbox::Data::read_from(&expected, None));
}

#[test]
fn a_report_is_refused_for_an_unknown_format_and_a_missing_journal() {
    let dir = tempfile::tempdir().unwrap();
    let o = umpire_report(&dir.path().join("none.jsonl"), &dir.path().join("r.md"));
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("could not be read"));
    let o = umpire_report(&dir.path().join("none.jsonl"), &dir.path().join("r.pdf"));
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("Markdown (`.md`) or HTML (`.html`)"));
}

#[test]
fn journals_written_before_reports_make_reports_too() {
    let dir = tempfile::tempdir().unwrap();
    let old =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/journals/before-head-record.jsonl");
    let journal = dir.path().join("old.jsonl");
    std::fs::copy(old, &journal).unwrap();
    let html = dir.path().join("old.html");
    let o = umpire_report(&journal, &html);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(
        page.contains("<h1>old</h1>") && page.contains("<svg"),
        "{page}"
    );
    // The journal is only read: no head record or snapshot written beside it.
    assert!(!umpire::journal::head_path(&journal).exists());
}

/// Fails if `page` asks for anything from outside itself (a script, a stylesheet, an image).
fn assert_self_contained(page: &str) {
    for remote in [
        "src=\"http",
        "href=\"http",
        "<script",
        "<link",
        "@import",
        "url(",
    ] {
        assert!(!page.contains(remote), "`{remote}` in the page");
    }
}

/// The page at `html` as a headless browser builds it (its profile in `dir`).
fn dom_of(chrome: &Path, dir: &Path, html: &Path) -> String {
    let run = crate::browser::headless(
        chrome,
        &dir.join("profile"),
        &["--dump-dom".into()],
        &format!("file://{}", html.display()),
    );
    assert!(run.success, "{}", run.stderr);
    run.stdout
}

#[test]
fn the_html_report_draws_its_charts_in_a_real_browser() {
    let Some(chrome) = crate::browser::find() else {
        eprintln!("skipped: no headless browser (chromium, google-chrome) on PATH");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let journal = olab_battle(dir.path());
    let html = dir.path().join("olab_battle.html");
    let o = umpire_report(&journal, &html);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let page = std::fs::read_to_string(&html).unwrap();
    // Self-contained: nothing fetched from anywhere.
    assert_self_contained(&page);
    let dom = dom_of(&chrome, dir.path(), &html);
    for id in ["strength-chart", "casualties-chart"] {
        let at = dom
            .find(&format!("id=\"{id}\""))
            .unwrap_or_else(|| panic!("no {id}:\n{dom}"));
        let chart = &dom[at..];
        let chart = &chart[..chart.find("</figure>").unwrap()];
        assert!(chart.contains("<svg"), "{id} has no svg");
        assert!(
            chart.contains("<polyline") || chart.contains("<path"),
            "{id} drew no path"
        );
    }
    assert!(dom.contains("<rect"), "no bars drawn");
}

#[test]
fn log_shows_what_was_printed_and_keeps_the_bookkeeping_for_all() {
    let dir = tempfile::tempdir().unwrap();
    let path = fixed_battle(dir.path());
    let mut s = session(&path, None);
    let log = ok(&mut s, "log 30");
    // Loading an army is one line, not its units' defaults.
    assert!(log.contains("army load"), "{log}");
    assert!(
        log.contains("  loaded ") && log.contains("romans.toml: 6 units"),
        "{log}"
    );
    assert!(!log.contains("sp default"), "{log}");
    assert!(!log.contains("store umpire.notes"), "{log}");
    // What was printed: the dice as the table saw them, undone commands marked.
    assert!(log.contains("  2d6 (3, 4) = 7"), "{log}");
    assert!(log.contains("set war2 sp 3  (undone)"), "{log}");
    assert!(
        log.contains("  note 2: the Romans rally on the hill"),
        "{log}"
    );
    // One command by its number.
    let one = ok(&mut s, "log #5");
    assert_eq!(one, "#5 roll 2d6\n  2d6 (3, 4) = 7  · queue");
    let all = ok(&mut s, "log 2 all");
    assert!(all.contains("store umpire.notes.0002 = "), "{all}");
}

#[test]
fn a_campaign_battles_report_gives_its_result_and_what_carries_over() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("revolt");
    let mut s = Session::new(DiceBox::seeded(1));
    s.set_rules_root(crate::common::shipped().to_path_buf());
    for line in [
        "ruleset use olab".to_string(),
        "army load examples/olab/romans.toml".to_string(),
        "army load examples/olab/britons.toml".to_string(),
        "option set canister adds".to_string(),
        format!("campaign new {} Boudicca's revolt", dir.display()),
        "battle new watling".to_string(),
        "roll 1d6".to_string(),
        "set leg1 sp 3".to_string(),
        "note the legion holds the road".to_string(),
        "battle end romans win".to_string(),
    ] {
        ok(&mut s, &line);
    }
    let md = tmp.path().join("watling.md");
    ok(&mut s, &format!("report {}", md.display()));
    let text = std::fs::read_to_string(&md).unwrap();
    for part in [
        "# watling",
        "- **Rules**: olab",
        "- **Options**: canister = adds",
        "Battle ended: **watling: ",
        "What carries over to the campaign:",
        "> **Umpire's note**",
        "`set leg1 sp 3` · Suetonius' Romans −4",
    ] {
        assert!(text.contains(part), "{part}\nnot in\n{text}");
    }
    // From the command line, the battle's journal in the campaign gives the same report.
    let again = tmp.path().join("again.md");
    let o = umpire_report(&dir.join("battles/watling.jsonl"), &again);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let other = std::fs::read_to_string(&again)
        .unwrap()
        .replace("again-", "watling-");
    assert_eq!(other, text);
}

#[test]
fn a_command_for_the_umpire_only_shows_its_public_line_and_nothing_it_printed() {
    use umpire::journal::{Record, Transaction};
    let tx = |command: &str, public: Option<&str>, umpire_only: bool, output: &str| {
        Record::Tx(Transaction {
            by: None,
            command: command.into(),
            public: public.map(Into::into),
            umpire_only,
            rolls: Vec::new(),
            changes: Vec::new(),
            reasons: Vec::new(),
            output: output.into(),
            generation: 0,
            rules: None,
            answers: Vec::new(),
            at: 1_795_559_416,
        })
    };
    let records = [
        tx("plot the donga", Some("plot ‹secret›"), false, "plotted"),
        tx("whisper", None, true, "the donga below the hill"),
    ];
    let b = Battle::build(
        "night".into(),
        records.iter().enumerate().map(|(i, r)| (i as u64 + 1, r)),
        &[1, 2],
    )
    .unwrap();
    let md = umpire::report::render::markdown(&b, "night").unwrap().0;
    let html = umpire::report::render::html(&b).unwrap();
    for text in [&md, &html] {
        assert!(!text.contains("donga"), "{text}");
        assert!(
            text.contains("plot ‹secret›") && text.contains("whisper"),
            "{text}"
        );
        assert!(text.contains("(for the umpire only)"), "{text}");
    }
}

#[test]
fn the_campaign_report_draws_its_chart_in_a_real_browser() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("revolt");
    drop(crate::campaign::two_battle_campaign(&dir));
    // From the command line: a campaign folder gives the campaign report.
    let html = tmp.path().join("revolt.html");
    let o = umpire_report(&dir, &html);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("campaign report of `Boudicca's revolt`"),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let page = std::fs::read_to_string(&html).unwrap();
    assert_self_contained(&page);
    let Some(chrome) = crate::browser::find() else {
        eprintln!("skipped: no headless browser (chromium, google-chrome) on PATH");
        return;
    };
    let dom = dom_of(&chrome, tmp.path(), &html);
    let at = dom
        .find("id=\"campaign-chart\"")
        .unwrap_or_else(|| panic!("no campaign chart:\n{dom}"));
    let chart = &dom[at..];
    let chart = &chart[..chart.find("</figure>").unwrap()];
    assert!(chart.contains("<svg"), "the chart has no svg");
    assert!(
        chart.contains("<polyline") || chart.contains("<path"),
        "the chart drew no line"
    );
    assert!(chart.contains("<circle"), "the chart drew no points");
    assert!(dom.contains("watling: fell in round 1, returned; mona: stood"));
}

#[test]
fn the_dice_are_split_by_the_side_that_rolled_them() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("duel.jsonl");
    let mut s = session(&path, Some(crate::common::shipped()));
    for line in [
        "ruleset use demo",
        "add side red Red",
        "add side blue Blue",
        "add command red r1 R",
        "add command blue b1 B",
        "add unit r1 archers Archers",
        "add unit b1 slingers Slingers",
    ] {
        ok(&mut s, line);
    }
    // The demo's `shoot` says who rolls (`c:roll(…, args.firer)`); `roll` names nobody.
    for _ in 0..5 {
        ok(&mut s, "shoot archers 0");
        ok(&mut s, "shoot slingers 0");
        ok(&mut s, "shoot slingers 0");
    }
    ok(&mut s, "roll 1d6");
    drop(s);
    // Worked out from the journal's records: each command's 1d6 total, by who shot.
    let (records, _) =
        umpire::journal::read_file::<umpire::journal::Record>(&path, Default::default()).unwrap();
    let mut red = Vec::new();
    let mut blue = Vec::new();
    let mut nobody = Vec::new();
    for r in &records {
        let umpire::journal::Record::Tx(tx) = r else {
            continue;
        };
        let Some(roll) = tx.rolls.first() else {
            continue;
        };
        match tx.command.as_str() {
            "shoot archers 0" => {
                assert_eq!(
                    roll.by.as_deref(),
                    Some("archers"),
                    "the journal keeps who rolled"
                );
                red.push(roll.total)
            }
            "shoot slingers 0" => blue.push(roll.total),
            _ => nobody.push(roll.total),
        }
    }
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let b = umpire::report::from_file(&path, Default::default()).unwrap();
    let d6 = b.dice.iter().find(|k| k.expr == "1d6").unwrap();
    let rows: Vec<(Option<&str>, &str, u64, f64)> = d6
        .sides
        .iter()
        .map(|r| (r.side.as_deref(), r.source, r.count, r.mean))
        .collect();
    assert_eq!(
        rows,
        [
            (Some("Red"), "generated", 5, mean(&red)),
            (Some("Blue"), "generated", 10, mean(&blue)),
            (None, "generated", 1, mean(&nobody)),
        ]
    );
    // Each side's luck is judged against the exact odds of 1d6 (mean 3.5, sd √(35/12)).
    let z = (mean(&blue) - 3.5) / ((35.0_f64 / 12.0).sqrt() / 10.0_f64.sqrt());
    assert!((d6.sides[1].z.unwrap() - z).abs() < 1e-9);
    // All kinds together (one kind here, so the same z), the rolls of no side left out.
    let luck: Vec<(&str, u64)> = b.luck.iter().map(|l| (l.side.as_str(), l.rolls)).collect();
    assert_eq!(luck, [("Red", 5), ("Blue", 10)]);
    assert!((b.luck[1].z.unwrap() - z).abs() < 1e-9);

    // A roll the rules did not say the roller of counts for the first unit the command names.
    let umpire::journal::Record::Tx(shot) = records
        .iter()
        .rev()
        .find(|r| matches!(r, umpire::journal::Record::Tx(t) if t.command == "shoot slingers 0"))
        .unwrap()
    else {
        unreachable!()
    };
    let mut unsaid = (*shot).clone();
    unsaid.rolls[0].by = None;
    unsaid.command = "volley archers slingers".into();
    let mut game = umpire::state::Game::default();
    for r in &records {
        if let umpire::journal::Record::Tx(tx) = r {
            game.apply_all(&tx.changes).unwrap();
        }
    }
    assert_eq!(
        umpire::report::dice::sides_of(&game, &unsaid),
        [Some("Red".to_string())]
    );
    unsaid.command = "roll 1d6".into();
    assert_eq!(umpire::report::dice::sides_of(&game, &unsaid), [None]);
}

/// The ruleset of secrets the live board is tested with.
const SECRET_MARKERS: &str = include_str!("data/secrets.lua");

#[test]
fn a_secret_marker_and_a_hidden_unit_stay_out_of_the_report_until_revealed() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("rulesets/sec")).unwrap();
    std::fs::write(dir.path().join("rulesets/sec/init.lua"), SECRET_MARKERS).unwrap();
    let path = dir.path().join("night.jsonl");
    let mut s = session(&path, Some(dir.path()));
    for line in [
        "ruleset use sec",
        "add side red Red",
        "add command red r1 Riders",
        "add unit r1 lh1 Horse",
        "add unit r1 lh2 Ambushers",
        "add unit r1 lh3 Scouts",
        "mark lh2 lurking",
        "roll 1d6",
        "mark lh3 spotted",
        "mark lh3 shaken",
        "set lh2 sp 3",
    ] {
        ok(&mut s, line);
    }
    let report = dir.path().join("night.md");
    ok(&mut s, &format!("report {}", report.display()));
    let text = std::fs::read_to_string(&report).unwrap();
    for secret in ["spotted", "lurking", "lh2", "Ambushers"] {
        assert!(
            !text.contains(secret),
            "the report shows {secret:?}:\n{text}"
        );
    }
    assert!(
        text.contains("mark lh3 shaken"),
        "what the players saw stays in:\n{text}"
    );
    assert!(text.contains("mark lh3 ‹secret›"), "{text}");
    // Revealed (the hiding marker taken off), the unit and what was done to it are told.
    ok(&mut s, "unmark lh2 lurking");
    ok(&mut s, &format!("report {}", report.display()));
    let text = std::fs::read_to_string(&report).unwrap();
    assert!(text.contains("set lh2 sp 3"), "{text}");
    assert!(
        !text.contains("spotted"),
        "a secret marker stays secret:\n{text}"
    );
}
