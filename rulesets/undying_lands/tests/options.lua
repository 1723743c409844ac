-- Every reading (UL-Dnn) is an option; each alternative gives a different result from the
-- default here (rulesets/README.md, Options).
local h = require "_helpers"

test("option list shows every reading with its rule", function()
  local s = h.game({})
  local out = s:run("option list")
  for _, name in ipairs({ "ip_minimum", "ip_clamp_step", "target_column", "shooter_ip", "reduce_rounding",
    "disordered_close", "uphill_lines", "more_ip_factor", "charge_factors", "flank_lines", "fanatic_fail", "rally_cap",
    "disorder_base", "tu_lost_half", "allowed_actions", "recoil_count", "long_range", "repulse_mounted", "sbw_range",
    "commander_unit", "own_initiative_limits", "more_ip_test", "missile_charge", "disorder_count" }) do
    contains(out, name)
  end
end)

test("ip_minimum (UL-D01): IP may fall to 0 or less in play, or never below 1", function()
  local function run(opt)
    local s = h.game({ h.rom, "bw c Cross missile=lrw vignettes=1" })
    if opt then s:run("option set " .. opt) end
    s:run("set rom_v1 ip 3")
    s:dice(2, 1, 1, 1)                 -- 2 + 2 = 4 lost; a vignette at 0 or less tests (23.1 a)
    s:run("shoot c.1 rom.1")
    return s:get("rom_v1", "ip")
  end
  eq(run(), -1)
  eq(run("ip_minimum always"), 1)
end)

test("ip_clamp_step (UL-D29): the minimum of 1 once at the end, or after the morale class", function()
  local u = "rw lv Levy order=open morale_class=I physique=low size=small shield=sh"
  local a = h.game({ u })
  local b = h.game({ u }, { options = { "ip_clamp_step after_morale" } })
  eq(a:get("lv_v1", "ip"), 1)          -- 7 -10 -10 +6 = -7 -> 1
  eq(b:get("lv_v1", "ip"), 7)          -- 7 -10 -10 = -13 -> 1, +6
end)

test("target_column (UL-D02): Close order Mounted in the Mounted column, or Le/Be/CO", function()
  local function run(opt)
    local s = h.game({ "rw cb CB missile=lrw", "bw kn Kn type=mounted vignettes=1" })
    if opt then s:run("option set " .. opt) end
    s:dice(5, 5)
    return s:run("shoot cb.1 kn.1")
  end
  contains(run(), "2d10 [")
  contains(run("target_column close_first"), "1d10 [")
end)

test("shooter_ip (UL-D03): the larger line only, or both", function()
  local function run(opt)
    local s = h.game({ "rw cb CB missile=lrw", "bw c C" })
    if opt then s:run("option set " .. opt) end
    s:run("set cb_v1 ip 0")
    s:dice(9)
    s:run("shoot cb.1 c.1")
    return s:record("shooting").shot.loss
  end
  eq(run(), 9 + 2 - 2)
  eq(run("shooter_ip cumulative"), 9 + 2 - 3)
end)

test("reduce_rounding (UL-D04): the reduced value rounded down, or the reduction rounded down", function()
  local function run(opt)
    local s = h.game({ h.bow, "bw c C" })
    if opt then s:run("option set " .. opt) end
    s:dice(5)
    s:run("shoot bow.1 c.1")           -- 5 + 2 = 7, -25%
    return s:record("shooting").shot.loss
  end
  eq(run(), 5)
  eq(run("reduce_rounding floor_reduction"), 6)
end)

local function melee_total(units, prep, cmd, opt, dice)
  local s = h.game(units)
  if opt then s:run("option set " .. opt) end
  for _, p in ipairs(prep or {}) do s:run(p) end
  s:dice(table.unpack(dice or { 6, 6, 6, 6 }))
  s:run(cmd)
  return s:record("melee").blows[1].score, s
end

test("disordered_close (UL-D06): -4 and -2, or -4 only", function()
  local u = { "rw a A", "bw z Z" }
  local d = melee_total(u, { "mark a disordered" }, "melee a z pairs 1-1")
  local o = melee_total(u, { "mark a disordered" }, "melee a z pairs 1-1", "disordered_close minus4_only")
  eq(d, 12 - 6)
  eq(o, 12 - 4)
end)

test("uphill_lines (UL-D07): -2 up a Gentle Hill alone, or the printed lines together", function()
  local u = { "rw a A", "bw z Z" }
  local d = melee_total(u, {}, "melee a z a_uphill pairs 1-1")
  local o = melee_total(u, {}, "melee a z a_uphill pairs 1-1", "uphill_lines literal")
  eq(d, 10)
  eq(o, 9)
end)

