-- Cases computed by hand from the rulebook while auditing the ruleset against it.
local h = require "_helpers"

test("the fanatic charge reaches 1.5 x the Tactical Move, unrounded: 15 cm -> 22.5 cm, 10 cm -> 15 cm (16)", function()
  -- Irregular Loose order Foot: Tactical Move 15 cm (5); 1.5 x 15 = 22.5 cm, no rounding in 16.
  local s = h.game({ h.rom, h.gal, "bw cl Clans discipline=irregular vignettes=2" })
  s:run("orders bw attack")
  contains(s:run("moves gal"), "fanatic charge 22.5 cm (16)")
  eq(s:record("moves").fanatic, 22.5)
  contains(s:run("moves cl"), "fanatic charge 15 cm (16)")   -- Close order: 10 cm -> 15 cm
  s:dice(1, 1)                                               -- both pass by five (17 - 1 = 16)
  local out = s:run("fanatic gal rom 22.5cm")
  contains(out, "gal contacts rom (22.5 cm of 22.5 cm reach")
  ok(s:has("gal", "charging"))
end)

test("a fanatic charge in which no vignette passes by five is a normal charge with the Tactical Move (16, 17)", function()
  -- Levy warband: BIV 11 (placeholder) + 0 - 10 (class I) + 0 = 1 IP: no d10 passes by five.
  local s = h.game({ h.rom, "bw lv Levy order=loose discipline=irregular morale_class=I vignettes=2" })
  eq(s:get("lv_v1", "ip"), 1)
  s:run("orders bw attack")
  s:dice(1, 1)
  local out = s:run("fanatic lv rom 20cm")
  contains(out, "0 of 2 vignettes fanatic")
  contains(out, "lv makes a normal charge (17): reach 15 cm")
  contains(out, "lv reaches 15 cm of the 20 cm needed: no contact")
end)

test("a charge that sets off several triggers is one integrity test with all its modifiers (23.1 c, h; 23.2)", function()
  -- Close order Mounted (22 IP, placeholder BIV) charge the flank of Irregular Loose order Foot
  -- (2 vignettes of 11). One test per vignette: d10 1, +3 (Loose Foot charged by Mounted),
  -- +5 (flank, the chargers 22 at least 25% of 22), and for war.1, in contact with kn.1,
  -- +2 (kn.1's 22 > 11): war.1 1+3+2+5 = 11, not over 11: passes; war.2 1+3+5 = 9: passes.
  local s = h.game({ "rw kn Kn type=mounted vignettes=1", "bw war War order=loose discipline=irregular" })
  s:run("orders rw attack")
  s:dice(1, 1)
  local out = s:run("charge kn war 8cm flank")
  contains(out, "war tests: Loose or Open order Foot charged by Mounted, Leviathan or Behemoth in the open; " ..
    "contacted in the rear or flank (23.1 c, h; one test for the charge)")
  eq(#h.lines(out, "Integrity test 23:"), 2)
  contains(out, "+3  Loose or Open Foot charged by Behemoth or Mounted (23.2)")
  contains(out, "+5  contacted in flank or rear by 25% of its IP or more")
  local rec = s:record("charge").test_c
  eq(rec[1].score, 11); eq(rec[1].outcome, "passed")
  eq(rec[2].score, 9); eq(rec[2].outcome, "passed")
end)

test("integrity: a modifier flag that cannot apply to the TU is refused with the reason (23.2)", function()
  local s = h.game({ h.rom, h.gal, "bw sk Sk order=open" })
  contains(s:fails("integrity rom f charged"), "`charged` (+3) is for Loose or Open order Foot")
  contains(s:fails("integrity gal h flank_close"), "`flank_close` (+10) is for a Close order TU")
  contains(s:fails("integrity sk h flank_other"), "`flank_other` (+5) is not for Open order TUs")
end)

test("base numbers: the printed changes on the (placeholder) table: +100% Pike, +50% Spear, -50% Mounted, /10 and /100 rounded up (28)", function()
  -- Table cells are placeholders (Close/Average 960, Loose/Small 1080, Loose/Large 540,
  -- Close/Huge 480); the changes are the rulebook's: 960 x 2 = 1920; 1080 x 1.5 = 1620;
  -- 960 / 2 = 480; 540 / 10 = 54; 480 / 100 = 4.8, rounded up 5.
  local s = h.game({ "rw pk Pikes weapon=pike", "rw sp Spears weapon=spear order=loose size=small",
    "bw kn Kn type=mounted vignettes=1", "bw tr Trolls type=leviathan order=loose size=large vignettes=1",
    "bw el Oliphant type=behemoth discipline=irregular size=huge" })
  contains(s:run("stats pk"), "+100% Pike = 1920")
  eq(s:record("stats").base_numbers, 1920)
  s:run("stats sp"); eq(s:record("stats").base_numbers, 1620)
  s:run("stats kn"); eq(s:record("stats").base_numbers, 480)
  s:run("stats tr"); eq(s:record("stats").base_numbers, 54)
  contains(s:run("stats el"), "/100 Behemoth, rounded up = 5")
  eq(s:record("stats").base_numbers, 5)
end)

test("large shields are barred with any missile class, a breath weapon too (2.7)", function()
  local s = h.game({ "rw dr Drakes shield=lsh sbw=true" })
  contains(s:run("stats dr"), "problem: large shields are for Close or Loose order Foot without Pike or any missile class")
end)

test("a sub-commander is Regular only when most of his TUs are: half and half makes him Irregular (6, 14)", function()
  -- 4 TUs, 2 regular and 2 irregular: not most regular, so Irregular; trying 3 reads the
  -- irregular row "3" of the command control table (placeholder values: rating 2 -> 5),
  -- not the regular row "1-3" (-> 4).
  local s = session { ruleset = "undying_lands" }
  s:run("add side r Red")
  s:run("add command r w W")
  s:run("add unit w r1 R1")
  s:run("add unit w r2 R2")
  s:run("add unit w i1 I1 discipline=irregular")
  s:run("add unit w i2 I2 discipline=irregular")
  s:run("muster")
  s:run("sc w 2")
  s:run("next"); s:run("next")
  s:dice(6, 6, 6)
  local out = s:run("activate w r1 r2 i1")
  contains(out, "irregular row 3")
  contains(out, "needs 5")
end)

test("the fanatic test and the target's test take +2 when unsupported (16, 23.2)", function()
  -- Galatians 17 IP: d10 9 + 2 unsupported = 11: 17 - 11 = 6, passes by five; without the +2
  -- it would be 8. A Behemoth's charge on Loose order Foot (2 vignettes of 11, each in contact
  -- with a Behemoth vignette of 22): d10 1 + 3 (charged by a Behemoth) + 2 (the opponent in
  -- contact has more IP, 22 > 11) + 2 (unsupported) = 8.
  local s = h.game({ h.rom, h.gal })
  s:run("orders bw attack")
  s:dice(9, 9)
  local out = s:run("fanatic gal rom 12cm unsupported")
  contains(out, "+2  unsupported (23.2)")
  eq(s:record("charge").test[1].score, 11)
  local s2 = h.game({ "rw war War order=loose discipline=irregular", "bw beh Mumak type=behemoth discipline=irregular" })
  s2:run("orders bw attack")
  s2:dice(1, 1)
  s2:run("charge beh war 8cm target_unsupported")
  eq(s2:record("charge").test_b[2].score, 8)
end)
