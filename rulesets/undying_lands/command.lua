-- UL's command structure (6, 7, 10-14, 21) on the shared module fld_common, with UL's numbers
-- and readings in `cfg`: centimetres, its (placeholder) command control table, WAIT -2, one
-- less per four linked units, d20 + rating, two phases, the Tactical Actions each order allows.
local distance = require "fld_common.distance"
local activation = require "fld_common.activation"
local orders = require "fld_common.orders"
local commanders = require "fld_common.commanders"
local futil = require "fld_common.util"
local ph = require "undying_lands.placeholders"

local M = {}

-- 10: the orders in our words, with the Tactical Actions each allows (option allowed_actions,
-- UL-D18). TA 1 fanatic charge, 2 charge, 3 shoot, 4 melee, 5 move.
local ALLOWED = {
  default = { attack = { 1, 2, 3, 4, 5 }, advance = { 3, 4, 5 }, wait = { 3, 4 }, hold = { 3, 4, 5 },
    retreat = { 3, 4, 5 }, march = { 4, 5 }, rush = { 1, 2, 4, 5 } },
  printed = { attack = { 1, 2, 3, 4, 5 }, advance = { 1, 2, 3, 4, 5 }, wait = { 3 }, hold = { 3, 4, 5 },
    retreat = { 3, 4, 5 }, march = { 4, 5 }, rush = { 4, 5 } },
}
local TEXT = {
  attack = "every TU must advance at least its full move toward the nearest enemy unit",
  advance = "every TU must advance at least half its move toward the nearest enemy unit",
  wait = "no movement: the TUs wait for further orders",
  hold = "TUs may move up to a full move, but never nearer to an enemy unit",
  retreat = "every TU must move up to its full move away from the enemy or toward its own baseline, whichever is nearer",
  march = "TUs may move twice their move in march column (one vignette wide); they cannot fight",
  rush = "own initiative only: as ATTACK, at double rate toward the nearest enemy",
}
local ul_orders = {}
for k, t in pairs(TEXT) do
  ul_orders[k] = { text = t, allowed = function() return ALLOWED[umpire.option("allowed_actions")][k] end }
end
M.ALLOWED = ALLOWED

-- Whether a sub-commander counts as irregular (6): he is Regular only when most of his TUs
-- (more than half) are Regular, otherwise Irregular, so half and half makes him Irregular.
local function majority_irregular(g)
  local units = commanders.units(g)
  local n = 0
  for _, u in ipairs(units) do if commanders.irregular_unit(u) then n = n + 1 end end
  if #units == 0 then return false, 0 end
  return (#units - n) * 2 <= #units, n
end

M.cfg = {
  name = "UL",
  point = "ul",                      -- hook points ul.activation, ul.ti
  unit = "cm",
  example_distance = "45cm",
  words = { cinc = "General" },
  rules = {
    commanders = "6, 7", table = "7, table p.11", terrain = "8.1", deploy = "8.2", turn = "9", orders = "10",
    sc = "11", sc_own = "12", ti = "13", tu = "14", seq = "15", fanatic = "16", link = "14, 20.iv",
    tu_own = "21", win = "26",
  },
  table_name = "command_control_placeholder",
  table_placeholder = ph.tag .. ": lost table, umpire's value",
  cells = ph.activation,
  bands = distance.UL_COMMAND,
  bands_rule = "; UL-D21",
  ally_modifier = nil,               -- UL has no ally modifier
  wait_modifier = -2,                -- 11: -2 for a sub-commander on WAIT
  link_reduction = function(n) return n // 4 end,   -- 14, 20.iv: 1 less per full four linked TUs
  link_text = "1 less per four linked units",
  columns = function() return "printed" end,        -- the placeholder cells are laid out UL's way
  labels = function() return "any_irregular" end,   -- UL-D20: the General's roll
  rolls = function() return "per_unit" end,         -- UL-D20: one d6 per SC or TU
  idle = function() return "roll" end,               -- 11: the others act on their own initiative
  sc_irregular = function(g) return (majority_irregular(g)) end,
  unit_labels = function(g, flags)                   -- UL-D20: the SC's own class
    local irr = majority_irregular(g)
    local n = 0
    for _, f in ipairs(flags) do if f then n = n + 1 end end
    return irr, n
  end,
  -- 6; UL-D27: the TU a commander has joined is activated without a roll.
  auto_activated = function(u, g)
    if g.sc_with == u.id then return true, "the sub-commander's own TU is activated without a roll (6; UL-D27)" end
    if umpire.side(u.side).cinc_with == u.id then return true, "the General's own TU is activated without a roll (6; UL-D27)" end
    return false
  end,
  auto_counted = function() return umpire.option("commander_unit") == "counted" end,
  orders = ul_orders,
  own_initiative_obeys_orders = function() return umpire.option("own_initiative_limits") == "void" end,
  irregular_no_neighbour = { ta = 5, text = "moves back a full move (no usable neighbour after three throws)" },
  phases = { "phase1", "phase2" },
  ti = { dice = "1d20", sign = 1, tie_rule = "13" },
  counts_text = "with half their IP or more lost",
  terrain = { sizes = { "4x4", "6x4", "8x4", "8x5" }, squares = { 12, 16, 20 }, edge = 2,
    labels = { built_up = "Built-up area **" } },
  deploy = { baseline = "40cm", edge = "60cm", flank = "30cm", flank_margin = 5 },
  figures = false,                   -- no unit type is a commander figure (schema: type)
}

-- 26; UL-D17: a TU counts against its wing once it has lost 50% of its IP. `majority`: the
-- option tu_lost_half is majority (read once by the caller for a whole wing).
local function counts(u, majority)
  local els = u:elements()
  if majority then
    local n, total = 0, 0
    for _, e in ipairs(els) do
      total = total + 1
      if e.ip * 2 <= e.ip_start then n = n + 1 end
    end
    -- routed vignettes are gone: they count as having lost everything
    local start_n = u.ip_start > 0 and els[1] and math.floor(u.ip_start / math.max(1, els[1].ip_start) + 0.5) or total
    n = n + (start_n - total)
    if n * 2 > start_n then return true, n .. " of " .. start_n .. " vignettes at half IP or less (option tu_lost_half majority)" end
    return false
  end
  local now = 0
  for _, e in ipairs(els) do
    local ip = e.ip
    if ip > 0 then now = now + ip end
  end
  local start = u.ip_start
  if start > 0 and now * 2 <= start then return true, now .. "/" .. start .. " IP (UL-D17)" end
  return false
end
function M.cfg.counts(u) return counts(u, umpire.option("tu_lost_half") == "majority") end
-- cfg.counts for the units of one wing, the option read once (fld_common.victory).
function M.cfg.counter()
  local majority = umpire.option("tu_lost_half") == "majority"
  return function(u) return counts(u, majority) end
end
-- 26: a demoralised wing must change its orders to RETREAT.
function M.cfg.on_demoralised(g)
  if g.orders ~= "retreat" then g:set("orders", "retreat", "a demoralised wing must retreat (26)") end
end

commanders.register(M.cfg)
orders.register(M.cfg)
activation.register(M.cfg)

return M
