-- Command control shared by FLD and Undying Lands: the activation table (FLD 12, UL 7 and
-- 4.4), the C-in-C activating sub-commanders in Stage 1 (FLD 18, UL 11) and sub-commanders
-- activating their Tactical Units in Stage 2 (FLD 21, UL 14).
--
-- The ruleset passes its own cells (UL's are placeholders with `"no"` cells), distance
-- bands and modifiers in `cfg`; the options it reads are passed as functions.
local util = require "fld_common.util"
local distance = require "fld_common.distance"
local commanders = require "fld_common.commanders"
local orders = require "fld_common.orders"

local M = {}

-- FLD 12 as printed: rows by count, columns by rating 1-6.
M.FLD_CELLS = {
  { 1, 1, 2, 3, 4, 5 },
  { 1, 2, 3, 4, 5, 6 },
  { 2, 3, 4, 5, 6, 6 },
  { 3, 4, 5, 6, 6, 6 },
}
-- The rows by count: regular labels and irregular labels.
M.ROWS = {
  regular = { { 1, 3, "1-3" }, { 4, 6, "4-6" }, { 7, 8, "7-8" }, { 9, math.huge, "9+" } },
  irregular = { { 1, 2, "1-2" }, { 3, 3, "3" }, { 4, 4, "4" }, { 5, math.huge, "5+" } },
}

-- Declares the table twice for `table show` (NAME_regular, NAME_irregular).
function M.declare_tables(name, cells)
  for _, kind in ipairs({ "regular", "irregular" }) do
    local rows = {}
    for i, r in ipairs(M.ROWS[kind]) do rows[i] = r[3] end
    umpire.table { name = name .. "_" .. kind, rows = rows, cols = { "1", "2", "3", "4", "5", "6" },
      cells = cells }
  end
end

-- The row index and label for `count` units or commanders.
function M.row(count, irregular)
  local rows = M.ROWS[irregular and "irregular" or "regular"]
  for i, r in ipairs(rows) do
    if count >= r[1] and count <= r[2] then return i, r[3] end
  end
  return #rows, rows[#rows][3]
end

-- The score needed on the table: a number, or "no" (UL: cannot be activated). `columns` is
-- "printed" or "reversed" (FLD-D02: rating r read from column 7-r). Returns the cell and a
-- label for the breakdown.
function M.base(cells, rating, count, irregular, columns)
  local i, label = M.row(count, irregular)
  local col = rating
  if columns == "reversed" then col = 7 - rating end
  local cell = cells[i][col]
  return cell, "rating " .. rating .. (col ~= rating and (" read in column " .. col .. " (option activation_columns reversed)") or "") ..
    ", " .. count .. " tried: " .. (irregular and "irregular" or "regular") .. " row " .. label
end

-- Whether an attempt is read on the irregular labels (FLD-D18): `flags` is a list of
-- booleans (irregular or not) for what is being activated; `rule` "any_irregular" or
-- "majority".
function M.irregular_attempt(flags, rule)
  local n = 0
  for _, f in ipairs(flags) do if f then n = n + 1 end end
  if rule == "majority" then return n * 2 > #flags, n end
  return n > 0, n
end

-- cfg.table_placeholder (UL: its table's numbers are lost): the words added to every line
-- that reads the table, and `placeholder = true` in the records. FLD sets none.
local function note(cfg)
  return cfg.table_placeholder and (" [" .. cfg.table_placeholder .. "]") or ""
end

-- One activation roll, compared with the needed score: a check with the die, the table's
-- score and each modifier taken off, so that 0 or more is a pass. `parts` is a list of
-- { value, label, rule }. `die` is a roll already made (one roll for the set) or nil.
local function attempt(ctx, cfg, title, rule, parts, by, die, situation)
  local c = ctx:check(title)
  local d
  if die then
    c:add(die, "the set's activation d6 (one roll, option activation_rolls)", rule)
    d = die
  else
    d = c:roll("1d6", "activation d6", rule, by)
  end
  for i, p in ipairs(parts) do
    local head
    if i == 1 then head = "needs " .. p[1] .. ": "
    elseif p[1] >= 0 then head = "needs " .. p[1] .. " more: "
    else head = "needs " .. -p[1] .. " less: " end
    c:add(-p[1], head .. p[2], p[3])
  end
  -- House rules add here: +1 makes the activation easier (the margin over the score needed).
  c:point(cfg.point .. ".activation", situation)
  local need = d - c:total()
  local ok = c:total() >= 0
  c:result((ok and "activated" or "not activated") .. " (rolled " .. d .. ", needed " .. need .. "+)")
  return ok, need, d
end

-- Parses the Stage 1 attempt: command ids of the side's sub-commanders, each followed by
-- its distance from the C-in-C (12", 30cm), `blocked` (line of sight), an order to change to,
-- `wait` facts are read from the command. Returns a list of entries.
local function parse_sc(cfg, side, text)
  local entries, by_id = {}, {}
  local mtus = {}
  for _, g in ipairs(commanders.mtus(side)) do mtus[g.id] = g end
  local cur
  for _, w in ipairs(util.words(text)) do
    local lw = w:lower()
    if mtus[w] then
      if by_id[w] then umpire.fail("scactivate: " .. w .. " is named twice") end
      cur = { g = mtus[w], dist = nil, blocked = false, order = nil }
      by_id[w] = cur
      entries[#entries + 1] = cur
    elseif lw == "none" and #entries == 0 then
      return {}
    elseif not cur then
      local ok, g = pcall(umpire.group, w)
      if ok and g then
        umpire.fail("scactivate: " .. w .. " is not a sub-commander of " .. side ..
          (g.side ~= side and (" (it is " .. g.side .. "'s)") or " (a staff command)"))
      end
      umpire.fail("scactivate: start with a sub-commander of " .. side .. ", not `" .. w .. "`; " ..
        "they are " .. table.concat((function() local t = {} for k in pairs(mtus) do t[#t + 1] = k end table.sort(t) return t end)(), ", "))
    elseif lw == "blocked" then
      cur.blocked = true
    elseif cfg.orders[lw] then
      if lw == "rush" then umpire.fail("scactivate: RUSH is never given by the C-in-C, only by own initiative (" .. cfg.rules.sc_own .. ")") end
      cur.order = lw
    elseif w:match("^%.?%d") then
      cur.dist = distance.need(w, cfg.unit, "scactivate " .. cur.g.id)
    else
      umpire.fail("scactivate " .. cur.g.id .. ": `" .. w .. "` is not understood; after a sub-commander give " ..
        "his distance from the " .. cfg.words.cinc .. " (12\", 30cm), `blocked` if terrain blocks the line, " ..
        "and an order to change to (attack, advance, wait, hold, retreat, march)")
    end
  end
  for _, e in ipairs(entries) do
    if not e.dist then
      umpire.fail("scactivate " .. e.g.id .. ": give his distance from the " .. cfg.words.cinc ..
        ", measured by the umpire, e.g. `" .. e.g.id .. " 18\"`")
    end
  end
  return entries
end

-- Stage 1 for one side (FLD 18). Returns the output lines.
function M.activate_scs(ctx, cfg, side, text)
  local R = cfg.rules
  local s = umpire.side(side)
  local entries = parse_sc(cfg, side, text)
  local lines = {}
  local done = {}
  local rec = {}
  if #entries > 0 then
    local flags = {}
    for i, e in ipairs(entries) do flags[i] = (cfg.sc_irregular or commanders.irregular_sc)(e.g) end
    local irr, nirr = M.irregular_attempt(flags, cfg.labels())
    local base, blabel = M.base(cfg.cells, s.cinc_rating, #entries, irr, cfg.columns())
    local why_rows = nirr .. " of " .. #entries .. " with irregular troops (" .. cfg.labels() .. ")"
    local one = nil
    if cfg.rolls() == "one_roll" then
      local c = ctx:check("Sub-commander activation " .. R.sc .. ": one roll for " .. side .. "'s set")
      one = c:roll("1d6", "activation d6 for the set", R.sc .. "; FLD-D19", s)
      c:result(tostring(one))
    end
    for _, e in ipairs(entries) do
      local g = e.g
      local title = "Sub-commander activation " .. R.sc .. ": " .. commanders.sc_label(g)
      local ok, need
      if base == "no" then
        local c = ctx:check(title)
        c:add(0, "command control table: " .. blabel .. ": no" .. note(cfg), R.table)
        c:result("cannot be activated")
        ok = false
      else
        local parts = { { base, "command control table, " .. cfg.words.cinc .. " " .. blabel .. "; " .. why_rows .. note(cfg), R.table } }
        local mod, label = distance.band(e.dist, cfg.bands)
        if mod ~= 0 then parts[#parts + 1] = { mod, label .. " from the " .. cfg.words.cinc .. ": " .. distance.show(e.dist, cfg.unit), R.sc .. cfg.bands_rule } end
        if e.blocked then parts[#parts + 1] = { 1, "line from the " .. cfg.words.cinc .. " blocked by terrain", R.sc } end
        if e.order and e.order ~= g.orders then parts[#parts + 1] = { 1, "orders changed: " .. g.orders .. " to " .. e.order, R.sc } end
        if cfg.ally_modifier and g.ally then parts[#parts + 1] = { cfg.ally_modifier, "an allied sub-commander", R.sc } end
        if cfg.wait_modifier and g.orders == "wait" then parts[#parts + 1] = { cfg.wait_modifier, "on WAIT orders", R.sc } end
        local d
        ok, need, d = attempt(ctx, cfg, title, R.sc, parts, g, one, { stage = "subcommander", side = side, commander = g })
        rec[#rec + 1] = { command = g.id, die = d, need = need, activated = ok, placeholder = cfg.table_placeholder and true or nil }
      end
      if base == "no" then rec[#rec + 1] = { command = g.id, need = "no", activated = false, placeholder = cfg.table_placeholder and true or nil } end
      done[g.id] = true
      if ok then
        g:set("activation", "activated", "activated by the " .. cfg.words.cinc .. " (" .. R.sc .. ")")
        if g.oi_result ~= "" then g:set("oi_result", "", "activated: acts on his orders (" .. R.sc .. ")") end
        if e.order and e.order ~= g.orders then
          g:set("orders", e.order, "new orders from the " .. cfg.words.cinc .. " (" .. R.sc .. ")")
        end
        lines[#lines + 1] = g.id .. " activated: orders " .. g.orders:upper()
      else
        g:set("activation", "failed", "failed activation (" .. R.sc .. ")")
        lines[#lines + 1] = g.id .. " not activated" .. (e.order and e.order ~= g.orders and (": the change to " .. e.order:upper() .. " does not reach him") or "")
      end
    end
  end
  for _, g in ipairs(commanders.mtus(side)) do
    if not done[g.id] then
      g:set("activation", "not_tried", "not in the " .. cfg.words.cinc .. "'s attempt (" .. R.sc .. ")")
    end
  end
  umpire.record("sc_activation", rec)
  -- Those not activated act on their own initiative (FLD-D27: they roll for it).
  for _, g in ipairs(commanders.mtus(side)) do
    if g.activation ~= "activated" then
      local why = g.activation == "failed" and "failed activation" or "not tried"
      if cfg.idle() == "roll" then
        lines[#lines + 1] = orders.sc_own_initiative(ctx, cfg, g, why)
      else
        if g.oi_result ~= "" then g:set("oi_result", "", "keeps his orders (option idle_subcommanders)") end
        lines[#lines + 1] = g.id .. " (" .. why .. ") keeps his orders " .. g.orders:upper() ..
          " (option idle_subcommanders keep_orders)"
      end
    end
  end
  return lines
end

-- Parses the Stage 2 attempt: unit ids of the command, `a+b+c` for a linked group, `all`
-- for every unit not yet rolled for, `none`. Returns a list of groups of units.
local function parse_units(cfg, g, text)
  local words = util.words(text)
  local out, seen = {}, {}
  -- Units activated without a roll (UL 6: the commander's own unit) are not counted.
  local auto = {}
  if cfg.auto_activated then
    for _, u in ipairs(commanders.units(g)) do
      local yes, why = cfg.auto_activated(u, g)
      if yes then auto[u.id] = why end
    end
  end
  local function take(id)
    local u = umpire.unit(id)
    if util.is_figure(u) then
      umpire.fail("activate " .. g.id .. ": " .. u.id .. " is a commander figure, not a Tactical Unit")
    end
    if u.command ~= g.id then
      umpire.fail("activate " .. g.id .. ": " .. u.id .. " is in " .. u.command .. ", not " .. g.id ..
        "; a sub-commander activates only his own units (" .. cfg.rules.tu .. ")")
    end
    if seen[u.id] then umpire.fail("activate " .. g.id .. ": " .. u.id .. " is named twice") end
    if auto[u.id] then umpire.fail("activate " .. g.id .. ": " .. u.id .. " needs no roll: " .. auto[u.id]) end
    seen[u.id] = true
    return u
  end
  for id, why in pairs(auto) do
    local u = umpire.unit(id)
    if not u:has("activated") then u:mark("activated", why, "round") end
  end
  if #words == 1 and words[1]:lower() == "none" then return out end
  if #words == 1 and words[1]:lower() == "all" then
    for _, u in ipairs(commanders.units(g)) do
      if not auto[u.id] and not u:has("activated") and not u:has("own_initiative") then out[#out + 1] = { take(u.id) } end
    end
    return out
  end
  if #words == 0 then
    umpire.fail("activate " .. g.id .. ": name the units to try (`+` joins a linked group: a+b), or `all`, or `none`")
  end
  for _, w in ipairs(words) do
    local grp = {}
    for id in w:gmatch("[^+]+") do grp[#grp + 1] = take(id) end
    out[#out + 1] = grp
  end
  return out
end

-- Stage 2 for one sub-commander (FLD 21). Returns the output lines.
function M.activate_units(ctx, cfg, g, text)
  local R = cfg.rules
  local groups = parse_units(cfg, g, text)
  for _, grp in ipairs(groups) do
    for _, u in ipairs(grp) do
      if u:has("activated") or u:has("own_initiative") then
        umpire.fail("activate " .. g.id .. ": " .. u.id .. " was already rolled for this turn (" ..
          (u:has("activated") and "activated" or "on its own initiative") .. "); activation is once a turn (" .. R.tu .. ")")
      end
    end
  end
  local lines = {}
  local tried = {}
  local rec = {}
  if #groups > 0 then
    local flags = {}
    for _, grp in ipairs(groups) do
      for _, u in ipairs(grp) do flags[#flags + 1] = commanders.irregular_unit(u) end
    end
    local irr, nirr = cfg.unit_labels(g, flags)
    -- cfg.auto_counted (UL-D27 alternative): units activated without a roll still count in
    -- the number tried.
    local counted = #groups
    if cfg.auto_activated and util.value(cfg.auto_counted) then
      for _, u in ipairs(commanders.units(g)) do
        if cfg.auto_activated(u, g) then counted = counted + 1 end
      end
    end
    local base, blabel = M.base(cfg.cells, g.sc_rating, counted, irr, cfg.columns())
    local one = nil
    if base ~= "no" and cfg.rolls() == "one_roll" then
      local c = ctx:check("Unit activation " .. R.tu .. ": one roll for " .. g.id .. "'s set")
      one = c:roll("1d6", "activation d6 for the set", R.tu .. "; FLD-D19", g)
      c:result(tostring(one))
    end
    for _, grp in ipairs(groups) do
      local names = util.ids(grp, "+")
      local title = "Unit activation " .. R.tu .. ": " .. names .. (#grp > 1 and " (linked group)" or "") ..
        " by " .. commanders.sc_label(g)
      local ok
      if base == "no" then
        local c = ctx:check(title)
        c:add(0, "command control table: " .. blabel .. ": no" .. note(cfg), R.table)
        c:result("cannot be activated")
        ok = false
      else
        local parts = { { base, "command control table, sub-commander " .. blabel .. "; " .. nirr ..
          " irregular" .. (#groups > 1 and (" of " .. #flags .. " units") or "") .. note(cfg), R.table } }
        if #grp > 1 then
          local red = cfg.link_reduction(#grp)
          if red ~= 0 then parts[#parts + 1] = { -red, "a linked group of " .. #grp .. " units", R.link } end
        end
        local need, d
        ok, need, d = attempt(ctx, cfg, title, R.tu, parts, grp[1], one, { stage = "unit", commander = g, units = grp })
        rec[#rec + 1] = { units = util.ids(grp, "+"), die = d, need = need, activated = ok, placeholder = cfg.table_placeholder and true or nil }
      end
      if base == "no" then rec[#rec + 1] = { units = util.ids(grp, "+"), need = "no", activated = false, placeholder = cfg.table_placeholder and true or nil } end
      -- The marks say what each unit may do: the units marked alike for one reason are one
      -- line under the command (`pikes, bows marked activated … — activated by …`).
      for _, u in ipairs(grp) do
        tried[u.id] = true
        if ok then
          u:mark("activated", "activated by " .. g.id .. ": free choice of Tactical Action (" ..
            R.tu .. ")", "round")
        else
          u:mark("own_initiative", "failed activation: own initiative this turn, `tuinit` each " ..
            "phase (" .. R.tu_own .. ")", "round")
        end
      end
    end
  end
  umpire.record("unit_activation", rec)
  local idle = {}
  for _, u in ipairs(commanders.units(g)) do
    if not tried[u.id] and not u:has("activated") and not u:has("own_initiative") then
      u:mark("own_initiative", "not tried: own initiative this turn, `tuinit` each phase (" ..
        R.tu_own .. ")", "round")
      idle[#idle + 1] = u.id
    end
  end
  return lines
end

-- The Stage 2 attempt to make next, as a command line the shell offers at its prompt (the
-- umpire accepts it with Enter or edits it): the first sub-commander, side by side in wing
-- order, with units not yet rolled for this turn, trying them all. nil when none is left.
function M.propose()
  for _, side in ipairs(umpire.sides()) do
    for _, g in ipairs(commanders.mtus(side)) do
      for _, u in ipairs(commanders.units(g)) do
        if not u:has("activated") and not u:has("own_initiative") then
          return "activate " .. g.id .. " all"
        end
      end
    end
  end
  return nil
end

function M.register(cfg)
  local R = cfg.rules
  M.declare_tables(cfg.table_name, cfg.cells)

  umpire.command {
    name = "scactivate",
    help = "Stage 1 (" .. R.sc .. "): the " .. cfg.words.cinc .. " tries to activate the sub-commanders named, each\n" ..
      "followed by his distance from the " .. cfg.words.cinc .. " (" .. cfg.example_distance .. "), `blocked` if terrain blocks\n" ..
      "the line, and the order to change to; one d6 each against the command control table\n" ..
      "(" .. R.table .. ") plus modifiers. The rest act on their own initiative (`scinit`, rolled here)\n" ..
      "e.g. `scactivate red left 18\" attack centre 8\" right 30\" blocked`; `scactivate red none`",
    args = {
      { name = "side", type = "side", help = "the side whose " .. cfg.words.cinc .. " issues orders" },
      { name = "attempt", type = "text", optional = true, help = "SC DISTANCE [blocked] [ORDER] … or none" },
    },
    run = function(ctx, args)
      local c = umpire.clock()
      if c.phase ~= "orders" then
        print("note: sub-commanders are activated in Stage 1, the `orders` step; the clock is at " .. c.text .. " (" .. R.turn .. ")")
      end
      local s = args.side
      local already = 0
      for _, g in ipairs(commanders.mtus(s.id)) do if g.activation ~= "none" then already = already + 1 end end
      if already > 0 then
        umpire.fail("scactivate " .. s.id .. ": already rolled this turn (one throw per sub-commander per issue of " ..
          "orders, " .. R.sc .. "); `undo` it to roll again")
      end
      return table.concat(M.activate_scs(ctx, cfg, s.id, args.attempt or "none"), "\n")
    end,
  }

  umpire.command {
    name = "activate",
    help = "Stage 2 (" .. R.tu .. "): a sub-commander tries to activate the units named (`a+b` is a linked\n" ..
      "group: one unit, " .. cfg.link_text .. "), or `all`; one d6 each against the command control table\n" ..
      "(" .. R.table .. "). Activated units get the `activated` marker for the turn, the rest `own_initiative`\n" ..
      "e.g. `activate left spears1 spears2 bows1+bows2`; `activate left all`; `activate left none`",
    args = {
      { name = "command", type = "group", help = "the sub-commander's command" },
      { name = "units", type = "units", values = { "all", "none" },
        help = "UNIT … (a+b: linked group), all, or none: each id checked and completed" },
    },
    run = function(ctx, args)
      local c = umpire.clock()
      if c.phase ~= "activation" then
        print("note: units are activated in Stage 2, the `activation` step; the clock is at " .. c.text .. " (" .. R.turn .. ")")
      end
      if args.command.role ~= "mtu" then
        umpire.fail("activate: " .. args.command.id .. " is a staff command, not a sub-commander's (`sc " .. args.command.id .. " mtu` makes it one)")
      end
      local lines = M.activate_units(ctx, cfg, args.command, args.units)
      -- The shell offers the next sub-commander's attempt at its prompt (rulesets/README.md).
      local next_attempt = M.propose()
      if next_attempt then umpire.record("propose", next_attempt) end
      return table.concat(lines, "\n")
    end,
  }
end

return M
