-- FLD's command structure (5, 12, 17-21, 29) on the shared module `fld_common`: the
-- ruleset's numbers, rule references and options, handed to the shared commands as `cfg`.
-- Undying Lands builds its own `cfg` the same way (cm, its table, its modifiers).
local distance = require "fld_common.distance"
local activation = require "fld_common.activation"
local orders = require "fld_common.orders"
local commanders = require "fld_common.commanders"

local M = {}

-- The interpretation defaults of these sections (FLD-Dnn, listed in README.md), each changeable mid-game.
umpire.option {
  name = "activation_columns", default = "printed",
  choices = {
    { "printed", "the command control table as printed: rating 1 in the first column (a higher rating needs a higher score)" },
    { "reversed", "rating r read in column 7-r: a higher rating needs a lower score" },
  },
  doc = "how the command control table's rating columns are read", rule = "12; FLD-D02",
}
umpire.option {
  name = "activation_labels", default = "any_irregular",
  choices = {
    { "any_irregular", "the irregular row labels if any unit (or sub-commander's troops) in the attempt is irregular" },
    { "majority", "the irregular labels only if more than half of the attempt is irregular" },
  },
  doc = "which row labels of the command control table an attempt uses", rule = "12; FLD-D18",
}
umpire.option {
  name = "activation_rolls", default = "per_unit",
  choices = {
    { "per_unit", "one d6 for each sub-commander or unit tried" },
    { "one_roll", "one d6 for the whole set, compared with each one's score" },
  },
  doc = "how many activation dice are thrown", rule = "18, 21; FLD-D19",
}
umpire.option {
  name = "idle_subcommanders", default = "roll",
  choices = {
    { "roll", "sub-commanders not activated (not tried or failed) roll their own initiative" },
    { "keep_orders", "they keep their current orders without a roll" },
  },
  doc = "what a sub-commander who is not activated does", rule = "18; FLD-D27",
}

umpire.option {
  name = "wait_order", default = "half_move",
  choices = {
    { "half_move", "WAIT: units may close on the enemy by at most half their move" },
    { "printed", "WAIT as printed: units may not end nearer an enemy unit than half their move rate" },
  },
  doc = "what WAIT orders allow (the movement rules and the umpire apply it; `orders` prints it)", rule = "17",
}

-- FLD's orders, with WAIT read by the option.
local fld_orders = {}
for k, v in pairs(orders.FLD) do fld_orders[k] = v end
fld_orders.wait = { text = function()
  if umpire.option("wait_order") == "printed" then
    return "units may move up to a full move, but may not end nearer to an enemy unit than half " ..
      "their move rate (as printed)"
  end
  return "units may move up to a full move, but may close on an enemy unit by no more than half " ..
    "their move (option wait_order half_move)"
end }

-- Everything the shared commands need to know about FLD.
M.cfg = {
  name = "FLD",
  point = "fld",                     -- hook points: fld.activation, fld.ti
  unit = "in",
  example_distance = "12\" or 30cm",
  words = { cinc = "C-in-C" },
  rules = {
    commanders = "5, 12", table = "12", terrain = "14", deploy = "15", turn = "16", orders = "17",
    sc = "18", sc_own = "19", ti = "20", tu = "21", seq = "22", fanatic = "23", link = "21, 28.v",
    tu_own = "29", win = "34",
  },
  table_name = "command_control",
  cells = activation.FLD_CELLS,
  bands = distance.FLD_COMMAND,
  bands_rule = "; FLD-D20",
  ally_modifier = 1,                 -- 18: +1 for an allied sub-commander
  wait_modifier = nil,               -- (UL 11: -2 for one on WAIT)
  link_reduction = function(n) return 1 end,   -- 21, 28.v: a linked group needs 1 less
  link_text = "1 less to activate",
  columns = function() return umpire.option("activation_columns") end,
  labels = function() return umpire.option("activation_labels") end,
  rolls = function() return umpire.option("activation_rolls") end,
  idle = function() return umpire.option("idle_subcommanders") end,
  -- Stage 2's row labels (FLD-D18): by the units tried.
  unit_labels = function(g, flags)
    return activation.irregular_attempt(flags, umpire.option("activation_labels"))
  end,
  orders = fld_orders,
  own_initiative_obeys_orders = false,   -- FLD sets no limit on the actions under each order
  irregular_no_neighbour = { ta = 2, text = "charges the nearest enemy (no usable neighbour after three throws)" },
  phases = { "phase1", "phase2", "phase3", "phase4" },
  ti = { dice = "1d6", sign = -1, tie_rule = "FLD-D29" },
  -- 34: a unit counts against its MTU when Fragmented or Broken (markers of the morale rules).
  count_markers = { "fragmented", "broken" },
  counts_text = "Fragmented or Broken",
  terrain = { sizes = { "6x4", "8x4", "8x5" }, squares = { 12, 16 }, edge = 2 },
  deploy = { baseline = '16"', edge = '24"', flank = '12"', flank_margin = 5 },
}

local util = require "fld_common.util"
function M.cfg.counts(u)
  if util.has(u, "broken") then return true, "Broken" end
  if util.has(u, "fragmented") then return true, "Fragmented" end
  return false
end

commanders.register(M.cfg)
orders.register(M.cfg)
activation.register(M.cfg)

return M
