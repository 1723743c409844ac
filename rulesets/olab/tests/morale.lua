-- Morale (7.1), routs (7.2), rallying (7.3) and elimination (7.4).

local h = require "_helpers"

-- OLAB's red and blue sides, with a second red command (r2) for reserves.
local function game(units, opts)
  return h.game(units, opts, { "red r2 Reserve" })
end

local next_round = h.next_round

-- Routs and elimination (7.2, 7.4) -----------------------------------------------------------

test("a stand below half its starting SP routs, after any SP loss (7.2)", function()
  local s = game({ "r1 a A type=INF/U sp=6 sp_start=6" })
  s:run("set a sp 3")
  ok(not s:has("a", "routed"), "3 is half of 6: not below")
  contains(s:run("set a sp 2"), "SP 2 is below half of its starting 6 (7.2)")
  ok(s:has("a", "routed"))
end)

test("at 0 SP a stand is eliminated and stops routing (7.4)", function()
  local s = game({ "r1 a A type=INF/U sp=2 sp_start=6", "r1 g G type=SKI/M sp=6 general=competent" })
  s:run("mark a routed")
  contains(s:run("set a sp 0"), "SP 0: eliminated (7.4)")
  eq(s:get("a", "off_table"), "eliminated")
  ok(not s:has("a", "routed"))
  contains(s:run("set g sp 0"), "G [g] was a General: its Command names an Inferior replacement (7.4)")
end)

test("PN: a Hero never routs; 2e: heroes rout like anyone (8.8.4)", function()
  local s = game({ "r1 h Sharpe type=SKI/F sp=6 sp_start=6 hero=true" })
  contains(s:run("set h sp 1"), "Sharpe [h] is a Hero and never routs (8.8.4)")
  ok(not s:has("h", "routed"))
  local s2 = game({ "r1 h Sharpe type=SKI/F sp=6 sp_start=6 hero=true" }, { ruleset = "olab", variant = "2e" })
  s2:run("set h sp 1")
  ok(s2:has("h", "routed"))
end)

test("a rallied stand routs again at its next loss while under half (7.3)", function()
  local s = game({ "r1 a A type=INF/U sp=2 sp_start=6" })
  s:run("set a sp 1")
  ok(s:has("a", "routed"))
  next_round(s)
  s:dice(6)
  s:run("rally a")
  ok(not s:has("a", "routed"))
  s:run("set a sp 2") -- a gain does nothing
  ok(not s:has("a", "routed"))
end)

-- Rallying (7.3) ------------------------------------------------------------------------------

test("rally: not in the round of the rout (PN 7.2), then D6 5+ (7.3)", function()
  local s = game({ "r1 a A type=INF/U sp=2 sp_start=6" })
  s:run("set a sp 1")
  contains(s:fails("rally a"), "cannot rally in the round it took the casualties that routed it (PN 7.2)")
  next_round(s)
  s:dice(4)
  contains(s:run("rally a"), "still routing (needs 5+)")
  s:dice(5)
  local out = s:run("rally a")
  contains(out, "5  rally D6: 1d6 [5] (7.3)")
  contains(out, "rallies (5+)")
  ok(s:has("a", "rallied"))
end)

test("rally: a General within 4\" adds its rating: Superior +1, Inferior -1 (7.3)", function()
  local s = game({ "r1 a A type=INF/U sp=1 sp_start=6", "r1 sup Sup type=SKI/M sp=6 general=superior",
    "r1 inf Inf type=SKI/M sp=6 general=inferior", "b1 foe Foe type=SKI/M sp=6 general=superior" })
  s:run("mark a routed")
  s:dice(4)
  local out = s:run("rally a sup")
  contains(out, "+1  superior General Sup [sup] within 4\" (7.3)")
  contains(out, "rallies")
  s:run("mark a routed")
  s:dice(6)
  contains(s:run("rally a inf"), "-1  inferior General Inf [inf] within 4\" (7.3)")
  s:run("mark a routed")
  contains(s:fails("rally a foe"), "not on A [a]'s side")
  contains(s:fails("rally a a"), "not a General")
end)

test("rally: PN +1 once for Regular and/or Good or Elite (AMB-07); 2e needs Regular and Good/Elite", function()
  local function rally(unit, opts)
    local s = game({ "r1 a A type=INF/U sp=1 sp_start=6 " .. unit }, opts)
    s:run("mark a routed")
    s:dice(1)
    return s:run("rally a")
  end
  contains(rally("regular=true"), "+1  Regular (7.3, AMB-07)")
  contains(rally("quality=good"), "+1  good (7.3, AMB-07)")
  local both = rally("regular=true quality=elite")
  contains(both, "+1  Regular (7.3, AMB-07)")
  contains(both, "=   2  still routing")
  ok(not rally("quality=trained"):find("AMB%-07"), "trained irregulars: nothing")
  local v2 = { ruleset = "olab", variant = "2e" }
  ok(not rally("regular=true", v2):find("AMB%-07"), "2e: Regular alone is not enough")
  contains(rally("regular=true quality=good", v2), "+1  Regular and good (7.3, AMB-07)")
end)

