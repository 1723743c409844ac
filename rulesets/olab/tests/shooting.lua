-- Shooting (5.1-5.2.1, Tables 6-8, 8.2, 8.4): the rulebooks' examples and every table row.

local h = require "_helpers"
local game = h.game

local TIGER = "r1 tiger Tiger type=TNK sp=9 sp_start=9 armour=heavy speed=slow weapon=bl_80_130"
local SHERMAN = "b1 sherman Sherman type=TNK sp=8 sp_start=8 armour=medium speed=medium weapon=bl_to79"
local FOOT = "b1 foot Foot type=INF/U sp=4 sp_start=4"

-- Worked examples -------------------------------------------------------------------------

test("Tiger: an 88 mm TNK reaches 70-18 = 52\" (5.1)", function()
  local s = game({ TIGER, SHERMAN })
  local out = s:run("shoot tiger sherman 52")
  contains(out, "bl_80_130 reaches 52\" (TNK -18\" (5.1))")
  local s2 = game({ TIGER, SHERMAN })
  contains(s2:fails("shoot tiger sherman 53"), "Sherman [sherman] is out of range: 53\" > 52\"")
end)

test("Tiger: fires as a 75 mm ART, +4-1 = +3, and the whole shot adds up (5.2.1)", function()
  local s = game({ TIGER, SHERMAN })
  s:dice(4, 2, 3)
  local out = s:run("shoot tiger sherman 40 flank")
  contains(out, "4  shooting D6: 1d6 [4] (5.2.1)")
  contains(out, "+9  firer's current SP (Table 7)")
  contains(out, "+3  bl_80_130, TNK fire as ART less 1 (Table 7)")
  contains(out, "+2  fire into the target's flank (Table 7)")
  contains(out, "-3  target medium-armour TNK (Table 8)")
  contains(out, "-5  Sherman [sherman]'s save: 2d6 [2 3] (5.2.1)")
  contains(out, "=  10  10 HP")
  eq(s:get("sherman", "sp"), 0)
  eq(s:get("sherman", "off_table"), "eliminated")
end)

test("Firefly: its 17pdr counts as an 88 mm against TNK only (2.2.4, AMB-42)", function()
  local ff = "b1 firefly Firefly type=TNK sp=8 sp_start=8 armour=medium weapon=bl_to79 weapon_vs_tnk=bl_80_130"
  local s = game({ ff, "r1 tiger Tiger type=TNK sp=9 sp_start=9 armour=heavy", "r1 inf Grenadiers type=INF/U sp=4" })
  s:dice(3, 1, 1)
  local out = s:run("shoot firefly tiger 52")
  contains(out, "bl_80_130 reaches 52\"")
  contains(out, "+3  bl_80_130, TNK fire as ART less 1 (Table 7)")
  contains(out, "-4  target heavy-armour TNK (Table 8)")
  local s2 = game({ ff, "r1 inf Grenadiers type=INF/U sp=4" })
  contains(s2:fails("shoot firefly inf 43"), "out of range: 43\" > 42\"")
  s2:dice(3, 6, 6)
  contains(s2:run("shoot firefly inf 42"), "+2  bl_to79, TNK fire as ART less 1 (Table 7)")
end)

test("horse artillery: the lighter ART ranges are 6\" shorter (2.2.4)", function()
  local s = game({ "r1 rha RHA type=ART sp=4 sp_start=4 weapon=ml_smoothbore horse_artillery=true", FOOT })
  contains(s:fails("shoot rha foot 25"), "out of range: 25\" > 24\"")
  local out = s:run("shoot rha foot 24")
  contains(out, "ml_smoothbore reaches 24\" (horse artillery -6\" (2.2.4))")
  -- rows without the * keep their range
  local s2 = game({ "r1 rha RHA type=ART sp=4 weapon=bl_80_130 horse_artillery=true", FOOT })
  contains(s2:run("shoot rha foot 70"), "bl_80_130 reaches 70\"")
end)

-- Table 6: every row --------------------------------------------------------------------------

