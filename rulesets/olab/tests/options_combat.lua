-- The options of close combat, morale, command and formations (issue 16: every documented
-- reading is a switch). Each test shows the default's result, then the alternative's, which
-- differs, so an option declared but never read fails here.

local h = require "_helpers"
local game = h.game
local V2 = { ruleset = "olab", variant = "2e" }

-- Close combat (combat.lua) --------------------------------------------------------------------

-- A (INF/U, 4 SP) strikes D; queued dice `...`; returns the output and the session.
local function cc(a, d, words, dice, opts, options)
  local s = game({ "r1 a A " .. a, "b1 d D " .. d }, opts)
  for _, o in ipairs(options or {}) do s:run("option set " .. o) end
  s:dice(table.unpack(dice))
  return s:run("cc a d " .. (words or "")), s
end

test("option recoil_at_half: exactly half stays (PN) or recoils (2e) against the edition (6.7; AMB-03)", function()
  -- A: 1 + 4 + 2 - 2 = 5 HP on D's 10 SP; D strikes back for nothing
  local A, D, dice = "type=INF/U sp=4 sp_start=4", "type=INF/U sp=10 sp_start=10", { 1, 1, 1, 1, 6, 6 }
  contains(cc(A, D, "", dice), "D [d] takes 5 HP (half or more of 10): recoils 3\"")
  local out, s = cc(A, D, "", dice, nil, { "recoil_at_half stay" })
  contains(out, "D [d] takes 5 HP (exactly half (option recoil_at_half stay) of 10): stays (6.7)")
  eq(s:get("d", "sp"), 5)
  contains(cc(A, D, "", dice, V2), "D [d] takes 5 HP (less than half of 10): stays (6.7)")
  contains(cc(A, D, "", dice, V2, { "recoil_at_half recoil" }),
    "D [d] takes 5 HP (half or more (option recoil_at_half recoil) of 10): recoils 3\"")
  contains(cc(A, D, "", dice, V2, { "recoil_at_half edition" }), "stays (6.7)")
end)

test("option recoil_sp after: the loss is compared with the SP left, not the SP before (6.7; AMB-03)", function()
  -- A: 1 + 4 + 2 - 3 = 4 HP on D's 11 SP: under half of 11, but 8 >= the 7 left
  local A, D, dice = "type=INF/U sp=4 sp_start=4", "type=INF/U sp=11 sp_start=11", { 1, 1, 2, 1, 6, 6 }
  contains(cc(A, D, "", dice), "D [d] takes 4 HP (less than half of 11): stays (6.7)")
  contains(cc(A, D, "", dice, nil, { "recoil_sp after" }),
    "D [d] takes 4 HP (half or more of 7 left (option recoil_sp after)): recoils 3\"")
end)

test("option bonus_row cumulative: +2 for each of charging, General, CAV striking SKI (Table 9; AMB-04)", function()
  local A, D, dice = "type=CAV/A sp=4 general=superior", "type=SKI/F sp=4", { 1, 1, 1, 1, 1, 1 }
  local out = cc(A, D, "charge", dice)
  contains(out, "+2  bonus: charging, General, CAV striking SKI (Table 9, AMB-04)")
  out = cc(A, D, "charge", dice, nil, { "bonus_row cumulative" })
  contains(out, "+2  bonus: charging (option bonus_row cumulative) (Table 9, AMB-04)")
  contains(out, "+2  bonus: General (option bonus_row cumulative) (Table 9, AMB-04)")
  contains(out, "+2  bonus: CAV striking SKI (option bonus_row cumulative) (Table 9, AMB-04)")
end)

