-- Shooting (18), melee (19), combat results (22), integrity tests (23), disorder and rally
-- (24), charges (16, 17), movement (20), interpenetration (25), winning and losing (26).
local h = require "_helpers"

test("every row of the shooting table: the die by weapon, proficiency and target column (18)", function()
  local s = h.game({ "bw foot FootT order=loose vignettes=1 morale_class=V physique=extreme size=huge", "bw heavy HeavyT vignettes=1 morale_class=V physique=extreme size=huge", "bw mtd MtdT type=mounted order=loose vignettes=1 morale_class=V physique=extreme size=huge" }, {})
  local want = {
    ssw = { foot = { "1d2", "1d4", "1d6" }, heavy = { "1d4", "1d6", "1d8" }, mtd = { "2d4", "2d6", "2d8" } },
    srw = { foot = { "1d4", "1d6", "1d8" }, heavy = { "1d6", "1d8", "1d10" }, mtd = { "2d6", "2d8", "2d10" } },
    lrw = { foot = { "1d6", "1d8", "1d10" }, heavy = { "1d8", "1d10", "1d12" }, mtd = { "2d8", "2d10", "2d12" } },
    sbw = { foot = { "1d4", "1d4", "1d6" }, heavy = { "1d6", "1d8", "1d10" }, mtd = { "1d6", "1d8", "1d10" } },
  }
  local profs = { "militia", "drilled", "skilled" }
  for w, cols in pairs(want) do
    for i, p in ipairs(profs) do
      local id = w .. i
      s:run("add unit rw " .. id .. " S missile=" .. (w == "sbw" and "none sbw=true" or w) .. " proficiency=" .. p)
      s:run("muster " .. id)
      for t, dice in pairs(cols) do
        s:dice(1, 1, 1)
        local out = s:run("shoot " .. id .. ".1 " .. (t == "foot" and "foot" or t == "heavy" and "heavy" or "mtd") .. ".1" .. (w == "sbw" and " sbw" or ""))
        contains(out, ": " .. dice[i] .. " [")
        if w == "sbw" then s:run("unmark " .. id .. " sbw_used") end
      end
    end
  end
end)

test("the shooting example: Drilled LRW at Close order pike roll a d10 (the text prints d12) and add +2 the example leaves out (18)", function()
  local s = h.game({ h.bow, "bw ph Phalanx weapon=pike vignettes=2" })
  s:dice(5)
  local out = s:run("shoot bow.1 ph.1")
  contains(out, "LRW, drilled, target Leviathan, Behemoth or Close order: 1d10 [5] (18)")
  contains(out, "+2  1. target is Close order (18)")
  -- a Close order longbow: no -25%; the example's 5 becomes 7 with the +2
  local s2 = h.game({ "rw cbow CBows missile=lrw vignettes=2", "bw ph Phalanx weapon=pike vignettes=2" })
  s2:dice(5)
  s2:run("shoot cbow.1 ph.1")
  eq(s2:record("shooting").shot.loss, 7)
  eq(s2:get("ph_v1", "ip"), 23 - 7)
end)

test("shooting modifiers in order: additive first, then -25% (Loose) or -half (Open), never below 0 (18)", function()
  local s = h.game({ h.bow, "rw sk Skirm order=open missile=srw", "bw t Target order=loose", "bw c Close" })
  s:dice(8)
  local out = s:run("shoot bow.1 c.1 30cm")   -- 8 +2 close -3 long = 7; -25% -> 5
  contains(out, "-3  6. long range: 30 cm of 40")
  contains(out, "-2  7. shooter is Loose order: -25%, round down")
  eq(s:record("shooting").shot.loss, 5)
  s:dice(5)
  s:run("shoot sk.1 c.1")                    -- 5 +2 = 7; -half -> 3
  eq(s:record("shooting").shot.loss, 3)
  s:dice(1)
  out = s:run("shoot bow.1 t.1 30cm cover")  -- 1 -2 -3 = -4 -> 0
  contains(out, "never below 0")
  eq(s:record("shooting").shot.loss, 0)
  contains(s:fails("shoot bow.1 t.1 41cm"), "beyond LRW's 40 cm")
  contains(s:fails("shoot bow.1 t.1 16\""), "beyond LRW's 40 cm")
end)