local RANGES = {
  at_rifle = 2, rpg = 4, pre1700 = 4, pistol = 4, matchlock = 6, bow = 8, flintlock = 8, crossbow = 10, longbow = 12,
  beam_rifle = 12, rifle_musket = 20, rifle = 20, support_beam = 20, ski_s = 24, torsion_art = 24,
  aagw = 24, ml_smoothbore = 30, atgw = 30, light_beam_cannon = 30, ml_rifled = 50,
  beam_cannon = 50, bl_to79 = 60, heavy_beam_cannon = 60, bl_80_130 = 70, bl_over130 = 75,
  ship = 80,
}

test("Table 6: every weapon class reaches its range and not an inch more", function()
  local n = 0
  for w, r in pairs(RANGES) do
    local s = game({ "r1 f F type=ART sp=4 weapon=" .. w, "r1 g G type=ART sp=4 weapon=" .. w, FOOT,
      "b1 foot2 Foot2 type=INF/U sp=4" })
    contains(s:run("shoot f foot " .. r), w .. " reaches " .. r .. "\"")
    contains(s:fails("shoot g foot2 " .. (r + 1)), "out of range: " .. (r + 1) .. "\" > " .. r .. "\"")
    n = n + 1
  end
  eq(n, 26)
end)

test("Table 6: ranges are rounded by 1.2 (52.4\" is 52\", 52.5\" is 53\")", function()
  local s = game({ TIGER, SHERMAN })
  contains(s:run("shoot tiger sherman 52.4"), "range 52\"")
  local s2 = game({ TIGER, SHERMAN })
  contains(s2:fails("shoot tiger sherman 52.5"), "53\" > 52\"")
end)

test("AIR: +16\" altitude, +6\" for a loitering AIR (5.1)", function()
  local s = game({ "r1 aa AA type=ART sp=4 weapon=aagw", "r1 ab AB type=ART sp=4 weapon=aagw",
    "b1 jet Jet type=AIR sp=4 air=fixed", "b1 heli Heli type=AIR sp=4 air=rotary loiter=true" })
  contains(s:fails("shoot aa jet 9"), "Jet [jet] is out of range: 25\" > 24\"")
  local out = s:run("shoot ab heli 18")
  contains(out, "18\" + 6\" altitude (5.1) = 24\"")
  contains(out, "+4  aagw (guided) (Table 7)")
end)

test("PN: mortars, ATGW and AAGW have a 6\" minimum range; 2e has none (5.1)", function()
  local s = game({ "r1 at AT type=SKI/S sp=3 weapon=atgw", SHERMAN })
  contains(s:fails("shoot at sherman 5"), "6\" minimum range")
  local s2 = game({ "r1 at AT type=SKI/S sp=3 weapon=atgw", SHERMAN }, { ruleset = "olab", variant = "2e" })
  s2:run("shoot at sherman 5")
end)

-- Table 7: every row --------------------------------------------------------------------------

-- Fires `firer` (an `add unit` tail, id f) at `target` (id t) and returns the breakdown.
local function shot(firer, target, words)
  local s = game({ firer, target })
  s:dice(1, 1, 1)
  return s:run("shoot f t " .. words)
end

test("Table 7: +2 SKI/F or MSK with breech-loading rifles or later small arms", function()
  contains(shot("r1 f F type=SKI/F sp=4 weapon=rifle", FOOT:gsub(" foot ", " t "), "10"),
    "+2  rifle (small_arms) (Table 7)")
  contains(shot("r1 f F type=MSK sp=4 weapon=beam_rifle", FOOT:gsub(" foot ", " t "), "10"),
    "+2  beam_rifle (small_arms) (Table 7)")
  -- a rifled musket has the 20" range but not the +2
  local out = shot("r1 f F type=MSK sp=4 weapon=rifle_musket", FOOT:gsub(" foot ", " t "), "10")
  ok(not out:find("small_arms"), "no small_arms row")
end)