test("option return_blow uses_action: striking back is the defender's CLOSE COMBAT action (2.1.1; AMB-12)", function()
  local A, D, dice = "type=INF/U sp=8 sp_start=8", "type=INF/U sp=12 sp_start=12", { 1, 6, 6, 1, 6, 6 }
  local _, s = cc(A, D, "", dice)
  ok(not s:has("d", "fought"), "the default: the return blow costs no action")
  local out
  out, s = cc(A, D, "", dice, nil, { "return_blow uses_action" })
  contains(out, "D [d]'s return blow is its CLOSE COMBAT action (option return_blow uses_action)")
  ok(s:has("d", "fought"), "the return blow used D's CLOSE COMBAT action")
  -- a defender that has already fought this round does not strike back
  s = game({ "r1 a A " .. A, "b1 d D " .. D })
  s:run("option set return_blow uses_action")
  s:run("mark d fought")
  s:dice(1, 6, 6)
  out = s:run("cc a d")
  contains(out, "D [d] has already used its CLOSE COMBAT action this round (2.1.1): no return blow (option return_blow uses_action)")
  ok(not out:find("D [d] strikes", 1, true), "no blow")
  s:run("undo")
  s:run("undo")   -- the mark
  s:run("undo")   -- the option
  s:dice(1, 6, 6, 1, 6, 6)
  contains(s:run("cc a d"), "D [d] strikes A [a] (front)")
end)

test("option blows attackers_first: the defender's losses come before its return blow (6.5; AMB-12)", function()
  -- both strike 6 + 4 + 2 - 2 = 10 HP
  local A, D, dice = "type=INF/U sp=4 sp_start=4", "type=INF/U sp=4 sp_start=4", { 6, 1, 1, 6, 1, 1 }
  local out, s = cc(A, D, "", dice)
  contains(out, "A [a] takes 10 HP and is eliminated (7.4)")
  out, s = cc(A, D, "", dice, nil, { "blows attackers_first" })
  contains(out, "D [d] is eliminated before it can strike back (option blows attackers_first)")
  eq(s:get("a", "sp"), 4)
  -- a defender that survives strikes with what it has left: 12 - 4 = 8
  out = cc("type=INF/U sp=4 sp_start=4", "type=INF/U sp=12 sp_start=12", "", { 1, 1, 1, 1, 6, 6 }, nil,
    { "blows attackers_first" })
  contains(out, "+7  striker's SP after the attackers' blows (option blows attackers_first) (Table 9, AMB-12)")
end)

test("option several_attackers each: the largest blow, not the sum, decides the recoil (6.7; AMB-12)", function()
  local function run(option)
    local s = game({ "r1 a A type=INF/U sp=4", "r1 b B type=INF/U sp=4", "b1 d D type=INF/U sp=12 sp_start=12" })
    if option then s:run("option set several_attackers each") end
    -- A: 2 HP, B (flank): 4 HP, together half of 12
    s:dice(6, 5, 5, 1, 4, 3, 1, 6, 6)
    return s:run("cc a d front b flank"), s
  end
  contains(run(), "D [d] takes 6 HP (half or more of 12): recoils 3\"")
  local out, s = run(true)
  contains(out, "D [d] takes 6 HP (largest blow 4 (option several_attackers each): less than half of 12): stays (6.7)")
  eq(s:get("d", "sp"), 6)
end)

test("option cc_results defender_only: an attacker struck back loses SP but does not recoil (6.7; AMB-12)", function()
  local function run(option)
    local s = game({ "r1 a A type=INF/U sp=4 sp_start=4", "b1 d D type=INF/U sp=4 sp_start=4" })
    if option then s:run("option set cc_results defender_only") end
    s:dice(1, 6, 6, 1, 1, 3)            -- only the attacker takes HP: 3 of 4
    s:answers("blocked")
    return s:run("cc a d"), s
  end
  local out, s = run()
  contains(out, "A [a] must recoil 3\" straight away from D [d]")
  eq(s:get("a", "off_table"), "eliminated")
  out, s = run(true)
  contains(out, "A [a] takes 3 HP (half or more of 4): stays, only the stand attacked recoils (option cc_results defender_only) (6.7)")
  ok(not out:find("is its path clear", 1, true), "nothing asked")
  eq(s:get("a", "sp"), 1)
end)