test("rally: +1 for all troops after c.1900 or in sci-fi (7.3)", function()
  local s = game({ "r1 a A type=SKI/F sp=1 sp_start=6" })
  s:run("period 1943")
  s:run("mark a routed")
  s:dice(1)
  contains(s:run("rally a"), "+1  troops after c.1900 (7.3, AMB-07)")
  s:run("period 1900")
  s:dice(1)
  ok(not s:run("rally a"):find("AMB%-07"), "1900 is not after 1900")
end)

test("rally: only routing stands", function()
  local s = game({ "r1 a A type=INF/U sp=6 sp_start=6" })
  eq(s:fails("rally a"), "A [a] is not routing (7.3)")   -- a plain refusal (umpire.fail)
end)

-- Command morale, PN (7.1) ---------------------------------------------------------------------

-- A Command of ten stands (a1..a10) with a Competent General a1, and a C-in-C elsewhere.
local function command(opts, cinc)
  local units = { "r2 cinc CinC type=SKI/M sp=6 general=" .. (cinc or "competent") }
  for i = 1, 10 do
    units[#units + 1] = string.format("r1 a%d A%d type=INF/U sp=4 sp_start=4%s", i, i,
      i == 1 and " general=competent" or "")
  end
  local s = game(units, opts)
  s:run("cinc red cinc")
  return s
end

test("Command morale: no test below 20% lost (7.1)", function()
  local s = command()
  s:run("set a2 sp 0")
  contains(s:run("morale command:r1"), "1 of 10 stands lost (10%): no new threshold (7.1)")
end)

test("Command morale: at 20% a 1 retreats; one roll per threshold (7.1)", function()
  local s = command()
  s:run("set a2 sp 0")
  s:run("set a3 off_table routed_off")
  s:dice(1)
  local out = s:run("morale command:r1")
  contains(out, "Command morale 7.1: command:r1, 2 of 10 stands lost (20%)")
  contains(out, "retreats (20%: fails on 1 or less)")
  ok(s:has("a4", "retreating"), "every stand of the Command retreats")
  ok(not s:has("cinc", "retreating"), "other Commands do not")
  contains(s:run("morale command:r1"), "no new threshold")
end)

test("Command morale: 30% fails on 1-2, 40% on 1-3; crossing two at once is one roll (AMB-06)", function()
  local s = command()
  s:run("set a2 sp 0")
  s:run("set a3 sp 0")
  s:run("set a4 sp 0")
  s:dice(3)
  contains(s:run("morale command:r1"), "holds (30%: fails on 2 or less)")
  s:run("set a5 sp 0")
  s:dice(3)
  contains(s:run("morale command:r1"), "retreats (40%: fails on 3 or less)")
end)

test("Command morale: +C-in-C rating, -1 if the Command's General is killed (7.1)", function()
  local s = command(nil, "superior")
  s:run("set a1 sp 0")
  s:run("set a2 sp 0")
  s:dice(1)
  local out = s:run("morale all")
  contains(out, "+1  C-in-C CinC [cinc] (superior) (7.1)")
  contains(out, "-1  the Command's General is killed (7.1)")
  contains(out, "retreats")
  contains(out, "Command command:r2")
end)

test("Command morale: the starting size can be given once and is remembered (7.1)", function()
  local s = command()
  s:run("set a2 sp 0")
  s:run("set a3 sp 0")
  contains(s:run("morale command:r1 20"), "2 of 20 stands lost (10%)")
  contains(s:run("morale command:r1"), "2 of 20 stands lost")
end)

test("Command morale counts stands routed off the table, not those still routing (PN 7.1)", function()
  local s = command()
  s:run("set a2 sp 1")
  s:run("set a3 sp 1")
  contains(s:run("morale command:r1"), "0 of 10 stands lost")
end)

-- Army morale, 2e (7.1) ------------------------------------------------------------------------

test("2e army morale: the whole side, routing stands count, -1 per General killed (2e 7.1)", function()
  local s = command({ ruleset = "olab", variant = "2e" })
  s:run("set a2 sp 1")   -- routing
  s:run("set a1 sp 0")   -- a General killed
  s:run("set cinc general inferior")
  s:run("cinc red cinc")                -- the side's rating follows its C-in-C again
  local out = s:run("morale side:red")
  contains(out, "army side:red: 2 of 11 stands lost (18%): no new threshold (7.1)")
  s:run("set a3 sp 0")
  s:dice(3)
  out = s:run("morale side:red")
  contains(out, "Army morale 7.1: side:red, 3 of 11 stands lost (27%)")
  contains(out, "-1  C-in-C CinC [cinc] (inferior) (7.1)")
  contains(out, "-1  1 General(s) killed this game (2e 7.1)")
  contains(out, "retreats (20%: fails on 1 or less)")
end)

test("2e rally: not before a turn spent routing (2e 7.3)", function()
  local s = game({ "r1 a A type=INF/U sp=2 sp_start=6" }, { ruleset = "olab", variant = "2e" })
  s:run("set a sp 1")
  contains(s:fails("rally a"), "has not yet spent a turn routing (2e 7.3)")
  contains(s:run("rally a force"), "Rally 7.3: A")
end)