test("Table 7: +3 SKI/S; an SKI/S firing an ATGW at a TNK takes +4 guided instead (AMB-15)", function()
  contains(shot("r1 f F type=SKI/S sp=3", FOOT:gsub(" foot ", " t "), "10"), "+3  ski_s (Table 7)")
  local out = shot("r1 f F type=SKI/S sp=3 weapon=atgw", "b1 t T type=TNK sp=6 armour=medium", "10")
  contains(out, "+4  atgw (guided) (Table 7)")
  ok(not out:find("ski_s"), "one weapon row per shot")
end)

test("Table 7: ART rows +1 +2 +3 +3 +4 +4 +5 +5 +7", function()
  local rows = { ml_smoothbore = 1, ml_rifled = 2, bl_to79 = 3, light_beam_cannon = 3,
    bl_80_130 = 4, beam_cannon = 4, bl_over130 = 5, heavy_beam_cannon = 5, ship = 7 }
  for w, v in pairs(rows) do
    contains(shot("r1 f F type=ART sp=4 weapon=" .. w, FOOT:gsub(" foot ", " t "), "10"),
      "+" .. v .. "  " .. w .. " (Table 7)")
  end
end)

test("Table 7: canister +2 replaces the smoothbore +1, at 8\" or less (AMB-14)", function()
  local out = shot("r1 f F type=ART sp=4 weapon=ml_smoothbore", FOOT:gsub(" foot ", " t "), "8 canister")
  contains(out, "+2  ml_smoothbore (canister) (Table 7)")
  local s = game({ "r1 f F type=ART sp=4 weapon=ml_smoothbore", FOOT })
  contains(s:fails("shoot f foot 9 canister"), "canister is for smoothbore ART at 8\" or less")
end)

test("option canister adds: canister +2 and the smoothbore +1 (Table 7; AMB-14 the default)", function()
  local s = game({ "r1 f F type=ART sp=4 weapon=ml_smoothbore", (FOOT:gsub(" foot ", " t ")) })
  contains(s:run("option set canister adds"), "canister = adds")
  s:dice(1, 1, 1)
  local out = s:run("shoot f t 8 canister")
  contains(out, "+2  ml_smoothbore (canister) (Table 7)")
  contains(out, "+1  ml_smoothbore, with canister (option canister adds) (Table 7)")
  s:run("undo")   -- the shot
  s:run("undo")   -- the option
  s:dice(1, 1, 1)
  ok(not s:run("shoot f t 8 canister"):find("with canister", 1, true), "undo puts the default back")
end)

test("Table 7: +4 guided only against its own kind of target (ATGW-TNK, AAGW-AIR)", function()
  contains(shot("r1 f F type=ART sp=4 weapon=aagw", "b1 t T type=AIR sp=4 air=rotary loiter=true", "10"),
    "+4  aagw (guided) (Table 7)")
  local out = shot("r1 f F type=ART sp=4 weapon=atgw", FOOT:gsub(" foot ", " t "), "10")
  ok(not out:find("guided"), "ATGW against foot: no +4")
end)

test("Table 7: +2 into the flank, +3 into the rear; AIR targets' facing aside, squares have none", function()
  contains(shot("r1 f F type=ARC sp=4", FOOT:gsub(" foot ", " t "), "6 flank"),
    "+2  fire into the target's flank (Table 7)")
  contains(shot("r1 f F type=ARC sp=4", FOOT:gsub(" foot ", " t "), "6 rear"),
    "+3  fire into the target's rear (Table 7)")
  local out = shot("r1 f F type=ARC sp=4", "b1 t T type=MSK sp=5 formation=square", "6 rear")
  ok(not out:find("rear %(Table 7%)"), "a square has no flanks or rear (6.6)")
end)

-- Table 8: every row --------------------------------------------------------------------------

test("Table 8: -2 target SKI, -2 firer SKI", function()
  local out = shot("r1 f F type=SKI/F sp=4 weapon=rifle", "b1 t T type=SKI/M sp=4", "10")
  contains(out, "-2  target is SKI (Table 8)")
  contains(out, "-2  firer is SKI (Table 8)")
end)

