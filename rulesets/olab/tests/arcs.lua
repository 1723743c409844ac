-- The firer's arcs (5.1, 8.4), foot anti-tank classes (Table 6, 8.8.2) and `reach` for off-table
-- ART, gas and aircraft.

local h = require "_helpers"
local game = h.game

local TIGER = "r1 tiger Tiger type=TNK sp=9 sp_start=9 armour=heavy speed=slow weapon=bl_80_130"
local SHERMAN = "b1 sherman Sherman type=TNK sp=8 sp_start=8 armour=medium speed=medium weapon=bl_to79"
local FOOT = "b1 foot Foot type=INF/U sp=4 sp_start=4"
local AA = "r1 aa AA type=ART sp=4 sp_start=4 weapon=aagw"
local JET = "b1 jet Jet type=AIR sp=4 sp_start=4 air=rotary loiter=true"

-- The firer's arcs ---------------------------------------------------------------------------

test("an AA gun whose target is behind it may not fire: reach says no and why, shoot refuses (5.1)", function()
  local s = game({ AA, JET })
  contains(s:run("reach aa jet 10"), "yes: range 10\"")
  local no = s:run("reach aa jet 10 behind")
  contains(no, "no: Jet [jet] lies in AA [aa]'s rear arc: a stand fires only into its front arc")
  contains(no, "`move aa turn`")
  local err = s:fails("shoot aa jet 10 behind")
  contains(err, "only a turret turns to the flank or rear (5.1)")
  contains(err, "add `force` to override")
  ok(not s:has("aa", "shot"), "nothing used")
  s:dice(6, 1, 1)
  contains(s:run("shoot aa jet 10 behind force"), "(umpire override) Jet [jet] lies in AA [aa]'s rear arc")
end)

test("the default is `ahead`: a shot typed without the word is in the front arc, as before (5.1)", function()
  local s = game({ AA, JET })
  s:dice(6, 1, 1)
  local out = s:run("shoot aa jet 10")
  ok(not out:find("turret"), "no turret")
  ok(not s:has("aa", "moved"), "no MOVE")
end)

test("a TNK's turret turns to a target beside or behind it, which uses MOVE (5.1)", function()
  local s = game({ TIGER, SHERMAN })
  s:dice(4, 2, 3)
  local out = s:run("shoot tiger sherman 40 flank beside")
  contains(out, "target beside it: the turret turns, which uses MOVE (5.1)")
  contains(out, "+2  fire into the target's flank (Table 7)")
  ok(s:has("tiger", "moved"), "MOVE used")
  ok(s:has("tiger", "shot"), "SHOOT used")
  -- a turret that has already moved this round: the MOVE is refused, `force` overrides
  local s2 = game({ TIGER, SHERMAN })
  s2:run("move tiger 2")
  contains(s2:fails("shoot tiger sherman 40 behind"), "MOVE")
  contains(s2:run("reach tiger sherman 40 behind"), "yes: range 40\"")
end)

test("a StuG (turret=no) and other turretless stands turn to face first; a pivot gun (turret=yes) may turn (5.1)", function()
  local stug = "r1 stug StuG type=TNK sp=7 sp_start=7 armour=medium speed=medium weapon=bl_to79 turret=no"
  local s = game({ stug, SHERMAN })
  contains(s:fails("shoot stug sherman 30 beside"), "StuG [stug]'s flank arc: a stand fires only into its front arc")
  local s2 = game({ "r1 aa AA type=ART sp=4 sp_start=4 weapon=aagw turret=yes", JET })
  s2:dice(6, 1, 1)
  contains(s2:run("shoot aa jet 10 behind"), "target behind it: the turret turns, which uses MOVE (5.1)")
  ok(s2:has("aa", "moved"))
  -- ART by default, and foot, have no turret
  local s3 = game({ "r1 bows Bows type=ARC sp=4", FOOT })
  contains(s3:fails("shoot bows foot 6 beside"), "lies in Bows [bows]'s flank arc")
end)

test("fixed-arc weapons fire only straight ahead across their base front (5.1)", function()
  local s = game({ "r1 cat Catapult type=ART sp=4 sp_start=4 weapon=torsion_art fixed_arc=true", FOOT })
  contains(s:fails("shoot cat foot 20 oblique"), "a fixed-arc weapon fires only straight ahead across its base front (5.1)")
  contains(s:run("reach cat foot 20"), "yes")
  -- a fixed-arc TNK has no turret either
  local s2 = game({ "r1 stug StuG type=TNK sp=7 armour=medium weapon=bl_to79 fixed_arc=true", SHERMAN })
  contains(s2:fails("shoot stug sherman 30 beside"), "only a turret turns")
  -- any other stand fires across its whole front arc
  local s3 = game({ "r1 bows Bows type=ARC sp=4", FOOT })
  s3:run("shoot bows foot 6 oblique")
end)

