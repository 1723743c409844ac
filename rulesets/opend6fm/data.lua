-- OpenD6 Fantasy Miniatures: the charts of the source as data. Every number is the source's;
-- references name the chapter and heading of the source (umpire's section number in brackets, README.md).
-- Nothing here is invented: where the source gives no value the entry says so (nil), and a
-- rule that needs it refuses with the name of the table to fill in.

local D = {}

-- Ch3 "Ranged Combat Chart" [§4.5]
D.RANGE_BASE = { short = 6, medium = 8, long = 10 }

-- Ch3 "Ranged Combat Modifiers Chart" [§4.6]
D.COVER = { none = 0, light = 1, medium = 2, heavy = 3 }
D.COVER_ORDER = { "none", "light", "medium", "heavy" }

-- Ch5 "Morale Levels" [§6.1]
D.MORALE_START = { average = 5, veteran = 6, elite = 7 }

-- Ch7 troop quality cost [§9.3]
D.QUALITY_COST = { average = 0, veteran = 10, elite = 20 }

-- Ch5 "Morale Test Base Threat Level Chart" [§6.5]
D.THREAT_BASE = { casualty = 4, charge = 6, receive = 4, rally = 4, opportunity = 4 }

-- Ch4 "Close Combat Modifiers Chart" [§5.8]
D.CC = { charging = 1, barrier = 1, outnumber_each = 1, standard_weapon = 1, magic_weapon = 2,
         natural_weapon = 1, side_or_rear = -2, prone = -2, separated = -1, shaken = -1,
         demoralized = -2, parting_swing = 2 }

-- Ch3 "Siege Weapon Deviation Range Chart" [§4.11.2]
D.DEVIATION = {
  short = function(d) return math.ceil(d / 2) end,
  medium = function(d) return d end,
  long = function(d) return 2 * d end,
}

-- Ch6 "Terrain Effects Chart" [§8.4] (chart) and the text's values where they differ (AMB-19).
-- mult: movement cost per inch; cover: ranged difficulty modifier; los: see-through inches.
D.TERRAIN = {
  clear = { mult = 1, cover = 0 },
  scrub = { mult = 2, cover = 1 },
  brush = { mult = 2, cover = 1 },
  light_woods = { mult = 2, cover = 1, los = 8 },
  medium_woods = { mult = 2, cover = 2, los = 6 },
  heavy_woods = { mult = 4, cover = 3, los = 4, no_run = true },
  swamp = { mult = 4, cover = nil, no_run = true },          -- "Variable": set by the scenario
  easy_hill = { mult = 2, cover = 2 },
  difficult_hill = { mult = 4, cover = 2, no_run = true },
  creek = { mult = 2, cover = 2, text_cover = 1 },
  stream = { mult = 4, cover = 3, text_cover = 2, no_run = true },
}

-- Ch6 "Barrier Effects Chart" [§8.5]; barbed wire is a difficult (4") barrier in the text.
D.BARRIER = {
  door = { cost = 2, cover = 2 },
  window = { cost = 4, cover = 3 },
  low_wall = { cost = 2, cover = 2 },
  high_wall = { cost = 4, cover = 3 },
  barbed_wire = { cost = 2, cover = 0, text_cost = 4 },
  shallow_trench = { cost = 2, cover = 2 },
  deep_trench = { cost = 4, cover = 3 },
  -- Ch2 "Terrain and Barriers": the classes by name
  moderate = { cost = 2 },
  difficult = { cost = 4 },
}

-- Weapons: ONLY the values the source prints (its Weapons Chart is absent, §0.2, §9.5).
-- kind: ranged / melee / siege. ds: Damage Strength (melee: added to the wielder's Strength);
-- s, m, l: range bands in inches; cost: SGP. A field left nil is not in the source.
D.WEAPONS = {
  medium_crossbow = { name = "Medium Crossbow", kind = "ranged", ds = 5, s = 15, m = 50, l = 150,
                      cost = 15, sheet = true, src = "Ch7 Sample Completed Squad Record Sheet" },
  heavy_crossbow = { name = "Heavy Crossbow", kind = "ranged", ds = 6, ds_example = 5, s = 15, m = 60,
                     l = 150, cost = 18, sheet = true, src = "Ch7 record sheet (DS 6); Ch3 Damage Determination (DS 5, AMB-05)" },
  longbow = { name = "Longbow", kind = "ranged", ds = 4, s = 5, m = 15, l = 60,
              src = "Ch3 Measuring Range; Ch1 Opposed Tests" },
  crossbow = { name = "Crossbow", kind = "ranged", ds = 4, l = 60,
               src = "Game Scales (120 m); Ch3 Multiple Shots Against One Target (DS 4)" },
  magic_melee = { name = "Magical Melee Weapon", kind = "melee", ds = 2, cc = "magic", cost = 4,
                  src = "Ch7 Weapons and Armor (Strength + 2); Ch4 chart (+2)" },
  magic_axe = { name = "Magical Axe", kind = "melee", ds = 2, cc = "magic",
                src = "Ch4 Close Combat Damage" },
  sword = { name = "Standard melee weapon", kind = "melee", cc = "standard",
            src = "Ch4 chart (+1 to the roll); its Damage Strength is in the absent Weapons Chart" },
  siege = { name = "Siege weapon", kind = "siege", ds = 5, src = "Ch3 Siege Weapon Damage" },
}
D.WEAPON_ALIASES = { club = "sword", knife = "sword", mace = "sword", axe = "sword",
                     ["long_bow"] = "longbow", catapult = "siege", trebuchet = "siege", ballista = "siege" }

-- Ch7 "Troop List" [§9.2]: the one sample listing the source gives.
D.TROOPS = {
  arctic_human = { name = "Arctic Human Soldiers", quality = "elite", size = { 3, 10 },
                   attrs = { agi = 3, int = 2, cor = 2, acu = 2, phy = 3, cha = 2 }, move = 10,
                   skills = 3, sergeant = 3, champions = 3, armor = "none" },
}

-- Weapons a house rule enters while it loads (a creature's natural weapons, advanced.lua):
-- not the source's, and kept apart from its values.
D.HOUSE_WEAPONS = {}

return D
