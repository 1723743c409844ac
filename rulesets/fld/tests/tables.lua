-- Every row of every table of the units-and-fighting half, read through the commands.
local h = require "_helpers"

local GRID = { { 4, 5, 5, 6, 6, 6 }, { 4, 4, 5, 5, 6, 6 }, { 3, 4, 4, 5, 5, 6 },
               { 3, 3, 4, 4, 5, 5 }, { 2, 3, 3, 4, 4, 5 }, { 2, 3, 3, 3, 4, 4 } }

test("the Combat Table, all 36 cells: row = own, column = opponent (27; FLD-D01)", function()
  local s = h.game({})
  for own = 1, 6 do
    for opp = 1, 6 do
      contains(s:run("combat " .. own .. " " .. opp), own .. " v " .. opp .. " needs " .. GRID[own][opp] .. "+")
    end
  end
  contains(s:run("combat 4 3"), "needs 4+")   -- melee 4 v 3
  contains(s:run("combat 6 1"), "needs 2+")   -- strength 6 v armour 1
  contains(s:run("combat 9 1"), "9 v 1 needs 2+")  -- strength 9 read as 6 (FLD-D04)
  contains(s:run("combat 9 1"), "strength 9 read as 6")
  contains(s:run("combat 4 0"), "armour 0: nothing to penetrate")   -- no roll (FLD-D05)
  contains(s:fails("combat 0 3"), "a melee level or strength is 1 or more")
  contains(s:fails("combat 3 7"), "a melee level or armour class runs 1-6")
end)

test("option combat_table literal: row = opponent, column = own; all 36 cells (27; FLD-D01)", function()
  local s = h.game({})
  s:run("option set combat_table literal")
  for own = 1, 6 do
    for opp = 1, 6 do
      contains(s:run("combat " .. own .. " " .. opp), "needs " .. GRID[opp][own] .. "+")
    end
  end
  contains(s:run("combat 6 1"), "needs 6+")
end)

test("option combat_table reverse_both differs only at (5,1) and (6,2) (27; FLD-D01)", function()
  local s = h.game({})
  s:run("option set combat_table reverse_both")
  for own = 1, 6 do
    for opp = 1, 6 do
      local want = GRID[7 - opp][7 - own]
      contains(s:run("combat " .. own .. " " .. opp), "needs " .. want .. "+")
    end
  end
  contains(s:run("combat 5 1"), "needs 3+")
  contains(s:run("combat 6 2"), "needs 2+")
end)

test("Mass from height, every column (8.1)", function()
  local rows = { { 4, 1 }, { 4.5, 2 }, { 5, 2 }, { 6, 3 }, { 9, 4 }, { 12, 5 }, { 12.5, 6 } }
  local s = h.game({})
  for i, r in ipairs(rows) do
    s:run("add unit l1 u" .. i .. " U figures=8 files=4 height=" .. r[1])
    contains(s:run("stats u" .. i), ": Mass " .. r[2] .. " (8.1)")
  end
  s:run("add unit l1 byhand Giant figures=8 files=4 height=30 mass=3")
  contains(s:run("stats byhand"), "Mass 3 typed (8.1)")
end)

test("the Base Unit Integrity Value, every cell: integrity = BUIV x 8 figures (8.2)", function()
  local buiv = { close = { 0.5, 0.75, 1, 2, 3, 4 }, loose = { 0.25, 0.5, 0.75, 1.5, 2, 3 },
                 open = { 0.25, 0.25, 0.5, 0.75, 1.5, 2 } }
  local s = h.game({})
  for order, row in pairs(buiv) do
    for m = 1, 6 do
      local id = order .. m
      s:run("add unit l1 " .. id .. " U figures=8 files=4 order=" .. order .. " mass=" .. m)
      s:run("muster " .. id)
      eq(s:get(id, "integrity_start"), row[m] * 8)
    end
  end
end)