test("SKI/S project gas only to their front (8.4), turret or not", function()
  local s = game({ "r1 m Mortar type=SKI/S sp=3 sp_start=3", FOOT })
  contains(s:fails("shoot m foot 8 chemical beside"), "SKI/S project gas only to their front (8.4)")
  contains(s:run("reach m foot 8 chemical behind"), "no: Foot [foot] lies in Mortar [m]'s rear arc: SKI/S project gas only to their front (8.4)")
  contains(s:run("reach m foot 8 chemical"), "yes: range 8\"; ski_s reaches 8\" (SKI/S projecting gas (8.4))")
end)

test("the word `turret` still means the turret turns (as `beside`)", function()
  local s = game({ TIGER, SHERMAN })
  s:dice(4, 2, 3)
  contains(s:run("shoot tiger sherman 30 turret"), "target beside it: the turret turns")
  local s2 = game({ "r1 bows Bows type=ARC sp=4", FOOT })
  contains(s2:fails("shoot bows foot 6 turret"), "only a turret turns")
end)

-- Foot anti-tank teams -----------------------------------------------------------------------

test("foot AT classes: at_rifle (bazooka, Panzerfaust, PIAT) 2\", rpg (RPG, MAW) 4\" (Table 6, 8.8.2)", function()
  local s = game({ "r1 pzf Panzerfaust type=SKI/F sp=4 sp_start=4 weapon=at_rifle", SHERMAN })
  contains(s:fails("shoot pzf sherman 3"), "out of range: 3\" > 2\"")
  s:dice(6, 1, 1)
  local out = s:run("shoot pzf sherman 2")
  contains(out, "at_rifle reaches 2\"")
  contains(out, "+2  at_rifle (small_arms) (Table 7)")
  contains(out, "-2  firer is SKI (Table 8)")
  local s2 = game({ "r1 rpg RPG type=SKI/S sp=3 sp_start=3 weapon=rpg", SHERMAN })
  contains(s2:fails("shoot rpg sherman 5"), "out of range: 5\" > 4\"")
  s2:dice(6, 1, 1)
  contains(s2:run("shoot rpg sherman 4"), "+3  rpg (ski_s) (Table 7)")
  -- the second weapon of a rifle team
  local s3 = game({ "r1 team Team type=MSK sp=4 sp_start=4 weapon=rifle weapon2=at_rifle", SHERMAN })
  s3:dice(6, 1, 1)
  contains(s3:run("shoot team sherman 2 at_rifle"), "+2  at_rifle (small_arms) (Table 7)")
end)

-- reach without firing -----------------------------------------------------------------------

test("reach: off-table ART reaches 70\" from the base line (8.2), gas from SKI/S 8\" (8.4)", function()
  local s = game({ "r1 guns Guns type=ART sp=4 weapon=bl_over130 off_table=reserve", FOOT,
    "r1 m Mortar type=SKI/S sp=3" })
  contains(s:run("reach guns foot 70 offtable"), "yes: range 70\"; off-table fire reaches 70\"")
  contains(s:run("reach guns foot 71 offtable"), "no: Foot [foot] is out of range: 71\" > 70\"")
  contains(s:run("reach guns foot 50 offtable chemical"), "yes")
  contains(s:run("reach m foot 9 chemical"), "no: Foot [foot] is out of range: 9\" > 8\"")
  ok(not s:has("guns", "shot") and not s:has("m", "shot"), "nothing fired")
end)

test("reach: an AIR's ordnance, with the altitude (5.1, Table 11)", function()
  local s = game({ "r1 typhoon Typhoon type=AIR sp=4 sp_start=4 air=fixed weapon=bl_to79", TIGER:gsub("^r1", "b1"),
    "r1 heli Heli type=AIR sp=4 sp_start=4 air=rotary loiter=true" })
  s:run("arm typhoon fighter_bomber")
  contains(s:run("reach typhoon tiger 8 rocket"), "yes: range 8\" + 16\" altitude = 24\"; rocket reach 24\"")
  contains(s:run("reach typhoon tiger 9 rocket"), "no: Tiger [tiger] is out of range: 25\" > 24\" (5.1)")
  contains(s:run("reach typhoon tiger 0 bomb"), "yes: bomb: a bomb load as 130 mm ART, Indirect; on a stand Typhoon [typhoon] flies over")
  contains(s:run("reach typhoon tiger 0"), "no: name the ordnance")
  contains(s:run("reach heli tiger 20 atgw"), "no: Heli [heli] has no ordnance left (Table 11)")
  eq(s:get("typhoon", "ordnance"), 1)
  eq(s:get("typhoon", "off_table"), "no")
end)
