-- Stand strength (2.2.1, Tables 2 and 3), points costs (2.2.2) and changes of order (2.2.4).

local function game(opts)
  local s = session(opts or { ruleset = "olab" })
  s:run("add side red Red")
  s:run("add command red c1 First")
  return s
end

-- Adds a stand, works out its SP with `sp … apply` and returns the new SP.
local function sp_of(s, id, attrs)
  s:run("add unit c1 " .. id .. " " .. id .. " " .. attrs)
  s:run("sp " .. id .. " apply")
  return s:get(id, "sp")
end

test("Table 2: every base value", function()
  local s = game()
  local want = {
    ["INF/A"] = 4, ["INF/U"] = 3, PKE = 3, MSK = 3, WBD = 3, ARC = 3, ["CAV/A"] = 4,
    ["CAV/U"] = 3, ART = 4, AIR = 4, ["SKI/F"] = 2, ["SKI/M"] = 2, ["SKI/S"] = 3,
  }
  local i = 0
  for code, sp in pairs(want) do
    i = i + 1
    eq(sp_of(s, "u" .. i, "type=" .. code), sp, code)
  end
  eq(sp_of(s, "t1", "type=TNK armour=light"), 5)
  eq(sp_of(s, "t2", "type=TNK armour=medium"), 6)
  eq(sp_of(s, "t3", "type=TNK armour=heavy"), 7)
  eq(sp_of(s, "t4", "type=TNK armour=super"), 8)
  -- TPT 1 is raised to the minimum of 2 unless it is a dedicated transport (AMB-25).
  eq(sp_of(s, "tp1", "type=TPT"), 2)
  eq(sp_of(s, "tp2", "type=TPT dedicated=true"), 1)
end)

test("Table 2, 2E: SKI/S has no +1", function()
  local s = game({ ruleset = "olab", variant = "2e" })
  eq(sp_of(s, "ss", "type=SKI/S"), 2)
end)

test("Table 3: every modifier, with the breakdown", function()
  local s = game()
  eq(sp_of(s, "p", "type=INF/U quality=poor"), 2)        -- 3 - 2 = 1, minimum 2
  eq(sp_of(s, "t", "type=INF/U quality=trained"), 3)
  eq(sp_of(s, "g", "type=ARC quality=good"), 5)
  eq(sp_of(s, "e", "type=INF/A quality=elite"), 7)        -- the legionaries
  eq(sp_of(s, "m", "type=SKI/F quality=elite magic_user=true"), 8)  -- +3 for each
  eq(sp_of(s, "f0", "type=SKI/F"), 2)
  s:run("period 1906")
  eq(sp_of(s, "f1", "type=SKI/F"), 2)                     -- only after c.1906
  s:run("period 1907")
  eq(sp_of(s, "f", "type=SKI/F"), 4)
  eq(sp_of(s, "ss", "type=SKI/S"), 5)
  eq(sp_of(s, "sm", "type=SKI/M"), 2)                     -- never for SKI/M
  s:run("period 2300 scifi")
  eq(sp_of(s, "fs", "type=SKI/F"), 4)
  eq(sp_of(s, "gen", "type=SKI/M general=competent"), 3)
  eq(sp_of(s, "h", "type=SKI/M hero=true"), 3)            -- PN: Hero +1 (AMB-24)
  eq(sp_of(s, "mc", "type=SKI/M main_character=true"), 2)
  eq(sp_of(s, "el", "type=PKE elephant=true quality=good"), 4)
  eq(sp_of(s, "tr", "type=MSK trait=1"), 4)
  eq(sp_of(s, "tm", "type=MSK trait=-1 quality=good"), 4)
  local out = s:run("sp e")
  contains(out, "4  base INF/A (Table 2)")
  contains(out, "+3  elite (Table 3)")
  contains(out, "SP 7, as on the roster")
end)

test("Table 3, 2E: a Hero gives no SP", function()
  local s = game({ ruleset = "olab", variant = "2e" })
  eq(sp_of(s, "h", "type=SKI/M hero=true"), 2)
end)

