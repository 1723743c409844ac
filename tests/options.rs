//! Options (`umpire.option{…}`, `option list/set/reset`): declared by the rules, read by them,
//! changed mid-game as journalled, undoable changes, kept when a game is continued, and
//! declarations checked when the rules load.

use std::path::Path;

use crate::common::umpire_timed;
use umpire::dice::DiceBox;
use umpire::engine::Session;

/// A ruleset `opt` with three options and a command `reading` that prints their values.
const RULES: &str = r#"
umpire.ruleset { name = "opt", doc = "options under test" }
umpire.option {
  name = "ties", default = "reroll",
  choices = { { "reroll", "roll again" }, { "nobody", "nobody wins" }, { "both_lose", "both lose" } },
  doc = "what a tied test does", rule = "1.3",
}
umpire.option { name = "bonus", default = 2, doc = "the charge bonus", rule = "4.2" }
umpire.option { name = "strict", default = false, doc = "refuse moves over 12\"" }
umpire.command {
  name = "reading",
  run = function()
    return umpire.option("ties") .. " " .. umpire.option("bonus") .. " " .. tostring(umpire.option("strict"))
  end,
}
umpire.command { name = "unknown", run = function() return umpire.option("tie") end }
umpire.table { name = "weather", dice = "1d6", rows = { { "1-3", "rain" }, { "4-6", "sun" } } }
umpire.command {
  name = "loaded",
  run = function()
    local o = umpire.options()
    return umpire.ruleset_name() .. ": " .. table.concat(umpire.tables(), ",") .. "; ties=" .. o.ties
      .. " bonus=" .. o.bonus
  end,
}
"#;

/// A folder of rules holding `rulesets/opt/init.lua` = `init`.
fn rules(init: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("rulesets/opt")).unwrap();
    std::fs::create_dir_all(dir.path().join("scripts")).unwrap();
    std::fs::write(dir.path().join("rulesets/opt/init.lua"), init).unwrap();
    dir
}

fn session(root: &Path) -> Session {
    let mut s = Session::new(DiceBox::seeded(1));
    s.set_rules_root(root.to_path_buf());
    ok(&mut s, "ruleset use opt");
    s
}

fn ok(s: &mut Session, line: &str) -> String {
    match s.execute(line, None).expect("a command") {
        Ok(out) => umpire::engine::render::output(&out, &umpire::engine::Palette::plain()),
        Err((_, e)) => panic!("`{line}` failed: {e}"),
    }
}

fn fails(s: &mut Session, line: &str) -> String {
    match s.execute(line, None).expect("a command") {
        Ok(_) => panic!("`{line}` should have failed"),
        Err((_, e)) => {
            umpire::engine::render::error(&e, line, None, &umpire::engine::Palette::plain())
        }
    }
}

#[test]
fn the_rules_read_the_defaults_then_what_the_umpire_set_and_undo_puts_them_back() {
    let dir = rules(RULES);
    let mut s = session(dir.path());
    assert_eq!(ok(&mut s, "reading"), "reroll 2 false");
    let list = ok(&mut s, "option list");
    assert!(list.contains("ties = reroll  (recommended)"), "{list}");
    assert!(list.contains("what a tied test does (1.3)"), "{list}");
    assert!(list.contains("nobody: nobody wins"), "{list}");
    assert!(list.contains("bonus = 2  (recommended)"), "{list}");
    ok(&mut s, "option set ties both_lose");
    ok(&mut s, "option set bonus 3");
    ok(&mut s, "option set strict on");
    assert_eq!(ok(&mut s, "reading"), "both_lose 3 true");
    assert!(ok(&mut s, "option list").contains("ties = both_lose  (recommended: reroll)"));
    ok(&mut s, "undo");
    assert_eq!(ok(&mut s, "reading"), "both_lose 3 false");
    ok(&mut s, "redo");
    assert_eq!(ok(&mut s, "reading"), "both_lose 3 true");
    assert!(ok(&mut s, "option reset all").contains("ties"));
    assert_eq!(ok(&mut s, "reading"), "reroll 2 false");
}

