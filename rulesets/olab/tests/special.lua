-- Aircraft (8.3, Table 11), minefields (8.1) and paradrops (8.5).

local h = require "_helpers"
local game = h.game
local next_round = h.next_round

local STUKA = "r1 stuka Stuka type=AIR sp=4 sp_start=4 air=fixed"
local FOOT = "b1 foot Foot type=INF/U sp=6 sp_start=6"

-- Table 11: every row ------------------------------------------------------------------------

test("Table 11: each aircraft's warload, guns and extra PCP (8.3)", function()
  local rows = {
    fighter = "shoots as SKI/F, 0 item(s) of none, +1 PCP",
    fighter_bomber = "shoots as SKI/F, 1 item(s) of bomb or rocket, +2 PCP",
    tactical_bomber = "shoots as none, 2 item(s) of bomb, +3 PCP",
    jet = "shoots as SKI/F or SKI/S, 3 item(s) of bomb or rocket, +4 PCP",
    attack_helicopter = "shoots as none, 3 item(s) of rocket or atgw, +5 PCP",
    unarmed = "shoots as none, 0 item(s) of none, +0 PCP",
  }
  for kind, text in pairs(rows) do
    local s = game({ STUKA })
    contains(s:run("arm stuka " .. kind), text)
  end
end)

test("Table 11: sci-fi warloads: PN +1 item, 2e +2 items, +5 PCP", function()
  local s = game({ STUKA })
  contains(s:run("arm stuka tactical_bomber scifi"), "3 item(s) of bomb, +8 PCP")
  eq(s:get("stuka", "ordnance"), 3)
  local s2 = game({ STUKA }, { ruleset = "olab", variant = "2e" })
  contains(s2:run("arm stuka tactical_bomber scifi"), "4 item(s) of bomb, +8 PCP")
end)

test("arm warns when strike AIR pass 10% of the army (8.3)", function()
  local s = game({ STUKA, "r1 x X type=INF/U sp=4" })
  contains(s:run("arm stuka fighter"), "over the 10% recommended")
end)

-- Strikes ------------------------------------------------------------------------------------

test("a bomb load is a 130 mm ART shot, Indirect; no flank bonus for AIR (5.2.1, AMB-51)", function()
  local s = game({ STUKA, FOOT })
  s:run("arm stuka fighter_bomber")
  s:dice(6, 1, 1)
  local out = s:run("strike stuka foot bomb")
  contains(out, "+4  a bomb load as 130 mm ART, Indirect (Table 7)")
  contains(out, "-4  Indirect fire (5.2.1)")
  eq(s:get("stuka", "ordnance"), 0)
  eq(s:get("stuka", "off_table"), "air_away")
  contains(out, "Stuka [stuka] leaves to re-arm; it may try to return from round 11")
end)

test("dive bombs are direct; an empty warload is refused (5.1, Table 11)", function()
  local s = game({ STUKA, FOOT })
  s:run("arm stuka fighter_bomber")
  s:dice(6, 1, 1)
  local out = s:run("strike stuka foot dive_bomb")
  ok(not out:find("Indirect"), "dive bombing is direct")
  local s2 = game({ STUKA, FOOT })
  contains(s2:fails("strike stuka foot bomb"), "no ordnance left")
end)

test("AIR guns: Table 11's SKI/F (+2 -2), a jet as SKI/S (+3 -2), else MSK with rifles (AMB-40)", function()
  local s = game({ STUKA, FOOT })
  s:run("arm stuka fighter")
  s:dice(1, 1, 1)
  local out = s:run("strike stuka foot guns")
  contains(out, "+2  guns, as SKI/F (Table 11, AMB-40)")
  contains(out, "-2  firer shoots as SKI/F (Table 8)")
  s = game({ STUKA, FOOT })
  s:run("arm stuka jet")
  s:dice(1, 1, 1)
  contains(s:run("strike stuka foot guns"), "+3  guns, as SKI/S (Table 11, AMB-40)")
  s = game({ STUKA, FOOT })
  s:dice(1, 1, 1)
  contains(s:run("strike stuka foot guns"), "+2  strafing, as MSK with rifles (5.2.1)")
end)