test("additive armour, every row in both columns, with animal armour, the cap and disorder (10)", function()
  local rows = { none = { 0, 0 }, sh = { 2, 3 }, lsh = { 3, 4 }, partial = { 1, 1 }, partial_sh = { 2, 3 },
    partial_lsh = { 4, 5 }, plate = { 2, 3 }, plate_sh = { 3, 4 }, plate_lsh = { 5, 5 } }
  local s = h.game({})
  for k, v in pairs(rows) do
    s:run("add unit l1 a_" .. k .. " U figures=8 files=4 natural=1 armour=" .. k)
    contains(s:run("stats a_" .. k), string.format("1/%d in melee", v[1]))
    contains(s:run("stats a_" .. k), string.format("1/%d against shooting", v[2]))
  end
  s:run("add unit l1 kp K type=mounted legs=quadruped figures=8 files=8 order=close armour=plate_lsh barding=partial")
  contains(s:run("stats kp"), "0/5 in melee"); contains(s:run("stats kp"), "0/6 against shooting")
  s:run("add unit l1 kf K type=mounted legs=quadruped figures=8 files=8 order=close armour=plate_lsh barding=full")
  local out = s:run("stats kf")
  contains(out, "0/6 in melee"); contains(out, "capped at 6 (10)")
  s:run("mark kf disordered")
  contains(s:run("stats kf"), "0/4 in melee")                -- Close order: -2
  s:run("add unit l1 lo L figures=8 files=4 order=loose armour=sh")
  s:run("mark lo disordered")
  contains(s:run("stats lo"), "0/1 in melee")                -- Loose: -1
  s:run("add unit l1 th T figures=8 files=4 weapon=2hw strength=3 armour=partial_sh")
  out = s:run("stats th")
  contains(out, "0/1 in melee"); contains(out, "0/3 against shooting")   -- 2HW: no shield in melee
  s:run("add unit l1 mt M figures=8 files=4 weapon=m2hw strength=5 armour=partial_sh")
  contains(s:run("stats mt"), "0/1 against shooting")        -- M2HW: no shield at all (FLD-D36)
  s:run("option set m2hw_shield shooting")
  contains(s:run("stats mt"), "0/3 against shooting")
end)

test("the morale table: every level's pass, fragment and break bands (11)", function()
  for L = 1, 6 do
    local s = h.game({ "l1 m M figures=8 files=4 morale=" .. L })
    if 7 - L <= 6 then s:dice(7 - L); contains(s:run("morale m"), ": pass") end
    if 6 - L >= 1 then
      s:dice(6 - L); contains(s:run("morale m"), ": fragment")
      s:run("unmark m fragmented")
      s:run("set l1 demoralised false")   -- the one-unit command was demoralised by it (34)
    end
    -- -7: over 100% lost (-4), disordered (-1), the C-in-C with the unit (-2)
    s:run("set m integrity -1"); s:run("mark m disordered"); s:run("set m commander cinc")
    local brk = math.min(6, 8 - L)
    s:dice(brk)
    local out = s:run("morale m")
    contains(out, "= " .. string.format("%3d", brk - 7))
    contains(out, ": break")
    if 9 - L <= 6 then
      local s2 = h.game({ "l1 m M figures=8 files=4 morale=" .. L })
      s2:run("set m integrity -1"); s2:run("mark m disordered"); s2:run("set m commander cinc")
      s2:dice(9 - L); contains(s2:run("morale m"), ": fragment")
    end
  end
end)

test("score to hit by shooting factor, every level (25.3)", function()
  for f = 1, 6 do
    local s = h.game({ "l1 x X figures=8 files=8 order=loose shooting=" .. f .. " missile=xb", h.war })
    s:dice(table.unpack(h.rep(1, 8)))
    contains(s:run("shoot x war 10\""), "needs " .. (7 - f) .. "+")
  end
end)

test("the shooting weapons, every row: strength, 'To Hit' and range (25.6)", function()
  local W = { sb = { 2, 1, 12 }, lb = { 4, 0, 18 }, xb = { 3, 0, 24 }, d = { 2, 0, 8 }, s = { 3, 0, 8 },
    ss = { 4, 0, 12 }, j = { 3, 0, 6 }, hg = { 4, -1, 8 }, a = { 5, -1, 12 }, mk = { 6, 0, 24 } }
  -- strength v the target's additive armour 1 (partial armour): the penetration score shows it
  local pen = { [2] = 4, [3] = 3, [4] = 3, [5] = 2, [6] = 2 }
  for k, w in pairs(W) do
    local s = h.game({ "l1 x X figures=4 files=4 order=loose shooting=3 missile=" .. k,
      "d1 t T figures=16 files=8 armour=partial discipline=irregular" })
    s:dice(6, 6, 6, 6, 1, 1)
    local out = s:run("shoot x t " .. w[3] .. "\"")
    contains(out, "needs " .. (4 - w[2]) .. "+")
    contains(out, "strength " .. w[1] .. " v armour 1 on the Combat Table: " .. pen[w[1]] .. "+")
    contains(s:fails("shoot x t " .. (w[3] + 1) .. "\""), "range of " .. w[3] .. "\"")
  end
end)

test("later small arms: rifle 12\"/5 and 24\"/4, musket 6\"/5 and 12\"/4 (35)", function()
  for _, c in ipairs({ { "rifle", 12, 5 }, { "rifle", 24, 4 }, { "late_musket", 6, 5 }, { "late_musket", 12, 4 } }) do
    local s = h.game({ "l1 x X figures=1 files=1 order=loose shooting=6 missile=" .. c[1],
      "d1 t T figures=16 files=8 armour=partial discipline=irregular" })
    s:dice(6, 1)
    contains(s:run("shoot x t " .. c[2] .. "\""), "strength " .. c[3] .. " v armour 1")
  end
end)

