//! The sandbox escape suite, issue 13, first half: no script can change what another script
//! or the host sees. Each case is followed by ordinary work on the same host (`still_works`).

use super::*;

// --- no raw values: pairs, next, rawget, getmetatable, rawset ---

#[test]
fn pairs_on_a_library_or_the_api_never_hands_out_the_real_table() {
    let h = host();
    for name in [
        "umpire",
        "string",
        "table",
        "math",
        "utf8",
        "coroutine",
        "_G",
    ] {
        // `_G` is the script's own; the shared globals behind it are reached by name.
        let code = format!(
            "local t = {name}\n\
             local f, s, k = pairs(t)\n\
             local n, tables = 0, 0\n\
             for key, v in pairs(t) do\n\
               n = n + 1\n\
               if type(v) == 'table' and v ~= _G then\n\
                 tables = tables + 1\n\
                 pcall(function() v.roll = print end)\n\
               end\n\
             end\n\
             return s == nil and k == nil, n > 0 or '{name}' == '_G', next(t) == nil or '{name}' == '_G', tables"
        );
        let got = eval(&h, &code).unwrap();
        // `pairs(_G)` walks the script's own environment, as it should.
        let first = if name == "_G" { "false" } else { "true" };
        assert_eq!(got[..3], [first, "true", "true"], "{name}: {got:?}");
    }
    // The attack of the issue: replace umpire.roll through the second value of `pairs`.
    let err = eval(
        &h,
        "local _, real = pairs(umpire)\nreal.roll = function(expr) return 12, {6, 6} end",
    )
    .unwrap_err();
    assert!(err.to_string().contains("index a nil value"), "{err}");
    for attack in [
        "local f = pairs(umpire)\nlocal k, v = f(nil, nil)\nwhile k and k ~= 'roll' do k, v = f(nil, k) end\nreturn v == umpire.roll",
        "local f = pairs(string)\nlocal k, v = f(nil, 'upper')\nreturn type(v)",
        "return rawget(umpire, 'roll'), rawget(string, 'upper'), rawlen(table)",
        "return getmetatable(umpire), getmetatable(string), getmetatable(''), getmetatable(_G)",
        "return select('#', ipairs(umpire)), type(select(2, ipairs(math)))",
    ] {
        let got = eval(&h, attack).unwrap();
        assert!(
            !got.iter().any(|v| v.starts_with("table:")),
            "{attack}: {got:?}"
        );
    }
    // Writes through any of them are refused, so the dice still come from the host.
    for write in [
        "umpire.roll = function() return 12 end",
        "rawset(umpire, 'roll', print)",
        "string.upper = string.lower",
        "rawset(math, 'random', function() return 6 end)",
        "table.insert = nil",
        "coroutine.wrap = nil",
        "utf8.char = nil",
        "getmetatable('').__index = {}",
        "setmetatable(string, {})",
    ] {
        assert!(eval(&h, write).is_err(), "{write}");
    }
    let (vals, out) = {
        let mut dice = DiceBox::seeded(1);
        dice.enqueue([2, 3]);
        let mut src = dice.source(None);
        h.eval("t.lua", "return umpire.roll('2d6')", &mut src)
            .unwrap()
    };
    assert_eq!(vals[0], "5");
    assert_eq!(out.rolls.len(), 1);
    still_works(&h);
}

#[test]
fn a_scripts_global_changes_stay_its_own() {
    let h = host();
    eval(
        &h,
        "string = {upper = function() return 'pwned' end}\nmath = nil\numpire = {}\nprint = nil",
    )
    .unwrap();
    assert_eq!(
        eval(
            &h,
            "return ('x'):upper(), string.upper('y'), math.floor(2.5), type(umpire.roll), type(print)"
        )
        .unwrap(),
        ["X", "Y", "2", "function", "function"]
    );
}