test("Table 8: TNK armour -2 light, -3 medium, -4 heavy, -5 super", function()
  for armour, v in pairs({ light = 2, medium = 3, heavy = 4, super = 5 }) do
    contains(shot("r1 f F type=ART sp=4 weapon=bl_over130", "b1 t T type=TNK sp=6 armour=" .. armour, "10"),
      "-" .. v .. "  target " .. armour .. "-armour TNK (Table 8)")
  end
end)

test("Table 8: armoured AIR take the TNK row (AMB-38)", function()
  contains(shot("r1 f F type=ART sp=4 weapon=aagw", "b1 t T type=AIR sp=4 air=fixed armour=light", "5"),
    "-2  target light-armour AIR (Table 8, AMB-38)")
end)

test("Table 8: -2 INF/A against non-gunpowder weapons, not against muskets (AMB-52)", function()
  contains(shot("r1 f F type=ARC sp=4", "b1 t T type=INF/A sp=4", "6"),
    "-2  INF/A against non-gunpowder weapons (Table 8, AMB-52)")
  local out = shot("r1 f F type=MSK sp=4", "b1 t T type=INF/A sp=4", "6")
  ok(not out:find("INF/A against"), "flintlocks are gunpowder")
  contains(shot("r1 f F type=MSK sp=4 weapon=rifle", "b1 t T type=INF/A sp=4", "6 superior_tech"),
    "-2  INF/A against superior-tech weapons (Table 8, AMB-52)")
  local s = game({ "r1 f F type=MSK sp=4 weapon=rifle", "b1 t T type=INF/A sp=4" },
    { ruleset = "olab", variant = "2e" })
  contains(s:fails("shoot f t 6 superior_tech"), "2nd Edition's Table 8 has no superior-tech row")
end)

test("bows cannot hurt TNK (5.2.1): refused unless the umpire forces it", function()
  local s = game({ "r1 f F type=ARC sp=4", SHERMAN })
  contains(s:fails("shoot f sherman 6"), "bow cannot hurt armour like Sherman")
  contains(s:run("shoot f sherman 6 force"), "(umpire override)")
end)

-- The NEXT steps and the save ----------------------------------------------------------------

test("Indirect -4, cover -4, double cover -8 (5.2.1, 8.1)", function()
  local out = shot("r1 f F type=ART sp=4 weapon=bl_80_130", FOOT:gsub(" foot ", " t "), "20 indirect cover")
  contains(out, "-4  Indirect fire (5.2.1)")
  contains(out, "-4  target in cover (5.2.1)")
  out = shot("r1 f F type=ART sp=6 weapon=bl_over130", FOOT:gsub(" foot ", " t "), "20 double")
  contains(out, "-4  target in cover (5.2.1)")
  contains(out, "-4  double-strength cover (5.2.1, 8.1)")
end)

test("cover defaults to the target's own `cover`; a suppressed stand counts as in cover (8.8.1)", function()
  contains(shot("r1 f F type=ARC sp=4", "b1 t T type=INF/U sp=4 cover=1", "6"), "-4  target in cover")
  local s = game({ "r1 f F type=ARC sp=4", "b1 t T type=INF/U sp=4" })
  s:run("mark t suppressed")
  s:dice(6, 1, 1)
  contains(s:run("shoot f t 6"), "-4  suppressed: counts as in cover (8.8.1)")
end)

test("a total of 0 or less scores no HP and rolls no save (5.2.1)", function()
  local s = game({ "r1 f F type=ARC sp=3", "b1 t T type=SKI/F sp=4 cover=2" })
  s:dice(2, 6, 6)
  local out = s:run("shoot f t 6")
  contains(out, "no HP (nothing to save)")
  ok(not out:find("save: 2d6"), "no save dice")
  eq(s:get("t", "sp"), 4)
  -- the unused dice are still queued for the next roll
  contains(s:run("roll 2d6"), "12")
end)