#[test]
fn a_script_asks_which_ruleset_tables_and_options_are_loaded() {
    let dir = rules(RULES);
    let mut s = session(dir.path());
    assert_eq!(ok(&mut s, "loaded"), "opt: weather; ties=reroll bonus=2");
    ok(&mut s, "option set bonus 4");
    assert_eq!(ok(&mut s, "loaded"), "opt: weather; ties=reroll bonus=4");
}

#[test]
fn a_wrong_name_or_value_is_refused_with_what_would_do() {
    let dir = rules(RULES);
    let mut s = session(dir.path());
    let e = fails(&mut s, "option set tie nobody");
    assert!(
        e.contains("no option `tie`") && e.contains("did you mean `ties`?"),
        "{e}"
    );
    let e = fails(&mut s, "option set ties sometimes");
    assert!(
        e.contains("has no reading `sometimes`") && e.contains("reroll or nobody or both_lose"),
        "{e}"
    );
    let e = fails(&mut s, "option set bonus lots");
    assert!(e.contains("is a number"), "{e}");
    let e = fails(&mut s, "option set strict maybe");
    assert!(e.contains("on or off"), "{e}");
    let e = fails(&mut s, "option set ties nobody now");
    assert!(e.contains("now"), "extra words are refused: {e}");
    let e = fails(&mut s, "unknown");
    assert!(e.contains("no option `tie`") && e.contains("ties"), "{e}");
    assert!(e.contains("init.lua:"), "the script's line is named: {e}");
}

#[test]
fn setting_the_recommended_reading_keeps_nothing_and_nothing_set_resets_nothing() {
    let dir = rules(RULES);
    let mut s = session(dir.path());
    assert!(ok(&mut s, "option set ties reroll").contains("the recommended reading"));
    assert!(ok(&mut s, "option reset all").contains("nothing to reset"));
}

#[test]
fn bad_declarations_are_refused_when_the_rules_load_naming_the_line() {
    for (decl, says) in [
        (
            r#"umpire.option { name = "x", doc = "d" }"#,
            "needs `default`",
        ),
        (
            r#"umpire.option { name = "x", default = "a", doc = "d" }"#,
            "needs its alternatives",
        ),
        (
            r#"umpire.option { name = "x", default = "c", choices = { "a", "b" }, doc = "d" }"#,
            "is not one of its choices",
        ),
        (
            r#"umpire.option { name = "x", default = "a", choices = { "a" }, doc = "d" }"#,
            "at least two choices",
        ),
        (
            r#"umpire.option { name = "X y", default = 1, doc = "d" }"#,
            "must be a lowercase word",
        ),
        (
            r#"umpire.option { name = "x", default = 1, doc = "d", dflt = 2 }"#,
            "dflt",
        ),
        (
            "umpire.option { name = \"x\", default = 1, doc = \"d\" }\numpire.option { name = \"x\", default = 2, doc = \"d\" }",
            "already declared at",
        ),
    ] {
        let init = format!("umpire.ruleset {{ name = \"opt\", doc = \"d\" }}\n{decl}\n");
        let dir = rules(&init);
        let mut s = Session::new(DiceBox::seeded(1));
        s.set_rules_root(dir.path().to_path_buf());
        let e = fails(&mut s, "ruleset use opt");
        assert!(e.contains(says), "`{decl}`: {e}");
        assert!(e.contains("init.lua:"), "`{decl}`: the line is named: {e}");
    }
}

#[test]
fn a_game_continued_later_keeps_the_options_set() {
    let dir = rules(RULES);
    let journal = dir.path().join("game.jsonl");
    let run = |input: &str| {
        let o = umpire_timed(
            &[
                "--seed",
                "1",
                "--no-color",
                "--rules",
                dir.path().to_str().unwrap(),
                "--journal",
                journal.to_str().unwrap(),
                "run",
                "-",
            ],
            input,
        );
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        assert!(
            o.status.success(),
            "{out}{}",
            String::from_utf8_lossy(&o.stderr)
        );
        out
    };
    run("ruleset use opt\noption set ties nobody\n");
    let out = run("reading\n");
    assert!(out.contains("nobody 2 false"), "{out}");
}

