-- Commanders (5), the command control table (12), orders (17), sub-commander activation (18),
-- sub-commanders' own initiative (19), unit activation (21), units' own initiative (29), and
-- the options of these sections (FLD-D02, D18, D19, D27).

-- Red: C-in-C rating 4; sub-commanders left (rating 3, wing 1: sp1 sp2 bw1), centre (rating 2,
-- wing 2: ax1) and right (rating 5, wing 3: cav1, irregular). Blue: bl (orc1, orc2, irregular).
local function game()
  local s = session { ruleset = "fld" }
  s:run("add side red Red")
  s:run("add side blue Blue")
  for _, c in ipairs({ "red left Left", "red centre Centre", "red right Right", "blue bl BLeft" }) do
    s:run("add command " .. c)
  end
  for _, u in ipairs({ "left sp1 Spears1", "left sp2 Spears2", "left bw1 Bows1", "centre ax1 Axes1",
    "right cav1 Cav1 discipline=irregular", "bl orc1 Orcs1 discipline=irregular", "bl orc2 Orcs2 discipline=irregular" }) do
    s:run("add unit " .. u)
  end
  s:run("cinc red 4 Duke Ulric")
  s:run("cinc blue 2 with orc1 Gorbag")
  s:run("sc left 3 wing 1 name Sir Hal")
  s:run("sc centre 2 wing 2")
  s:run("sc right 5 wing 3")
  s:run("sc bl 2 irregular")
  s:run("orders left hold")
  s:run("orders centre hold")
  s:run("orders right advance")
  s:run("orders bl attack")
  return s
end

-- A side `x` with one sub-commander `c` (rating `r`) and `n` units (`k` of them irregular).
local function units_game(r, n, k)
  local s = session { ruleset = "fld" }
  s:run("add side x X")
  s:run("add command x c C")
  for i = 1, n do s:run("add unit c u" .. i .. " U" .. i .. (i <= (k or 0) and " discipline=irregular" or "")) end
  s:run("sc c " .. r)
  return s
end

test("commanders: ratings, names, figures joined, and the chain shown (5, 12)", function()
  local s = game()
  eq(s:get("red", "cinc_rating"), 4)
  eq(s:get("blue", "cinc_with"), "orc1")
  eq(s:get("left", "sc_name"), "Sir Hal")
  eq(s:get("left", "wing"), 1)
  eq(s:get("bl", "sc_discipline"), "irregular")
  local out = s:run("commanders")
  contains(out, "red: C-in-C Duke Ulric, rating 4")
  contains(out, "blue: C-in-C Gorbag, rating 2, with orc1")
  contains(out, "right: right (rating 5); orders ADVANCE; activation not rolled; TI not rolled")
  contains(s:fails("cinc red 7"), "a Commander Rating is 1 to 6, not 7 (5, 12)")
  contains(s:fails("sc left 3 brave"), "`brave` is not understood")
  contains(s:fails("sc left wing x"), "whole number")
  contains(s:fails("cinc red with orc1"), "orc1 is on blue's side")
  s:run("sc centre staff")
  contains(s:run("commanders red"), "centre: staff, not a Major Tactical Unit")
end)

test("orders: written before the game; RUSH only by own initiative; changed in play by activation (17, 18)", function()
  local s = game()
  contains(s:run("orders left attack"), "left: ATTACK — every unit must advance at least its full move")
  contains(s:fails("orders left rush"), "RUSH comes only from an own-initiative roll (19)")
  s:run("orders left rush force")
  eq(s:get("left", "orders"), "rush")
  local all = s:run("orders")
  contains(all, "MARCH: units may move up to twice their move in march column")
  contains(all, "red / left: RUSH")
  for _ = 1, 7 do s:run("next") end            -- round 2
  contains(s:fails("orders centre attack"), "scactivate red centre attack")
end)