test("the save is 2D6, with one extra die for vehicle shields (8.7.2)", function()
  local s = game({ "r1 f F type=ART sp=6 weapon=heavy_beam_cannon", "b1 t T type=TNK sp=8 armour=light shields=true" })
  s:dice(6, 1, 2, 3)
  local out = s:run("shoot f t 30")
  contains(out, "-6  T [t]'s save: 3d6 [1 2 3] with a shield die (5.2.1, 8.7.2)")
  contains(out, "=   9  9 HP")
end)

test("Indirect fire hits a second stand with the same D6; each saves for itself (AMB-17)", function()
  local s = game({ "r1 f F type=ART sp=4 weapon=bl_80_130", FOOT, "b1 foot2 Foot2 type=SKI/F sp=4 cover=1" })
  s:dice(5, 1, 1, 2, 2)
  local out = s:run("shoot f foot 30 foot2 indirect")
  contains(out, "5  shooting D6: 1d6 [5] (5.2.1)")
  contains(out, "5  the shot's D6 (one die for both targets, AMB-17) (5.2.1)")
  contains(out, "=   7  7 HP") -- 5+4+4-4-2
  contains(out, "Foot2 [foot2]: ") -- 5+4+4-2 target SKI -4 indirect -4 cover -4 = -1
  eq(s:get("foot", "sp"), 0)
  eq(s:get("foot2", "sp"), 4)
  local s2 = game({ "r1 f F type=ART sp=4 weapon=bl_80_130", FOOT, "b1 foot2 Foot2 type=SKI/F sp=4" })
  contains(s2:fails("shoot f foot 30 foot2"), "only Indirect fire hits a second stand")
end)

test("heavy mortars fire only indirectly (5.1)", function()
  local s = game({ "r1 f F type=ART sp=4 weapon=bl_80_130 mortar=true", FOOT })
  contains(s:fails("shoot f foot 20"), "fires only indirectly")
  s:run("shoot f foot 20 indirect")
end)

test("off-table ART: 70\" from the base line, Indirect and -2 without an observer (8.2, AMB-09)", function()
  local s = game({ "r1 f F type=ART sp=4 weapon=bl_over130 off_table=reserve", FOOT })
  s:dice(6, 1, 1)
  local out = s:run("shoot f foot 70 offtable")
  contains(out, "-4  Indirect fire (5.2.1)")
  contains(out, "-2  off-table ART, no observer (8.2, AMB-09)")
  local s2 = game({ "r1 f F type=ART sp=4 weapon=bl_over130", FOOT })
  contains(s2:fails("shoot f foot 71 offtable"), "out of range: 71\" > 70\"")
  local s3 = game({ "r1 f F type=ART sp=4 weapon=bl_to79", FOOT })
  contains(s3:fails("shoot f foot 30 offtable"), "off-table ART must be heavy")
end)

test("a forward observer within 12\" cancels the -2 and may then only MOVE (8.2)", function()
  local s = game({ "r1 f F type=ART sp=4 weapon=bl_over130", "r1 fo FO type=SKI/F sp=2 observer=true weapon=rifle", FOOT })
  contains(s:fails("observe fo foot 13"), "within 12\"")
  contains(s:run("observe fo foot 12"), "FO [fo] observes Foot [foot]")
  ok(s:has("fo", "observing"))
  s:dice(6, 1, 1)
  contains(s:run("shoot f foot 60 offtable"), "0  forward observer FO [fo] cancels the off-table -2 (8.2)")
  contains(s:fails("shoot fo foot 6"), "observing: MOVE only")
  local s2 = game({ "r1 fo FO type=SKI/F sp=2", FOOT })
  contains(s2:fails("observe fo foot 5"), "not a forward observer")
end)

