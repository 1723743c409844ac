-- The readings of the shooting and aircraft rules as options: for each alternative, a shot whose
-- result differs from the recommended reading's (README, options table).

local h = require "_helpers"
local game = h.game
local next_round = h.next_round

local FOOT = "b1 foot Foot type=INF/U sp=4 sp_start=4"
local TIGER = "r1 tiger Tiger type=TNK sp=9 sp_start=9 armour=heavy speed=slow weapon=bl_80_130"
local SHERMAN = "b1 sherman Sherman type=TNK sp=8 sp_start=8 armour=medium speed=medium weapon=bl_to79"
local STUKA = "r1 stuka Stuka type=AIR sp=4 sp_start=4 air=fixed"

-- Fires `firer` (id f) at `target` (id t) with `words`, after `option set …` for each of
-- `options`, with the dice `dice`; returns the session and the breakdown.
local function shot(firer, target, words, options, dice)
  local s = game({ firer, target })
  for _, o in ipairs(options or {}) do contains(s:run("option set " .. o), "=") end
  s:dice(table.unpack(dice or { 1, 1, 1 }))
  return s, s:run("shoot f t " .. words)
end

test("option offtable_penalty extra_only: off-table ART takes the -2 only, not Indirect -4 (8.2; AMB-09)", function()
  local big = "b1 t T type=INF/U sp=12 sp_start=12"
  local s, out = shot("r1 f F type=ART sp=4 weapon=bl_over130 off_table=reserve", big, "70 offtable", {}, { 6, 1, 1 })
  contains(out, "-4  Indirect fire (5.2.1)")
  contains(out, "-2  off-table ART, no observer (8.2, AMB-09)")
  eq(s:get("t", "sp"), 5)                                 -- 6+4+5-4-2 = 9, save 2: 7 HP
  local s2, out2 = shot("r1 f F type=ART sp=4 weapon=bl_over130 off_table=reserve", big, "70 offtable",
    { "offtable_penalty extra_only" }, { 6, 1, 1 })
  ok(not out2:find("-4  Indirect fire", 1, true), "no -4")
  contains(out2, "off-table fire: no Indirect -4, the -2 only (option offtable_penalty extra_only)")
  eq(s2:get("t", "sp"), 1)                                -- 13, save 2: 11 HP
end)

test("option indirect_fire any: an ATGW may fire Indirect and a heavy mortar directly (5.1; AMB-13)", function()
  local s = game({ "r1 at AT type=ART sp=4 weapon=atgw", SHERMAN, "r1 mo Mortar type=ART sp=4 weapon=bl_80_130 mortar=true", FOOT })
  contains(s:fails("shoot at sherman 20 indirect"), "guided weapons fire only directly")
  contains(s:fails("shoot mo foot 20"), "fires only indirectly")
  s:run("option set indirect_fire any")
  s:dice(6, 1, 1, 6, 1, 1)
  local out = s:run("shoot at sherman 20 indirect")
  contains(out, "(option indirect_fire any) a guided weapon fires Indirect")
  contains(out, "-4  Indirect fire (5.2.1)")
  contains(s:run("shoot mo foot 20"), "(option indirect_fire any) a heavy mortar fires directly")
end)

test("option weapon_rows every: a SKI/S's ATGW adds guided +4 and SKI/S +3 (Table 7; AMB-15)", function()
  local tnk = "b1 t T type=TNK sp=6 sp_start=6 armour=medium"
  local _, out = shot("r1 f F type=SKI/S sp=3 weapon=atgw", tnk, "10")
  contains(out, "+4  atgw (guided) (Table 7)")
  ok(not out:find("ski_s"), "one row")
  local _, out2 = shot("r1 f F type=SKI/S sp=3 weapon=atgw", tnk, "10", { "weapon_rows every" })
  contains(out2, "+4  atgw (guided) (Table 7)")
  contains(out2, "+3  ski_s as well (option weapon_rows every) (Table 7, AMB-15)")
  -- a rifle-armed SKI/F firing an ATGW: +4 and its small arms +2
  local _, out3 = shot("r1 f F type=SKI/F sp=3 weapon=atgw weapon2=rifle", tnk, "10", { "weapon_rows every" })
  contains(out3, "+2  small_arms as well (option weapon_rows every)")
end)