test("SP are held within 2 and 12 at creation (2.2.1)", function()
  local s = game()
  local out = s:run("add unit c1 big Big type=TNK armour=super quality=elite magic_user=true")
  out = s:run("sp big apply")
  contains(out, "maximum 12 (2.2.1)")
  eq(s:get("big", "sp"), 12)
  eq(s:get("big", "sp_start"), 12)
  contains(s:fails("sp tp"), "no unit") -- (a missing stand is refused)
end)

test("sp without apply only compares with the roster", function()
  local s = game()
  s:run("add unit c1 leg Leg type=INF/A sp=6 sp_start=6")
  contains(s:run("sp leg"), "the roster has 6")
  eq(s:get("leg", "sp"), 6)
  s:run("add unit c1 tk Tk type=TNK")
  contains(s:fails("sp tk apply"), "armour=")
end)

test("Vader's build: SKI/F 2 + sci-fi 2 + magic 3 + General 1 + Hero 1 = 9 (AMB-24)", function()
  local s = game()
  s:run("period 3000 scifi")
  eq(sp_of(s, "vader", "type=SKI/F magic_user=true general=superior hero=true"), 9)
end)

test("PCP: a medium TNK with a 75 mm gun costs 6 + 2 = 8 (2.2.2)", function()
  local s = game()
  s:run("add unit c1 pz4 PzIV type=TNK armour=medium weapon=bl_to79")
  s:run("sp pz4 apply")
  local out = s:run("pcp pz4 apply")
  contains(out, "+2  gun as bl_to79 ART, less 1 for TNK")
  contains(out, "8 PCP")
  eq(s:get("pz4", "pcp"), 8)
end)

test("PCP: the Tiger, a heavy TNK with an 88 mm gun: 7 + 3 = 10 (2.2.4)", function()
  local s = game()
  s:run("add unit c1 tiger Tiger type=TNK armour=heavy speed=slow weapon=bl_80_130")
  s:run("sp tiger apply")
  contains(s:run("pcp tiger"), "10 PCP")
end)

test("PCP: the Firefly is priced as the 75 mm it normally fires (2.2.4)", function()
  local s = game()
  s:run("add unit c1 ff Firefly type=TNK armour=medium speed=medium weapon=bl_to79 weapon2=bl_80_130")
  s:run("sp ff apply")
  contains(s:run("pcp ff"), "8 PCP")
end)

test("PCP: ART adds its fire factor; torsion ART costs 1 less (2.2.2, AMB-43)", function()
  local s = game()
  s:run("add unit c1 gun Gun type=ART weapon=ml_smoothbore")
  s:run("add unit c1 bolt Scorpion type=ART quality=good weapon=torsion_art")
  s:run("add unit c1 big Big type=ART weapon=bl_over130")
  s:run("sp gun,bolt,big apply")
  local out = s:run("pcp gun")
  contains(out, "+1  fire factor of ml_smoothbore")
  contains(out, "5 PCP")
  contains(s:run("pcp bolt"), "5 PCP")        -- 6 + 0 - 1
  contains(s:run("pcp big"), "9 PCP")         -- 4 + 5
end)

test("PCP: SKI/S +1 always; ATGW/AAGW +1; magic user +20 (2.2.2, 8.7.3.1)", function()
  local s = game()
  s:run("add unit c1 mg MG type=SKI/S")
  s:run("add unit c1 at AT type=SKI/F weapon=atgw")
  s:run("add unit c1 at2 AT2 type=SKI/S weapon2=aagw")
  s:run("add unit c1 mu Mage type=SKI/F magic_user=true")
  s:run("sp mg,at,at2,mu apply")
  contains(s:run("pcp mg"), "4 PCP")          -- 3 + 1
  contains(s:run("pcp at"), "3 PCP")          -- 2 + 1
  contains(s:run("pcp at2"), "5 PCP")         -- 3 + 1 + 1
  contains(s:run("pcp mu"), "25 PCP")         -- 5 + 20
end)

test("PCP: the maximum of 12 does not apply, the minimum does (2.2.2)", function()
  local s = game()
  s:run("add unit c1 big Big type=TNK armour=super quality=elite magic_user=true")
  s:run("add unit c1 poor Poor type=INF/U quality=poor")
  s:run("add unit c1 lorry Lorry type=TPT dedicated=true")
  s:run("sp big,poor,lorry apply")
  contains(s:run("pcp big"), "34 PCP")        -- 8 + 3 + 3 = 14 SP, + 20 magic
  contains(s:run("pcp poor"), "2 PCP")
  contains(s:run("pcp lorry"), "1 PCP")       -- extra transport as Table 2 (AMB-25)
end)

