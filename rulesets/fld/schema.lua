-- The FLD schema: what the game keeps for each unit, rank (element), command and side.
-- Two engineers share this file; each adds lines only inside his own block.
local schema = { unit = {}, element = {}, command = {}, side = {}, markers = {} }

-- units and fighting
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

return schema