test("rockets: the comparable ART, up to 24\" with the altitude (5.1)", function()
  local s = game({ "r1 typhoon Typhoon type=AIR sp=4 air=fixed weapon=bl_80_130", "b1 tiger Tiger type=TNK sp=9 armour=heavy" })
  s:run("arm typhoon jet")
  contains(s:fails("strike typhoon tiger rocket 9"), "out of range: 25\" > 24\"")
  s:dice(6, 1, 1)
  local out = s:run("strike typhoon tiger rocket 8 more")
  contains(out, "+4  bl_80_130 (Table 7)")
  contains(out, "Typhoon [typhoon] continues its pass")
  s:dice(6, 1, 1)
  s:run("strike typhoon tiger rocket 8")
  eq(s:get("typhoon", "ordnance"), 1)
  eq(s:get("typhoon", "off_table"), "air_away")
end)

test("attack helicopters' ATGW: +4 against TNK; loitering AIR stay over the table", function()
  local s = game({ "r1 heli Heli type=AIR sp=4 air=rotary loiter=true", "b1 t T type=TNK sp=6 armour=medium" })
  s:run("arm heli attack_helicopter")
  s:dice(6, 1, 1)
  local out = s:run("strike heli t atgw 24")
  contains(out, "+4  atgw (guided) (Table 7)")
  eq(s:get("heli", "off_table"), "no")
end)

test("indirect bombs may hit two stands within 4\" (5.2.1)", function()
  local s = game({ "r1 b Bomber type=AIR sp=4 air=fixed", "b1 foot Foot type=INF/U sp=12 sp_start=12",
    "b1 foot2 Foot2 type=INF/U sp=6" })
  s:run("arm b tactical_bomber")
  s:dice(6, 1, 1, 1, 1)
  local out = s:run("strike b foot bomb more foot2")
  contains(out, "Foot2")
  contains(s:fails("strike b foot dive_bomb foot2"), "only Indirect bombs")
end)

test("gas dropped by AIR: Indirect, and the extra 1D6-2 (8.4)", function()
  local s = game({ "r1 b Bomber type=AIR sp=4 air=fixed", "b1 foot Foot type=INF/U sp=12 sp_start=12" })
  s:run("arm b tactical_bomber")
  s:dice(6, 1, 1, 6)
  local out = s:run("strike b foot gas")
  contains(out, "6  extra gas loss: 1d6 [6] (8.4)")
  contains(out, "=   4  4 more SP lost (no save)")
end)

test("a strike AIR returns only from ten rounds after it left, on a 6 (8.3, AMB-46)", function()
  local s = game({ STUKA, FOOT })
  s:run("arm stuka fighter_bomber")
  s:run("strike stuka foot bomb")
  contains(s:fails("airreturn stuka"), "it may try from round 11")
  for _ = 1, 10 do next_round(s) end
  s:dice(5)
  contains(s:run("airreturn stuka"), "not this round (needs 6)")
  s:dice(6)
  contains(s:run("airreturn stuka"), "Stuka [stuka] returns")
  eq(s:get("stuka", "off_table"), "no")
  eq(s:get("stuka", "ordnance"), 1)
end)

-- Minefields and paradrops ------------------------------------------------------------------

test("a minefield costs 1D6 SP, no save (8.1)", function()
  local s = game({ FOOT })
  s:dice(4)
  local out = s:run("minefield foot")
  contains(out, "4  minefield damage, no save: 1d6 [4] (8.1)")
  eq(s:get("foot", "sp"), 2)
  ok(s:has("foot", "routed"), "below half: routs (7.2)")
end)

test("each landing stand takes 1D6-3 HP, never less than 0 (8.5)", function()
  local s = game({ "b1 p1 P1 type=SKI/F sp=6 sp_start=6", "b1 p2 P2 type=SKI/F sp=6 sp_start=6" })
  s:dice(5, 2)
  local out = s:run("paradrop p1,p2")
  contains(out, "P1 [p1]: SP 6 → 4")
  contains(out, "P2 [p2]: SP 6 → 6")
  contains(out, "lose 1 SP a turn as in 4.1.2 (PN 8.5)")
end)

