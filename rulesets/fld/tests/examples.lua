-- The rulebook's worked examples, reproduced with the numbers it prints.
local h = require "_helpers"

test("24 Chaos Warriors 7' tall: Mass 4, Close order integrity 2 x 24 = 48 (8.1, 8.2)", function()
  local s = h.game({ h.cw })
  eq(s:get("cw", "integrity_start"), 48)
  eq(s:get("cw", "integrity"), 48)
  local out = s:run("stats cw")
  contains(out, "height 7' is up to 9': Mass 4 (8.1)")
  contains(out, "48  BUIV 2 (close, Mass 4) x 24 figures at the start (8.2)")
end)

test("the same Chaos Warriors in Loose order: 1.5 x 24 = 36 (8.2)", function()
  local s = h.game({ h.cw .. " order=loose" })
  eq(s:get("cw", "integrity_start"), 36)
  contains(s:run("stats cw"), "36  BUIV 1.5 (loose, Mass 4) x 24 figures at the start (8.2)")
end)

test("Chaos Warriors in two ranks of 12, 3 attacks, 1HW: 12 x 3 = 36 dice (13, 26.2)", function()
  local s = h.game({ h.cw, h.pk })
  contains(s:run("stats cw"), "36 dice (One-Handed Weapons: front rank 12 x 3 attacks (26.2))")
  s:dice(table.unpack(h.rep(1, 36)))
  s:dice(table.unpack(h.rep(1, 16)))
  local out = s:run("melee cw pk")
  contains(out, "36d6>=4 [0 successes, 0 sixes]")       -- a bucket of 36 is summarised
end)

test("the dragon: base move 8\" costs 80 pts; in Loose order it moves 8 + 4 = 12\" for the same 80 (6, 36)", function()
  local s = h.game({ "d1 drag Dragon type=behemoth legs=quadruped base_move=8 order=loose height=30 figures=1 files=1 natural=5 strength=6 melee=5 attacks=4 weapon=nw morale=5" })
  local out = s:run("stats drag")
  contains(out, "8  base move (quadruped, Close order) (6)")
  contains(out, "+4  loose order bonus (6)")
  contains(out, "12\"; march 24\"")
  contains(out, "80  base move 8\" x 10 (quadruped) (36)")
  s:run("set drag order close")
  contains(s:run("stats drag"), "80  base move 8\" x 10 (quadruped) (36)")
end)