test("option mg_vehicle: a TNK with only machine guns fires as rifles (default) or as SKI/S (AMB-16)", function()
  local ht = "r1 f Halftrack type=TNK sp=5 sp_start=5 armour=light speed=fast"
  local s = game({ ht, (FOOT:gsub(" foot ", " t ")) })
  contains(s:fails("shoot f t 21"), "out of range: 21\" > 20\"")
  s:dice(1, 1, 1)
  local out = s:run("shoot f t 20")
  contains(out, "rifle reaches 20\" (machine guns as MSK with rifles, no TNK -18\" (AMB-16))")
  contains(out, "+2  machine guns as MSK with rifles (Table 7, AMB-16)")
  ok(not out:find("firer shoots as", 1, true), "no SKI -2")
  local _, out2 = shot(ht, (FOOT:gsub(" foot ", " t ")), "24", { "mg_vehicle as_ski_s" })
  contains(out2, "ski_s reaches 24\"")
  contains(out2, "+3  machine guns as SKI/S (option mg_vehicle as_ski_s) (Table 7, AMB-16)")
  contains(out2, "-2  firer shoots as SKI/S (Table 8)")
end)

test("option indirect_dice each: the second stand of an Indirect shot rolls its own D6 (5.2.1; AMB-17)", function()
  local units = { "r1 f F type=ART sp=4 weapon=bl_80_130", FOOT, "b1 foot2 Foot2 type=SKI/F sp=4 sp_start=4" }
  local s = game(units)
  s:dice(5, 1, 1, 2, 2)
  contains(s:run("shoot f foot 30 foot2 indirect"), "5  the shot's D6 (one die for both targets, AMB-17)")
  eq(s:get("foot2", "sp"), 1)                             -- 5+4+4-2-4 = 7, save 4: 3 HP
  local s2 = game(units)
  s2:run("option set indirect_dice each")
  s2:dice(5, 1, 1, 1, 2, 2)
  local out = s2:run("shoot f foot 30 foot2 indirect")
  contains(out, "a D6 of its own for the second stand (option indirect_dice each)")
  contains(out, "1  shooting D6: 1d6 [1] (5.2.1)")
  eq(s2:get("foot2", "sp"), 4)                            -- 1+4+4-2-4 = 3, save 4: no HP
end)

test("option air_armour light: armoured AIR take -2 whatever their armour (Table 8; AMB-38)", function()
  local air = "b1 t T type=AIR sp=4 sp_start=4 air=fixed armour=heavy"
  local _, out = shot("r1 f F type=ART sp=4 weapon=aagw", air, "5")
  contains(out, "-4  target heavy-armour AIR (Table 8, AMB-38)")
  local _, out2 = shot("r1 f F type=ART sp=4 weapon=aagw", air, "5", { "air_armour light" })
  contains(out2, "-2  target armoured AIR, as light armour (option air_armour light) (Table 8, AMB-38)")
end)

test("option heavy_beam as_80_130: heavy beam cannon 70\" and +4 instead of 60\" and +5 (Tables 6-7; AMB-39)", function()
  local gun = "r1 f F type=ART sp=4 weapon=heavy_beam_cannon"
  local s = game({ gun, (FOOT:gsub(" foot ", " t ")) })
  contains(s:fails("shoot f t 65"), "out of range: 65\" > 60\"")
  local _, out = shot(gun, (FOOT:gsub(" foot ", " t ")), "65", { "heavy_beam as_80_130" })
  contains(out, "heavy_beam_cannon reaches 70\" (as 80-130 mm (option heavy_beam as_80_130))")
  contains(out, "+4  heavy_beam_cannon as 80-130 mm (option heavy_beam as_80_130) (Table 7)")
end)

test("option firefly_range as_75: the 17pdr's 88 mm factor against TNK, but the 75 mm's 42\" (2.2.4; AMB-42)", function()
  local ff = "r1 firefly Firefly type=TNK sp=8 sp_start=8 armour=medium weapon=bl_to79 weapon_vs_tnk=bl_80_130"
  local tiger = "b1 tiger Tiger type=TNK sp=9 sp_start=9 armour=heavy"
  local s = game({ ff, tiger })
  s:dice(3, 1, 1)
  contains(s:run("shoot firefly tiger 52"), "bl_80_130 reaches 52\"")
  local s2 = game({ ff, tiger })
  s2:run("option set firefly_range as_75")
  contains(s2:fails("shoot firefly tiger 52"), "out of range: 52\" > 42\"")
  s2:dice(3, 1, 1)
  local out = s2:run("shoot firefly tiger 42")
  contains(out, "the range of its bl_to79 (option firefly_range as_75)")
  contains(out, "+3  bl_80_130, TNK fire as ART less 1 (Table 7)")
end)

test("option gas_hit every_target: a gas shot that did no HP still costs 1D6-2 (8.4; AMB-47)", function()
  local dug = "b1 t T type=INF/U sp=8 sp_start=8 cover=2"
  local s, out = shot("r1 f F type=SKI/S sp=3", dug, "8 chemical", {}, { 1, 6 })
  ok(not out:find("Gas 8.4", 1, true), "no HP, no gas loss")
  eq(s:get("t", "sp"), 8)
  local s2, out2 = shot("r1 f F type=SKI/S sp=3", dug, "8 chemical", { "gas_hit every_target" }, { 1, 6 })
  contains(out2, "Gas 8.4: T [t] (option gas_hit every_target)")
  contains(out2, "4 more SP lost (no save)")
  eq(s2:get("t", "sp"), 4)
end)