test("a shooter that lost half its IP takes -1, all of it -2 (18; UL-D03)", function()
  local s = h.game({ "rw cb CBows missile=lrw", "bw c Close" })
  s:run("set cb_v1 ip 7")   -- 15 -> 7: lost 8 of 15
  s:dice(6)
  contains(s:run("shoot cb.1 c.1"), "-1  4. shooter has lost 50% of its IP")
  s:run("set cb_v1 ip 0")
  s:dice(6)
  local out = s:run("shoot cb.1 c.1")
  contains(out, "-2  5. shooter has lost 100% of its IP")
  eq(#h.lines(out, "4. shooter"), 0)
end)

test("the Galatian example: 14 and 11 as printed only without the -1 for the Romans' IP; the rules give 13 (19; UL-D08)", function()
  local s = h.game({ h.rom, h.gal })
  s:run("orders bw attack")
  s:dice(1, 1)                                  -- both Galatian vignettes pass by five
  local out = s:run("fanatic gal rom 12cm")
  contains(out, "passes by five")
  s:dice(6, 3, 4, 5)                             -- 1d12 = 6; 2d6 = 7; recoil 1d10
  out = s:run("melee gal rom pairs 1-1")
  contains(out, "6  irregular drilled: 1d12 [6] (19)")
  contains(out, "+1  SA at first contact (value from the Galatian example (19))")
  contains(out, "-1  4. opponent has more IP (30 > 17) (19; UL-D08)")
  contains(out, "+4  12. fanatic charging")
  contains(out, "+2  9. Irregular Loose order Foot charging")
  contains(out, "=  13  rom_v1 loses 13 IP")
  contains(out, "+3  HFS at first contact (value from the Roman example (19))")
  contains(out, "=  11  gal_v1 loses 11 IP")
  eq(s:get("rom_v1", "ip"), 17)
  eq(s:get("gal_v1", "ip"), 6)
  -- the consequences the example leaves out: the Romans lost more and recoil; the Galatians
  -- lost 11 of 17 in one phase and are disordered (22, 24)
  contains(out, "rom recoils 5 cm")
  ok(s:has("gal", "disordered"))
  -- as printed: without factor 4
  local p = h.game({ h.rom, h.gal }, { options = { "more_ip_factor omit" } })
  p:run("orders bw attack")
  p:dice(1, 1)
  p:run("fanatic gal rom 12cm")
  p:dice(6, 3, 4, 5)
  p:run("melee gal rom pairs 1-1")
  eq(p:get("rom_v1", "ip"), 16)
  eq(p:get("gal_v1", "ip"), 6)
end)

test("the pike example: 2d6 7 +1 first contact +1 counter-charging +6 vs Other = 15 (19)", function()
  local s = h.game({ h.pike, "bw kn Knights type=mounted weapon=lance defence=A vignettes=1" })
  s:dice(3, 3, 3, 4, 10)
  local out = s:run("melee kn pk first a_charged b_charged pairs 1-1")
  contains(out, "+1  PIKE at first contact (value from the pike example (19))")
  contains(out, "+6  PIKE vs Other (value from the pike example (19))")
  contains(out, "+1  8. counter-charging")
  contains(out, "=  15  kn_v1 loses 15 IP")
  eq(s:get("kn_v1", "ip"), 22 - 15)
  -- the lance: +2 at first contact (placeholder), then SA (UL-D09)
  contains(out, "+2  LANCE at first contact [PLACEHOLDER")
  s:dice(3, 3, 3, 4, 10)
  out = s:run("melee kn pk pairs 1-1")
  contains(out, "Lance after first contact: fights with SA (UL-D09)")
  eq(#h.lines(out, "first contact ["), 0)
end)

test("melee dice by army class and proficiency (19)", function()
  local want = { regular = { "2d4", "2d6", "3d6" }, irregular = { "1d8", "1d12", "1d20" } }
  for disc, dice in pairs(want) do
    for i, p in ipairs({ "militia", "drilled", "skilled" }) do
      local s = h.game({ "rw a A discipline=" .. disc .. " proficiency=" .. p, "bw z Z" })
      contains(s:run("melee a z"), disc .. " " .. p .. ": " .. dice[i] .. " [")
    end
  end
end)

test("melee factors: disordered Close order -4 and -2, Mounted +2 against Loose Foot, flank +3, Open order -half (19)", function()
  local s = h.game({ "rw a A", "bw z Z order=loose", "bw m M type=mounted order=loose", "rw o O order=open" })
  s:run("mark a disordered")
  s:dice(4, 4, 6)
  local out = s:run("melee a z")
  contains(out, "-4  1. disordered Close order")
  contains(out, "-2  3. disordered Close order or Mounted")
  s:dice(4, 4, 5, 6)
  out = s:run("melee m o")
  contains(out, "+2  10. Mounted fighting Loose or Open order Foot")
  contains(out, "13. Open order: -half, round down")
  s:dice(4, 4, 6)
  contains(s:run("melee z a b_flank"), "+3  11. opponent is Close order, contacted in flank or rear")
end)

test("integrity tests: pass, repulse (back, disordered, +5 later) and rout (23)", function()
  local s = h.game({ h.rom, h.gal })
  s:dice(5, 5)
  local out = s:run("integrity gal f")
  contains(out, "passes: 5 is not over IP 17")
  s:run("set gal_v1 ip 4")
  s:dice(6, 3, 1)                               -- 6 > 4: repulsed, back 15 + 3; gal_v2 passes
  out = s:run("integrity gal f")
  contains(out, "repulsed: 6 over IP 4")
  contains(out, "=  18  18 cm to the rear")
  ok(s:has("gal", "disordered"))
  ok(s:has("gal_v1", "repulsed"))
  s:dice(9, 1)                                   -- 9 + 5 = 14: 10 over 4: routs
  out = s:run("integrity gal f")
  contains(out, "+5  previously repulsed")
  contains(out, "breaks and routs: 14 is 10 or more over IP 4")
  eq(#s:run("show gal"):gsub("gal_v1", ""), #s:run("show gal"))
  eq(s:get("gal", "ip"), 17)
  contains(s:fails("integrity gal h flank_close flank_other"), "exclude each other")
end)

test("integrity: +2 when the enemy vignettes in contact have more IP, +3 charged, +2 unsupported (23.2; UL-D31)", function()
  local s = h.game({ h.rom, h.gal })
  s:run("orders bw attack")
  s:dice(9, 9)                                  -- neither passes by five: normal charge
  s:run("fanatic gal rom 12cm")
  s:dice(1, 1)
  local out = s:run("integrity gal f unsupported charged")
  contains(out, "+2  melee opponents have more IP (30 > 17, the enemy vignettes in contact (UL-D31))")
  contains(out, "+2  unsupported")
  contains(out, "+3  Loose or Open Foot charged by Behemoth or Mounted")
end)

test("disorder on losing half in one phase, and rally: 1d4-2 phases (at least 1), then 1d8 IP each, capped (24)", function()
  local s = h.game({ h.rom, "bw c Cross missile=lrw vignettes=1" })
  for _ = 1, 3 do s:run("next") end -- phase 1
  s:dice(10)
  s:run("shoot c.1 rom.1")          -- 12 lost of 30: not half
  ok(not s:has("rom", "disordered"))
  s:dice(10)
  local out = s:run("shoot c.1 rom.1")   -- 24 of 30 in one phase
  contains(out, "rom is disordered")
  ok(s:has("rom", "disordered"))
  contains(s:fails("rally rom 20cm"), "no enemy within 30 cm")
  s:dice(2)
  out = s:run("rally rom 45cm")
  contains(out, "1  at least 1 phase")
  eq(s:get("rom", "rally_left"), 1)
  contains(s:fails("rally rom"), "still needs 1 phase")
  s:run("next")
  s:dice(8)
  out = s:run("rally rom")
  contains(out, "8  IP recovered: 1d8 [8] (24)")
  eq(s:get("rom_v1", "ip"), 14)
  ok(not s:has("rom", "disordered"))
end)

test("charges: orders, who may charge whom, the reactions allowed, evades and reach (16, 17)", function()
  local s = h.game({ "rw kn Kn type=mounted", "bw war War order=loose discipline=irregular", "bw pk Pk weapon=pike",
    "rw ft Ft vignettes=2", "bw bow Bows order=loose missile=lrw" })
  contains(s:fails("charge kn war"), "no orders yet")
  s:run("orders rw hold")
  contains(s:fails("charge kn war"), "which do not allow TA2 charge")
  s:run("orders rw attack")
  contains(s:fails("charge kn war counter"), "may not counter")
  s:dice(4)
  local out = s:run("charge kn war 12cm evade")
  contains(out, "war evades 19 cm")
  out = s:run("charge kn pk 12cm")
  contains(out, "kn reaches 10 cm of the 12 cm needed: no contact")
  s:run("orders bw attack")
  contains(s:fails("charge war kn"), "may not charge Mounted")
  contains(s:fails("charge bow war"), "a friend")
  s:dice(1)
  out = s:run("charge war ft 8cm")
  contains(out, "ft stands")
  ok(s:has("war", "charging"))
  ok(s:has("ft", "first_contact"))
end)

test("fanatic charge reactions by the table of 16, with the specific rows first (UL-D32)", function()
  local s = h.game({ "rw pk Pk weapon=pike", "rw iw IW discipline=irregular order=loose", "bw war War order=loose discipline=irregular" })
  s:run("orders bw attack")
  s:dice(1, 1)
  contains(s:run("fanatic war pk"), "Regular Close order Foot only stand")
  s:dice(1, 1)
  contains(s:run("fanatic war iw"), "must counter-charge")
  ok(s:has("iw", "charging"))
  s:run("orders rw attack")
  contains(s:fails("fanatic pk war"), "only irregular")
end)

test("own initiative: no charge on an enemy TU with more than half its IP; it retreats two moves (21; UL-D24)", function()
  local s = h.game({ "rw kn Kn type=mounted", "bw big Big vignettes=4" })
  s:run("mark kn own_initiative")
  contains(s:run("charge kn big"), "retreats two full moves (20 cm with the defence Move column [PLACEHOLDER")
end)

test("break off and pursuit; march column; interpenetration (20, 25)", function()
  local s = h.game({ "rw war War order=loose discipline=irregular", "bw kn Kn type=mounted discipline=irregular vignettes=2",
    "rw sk Sk order=open", "rw pk Pk weapon=pike", "rw cl Cl discipline=irregular" })
  s:dice(4, 5)
  local out = s:run("breakoff war from kn")
  contains(out, "war moves 19 cm to the rear")
  contains(out, "kn must pursue 15 cm")
  contains(s:run("interpenetrate sk pk"), "may pass through")
  contains(s:fails("interpenetrate cl pk"), "only Open order Foot")
  contains(s:run("interpenetrate war pk evading"), "may pass")
  contains(s:run("march pk"), "20 cm a move")
  contains(s:fails("melee pk kn"), "march formation")
  contains(s:fails("breakoff cl"), "may not break off")
end)

test("winning: a wing with half its TUs at half IP is demoralised and retreats; half the wings lost loses (26)", function()
  local s = h.game({ h.rom, "bw c Cross missile=lrw vignettes=1" })
  s:run("orders rw hold")
  s:dice(10)
  s:run("shoot c.1 rom.1 10cm")
  s:dice(10)
  s:run("shoot c.1 rom.1 10cm")
  eq(s:get("rw", "demoralised"), true)
  eq(s:get("rw", "orders"), "retreat")
  local out = s:run("victory")
  contains(out, "r: 1 of 1 Major Tactical Units demoralised — has LOST the battle")
end)