test("more_ip_factor (UL-D08): -1 as written, or left out as in the Galatian example", function()
  local u = { "rw a A vignettes=1", "bw z Z morale_class=V vignettes=1" }
  local d = melee_total(u, {}, "melee a z")
  local o = melee_total(u, {}, "melee a z", "more_ip_factor omit")
  eq(d, 11)
  eq(o, 12)
end)

test("charge_factors (UL-D10): charge factors in the first-contact round only, or every round", function()
  local u = { "rw a A", "bw z Z" }
  local prep = { "orders rw attack", "charge a z", "next" }
  local d = melee_total(u, prep, "melee a z pairs 1-1", nil, { 6, 6, 6, 6 })
  local o = melee_total(u, prep, "melee a z pairs 1-1", "charge_factors every_round", { 6, 6, 6, 6 })
  eq(d, 12)
  eq(o, 13)
end)

test("flank_lines (UL-D12): +10 and +5 exclude each other, or both count", function()
  local s = h.game({ h.rom })
  contains(s:fails("integrity rom h flank_close flank_other"), "exclude each other")
  s:run("option set flank_lines cumulative")
  s:dice(1)
  contains(s:run("integrity rom h flank_close flank_other"), "=  16  passes")
end)

test("fanatic_fail (UL-D13): failing the test gives a normal charge, or a repulse", function()
  local function run(opt)
    local s = h.game({ "rw ft Ft", "bw war War order=loose discipline=irregular morale_class=II" })
    if opt then s:run("option set " .. opt) end
    s:run("orders bw attack")
    s:dice(10, 1, 1, 1, 1, 1, 1, 1)
    s:run("fanatic war ft")
    return s:has("war", "disordered")
  end
  eq(run(), false)
  eq(run("fanatic_fail repulse"), true)
end)

test("rally_cap (UL-D14): not above the starting IP, or uncapped", function()
  local function run(opt)
    local s = h.game({ h.rom })
    if opt then s:run("option set " .. opt) end
    s:run("mark rom disordered")
    s:run("set rom_v1 ip 28")
    s:dice(1)
    s:run("rally rom")
    s:run("set rom rally_left 0")
    s:dice(8)
    s:run("rally rom")
    return s:get("rom_v1", "ip")
  end
  eq(run(), 30)
  eq(run("rally_cap uncapped"), 36)
end)

test("disorder_base (UL-D16): half the IP at the start of the phase, or half the starting IP", function()
  local function run(opt)
    local s = h.game({ h.rom, "bw c C missile=lrw vignettes=1" })
    if opt then s:run("option set " .. opt) end
    s:run("set rom_v1 ip 10")
    s:dice(4)
    s:run("shoot c.1 rom.1")            -- 4 + 2 = 6 of 10
    return s:has("rom", "disordered")
  end
  eq(run(), true)
  eq(run("disorder_base starting"), false)
end)

test("tu_lost_half (UL-D17): the TU's total at half, or most of its vignettes at half", function()
  local function run(opt)
    local s = h.game({ "rw a A", "bw c C missile=lrw vignettes=1" })
    if opt then s:run("option set " .. opt) end
    s:run("set a_v1 ip 4")
    s:run("set a_v2 ip 14")
    s:dice(1)
    s:run("shoot c.1 a.1")             -- a_v1 4 - 3 = 1, a_v2 14: 15 of 30
    return s:get("rw", "demoralised")
  end
  eq(run(), true)
  eq(run("tu_lost_half majority"), false)
end)

test("allowed_actions (UL-D18): charges only under ATTACK and RUSH, or the printed lists (ADVANCE: all)", function()
  local s = h.game({ "rw a A", "bw z Z" })
  s:run("orders rw advance")
  contains(s:fails("charge a z"), "do not allow TA2 charge")
  s:run("option set allowed_actions printed")
  contains(s:run("charge a z"), "a contacts z")
end)

test("recoil_count (UL-D19): TU totals, or each vignette", function()
  local function run(opt)
    local s = h.game({ "rw a A", "bw z Z" })
    if opt then s:run("option set " .. opt) end
    s:dice(6, 6, 1, 1, 1, 1, 1, 2, 5, 5, 5)
    s:run("melee a z")
    return #s:record("melee").recoils
  end
  eq(run(), 1)
  eq(run("recoil_count per_vignette"), 2)
end)

test("long_range (UL-D22): over half the range, or half or more", function()
  local function run(opt)
    local s = h.game({ "rw cb CB missile=lrw", "bw c C" })
    if opt then s:run("option set " .. opt) end
    s:dice(6)
    s:run("shoot cb.1 c.1 20cm")
    return s:record("shooting").shot.loss
  end
  eq(run(), 8)
  eq(run("long_range half_or_more"), 5)
end)

