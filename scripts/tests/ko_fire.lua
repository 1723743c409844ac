-- Knock-out fire (8.8.2): the text's Tiger example, every row of the KO table, the quarter,
-- no save against a knock-out, and what may not be knocked out.

local function game(units)
  local s = session { ruleset = "olab", house = { "ko_fire" } }
  s:run("add side red Red")
  s:run("add side blue Blue")
  s:run("add command red r1 Reds")
  s:run("add command blue b1 Blues")
  for _, u in ipairs(units) do s:run("add unit " .. u) end
  return s
end

local TIGER = "r1 tiger Tiger type=TNK sp=9 sp_start=9 armour=heavy speed=slow weapon=bl_80_130"
local T34 = "b1 t34 T-34 type=TNK sp=8 sp_start=8 armour=medium speed=medium weapon=bl_to79"

test("Tiger behind a T-34: full 88 mm factor, quarter, medium column 4+, +1 flank: a 3 knocks it out", function()
  local s = game({ TIGER, T34 })
  s:dice(4, 3)
  local out = s:run("ko tiger t34 30 flank")
  contains(out, "KO fire 8.8.2: Tiger [tiger] at T-34 [t34]")
  contains(out, "+4  bl_80_130 (Table 7)")               -- no "ART less 1" in KO fire
  contains(out, "+2  fire into the target's flank (Table 7)")
  contains(out, "-3  target medium-armour TNK (Table 8)")
  contains(out, "-12  KO fire: a quarter of 16 HP (8.8.2)")
  contains(out, "4 HP to convert")
  contains(out, "3  KO D6: 1d6 [3] (8.8.2)")
  contains(out, "+1  vehicle hit in the flank (8.8.2, AMB-11b)")
  contains(out, "row bl_80_130 (weapon bl_80_130), column medium: 4+ needed")
  contains(out, "4+ needed: knocked out, no save")
  contains(out, "T-34 [t34] is knocked out (8.8.2)")
  eq(s:get("t34", "off_table"), "eliminated")
  eq(s:get("t34", "sp"), 0)
end)

test("a failed KO: the quarter is saved as usual with 2D6", function()
  local s = game({ TIGER, T34 })
  s:dice(4, 2, 1, 1)                                      -- shot, KO roll 2+1 < 4, save 1+1
  local out = s:run("ko tiger t34 30 flank")
  contains(out, "4+ needed: not knocked out; the quarter is saved as usual")
  contains(out, "4  a quarter of the HP (8.8.2)")
  contains(out, "-2  T-34 [t34]'s save: 2d6 [1 1] (5.2.1)")
  contains(out, "2 HP")
  eq(s:get("t34", "sp"), 6)
end)

test("a quarter of 0 converts nothing: no KO roll, no save (AMB-11a)", function()
  local s = game({ "r1 jeep Jeep type=TNK sp=2 sp_start=2 armour=light speed=fast weapon=bl_to79",
    "b1 kt KingTiger type=TNK sp=12 sp_start=12 armour=super speed=slow weapon=bl_80_130" })
  s:dice(1)
  local out = s:run("ko jeep kt 20")
  contains(out, "nothing to convert: no KO roll (AMB-11a)")
  eq(s:get("kt", "sp"), 12)
end)

test("only vehicles and aircraft: foot and animal transport are refused", function()
  local s = game({ TIGER, "b1 foot Foot type=INF/U sp=4 sp_start=4",
    "b1 mules Mules type=TPT transport=animal sp=2 sp_start=2" })
  contains(s:fails("ko tiger foot 20"), "Foot [foot] cannot be knocked out (8.8.2): INF/U stands are not")
  contains(s:fails("ko tiger mules 20"), "animal transport is not a vehicle")
end)

test("stands in close combat cannot be knocked out; KO is for after c.1900", function()
  local s = game({ TIGER, T34 })
  s:run("mark t34 engaged")
  contains(s:fails("ko tiger t34 20"), "T-34 [t34] is in close combat")
  s:run("unmark t34 engaged")
  s:run("period 1870")
  contains(s:fails("ko tiger t34 20"), "KO fire is for games after c.1900")
end)