test("gunnes: every period, weight and band, and out of range (35)", function()
  local G = {
    ancient = { { 2, 4, 6 }, { 4, 8, 16 }, { 6, 12, 24 }, { 8, 16, 32 }, { 2, 3, 4 } },
    medieval = { { 4, 8, 16 }, { 6, 12, 24 }, { 8, 16, 32 }, { 10, 20, 30 }, { 3, 4, 5 } },
    renaissance = { { 6, 12, 24 }, { 8, 16, 32 }, { 10, 20, 30 }, { 12, 24, 36 }, { 4, 5, 6 } },
    malburian = { { 8, 16, 24 }, { 10, 20, 30 }, { 12, 24, 36 }, { 14, 28, 42 }, { 5, 6, 6 } },
    napoleonic = { { 10, 20, 30 }, { 12, 24, 36 }, { 14, 28, 42 }, { 16, 32, 48 }, { 6, 6, 6 } },
  }
  local weights = { "light", "medium", "heavy", "siege" }
  local s = h.game({ "d1 t T figures=16 files=8 discipline=irregular height=6" })
  for p, rows in pairs(G) do
    for i, wt in ipairs(weights) do
      local id = p:sub(1, 3) .. wt
      s:run("add unit l1 " .. id .. " G type=artillery figures=1 files=1 gun=" .. wt .. " period=" .. p)
      for b = 1, 3 do
        s:dice(1)
        local out = s:run("cannon " .. id .. " t " .. rows[i][b] .. "\" 1")
        contains(out, rows[5][b] .. "  " .. ({ "short", "medium", "long" })[b] .. " range (up to " .. rows[i][b] .. "\"): strength")
      end
      contains(s:fails("cannon " .. id .. " t " .. (rows[i][3] + 1) .. "\" 1"), "long range " .. rows[i][3] .. "\"")
    end
  end
end)

test("points per level of a characteristic, every level (36)", function()
  local P = { 10, 20, 30, 50, 100, 150 }
  for lvl = 1, 6 do
    local s = h.game({ "l1 u U figures=8 files=4 melee=" .. lvl })
    contains(s:run("points u"), string.format("%d  melee factor %d (36)", P[lvl], lvl))
  end
  local s = h.game({ "l1 gen General type=commander rating=4 figures=1 files=1" })
  contains(s:run("points gen"), "400  Commander Rating 4 x 100 (36)")
end)

test("the irregular response to a charge, every row (24.5; FLD-D15)", function()
  -- morale 1: d6 + 0 = the die
  for _, c in ipairs({ { 1, "counter-charges" }, { 2, "counter-charges" }, { 3, "evades" }, { 4, "evades" },
      { 5, "breaks" }, { 6, "breaks" } }) do
    local s = h.game({ "l1 kn Knights type=mounted legs=quadruped figures=8 files=8 morale=4 base_move=8",
      "d1 sk Skirmishers figures=16 files=8 order=loose discipline=irregular morale=1" })
    s:dice(c[1], 3, 3)
    contains(s:run("charge kn sk 4\""), c[2])
  end
  -- Close order irregulars cannot evade: 3-4 break
  local s = h.game({ "l1 kn Knights type=mounted legs=quadruped figures=8 files=8 morale=4 base_move=8", h.war })
  s:dice(1, 3)    -- 1 + (3 - 1) = 3
  contains(s:run("charge kn war 4\""), "breaks")
  ok(s:has("war", "broken"))
end)

test("melee dice by weapon, every row (26.2)", function()
  local s = h.game({ h.war })
  local cases = {
    { "p", "figures=32 files=8", "foot", "pike v Foot: 8 x 1 + half of (8 + 8) x 1 = 8 + 8", 16 },
    { "s", "figures=16 files=8", "foot", "spear: (8 + 8) x 1", 16 },
    { "htw", "figures=16 files=8", "foot", "HTW at first contact: 2 x (8 + 8) x 1", 32 },
    { "2hw", "figures=16 files=8 strength=3", "foot", "Two-Handed Weapons: front rank 8 x 1", 8 },
    { "m2hw", "figures=16 files=8 strength=5", "foot", "Massive Two-Handed Weapons: front rank 8 x 1", 8 },
    { "nw", "figures=16 files=8", "foot", "Natural Weapons: front rank 8 x 1", 8 },
    { "1hw", "figures=16 files=8", "foot", "One-Handed Weapons: front rank 8 x 1", 8 },
  }
  for i, c in ipairs(cases) do
    local id = "w" .. i
    s:run("add unit l1 " .. id .. " U weapon=" .. c[1] .. " " .. c[2])
    s:run("muster " .. id)
    s:dice(table.unpack(h.rep(1, c[5] + 12)))
    contains(s:run("melee " .. id .. " war contact"), c[4])
    s:run("set war integrity 24")
  end
  s:run("add unit l1 lc Lancers type=mounted legs=quadruped weapon=l figures=8 files=8")
  s:run("muster lc")
  s:dice(table.unpack(h.rep(1, 16 + 12)))
  contains(s:run("melee lc war contact"), "lance at first contact: 2 x 8 x 1")
  s:dice(table.unpack(h.rep(1, 8 + 12)))
  contains(s:run("melee lc war later"), "lance: 8 x 1")
  s:run("add unit l1 hl H weapon=htw figures=16 files=8")
  s:run("muster hl")
  s:dice(table.unpack(h.rep(1, 12 + 12)))
  contains(s:run("melee hl war later"), "HTW after first contact: 8 x 1 + half of 8 x 1")
end)