test("repulse_mounted (UL-D23): Tactical Move + 1d12, or 1d12 only", function()
  local function run(opt)
    local s = h.game({ "rw kn Kn type=mounted vignettes=1" })
    if opt then s:run("option set " .. opt) end
    s:run("set kn_v1 ip 5")
    s:dice(10, 4)
    s:run("integrity kn f")
    return s:record("integrity")[1].back
  end
  eq(run(), 14)
  eq(run("repulse_mounted d12_only"), 4)
end)

test("sbw_range (UL-D26): 3 cm as printed, or 30 cm", function()
  local s = h.game({ "rw dr Drake type=leviathan sbw=true vignettes=1", "bw c C" })
  contains(s:fails("shoot dr.1 c.1 10cm sbw"), "beyond SBW's 3 cm")
  s:run("option set sbw_range 30")
  s:dice(3, 1, 1)
  contains(s:run("shoot dr.1 c.1 10cm sbw"), "c.1 loses")
end)

test("commander_unit (UL-D27): the commander's TU not counted, or counted in the number tried", function()
  local function run(opt)
    local s = h.game({ "rw a A", "rw b2 B", "rw c3 C", "rw d4 D" })
    if opt then s:run("option set " .. opt) end
    s:run("sc rw 3 with a")
    s:run("next"); s:run("next")
    s:dice(6, 6, 6)
    return s:run("activate rw b2 c3 d4")
  end
  contains(run(), "3 tried: regular row 1-3")
  contains(run("commander_unit counted"), "4 tried: regular row 4-6")
end)

test("own_initiative_limits (UL-D30): own-initiative results carried out whatever the order, or void", function()
  local s = h.game({ "rw a A", "bw z Z vignettes=1" })
  s:run("orders rw hold")
  s:run("mark a own_initiative")
  contains(s:run("charge a z"), "a contacts z")
  local s2 = h.game({ "rw a A", "bw z Z vignettes=1" })
  s2:run("option set own_initiative_limits void")
  s2:run("orders rw hold")
  s2:run("mark a own_initiative")
  contains(s2:fails("charge a z"), "own initiative obeys the order")
end)

test("more_ip_test (UL-D31): the vignettes in contact, or the TU totals", function()
  local function run(opt)
    local s = h.game({ "rw a A vignettes=2", "bw z Z vignettes=3" })
    if opt then s:run("option set " .. opt) end
    s:run("orders bw attack")
    s:run("charge z a")                -- z1 on a1; z2 and z3 on a2
    s:dice(1, 1)
    return s:run("integrity a f")
  end
  local d, o = run(), run("more_ip_test tu_totals")
  contains(d, "melee opponents have more IP (30 > 15, the enemy vignettes in contact")
  eq(#h.lines(d, "more IP"), 1)
  contains(o, "melee opponents have more IP (45 > 30, TU totals")
  eq(#h.lines(o, "more IP"), 2)
end)

test("missile_charge (17, 21): SSW with SA may charge Close order, or (any_missile) only Open order", function()
  local function run(opt)
    local s = h.game({ h.rom, "bw sk Skirm order=loose discipline=irregular missile=ssw" })
    if opt then s:run("option set " .. opt) end
    s:run("orders bw attack")
    s:dice(1)
    local ok_, out = pcall(function() return s:run("charge sk rom 8cm") end)
    return ok_ and s:has("sk", "charging") or false
  end
  eq(run(), true)
  eq(run("missile_charge any_missile"), false)
  local s = h.game({ h.rom, "bw sk Skirm order=loose discipline=irregular missile=ssw" })
  s:run("option set missile_charge any_missile")
  s:run("orders bw attack")
  contains(s:fails("charge sk rom 8cm"), "may charge only Open order enemies (17, 21; option missile_charge any_missile)")
end)

test("disorder_count (24): one vignette losing half its IP disorders the TU, or (tu_total) the TU's total must", function()
  -- Two vignettes of 15 IP (Close order Foot, placeholder BIV): a 10 LRW + 2 = 12 on one of them
  -- is 12 of its 15 (half or more) but 12 of the TU's 30 (less than half).
  local function run(opt)
    local s = h.game({ "rw ft Ft vignettes=2", "bw c C missile=lrw vignettes=1" })
    if opt then s:run("option set " .. opt) end
    s:dice(10)
    s:run("shoot c.1 ft.1")
    return s:has("ft", "disordered")
  end
  eq(run(), true)
  eq(run("disorder_count tu_total"), false)
  local s = h.game({ "rw ft Ft vignettes=2", "bw c C missile=lrw vignettes=2" })
  s:run("option set disorder_count tu_total")
  s:dice(10, 6)
  s:run("shoot c.1 ft.1")
  contains(s:run("shoot c.2 ft.2"), "ft is disordered")     -- 12 + 8 = 20 of 30 in one phase
end)
