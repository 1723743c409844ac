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