test("undo takes back a rout and the round it was recorded in", function()
  local s = game({ "r1 a A type=INF/U sp=6 sp_start=6" })
  s:run("set a sp 2")
  ok(s:has("a", "routed"))
  s:run("undo")
  ok(not s:has("a", "routed"))
  eq(s:stored("olab", "rout_round"), nil)
end)

-- Routs off the table and eliminations feed Command morale (7.1, 7.2, 7.4) ------------------

test("a routing stand's compulsory move takes it off the table: routed_off (7.2)", function()
  local s = game({ "r1 a A type=INF/U sp=6 sp_start=6", "r1 b B type=INF/U sp=6 sp_start=6" })
  contains(s:fails("rout a 5"), "neither routing (7.2) nor retreating")
  s:run("set a sp 2")
  ok(s:has("a", "routed"))
  local out = s:run("rout a 10")
  contains(out, "Rout move 7.2: A")
  contains(out, "6  INF (Table 4)")
  contains(out, "4\" short of it")
  eq(s:get("a", "off_table"), "no")
  ok(s:has("a", "moved"), "the rout move is its MOVE action")
  next_round(s)
  out = s:run("rout a 5")
  contains(out, "A [a] routs off the table")
  eq(s:get("a", "off_table"), "routed_off")
  ok(not s:has("a", "routed"))
  contains(s:fails("rout a"), "not on the table (routed_off)")
end)

test("a stand at 0 SP from any command is eliminated: off_table=eliminated (7.4)", function()
  local s = game({ "r1 a A type=INF/U sp=6 sp_start=6" })
  s:run("set a sp 0")
  eq(s:get("a", "off_table"), "eliminated")
end)

test("PN Command morale counts the routed-off and the eliminated, and keeps its state in the Command (7.1)", function()
  local s = command()
  s:run("set a2 sp 1")       -- routing: not yet lost (PN)
  s:run("set a3 sp 0")       -- eliminated
  contains(s:run("morale command:r1"), "1 of 10 stands lost (10%)")
  next_round(s)
  s:run("rout a2 off")
  s:dice(2)
  local out = s:run("morale command:r1")
  contains(out, "2 of 10 stands lost (20%)")
  contains(out, "holds (20%: fails on 1 or less)")
  contains(out, "r1 threshold 0 → 20")
  eq(s:get("r1", "threshold"), 20)
end)

test("a fallen General: the Command's general_killed, and the side's count for 2e (7.1)", function()
  local s = command()
  s:run("set a1 sp 0")
  eq(s:get("r1", "general_killed"), true)
  eq(s:get("red", "generals_killed"), 1)
end)

test("a retreating Command's stands leave the table as `retreated`, not lost (7.1; AMB-35)", function()
  local s = command()
  s:run("set a2 sp 0")
  s:run("set a3 sp 0")
  s:dice(1)
  s:run("morale command:r1")
  eq(s:get("r1", "retreating"), true)
  contains(s:run("rout a4 off"), "leaves the table in good order")
  eq(s:get("a4", "off_table"), "retreated")
end)

test("2e army morale with an army file: the side's start_stands, threshold and retreat (2e 7.1)", function()
  local s = session { ruleset = "olab", variant = "2e" }
  s:run("army load examples/olab/britons.toml")
  s:run("set war1,war2,war3 sp 0")
  s:run("set war4 sp 2")                  -- routing: counts in 2e (AMB-50)
  s:dice(3)
  local out = s:run("morale side:britons")
  contains(out, "Army morale 7.1: side:britons, 4 of 20 stands lost (20%)")
  contains(out, "-1  C-in-C Boudica on her chariot [boudica] (inferior) (7.1)")
  contains(out, "holds (20%: fails on 1 or less)")
  eq(s:get("britons", "threshold"), 20)
  eq(s:get("britons", "retreating"), false)
end)

test("2e army morale of allied sides (a team): one army, its stands counted together, its best C-in-C (2e 7.1)", function()
  local s = session { ruleset = "olab", variant = "2e" }
  s:run("army load examples/olab/romans.toml")
  s:run("army load examples/olab/french.toml")
  s:run("army load examples/olab/britons.toml")
  s:run("team west romans french")
  for _, id in ipairs({ "leg1", "leg2", "leg3", "leg4", "arc1", "legcav" }) do
    s:run("set " .. id .. " off_table eliminated")
  end
  -- Alone the Romans would have lost 30%; with their French allies it is 6 of 40.
  contains(s:run("morale side:romans"), "army team:west: 6 of 40 stands lost (15%): no new threshold (7.1)")
  for _, id in ipairs({ "guard1", "guard2" }) do s:run("set " .. id .. " off_table eliminated") end
  s:dice(2)
  local out = s:run("morale side:french")
  contains(out, "Army morale 7.1: team:west, 8 of 40 stands lost (20%)")
  contains(out, "the best C-in-C of team west")
  -- 2 + 1 (Napoleon, superior) holds at 20%.
  contains(out, "army team:west holds")
end)
