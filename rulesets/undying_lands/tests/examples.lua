-- The rulebook's worked examples as army files (examples/undying_lands/worked_examples.toml),
-- reproducing the printed numbers, and our own pair of armies (vale.toml, horde.toml).
local function examples()
  local s = session { ruleset = "undying_lands" }
  s:run("army load examples/undying_lands/worked_examples.toml")
  s:run("muster")
  return s
end

test("the example troops build to the text's IP: Romans 30, Galatians 17 (3, 19)", function()
  local s = examples()
  eq(s:get("romans_v1", "ip"), 30)
  eq(s:get("galatians_v1", "ip"), 17)
end)

test("the shooting example: LRW Drilled at Close order pike: the table's d10 (printed d12), 5 rolled; +2 for Close order, which the example omits (18)", function()
  local s = examples()
  s:dice(5)
  local out = s:run("shoot longbows.1 phalanx.1")
  contains(out, "1d10 [5]")
  contains(out, "+2  1. target is Close order (18)")
  eq(s:record("shooting").shot.rolled, 5)       -- the example's 5
  eq(s:record("shooting").shot.loss, 7)         -- with the +2 the rules require
  eq(s:record("shooting").shot.die, "1d10")
end)

test("the Galatian example: Galatians 14 and Romans 11 as printed; Romans 30 -> 16, Galatians 17 -> 6 (19)", function()
  local s = examples()
  s:run("option set more_ip_factor omit")      -- as the example does
  s:run("orders warband attack")
  s:dice(1, 1)
  s:run("fanatic galatians romans 12cm")
  s:dice(6, 3, 4, 5)
  local out = s:run("melee galatians romans pairs 1-1")
  contains(out, "=  14  romans_v1 loses 14 IP")
  contains(out, "=  11  galatians_v1 loses 11 IP")
  eq(s:get("romans_v1", "ip"), 16)
  eq(s:get("galatians_v1", "ip"), 6)
end)

test("the Galatian example under the rules: the -1 for the Romans' greater IP makes it 13, Romans at 17; and the consequences the text leaves out (19, 22, 24)", function()
  local s = examples()
  s:run("orders warband attack")
  s:dice(1, 1)
  s:run("fanatic galatians romans 12cm")
  s:dice(6, 3, 4, 5)
  local out = s:run("melee galatians romans pairs 1-1")
  contains(out, "-1  4. opponent has more IP (30 > 17) (19; UL-D08)")
  contains(out, "=  13  romans_v1 loses 13 IP")
  eq(s:get("romans_v1", "ip"), 17)
  contains(out, "romans recoils 5 cm")            -- they lost more (22)
  contains(out, "galatians is disordered")        -- 11 of 17 in one phase (24)
end)

test("the pike example: 2d6 = 7, +1 first contact, +1 counter-charging, +6 vs Other = 15 (19)", function()
  local s = examples()
  s:dice(3, 3, 3, 4, 10)
  local out = s:run("melee horse pikes first a_charged b_charged pairs 1-1")
  contains(out, "7  regular drilled: 2d6 [3, 4] (19)")
  contains(out, "=  15  horse_v1 loses 15 IP")
  eq(s:get("horse_v1", "ip"), 22 - 15)
end)

test("our own armies load, muster without problems, and have two wings a side (vale.toml, horde.toml)", function()
  local s = session { ruleset = "undying_lands" }
  contains(s:run("army load examples/undying_lands/vale.toml"), "5 units")
  contains(s:run("army load examples/undying_lands/horde.toml"), "5 units")
  local out = s:run("muster")
  ok(not out:find("problem", 1, true), out)
  eq(s:get("vale", "cinc_with"), "guard")
  eq(s:get("host", "sc_discipline"), "irregular")
  eq(s:get("pikes_v1", "ip"), 30)
end)