test("the pike against anything but Foot: all four ranks; the spear bonus against Mounted (26.2)", function()
  local s = h.game({ h.pk, "d1 kn Knights type=mounted legs=quadruped figures=8 files=8",
    "l1 sp Spears figures=16 files=8 weapon=s" })
  s:dice(table.unpack(h.rep(1, 32 + 8)))
  contains(s:run("melee pk kn"), "pike: (8 + 8 + 8 + 8) x 1")
  s:dice(table.unpack(h.rep(1, 24 + 8)))
  contains(s:run("melee sp kn"), "spear: (8 + 8) x 1 = 16, + 8 v Mounted")
end)

test("basing by order and type, and the wider frontage for Mass 4+ (3)", function()
  local B = { close = { foot = "15/20", mounted = "15/40", chariot = "40/80", leviathan = "30/30", behemoth = "40/100" },
    loose = { foot = "20/20", mounted = "20/40", chariot = "60/80", leviathan = "40/40", behemoth = "60/100" },
    open = { foot = "30/30", mounted = "30/40", chariot = "80/80", leviathan = "60/40", behemoth = "80/100" } }
  local s = h.game({})
  for order, row in pairs(B) do
    for ty, b in pairs(row) do
      local id = order .. "_" .. ty
      s:run("add unit l1 " .. id .. " U figures=8 files=4 height=6 order=" .. order .. " type=" .. ty)
      contains(s:run("stats " .. id), "basing " .. b .. " mm")
    end
  end
  local W = { close = "20/20", loose = "25/20", open = "40/30" }
  for order, b in pairs(W) do
    s:run("add unit l1 big_" .. order .. " U figures=8 files=4 height=8 order=" .. order)
    contains(s:run("stats big_" .. order), "basing " .. b .. " (wider: Mass 4+)")
  end
end)

test("Mounted and chariots move and pay as quadrupeds even with legs left at biped (2.3, 6, 36)", function()
  -- Light horse, Loose order, base move 8": 8 + 4 (quadruped Loose bonus) = 12". Points a figure:
  -- move 8 x 10 = 80, melee 3 = 30, Mass 3 (6') = 30, strength 3 = 30, morale 3 = 30: 200; x 4 = 800.
  local s = h.game({ "l1 lh Light_horse type=mounted order=loose figures=4 files=4 base_move=8",
    "l1 ch Chariots type=chariot order=loose animals=2 figures=4 files=4 base_move=8" })
  for _, id in ipairs({ "lh", "ch" }) do
    local out = s:run("stats " .. id)
    contains(out, "8  base move (quadruped, as Mounted: 2.3, Close order) (6)")
    contains(out, "+4  loose order bonus (6)")
    contains(out, "12\"; march 24\"")
    contains(s:run("points " .. id), "200 pts a figure x 4 = 800 pts")
  end
  -- a Behemoth keeps its own legs (2.3: biped or quadruped)
  s:run("add unit l1 wy Wyvern type=behemoth figures=3 files=3 base_move=6 order=loose")
  contains(s:run("stats wy"), "8\"; march 16\"")    -- 6 + 2 (biped Loose bonus)
end)

test("move by legs and order (6)", function()
  local s = h.game({})
  for _, c in ipairs({ { "biped", "close", 4, "4\"" }, { "biped", "loose", 4, "6\"" }, { "biped", "open", 4, "7\"" },
      { "quadruped", "close", 8, "8\"" }, { "quadruped", "loose", 8, "12\"" }, { "quadruped", "open", 8, "14\"" } }) do
    local id = c[1] .. c[2]
    s:run("add unit l1 " .. id .. " U figures=8 files=4 legs=" .. c[1] .. " order=" .. c[2] .. " base_move=" .. c[3])
    contains(s:run("stats " .. id), "= " .. string.format("%3d", tonumber(c[4]:match("%d+"))) .. "  " .. c[4])
  end
end)