/// Every option a shipped ruleset or house rule declares is in the README beside it and has a
/// rule test for each of its alternatives: a line `option set NAME VALUE` (or `"NAME VALUE"` handed to a helper that
/// sets it) in the tests beside the file that declares it (the ruleset's `tests/`, or
/// `scripts/tests/`). An option declared and never tried fails
/// here; that the alternative changes a result is each rule test's own assertion.
#[test]
fn every_shipped_option_has_a_rule_test_for_each_alternative() {
    let root = crate::common::shipped();
    let json = |s: &mut Session, line: &str| match s.execute(line, None).expect("a command") {
        Ok(out) => out.to_json(),
        Err((_, e)) => panic!("`{line}` failed: {e}"),
    };
    let rulesets: Vec<String> = std::fs::read_dir(root.join("rulesets"))
        .unwrap()
        .filter_map(|e| {
            let p = e.ok()?.path();
            p.join("init.lua")
                .exists()
                .then(|| p.file_name()?.to_str().map(str::to_string))?
        })
        .collect();
    let houses: Vec<String> = std::fs::read_dir(root.join("scripts"))
        .unwrap()
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.strip_suffix(".lua").map(str::to_string)
        })
        .collect();
    let mut missing = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for ruleset in &rulesets {
        let mut s = Session::new(DiceBox::seeded(1));
        s.set_rules_root(root.to_path_buf());
        json(&mut s, &format!("ruleset use {ruleset}"));
        for house in &houses {
            // A house rule written for another system may refuse this one: that is fine.
            let _ = s.execute(&format!("house on {house}"), None);
        }
        let list = json(&mut s, "option list");
        for o in list["options"].as_array().unwrap() {
            let name = o["name"].as_str().unwrap();
            let declared = o["declared"].as_str().unwrap();
            if !seen.insert(name.to_string()) {
                continue;
            }
            let folder = match declared.split('/').collect::<Vec<_>>().as_slice() {
                ["rulesets", r, ..] => root.join("rulesets").join(r).join("tests"),
                _ => root.join("scripts/tests"),
            };
            let tests = lua_files(&folder);
            // Written down for the club, where the rules that declare it are described.
            let readme = match declared.split('/').collect::<Vec<_>>().as_slice() {
                ["rulesets", r, ..] => root.join("rulesets").join(r).join("README.md"),
                _ => root.join("scripts/README.md"),
            };
            if !std::fs::read_to_string(&readme)
                .unwrap_or_default()
                .contains(&format!("`{name}`"))
            {
                missing.push(format!(
                    "{name} ({declared}): not in {}",
                    readme.strip_prefix(root).unwrap().display()
                ));
            }
            let alternatives: Vec<String> = match (&o["choices"], &o["default"]) {
                (serde_json::Value::Array(c), d) => c
                    .iter()
                    .filter(|c| *c != d)
                    .map(|c| c.as_str().unwrap().to_string())
                    .collect(),
                (_, serde_json::Value::Bool(b)) => vec![(!b).to_string()],
                _ => vec![String::new()],
            };
            for alt in alternatives {
                // Typed in full, or handed to a test's helper that types `option set` before it.
                let line = format!("option set {name} {alt}");
                let handed = format!("\"{name} {alt}\"");
                if !tests.contains(line.trim_end()) && !tests.contains(&handed) {
                    missing.push(format!(
                        "{name} = {alt} ({declared}): no `{}` in {}",
                        line.trim_end(),
                        folder.strip_prefix(root).unwrap().display()
                    ));
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "options without a README entry or a rule test of an alternative:\n  {}",
        missing.join("\n  ")
    );
}

/// The text of every `.lua` file under `dir`, joined.
fn lua_files(dir: &Path) -> String {
    let mut text = String::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            text.push_str(&lua_files(&p));
        } else if p.extension().is_some_and(|x| x == "lua") {
            text.push_str(&std::fs::read_to_string(&p).unwrap_or_default());
        }
    }
    text
}
