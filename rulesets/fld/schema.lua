-- The FLD schema: what the game keeps for each unit, rank (element), command and side.
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
    doc = "biped, or quadruped and more legs: move range and move points (6, 36); Mounted and chariots are always quadrupeds (2.3)" }
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
do
  -- The C-in-C (5, 12) is kept on the side; each sub-commander on his command (5, 12, 17-21).
  schema.side.cinc_name = { type = "text", default = "", doc = "the C-in-C's name (5)" }
  schema.side.cinc_rating = { type = "int", min = 1, max = 6, default = 3, doc = "the C-in-C's Commander Rating (5, 12)" }
  schema.side.cinc_with = { type = "text", default = "", doc = "the unit the C-in-C's figure has joined; empty: acting alone (5)" }
  schema.command.role = { type = "choice", values = { "mtu", "staff" }, default = "mtu",
    doc = "mtu: a sub-commander's Major Tactical Unit; staff: a command that is not one (the C-in-C's escort)" }
  schema.command.sc_name = { type = "text", default = "", doc = "the sub-commander's name (5)" }
  schema.command.sc_rating = { type = "int", min = 1, max = 6, default = 3, doc = "the sub-commander's Commander Rating (5, 12)" }
  schema.command.sc_discipline = { type = "choice", values = { "regular", "irregular" }, default = "regular",
    doc = "the sub-commander himself: irregular uses the irregular own-initiative table (19)" }
  schema.command.ally = { type = "flag", default = false, doc = "an allied sub-commander: +1 to activate (18)" }
  schema.command.wing = { type = "int", min = 0, max = 99, default = 0,
    doc = "his place in the line, 1 = leftmost; 0: not given (own initiative LR, 19)" }
  schema.command.sc_with = { type = "text", default = "", doc = "the unit the sub-commander's figure has joined (5)" }
  schema.command.orders = { type = "choice", values = { "none", "attack", "advance", "wait", "hold", "retreat", "march", "rush" },
    default = "none", doc = "operational orders (17)" }
  schema.command.activation = { type = "choice", values = { "none", "activated", "failed", "not_tried" }, default = "none",
    doc = "this turn's Stage 1 activation (18); none: not rolled yet" }
  schema.command.oi_result = { type = "text", default = "", doc = "this turn's own-initiative result (19)" }
  schema.command.ti = { type = "int", min = -20, max = 40, default = 0, doc = "this turn's tactical initiative, first roll (20)" }
  schema.command.ti_rank = { type = "int", min = 0, max = 99, default = 0, doc = "place in this turn's order of action; 0: not rolled (20, 22)" }
  schema.command.demoralised = { type = "flag", default = false, doc = "the Major Tactical Unit is demoralised (34)" }
  -- Unit attributes these rules read: discipline (12, 19, 21, 29), order and type (23: who may
  -- fanatic charge; commander figures are not Tactical Units), rating (5) and commander (5,
  -- kept in step with cinc_with / sc_with). The units' block declares them in full; where it
  -- does, these lines give way to it.
  schema.unit.discipline = schema.unit.discipline or { type = "choice", values = { "regular", "irregular" }, default = "regular",
    doc = "Regular or Irregular (1, 2.1)" }
  -- Read by winning and losing (34); the morale rules of the units' block set them.
  schema.unit.order = schema.unit.order or { type = "choice", values = { "close", "loose", "open" }, default = "close",
    doc = "Close, Loose or Open order (2.2)" }
  schema.unit.type = schema.unit.type or { type = "choice", values = { "foot", "mounted", "chariot", "leviathan",
    "behemoth", "artillery", "commander" }, default = "foot", doc = "troop type (2.3); `commander`: a general's own figure (5)" }
  schema.unit.rating = schema.unit.rating or { type = "int", min = 0, max = 6, default = 0,
    doc = "Commander Rating of a commander figure (5)" }
  schema.unit.commander = schema.unit.commander or { type = "choice", values = { "none", "sub", "cinc" }, default = "none",
    doc = "a commander figure that has joined this unit (5, 31.2)" }
  schema.markers.fragmented = schema.markers.fragmented or { doc = "Fragmented by a morale test (31.3)" }
  schema.markers.broken = schema.markers.broken or { doc = "Broken by a morale test (31.3)" }
  schema.markers.activated = { doc = "the \"A\" counter: activated for this turn (21)", expires = "round" }
  schema.markers.own_initiative = { doc = "not activated: acts on its own initiative this turn (21, 29)", expires = "round" }
end
-- end command and sequence

schema.status = { attrs = { "type", "order" }, strength = "integrity", max = "integrity_start",
  element_strength = "figures",
  -- what a large game's `status` lists first: disordered, fragmented, broken, in melee, and
  -- units that have lost Integrity Points
  attention = { markers = { "disordered", "fragmented", "broken", "in_melee" }, damaged = true } }

return schema