/// A ruleset `probe` with unit handles, a check, a hook point and an event, for attacks on
/// what a call hands to several scripts. `code` is added as a house rule `scripts/hostile.lua`.
fn probe_rules(code: &str) -> (tempfile::TempDir, Loaded) {
    let (dir, mut src) = temp_ruleset(
        "probe",
        "umpire.ruleset{name = 'probe', schema = {unit = {sp = {type = 'int', default = 4}, \
           list = {type = 'list', of = 'int', default = {1, 2, 3}}}}}\n\
         umpire.table{name = 'q', entries = {{'green', -1}, {'veteran', 1}}}\n\
         umpire.command{name = 'fire', args = {{name = 'u', type = 'unit'}}, run = function(ctx, a)\n\
           local c = ctx:check('Fire 1.1')\n\
           c:roll('1d6', 'to hit', '1.1')\n\
           c:add(1, 'base')\n\
           c:point('fire.mods')\n\
           local l = a.u.list\n\
           c:result(tostring(a.u.id) .. ' ' .. #l .. ' ' .. tostring(ctx.command))\n\
           return c:total()\n\
         end}\n\
         umpire.on('round_begins', function(e) print('round ' .. tostring(e.round)) end)\n",
    );
    std::fs::write(dir.path().join("scripts/hostile.lua"), code).unwrap();
    src.house.push("hostile".into());
    let l = load(&src, LIMITS, Arc::default()).unwrap();
    (dir, l)
}

/// Runs `fire a1` with a 4 rolled; the breakdown and the printed lines.
fn fire(l: &Loaded) -> Result<(String, Vec<String>), ScriptError> {
    let mut g = demo_game(&l.rules);
    let out = run_on(l, &mut g, "fire", &[("u", unit("a1"))], &[4])?;
    Ok((out.checks[0].to_string(), out.output))
}

const FIRE: &str = "Fire 1.1\n      4  to hit: 1d6 [4] (1.1)\n     +1  base\n  =   5  a1 3 fire";

#[test]
fn hooks_cannot_reach_the_checks_lines_ctx_or_arguments() {
    // Each attack is tried inside the hook (an error is caught there, so the command runs);
    // whatever it did or failed to do, the breakdown is the ruleset's.
    let attacks = [
        "getmetatable(ctx).check = nil",
        "getmetatable(c).roll = nil",
        "getmetatable(c).__index.add = nil",
        "c.lines[1][4] = '1d6 [6]'",
        "c.lines[1][1] = 6",
        "rawset(c, 'lines', {})",
        "c.title = 'x'",
        "for k, v in pairs(c) do v[1] = nil end",
        "for k, v in pairs(ctx) do if type(v) == 'table' then for p in pairs(v) do v[p] = {} end end end",
        "c.hooks['fire.mods'] = {}",
        "ctx.args.u = umpire.unit('b2')",
        "rawset(ctx.args, 'u', umpire.unit('b2'))",
        "ctx.command = 'x'",
        "rawset(ctx, 'command', 'x')",
        "ctx.args.u.sp = 1",
        "rawset(ctx.args.u, 'id', 'b2')",
        "for k in pairs(ctx.args.u) do rawset(k, '__index', function() return 'b2' end) end",
        "ctx.args.u.list[1] = 99; table.insert(ctx.args.u.list, 5)",
        "c:set('to hit', 6)",
        "c:remove('to hit'); c:add(6, 'to hit')",
        "setmetatable(c, nil)",
        "setmetatable(ctx.args, nil)",
    ];
    for attack in attacks {
        let code = format!(
            "-- tries: {attack}\n\
             umpire.hook('fire.mods', function(c, ctx)\n\
               pcall(function() {attack} end)\n\
             end)\n"
        );
        let (_dir, l) = probe_rules(&code);
        match fire(&l) {
            Ok((shown, _)) => assert_eq!(shown, FIRE, "{attack}"),
            Err(e) => panic!("{attack}: {e}"),
        }
    }
}

#[test]
fn handles_keep_their_ids_and_their_metatables_private() {
    let (_dir, l) = probe_rules(
        "umpire.command{name = 'poke', args = {{name = 'u', type = 'unit'}}, run = function(ctx, a)\n\
           local u = a.u\n\
           local found = {}\n\
           for k, v in pairs(u) do found[#found + 1] = tostring(k) end\n\
           assert(#found == 0, 'a handle lists ' .. table.concat(found, ', '))\n\
           assert(next(u) == nil and getmetatable(u) == false)\n\
           assert(not pcall(rawset, u, 'id', 'b2'))\n\
           assert(not pcall(setmetatable, u, {}))\n\
           local t = umpire.table('q')\n\
           assert(next(t) == nil and getmetatable(t) == false and t.name == 'q')\n\
           assert(not pcall(rawset, t, 'name', 'other'))\n\
           assert(not pcall(function() t.name = 'other' end))\n\
           assert(next(store) == nil and getmetatable(store) == false)\n\
           assert(not pcall(rawset, store, 'x', 1))\n\
           local l = u.list\n\
           l[1] = 99\n\
           return u.id .. ' ' .. u.list[1] .. ' ' .. t:lookup('veteran')\n\
         end}\n",
    );
    let mut g = demo_game(&l.rules);
    let out = run_on(&l, &mut g, "poke", &[("u", unit("a1"))], &[]).unwrap();
    assert_eq!(out.output, ["a1 1 1"]);
    assert_eq!(fire(&l).unwrap().0, FIRE);
}

