-- Winning and losing (FLD 34, UL 26): a Major Tactical Unit is demoralised when at least half
-- of its units count against it (FLD: Fragmented or Broken; UL: lost half their IP), and a
-- side has lost when at least half of its Major Tactical Units are demoralised.
-- When an MTU becomes demoralised the rule event `mtu_demoralised` is raised with fields
-- `command`, `side` (ids): the morale rules test every unit of that side (FLD 31 trigger g).
local util = require "fld_common.util"
local commanders = require "fld_common.commanders"

local M = {}

-- cfg.counts, or what cfg.counter() makes of it for one MTU's units (a function like it that
-- reads once what is the same for all of them, such as an option).
local function counter(cfg)
  if cfg.counter then return cfg.counter() end
  return cfg.counts
end

-- Counts one MTU: how many units, and which count against it (cfg.counts(u) -> bool, why).
function M.count(cfg, g)
  local units = commanders.units(g)
  local bad = {}
  local counts = counter(cfg)
  for _, u in ipairs(units) do
    local yes, why = counts(u)
    if yes then bad[#bad + 1] = u.id .. " " .. why end
  end
  return #units, bad
end

-- Whether at least half of an MTU's units count against it (as M.count finds), asking
-- cfg.counts only until the answer is known. Returns that, and the MTU's units.
function M.half_count(cfg, g)
  local units = commanders.units(g)
  local n, yes = #units, 0
  local counts = n > 0 and counter(cfg)
  for i, u in ipairs(units) do
    if (yes + (n - i + 1)) * 2 < n then break end    -- even all the rest would not make half
    if counts(u) then yes = yes + 1 end
    if yes * 2 >= n then break end
  end
  return n > 0 and yes * 2 >= n, units
end

-- Whether an MTU is demoralised now: marked so already, or at least half its units count
-- against it (the one place the rule is computed; the morale rules ask here too). A command
-- that is not an MTU (role staff) never is. Returns demoralised, units, the list that count.
function M.demoralised(cfg, g)
  if util.attr(g, "role", "mtu") ~= "mtu" then return false, 0, {} end
  local n, bad = M.count(cfg, g)
  return g.demoralised or (n > 0 and #bad * 2 >= n), n, bad
end

-- The ids of a side's demoralised MTUs, in wing order.
function M.side_demoralised(cfg, side)
  local list = {}
  for _, g in ipairs(commanders.mtus(side)) do
    if M.demoralised(cfg, g) then list[#list + 1] = g.id end
  end
  return list
end

-- Checks an MTU and marks it demoralised when at least half its units count (never undone
-- by the rules: no recovery is given). Returns the check's lines.
function M.check_mtu(ctx, cfg, g, quiet)
  local R = cfg.rules
  local _, n, bad = M.demoralised(cfg, g)
  if n == 0 then return false end
  local demo = #bad * 2 >= n
  if not quiet or (demo and not g.demoralised) then
    local c = ctx:check("Demoralisation " .. R.win .. ": " .. commanders.sc_label(g) .. ", " .. g.side)
    c:add(#bad, "units " .. cfg.counts_text .. (#bad > 0 and (": " .. table.concat(bad, ", ")) or ""), R.win)
    c:add(-math.ceil(n / 2), "at least half of its " .. n .. " unit" .. (n == 1 and "" or "s") .. " needed", R.win)
    c:result(demo and "demoralised" or "holds")
  end
  if demo and not g.demoralised then
    g:set("demoralised", true, #bad .. " of " .. n .. " units " .. cfg.counts_text .. " (" .. R.win .. ")")
    umpire.emit("mtu_demoralised", { command = g.id, side = g.side })
    if cfg.on_demoralised then cfg.on_demoralised(g) end
  end
  return g.demoralised
end

-- Checks every MTU of a side and whether it has lost. Returns lost, demoralised, total.
function M.check_side(ctx, cfg, side, quiet)
  local R = cfg.rules
  local mtus = commanders.mtus(side)
  local demo, names = 0, {}
  for _, g in ipairs(mtus) do
    if M.check_mtu(ctx, cfg, g, quiet) then demo = demo + 1; names[#names + 1] = g.id end
  end
  local lost = #mtus > 0 and demo * 2 >= #mtus
  if not quiet or lost then
    local c = ctx:check("Winning and losing " .. R.win .. ": " .. side)
    c:add(demo, "Major Tactical Units demoralised" .. (#names > 0 and (": " .. table.concat(names, ", ")) or ""), R.win)
    c:add(-math.ceil(#mtus / 2), "at least half of its " .. #mtus .. " needed", R.win)
    c:result(lost and "has lost the battle" or "fights on")
  end
  return lost, demo, #mtus
end

function M.register(cfg)
  local R = cfg.rules
  umpire.command {
    name = "victory",
    help = "winning and losing (" .. R.win .. "): each Major Tactical Unit is demoralised when at least half\n" ..
      "its units " .. cfg.counts_text .. "; a side with at least half its MTUs demoralised has lost\n" ..
      "e.g. `victory`",
    args = {},
    run = function(ctx)
      local lines = {}
      local teams, order = {}, {}
      for _, side in ipairs(umpire.sides()) do
        local lost, demo, n = M.check_side(ctx, cfg, side, false)
        lines[#lines + 1] = side .. ": " .. demo .. " of " .. n .. " Major Tactical Units demoralised" ..
          (lost and " — has LOST the battle" or "")
        umpire.record("victory_" .. side, { lost = lost, demoralised = demo, mtus = n })
        local team = umpire.side(side).team
        if team then
          if not teams[team] then teams[team] = { demo = 0, n = 0, sides = {} }; order[#order + 1] = team end
          local t = teams[team]
          t.demo, t.n = t.demo + demo, t.n + n
          t.sides[#t.sides + 1] = side
        end
      end
      -- Allied sides (a team, `team NAME SIDE…`) are one army: the team has lost when at least
      -- half of all its sides' Major Tactical Units are demoralised (the README's "Teams").
      for _, team in ipairs(order) do
        local t = teams[team]
        local lost = t.n > 0 and t.demo * 2 >= t.n
        lines[#lines + 1] = "team " .. team .. " (" .. table.concat(t.sides, ", ") .. "): " .. t.demo ..
          " of " .. t.n .. " Major Tactical Units demoralised" .. (lost and " — has LOST the battle" or "")
        umpire.record("victory_team_" .. team, { lost = lost, demoralised = t.demo, mtus = t.n })
      end
      return table.concat(lines, "\n")
    end,
  }
  -- A unit marked as counting (FLD: fragmented, broken) may demoralise its MTU: at once, so
  -- the rest of the command that marked it (a morale test's flight, the next test) sees it.
  -- One handler for all those markers: every marker put on (in_melee, charging…) runs it.
  local counting = {}
  for _, marker in ipairs(cfg.count_markers or {}) do counting[marker] = true end
  if next(counting) ~= nil then
    umpire.on("unit_marked", function(ev)
      if not counting[ev.marker] then return end
      local g = umpire.group(ev.unit.command)
      if util.attr(g, "role", "mtu") ~= "mtu" or g.demoralised then return end
      local demo, n, bad = M.demoralised(cfg, g)
      if demo then
        g:set("demoralised", true, #bad .. " of " .. n .. " units " .. cfg.counts_text .. " (" .. R.win .. ")")
        print(g.id .. " is demoralised: " .. #bad .. " of " .. n .. " units " .. cfg.counts_text .. " (" .. R.win .. "); `victory` shows the sides")
        umpire.emit("mtu_demoralised", { command = g.id, side = g.side })
        if cfg.on_demoralised then cfg.on_demoralised(g) end
      end
    end, { at_once = true })
  end
end

return M