test("option charging_wbd wbd_charged: +1 to a stand charging a WBD, not to the WBD's charge (Table 9; AMB-22)", function()
  local dice = { 1, 1, 1, 1, 1, 1 }
  contains(cc("type=WBD sp=5", "type=INF/U sp=4", "charge", dice), "+1  charging WBD (Table 9, AMB-22)")
  ok(not cc("type=INF/U sp=4", "type=WBD sp=5", "charge", dice):find("charging a WBD", 1, true), "default")
  local opt = { "charging_wbd wbd_charged" }
  ok(not cc("type=WBD sp=5", "type=INF/U sp=4", "charge", dice, nil, opt):find("charging WBD", 1, true),
    "the WBD's own charge gets nothing")
  contains(cc("type=INF/U sp=4", "type=WBD sp=5", "charge", dice, nil, opt),
    "+1  charging a WBD (option charging_wbd wbd_charged) (Table 9, AMB-22)")
end)

test("option pike_bonus enemy_front: no PKE +3 into an enemy's flank (Table 9; AMB-23)", function()
  local dice = { 1, 1, 1 }
  contains(cc("type=PKE sp=4", "type=INF/U sp=4", "flank", dice), "+3  PKE striking a non-PKE (Table 9, AMB-23)")
  local out = cc("type=PKE sp=4", "type=INF/U sp=4", "flank", dice, nil, { "pike_bonus enemy_front" })
  contains(out, "+0  PKE striking the flank: no +3 (option pike_bonus enemy_front) (Table 9, AMB-23)")
  contains(cc("type=PKE sp=4", "type=INF/U sp=4", "", { 1, 1, 1, 1, 1, 1 }, nil, { "pike_bonus enemy_front" }),
    "+3  PKE striking a non-PKE")
end)

test("option testudo_strength full_front: a testudo strikes its front with full SP (6.6; AMB-29)", function()
  local function run(options)
    local s = game({ "r1 leg Leg type=INF/A sp=8 sp_start=8", "b1 wbd Wbd type=WBD sp=5 sp_start=5" })
    s:run("testudo leg")
    for _, o in ipairs(options or {}) do s:run("option set " .. o) end
    s:dice(6, 1, 1, 6, 1, 1)
    return s:run("cc leg wbd force")
  end
  contains(run(), "+2  testudo: 1/4 of its SP (6.6, AMB-29)")
  contains(run({ "testudo_strength full_front" }),
    "+8  testudo striking into its front: full SP (option testudo_strength full_front) (6.6, AMB-29)")
end)

test("option elephants foot: foot striking an elephant's flank get the PKE +8 (6.5; AMB-37)", function()
  local A, D, dice = "type=INF/U sp=4", "type=PKE sp=4 elephant=true", { 1, 1, 1 }
  contains(cc(A, D, "flank", dice), "+0  foot striking mounted: no flank/rear bonus (6.5)")
  contains(cc(A, D, "flank", dice, nil, { "elephants foot" }),
    "+8  PKE struck in the flank (option elephants foot) (6.5)")
  contains(cc("type=CAV/U sp=4", D, "", { 1, 1, 1, 1, 1, 1 }, nil, { "elephants foot" }),
    "+2  mounted striking PKE elephant (option elephants foot) (Table 9)")
end)

test("option routing_defender strikes_back: a routing stand strikes back (6.5; AMB-49)", function()
  local s = game({ "r1 a A type=INF/U sp=4", "b1 d D type=INF/U sp=2 sp_start=6" })
  s:run("mark d routed")
  s:dice(1, 1, 1)
  contains(s:run("cc a d"), "D [d] is routing: it does not strike back (AMB-49)")
  s:run("undo")
  s:run("option set routing_defender strikes_back")
  s:dice(1, 1, 1, 1, 1, 1)
  local out = s:run("cc a d")
  contains(out, "D [d] is routing but strikes back (option routing_defender strikes_back)")
  contains(out, "D [d] strikes A [a] (front)")
end)

-- Morale and rallying (morale.lua) -------------------------------------------------------------