test("gas: Indirect, and a stand hit loses 1D6-2 more, 1D6-4 with NBC kit (8.4)", function()
  local s = game({ "r1 f F type=SKI/S sp=3", "b1 t T type=INF/U sp=8 sp_start=8" })
  s:dice(6, 1, 1, 5)
  local out = s:run("shoot f t 8 chemical")
  contains(out, "-4  Indirect (gas always is) (5.2.1)")
  contains(out, "=   4  4 HP") -- 6+3+3-2-4-2
  contains(out, "5  extra gas loss: 1d6 [5] (8.4)")
  contains(out, "=   3  3 more SP lost (no save)")
  eq(s:get("t", "sp"), 1)
  local s2 = game({ "r1 f F type=SKI/S sp=3", "b1 t T type=INF/U sp=9 sp_start=9 nbc=true" })
  s2:dice(6, 1, 1, 5)
  out = s2:run("shoot f t 8 chemical")
  contains(out, "-2  NBC kit (8.4)")
  contains(out, "=   1  1 more SP lost")
  local s3 = game({ "r1 f F type=SKI/S sp=3", FOOT })
  contains(s3:fails("shoot f foot 9 chemical"), "out of range: 9\" > 8\"")
  local s4 = game({ "r1 f F type=ART sp=3 weapon=bl_to79", FOOT })
  contains(s4:fails("shoot f foot 9 chemical"), "gas is delivered by")
end)

-- Who may shoot, and the action limit -------------------------------------------------------

test("INF, WBD, PKE, CAV and TPT may not shoot; testudo never shoots (5.1, 6.6)", function()
  for _, t in ipairs({ "INF/A", "WBD", "PKE", "CAV/U", "TPT" }) do
    local s = game({ "r1 f F type=" .. t .. " sp=4", FOOT })
    contains(s:fails("shoot f foot 4"), "may not shoot (5.1)")
  end
  local s = game({ "r1 f F type=INF/A sp=4 formation=testudo weapon=pre1700", FOOT })
  contains(s:fails("shoot f foot 4"), "in testudo and never shoots (6.6)")
end)

test("shooting uses the SHOOT action; a second shot is refused, `force` overrides (2.1.1)", function()
  local s = game({ "r1 f F type=ARC sp=4", FOOT })
  s:run("shoot f foot 6")
  contains(s:fails("shoot f foot 6"), "already used its SHOOT action")
  contains(s:run("shoot f foot 6 force"), "Shooting 5.2.1")
end)

test("a turret turned to a flank also uses the MOVE action (5.1)", function()
  local s = game({ TIGER, SHERMAN })
  s:run("shoot tiger sherman 30 turret")
  ok(s:has("tiger", "moved"), "MOVE used")
end)

test("routing stands do not shoot (AMB-49)", function()
  local s = game({ "r1 f F type=ARC sp=1 sp_start=4", FOOT })
  s:run("mark f routed")
  contains(s:fails("shoot f foot 6"), "routing and cannot shoot")
end)

test("undo takes back a shot: SP, elimination, markers and the store (one transaction)", function()
  local s = game({ TIGER, SHERMAN })
  s:dice(6, 1, 1)
  s:run("shoot tiger sherman 40 rear")
  eq(s:get("sherman", "off_table"), "eliminated")
  s:run("undo")
  eq(s:get("sherman", "sp"), 8)
  eq(s:get("sherman", "off_table"), "no")
  ok(not s:has("tiger", "shot"), "the SHOOT action is back")
end)

test("2e: the same shot, the same numbers (Tables 6-8 are identical in both editions)", function()
  local s = game({ TIGER, SHERMAN }, { ruleset = "olab", variant = "2e" })
  s:dice(4, 2, 3)
  local out = s:run("shoot tiger sherman 40 flank")
  contains(out, "+3  bl_80_130, TNK fire as ART less 1 (Table 7)")
  contains(out, "=  10  10 HP")
end)

