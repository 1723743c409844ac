-- Every row of the source's charts, one assertion each (the worked examples are in the other files).
local h = require "_helpers"

test("Terrain Effects Chart: movement cost per inch of each terrain (Ch6; Ch2)", function()
  local s = h.game()
  h.squad(s, "b", "g", { n = 3, attrs = "agi=2 move=20" })          -- walk 12
  for t, mult in pairs { clear = 1, scrub = 2, brush = 2, light_woods = 2, medium_woods = 2, heavy_woods = 4,
                         swamp = 4, easy_hill = 2, difficult_hill = 4, creek = 2, stream = 4 } do
    contains(s:run("path g.2 walk " .. t .. ":1"), "1\" of " .. t .. " x" .. mult)
  end
  for _, t in ipairs { "heavy_woods", "swamp", "difficult_hill", "stream" } do
    contains(s:run("path g.2 run " .. t .. ":1"), "very rough: no running")
  end
end)

test("Terrain and Barrier Effects Charts: cover of each as a ranged difficulty modifier (Ch6)", function()
  local s = h.game()
  h.squad(s, "r", "xb", { n = 3, weapons = "medium_crossbow" })
  h.squad(s, "b", "g", { n = 3 })
  local grade = { [1] = "light", [2] = "medium", [3] = "heavy" }
  for t, c in pairs { scrub = 1, brush = 1, light_woods = 1, medium_woods = 2, heavy_woods = 3, easy_hill = 2,
                      difficult_hill = 2, creek = 2, stream = 3, door = 2, window = 3, low_wall = 2, high_wall = 3,
                      shallow_trench = 2, deep_trench = 3 } do
    contains(s:run("fire xb g range=10 terrain=" .. t), "+" .. c .. "  target in " .. grade[c] .. " cover")
  end
  local out = s:run("fire xb g range=10 terrain=barbed_wire")
  ok(not out:find("cover", 1, true))
end)

test("Barrier Effects Chart: crossing costs (Ch6; Ch2 moderate 2\", difficult 4\")", function()
  local s = h.game()
  h.squad(s, "b", "g", { n = 3, attrs = "agi=2 move=20" })
  for b, c in pairs { door = 2, window = 4, low_wall = 2, high_wall = 4, barbed_wire = 2, shallow_trench = 2,
                      deep_trench = 4, moderate = 2, difficult = 4 } do
    contains(s:run("path g.2 walk clear:0 barriers=" .. b), "+" .. c .. "  crossing " .. b)
  end
end)

test("Ranged Combat Modifiers Chart: opportunity +1, defensive +1, demoralized +2 (Ch3)", function()
  local s = h.game()
  h.squad(s, "r", "xb", { n = 3, weapons = "medium_crossbow" })
  h.squad(s, "b", "g", { n = 3 })
  s:dice(5, 1)                                     -- the opportunity-fire test: CR 7 v OF 0, may fire
  s:run("opfiretest xb")
  contains(s:run("opfire xb g range=10"), "=   7  difficulty 7")
  s:run("undo"); s:run("undo")
  contains(s:run("deffire xb g range=10"), "=   7  difficulty 7")
  s:run("undo")
  s:run("set xb morale 1")
  contains(s:run("fire xb g range=10"), "=   8  difficulty 8")
end)

test("Close Combat Modifiers Chart: demoralized -2; a magic weapon +2 over the standard +1 (Ch4)", function()
  local s = h.game()
  h.squad(s, "r", "a", { n = 3, attrs = "agi=3", morale = 1 })
  h.squad(s, "b", "d", { n = 3, attrs = "agi=3" })
  s:dice(3, 3)
  contains(s:run("melee a.2 d.2"), "-2  squad demoralized")
end)

test("Morale threat modifiers: cover -1, won -1, lost +1, charge vs barrier +1, receiving in flank +2 (Ch5)", function()
  local s = h.game()
  h.squad(s, "r", "a", { n = 3, attrs = "cha=3" })
  h.squad(s, "b", "d", { n = 3, attrs = "cha=3" })
  s:run("set a cas_turn 1")
  s:run("set a cc_result won")
  s:dice(3, 3)
  local out = s:run("morale a cover")
  contains(out, "-1  behind cover")
  contains(out, "-1  won the turn of close assault")
  s:run("undo")
  s:run("set a cc_result lost")
  s:dice(3, 3)
  contains(s:run("morale a"), "+1  lost the turn of close assault")
  s:run("set a cas_turn 0")
  s:dice(3, 3, 3, 3)
  local ch = s:run("charge a d barrier flank")
  contains(ch, "+1  enemy directly behind a barrier")
  contains(ch, "+2  attacked in flank or rear")
end)

test("Rally threat modifiers: cover -1; a broken squad's casualties this turn +1 each (Ch5 Rally)", function()
  local s = h.game()
  h.squad(s, "r", "a", { n = 6, attrs = "cha=3", morale = 0 })
  s:run("set a cas_turn 2")
  s:dice(3, 3)
  local out = s:run("rally a cover")
  contains(out, "-1  behind cover")
  contains(out, "+2  2 casualties this turn")
end)

test("Opportunity-fire test modifiers: shaken +1, 50% casualties +2 (Ch5)", function()
  local s = h.game()
  h.squad(s, "r", "xb", { n = 4, attrs = "cha=3", weapons = "medium_crossbow", morale = 3 })
  s:run("set xb cas_total 2")
  s:dice(3, 3)
  local out = s:run("opfiretest xb")
  contains(out, "+1  squad shaken")
  contains(out, "+2  50% or more casualties (2)")
end)

test("Siege Weapon Deviation Range Chart: medium range deviates the die in inches (Ch3)", function()
  local s = h.game()
  s:dice(2, 1, 5)
  contains(s:run("siege 1 band=medium"), "5\" straight on")
end)

test("troop quality costs 0 / 10 / 20 and starts morale at 5 / 6 / 7 (Ch7; Ch5 Morale Levels)", function()
  local s = h.game()
  for q, c in pairs { average = 0, veteran = 10, elite = 20 } do
    local out = s:run("raise r " .. q .. " " .. q .. " size=3 attrs=2/2/2/2/2/2 move=10 quality=" .. q)
    contains(out, c .. "  quality " .. q)
    contains(out, "morale " .. ({ average = 5, veteran = 6, elite = 7 })[q])
  end
end)

test("Morale Statuses: 4+ steady, 2-3 shaken, 1 demoralized, 0 broken (Ch5)", function()
  local s = h.game()
  h.squad(s, "r", "a", { n = 3, attrs = "cha=2", morale = 5 })
  for _, m in ipairs { { 4, "steady" }, { 3, "shaken" }, { 2, "shaken" }, { 1, "demoralized" }, { 0, "broken" } } do
    s:run("set a morale " .. (m[1] + 1))
    s:run("chargefail a")
    eq(s:get("a", "state"), m[2])
  end
end)
