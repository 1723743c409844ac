-- Close combat (6.1-6.7, Tables 9-10), pre-contact fire (6.3), squares and testudo (6.6).

local h = require "_helpers"
local game = h.game

-- `cc a d WORDS` between attacker a (red) and defender d (blue); returns the output.
local function fight(a, d, words, opts)
  local period = opts and opts.period
  if opts then opts = { ruleset = "olab", variant = opts.variant } end
  local s = game({ "r1 a A " .. a, "b1 d D " .. d }, opts)
  if period then s:run("period " .. period) end
  s:dice(1, 1, 1, 1, 1, 1)
  return s:run("cc a d " .. (words or "")), s
end

-- The rulebooks' examples ---------------------------------------------------------------------

test("Romans and Celts: a WBD that must recoil into the press behind it is destroyed (6.7)", function()
  local s = game({ "r1 legio Legionaries type=INF/A sp=7 sp_start=7 quality=elite",
    "b1 wbd Warband type=WBD sp=5 sp_start=5" })
  s:dice(2, 4, 4, 1, 6, 6)
  local out = s:run("cc legio wbd blocked")
  contains(out, "+2  INF/A striker (Table 9)")
  contains(out, "-8  Warband [wbd]'s save: 2d6 [4 4] (6.5)")
  contains(out, "=   3  3 HP")
  contains(out, "-2  INF/A struck by non-firearms (Table 10)")
  contains(out, "Warband [wbd] takes 3 HP (half or more of 5) and cannot recoil: eliminated (6.7)")
  eq(s:get("wbd", "off_table"), "eliminated")
  eq(s:get("legio", "sp"), 7)
end)

test("Romans and Celts: not blocked, the WBD recoils and the Roman may follow up (6.7)", function()
  local s = game({ "r1 legio Legionaries type=INF/A sp=7 sp_start=7",
    "b1 wbd Warband type=WBD sp=5 sp_start=5" })
  s:dice(2, 4, 4, 1, 6, 6)
  local out = s:run("cc legio wbd")
  contains(out, "Warband [wbd] takes 3 HP (half or more of 5): recoils 3\" straight away from Legionaries [legio] (6.7)")
  contains(out, "Legionaries [legio] may follow up into the space or swap with a fresh stand behind it")
  eq(s:get("wbd", "sp"), 2)
  ok(s:has("wbd", "routed"), "2 is below half of 5 (7.2)")
end)

test("Light Brigade: smoothbore ART fire at SKI/M charging from 11\", who then get no charge bonus (6.3, 4.4)", function()
  local s = game({ "b1 lb1 Light1 type=SKI/M sp=4 sp_start=4", "b1 lb2 Light2 type=SKI/M sp=4 sp_start=4",
    "r1 gun1 Gun1 type=ART sp=4 sp_start=4 weapon=ml_smoothbore",
    "r1 gun2 Gun2 type=ART sp=4 sp_start=4 weapon=ml_smoothbore" })
  s:dice(5, 2, 2)
  local out = s:run("precontact gun1 lb1 11")
  contains(out, "+1  ml_smoothbore (Table 7)")
  contains(out, "-2  target is SKI (Table 8)")
  contains(out, "=   4  4 HP")
  contains(out, "Light1 [lb1] does not make contact (6.3, AMB-21)")
  s:dice(3, 3, 2)
  out = s:run("precontact gun2 lb2 11")
  contains(out, "Light2 [lb2] charges home")
  eq(s:get("lb2", "sp"), 3)
  s:dice(4, 1, 1, 1, 1, 1)
  out = s:run("cc lb2 gun2 charge")
  contains(out, "+0  no charge bonus against the front of ART (4.4, AMB-22)")
  contains(out, "+2  mounted striking ART (Table 9)")
  contains(out, "-2  striker is SKI (Table 10)")
  ok(not out:find("bonus: charging"), "no charge bonus")
end)