test("foot AT weapons: 1st generation from 1/2\" to 2\" only, named with `as`", function()
  local s = game({ "r1 pzf Panzerfaust type=SKI/F sp=4 sp_start=4 weapon=rifle", T34 })
  contains(s:fails("ko pzf t34 3 at_rifle"), "at_rifle fires KO only from 1/2\" to 2\"")
  contains(s:fails("ko pzf t34 2"), "has no KO table row (8.8.2); name one with `as`")
  s:dice(6, 6)
  local out = s:run("ko pzf t34 2 at_rifle")
  contains(out, "row at_rifle (named with `as`), column medium: 4+ needed")
end)

test("aircraft targets: -1 for flying AIR; a guided AAGW +1", function()
  local s = game({ "r1 sam SAM type=ART sp=6 sp_start=6 weapon=aagw",
    "b1 stuka Stuka type=AIR air=fixed sp=4 sp_start=4" })
  s:dice(6, 4, 1, 1)
  local out = s:run("ko sam stuka 6")
  contains(out, "+1  guided weapon (8.8.2)")
  contains(out, "-1  target is flying AIR (8.8.2)")
  contains(out, "row aagw (weapon aagw), column soft: 2+ needed")
  contains(out, "knocked out")
end)

-- Every row of the KO table: the number needed against each column.
local TARGETS = {
  { "soft", "b1 lorry Lorry type=TPT transport=motor sp=2 sp_start=2" },
  { "light", "b1 lt Light type=TNK armour=light speed=fast sp=5 sp_start=5" },
  { "medium", "b1 mt Medium type=TNK armour=medium speed=medium sp=6 sp_start=6" },
  { "heavy", "b1 ht Heavy type=TNK armour=heavy speed=slow sp=7 sp_start=7" },
  { "super", "b1 st Super type=TNK armour=super speed=slow sp=8 sp_start=8" },
}
local IDS = { "lorry", "lt", "mt", "ht", "st" }
local ROWS = {
  { "at_rifle", "type=SKI/F weapon=rifle", 2, "at_rifle", { 3, 4, 4, 5, 6 } },
  { "rpg", "type=SKI/S", 10, "", { 2, 3, 3, 4, 5 } },
  { "torsion_ml", "type=ART weapon=ml_smoothbore", 10, "", { 2, 2, 4, 6, 6 } },
  { "atgw", "type=ART weapon=atgw", 10, "", { 4, 4, 4, 5, 5 } },
  { "aagw", "type=ART weapon=aagw", 10, "", { 2, 2, 6, 6, 6 } },
  { "bl_to79", "type=ART weapon=bl_to79", 10, "", { 3, 4, 5, 6, 6 } },
  { "bl_80_130", "type=ART weapon=bl_80_130", 10, "", { 2, 2, 4, 5, 6 } },
  { "bl_over130", "type=ART weapon=bl_over130", 10, "", { 2, 2, 3, 4, 5 } },
  { "ship", "type=ART weapon=ship", 10, "", { 2, 2, 2, 5, 5 } },
}
for _, r in ipairs(ROWS) do
  test("KO table row " .. r[1] .. ": " .. table.concat(r[5], "+ ") .. "+ (8.8.2)", function()
    local units = { "r1 gun Gun sp=12 sp_start=12 " .. r[2] }
    for _, t in ipairs(TARGETS) do units[#units + 1] = t[2] end
    local s = game(units)
    for i, t in ipairs(TARGETS) do
      s:dice(6, 6)
      local out = s:run(string.format("ko gun %s %d %s force", IDS[i], r[3], r[4]))
      contains(out, string.format("row %s (", r[1]))
      contains(out, string.format("column %s: %d+ needed", t[1], r[5][i]))
      contains(out, "knocked out, no save")
      eq(s:get(IDS[i], "off_table"), "eliminated")
    end
  end)
end

test("fortification sections: field on the medium column, stone on the super column (8.8.2)", function()
  local s = game({ "r1 gun Gun type=ART sp=5 sp_start=5 weapon=bl_80_130" })
  s:dice(6, 4)
  local out = s:run("kofort gun field 30")
  contains(out, "+4  bl_80_130 (full factor) (Table 7, 8.8.2)")
  contains(out, "-11  KO fire: a quarter of 15 HP (8.8.2)")
  contains(out, "column medium: 4+ needed")
  contains(out, "the field fortification section is destroyed (8.8.2)")
  s:run("unmark gun shot")
  s:dice(6, 5)
  local st = s:run("kofort gun stone 30 high_wall")
  contains(st, "column super: 6+ needed")
  contains(st, "+1  a high wall (8.8.2, AMB-11b)")
  contains(st, "the stone fortification section is destroyed")
  s:run("unmark gun shot")
  s:dice(6, 4)
  contains(s:run("kofort gun stone 30"), "the section stands (AMB-11f)")
end)

test("a SKI/S team with an ATGW or AAGW uses its weapon's row, not the RPG row (8.8.2)", function()
  local s = game({ "r1 atgw ATGW team type=SKI/S sp=6 sp_start=6 weapon=atgw", T34,
    "r1 sam SAM team type=SKI/S sp=6 sp_start=6 weapon=aagw",
    "b1 stuka Stuka type=AIR air=fixed sp=4 sp_start=4" })
  s:dice(6, 3)                                            -- 6+6+4-2-3 = 11, a quarter 3; KO 3+1
  local out = s:run("ko atgw t34 20")
  contains(out, "+4  atgw (guided) (Table 7)")
  contains(out, "row atgw (weapon atgw), column medium: 4+ needed")
  contains(out, "+1  guided weapon (8.8.2)")
  contains(out, "4+ needed: knocked out, no save")
  s:dice(6, 2)
  local air = s:run("ko sam stuka 6")
  contains(air, "row aagw (weapon aagw), column soft: 2+ needed")
  contains(air, "knocked out")
  -- without a guided weapon a SKI/S stays on the RPG row, at any range
  s:run("add unit r1 hmg HMG type=SKI/S sp=6 sp_start=6")
  s:run("add unit b1 lt Light type=TNK armour=light speed=fast sp=5 sp_start=5")
  s:dice(6, 6)
  contains(s:run("ko hmg lt 20"), "row rpg (SKI/S at any range), column light: 3+ needed")
end)

test("a stand protected as a TNK (the Wespe, 2.2.4) is knocked out on its armour's column", function()
  local s = game({ TIGER,
    "b1 wespe Wespe type=ART sp=5 sp_start=5 weapon=bl_80_130 protected_as=TNK armour=light speed=medium",
    "b1 gun Gun type=ART sp=5 sp_start=5 weapon=bl_to79" })
  s:dice(4, 2)                                            -- 4+9+4-2 = 15, a quarter 4; KO 2
  local out = s:run("ko tiger wespe 30")
  contains(out, "-2  target ART protected as a light-armour TNK (Table 8, 2.2.4)")
  contains(out, "row bl_80_130 (weapon bl_80_130), column light: 2+ needed")
  contains(out, "knocked out, no save")
  eq(s:get("wespe", "off_table"), "eliminated")
  contains(s:fails("ko tiger gun 30 force"), "ART stands are not vehicles")
end)

-- Foot anti-tank teams, the firer's arcs and the ko_plus option (issue 16) ---------------------

test("a foot AT team's KO row follows its weapon: at_rifle 1/2\"-2\", rpg 1/2\"-4\", also as weapon2 (8.8.2)", function()
  local s = game({ "r1 pzf Panzerfaust type=SKI/F sp=4 sp_start=4 weapon=at_rifle", T34,
    "r1 team Team type=MSK sp=4 sp_start=4 weapon=rifle weapon2=rpg" })
  s:dice(6, 6)
  contains(s:run("ko pzf t34 2"), "row at_rifle (weapon at_rifle), column medium: 4+ needed")
  contains(s:fails("ko team t34 5"), "rpg fires KO only from 1/2\" to 4\"")
  s:run("set t34 sp 8")
  s:run("set t34 off_table no")
  s:dice(6, 6)
  local out = s:run("ko team t34 4")
  contains(out, "+2  rpg (small_arms) (Table 7)")
  contains(out, "row rpg (weapon rpg), column medium: 3+ needed")
end)

test("KO fire into a turret's flank arc uses MOVE; a turretless gun is refused (5.1)", function()
  local s = game({ TIGER, T34, "r1 pak Pak type=ART sp=4 sp_start=4 weapon=bl_to79" })
  s:dice(4, 6)
  contains(s:run("ko tiger t34 30 flank beside"), "the turret turns, which uses MOVE (5.1)")
  ok(s:has("tiger", "moved"))
  local s2 = game({ T34, "r1 pak Pak type=ART sp=4 sp_start=4 weapon=bl_to79" })
  contains(s2:fails("ko pak t34 30 behind"), "only a turret turns to the flank or rear (5.1)")
end)

test("option ko_plus each: flank and firing from above give +1 each, and a 2 now knocks out (8.8.2; AMB-11b)", function()
  local s = game({ TIGER, T34 })
  s:dice(4, 2, 1, 1)
  local out = s:run("ko tiger t34 30 flank above")
  contains(out, "+1  vehicle hit in the flank, firing from above (8.8.2, AMB-11b)")
  contains(out, "not knocked out")
  local s2 = game({ TIGER, T34 })
  s2:run("option set ko_plus each")
  s2:dice(4, 2)
  local out2 = s2:run("ko tiger t34 30 flank above")
  contains(out2, "+1  vehicle hit in the flank (option ko_plus each) (8.8.2, AMB-11b)")
  contains(out2, "+1  firing from above (option ko_plus each) (8.8.2, AMB-11b)")
  contains(out2, "T-34 [t34] is knocked out (8.8.2)")
end)

test("a SKI/S team's KO fire at a section keeps Table 8's firer-is-SKI -2 (8.8.2, 5.2.1)", function()
  -- D6 6 + SP 6 + SKI/S 3 - firer SKI 2 = 13; a quarter of 13 is 3 (1.2); rpg row, medium column 3+
  local s = game({ "r1 hmg HMG type=SKI/S sp=6 sp_start=6" })
  s:dice(6, 2)
  local out = s:run("kofort hmg field 10")
  contains(out, "+3  ski_s (Table 7)")
  contains(out, "-2  firer is SKI (Table 8)")
  contains(out, "-10  KO fire: a quarter of 13 HP (8.8.2)")
  contains(out, "=   3  3 HP to convert")
  contains(out, "row rpg (SKI/S at any range), column medium: 3+ needed")
  contains(out, "the section stands (AMB-11f)")
end)

-- 8.8.2's first +1 group: PN gives it to a dive-bombing or loitering AIR *firer*; the 2nd
-- Edition's sentence puts that AIR among the *targets* (AMB-11g).
local SAM = "r1 sam SAM type=ART sp=6 sp_start=6 weapon=aagw"
local JU87 = "b1 stuka Stuka type=AIR air=fixed sp=4 sp_start=4 armour=light"

test("2E: a dive-bombing or loitering AIR target gives +1, with flying AIR's -1 (8.8.2; AMB-11g)", function()
  -- D6 6 + SP 6 + guided 4 - light armour 2 = 14, a quarter 4 (3.5 rounds up, 1.2);
  -- aagw row, light column 2+; KO D6 1 +1 diving +1 guided -1 flying = 2: knocked out
  local s = session { ruleset = "olab", variant = "2e", house = { "ko_fire" } }
  s:run("add side red Red")
  s:run("add side blue Blue")
  s:run("add command red r1 Reds")
  s:run("add command blue b1 Blues")
  s:run("add unit " .. SAM)
  s:run("add unit " .. JU87)
  s:dice(6, 1)
  local out = s:run("ko sam stuka 6 diving")
  contains(out, "-10  KO fire: a quarter of 14 HP (8.8.2)")
  contains(out, "row aagw (weapon aagw), column light: 2+ needed")
  contains(out, "+1  target AIR dive-bombing or loitering (2E) (8.8.2, AMB-11b)")
  contains(out, "-1  target is flying AIR (8.8.2)")
  contains(out, "=   2  2+ needed: knocked out, no save")
  -- the same in 2E with the firer reading: the flag is refused before any die is rolled
  s:run("add unit b1 stuka2 Stuka2 type=AIR air=fixed sp=4 sp_start=4 armour=light")
  s:run("unmark sam shot")
  s:run("option set ko_air_bonus firer")
  contains(s:fails("ko sam stuka2 6 diving"), "the firer's, not the target's (option ko_air_bonus firer)")
end)

test("PN: the +1 is a firer's, so `diving` on a target is refused; option ko_air_bonus target allows it (AMB-11g)", function()
  local s = game({ SAM, JU87 })
  contains(s:fails("ko sam stuka 6 diving"), "the firer's, not the target's (PN) (8.8.2, AMB-11g)")
  s:run("option set ko_air_bonus target")
  s:dice(6, 1)
  local out = s:run("ko sam stuka 6 diving")
  contains(out, "+1  target AIR dive-bombing or loitering (option ko_air_bonus target) (8.8.2, AMB-11b)")
  contains(out, "knocked out, no save")
end)
