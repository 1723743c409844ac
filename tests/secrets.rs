//! Secrets: what a rule declares `secret` is kept in the journal as the umpire's record and
//! masked wherever the players may see the command.

use umpire::dice::DiceBox;
use umpire::engine::Session;
use umpire::journal::Record;

const RULES: &str = r#"
umpire.ruleset {
  name = "sec", doc = "secrets under test",
  schema = {
    unit = { sp = { type = "int", min = 0, max = 6, default = 4 } },
    markers = {
      hidden = { doc = "off the players' board", hides = true },
      spotted = { doc = "the umpire knows where it is", secret = true },
      shaken = "plain to see",
    },
    status = { strength = "sp", max = 6 },
  },
}
umpire.command {
  name = "hide",
  args = {
    { name = "unit", type = "unit" },
    { name = "place", type = "text", secret = true },
    { name = "force", type = "flag" },
  },
  run = function(ctx, args)
    store.hidden = (store.hidden or 0) + 1
    secret.place = args.place
    return "hidden; the place is kept secret"
  end,
}
umpire.command { name = "where", secret = true, run = function() return "umpire only: " .. tostring(secret.place) end }
"#;

fn session(journal: &std::path::Path) -> (tempfile::TempDir, Session) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("rulesets/sec")).unwrap();
    std::fs::create_dir_all(dir.path().join("scripts")).unwrap();
    std::fs::write(dir.path().join("rulesets/sec/init.lua"), RULES).unwrap();
    let mut game = umpire::state::Game::default();
    let (j, _) =
        umpire::journal::Journal::open(journal, &mut game, umpire::journal::Caps::DEFAULT).unwrap();
    let mut s = Session::with_journal(DiceBox::seeded(1), j, game);
    s.set_rules_root(dir.path().to_path_buf());
    (dir, s)
}

fn ok(s: &mut Session, line: &str) -> String {
    match s.execute(line, None).expect("a command") {
        Ok(out) => umpire::engine::render::output(&out, &umpire::engine::Palette::plain()),
        Err((_, e)) => panic!("`{line}` failed: {e}"),
    }
}

#[test]
fn a_secret_argument_is_journalled_whole_and_masked_in_log_and_undo() {
    let j = tempfile::tempdir().unwrap();
    let path = j.path().join("g.jsonl");
    let (_dir, mut s) = session(&path);
    for l in [
        "ruleset use sec",
        "add side red Red",
        "add command red r1 R",
        "add unit r1 lh1 Horse",
    ] {
        ok(&mut s, l);
    }
    let out = s
        .execute("hide lh1 the wood by the river force", None)
        .unwrap()
        .unwrap();
    let json = out.to_json();
    assert_eq!(json["public"], "hide lh1 ‹secret› force", "{json}");
    assert!(ok(&mut s, "where").contains("umpire only: the wood by the river"));
    let log = ok(&mut s, "log 1 all");
    assert!(log.contains("hide lh1 ‹secret› force"), "{log}");
    assert!(log.contains("secret sec.place set (‹secret›)"), "{log}");
    assert!(!log.contains("wood"), "{log}");
    let undo = ok(&mut s, "undo");
    assert!(!undo.contains("wood"), "{undo}");
    // The journal keeps the umpire's record: the whole line, and the line for the players.
    let text = std::fs::read_to_string(&path).unwrap();
    let tx = text
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| serde_json::from_value::<Record>(v["entry"].clone()).ok())
        .find_map(|r| match r {
            Record::Tx(t) if t.command.starts_with("hide") => Some(t),
            _ => None,
        })
        .expect("the hide transaction");
    assert_eq!(tx.command, "hide lh1 the wood by the river force");
    assert_eq!(tx.public_command(), "hide lh1 ‹secret› force");
    assert!(
        text.contains(r#""script":"secret:sec","key":"place""#)
            && text.contains("the wood by the river"),
        "the journal keeps the secret store's value"
    );
}