test("PCP: AIR armament (Table 11), sci-fi +5, loitering transport doubled (AMB-41)", function()
  local s = game()
  s:run("add unit c1 fb FB type=AIR warload=fighter_bomber")
  s:run("add unit c1 heli Huey type=AIR air=rotary loiter=true")
  s:run("add unit c1 spd Speeder type=AIR warload=fighter scifi=true")
  s:run("sp fb,heli,spd apply")
  contains(s:run("pcp fb"), "6 PCP")
  contains(s:run("pcp heli"), "8 PCP")
  contains(s:run("pcp spd"), "10 PCP")
end)

test("Duplicates: 3 SKI/F at 4 or 2 MSK at 5 cost (12 + 10) / 2 = 11 (2.2.2)", function()
  local s = game()
  s:run("add unit c1 m1 M1 type=MSK quality=good body=bor sabot=\"3 SKI/F 4\"")
  s:run("add unit c1 m2 M2 type=MSK quality=good body=bor sabot=\"3 SKI/F 4\"")
  s:run("sp m1,m2 apply")
  local out = s:run("pcp m1,m2")
  contains(out, "10  2 MSK as deployed")
  contains(out, "12  3 SKI/F (3 x SP 4)")
  contains(out, "11 PCP")
  contains(out, "red: 11 PCP")
  -- `brief`: one line a stand, no breakdowns.
  out = s:run("pcp m1,m2 brief")
  contains(out, "m1             MSK      5 PCP")
  contains(out, "bor: duplicates averaged, 11 PCP")
  ok(not out:find("Points cost"), "no breakdown")
  contains(s:run("sp m1 brief"), "m1: SP 5 (roster agrees)")
end)

test("Fortifications 2 PCP per 6\", castle walls 4, minefields as fieldworks (8.1, AMB-44)", function()
  local s = game()
  contains(s:run("works fieldworks 12"), "4 PCP")
  contains(s:run("works castle 18"), "12 PCP")
  contains(s:run("works minefield 9"), "4 PCP")   -- 9/6 = 1.5 rounds up to 2 units
  -- Bought for a side, they count in its total.
  s:run("add unit c1 inf Inf type=INF/U")
  s:run("works fieldworks 12 red")
  contains(s:run("pcp side:red"), "red: 7 PCP")
end)

test("every row of the 2.2.2 price lists (Table 7 factors, Table 11)", function()
  local s = game()
  local factors = { torsion_art = 0, rocket = 0, ml_smoothbore = 1, ml_rifled = 2, bl_to79 = 3,
    light_beam_cannon = 3, bl_80_130 = 4, beam_cannon = 4, bl_over130 = 5,
    heavy_beam_cannon = 5, ship = 7 }
  for key, f in pairs(factors) do
    s:run("add unit c1 a_" .. key .. " A type=ART weapon=" .. key)
    s:run("add unit c1 t_" .. key .. " T type=TNK armour=light weapon=" .. key)
    s:run("sp a_" .. key .. ",t_" .. key .. " apply")
    local torsion = key == "torsion_art" and 1 or 0
    contains(s:run("pcp a_" .. key), (4 + f - torsion) .. " PCP")
    contains(s:run("pcp t_" .. key), (5 + math.max(0, f - 1)) .. " PCP")
  end
  local arms = { unarmed = 0, fighter = 1, fighter_bomber = 2, tactical_bomber = 3, jet = 4,
    attack_helicopter = 5 }
  for key, extra in pairs(arms) do
    s:run("add unit c1 air_" .. key .. " Air type=AIR warload=" .. key)
    s:run("sp air_" .. key .. " apply")
    contains(s:run("pcp air_" .. key), (4 + extra) .. " PCP")
  end
end)