-- Red: a Command r1 of ten INF/U stands a1..a10 (a1 its General, rated `general`), a C-in-C
-- in Command r2 rated `cinc`.
local function command(opts, cinc, general)
  local units = { "r2 cinc CinC type=SKI/M sp=6 general=" .. (cinc or "competent") }
  for i = 1, 10 do
    units[#units + 1] = string.format("r1 a%d A%d type=INF/U sp=4 sp_start=4%s", i, i,
      i == 1 and (" general=" .. (general or "competent")) or "")
  end
  local s = h.game(units, opts, { "red r2 Reserve" })
  s:run("cinc red cinc")
  return s
end

test("option morale_losses count: 2 of 11 stands reach rhu(0.2 x 11) = 2, though 18% is under 20% (7.1; AMB-06)", function()
  local s = command()
  s:run("set a2 sp 0")
  s:run("set a3 sp 0")
  contains(s:run("morale command:r1 11"), "2 of 11 stands lost (18%): no new threshold (7.1)")
  s:run("option set morale_losses count")
  s:dice(1)
  local out = s:run("morale command:r1")
  contains(out, "2 of 11 stands lost (18%, threshold 20% by count (option morale_losses count))")
  contains(out, "retreats (20%: fails on 1 or less)")
end)

test("option morale_crossings each_threshold: one roll for each threshold crossed, until one fails (7.1; AMB-06)", function()
  local function run(option)
    local s = command()
    if option then s:run("option set morale_crossings each_threshold") end
    s:run("set a2,a3,a4 sp 0")      -- 30% at once
    s:dice(3, 2)
    return s:run("morale command:r1"), s
  end
  local out = run()
  contains(out, "holds (30%: fails on 2 or less)")
  ok(not out:find("20%%: fails"), "one roll, at 30%")
  local s
  out, s = run(true)
  contains(out, "3 of 10 stands lost (30%; threshold 20% of 30 crossed (option morale_crossings each_threshold))")
  contains(out, "holds (20%: fails on 1 or less)")
  contains(out, "retreats (30%: fails on 2 or less)")
  eq(s:get("r1", "threshold"), 30)
  eq(s:get("r1", "retreating"), true)
end)

test("option morale_rating command_general: the Command's own General's rating, not the C-in-C's (7.1; AMB-06)", function()
  local function run(option)
    local s = command(nil, "superior", "inferior")
    if option then s:run("option set morale_rating command_general") end
    s:run("set a2 sp 0")
    s:run("set a3 sp 0")
    s:dice(2)
    return s:run("morale command:r1")
  end
  local out = run()
  contains(out, "+1  C-in-C CinC [cinc] (superior) (7.1)")
  contains(out, "holds")
  out = run(true)
  contains(out, "-1  Command General A1 [a1] (inferior) (option morale_rating command_general) (7.1)")
  contains(out, "retreats")
end)

test("option army_morale_routing ever_routed: 2e army morale counts a rallied stand that once routed (2e 7.1; AMB-50)", function()
  local s = command(V2)
  s:run("set a4 sp 1")          -- routs
  h.next_round(s)
  s:dice(6)
  s:run("rally a4")
  s:run("set a2 sp 0")
  s:run("set a3 sp 0")
  contains(s:run("morale side:red"), "2 of 11 stands lost (18%): no new threshold (7.1)")
  s:run("option set army_morale_routing ever_routed")
  s:dice(6)
  local out = s:run("morale side:red")
  contains(out, "3 of 11 stands lost (27%; 1 rallied but once routed (option army_morale_routing ever_routed))")
  contains(out, "holds (20%")
end)

test("option rally_troops each: Regular and Elite each add +1 (7.3; AMB-07)", function()
  local function run(option)
    local s = h.game({ "r1 a A type=INF/U sp=1 sp_start=6 regular=true quality=elite" })
    if option then s:run("option set rally_troops each") end
    s:run("mark a routed")
    s:dice(3)
    return s:run("rally a")
  end
  local out = run()
  contains(out, "=   4  still routing")
  out = run(true)
  contains(out, "+1  Regular (option rally_troops each) (7.3, AMB-07)")
  contains(out, "+1  elite (option rally_troops each) (7.3, AMB-07)")
  contains(out, "=   5  rallies")
end)

