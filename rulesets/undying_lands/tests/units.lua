-- Vignettes and their IP (1-3), move (5), classes (2), stats (27, 28).
local h = require "_helpers"

test("the Romans build to 30 IP and the Galatians to 17, every step shown in order (3)", function()
  local s = h.game({ h.rom, h.gal })
  eq(s:get("rom_v1", "ip"), 30)
  eq(s:get("gal_v1", "ip"), 17)
  eq(s:get("gal", "ip"), 34)
  eq(s:get("gal", "ip_start"), 34)
  local out = s:run("muster rom")
  contains(out, "15  1. BIV, Close order Foot [PLACEHOLDER")
  contains(out, "+5  3. morale class IV (2.5)")
  contains(out, "+10  4. defence class C with large shields [PLACEHOLDER")
  contains(out, "=  30  30 IP for each vignette")
  local r = s:record("muster").rom
  eq(r.ip, 30)
  eq(r.factors[1].placeholder, true)
  eq(r.factors[3].placeholder, false)
end)

test("Foot with spear add 4 and with pike 8 to the BIV; animal armour +2 / +4 for Mounted (3, 2.7)", function()
  local s = h.game({ "rw sp Spears weapon=spear", h.pike, h.kn, "bw kn2 Kn2 type=mounted mount_armour=full" })
  eq(s:get("sp_v1", "ip"), 15 + 4)
  eq(s:get("pk_v1", "ip"), 15 + 8 + 2)
  eq(s:get("kn_v1", "ip"), 22 + 4 + 2)
  eq(s:get("kn2_v1", "ip"), 22 + 4)
end)

test("the minimum is 1 IP; morale classes V to I change IP by +10 to -10 (2.5, 3)", function()
  local s = h.game({ "rw lv Levy order=open morale_class=I physique=low size=small", "rw sp Sp morale_class=V",
    "rw m2 M2 morale_class=II", "rw m4 M4 morale_class=IV" })
  -- 7 - 10 - 10 + 0 = -13: raised to 1
  eq(s:get("lv_v1", "ip"), 1)
  contains(s:run("muster lv"), "6. the minimum is 1")
  eq(s:get("sp_v1", "ip"), 25)
  eq(s:get("m2_v1", "ip"), 10)
  eq(s:get("m4_v1", "ip"), 20)
end)

test("muster makes the vignettes, keeps listed ones, and reports class problems (2.1-2.7)", function()
  local s = h.game({})
  s:run("add unit rw pk Pikes weapon=pike vignettes=1")
  s:run("add unit rw beh Mumak type=behemoth")
  s:run("add unit rw lsh Bad order=open shield=lsh missile=srw")
  s:run("add unit rw war Warband discipline=irregular vignettes=1")
  local out = s:run("muster")
  contains(out, "a regular pike TU needs at least 2 (2.3)")
  contains(out, "a Behemoth is always Irregular")
  contains(out, "large shields are for Close or Loose order Foot")
  contains(out, "an irregular TU needs at least 2 (2.3)")
  eq(#s:run("show pk"):gsub("[^\n]", "") > 0, true)
  s:run("add element pk pk_x Extra")
  s:run("muster pk")
  eq(s:get("pk", "ip_start"), 2 * 23)
end)

test("stats: move, dice, size, base numbers (placeholder) and no points (5, 18, 19, 27, 28)", function()
  local s = h.game({ h.bow, "bw cav Cav type=mounted order=open fast=true" })
  local out = s:run("stats bow")
  contains(out, "Tactical Move 15 cm")
  contains(out, "LRW 40 cm: 1d8 vs Foot, 1d10 vs Le/Be/CO, 2d10 vs Mounted (18)")
  contains(out, "melee die 2d6 (19)")
  contains(out, "size average: up to 6 ft (28)")
  contains(out, "720 creatures base numbers [PLACEHOLDER")
  contains(out, "points: the rulebook gives none (27)")
  eq(s:record("stats").base_numbers_placeholder, true)
  contains(s:run("stats cav"), "Tactical Move 30 cm (20 +10 Fast")
end)

test("every surviving move rate (5)", function()
  local want = { close = { 10, 10, 10, 10 }, loose = { 15, 15, 15, 10 }, open = { 15, 20, 15, 10 } }
  local types = { "foot", "mounted", "leviathan", "behemoth" }
  local s = h.game({})
  for order, row in pairs(want) do
    for i, t in ipairs(types) do
      local id = order .. i
      s:run("add unit rw " .. id .. " X type=" .. t .. " order=" .. order .. " discipline=irregular")
      contains(s:run("moves " .. id), "Tactical Move " .. row[i] .. " cm")
    end
  end
end)
