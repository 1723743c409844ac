-- What the FLD resolutions keep for programs (`--json`: `record.KEY`, read here with
-- `s:record(KEY)`): the numbers of each breakdown as fields, every die of a bucket included.
local h = require "_helpers"

local TGT = "d1 t Targets figures=16 files=8 discipline=irregular height=6"

test("shoot records dice, hits, each armour step with its rolled faces, hit points and figures lost (25)", function()
  local s = h.game({ "l1 arc Archers figures=24 files=12 shooting=3 missile=lb order=loose", TGT .. " natural=1 armour=partial_sh" })
  h.queue(s, { 6, 5, 4, 4, 3, 2, 1, 6, 4, 1, 2, 3 }, { 6, 6, 1, 2, 3, 5 }, { 3, 3, 2, 6, 1, 5, 4, 2 }, { 6, 6, 2, 3, 1 })
  s:run("shoot arc t 10\"")
  local r = s:record("shoot")
  eq(r.firer, "arc"); eq(r.target, "t"); eq(r.distance, 10)
  eq(r.dice, 18); eq(r.hits, 8); eq(r.need, 4)
  eq(#r.pools, 2)
  eq(r.pools[1].dice, 12); eq(r.pools[1].hits, 6); eq(r.pools[1].sixes, 2)
  eq(table.concat(r.pools[1].rolled, ","), "6,5,4,4,3,2,1,6,4,1,2,3")
  eq(r.pools[2].need, 6); eq(r.pools[2].hits, 2)
  eq(r.steps[1].armour, "natural"); eq(r.steps[1].need, 3); eq(r.steps[1].through, 5)
  eq(table.concat(r.steps[1].rolled, ","), "3,3,2,6,1,5,4,2")
  eq(r.steps[2].value, 3); eq(r.steps[2].dice, 5); eq(r.steps[2].through, 2)
  eq(r.through, 2); eq(r.sixes, 2); eq(r.hp, 4)
  eq(r.figures_lost, 4); eq(r.integrity, 12)
end)

test("melee records both sides: dice, need, hits, armour steps, hit points, figures lost, recoil (26, 30)", function()
  local s = h.game({ "l1 a A figures=8 files=8 melee=4", "d1 b B figures=8 files=8 melee=3" })
  -- a needs 4+ (4 v 3), b needs 5+; a's 8 dice: 5 hits; b's 8 dice: 1 hit; no armour
  s:dice(6, 5, 4, 4, 4, 1, 1, 1)
  s:dice(6, 1, 1, 1, 1, 1, 1, 1)
  s:dice(2)
  s:run("melee a b")
  local r = s:record("melee")
  eq(r.first.unit, "a"); eq(r.second.unit, "b")
  eq(r.first.dice, 8); eq(r.first.need, 4); eq(r.first.hits, 5)
  eq(table.concat(r.first.pools[1].rolled, ","), "6,5,4,4,4,1,1,1")
  eq(r.second.need, 5); eq(r.second.hits, 1)
  eq(r.first.hp, 6)                      -- 5 through, one six of the last roll
  eq(r.second.hp, 2)
  eq(r.second.figures_lost, 6); eq(r.first.figures_lost, 2)
  eq(r.recoil.unit, "b"); eq(r.recoil.distance, 2)
  eq(r.first_contact, false)
end)

test("cannon records the band, its strength and the dice straight to penetration (35)", function()
  local s = h.game({ "l1 g Gun type=artillery gun=medium period=medieval figures=1 files=1", TGT .. " natural=2" })
  s:dice(6, 3, 3, 1, 2)
  s:run("cannon g t 10\" 5")
  local r = s:record("cannon")
  eq(r.band, "medium"); eq(r.strength, 4); eq(r.dice, 5)
  eq(r.through, 3); eq(r.hp, 4)
  eq(table.concat(r.steps[1].rolled, ","), "6,3,3,1,2")
end)

test("morale records the die, each modifier, the score, the band and the band limits (31, 11)", function()
  local s = h.game({ "l1 a A figures=8 files=8 morale=3" })
  s:run("set a integrity 3")                  -- over 50% lost: -2
  s:dice(4)
  s:run("morale a a unsupported")
  local r = s:record("morale")
  eq(r.unit, "a"); eq(r.trigger, "a"); eq(r.die, 4)
  eq(#r.modifiers, 2)
  eq(r.modifiers[1].value, -2)
  eq(r.modifiers[2].value, -1)
  eq(r.score, 1); eq(r.band, "fragment")
  eq(r.pass_at, 4); eq(r.break_below, -1); eq(r.morale, 3)
end)

test("charge and fanatic record the allowance, the reaction, the response roll and contact (23, 24)", function()
  local s = h.game({ "l1 kn Knights type=mounted legs=quadruped figures=8 files=8 base_move=8",
    "d1 w Warband figures=12 files=12 discipline=irregular morale=3",
    h.pk })
  s:dice(1)                                   -- 1 + (3 - 1) = 3: evade if able, else break
  s:run("charge kn w 5\"")
  local r = s:record("charge")
  eq(r.charger, "kn"); eq(r.target, "w"); eq(r.distance, 5); eq(r.allowance, 8)
  eq(r.response_score, 3); eq(r.reaction, "break"); eq(r.contact, false)
  s = h.game({ "d1 beh Oliphant type=behemoth legs=quadruped figures=3 files=3 height=14 morale=4 base_move=6", h.pk })
  s:dice(6)
  s:run("fanatic beh pk 8\"")
  local f = s:record("fanatic")
  eq(f.passed_by_two, true); eq(f.test_score, 6); eq(f.allowance, 9)
  eq(f.reaction, "stand"); eq(f.contact, true)
end)

-- Activation: the sub-commanders' (18) and the units' (21) dice, needs and results.
local function cmd_game()
  local s = session { ruleset = "fld" }
  s:run("add side red Red")
  s:run("add command red left Left")
  s:run("add command red right Right")
  for _, u in ipairs({ "left sp1 Spears1", "left sp2 Spears2", "right cav1 Cav1" }) do s:run("add unit " .. u) end
  s:run("cinc red 4")
  s:run("sc left 3 wing 1")
  s:run("sc right 5 wing 2")
  return s
end

test("activation records each sub-commander's and unit's die, score needed and result (18, 21)", function()
  local s = cmd_game()
  s:dice(6, 1, 4)                             -- left 6, right 1; right's own initiative 4
  s:run("scactivate red left 6 right 30")
  local r = s:record("sc_activation")
  eq(#r, 2)
  eq(r[1].command, "left"); eq(r[1].die, 6); eq(r[1].activated, true)
  eq(r[2].command, "right"); eq(r[2].die, 1); eq(r[2].activated, false)
  ok(r[2].need > r[1].need, "over 24\" needs more")
  local oi = s:record("own_initiative_right")
  eq(oi.die, 4)
  s:run("next")
  s:dice(5, 1)
  s:run("activate left sp1 sp2")
  local u = s:record("unit_activation")
  eq(u[1].units, "sp1"); eq(u[1].die, 5); eq(u[1].activated, true)
  eq(u[2].units, "sp2"); eq(u[2].die, 1); eq(u[2].activated, false)
  eq(u[1].need, 2)
end)