test("the command control table as printed, both label sets (12)", function()
  local s = game()
  local reg = s:run("table show command_control_regular")
  contains(reg, "1-3")
  contains(reg, "9+")
  local irr = s:run("table show command_control_irregular")
  contains(irr, "5+")
  -- Rating 3 down the regular rows: 2, 3, 4, 5.
  for _, case in ipairs({ { 3, 2, "1-3" }, { 6, 3, "4-6" }, { 8, 4, "7-8" }, { 9, 5, "9+" } }) do
    local t = units_game(3, case[1])
    t:dice(table.unpack((function() local d = {} for i = 1, case[1] do d[i] = 6 end return d end)()))
    local out = t:run("activate c all")
    contains(out, case[1] .. " tried: regular row " .. case[3])
    contains(out, "needed " .. case[2] .. "+")
  end
  -- Irregular rows (any unit irregular, FLD-D18): 1-2, 3, 4, 5+.
  for _, case in ipairs({ { 2, 2, "1-2" }, { 3, 3, "3" }, { 4, 4, "4" }, { 5, 5, "5+" } }) do
    local t = units_game(3, case[1], 1)
    t:dice(6, 6, 6, 6, 6)
    local out = t:run("activate c all")
    contains(out, case[1] .. " tried: irregular row " .. case[3])
    contains(out, "needed " .. case[2] .. "+")
  end
  -- The first row across the ratings: 1 1 2 3 4 5.
  for r, need in ipairs({ 1, 1, 2, 3, 4, 5 }) do
    local t = units_game(r, 1)
    t:dice(6)
    contains(t:run("activate c u1"), "needed " .. need .. "+")
  end
end)