test("option flank_fire at_ground: AIR striking a ground flank get +2, ground fire at AIR does not (Table 7; AMB-51)", function()
  local s = game({ STUKA, FOOT })
  s:run("arm stuka fighter")
  s:dice(1, 1, 1)
  ok(not s:run("strike stuka foot guns flank"):find("flank (Table 7)", 1, true), "AIR get no flank bonus")
  local s2 = game({ STUKA, FOOT })
  s2:run("option set flank_fire at_ground")
  s2:run("arm stuka fighter")
  s2:dice(1, 1, 1)
  contains(s2:run("strike stuka foot guns flank"), "+2  fire into the target's flank (option flank_fire at_ground) (Table 7)")
  -- ground fire at an AIR's flank
  local air = "b1 t T type=AIR sp=4 sp_start=4 air=rotary loiter=true"
  local _, out = shot("r1 f F type=ART sp=4 weapon=aagw", air, "5 flank")
  contains(out, "+2  fire into the target's flank (Table 7)")
  local _, out2 = shot("r1 f F type=ART sp=4 weapon=aagw", air, "5 flank", { "flank_fire at_ground" })
  ok(not out2:find("flank (Table 7)", 1, true), "no bonus against AIR")
end)

test("option infa_soft missiles_only: beam rifles need `superior_tech` for INF/A's -2 (Table 8; AMB-52)", function()
  local infa = "b1 t T type=INF/A sp=4 sp_start=4"
  local _, out = shot("r1 f F type=MSK sp=4 weapon=beam_rifle", infa, "6")
  contains(out, "-2  INF/A against non-gunpowder weapons (Table 8, AMB-52)")
  local _, out2 = shot("r1 f F type=MSK sp=4 weapon=beam_rifle", infa, "6", { "infa_soft missiles_only" })
  ok(not out2:find("-2  INF/A", 1, true), "no -2")
  contains(out2, "INF/A: beam_rifle is not a muscle-powered missile (option infa_soft missiles_only)")
  local _, out3 = shot("r1 f F type=ARC sp=4", infa, "6", { "infa_soft missiles_only" })
  contains(out3, "-2  INF/A against non-gunpowder weapons (option infa_soft missiles_only)")
end)

test("option air_guns rifles: an AIR's guns strafe as MSK with rifles, no SKI -2 (Table 11; AMB-40)", function()
  local s = game({ STUKA, FOOT })
  s:run("arm stuka fighter")
  s:dice(1, 1, 1)
  local out = s:run("strike stuka foot guns")
  contains(out, "+2  guns, as SKI/F (Table 11, AMB-40) (Table 7)")
  contains(out, "-2  firer shoots as SKI/F (Table 8)")
  local s2 = game({ STUKA, FOOT })
  s2:run("option set air_guns rifles")
  s2:run("arm stuka fighter")
  s2:dice(1, 1, 1)
  local out2 = s2:run("strike stuka foot guns")
  contains(out2, "+2  strafing, as MSK with rifles (option air_guns rifles) (Table 7)")
  ok(not out2:find("firer shoots as", 1, true), "no SKI -2")
end)

test("option air_return after_ten: a strike AIR that left in round 1 may roll from round 12, not 11 (8.3; AMB-46)", function()
  for _, alt in ipairs({ false, true }) do
    local s = game({ STUKA, FOOT })
    if alt then s:run("option set air_return after_ten") end
    s:run("arm stuka fighter_bomber")
    s:dice(1, 1, 1)
    s:run("strike stuka foot bomb")
    for _ = 1, 10 do next_round(s) end                  -- round 11
    if alt then
      contains(s:fails("airreturn stuka"), "it may try from round 12 (8.3, after ten whole rounds away (option air_return after_ten))")
    else
      s:dice(6)
      contains(s:run("airreturn stuka"), "Stuka [stuka] returns")
    end
  end
end)

test("every shooting option is listed with its rule and can be undone", function()
  local s = game({})
  local list = s:run("option list")
  for _, name in ipairs({ "offtable_penalty", "indirect_fire", "weapon_rows", "mg_vehicle", "indirect_dice",
    "air_armour", "heavy_beam", "firefly_range", "gas_hit", "flank_fire", "infa_soft", "air_guns", "air_return" }) do
    contains(list, name)
  end
  s:run("option set gas_hit every_target")
  s:run("undo")
  contains(s:run("option list"), "gas_hit")
end)