test("an infantry combat vehicle's mounted SKI fire as SKI/S: 24\", +3, -2 (5.1)", function()
  local s = game({ "r1 bmp BMP type=TNK sp=7 armour=light weapon=bl_to79", FOOT })
  s:dice(1, 1, 1)
  local out = s:run("shoot bmp foot 24 icv")
  contains(out, "ski_s reaches 24\"")
  contains(out, "+3  mounted passengers fire as SKI/S (Table 7, 5.1)")
  contains(out, "-2  firer shoots as SKI/S (Table 8)")
  local s2 = game({ "r1 a A type=SKI/F sp=4", FOOT })
  contains(s2:fails("shoot a foot 4 icv"), "`icv` is for TNK")
end)

test("an observer spots for one target: a second target of the same barrage keeps the -2 (8.2)", function()
  local s = game({ "r1 f F type=ART sp=4 weapon=bl_over130", "r1 fo FO type=SKI/F sp=2 observer=true",
    "b1 a A type=INF/U sp=12 sp_start=12", "b1 b B type=INF/U sp=12 sp_start=12" })
  s:run("observe fo a 10")
  s:dice(1, 1, 1, 1, 1)
  local out = s:run("shoot f a 60 b offtable")
  contains(out, "forward observer FO [fo] cancels the off-table -2 (8.2)")
  contains(out, "-2  off-table ART, no observer (8.2, AMB-09)")
end)

test("reach: may it shoot from here, without rolling or using an action (5.1, Table 6)", function()
  local s = game({ TIGER, SHERMAN, "r1 arc Archers type=ARC sp=4" })
  contains(s:run("reach tiger sherman 52"), "yes: range 52\"; bl_80_130 reaches 52\"")
  contains(s:run("reach tiger sherman 53"), "no: Sherman [sherman] is out of range: 53\" > 52\" (Table 6)")
  local out = s:run("reach arc sherman 6")
  eq(out, "no: bow cannot hurt armour like Sherman [sherman] (5.2.1)")   -- the refusal alone, no traceback
  ok(not s:has("tiger", "shot"), "no action used")
end)

-- "Protected as" (2.2.4): the Wespe is ART that fires as ART and is shot at as a TNK.
local WESPE = "b1 wespe Wespe type=ART sp=5 sp_start=5 weapon=bl_80_130 protected_as=TNK armour=light speed=medium"

test("Wespe: ART protected as a light-armour TNK takes Table 8's -2 and fires as full ART (2.2.4)", function()
  for _, variant in ipairs({ "pn", "2e" }) do
    local opts = variant == "2e" and { ruleset = "olab", variant = "2e" } or nil
    local s = game({ TIGER, WESPE, "r1 foot Foot type=INF/U sp=4 sp_start=4" }, opts)
    s:dice(1, 6, 6)                                     -- 1 + 9 + 3 - 2 = 11, saved by 12
    local out = s:run("shoot tiger wespe 40")
    contains(out, "-2  target ART protected as a light-armour TNK (Table 8, 2.2.4)")
    -- the Wespe itself shoots as 105 mm ART: full +4, the ART's 70" range
    s:dice(3, 1, 1)
    local back = s:run("shoot wespe foot 70")
    contains(back, "+4  bl_80_130 (Table 7)")
    contains(back, "bl_80_130 reaches 70\"")
  end
end)

test("Wespe: muskets cannot hurt it and an ATGW is guided against it, as against any TNK (2.2.4)", function()
  local s = game({ WESPE, "r1 msk Muskets type=MSK sp=4 sp_start=4",
    "r1 at ATGW type=SKI/S sp=3 sp_start=3 weapon=atgw" })
  contains(s:fails("shoot msk wespe 6"), "cannot hurt armour like Wespe [wespe] (5.2.1)")
  s:dice(1, 6, 6)
  contains(s:run("shoot at wespe 20"), "+4  atgw (guided) (Table 7)")
end)

test("Wespe: moves as a medium-speed TNK, not as manhandled ART (2.2.4)", function()
  local s = game({ WESPE })
  local out = s:run("move wespe plan")
  contains(out, "TNK medium (ART moving as the TNK it is protected as) (Table 4, 2.2.4)")
  contains(out, "10\"")
  contains(s:run("move wespe road plan"), "(TNK/motor)")
end)