#[test]
fn a_secret_command_is_marked_for_the_umpire_only_and_a_bad_secret_key_is_refused() {
    let j = tempfile::tempdir().unwrap();
    let (dir, mut s) = session(&j.path().join("g.jsonl"));
    ok(&mut s, "ruleset use sec");
    let out = s.execute("where", None).unwrap().unwrap();
    assert_eq!(out.to_json()["umpire_only"], true);
    std::fs::write(
        dir.path().join("rulesets/sec/init.lua"),
        "umpire.ruleset { name = \"sec\", doc = \"d\" }\numpire.command { name = \"w\", args = { { name = \"x\", type = \"int\", secret = \"yes\" } }, run = function() end }\n",
    )
    .unwrap();
    let e = match s.execute("reload", None).unwrap() {
        Ok(_) => panic!("a bad `secret` must not load"),
        Err((_, e)) => e.to_string(),
    };
    assert!(e.contains("`secret`") && e.contains("true or false"), "{e}");
}

#[test]
fn a_secret_never_reaches_the_board_or_its_json_and_the_umpire_still_sees_it_marked() {
    let j = tempfile::tempdir().unwrap();
    let (_dir, mut s) = session(&j.path().join("g.jsonl"));
    for l in [
        "ruleset use sec",
        "add side red Red",
        "add command red r1 R",
        "add unit r1 lh1 Horse",
        "add unit r1 ghost Scouts sp=2",
        "mark lh1 spotted",
        "mark lh1 shaken",
        "mark ghost hidden",
    ] {
        ok(&mut s, l);
    }
    for line in [
        "status",
        "status lh1",
        "status ghost",
        "status side:red",
        "status all",
    ] {
        let out = s.execute(line, None).unwrap().unwrap();
        let text = umpire::engine::render::output(&out, &umpire::engine::Palette::plain());
        let json = out.to_json().to_string();
        for secret in ["spotted", "ghost", "Scouts", "hidden"] {
            assert!(!text.contains(secret), "`{line}` shows {secret}: {text}");
            assert!(!json.contains(secret), "`{line}` JSON has {secret}: {json}");
        }
        assert!(
            text.contains("shaken") || line == "status ghost",
            "{line}: {text}"
        );
    }
    // The hidden unit's strength is not counted either: only lh1's 4 of 6.
    let board = ok(&mut s, "status");
    assert!(board.contains("4/6"), "{board}");
    // `show` is the umpire's: secret markers are there, marked.
    let shown = ok(&mut s, "show lh1 ghost");
    assert!(shown.contains("spotted (secret)"), "{shown}");
    assert!(shown.contains("hidden (secret)"), "{shown}");
    // Revealed: the marker taken off, the unit is back on the board.
    ok(&mut s, "unmark ghost hidden");
    assert!(ok(&mut s, "status").contains("ghost"));
}

#[test]
fn a_schema_file_declares_secret_and_hiding_markers() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("schema.toml");
    std::fs::write(
        &file,
        "[markers.hidden]\ndoc = \"off the board\"\nhides = true\n[markers.spotted]\nsecret = true\n",
    )
    .unwrap();
    let mut s = Session::new(DiceBox::seeded(1));
    ok(&mut s, &format!("schema load {}", file.display()));
    for l in [
        "add side red Red",
        "add command red r1 R",
        "add unit r1 a A",
        "mark a spotted",
    ] {
        ok(&mut s, l);
    }
    assert!(!ok(&mut s, "status").contains("spotted"));
    std::fs::write(&file, "[markers.hidden]\nhides = \"yes\"\n").unwrap();
    let e = match s
        .execute(&format!("schema load {}", file.display()), None)
        .unwrap()
    {
        Ok(_) => panic!("`hides = \"yes\"` must be refused"),
        Err((_, e)) => e.to_string(),
    };
    assert!(e.contains("true or false"), "{e}");
}
