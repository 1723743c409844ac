-- FLD shooting (25.2-25.4, 27) with exact dice from the queue.

local function battle(target_attrs)
  local s = session { ruleset = "fld_bucket" }
  s:run("add side light Light")
  s:run("add side dark Dark")
  s:run("add command light l1 Archers")
  s:run("add command dark d1 Knights")
  s:run("add unit l1 arc Archers shooting=3 weapon=lb")
  s:run("add element arc arc1 Front rank figures=12")
  s:run("add element arc arc2 Second rank figures=12")
  s:run("add unit d1 kn Knights " .. target_attrs)
  s:run("add element kn kn1 Front figures=6")
  s:run("add element kn kn2 Rear figures=4")
  return s
end

local FRONT = { 6, 5, 4, 4, 3, 2, 1, 6, 4, 1, 2, 3 }   -- 12d6>=4: 6 hits
local SECOND = { 6, 6, 1, 2, 3, 5 }                  -- 6d6>=6 (12 figures / 2, +2): 2 hits
local NATURAL = { 3, 3, 2, 6, 1, 5, 4, 2 }           -- 8d6>=3 (strength 4 v armour 1): 5
local ADDITIVE = { 6, 6, 2, 3, 1 }                   -- 5d6>=3 (strength 4 v armour 2): 3, two sixes

local function queue(s, ...)
  for _, list in ipairs({ ... }) do s:dice(table.unpack(list)) end
end

test("to hit, natural then additive armour, sixes of the last roll: 3 + 2 = 5 hit points", function()
  local s = battle("natural=1 additive=2 integrity=30")
  queue(s, FRONT, SECOND, NATURAL, ADDITIVE)
  local out = s:run("shoot arc kn")
  contains(out, "=   8  8 hits")
  contains(out, "=   5  5 penetrate")
  contains(out, "=   3  3 penetrate")
  contains(out, "+2  sixes of the last roll (FLD-D07)")
  eq(s:get("kn", "integrity"), 25)
  eq(s:get("kn2", "figures"), 4)                     -- figures stay by default (FLD-D33)
end)

test("with no armour the last roll is the to-hit roll: its sixes count (FLD-D05, FLD-D07)", function()
  local s = battle("integrity=30")
  queue(s, FRONT, SECOND)
  s:run("shoot arc kn")
  eq(s:get("kn", "integrity"), 30 - 8 - 4)           -- 8 hits, sixes: two in front, two behind
end)

test("cover +2; option figure_loss rear_first empties the rear rank first; undo puts all back", function()
  local s = battle("natural=1 additive=2 integrity=30")
  s:run("option set figure_loss rear_first")
  queue(s, FRONT, SECOND, NATURAL, ADDITIVE)
  s:run("shoot arc kn")
  eq(s:get("kn1", "figures"), 5)                     -- 5 hit points: 4 from the rear, 1 from the front
  contains(s:fails("show kn2"), "kn2")               -- the emptied rank is gone
  s:run("undo")
  eq(s:get("kn2", "figures"), 4)
  eq(s:get("kn", "integrity"), 30)
  s:dice(4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 6, 6, 6, 6, 6, 6, 6)
  local out = s:run("shoot arc kn cover")
  contains(out, "12d6>=6")                           -- 4+ becomes 6+ in cover
  contains(out, "6d6>=8")                            -- and the second rank's 6+ becomes 8+: none
end)
