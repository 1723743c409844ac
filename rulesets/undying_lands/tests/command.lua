-- Commanders (6, 7), orders and the actions they allow (10), activation with UL's modifiers
-- (11, 14), own initiative (12, 21), tactical initiative (13), the two-phase turn (9, 15),
-- setting up (8), all on the shared module fld_common.
local h = require "_helpers"

-- Red: General rating 4; wings left (rating 3: a1-a5), right (rating 2: i1, i2 irregular, i3).
local function game(opts)
  local s = session { ruleset = "undying_lands" }
  s:run("add side r Red")
  s:run("add side b Blue")
  s:run("add command r left Left")
  s:run("add command r right Right")
  s:run("add command b bw Blue")
  for _, o in ipairs((opts or {}).options or {}) do s:run("option set " .. o) end
  for i = 1, 5 do s:run("add unit left a" .. i .. " A" .. i) end
  s:run("add unit right i1 I1 discipline=irregular")
  s:run("add unit right i2 I2 discipline=irregular")
  s:run("add unit right i3 I3")
  s:run("add unit bw e1 E1")
  s:run("muster")
  s:run("cinc r 4 Aelfric")
  s:run("sc left 3 wing 1")
  s:run("sc right 2 wing 2")
  s:run("sc bw 3")
  s:run("orders left hold")
  s:run("orders right wait")
  s:run("orders bw attack")
  return s
end

test("the turn is orders, activation, initiative and two phases (9)", function()
  local s = game()
  local phases = {}
  for _ = 1, 5 do s:run("next"); phases[#phases + 1] = s:run("clock") end
  contains(phases[3], "phase1")
  contains(phases[4], "phase2")
  contains(phases[5], "round 2")
end)

test("orders: the Tactical Actions each allows; charges only under ATTACK and RUSH (10; UL-D18)", function()
  local s = game()
  local out = s:run("orders")
  contains(out, "ADVANCE: every TU must advance at least half its move toward the nearest enemy unit (Tactical Actions allowed: 3, 4, 5)")
  contains(out, "WAIT: no movement")
  contains(out, "RUSH: own initiative only")
  contains(out, "(Tactical Actions allowed: 1, 2, 4, 5)")
end)

test("sub-commander activation: placeholder table, cm bands, WAIT -2, the General's labels (11; UL-D20, UL-D21)", function()
  local s = game()
  s:run("next")
  s:dice(3, 1)
  local out = s:run("scactivate r left 45cm right 130cm")
  -- 2 tried, rating 4, right is irregular by majority: irregular row 1-2, column 4 = 2
  contains(out, "needs 2: command control table, General rating 4, 2 tried: irregular row 1-2")
  contains(out, "[PLACEHOLDER: lost table, umpire's value]")
  contains(out, "needs 1 more: 30 to 60 cm from the General: 45 cm")
  contains(out, "needs 3 more: over 120 cm from the General")
  contains(out, "needs 2 less: on WAIT orders")
  local rec = s:record("sc_activation") or s:record("activation")
  ok(rec ~= nil)
end)

test("unit activation: the SC's class by majority, one less per four linked units, the 'no' cells (14; UL-D20)", function()
  local s = game()
  s:run("next")
  s:run("next")
  s:dice(4)
  local out = s:run("activate left a1+a2+a3+a4")
  contains(out, "needs 1 less: a linked group of 4 units")
  s:dice(6, 6, 6, 6, 6, 6, 6, 6, 6)
  -- right: rating 2, irregular by majority (2 of 3): 3 tried is irregular row 3, column 2 = 5
  out = s:run("activate right all")
  contains(out, "irregular row 3")
  contains(out, "needs 5")
end)

test("a 'no' cell: cannot be activated (7)", function()
  local s = session { ruleset = "undying_lands" }
  s:run("add side r Red")
  s:run("add command r c C")
  for i = 1, 9 do s:run("add unit c u" .. i .. " U" .. i) end
  s:run("muster")
  s:run("sc c 1")
  s:run("next"); s:run("next")
  local out = s:run("activate c all")
  contains(out, "command control table: rating 1, 9 tried: regular row 9+: no [PLACEHOLDER")
  contains(out, "cannot be activated")
  eq(s:record("unit_activation")[1].placeholder, true)
end)

test("the commander's own TU is activated without a roll and not counted (6; UL-D27)", function()
  local s = game()
  s:run("sc left with a1")
  s:run("next"); s:run("next")
  s:dice(6, 6)
  local out = s:run("activate left a2 a3")
  ok(s:has("a1", "activated"))
  contains(out, "2 tried")
  contains(s:fails("activate left a1"), "needs no roll")
end)

test("tactical initiative is d20 + rating, highest first (13)", function()
  local s = game()
  s:run("next"); s:run("next"); s:run("next")
  s:dice(5, 18, 7)
  local out = s:run("ti")
  contains(out, "1d20")
  contains(out, "+3")
end)

test("own initiative: sub-commanders not tried roll on the tables of 12; TUs not tried on the table of 21", function()
  local s = game()
  s:dice(6, 2)
  local out = s:run("scactivate r left 10cm")
  contains(out, "Sub-commander's own initiative 12: right (rating 2), irregular table")
  contains(out, "R: orders become RUSH")
  eq(s:get("right", "orders"), "rush")
  s:run("next")
  s:dice(6)
  contains(s:run("activate left a1"), "not tried, on own initiative: a2, a3, a4, a5")
  s:run("next"); s:run("next")
  s:dice(3)
  contains(s:run("tuinit a2"), "as the player wishes")
  -- irregular with no usable neighbour after three throws: moves back a full move (21)
  s:dice(1, 1, 1, 1)
  s:answers("none", "none", "none")
  contains(s:run("tuinit i1"), "moves back a full move")
end)

test("the table: 4'x4' allowed, squares of 12, 16 or 20 (8.1)", function()
  local s = game()
  contains(s:run("help terrain"), "4x4")
end)
