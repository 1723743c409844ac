-- What OLAB's resolutions record for programs and scorers (`umpire.record`, docs/json.md):
-- the numbers under named keys, the same as the breakdown shows.

local h = require "_helpers"

test("initiative records each side's total, the winner and the ties (3.3)", function()
  local s = h.game({ "r1 a A type=INF/U sp=4", "b1 b B type=INF/U sp=4" })
  s:dice(5, 2)                       -- red 5, blue 2: no C-in-C, +0 each
  contains(s:run("initiative"), "red has the initiative")
  local r = s:record("initiative")
  eq(r.totals.red, 5)
  eq(r.totals.blue, 2)
  eq(r.winner, "red")
  eq(r.ties, 0)
end)

test("a move records its allowance and the distance asked (Table 4)", function()
  local s = h.game({ "r1 a A type=INF/U sp=4" })
  s:run("move a 3")
  local r = s:record("move")
  eq(r.unit, "a")
  eq(r.distance, 3)
  eq(r.allowed, true)
  ok(r.allowance >= 3, "the allowance covers 3\"")
end)

test("a rally records its D6, modifiers, total and result (7.3)", function()
  local s = h.game({ "r1 a A type=INF/U sp=2 sp_start=6" })
  s:run("set a sp 1")
  h.next_round(s)
  s:dice(5)
  s:run("rally a")
  local r = s:record("rally")
  eq(r.stand, "a")
  eq(r.roll, 5)
  eq(r.total, r.roll + r.modifiers)
  eq(r.need, 5)
  eq(r.result, "rallies")
end)

test("a morale test records the percentage, threshold, roll and result (7.1)", function()
  local units = { "r1 g G type=SKI/M sp=6 general=competent cinc=true" }
  for i = 1, 4 do units[#units + 1] = string.format("r1 a%d A%d type=INF/U sp=4 sp_start=4", i, i) end
  local s = h.game(units)
  s:run("set a1 sp 0")               -- 1 of 5 lost: 20%
  s:dice(1)
  local out = s:run("morale command:r1")
  local r = s:record("morale")[1]
  eq(r.group, "command:r1")
  eq(r.percentage, 20)
  eq(r.threshold, 20)
  eq(r.roll, 1)
  eq(r.result, out:find("retreats", 1, true) and "retreats" or "holds")
end)

test("a shot records the score before the save and the HP for each target (5.2)", function()
  local s = h.game({ "r1 f F type=MSK sp=4 weapon=rifle", "b1 t T type=INF/U sp=4" })
  s:dice(4, 1, 1)
  s:run("shoot f t 10")
  local shot = s:record("shots")[1]
  eq(shot.target, "t")
  ok(shot.pre_save ~= nil and shot.hp ~= nil, "pre_save and hp recorded")
  eq(s:get("t", "sp"), math.max(0, 4 - shot.hp))
end)