test("pre-contact fire needs a weapon over 7\" and a charge from over 7\" away, and the SHOOT action (6.3)", function()
  local s = game({ "b1 cav Cav type=CAV/U sp=4", "r1 arc Archers type=ARC sp=4",
    "r1 msk Musketeers type=ARC sp=4 weapon=matchlock" })
  contains(s:fails("precontact arc cav 7"), "needs more than 7\"")
  contains(s:fails("precontact msk cav 10"), "reaches only 6\"")
  s:run("precontact arc cav 8")
  contains(s:fails("precontact arc cav 8"), "already used its SHOOT action")
end)

test("option precontact_action none: pre-contact fire uses no action, so the stand may shoot again (6.3; AMB-21)", function()
  local s = game({ "b1 cav Cav type=CAV/U sp=9 sp_start=9", "r1 arc Archers type=ARC sp=4" })
  s:run("option set precontact_action none")
  s:dice(1, 6, 6)
  contains(s:run("precontact arc cav 8"), "no SHOOT action used (6.3; option precontact_action none)")
  ok(not s:has("arc", "shot"), "no SHOOT action recorded")
  s:dice(1, 6, 6)
  contains(s:run("precontact arc cav 8"), "charges home")
end)

-- 6.3 lets a charged stand fire only if it has not acted twice this round: costing no action
-- (option precontact_action none) does not lift that. Archers that shot and moved are refused;
-- archers that only shot may fire (the option's point).
test("option precontact_action none: still not after acting twice this round (6.3, 2.1.1; AMB-21)", function()
  local s = game({ "b1 cav Cav type=CAV/U sp=9 sp_start=9", "b1 cav2 Cav2 type=CAV/U sp=9 sp_start=9",
    "r1 arc Archers type=ARC sp=4" })
  s:run("option set precontact_action none")
  s:dice(1, 6, 6)
  s:run("shoot arc cav2 8")
  s:dice(1, 6, 6)
  contains(s:run("precontact arc cav 8"), "no SHOOT action used (6.3; option precontact_action none)")
  s:run("move arc 2")
  contains(s:run("charge cav arc 8 plan"), "Archers [arc] cannot fire before contact: it has already used 2 action(s) this round, its limit (6.3, 2.1.1)")
  contains(s:fails("precontact arc cav 8"),
    "Archers [arc] has already used 2 actions this round (MOVE, SHOOT), its limit: no pre-contact fire (6.3, 2.1.1)")
  s:dice(1, 6, 6)
  contains(s:run("precontact arc cav 8 force"), "no SHOOT action used")
end)

-- Table 9: every row ---------------------------------------------------------------------------

test("Table 9: the striker's current SP; a third for TNK and TPT (5 -> 2)", function()
  contains(fight("type=INF/U sp=6", "type=INF/U sp=4"), "+6  striker's current SP (Table 9)")
  contains(fight("type=TNK sp=5 armour=light", "type=INF/U sp=4"), "+2  1/3 of its SP 5 (TNK) (Table 9)")
  contains(fight("type=TPT sp=2", "type=INF/U sp=4"), "+1  1/3 of its SP 2 (TPT) (Table 9)")
end)

test("Table 9: +2 INF/A, INF/U, MSK; +2 mounted striking foot, TPT or ART", function()
  for _, t in ipairs({ "INF/A", "INF/U", "MSK" }) do
    contains(fight("type=" .. t .. " sp=4", "type=WBD sp=4"), "+2  " .. t .. " striker (Table 9)")
  end
  contains(fight("type=CAV/U sp=4", "type=WBD sp=4"), "+2  mounted striking WBD (Table 9)")
  contains(fight("type=SKI/M sp=4", "type=TPT sp=2"), "+2  mounted striking TPT (Table 9)")
  local out = fight("type=CAV/U sp=4", "type=CAV/A sp=4")
  ok(not out:find("mounted striking"), "mounted against mounted: no +2")
end)

test("Table 9: foot striking TNK, SKI/S or elephant +1 in the open, +3 in woods or BUA", function()
  contains(fight("type=WBD sp=4", "type=SKI/S sp=3"), "+1  foot striking SKI/S in the open (Table 9)")
  contains(fight("type=WBD sp=4", "type=TNK sp=6 armour=light", "woods"), "+3  foot striking TNK in woods/BUA (Table 9)")
  contains(fight("type=WBD sp=4", "type=PKE sp=4 elephant=true"), "+1  foot striking PKE in the open (Table 9)")
  ok(not fight("type=WBD sp=4", "type=PKE sp=4"):find("foot striking PKE"), "only elephant PKE")
end)

test("Table 9: one +2 bonus for charging and/or General and/or CAV striking SKI (AMB-04)", function()
  contains(fight("type=CAV/U sp=4", "type=INF/U sp=4", "charge"), "+2  bonus: charging (Table 9, AMB-04)")
  contains(fight("type=INF/U sp=4 general=competent", "type=INF/U sp=4"), "+2  bonus: General (Table 9, AMB-04)")
  contains(fight("type=CAV/A sp=4", "type=SKI/F sp=4"), "+2  bonus: CAV striking SKI (Table 9, AMB-04)")
  local out = fight("type=CAV/A sp=4 general=superior", "type=SKI/F sp=4", "charge")
  contains(out, "+2  bonus: charging, General, CAV striking SKI (Table 9, AMB-04)")
end)

test("Table 9: the charge bonus is lost against the front of ART, PKE and SKI/S (4.4)", function()
  contains(fight("type=CAV/U sp=4", "type=PKE sp=4", "charge"), "no charge bonus against the front of PKE")
  contains(fight("type=CAV/U sp=4", "type=SKI/S sp=3", "charge"), "no charge bonus against the front of SKI/S")
  contains(fight("type=CAV/U sp=4", "type=PKE sp=4", "flank charge"), "+2  bonus: charging")
end)

test("Table 9: +1 SKI/F after 1915 or in sci-fi", function()
  contains(fight("type=SKI/F sp=4", "type=INF/U sp=4", "", { ruleset = "olab", period = "1940" }),
    "+1  SKI/F after 1915 or sci-fi (Table 9)")
  contains(fight("type=SKI/F sp=4", "type=INF/U sp=4", "", { ruleset = "olab", period = "2300 scifi" }),
    "+1  SKI/F after 1915 or sci-fi (Table 9)")
  ok(not fight("type=SKI/F sp=4", "type=INF/U sp=4", "", { ruleset = "olab", period = "1900" }):find("after 1915"))
end)

test("Table 9: a charging WBD +1 besides the +2 charge bonus (AMB-22)", function()
  local out = fight("type=WBD sp=5", "type=INF/U sp=4", "charge")
  contains(out, "+2  bonus: charging (Table 9, AMB-04)")
  contains(out, "+1  charging WBD (Table 9, AMB-22)")
  ok(not fight("type=WBD sp=5", "type=INF/U sp=4"):find("charging WBD"), "only when charging")
end)

test("Table 9: +3 PKE striking a non-PKE, not a TNK, a motor vehicle or a square", function()
  contains(fight("type=PKE sp=4", "type=INF/U sp=4"), "+3  PKE striking a non-PKE (Table 9, AMB-23)")
  ok(not fight("type=PKE sp=4", "type=PKE sp=4"):find("non%-PKE"), "not against PKE")
  ok(not fight("type=PKE sp=4", "type=TNK sp=6 armour=light"):find("non%-PKE"), "not against TNK")
  ok(not fight("type=PKE sp=4", "type=TPT sp=2 transport=motor"):find("non%-PKE"), "not against lorries")
  ok(not fight("type=PKE sp=4", "type=INF/A sp=4 formation=testudo"):find("non%-PKE"), "a testudo counts as PKE")
end)

test("Table 9: +1 attack column for MSK c.1790-1875 (6.6)", function()
  contains(fight("type=MSK sp=5", "type=MSK sp=5", "column", { ruleset = "olab", period = "1815" }),
    "+1  attack column (6.6)")
  local s = game({ "r1 a A type=MSK sp=5", "b1 d D type=MSK sp=5" })
  s:run("period 1900")
  contains(s:fails("cc a d column"), "attack columns are for MSK c.1790-c.1875")
end)

-- Table 10: every row, and the NEXT steps -----------------------------------------------------

test("Table 10: -1 CAV/A struck by non-firearms; -2 with armoured mounts; firearms ignore it", function()
  contains(fight("type=INF/U sp=4", "type=CAV/A sp=4"), "-1  CAV/A struck by non-firearms (Table 10)")
  contains(fight("type=INF/U sp=4", "type=CAV/A sp=4 armoured_mount=true"), "-2  armoured mounts, struck as INF/A (Table 10)")
  ok(not fight("type=MSK sp=4 cc_weapon=firearm", "type=CAV/A sp=4"):find("non%-firearms"), "firearms")
end)

test("Table 10: -2 INF/A struck by non-firearms or pre-1700 firearms", function()
  contains(fight("type=INF/U sp=4", "type=INF/A sp=4"), "-2  INF/A struck by non-firearms (Table 10)")
  contains(fight("type=ARC sp=4 cc_weapon=early_firearm", "type=INF/A sp=4"), "-2  INF/A struck by non-firearms")
  ok(not fight("type=MSK sp=4 cc_weapon=firearm", "type=INF/A sp=4"):find("struck by non"), "firearms")
end)

test("Table 10: -2 sci-fi armour, -2 striker SKI", function()
  contains(fight("type=INF/U sp=4", "type=INF/U sp=4 scifi_armour=true"), "-2  sci-fi armour (Table 10)")
  contains(fight("type=SKI/F sp=4", "type=INF/U sp=4"), "-2  striker is SKI (Table 10)")
end)

test("defending terrain: -4 to blows on the front of foot or ART only (6.5)", function()
  contains(fight("type=INF/U sp=4", "type=ARC sp=4", "defended"), "-4  defending terrain (6.5)")
  ok(not fight("type=INF/U sp=4", "type=ARC sp=4", "flank defended"):find("defending terrain"), "front only")
  ok(not fight("type=INF/U sp=4", "type=CAV/U sp=4", "defended"):find("defending terrain"), "foot or ART only")
end)

test("flank or rear: +4, +8 against PKE; never for foot striking mounted (6.5)", function()
  contains(fight("type=INF/U sp=4", "type=INF/U sp=4", "flank"), "+4  struck in the flank (6.5)")
  contains(fight("type=CAV/U sp=4", "type=INF/U sp=4", "rear"), "+4  struck in the rear (6.5)")
  contains(fight("type=CAV/U sp=4", "type=PKE sp=4", "rear"), "+8  PKE struck in the rear (6.5)")
  contains(fight("type=INF/U sp=4", "type=CAV/U sp=4", "flank"), "+0  foot striking mounted: no flank/rear bonus (6.5)")
end)

-- Squares, testudo ----------------------------------------------------------------------------

test("square: two MSK, 1/4 of their SP to each face, no charge bonus, no flanks, defending terrain (6.6)", function()
  local s = game({ "b1 m1 M1 type=MSK sp=6 sp_start=6", "b1 m2 M2 type=MSK sp=5 sp_start=5",
    "r1 cav Cav type=CAV/A sp=6 sp_start=6" })
  s:run("period 1815")
  contains(s:run("square m1 m2"), "form a square")
  s:run("next") -- a new phase; the MOVE marker lasts the round, not a problem for striking back
  s:dice(6, 1, 1, 6, 1, 1)
  local out = s:run("cc cav m1 flank charge")
  contains(out, "+0  no charge bonus against a square (6.6, AMB-22)")
  contains(out, "+0  a square has no flanks (6.6)")
  contains(out, "-4  square: defending terrain (6.5)")
  contains(out, "M1 [m1] strikes Cav [cav] (front)") -- a square faces every way: it strikes back
end)

test("square: strikes with 1/4 of the two stands' SP and shares its losses (6.6, AMB-29)", function()
  local s = game({ "r1 m1 M1 type=MSK sp=6 sp_start=6", "r1 m2 M2 type=MSK sp=5 sp_start=5",
    "b1 cav Cav type=CAV/U sp=3 sp_start=8" })
  s:run("square m1 m2")
  s:dice(6, 1, 1, 6, 1, 1)
  local out = s:run("cc m1 cav force")
  contains(out, "+3  square: 1/4 of 11 SP (6.6, AMB-29)")
  contains(out, "+2  MSK striker (Table 9)")
  -- Cav strikes back: 6 + 3 + 2 (mounted vs foot) - 4 (square) - 2 save = 5 HP, under half of
  -- 11: the square stays, 3 HP to the stand struck and 2 to the other
  eq(s:get("m1", "sp"), 3)
  eq(s:get("m2", "sp"), 3)
  contains(s:run("square m1 force"), "leave their square")
  eq(s:get("m1", "formation"), "normal")
end)

test("square: only MSK, only c.1700-c.1900 (6.6)", function()
  local s = game({ "r1 m1 M1 type=MSK sp=6", "r1 m2 M2 type=INF/U sp=5" })
  contains(s:fails("square m1 m2"), "two MSK stands")
  contains(s:fails("square m1 m1"), "two different MSK stands")
  local s2 = game({ "r1 m1 M1 type=MSK sp=6", "r1 m2 M2 type=MSK sp=5" })
  s2:run("period 1650")
  contains(s2:fails("square m1 m2"), "c.1700-c.1900")
end)

test("testudo: INF/A only, 1/4 SP, defending terrain, no flanks (6.6, AMB-29)", function()
  local s = game({ "r1 leg Leg type=INF/A sp=7 sp_start=7", "b1 wbd Wbd type=WBD sp=5 sp_start=5" })
  contains(s:run("testudo leg"), "forms testudo")
  s:dice(6, 1, 1, 6, 1, 1)
  local out = s:run("cc wbd leg rear charge")
  contains(out, "+0  no charge bonus against a testudo (6.6, AMB-22)")
  contains(out, "+0  a testudo has no flanks (6.6)")
  local s2 = game({ "r1 wbd Wbd type=WBD sp=5" })
  contains(s2:fails("testudo wbd"), "only INF/A stands")
  local s3 = game({ "r1 leg Leg type=INF/A sp=8 sp_start=8", "b1 wbd Wbd type=WBD sp=5 sp_start=5" })
  s3:run("testudo leg")
  s3:dice(6, 1, 1, 6, 1, 1)
  contains(s3:run("cc leg wbd force"), "+2  testudo: 1/4 of its SP (6.6, AMB-29)")
end)

-- Results (6.7) -------------------------------------------------------------------------------

test("results: less than half stays; PN recoils at exactly half; 2e stays at exactly half (6.7, AMB-03)", function()
  -- attacker: 1 + 4 + 2 = 7 - save 2 = 5 HP on a defender of 10
  local function run(opts)
    local s = game({ "r1 a A type=INF/U sp=4 sp_start=4", "b1 d D type=INF/U sp=10 sp_start=10" }, opts)
    s:dice(1, 1, 1, 1, 6, 6)
    return s:run("cc a d"), s
  end
  local out = run()
  contains(out, "D [d] takes 5 HP (half or more of 10): recoils 3\"")
  out = run({ ruleset = "olab", variant = "2e" })
  contains(out, "D [d] takes 5 HP (less than half of 10): stays (6.7)")
  local s = game({ "r1 a A type=INF/U sp=4 sp_start=4", "b1 d D type=INF/U sp=11 sp_start=11" })
  s:dice(1, 1, 1, 1, 6, 6)
  contains(s:run("cc a d"), "D [d] takes 5 HP (less than half of 11): stays (6.7)")
end)

test("results: blows are simultaneous, the attacker's results apply too (AMB-12)", function()
  local s = game({ "r1 a A type=INF/U sp=4 sp_start=4", "b1 d D type=INF/U sp=4 sp_start=4" })
  -- A: 6+4+2 = 12 - 2 = 10 HP; D strikes with its 4 SP from before the exchange: 6+4+2-2 = 10
  s:dice(6, 1, 1, 6, 1, 1)
  local out = s:run("cc a d")
  contains(out, "D [d] strikes A [a] (front)")
  contains(out, "+4  striker's current SP (Table 9)")
  contains(out, "D [d] takes 10 HP and is eliminated (7.4)")
  contains(out, "A [a] takes 10 HP and is eliminated (7.4)")
end)

test("several attackers: HP summed against the SP before the exchange; no return blow from the flank (AMB-12)", function()
  local s = game({ "r1 a A type=INF/U sp=4", "r1 b B type=INF/U sp=4", "b1 d D type=INF/U sp=12 sp_start=12" })
  -- A: 6+4+2 - 10 = 2 HP; B: 1+4+2+4 (flank) - 7 = 4 HP; each under half of 12, together half
  s:dice(6, 5, 5, 1, 4, 3, 1, 6, 6)
  local out = s:run("cc a d front b flank")
  contains(out, "A [a] strikes D [d] (front)")
  contains(out, "B [b] strikes D [d] (flank)")
  contains(out, "D [d] strikes A [a] (front)")
  contains(out, "D [d] takes 6 HP (half or more of 12): recoils 3\" straight away from A [a]")
  -- D strikes back with its 12 SP from before the exchange: 1+12+2 - 12 = 3 HP on A (SP 4)
  contains(out, "+12  striker's current SP (Table 9)")
  contains(out, "A [a] takes 3 HP (half or more of 4): recoils")
  s = game({ "r1 a A type=INF/U sp=4", "b1 d D type=INF/U sp=12 sp_start=12" })
  s:dice(1, 1, 1)
  contains(s:run("cc a d flank"), "D [d] has no enemy on its front: no return blow (6.1)")
end)

test("a routing defender takes the blows but does not strike back (AMB-49)", function()
  local s = game({ "r1 a A type=INF/U sp=4", "b1 d D type=INF/U sp=2 sp_start=6" })
  s:run("mark d routed")
  s:dice(1, 1, 1)
  contains(s:run("cc a d"), "D [d] is routing: it does not strike back (AMB-49)")
end)

test("who may fight: ART never starts a combat, PKE never charges, AIR never fight (6.1, 4.4)", function()
  local s = game({ "r1 art Art type=ART sp=4 weapon=bl_to79", "r1 pk Pike type=PKE sp=4",
    "r1 air Air type=AIR sp=4", "b1 d D type=INF/U sp=4" })
  contains(s:fails("cc art d"), "ART can never start a close combat")
  contains(s:fails("cc pk d charge"), "PKE may never charge")
  contains(s:fails("cc air d"), "AIR never fight")
end)

test("close combat uses the CLOSE COMBAT action and marks both stands engaged (2.1.1)", function()
  local s = game({ "r1 a A type=INF/U sp=8 sp_start=8", "b1 d D type=INF/U sp=12 sp_start=12" })
  s:dice(1, 6, 6, 1, 6, 6)
  s:run("cc a d")
  ok(s:has("a", "fought"), "CLOSE COMBAT action used")
  ok(s:has("a", "engaged") and s:has("d", "engaged"), "engaged")
  contains(s:fails("cc a d"), "already used its CLOSE COMBAT action")
end)

test("an elephant strikes as PKE (+3) without the mounted +2 (AMB-37)", function()
  local out = fight("type=PKE sp=4 elephant=true", "type=INF/U sp=4")
  contains(out, "+3  PKE striking a non-PKE (Table 9, AMB-23)")
  ok(not out:find("mounted striking"), "not a mounted striker")
end)

test("a square shoots with 1/4 of its two stands' SP; when one falls the other stands alone (6.6)", function()
  local s = game({ "r1 m1 M1 type=MSK sp=6 sp_start=6", "r1 m2 M2 type=MSK sp=6 sp_start=6",
    "b1 cav Cav type=CAV/U sp=4 sp_start=4" })
  s:run("square m1 m2")
  s:dice(1, 1, 1)
  contains(s:run("shoot m1 cav 8"), "+3  square: 1/4 of M1 [m1] + M2 [m2] SP (6.6)")
  s:run("set m2 sp 0")
  eq(s:get("m1", "formation"), "normal")
  eq(s:stored("olab", "squares").m1, nil)
end)

test("the charge bonus also follows the movement part's `charge_bonus` marker (6.2)", function()
  local s = game({ "r1 a A type=CAV/U sp=4", "b1 d D type=INF/U sp=8 sp_start=8" })
  s:run("mark a charging")
  s:dice(1, 1, 1, 1, 1, 1)
  ok(not s:run("cc a d"):find("bonus: charging"), "charging alone (no bonus earned) gives none")
  s = game({ "r1 a A type=CAV/U sp=4", "b1 d D type=INF/U sp=8 sp_start=8" })
  s:run("mark a charge_bonus")
  s:dice(1, 1, 1, 1, 1, 1)
  contains(s:run("cc a d"), "+2  bonus: charging (Table 9, AMB-04)")
end)

test("Table 10: MSK and stands with flintlocks or rifles strike with firearms; matchlocks are pre-1700 (6.5)", function()
  ok(not fight("type=MSK sp=4", "type=INF/A sp=4"):find("struck by non"), "MSK carry firearms")
  ok(not fight("type=SKI/F sp=4 weapon=rifle", "type=INF/A sp=4"):find("struck by non"), "rifles")
  contains(fight("type=ARC sp=4 weapon=matchlock", "type=INF/A sp=4"), "-2  INF/A struck by non-firearms")
  contains(fight("type=SKI/M sp=4 weapon=pistol", "type=CAV/A sp=4"), "-1  CAV/A struck by non-firearms")
end)

test("a square that must recoil cannot move, so both its stands are eliminated (6.6, 6.7)", function()
  local s = game({ "b1 m1 M1 type=MSK sp=3 sp_start=6", "b1 m2 M2 type=MSK sp=3 sp_start=6",
    "r1 cav Cav type=CAV/A sp=8 sp_start=8 general=superior" })
  s:run("square m1 m2 force")
  -- Cav: 1 + 8 + 2 (mounted vs foot) + 2 (General) - 4 (square) - 5 save = 4 HP >= half of 6;
  -- 2 to each stand, which survive the loss but not the recoil
  s:dice(1, 2, 3, 1, 6, 6)
  local out = s:run("cc cav m1")
  contains(out, "M1 [m1] is in square and cannot recoil 3\" (6.6, 6.7)")
  eq(s:get("m1", "off_table"), "eliminated")
  eq(s:get("m2", "off_table"), "eliminated")
end)

test("a stand marked disengaged may not shoot or start a close combat (4.3)", function()
  local s = game({ "r1 a A type=SKI/F sp=4 weapon=rifle", "b1 d D type=INF/U sp=8 sp_start=8" })
  s:run("mark a disengaged")
  contains(s:fails("shoot a d 10"), "disengaged this round and may not shoot (4.3)")
  contains(s:fails("cc a d"), "disengaged this round and may not start a close combat (4.3)")
end)

test("the winner's follow-up is offered only by a stand still there (6.7)", function()
  local s = game({ "r1 wbd Warband type=WBD sp=5 sp_start=5",
    "b1 legio Legionaries type=INF/A sp=7 sp_start=7" })
  -- the warband deals 4 HP (recoil), the legion's return blow eliminates it
  s:dice(4, 3, 3, 6, 1, 2)
  local out = s:run("cc wbd legio charge")
  contains(out, "Legionaries [legio] takes 4 HP (half or more of 7): recoils 3\" straight away from Warband [wbd] (6.7)\n")
  ok(not out:find("Warband [wbd] may follow up", 1, true), out)
  contains(out, "Warband [wbd] takes 12 HP and is eliminated (7.4)")
end)

-- Recoil paths (6.7, 4.3): the rules ask whether a due recoil is possible --------------------

test("a due recoil is asked: answered blocked, the WBD is eliminated (6.7)", function()
  for _, variant in ipairs({ "pn", "2e" }) do
    local opts = variant == "2e" and { ruleset = "olab", variant = "2e" } or nil
    local s = game({ "r1 legio Legionaries type=INF/A sp=7 sp_start=7",
      "b1 wbd Warband type=WBD sp=5 sp_start=5" }, opts)
    s:dice(2, 4, 4, 1, 6, 6)                              -- 3 HP to the WBD: a recoil in both editions
    s:answers("blocked")
    local out = s:run("cc legio wbd")
    contains(out, "Warband [wbd] must recoil 3\" straight away from Legionaries [legio]: is its path clear?")
    contains(out, "blocked")
    contains(out, "cannot recoil: eliminated (6.7)")
    eq(s:get("wbd", "off_table"), "eliminated")
  end
end)

test("a due recoil answered `recoils` (the default) moves the stand back 3\" (6.7)", function()
  local s = game({ "r1 legio Legionaries type=INF/A sp=7 sp_start=7",
    "b1 wbd Warband type=WBD sp=5 sp_start=5" })
  s:dice(2, 4, 4, 1, 6, 6)
  s:answers("recoils")
  local out = s:run("cc legio wbd")
  contains(out, "recoils 3\" straight away from Legionaries [legio] (6.7)")
  eq(s:get("wbd", "sp"), 2)
end)

test("`blocked` and `attacker_blocked` answer in advance: nothing is asked (6.7)", function()
  local s = game({ "r1 a A type=INF/U sp=4 sp_start=4", "b1 d D type=INF/U sp=4 sp_start=4" })
  s:dice(1, 1, 3, 1, 1, 3)                                -- both take 3 of 4: a recoil each
  s:answers("recoils", "recoils")                           -- would be wrong if they were asked
  local out = s:run("cc a d blocked attacker_blocked")
  ok(not out:find("is its path clear", 1, true), "no question when the words answer it")
  eq(s:get("d", "off_table"), "eliminated")
  eq(s:get("a", "off_table"), "eliminated")
end)

test("the attacker's recoil is asked too, after the defender's (6.7)", function()
  local s = game({ "r1 a A type=INF/U sp=4 sp_start=4", "b1 d D type=INF/U sp=4 sp_start=4" })
  s:dice(1, 6, 6, 1, 1, 3)                                -- only the attacker takes HP: 3 of 4
  s:answers("blocked")
  local out = s:run("cc a d")
  contains(out, "A [a] must recoil 3\" straight away from D [d]")
  eq(s:get("a", "off_table"), "eliminated")
  eq(s:get("d", "sp"), 4)
end)

-- Formations already formed (6.6) --------------------------------------------------------------

test("a square or testudo already formed is recorded with `formed`, spending no action (6.6)", function()
  local s = game({ "r1 m1 M1 type=MSK sp=6 sp_start=6", "r1 m2 M2 type=MSK sp=5 sp_start=5",
    "r1 leg Leg type=INF/A sp=8 sp_start=8" })
  s:run("period 1815")
  contains(s:run("square m1 m2 formed"), "M1 [m1] and M2 [m2] are in square (no action spent)")
  eq(s:get("m1", "formation"), "square")
  ok(not s:has("m1", "moved") and not s:has("m2", "moved"), "no MOVE action")
  eq(s:stored("olab", "squares").m1, "m2")
  contains(s:run("testudo leg formed"), "Leg [leg] is in testudo (no action spent)")
  ok(not s:has("leg", "moved"), "no MOVE action")
  contains(s:fails("testudo leg formed"), "already in testudo")
  -- forming one in play still spends the MOVE action
  s:run("testudo leg off formed")
  s:run("testudo leg")
  ok(s:has("leg", "moved"), "formed in play: MOVE action")
end)

test("cc refuses an attacker named twice (6.1: one attack a turn, into the front arc)", function()
  local s = game({ "r1 a A type=INF/U sp=5 sp_start=5", "b1 d D type=INF/U sp=5 sp_start=5" })
  contains(s:fails("cc a d front a flank"), "A [a] is named twice")
end)