test("The Borsetshire split: 2 MSK of 5 SP become 3 SKI/F of 3, 4 and 3 (2.2.3)", function()
  local s = game()
  s:run("add unit c1 bor1 Bor1 type=MSK sp=5 sp_start=5")
  s:run("add unit c1 bor2 Bor2 type=MSK sp=5 sp_start=5")
  s:run("set bor1 quality good")
  contains(s:run("convert bor1,bor2 3 SKI/F"), "3, 4, 3")
  -- The three SKI/F are made by the change of order, in Bor1's Command with its quality.
  local out = s:run("convert bor1,bor2 3 SKI/F sk1,sk2,sk3")
  contains(out, "MOVE action")
  contains(out, "unit sk1 added to c1 — change of order from MSK (2.2.4)")
  contains(out, "new stands sk1, sk2, sk3 in c1 (quality good)")
  eq(s:get("sk3", "type"), "SKI/F")
  eq(s:get("sk3", "quality"), "good")
  ok(s:has("sk1", "moved"))
  eq(s:get("sk1", "sp"), 3); eq(s:get("sk2", "sp"), 4); eq(s:get("sk3", "sp"), 3)
  eq(s:get("sk2", "sp_start"), 4)
  eq(s:get("bor1", "off_table"), "sabot")
  eq(s:get("sk1", "off_table"), "no")
  -- Losses carry over, and going back never adds SP.
  s:run("set sk2 sp 2")
  s:run("convert sk1,sk2,sk3 2 MSK bor1,bor2 free")
  ok(not s:has("bor1", "moved"))
  eq(s:get("bor1", "sp") + s:get("bor2", "sp"), 8)
  eq(s:get("bor1", "off_table"), "no")
  contains(s:fails("convert sk1 2 MSK"), "not on the table")
end)

test("undoing a change of order takes the stands it made away again (2.2.4)", function()
  local s = game()
  s:run("add unit c1 bor1 Bor1 type=MSK sp=5 sp_start=5")
  s:run("convert bor1 2 SKI/F sk1 sk2 free")
  eq(s:get("sk1", "sp") + s:get("sk2", "sp"), 5)
  s:run("undo")
  ok(not s:exists("sk1") and not s:exists("sk2"))
  eq(s:get("bor1", "off_table"), "no")
  contains(s:fails("convert bor1 2 SKI/F sk1 sk1"), "named twice")
  contains(s:fails("convert bor1 2 SKI/F sk1 Bad"), "`Bad` is not a valid id")
  ok(not s:exists("sk1"))
end)

test("convert refuses a split that leaves a stand with nothing, and a wrong TO count", function()
  local s = game()
  s:run("add unit c1 a A type=MSK sp=1 sp_start=5")
  s:run("add unit c1 b B type=SKI/F")
  contains(s:fails("convert a 2 SKI/F"), "at least 1")
  s:run("set a sp 5")
  contains(s:fails("convert a 2 SKI/F b"), "names 1 stands")
end)

test("non-standard stands (2.2.4): the Wespe, a Dark Age unit, dismounting Dragoons", function()
  local s = game()
  -- Wespe: fires as 105 mm ART, moves as a medium-speed, protected as a light-armour TNK.
  s:run("add unit c1 wespe Wespe type=TNK armour=light speed=medium weapon=bl_80_130")
  s:run("sp wespe apply")
  eq(s:get("wespe", "sp"), 5)
  contains(s:run("pcp wespe"), "8 PCP")                -- 5 + (4 - 1)
  contains(s:run("move wespe plan"), "may move up to 10\"")
  -- A Dark Age unit: INF/A General, INF/U and WBD, all unlike.
  eq(sp_of(s, "hearth", "type=INF/A general=competent"), 5)
  eq(sp_of(s, "maid", "type=INF/U"), 3)
  eq(sp_of(s, "wbd", "type=WBD"), 3)
  -- Dragoons act as CAV/U or dismount as one SKI/F with the same SP.
  s:run("add unit c1 drag Dragoons type=CAV/U sp=6 sp_start=6")
  s:run("add unit c1 dragf Dragoons on foot type=SKI/F off_table=sabot")
  s:run("convert drag 1 SKI/F dragf")
  eq(s:get("dragf", "sp"), 6)
  eq(s:get("drag", "off_table"), "sabot")
end)

test("the tables of this part are listed for the shell", function()
  local s = game()
  local out = s:run("table list")
  for _, t in ipairs({ "stand_types", "base_sp", "quality", "moves", "terrain",
                       "command_distance", "pcp_weapon", "pcp_air" }) do
    contains(out, t)
  end
  contains(s:run("table show stand_types"), "war elephants count as PKE")
end)
