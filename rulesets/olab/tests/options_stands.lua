-- The readings of 2.2 the umpire may switch (issue 16): each option's alternative gives a
-- different answer from the recommended reading, and `undo` puts the default back.

local function game(opts)
  local s = session(opts or { ruleset = "olab" })
  s:run("add side red Red")
  s:run("add command red c1 First")
  return s
end

test("option hero_general one: a Hero General gets a single +1 (Table 3; AMB-24 stacks them)", function()
  local s = game()
  s:run("period 3000 scifi")
  s:run("add unit c1 vader Vader type=SKI/F magic_user=true general=superior hero=true")
  contains(s:run("sp vader"), "SP 9")
  contains(s:run("option set hero_general one"), "hero_general = one")
  local out = s:run("sp vader")
  contains(out, "SP 8")
  contains(out, "no second +1 for a Hero General (option hero_general one)")
  -- A Hero who is not a General still gets his +1.
  s:run("add unit c1 sharpe Sharpe type=SKI/M hero=true")
  contains(s:run("sp sharpe"), "SP 3")
  s:run("undo")   -- the stand
  s:run("undo")   -- the option
  contains(s:run("sp vader"), "SP 9")
end)

test("option dedicated_transport minimum_2: a lorry gets 2 SP and costs 2 (2.2.1; AMB-25 keeps 1)", function()
  local s = game()
  s:run("add unit c1 lorry Lorry type=TPT transport=motor dedicated=true sp=1 sp_start=1")
  contains(s:run("sp lorry"), "SP 1, as on the roster")
  contains(s:run("pcp lorry"), "1 PCP")
  s:run("option set dedicated_transport minimum_2")
  local out = s:run("sp lorry")
  contains(out, "minimum 2, dedicated transport too (option dedicated_transport minimum_2)")
  contains(out, "SP 2; the roster has 1")
  s:run("sp lorry apply")
  contains(s:run("pcp lorry"), "2 PCP")
end)

test("option loiter_cost before_extras: only the cost before Table 11 is doubled (2.2.2; AMB-41)", function()
  local s = game()
  s:run("add unit c1 heli Huey type=AIR air=rotary loiter=true warload=fighter")
  s:run("sp heli apply")
  contains(s:run("pcp heli"), "10 PCP")            -- (4 + 1) x 2
  s:run("option set loiter_cost before_extras")
  local out = s:run("pcp heli")
  contains(out, "(option loiter_cost before_extras)")
  contains(out, "9 PCP")                           -- 4 x 2 + 1
end)

test("option torsion_price factor_zero: torsion ART costs its SP (2.2.2; AMB-43 takes 1 off)", function()
  local s = game()
  s:run("add unit c1 bolt Scorpion type=ART quality=good weapon=torsion_art")
  s:run("sp bolt apply")
  contains(s:run("pcp bolt"), "5 PCP")             -- 6 + 0 - 1
  s:run("option set torsion_price factor_zero")
  local out = s:run("pcp bolt")
  contains(out, "(option torsion_price factor_zero)")
  contains(out, "6 PCP")
end)

test("option works_frontage started: every 6\" begun is paid for (8.1; AMB-44 rounds)", function()
  local s = game()
  contains(s:run("works fieldworks 7"), "2 PCP")   -- 7/6 rounds to 1 length
  s:run("option set works_frontage started")
  local out = s:run("works fieldworks 7")
  contains(out, "every 6\" begun: option works_frontage started")
  contains(out, "4 PCP")                           -- 2 lengths
end)

test("option order_change no_action: a change of order leaves the MOVE action (2.2.4; AMB-30)", function()
  local s = game()
  s:run("add unit c1 bor1 Bor1 type=MSK sp=5 sp_start=5")
  s:run("convert bor1 2 SKI/F a1,a2")
  ok(s:has("a1", "moved"), "the default: their MOVE action")
  s:run("undo")
  s:run("option set order_change no_action")
  contains(s:run("convert bor1 2 SKI/F a1,a2"), "option order_change no_action")
  ok(not s:has("a1", "moved"), "no action used")
end)

test("convert takes the player's own split, checked: sums and at least 1 a stand (2.2.3-2.2.4)", function()
  local s = game()
  s:run("add unit c1 bor1 Bor1 type=MSK sp=5 sp_start=5")
  s:run("add unit c1 bor2 Bor2 type=MSK sp=5 sp_start=5")
  contains(s:run("convert bor1,bor2 3 SKI/F"), "3, 4, 3")           -- the even split
  contains(s:run("convert bor1,bor2 3 SKI/F 4+4+2"), "4, 4, 2 (the player's split)")
  contains(s:fails("convert bor1,bor2 3 SKI/F 4+4+4"), "adds up to 12 SP, but the stands have 10")
  contains(s:fails("convert bor1,bor2 3 SKI/F 5+5+0"), "at least 1 SP")
  contains(s:fails("convert bor1,bor2 3 SKI/F 5+5"), "give 3 numbers")
  s:run("convert bor1,bor2 3 SKI/F 4+4+2 sk1,sk2,sk3")
  eq(s:get("sk1", "sp"), 4); eq(s:get("sk2", "sp"), 4); eq(s:get("sk3", "sp"), 2)
  eq(s:get("sk3", "sp_start"), 2)
  -- Losses already taken are shared evenly in the start values.
  s:run("set sk3 sp 1")
  s:run("convert sk1,sk2,sk3 2 MSK 5+4 bor1,bor2 free")
  eq(s:get("bor1", "sp"), 5); eq(s:get("bor2", "sp"), 4)
  eq(s:get("bor1", "sp_start") + s:get("bor2", "sp_start"), 10)
end)

-- The Grant: medium TNK (6, Table 2) with a 75 mm (BL to 79 mm, +3, less 1 for TNK: +2) and a
-- 37 mm (also BL to 79 mm, +2 as a TNK's). Main gun only: 6 + 2 = 8 PCP; option second_gun both:
-- 6 + 2 + 2 = 10. An ART with a second gun adds its full factor: bl_80_130 (+4) and bl_to79 (+3)
-- on ART 4: 8, or 11 with both.
test("option second_gun both: a second gun adds its fire factor to the points cost (2.2.2; AMB-53)", function()
  local s = game()
  s:run("add unit c1 grant Grant type=TNK armour=medium speed=medium weapon=bl_to79 weapon2=bl_to79")
  s:run("add unit c1 gun Gun type=ART weapon=bl_80_130 weapon2=bl_to79")
  s:run("sp grant,gun apply")
  local out = s:run("pcp grant")
  contains(out, "+2  gun as bl_to79 ART, less 1 for TNK (2.2.2, 5.2.1)")
  contains(out, "+0  second gun bl_to79: not priced, the main gun only (2.2.2; AMB-53)")
  contains(out, "=   8  8 PCP")
  contains(s:run("pcp gun"), "=   8  8 PCP")
  s:run("option set second_gun main_only")
  contains(s:run("pcp grant"), "=   8  8 PCP")
  s:run("option set second_gun both")
  out = s:run("pcp grant")
  contains(out, "+2  second gun bl_to79 as ART, less 1 for TNK (option second_gun both) (2.2.2; AMB-53)")
  contains(out, "=  10  10 PCP")
  out = s:run("pcp gun")
  contains(out, "+3  second gun bl_to79 (option second_gun both) (2.2.2; AMB-53)")
  contains(out, "=  11  11 PCP")
end)