test("option rally_general best_rated: of two Generals within 4\", the best-rated helps, not the stand's own (7.3; AMB-36)", function()
  local function run(option)
    local s = h.game({ "r1 a A type=INF/U sp=1 sp_start=6", "r1 inf Inf type=SKI/M sp=6 general=inferior",
      "r2 sup Sup type=SKI/M sp=6 general=superior" }, nil, { "red r2 Reserve" })
    if option then s:run("option set rally_general best_rated") end
    s:run("mark a routed")
    s:dice(4)
    return s:run("rally a sup inf")
  end
  local out = run()
  contains(out, "-1  inferior General Inf [inf] within 4\", its own Command's General (AMB-36) (7.3)")
  contains(out, "still routing")
  out = run(true)
  contains(out, "+1  superior General Sup [sup] within 4\", the best-rated (option rally_general best_rated) (7.3)")
  contains(out, "rallies")
end)

test("option square_losses pooled: a square routs on its two stands' SP together (6.6, 7.2; AMB-29)", function()
  local function run(option)
    local s = h.game({ "r1 m1 M1 type=MSK sp=3 sp_start=6", "r1 m2 M2 type=MSK sp=6 sp_start=6" })
    if option then s:run("option set square_losses pooled") end
    s:run("square m1 m2")
    s:run("set m1 sp 2")
    return s
  end
  local s = run()
  ok(s:has("m1", "routed"), "split: 2 is below half of 6")
  s = run(true)
  ok(not s:has("m1", "routed"), "pooled: 8 of 12 is not below half")
  s:run("square m1 force")
  ok(s:has("m1", "routed") and not s:has("m2", "routed"), "out of the square each tests its own rout")
  s = run(true)
  contains(s:run("set m2 sp 3"), "its square's SP 5 are below half of their starting 12 (7.2; option square_losses pooled)")
  ok(s:has("m1", "routed") and s:has("m2", "routed"), "both rout together")
end)

-- Command (command.lua) ------------------------------------------------------------------------

local function red(opts)
  local s = session(opts or { ruleset = "olab" })
  s:run("add side red Red")
  s:run("add command red rc R")
  s:run("add command red rc2 R2")
  s:run("add unit rc gen Gen type=SKI/M general=competent cinc=true sp=3 sp_start=3")
  s:run("add unit rc a A type=INF/U sp=4 sp_start=4")
  s:run("add unit rc2 gen2 Gen2 type=SKI/M general=superior")
  s:run("add unit rc2 c C type=INF/U sp=4 sp_start=4")
  s:run("cinc red gen")
  return s
end

test("option command_chain: PN's own Command General or any friendly General (4.1.2; AMB-27)", function()
  local s = red()
  contains(s:run("incommand a 5"), "5  longest gap to Gen [gen] (4.1.2; AMB-27)")
  s:run("option set command_chain any_general")
  contains(s:run("incommand a 5"), "5  longest gap to the nearest friendly General (option command_chain any_general) (4.1.2; AMB-27)")
  s = red(V2)
  contains(s:run("incommand a 3"), "3  longest gap to the nearest friendly General (4.1.2; AMB-27)")
  s:run("option set command_chain own_general")
  contains(s:run("incommand a 3"), "3  longest gap to Gen [gen], its own Command's (option command_chain own_general) (4.1.2; AMB-27)")
end)

test("option routing_attrition loses: a routing stand out of command loses 1 SP (PN 4.1.2; AMB-28)", function()
  local s = red()
  s:run("mark c routed")
  contains(s:run("incommand c 9 after"), "it is routing, so no loss (AMB-28)")
  eq(s:get("c", "sp"), 4)
  s:run("option set routing_attrition loses")
  contains(s:run("incommand c 9 after"), "C [c] stays out of command and loses 1 SP (PN 4.1.2) (option routing_attrition loses)")
  eq(s:get("c", "sp"), 3)
end)