#[test]
fn an_events_fields_are_the_same_for_every_handler() {
    let (_dir, l) = probe_rules(
        "umpire.on('round_begins', function(e)\n\
           assert(not pcall(function() e.round = 99 end))\n\
           assert(not pcall(rawset, e, 'round', 99))\n\
           assert(getmetatable(e) == false)\n\
         end)\n",
    );
    // The ruleset's handler runs first; add one after the house rule by emitting twice.
    let mut dice = DiceBox::seeded(1);
    let mut s = dice.source(None);
    let (_, out) = l
        .host
        .emit(
            &l.rules,
            "round_begins",
            &[("round", ArgValue::Value(V::Int(3)))],
            &mut s,
            None,
        )
        .unwrap();
    assert_eq!(out.output, ["round 3"]);
}

#[test]
fn a_rolled_factor_keeps_its_dice_and_stays_in_the_breakdown() {
    let (_dir, l) = probe_rules(
        "umpire.hook('fire.mods', function(c)\n  c:add(2, 'smoke')\n  c:set('smoke', 1)\n  c:remove('base')\nend)\n",
    );
    let (shown, _) = fire(&l).unwrap();
    assert_eq!(
        shown,
        "Fire 1.1\n      4  to hit: 1d6 [4] (1.1)\n     +1  smoke\n  =   5  a1 3 fire"
    );
    for (attack, said) in [
        ("c:set('to hit', 6)", "is a roll"),
        ("c:remove('to hit')", "stays in the breakdown"),
    ] {
        let (_dir, l) = probe_rules(&format!(
            "umpire.hook('fire.mods', function(c) {attack} end)\n"
        ));
        let err = fire(&l).unwrap_err();
        assert!(err.to_string().contains(said), "{attack}: {err}");
        assert_eq!(
            err.location.as_deref(),
            Some("scripts/hostile.lua:1"),
            "{err}"
        );
    }
}

/// Walks everything reachable from a script's globals and from what a command hands it,
/// trying to write a probe key into every table found; then, from another script, walks
/// again and reports every table where the probe is visible. Prepended to both scripts.
const WALKER: &str = r#"
local GLOBALS = { "assert", "error", "ipairs", "next", "pairs", "pcall", "xpcall", "rawequal",
  "rawget", "rawlen", "rawset", "select", "tonumber", "tostring", "type", "getmetatable",
  "setmetatable", "load", "require", "print", "_VERSION", "string", "table", "math", "utf8",
  "coroutine", "umpire", "store", "_G" }
local METHODS = { "get", "set", "add", "has", "markers", "mark", "unmark", "lookup", "roll",
  "check", "find", "remove", "total", "point", "result", "command", "args", "id", "name",
  "side", "kind", "list", "sp" }

