-- The opposed damage roll (4.9) with the rulebook's own numbers: a heavy crossbow (DS 5)
-- against a Dwarf of Strength 3, dice from the queue.

local function skirmish()
  local s = session { ruleset = "od6_damage" }
  s:run("add side men Men")
  s:run("add side dwarves Dwarves")
  s:run("add command men m1 Company")
  s:run("add command dwarves hold Hold")
  s:run("add unit m1 xb Crossbows")
  s:run("add element xb x1 Crossbowman ds=5")
  s:run("add unit hold dw Dwarves")
  s:run("add element dw d1 Dwarf phy=3")
  s:run("add element dw d2 Elder phy=3")
  return s
end

test("1 v 4: a first die of 1 scores 0 against 7, no effect (2.6.1, 4.9.2)", function()
  local s = skirmish()
  s:dice(1, 4)
  local out = s:run("damage xb.x1 dw.d1")
  contains(out, "Damage 4.9.2: damage 0 v strength 7")
  contains(out, "Dwarf [d1]: no effect")
  ok(not s:has("d1", "wounded"))
end)

test("3 v 4: 8 against 7 wounds; 4 v 2: 9 against 5 incapacitates (4.9.2)", function()
  local s = skirmish()
  s:dice(3, 4)
  contains(s:run("damage xb.x1 dw.d1"), "Dwarf [d1] is wounded")
  ok(s:has("d1", "wounded"))
  s:dice(4, 2)
  contains(s:run("damage xb.x1 dw.2"), "Elder [d2] is incapacitated")
  ok(s:has("d2", "incapacitated") and not s:has("d2", "wounded"))
end)

test("a 6 rolls again and adds: 6, 6, 1 with Strength 3 scores 16; a wounded soldier resists at -1", function()
  local s = skirmish()
  s:dice(3, 4)
  s:run("damage xb.x1 dw.d1")                        -- wounded: Strength 3 - 1 from now on
  s:dice(2, 6, 6, 1)                                 -- DS 5 + 2 = 7 against 2 + 6 + 6 + 1 = 15
  local out = s:run("damage xb.x1 dw.d1")
  contains(out, "damage 7 v strength 15")
  contains(out, "Dwarf [d1]: no effect")
  s:dice(6, 1, 1, 2)                                 -- DS 6 + 1 + 5 = 12 against 2 + 2 = 4
  contains(s:run("damage xb.x1 dw.d1"), "Dwarf [d1] is incapacitated")
  s:run("undo")
  ok(s:has("d1", "wounded") and not s:has("d1", "incapacitated"))
end)

test("a tie wounds by the table; option damage_tie no_effect reads it as nothing (AMB-01)", function()
  local s = skirmish()
  s:dice(2, 4)                                       -- 7 v 7
  contains(s:run("damage xb.x1 dw.d1"), "Dwarf [d1] is wounded")
  s:run("undo")
  s:run("option set damage_tie no_effect")
  s:dice(2, 4)
  contains(s:run("damage xb.x1 dw.d1"), "Dwarf [d1]: no effect")
end)

test("a soldier does not shoot his own squad; the incapacitated take no more hits", function()
  local s = skirmish()
  contains(s:fails("damage dw.d1 dw.d2"), "does not shoot his own squad")
  s:run("mark dw.d1 incapacitated")
  contains(s:fails("damage xb.x1 dw.d1"), "already out of the battle")
end)
