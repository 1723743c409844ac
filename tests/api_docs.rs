//! Every function and field of the `umpire` table that scripts see is documented for rule
//! writers in `rulesets/README.md` and defined for Lua editors in `docs/lua/umpire.lua`: a new
//! API function without its documentation fails here.

use crate::common::repo;
use umpire::dice::DiceBox;
use umpire::engine::Session;

/// The keys of the `umpire` table, as a script running a command sees them.
fn api_keys() -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("rulesets/keys")).unwrap();
    std::fs::create_dir_all(dir.path().join("scripts")).unwrap();
    std::fs::write(
        dir.path().join("rulesets/keys/init.lua"),
        r#"
umpire.ruleset { name = "keys", doc = "lists the API" }
umpire.command { name = "keys", run = function()
  local t = {}
  for k in pairs(umpire) do t[#t + 1] = k end
  table.sort(t)
  return table.concat(t, " ")
end }
"#,
    )
    .unwrap();
    let mut s = Session::new(DiceBox::seeded(1));
    s.set_rules_root(dir.path().to_path_buf());
    for line in ["ruleset use keys"] {
        if let Err((_, e)) = s.execute(line, None).expect("a command") {
            panic!("`{line}`: {e}");
        }
    }
    let out = s.execute("keys", None).unwrap().unwrap();
    let text = umpire::engine::render::output(&out, &umpire::engine::Palette::plain());
    text.split_whitespace().map(str::to_string).collect()
}

#[test]
fn every_umpire_function_is_documented_for_rule_writers() {
    let keys = api_keys();
    assert!(
        keys.len() >= 15 && keys.iter().any(|k| k == "roll"),
        "the keys were read: {keys:?}"
    );
    let doc = std::fs::read_to_string(repo().join("rulesets/README.md")).unwrap();
    let missing: Vec<&String> = keys
        .iter()
        .filter(|k| !doc.contains(&format!("`umpire.{k}")))
        .collect();
    assert!(
        missing.is_empty(),
        "rulesets/README.md does not document {}: add each to the table of *The `umpire` table*",
        missing
            .iter()
            .map(|k| format!("umpire.{k}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
}

#[test]
fn every_umpire_function_is_in_the_definitions_file_for_lua_editors() {
    let keys = api_keys();
    let defs = std::fs::read_to_string(repo().join("docs/lua/umpire.lua")).unwrap();
    let missing: Vec<&String> = keys
        .iter()
        .filter(|k| {
            !defs.contains(&format!("function umpire.{k}("))
                && !defs.contains(&format!("umpire.{k} ="))
        })
        .collect();
    assert!(
        missing.is_empty(),
        "docs/lua/umpire.lua does not define {missing:?}: add each with its annotations"
    );
}
