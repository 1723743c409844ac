-- FLD's tables as plain Lua data, read by the rules (tables.lua also shows them in the shell).
-- Every number is the rulebook's; its section (umpire's numbering, README.md) is beside each.
local D = {}

-- §27 the Combat Table, as printed: GRID[printed row][printed column].
D.grid = {
  { 4, 5, 5, 6, 6, 6 },
  { 4, 4, 5, 5, 6, 6 },
  { 3, 4, 4, 5, 5, 6 },
  { 3, 3, 4, 4, 5, 5 },
  { 2, 3, 3, 4, 4, 5 },
  { 2, 3, 3, 3, 4, 4 },
}

-- §8.1 Mass from height: the largest height (feet) for each Mass; Mass 6 is anything taller.
D.mass_limits = { 4, 5, 6, 9, 12 }

-- §8.2 Base Unit Integrity Value by order and Mass.
D.buiv = {
  close = { 0.5, 0.75, 1, 2, 3, 4 },
  loose = { 0.25, 0.5, 0.75, 1.5, 2, 3 },
  open = { 0.25, 0.25, 0.5, 0.75, 1.5, 2 },
}
D.buiv_text = {
  close = { "1/2", "3/4", "1", "2", "3", "4" },
  loose = { "1/4", "1/2", "3/4", "1.5", "2", "3" },
  open = { "1/4", "1/4", "1/2", "3/4", "1.5", "2" },
}

-- §10 additive armour: { melee, shooting, name, has a shield, the row without its shield }.
D.armour = {
  none = { 0, 0, "no armour", false, "none" },
  sh = { 2, 3, "shield", true, "none" },
  lsh = { 3, 4, "large shield", true, "none" },
  partial = { 1, 1, "partial armour", false, "partial" },
  partial_sh = { 2, 3, "partial armour + shield", true, "partial" },
  partial_lsh = { 4, 5, "partial armour + large shield", true, "partial" },
  plate = { 2, 3, "3/4 or full plate", false, "plate" },
  plate_sh = { 3, 4, "3/4 or full plate + shield", true, "plate" },
  plate_lsh = { 5, 5, "3/4 or full plate + large shield", true, "plate" },
}
D.armour_order = { "none", "sh", "lsh", "partial", "partial_sh", "partial_lsh", "plate", "plate_sh", "plate_lsh" }
D.barding = { none = { 0, 0 }, partial = { 0, 1 }, full = { 1, 2 } }

-- §3 basing, frontage/depth in mm, by order and troop type.
D.basing = {
  close = { foot = "15/20", mounted = "15/40", chariot = "40/80", leviathan = "30/30", behemoth = "40/100" },
  loose = { foot = "20/20", mounted = "20/40", chariot = "60/80", leviathan = "40/40", behemoth = "60/100" },
  open = { foot = "30/30", mounted = "30/40", chariot = "80/80", leviathan = "60/40", behemoth = "80/100" },
}
D.wide_frontage = { close = 20, loose = 25, open = 40 }   -- Foot or Mounted of Mass 4+

-- §6 move: the base (Close order) range and the Loose and Open bonus, by legs.
D.move = {
  biped = { min = 3, max = 6, loose = 2, open = 3, points = 5 },
  quadruped = { min = 4, max = 10, loose = 4, open = 6, points = 10 },
}

-- §11 morale: pass on 7 - L or more, break below 2 - L, fragment between.
function D.morale_band(level, score)
  if score >= 7 - level then return "pass" end
  if score < 2 - level then return "break" end
  return "fragment"
end

-- §25.6 shooting weapons: strength, 'to hit' column, range in inches.
D.missiles = {
  sb = { 2, 1, 12, "Short Bow" }, lb = { 4, 0, 18, "Long Bow" }, xb = { 3, 0, 24, "Cross Bow" },
  d = { 2, 0, 8, "Dart" }, s = { 3, 0, 8, "Sling" }, ss = { 4, 0, 12, "Staff Sling" },
  j = { 3, 0, 6, "Javelin" }, hg = { 4, -1, 8, "Handgun" }, a = { 5, -1, 12, "Arquebus" },
  mk = { 6, 0, 24, "Musket" },
}
D.missile_order = { "sb", "lb", "xb", "d", "s", "ss", "j", "hg", "a", "mk" }
-- §35 later small arms: bands of { up to range, strength }.
D.late_arms = { rifle = { { 12, 5 }, { 24, 4 }, name = "Rifle" }, late_musket = { { 6, 5 }, { 12, 4 }, name = "Musket (later)" } }

-- §26.2 melee weapons: name, may keep a shield in melee, may keep it against shooting,
-- strength bonus, minimum strength.
D.weapons = {
  p = { "Pike", true, true, 0, 0 }, s = { "Spear", true, true, 0, 0 },
  htw = { "Heavy Throwing Weapons", true, true, 0, 0 },
  ["2hw"] = { "Two-Handed Weapons", false, true, 2, 3 },
  m2hw = { "Massive Two-Handed Weapons", false, false, 3, 5 },
  l = { "Lance", true, true, 0, 0 }, nw = { "Natural Weapons", false, true, 0, 0 },
  ["1hw"] = { "One-Handed Weapons", true, true, 0, 0 }, none = { "no melee weapon", true, true, 0, 0 },
}

-- §35 gunnes: bands { S, M, L } by period and weight, and the strength of each band.
D.gunnes = {
  ancient = { light = { 2, 4, 6 }, medium = { 4, 8, 16 }, heavy = { 6, 12, 24 }, siege = { 8, 16, 32 }, strength = { 2, 3, 4 } },
  medieval = { light = { 4, 8, 16 }, medium = { 6, 12, 24 }, heavy = { 8, 16, 32 }, siege = { 10, 20, 30 }, strength = { 3, 4, 5 } },
  renaissance = { light = { 6, 12, 24 }, medium = { 8, 16, 32 }, heavy = { 10, 20, 30 }, siege = { 12, 24, 36 }, strength = { 4, 5, 6 } },
  malburian = { light = { 8, 16, 24 }, medium = { 10, 20, 30 }, heavy = { 12, 24, 36 }, siege = { 14, 28, 42 }, strength = { 5, 6, 6 } },
  napoleonic = { light = { 10, 20, 30 }, medium = { 12, 24, 36 }, heavy = { 14, 28, 42 }, siege = { 16, 32, 48 }, strength = { 6, 6, 6 } },
}
D.periods = { "ancient", "medieval", "renaissance", "malburian", "napoleonic" }
D.weights = { "light", "medium", "heavy", "siege" }

-- §36 points by level of a characteristic.
D.level_points = { [0] = 0, 10, 20, 30, 50, 100, 150 }

-- §24 the irregular response to a charge, by score.
function D.irregular_response(score)
  if score <= 2 then return "countercharge" end
  if score <= 4 then return "evade_or_break" end
  return "break"
end

return D