test("option new_general_sp plus_one: a replacement General gains Table 3's +1 SP (7.4; AMB-45)", function()
  local s = red()
  s:run("set gen sp 0")
  contains(s:run("newgeneral gen a"), "; SP unchanged (AMB-45)")
  eq(s:get("a", "sp"), 4)
  s:run("undo")
  s:run("option set new_general_sp plus_one")
  contains(s:run("newgeneral gen a"), "; SP +1 to 5 (option new_general_sp plus_one)")
  eq(s:get("a", "sp"), 5)
  eq(s:get("a", "sp_start"), 5)
end)

test("option unnamed_cinc best_general: a side with no C-in-C named takes its best-rated General's rating (3.3, 7.1)", function()
  local function run(option)
    local s = h.game({ "r1 g G type=SKI/M sp=6 general=superior", "r1 a A type=INF/U sp=4",
      "r1 b B type=INF/U sp=4", "r1 c C type=INF/U sp=4", "r1 d D type=INF/U sp=4" })
    if option then s:run("option set unnamed_cinc best_general") end
    s:run("set a sp 0")            -- 1 of 5 lost: 20%
    s:dice(1)
    return s:run("morale command:r1"), s
  end
  local out, s = run()
  contains(out, "retreats (20%: fails on 1 or less)")
  contains(s:run("cinc red"), "red: Red [red]'s C-in-C, no stand named (competent), +0")
  out, s = run(true)
  contains(out, "+1  best-rated General G [g] as C-in-C (superior) (option unnamed_cinc best_general) (7.1)")
  contains(out, "holds")
  contains(s:run("cinc red"), "red: best-rated General G [g] as C-in-C (superior) (option unnamed_cinc best_general), +1")
end)

test("option unnamed_cinc best_general: initiative adds the best-rated General's rating too (3.3)", function()
  local function initiative(option)
    local s = h.game({ "r1 g G type=SKI/M sp=6 general=superior", "r1 a A type=INF/U sp=4",
      "b1 x X type=INF/U sp=4 cinc=true general=competent" })
    if option then s:run("option set unnamed_cinc best_general") end
    s:dice(3, 3)
    return s:run("initiative")
  end
  ok(not initiative():find("best-rated General", 1, true), "the side's cinc_rating by default")
  contains(initiative(true), "+1  best-rated General G [g] as C-in-C (superior) (option unnamed_cinc best_general)")
end)

-- 2e 7.3 drops PN's "and/or": read as printed, the +1 is for a Regular stand that is also Good
-- or Elite. A Regular, Trained stand rolling 4 with no General near: 4 + 0 = 4, still routing;
-- with option rally_2e_line either, 4 + 1 = 5, it rallies. A Regular Elite stand gets +1 either
-- way (4 + 1 = 5).
test("option rally_2e_line either: in 2e a Regular or a Good/Elite stand gets the troop +1 (2e 7.3; AMB-07)", function()
  local function run(attrs, option)
    local s = h.game({ "r1 a A type=MSK sp=1 sp_start=6 " .. attrs }, V2)
    if option == "either" then s:run("option set rally_2e_line either") end
    if option == "both" then s:run("option set rally_2e_line both") end
    s:run("mark a routed")
    s:dice(4)
    return s:run("rally a")
  end
  local out = run("regular=true quality=trained")
  contains(out, "=   4  still routing")
  out = run("regular=true quality=trained", "both")
  contains(out, "=   4  still routing")
  out = run("regular=true quality=trained", "either")
  contains(out, "+1  Regular (option rally_2e_line either) (7.3, AMB-07)")
  contains(out, "=   5  rallies")
  out = run("regular=false quality=good", "either")
  contains(out, "+1  good (option rally_2e_line either) (7.3, AMB-07)")
  out = run("regular=true quality=elite")
  contains(out, "+1  Regular and elite (7.3, AMB-07)")
  contains(out, "=   5  rallies")
end)