test("stands in reserve or aloft land, join the Command named, and undo puts them back (8.5)", function()
  local s = game({ "b1 p1 P1 type=SKI/F sp=6 sp_start=6 off_table=reserve",
                   "b1 p2 P2 type=SKI/F sp=6 sp_start=6 off_table=air_away",
                   "b1 gone Gone type=SKI/F sp=0 off_table=eliminated" }, nil, { "blue b2 Landing force" })
  s:dice(4, 6)
  local out = s:run("paradrop p1,p2 b2")
  contains(out, "p1 off_table reserve → no — lands by parachute or glider (8.5)")
  contains(out, "unit p1 moved from b1 to b2 — lands under Landing force [b2] (8.5)")
  contains(out, "P2 [p2]: SP 6 → 3")
  eq(s:get("p1", "off_table"), "no")
  contains(s:run("show p2"), "(blue / b2)")
  s:run("undo")
  eq(s:get("p1", "off_table"), "reserve")
  contains(s:run("show p1"), "(blue / b1)")
  contains(s:fails("paradrop gone"), "cannot land: it is eliminated")
  contains(s:fails("paradrop p1 r1"), "paratroops land under their own side's Command (8.5)")
end)

test("engineers clearing a lane use MOVE and may not shoot or fight that round (8.1)", function()
  local s = game({ "r1 eng Sappers type=SKI/F sp=4 engineer=true weapon=rifle", FOOT, "r1 x X type=SKI/F sp=4" })
  contains(s:run("clearlane eng"), "Sappers [eng] clears 2\" of lane")
  ok(s:has("eng", "moved") and s:has("eng", "clearing"))
  contains(s:fails("shoot eng foot 10"), "clearing mines and may not shoot (8.1)")
  contains(s:fails("cc eng foot"), "clearing mines and may not fight (8.1)")
  contains(s:fails("clearlane x"), "is not engineers")
end)

test("2e: paratroops out of command may not shoot until back in range (2e 8.5)", function()
  local s = game({ "b1 p1 P1 type=SKI/F sp=6 sp_start=6 weapon=rifle", "r1 t T type=INF/U sp=6" },
    { ruleset = "olab", variant = "2e" })
  s:dice(1)
  contains(s:run("paradrop p1"), "may not shoot until they do (2e 8.5)")
  s:run("mark p1 out_of_command")
  contains(s:fails("shoot p1 t 10"), "may not shoot until back within it (2e 8.5)")
  s:run("unmark p1 out_of_command")
  s:run("shoot p1 t 10")
end)

test("a departure by `set … off_table air_away` is recorded too: no early return (8.3)", function()
  local s = game({ STUKA, FOOT })
  next_round(s)
  next_round(s)                                           -- round 3
  s:run("set stuka off_table air_away")
  contains(s:fails("airreturn stuka"), "Stuka [stuka] left in round 3: it may try from round 13 (8.3)")
  contains(s:fails("airreturn stuka"), "add `force` to override")
  for _ = 1, 9 do next_round(s) end                       -- round 12
  contains(s:fails("airreturn stuka"), "from round 13")
  next_round(s)
  s:dice(6)
  contains(s:run("airreturn stuka"), "Stuka [stuka] returns")
end)

test("an AIR added away is counted from the round it was added; `force` rolls early (8.3)", function()
  local s = game({ FOOT })
  next_round(s)
  s:run("add unit r1 hurri Hurricane type=AIR air=fixed sp=4 sp_start=4 off_table=air_away")
  contains(s:fails("airreturn hurri"), "left in round 2: it may try from round 12")
  s:dice(6)
  local out = s:run("airreturn hurri force")
  contains(out, "(umpire override) Hurricane [hurri] left in round 2")
  contains(out, "returns")
end)
