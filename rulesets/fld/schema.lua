-- The FLD schema: what the game keeps for each unit, rank (element), command and side.
-- Two engineers share this file; each adds lines only inside his own block.
local flag = { type = "flag", default = false }

local schema = { unit = {}, element = {}, command = {}, side = {}, markers = {} }

-- units and fighting
do
  local u, m = schema.unit, schema.markers
  -- §1-2: the troop data record, as the umpire types it.
  u.discipline = { type = "choice", values = { "regular", "irregular" }, default = "regular",
    doc = "Regular or Irregular (2.1); Behemoths count as Irregular whatever is typed" }
  u.order = { type = "choice", values = { "close", "loose", "open" }, default = "close",
    doc = "Close, Loose or Open order, fixed for the battle (2.2)" }
  u.type = { type = "choice", values = { "foot", "mounted", "chariot", "leviathan", "behemoth",
    "artillery", "commander" }, default = "foot",
    doc = "troop type (2.3); chariots are Mounted, Leviathans Foot; `commander` is a general's own figure (5)" }
  u.legs = { type = "choice", values = { "biped", "quadruped" }, default = "biped",
    doc = "biped, or quadruped and more legs: move range and move points (6, 36)" }
  u.animals = { type = "int", min = 0, max = 8, default = 0, doc = "animals pulling a chariot (2.4, 4)" }
  u.crew = { type = "int", min = 0, max = 8, default = 0, doc = "crew of a chariot, Behemoth or gun (2.3, 2.4)" }
  u.height = { type = "number", min = 0, max = 200, default = 6, doc = "creature height in feet: gives Mass (8.1)" }
  u.mass = { type = "int", min = 0, max = 6, default = 0, doc = "Mass 1-6 typed by hand; 0: from height (8.1)" }
  u.base_move = { type = "number", min = 0, max = 12, default = 4, doc = "base move in inches, as Close order (6)" }
  u.melee = { type = "int", min = 0, max = 6, default = 3, doc = "melee factor (7)" }
  u.weapon = { type = "choice", values = { "1hw", "p", "s", "htw", "2hw", "m2hw", "l", "nw", "none" },
    default = "1hw", doc = "primary melee weapon class (7, 26.2)" }
  u.weapon2 = { type = "choice", values = { "none", "1hw", "s", "htw", "2hw", "m2hw", "l", "nw" },
    default = "none", doc = "a secondary melee class, at melee factor -1 (1)" }
  u.shooting = { type = "int", min = 0, max = 6, default = 0, doc = "shooting factor; 0: does not shoot (7)" }
  u.missile = { type = "choice", values = { "none", "sb", "lb", "xb", "d", "s", "ss", "j", "hg", "a", "mk",
    "rifle", "late_musket" }, default = "none", doc = "missile weapon class (7, 25.6; rifle and late_musket: 35)" }
  u.strength = { type = "int", min = 1, max = 6, default = 3, doc = "strength (9)" }
  u.natural = { type = "int", min = 0, max = 6, default = 0, doc = "natural armour (10)" }
  u.armour = { type = "choice", values = { "none", "sh", "lsh", "partial", "partial_sh", "partial_lsh",
    "plate", "plate_sh", "plate_lsh" }, default = "none", doc = "additive armour row (10)" }
  u.barding = { type = "choice", values = { "none", "partial", "full" }, default = "none",
    doc = "animal armour (10)" }
  u.morale = { type = "int", min = 1, max = 6, default = 3, doc = "morale level (11)" }
  u.attacks = { type = "int", min = 1, max = 50, default = 1, doc = "attacks per figure (13)" }
  u.figures = { type = "int", min = 0, max = 1000, default = 0, doc = "figures at the start (1, 8.2)" }
  u.files = { type = "int", min = 0, max = 1000, default = 0, doc = "figures in the front rank at the start (1)" }
  u.integrity = { type = "number", min = -10000, max = 10000, default = 0, doc = "Integrity Points now (8.2)" }
  u.integrity_start = { type = "number", min = 0, max = 10000, default = 0, doc = "starting Integrity Points (8.2)" }
  u.formed = { type = "flag", default = true, doc = "formed (B2B); false: unformed (4)" }
  u.rating = { type = "int", min = 0, max = 6, default = 0, doc = "Commander Rating of a commander figure (5)" }
  u.commander = { type = "choice", values = { "none", "sub", "cinc" }, default = "none",
    doc = "a commander figure that has joined this unit: a sub-commander or the C-in-C (5, 31.2)" }
  u.linked = { type = "flag", default = false, doc = "in a linked group (28.v, 31.2)" }
  u.gun = { type = "choice", values = { "none", "light", "medium", "heavy", "siege" }, default = "none",
    doc = "gunne weight of shot (35)" }
  u.period = { type = "choice", values = { "ancient", "medieval", "renaissance", "malburian", "napoleonic" },
    default = "medieval", doc = "the period of a gunne's table (35)" }
  u.rally_left = { type = "int", min = -1, max = 10, default = -1, doc = "phases of rally left (32); -1 none" }
  u.points = { type = "number", min = 0, default = 0, doc = "points value, set by `muster` (36)" }
  -- ranks: each element is a rank, front first
  schema.element.figures = { type = "int", min = 0, max = 1000, default = 0, doc = "figures in this rank" }
  m.disordered = "disordered (32)"
  m.fragmented = "Fragmented by a morale test (31.3)"
  m.broken = "broken by a morale test: flees (31.3)"
  m.in_melee = "in melee (26)"
  m.charging = { doc = "charged this phase (24, 26.3)", expires = "phase" }
  m.fanatic = { doc = "fanatic charged this phase (23, 26.3)", expires = "phase" }
  m.first_contact = { doc = "came into contact this phase: first-contact round (26.2)", expires = "phase" }
  m.evaded = { doc = "evaded a charge this phase (23, 28.vi)", expires = "phase" }
  m.march = "in march formation: cannot fight (28.i)"
  m.battery = "a gunne set up as a battery: pivots only (35)"
  m.mustered = "its data record has been computed by `muster` (1)"
end
-- end units and fighting

-- command and sequence
-- end command and sequence

schema.status = { attrs = { "type", "order" }, strength = "integrity", max = "integrity_start",
  element_strength = "figures" }

return schema