-- Calls `visit(path, table)` once for every table reachable from `roots`.
local function walk(roots, visit)
  local seen, queue = {}, {}
  local function push(path, v)
    if (type(v) == "table" or type(v) == "string") and not seen[v] then
      seen[v] = true
      queue[#queue + 1] = { path, v }
    end
  end
  for name, v in pairs(roots) do push(name, v) end
  local i = 1
  while queue[i] do
    local path, v = queue[i][1], queue[i][2]
    i = i + 1
    local mt = getmetatable(v)
    push(path .. "<mt>", mt)
    if type(v) == "table" then
      visit(path, v)
      pcall(function()
        for k, x in pairs(v) do
          push(path .. "[" .. tostring(k) .. "]", k)
          push(path .. "." .. tostring(k), x)
        end
      end)
      for _, m in ipairs(METHODS) do
        local ok, x = pcall(function() return v[m] end)
        if ok then push(path .. ":" .. m, x) end
      end
      local ok, f = pcall(function() return next(v) end)
      if ok then push(path .. "<next>", f) end
      -- What `pairs` hands out besides its iterator: the table it walks, if any.
      local ok2, _, state, first = pcall(pairs, v)
      if ok2 then
        push(path .. "<pairs>", state)
        push(path .. "<pairs-init>", first)
      end
    end
  end
  return #queue
end

local function roots(ctx, a, c)
  local r = { ctx = ctx, args = a, check = c, unit = umpire.unit("a1"), units = umpire.units("all"),
    table = umpire.table("q"), clock = umpire.clock(), side = umpire.side("s"),
    group = umpire.group("c") }
  for _, name in ipairs(GLOBALS) do r[name] = _G[name] end
  return r
end

local PROBE = "__umpire_probe"
local function write_everywhere(r)
  local wrote = {}
  local n = walk(r, function(path, t)
    local ok1 = pcall(function() t[PROBE] = true end)
    local ok2 = pcall(rawset, t, PROBE, true)
    if ok1 or ok2 then wrote[#wrote + 1] = path end
  end)
  return n, wrote
end
local function probes_seen(r)
  local seen = {}
  walk(r, function(path, t)
    local ok, v = pcall(function() return t[PROBE] end)
    if (ok and v ~= nil) or rawget(t, PROBE) ~= nil then seen[#seen + 1] = path end
  end)
  return seen
end
"#;

#[test]
fn nothing_reachable_from_a_script_lets_it_write_where_another_script_or_the_host_reads() {
    let hostile = format!(
        "{WALKER}\n\
         umpire.command{{name = 'spray', args = {{{{name = 'u', type = 'unit'}}}}, run = function(ctx, a)\n\
           local c = ctx:check('Spray')\n\
           local n, wrote = write_everywhere(roots(ctx, a, c))\n\
           return n .. ' ' .. table.concat(wrote, ',')\n\
         end}}\n\
         umpire.hook('fire.mods', function(c, ctx)\n\
           write_everywhere(roots(ctx, ctx.args, c))\n\
         end)\n"
    );
    let (dir, mut src) = temp_ruleset("probe", "");
    std::fs::write(
        dir.path().join("rulesets/probe/init.lua"),
        format!(
            "umpire.ruleset{{name = 'probe', schema = {{unit = {{sp = {{type = 'int', default = 4}}, \
               list = {{type = 'list', of = 'int', default = {{1, 2, 3}}}}}}}}}}\n\
             umpire.table{{name = 'q', entries = {{{{'green', -1}}, {{'veteran', 1}}}}}}\n\
             {WALKER}\n\
             umpire.command{{name = 'look', args = {{{{name = 'u', type = 'unit'}}}}, run = function(ctx, a)\n\
               local c = ctx:check('Look')\n\
               c:roll('1d6', 'to hit')\n\
               c:point('fire.mods')\n\
               return table.concat(probes_seen(roots(ctx, a, c)), ',')\n\
             end}}\n"
        ),
    )
    .unwrap();
    std::fs::write(dir.path().join("scripts/hostile.lua"), hostile).unwrap();
    src.house.push("hostile".into());
    let l = load(&src, LIMITS, Arc::default()).unwrap();
    let mut g = demo_game(&l.rules);
    let out = run_on(&l, &mut g, "spray", &[("u", unit("a1"))], &[]).unwrap();
    let (n, wrote) = out.output[0].split_once(' ').unwrap();
    let n: usize = n.parse().unwrap();
    // The walk reaches a good deal (so the test can fail), and the hostile script could write
    // only into what is its own: its globals, fresh tables it was given, its own store.
    assert!(n > 60, "walked only {n} values");
    for path in wrote.split(',').filter(|p| !p.is_empty()) {
        let own = path == "args"
            || ["_G", "store", "clock", "units"]
                .iter()
                .any(|r| path == *r || path.starts_with(&format!("{r}.")))
            || path.starts_with("unit:list")
            || path.starts_with("args.u:list");
        assert!(own, "the hostile script wrote into `{path}`");
    }
    // Another script, in the same host, with the hook spraying inside its own check, sees
    // no probe anywhere, and its check is unharmed.
    let out = run_on(&l, &mut g, "look", &[("u", unit("a1"))], &[5]).unwrap();
    assert_eq!(out.output, [""], "probes seen by the ruleset");
    assert_eq!(
        out.checks[0].to_string(),
        "Look\n      5  to hit: 1d6 [5]\n  =   5"
    );
    assert_eq!(out.rolls.len(), 1);
    still_works(&l.host);
}