test("sub-commander activation: table, distance bands, blocked, changed orders, ally (18, FLD-D20)", function()
  local s = game()
  s:run("sc right ally")
  -- Rating 4, 3 tried (right's troops irregular: irregular row 3): 4.
  s:dice(6, 6, 6)
  local out = s:run("scactivate red left 12\" centre 12.5in attack right 30cm blocked")
  contains(out, "needs 4: command control table, C-in-C rating 4, 3 tried: irregular row 3; 1 of 3 with irregular troops (any_irregular) (12)")
  contains(out, "needs 1 more: over 12\" to 24\" from the C-in-C: 12.5\" (18; FLD-D20)")
  contains(out, "needs 1 more: orders changed: hold to attack (18)")
  contains(out, "needs 1 more: line from the C-in-C blocked by terrain (18)")
  contains(out, "needs 1 more: an allied sub-commander (18)")
  contains(out, "activated (rolled 6, needed 4+)")       -- left at 12": no modifier
  contains(out, "activated (rolled 6, needed 6+)")       -- centre, right (30 cm = 11.8")
  eq(s:get("centre", "orders"), "attack")
  eq(s:get("left", "activation"), "activated")
  contains(s:fails("scactivate red left 3"), "already rolled this turn")
end)

test("distance bands: 24\" +1, 25\" and 48\" +2, over 48\" +3; needing 7 cannot succeed (18)", function()
  -- C-in-C rating 4, one tried: 3 on the table.
  for _, case in ipairs({ { "24\"", "over 12\" to 24\"", 4 }, { "25", "over 24\" to 48\"", 5 },
    { "48in", "over 24\" to 48\"", 5 }, { "122cm", "over 48\"", 6 }, { "49 blocked", "over 48\"", 7 } }) do
    local s = game()
    s:dice(6, 1, 1, 1)
    local out = s:run("scactivate red left " .. case[1])
    contains(out, case[2])
    contains(out, "needed " .. case[3] .. "+")
    if case[3] == 7 then contains(out, "not activated (rolled 6, needed 7+)") end
  end
  local s = game()
  contains(s:fails("scactivate red left 12yd"), "unknown unit `yd`")
  contains(s:fails("scactivate red left"), "give his distance from the C-in-C")
  contains(s:fails("scactivate red bl 3"), "bl is not a sub-commander of red (it is blue's)")
  contains(s:fails("scactivate red left 3 rush"), "RUSH is never given by the C-in-C")
end)

test("not activated: own initiative rolled for each (18, 19; FLD-D27)", function()
  local s = game()
  -- left tried and fails (1); centre and right not tried: own initiative rolls.
  -- left: regular table, rating 3, d6 4 -> W. centre: regular, rating 2, d6 1 -> LR: both
  -- neighbours, a die 2 -> left (now WAIT). right: irregular, rating 5, d6 2 -> AT.
  s:dice(1, 4, 1, 2, 2)
  local out = s:run("scactivate red left 6")
  contains(out, "not activated (rolled 1, needed 3+)")
  contains(out, "Sub-commander's own initiative 19: left (Sir Hal, rating 3), regular table")
  contains(out, "W: orders become WAIT")
  contains(out, "Left or right 19: centre has wings on both sides")
  contains(out, "left, to the left")
  contains(out, "irregular table (1 of his units irregular)")
  eq(s:get("left", "orders"), "wait")
  eq(s:get("centre", "orders"), "wait")
  eq(s:get("right", "orders"), "attack")
  eq(s:get("left", "activation"), "failed")
  eq(s:get("centre", "activation"), "not_tried")
  eq(s:get("centre", "oi_result"), "LR, as left, his neighbour")
end)

test("option idle_subcommanders keep_orders: no own-initiative roll (FLD-D27)", function()
  local s = game()
  s:run("option set idle_subcommanders keep_orders")
  s:dice(1)
  local out = s:run("scactivate red left 6")
  contains(out, "left (failed activation) keeps his orders HOLD")
  eq(s:get("right", "orders"), "advance")          -- the default would roll for him
  eq(s:get("centre", "orders"), "hold")
end)

test("option activation_columns reversed: a higher rating needs less (12; FLD-D02)", function()
  local s = units_game(1, 1)
  s:dice(3)
  contains(s:run("activate c u1"), "activated (rolled 3, needed 1+)")
  local t = units_game(1, 1)
  t:run("option set activation_columns reversed")
  t:dice(3)
  local out = t:run("activate c u1")
  contains(out, "read in column 6 (option activation_columns reversed)")
  contains(out, "not activated (rolled 3, needed 5+)")
  ok(t:has("u1", "own_initiative"))
end)

test("option activation_labels majority: one irregular of three reads the regular rows (12; FLD-D18)", function()
  local s = units_game(3, 3, 1)
  s:dice(2, 2, 2)
  local out = s:run("activate c all")
  contains(out, "3 tried: irregular row 3")
  contains(out, "not activated (rolled 2, needed 3+)")
  local t = units_game(3, 3, 1)
  t:run("option set activation_labels majority")
  t:dice(2, 2, 2)
  out = t:run("activate c all")
  contains(out, "3 tried: regular row 1-3")
  contains(out, "activated (rolled 2, needed 2+)")
  ok(t:has("u1", "activated"))
end)

test("option activation_rolls one_roll: one die for the set (21; FLD-D19)", function()
  local s = units_game(3, 2)
  s:dice(6, 1)
  s:run("activate c u1 u2")
  ok(s:has("u1", "activated"))
  ok(s:has("u2", "own_initiative"))
  local t = units_game(3, 2)
  t:run("option set activation_rolls one_roll")
  t:dice(6, 1)
  contains(t:run("activate c u1 u2"), "the set's activation d6 (one roll, option activation_rolls)")
  ok(t:has("u1", "activated"))
  ok(t:has("u2", "activated"))
end)

test("unit activation: linked groups count once and need 1 less; the rest on own initiative (21, 29)", function()
  local s = game()
  s:dice(2, 1)
  local out = s:run("activate left sp1+sp2")
  contains(out, "1 tried: regular row 1-3")
  contains(out, "needs 1 less: a linked group of 2 units (21, 28.v)")
  contains(out, "activated (rolled 2, needed 1+)")
  contains(out, "bw1 marked own_initiative (end of round) — not tried: own initiative this turn")
  ok(s:has("sp1", "activated"))
  ok(s:has("sp2", "activated"))
  ok(s:has("bw1", "own_initiative"))
  contains(s:fails("activate left bw1"), "already rolled for this turn")
  contains(s:fails("activate left orc1"), "orc1 is in bl, not left")
  s:run("activate bl none")
  ok(s:has("orc1", "own_initiative"))
  -- Activation lasts the turn (16, 21).
  for _ = 1, 7 do s:run("next") end
  ok(not s:has("sp1", "activated"))
  ok(not s:has("orc1", "own_initiative"))
end)

-- Every cell of both own-initiative tables (19), by its code.
local IRR = {
  { "LR", "R", "R", "R", "R", "AT" }, { "LR", "R", "R", "R", "AT", "AT" }, { "LR", "R", "LR", "AT", "AT", "A" },
  { "R", "LR", "AT", "AT", "A", "A" }, { "LR", "AT", "AT", "A", "A", "P" }, { "AT", "AT", "A", "A", "P", "P" } }
local REG = {
  { "A", "LR", "A", "A", "A", "P" }, { "LR", "A", "A", "A", "P", "P" }, { "A", "A", "LR", "P", "P", "P" },
  { "LR", "W", "W", "P", "P", "P" }, { "LR", "W", "W", "W", "P", "P" }, { "W", "LR", "W", "W", "W", "P" } }
local ORDER = { AT = "attack", A = "advance", W = "wait", R = "rush" }

test("sub-commander's own initiative: every cell of the irregular and regular tables (19)", function()
  for _, kind in ipairs({ "irregular", "regular" }) do
    local grid = kind == "irregular" and IRR or REG
    local s = units_game(1, 1, kind == "irregular" and 1 or 0)
    s:run("orders c hold")
    for r = 1, 6 do
      s:run("sc c " .. r)
      for d = 1, 6 do
        s:dice(d)
        local out = s:run("scinit c")
        local code = grid[d][r]
        contains(out, "= " .. string.format("%3d", d) .. "  " .. code .. ":")
        contains(out, kind .. " table")
        if ORDER[code] then eq(s:get("c", "orders"), ORDER[code]) end
        if code == "LR" then contains(out, "no neighbouring wing: keeps his orders") end
        if code == "P" then contains(out, "the player's choice") end
        s:run("orders c hold force")
      end
    end
  end
end)

test("own initiative P asks the player; LR with one neighbour copies it; an irregular SC uses the irregular table (19)", function()
  local s = game()
  s:run("sc left 6")
  s:dice(1)                                       -- regular, rating 6: P
  s:answers("march")
  contains(s:run("scinit left"), "P, the player's choice; orders march")
  eq(s:get("left", "orders"), "march")
  s:run("sc right 2")
  s:dice(4)                                       -- irregular (cav1), rating 2, d6 4: LR
  contains(s:run("scinit right"), "LR, as centre, his neighbour; orders hold")
  s:run("sc left regular")
  s:run("sc left irregular")
  s:dice(6)                                       -- irregular table, rating 6, d6 6: P
  s:answers("attack")
  contains(s:run("scinit left"), "irregular table (the sub-commander is irregular)")
end)

-- Units' own initiative (29): in a phase.
local function to_phase1(s)
  for _ = 1, 3 do s:run("next") end
end

test("unit's own initiative: the regular and irregular columns, row by row (29)", function()
  for d, want in ipairs({ "as neighbour", "as neighbour", "as the player wishes", "as the player wishes",
    "as the player wishes", "as the player wishes" }) do
    local s = game()
    to_phase1(s)
    s:dice(d, 1, 1, 1)                            -- neighbour throws: all to the left, nothing there
    contains(s:run("tuinit sp1"), "= " .. string.format("%3d", d) .. "  " .. want)
  end
  for d, want in ipairs({ "as neighbour", "as neighbour", "charge", "charge", "as the player wishes",
    "as the player wishes" }) do
    local s = game()
    to_phase1(s)
    s:dice(d, 1, 1, 1)
    contains(s:run("tuinit orc1"), "= " .. string.format("%3d", d) .. "  " .. want)
  end
end)

test("as neighbour: direction die, the neighbour's action copied; three failures (29)", function()
  local s = game()
  to_phase1(s)
  s:dice(1, 3)                                     -- as neighbour; 3: to the right
  s:answers("shoot")
  local out = s:run("tuinit sp1")
  contains(out, "to the right: TA3 shoot")
  contains(out, "declared TA3 shoot, compulsory (22)")
  ok(s:has("sp1", "own_initiative"))
  contains(s:fails("tuinit sp1"), "already rolled this phase")
  -- Regular, no usable neighbour in three throws: stays where it is.
  s:dice(2, 5, 6, 1)
  s:answers("forbidden", "none", "none")
  out = s:run("tuinit sp2")
  contains(out, "throw 3 of 3")
  contains(out, "to the front: forbidden to sp2, throw again")
  contains(out, "stays where it is")
  -- Irregular: charges the nearest enemy instead.
  s:dice(1, 1, 1, 1)
  out = s:run("tuinit orc1")
  contains(out, "charges the nearest enemy")
  contains(out, "declared TA2 charge")
  -- Irregular 3-4: must charge.
  s:dice(3)
  contains(s:run("tuinit orc2"), "declared TA2 charge, compulsory")
  s:dice(6)
  s:run("activate left bw1")
  contains(s:fails("tuinit bw1"), "is activated this turn")
end)

test("commander figures: rating and name from the figure; not Tactical Units; joining a unit marks it (5)", function()
  local s = game()
  s:run("add unit left hal Sir Hal's figure type=commander rating=5")
  s:run("add command red staff Staff")
  s:run("add unit staff duke Duke's figure type=commander rating=2")
  contains(s:run("sc left figure hal"), "left: left (Sir Hal's figure, rating 5)")
  contains(s:run("cinc red figure duke with sp1"), "red: Duke's figure, rating 2, with sp1")
  eq(s:get("sp1", "commander"), "cinc")
  s:run("cinc red with sp2")
  eq(s:get("sp1", "commander"), "none")
  eq(s:get("sp2", "commander"), "cinc")
  s:run("sc left with bw1")
  eq(s:get("bw1", "commander"), "sub")
  contains(s:fails("sc left figure sp1"), "is not a commander figure")
  -- The figure is no unit to activate, and a command of figures alone is no MTU.
  s:dice(6, 6, 6)
  local out = s:run("activate left all")
  contains(out, "3 tried: regular row 1-3")
  ok(not s:has("hal", "activated"))
  contains(s:fails("activate left hal"), "hal is a commander figure, not a Tactical Unit")
  ok(not s:run("commanders red"):find("staff:", 1, true))
end)

test("option wait_order printed: WAIT keeps half a move away from the enemy, as printed (17)", function()
  local s = game()
  contains(s:run("orders left wait"), "may close on an enemy unit by no more than half their move (option wait_order half_move)")
  s:run("option set wait_order printed")
  contains(s:run("orders left wait"), "may not end nearer to an enemy unit than half their move rate (as printed)")
end)

test("undo takes back an activation with its own-initiative rolls (18, 19)", function()
  local s = game()
  s:dice(1, 4, 1, 2, 2)
  s:run("scactivate red left 6")
  eq(s:get("left", "orders"), "wait")
  s:run("undo")
  eq(s:get("left", "orders"), "hold")
  eq(s:get("left", "activation"), "none")
  eq(s:get("right", "orders"), "advance")
  s:dice(6, 6, 6, 6)
  contains(s:run("scactivate red left 6"), "left activated: orders HOLD")
end)

test("the next sub-commander's attempt is proposed for the shell's prompt (21)", function()
  local s = game()
  s:dice(2, 1)
  s:run("activate left sp1+sp2")
  local next_attempt = s:record("propose")
  ok(next_attempt and next_attempt:match("^activate %w+ all$"), tostring(next_attempt))
  ok(not next_attempt:match("left"), "left has rolled for all its units")
end)
