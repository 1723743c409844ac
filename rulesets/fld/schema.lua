-- The FLD schema: what the game tracks per unit, rank, command (Major Tactical Unit) and side.
-- Two parts fill it, each in its own block: the command and sequence (commanders, orders,
-- activation) and the units and fighting (the troop data record, ranks, combat state).
local S = { unit = {}, element = {}, command = {}, side = {}, markers = {} }

-- command and sequence
-- The C-in-C (5, 12) is kept on the side; each sub-commander on his command (5, 12, 17-21).
S.side.cinc_name = { type = "text", default = "", doc = "the C-in-C's name (5)" }
S.side.cinc_rating = { type = "int", min = 1, max = 6, default = 3, doc = "the C-in-C's Commander Rating (5, 12)" }
S.side.cinc_with = { type = "text", default = "", doc = "the unit the C-in-C's figure has joined; empty: acting alone (5)" }
S.command.role = { type = "choice", values = { "mtu", "staff" }, default = "mtu",
  doc = "mtu: a sub-commander's Major Tactical Unit; staff: a command that is not one (the C-in-C's escort)" }
S.command.sc_name = { type = "text", default = "", doc = "the sub-commander's name (5)" }
S.command.sc_rating = { type = "int", min = 1, max = 6, default = 3, doc = "the sub-commander's Commander Rating (5, 12)" }
S.command.sc_discipline = { type = "choice", values = { "regular", "irregular" }, default = "regular",
  doc = "the sub-commander himself: irregular uses the irregular own-initiative table (19)" }
S.command.ally = { type = "flag", default = false, doc = "an allied sub-commander: +1 to activate (18)" }
S.command.wing = { type = "int", min = 0, max = 99, default = 0,
  doc = "his place in the line, 1 = leftmost; 0: not given (own initiative LR, 19)" }
S.command.sc_with = { type = "text", default = "", doc = "the unit the sub-commander's figure has joined (5)" }
S.command.orders = { type = "choice", values = { "none", "attack", "advance", "wait", "hold", "retreat", "march", "rush" },
  default = "none", doc = "operational orders (17)" }
S.command.activation = { type = "choice", values = { "none", "activated", "failed", "not_tried" }, default = "none",
  doc = "this turn's Stage 1 activation (18); none: not rolled yet" }
S.command.oi_result = { type = "text", default = "", doc = "this turn's own-initiative result (19)" }
S.command.ti = { type = "int", min = -20, max = 40, default = 0, doc = "this turn's tactical initiative, first roll (20)" }
S.command.ti_rank = { type = "int", min = 0, max = 99, default = 0, doc = "place in this turn's order of action; 0: not rolled (20, 22)" }
S.command.demoralised = { type = "flag", default = false, doc = "the Major Tactical Unit is demoralised (34)" }
-- Read by activation (12, 21) and TA1 (23); the units' block declares them in full (if it
-- does, these lines give way to it).
S.unit.discipline = S.unit.discipline or { type = "choice", values = { "regular", "irregular" }, default = "regular",
  doc = "Regular or Irregular (1, 2.1)" }
-- Read by winning and losing (34); the morale rules of the units' block set them.
S.markers.fragmented = S.markers.fragmented or { doc = "Fragmented by a morale test (31.3)" }
S.markers.broken = S.markers.broken or { doc = "Broken by a morale test (31.3)" }
S.markers.activated = { doc = "the \"A\" counter: activated for this turn (21)", expires = "round" }
S.markers.own_initiative = { doc = "not activated: acts on its own initiative this turn (21, 29)", expires = "round" }
-- end of command and sequence

-- units and fighting

return S
