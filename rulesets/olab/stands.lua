-- Stand strength (2.2.1), the points cost system (2.2.2) and changes of order between
-- duplicate stands (2.2.3-2.2.4).
--
-- The umpire adds stands (`add unit CMD ID NAME type=… quality=…` or `army load FILE`); `sp`
-- then works out their strength from Tables 2 and 3, `pcp` prices them, and `convert` splits
-- a body's SP between its alternative stands, making the new stands it needs
-- (`umpire.create_unit`).
local arg = require "olab.args"
local util = require "olab.util"
local actions = require "olab.actions"

local M = {}

-- The readings of this part the umpire may switch (`option list`, `option set NAME VALUE`).
umpire.option {
  name = "hero_general",
  default = "stack",
  choices = {
    { "stack", "PN: a Hero General gets +1 as a General and +1 as a Hero (Vader's 9)" },
    { "one", "PN: a stand that is both General and Hero gets a single +1" },
  },
  doc = "Table 3 in PN: whether the General and Hero +1 add up",
  rule = "Table 3, 8.8.4; AMB-24",
}
umpire.option {
  name = "dedicated_transport",
  default = "keep_1",
  choices = {
    { "keep_1", "limbers, lorries and the transport pool keep Table 2's SP 1 and cost 1 PCP" },
    { "minimum_2", "every TPT is raised to the 2.2.1 minimum of 2 SP, priced like any stand" },
  },
  doc = "the SP of a dedicated transport (TPT flagged `dedicated`)",
  rule = "2.2.1, 2.2.2; AMB-25",
}
umpire.option {
  name = "loiter_cost",
  default = "whole",
  choices = {
    { "whole", "a loitering transport AIR doubles its whole cost, Table 11 extras included" },
    { "before_extras", "only the cost before the Table 11 armament and sci-fi extras is doubled" },
  },
  doc = "what the loitering transport AIR doubling covers",
  rule = "2.2.2, Table 11; AMB-41",
}
umpire.option {
  name = "torsion_price",
  default = "less_one",
  choices = {
    { "less_one", "torsion ART adds factor 0 and costs 1 less than its SP" },
    { "factor_zero", "torsion ART adds factor 0 and nothing else: it costs its SP" },
  },
  doc = "the points cost of torsion ART, which Table 7 does not list",
  rule = "2.2.2; AMB-43",
}
umpire.option {
  name = "second_gun",
  default = "main_only",
  choices = {
    { "main_only", "an ART or TNK is priced by its main gun (`weapon`) only (AMB-53)" },
    { "both", "a second gun (`weapon2`: the Grant's 37 mm, the AT-ST's second cannon) adds its " ..
      "factor too, a TNK's less 1" },
  },
  doc = "whether a second gun adds its fire factor to the points cost",
  rule = "2.2.2; AMB-53",
}
umpire.option {
  name = "works_frontage",
  default = "rounded",
  choices = {
    { "rounded", "the frontage in 6\" lengths rounded by 1.2 (7\" is one length)" },
    { "started", "every 6\" length begun is paid for (7\" is two lengths)" },
  },
  doc = "how a fortification's or minefield's frontage is counted in 6\" lengths",
  rule = "8.1; AMB-44",
}
umpire.option {
  name = "order_change",
  default = "move_action",
  choices = {
    { "move_action", "a change of order is the new stands' MOVE action" },
    { "no_action", "it uses no action: the umpire takes half a move off their next move" },
  },
  doc = "what a change of order (`convert`) costs",
  rule = "2.2.4; AMB-30",
}

-- A silent stand-in for a check (`brief` listings): the same add/total, nothing printed.
local function tally()
  local t = { sum = 0, items = {} }
  function t:add(v, label) self.sum = self.sum + v; self.items[#self.items + 1] = { v, label } end
  function t:total() return self.sum end
  function t:result() end
  return t
end

local function lookup(name, key)
  return util.ed(umpire.lookup(name, key))
end

-- The Table 2 key of a stand: its code, or "TNK <armour>" for tanks.
local function base_key(u)
  if u.type == "TNK" then
    if u.armour == "none" then
      umpire.fail(u.id .. " is a TNK without an armour class: set armour=light|medium|heavy|super " ..
        "(Table 2)")
    end
    return "TNK " .. u.armour
  end
  return u.type
end

-- The Table 2 and Table 3 steps for a stand, as {value, label, rule} in order.
-- Returns the steps and the raw sum (before the 2-12 limits).
function M.build(u)
  local steps = {}
  local function step(v, label, rule) steps[#steps + 1] = { v, label, rule } end
  local key = base_key(u)
  step(lookup("base_sp", key), "base " .. key, "Table 2")
  if u.quality ~= "trained" then
    step(lookup("quality", u.quality), u.quality, "Table 3")
  end
  if u.magic_user then step(lookup("quality", "magic user"), "magic user", "Table 3, 8.7.3.1") end
  -- The game's `period` (period.lua) decides the post-1906 bonus for every stand alike.
  if (u.type == "SKI/F" or u.type == "SKI/S") and util.after(1906) then
    step(2, u.type .. (util.scifi() and " in sci-fi" or " after c.1906 (period " .. util.year() .. ")"),
      "Table 3")
  end
  if u.general ~= "none" then step(1, "General", "Table 3") end
  if u.hero then
    local v = lookup("quality", "Hero")
    if v ~= 0 and u.general ~= "none" and umpire.option("hero_general") == "one" then
      step(0, "Hero: no second +1 for a Hero General (option hero_general one)",
        "Table 3, 8.8.4; AMB-24")
    elseif v ~= 0 then
      step(v, "Hero", "Table 3, 8.8.4; AMB-24")
    end
  end
  if u.elephant and u.type == "PKE" then step(-1, "elephant PKE", "Table 3") end
  if u.trait ~= 0 then step(u.trait, "agreed trait", "Table 3") end
  local raw = 0
  for _, s in ipairs(steps) do raw = raw + s[1] end
  return steps, raw
end

-- A dedicated transport keeps its Table 2 value of 1 (AMB-25).
local function keeps_one(u)
  return u.type == "TPT" and u.dedicated and umpire.option("dedicated_transport") == "keep_1"
end
local function floor_of(u)
  if keeps_one(u) then return 1 end
  return 2
end

-- The SP a stand gets at creation: the raw sum held within 2-12 (2.2.1).
function M.sp_of(u)
  local _, raw = M.build(u)
  return util.clamp(raw, floor_of(u), 12), raw
end

-- Adds the build of `u` to check `c` and the limits; returns the SP.
local function show_build(c, u)
  local steps, raw = M.build(u)
  for _, s in ipairs(steps) do c:add(s[1], s[2], s[3]) end
  local lo = floor_of(u)
  local sp = util.clamp(raw, lo, 12)
  if sp ~= raw then
    local why = sp > raw and ("minimum " .. lo) or "maximum 12"
    if lo == 1 and sp > raw then why = "dedicated transport minimum 1 (AMB-25)" end
    if lo == 2 and u.type == "TPT" and u.dedicated then
      why = "minimum 2, dedicated transport too (option dedicated_transport minimum_2)"
    end
    c:add(sp - raw, why, "2.2.1")
  end
  return sp, raw
end

umpire.command {
  name = "sp",
  help = "work out stands' strength from Table 2 and Table 3, step by step (2.2.1)\n" ..
    "add `apply` to set sp and sp_start; without it the roster is only compared",
  args = {
    { name = "units", type = "selector", help = "which stands, e.g. leg1 or side:romans" },
    { name = "apply", type = "flag", help = "set sp and sp_start to the result" },
    { name = "brief", type = "flag", help = "one line per stand, no breakdowns" },
  },
  run = function(ctx, args)
    local lines, rec = {}, {}
    for _, u in ipairs(args.units) do
      local c = args.brief and tally() or ctx:check("Strength 2.2.1: " .. u.name)
      local sp, raw = show_build(c, u)
      rec[#rec + 1] = { id = u.id, sp = sp, raw = raw, roster = u.sp_start }
      if args.apply then
        c:result("SP " .. sp)
        local reason = "Table 2 and Table 3 (2.2.1)"
        if u.sp_start ~= sp then u:set("sp_start", sp, reason) end
        if u.sp ~= sp then u:set("sp", sp, reason) end
        lines[#lines + 1] = u.id .. ": SP " .. sp
      elseif u.sp_start == sp then
        c:result("SP " .. sp .. ", as on the roster")
        lines[#lines + 1] = u.id .. ": SP " .. sp .. " (roster agrees)"
      else
        c:result("SP " .. sp .. "; the roster has " .. u.sp_start)
        lines[#lines + 1] = u.id .. ": SP " .. sp .. " by the tables, roster " .. u.sp_start ..
          " (`sp " .. u.id .. " apply` to change it)"
      end
    end
    -- For programs (docs/json.md): each stand's SP by the tables, before the 2-12 limits, and
    -- on the roster.
    umpire.record("sp", rec)
    return table.concat(lines, "\n")
  end,
}

-- The Table 7 factor of a weapon class for pricing, or nil if it has none listed.
local function weapon_factor(key)
  if key == nil or key == "" then return nil end
  local ok, v = pcall(function() return umpire.lookup("pcp_weapon", key) end)
  if ok then return v end
  return nil
end

local function has_guided(u)
  for _, w in ipairs({ u.weapon, u.weapon2 }) do
    if w == "atgw" or w == "aagw" then return true end
  end
  return false
end

M.tally = tally

-- Adds the 2.2.2 price of `u` to check `c`; returns the PCP.
function M.price(c, u)
  local sp, raw = M.sp_of(u)
  if keeps_one(u) then
    c:add(1, "dedicated transport, as Table 2", "2.2.2; AMB-25")
  elseif sp == u.sp_start then
    -- The tables' value, with only the minimum applied: SP over 12 still cost (2.2.2).
    c:add(math.max(2, raw), "SP by Tables 2-3" .. (raw > 12 and " (no maximum for PCP)" or ""),
      "2.2.2")
  else
    c:add(u.sp_start, "roster SP (the tables give " .. sp .. ")", "2.2.2")
  end
  if u.type == "ART" then
    local f = weapon_factor(u.weapon)
    if f then
      c:add(f, "fire factor of " .. u.weapon, "2.2.2, Table 7")
    else
      c:add(0, "fire factor: no weapon class set (weapon=KEY)", "2.2.2")
    end
    if u.weapon == "torsion_art" then
      if umpire.option("torsion_price") == "less_one" then
        c:add(-1, "torsion ART", "2.2.2; AMB-43")
      else
        c:add(0, "torsion ART: nothing off (option torsion_price factor_zero)", "2.2.2; AMB-43")
      end
    end
  elseif u.type == "TNK" then
    local f = weapon_factor(u.weapon)
    if f then
      c:add(math.max(0, f - 1), "gun as " .. u.weapon .. " ART, less 1 for TNK", "2.2.2, 5.2.1")
    end
  end
  -- A second gun (AMB-53): priced only with option `second_gun both`.
  if (u.type == "ART" or u.type == "TNK") and weapon_factor(u.weapon2) then
    local f2 = weapon_factor(u.weapon2)
    if u.type == "TNK" then f2 = math.max(0, f2 - 1) end
    if umpire.option("second_gun") == "both" then
      c:add(f2, "second gun " .. u.weapon2 .. (u.type == "TNK" and " as ART, less 1 for TNK" or "") ..
        " (option second_gun both)", "2.2.2; AMB-53")
    else
      c:add(0, "second gun " .. u.weapon2 .. ": not priced, the main gun only", "2.2.2; AMB-53")
    end
  end
  if u.type == "SKI/S" then c:add(1, "SKI/S", "2.2.2") end
  if (u.type == "SKI/F" or u.type == "SKI/S") and has_guided(u) then
    c:add(1, "ATGW/AAGW", "2.2.2")
  end
  if u.magic_user then c:add(20, "magic user", "8.7.3.1") end
  if u.type == "AIR" then
    local before_extras = c:total()
    if u.loiter and umpire.option("loiter_cost") == "before_extras" then
      c:add(before_extras, "transport AIR able to loiter: doubled before the Table 11 extras " ..
        "(option loiter_cost before_extras)", "2.2.2; AMB-41")
    end
    local arm = umpire.lookup("pcp_air", u.warload)
    if arm ~= 0 then c:add(arm, "armament: " .. u.warload, "Table 11") end
    if u.scifi then c:add(5, "sci-fi warload", "Table 11") end
    if u.loiter and umpire.option("loiter_cost") == "whole" then
      c:add(c:total(), "transport AIR able to loiter: doubled", "2.2.2; AMB-41")
    end
  end
  return c:total()
end

-- Splits `total` SP over `n` stands as evenly as possible; odd points go to the middle
-- stands first (10 over 3 gives 3, 4, 3 as in the Borsetshire example, 2.2.3).
function M.split(total, n)
  local base, extra = total // n, total % n
  local out = {}
  for i = 1, n do out[i] = base end
  local order = {}
  for i = 1, n do order[i] = i end
  local mid = (n + 1) / 2
  table.sort(order, function(a, b)
    local da, db = math.abs(a - mid), math.abs(b - mid)
    if da ~= db then return da < db end
    return a < b
  end)
  for k = 1, extra do out[order[k]] = out[order[k]] + 1 end
  return out
end

-- Reads a `sabot` text, "N TYPE" or "N TYPE SP": the body's alternative stands.
local function parse_sabot(text, id)
  local n, code, sp = text:match("^%s*(%d+)%s+(%S+)%s*(%d*)%s*$")
  if not n then
    umpire.fail(id .. ": sabot must read like \"3 SKI/F\" or \"3 SKI/F 4\", not \"" .. text .. "\"")
  end
  return tonumber(n), code:upper(), tonumber(sp)
end

-- Price of the alternative set: each stand its SP, SKI/S +1 (2.2.2).
local function alt_cost(n, code, sp_each, total)
  local sps = sp_each and {} or M.split(total, n)
  local sum = 0
  for i = 1, n do
    local sp = sp_each or sps[i]
    sum = sum + math.max(floor_of({ type = code }), sp) + (code == "SKI/S" and 1 or 0)
  end
  return sum, sps
end

umpire.command {
  name = "pcp",
  help = "points cost of stands and of each side (2.2.2): SP, ART/TNK fire factors, SKI/S,\n" ..
    "ATGW/AAGW, torsion, magic users, AIR armament, loiter doubling; bodies with a `sabot`\n" ..
    "alternative are averaged (duplicates). `apply` stores each stand's price in `pcp`",
  args = {
    { name = "units", type = "selector", help = "which stands, e.g. side:romans or all" },
    { name = "apply", type = "flag", help = "store each stand's price in its pcp attribute" },
    { name = "brief", type = "flag", help = "one line per stand, no breakdowns" },
  },
  run = function(ctx, args)
    local per_unit, bodies, body_order = {}, {}, {}
    local sides, side_order = {}, {}
    for _, u in ipairs(args.units) do
      local c = args.brief and tally() or ctx:check("Points cost 2.2.2: " .. u.name)
      local p = M.price(c, u)
      c:result(p .. " PCP")
      if args.brief then print(string.format("%-14s %-6s %3d PCP", u.id, u.type, p)) end
      per_unit[u.id] = p
      if args.apply and u.pcp ~= p then u:set("pcp", p, "points cost (2.2.2)") end
      if not sides[u.side] then sides[u.side] = 0; side_order[#side_order + 1] = u.side end
      if u.body ~= "" and u.sabot ~= "" then
        local b = bodies[u.body]
        if not b then
          b = { side = u.side, units = {}, sabot = u.sabot, sp = 0 }
          bodies[u.body] = b
          body_order[#body_order + 1] = u.body
        end
        b.units[#b.units + 1] = u
        b.sp = b.sp + u.sp_start
      else
        sides[u.side] = sides[u.side] + p
      end
    end
    -- Duplicates: the body costs the average of its two sets of stands.
    for _, name in ipairs(body_order) do
      local b = bodies[name]
      local n, code, sp_each = parse_sabot(b.sabot, name)
      local c = args.brief and tally() or ctx:check("Duplicates 2.2.2: " .. name)
      local now = 0
      for _, u in ipairs(b.units) do now = now + per_unit[u.id] end
      local alt, sps = alt_cost(n, code, sp_each, b.sp)
      local shown = sp_each and (n .. " x SP " .. sp_each) or table.concat(sps, "+")
      c:add(now, #b.units .. " " .. b.units[1].type .. " as deployed", "2.2.2")
      c:add(alt, n .. " " .. code .. " (" .. shown .. ")", "2.2.2")
      local avg = util.rhu((now + alt) / 2)
      c:add(avg - (now + alt), "averaged", "2.2.2, 1.2")
      c:result(avg .. " PCP")
      if args.brief then print(name .. ": duplicates averaged, " .. avg .. " PCP (2.2.2)") end
      sides[b.side] = sides[b.side] + avg
    end
    -- Fortifications and minefields bought with `works … SIDE`.
    local works = store.works or {}
    for _, s in ipairs(side_order) do
      for _, w in ipairs(works[s] or {}) do
        sides[s] = sides[s] + w.pcp
        print(s .. ": " .. w.kind .. " " .. w.inches .. "\" " .. w.pcp .. " PCP (8.1)")
      end
    end
    local lines = {}
    for _, s in ipairs(side_order) do lines[#lines + 1] = s .. ": " .. sides[s] .. " PCP" end
    -- For programs: each stand's price and each side's total (duplicates averaged, works added).
    umpire.record("pcp", { stands = per_unit, sides = sides })
    return table.concat(lines, "\n")
  end,
}

umpire.command {
  name = "works",
  help = "points cost of fortifications or a minefield by frontage (2.2.2, 8.1; AMB-44)",
  args = {
    { name = "kind", type = "choice", values = { "fieldworks", "castle", "minefield" },
      help = "fieldworks 2 PCP per 6\", castle walls 4, minefield perimeter 2 (AMB-44)" },
    { name = "inches", type = "int", help = "frontage (minefield: perimeter) in inches" },
    { name = "side", type = "selector", optional = true,
      help = "the side that buys them: `pcp` then adds them to its total" },
  },
  run = function(ctx, args)
    if args.inches < 0 then umpire.fail("frontage must be 0 or more inches") end
    local rate = args.kind == "castle" and 4 or 2
    local started = umpire.option("works_frontage") == "started"
    local units = started and math.ceil(args.inches / 6) or util.rhu(args.inches / 6)
    local c = ctx:check("Works 8.1: " .. args.kind)
    c:add(units * rate, units .. " x 6\" at " .. rate .. " PCP" ..
      (started and " (every 6\" begun: option works_frontage started)" or ""),
      (args.kind == "minefield" or started) and "8.1; AMB-44" or "8.1")
    umpire.record("works", { kind = args.kind, inches = args.inches, lengths = units, pcp = c:total() })
    c:result(c:total() .. " PCP")
    if args.side then
      local side = args.side[1].side
      local works = store.works or {}
      local list = works[side] or {}
      list[#list + 1] = { kind = args.kind, inches = args.inches, pcp = c:total() }
      works[side] = list
      store.works = works
      return side .. " buys " .. args.kind .. ": " .. c:total() .. " PCP"
    end
    return args.kind .. ": " .. c:total() .. " PCP"
  end,
}

-- The ids typed as TO: words separated by commas or spaces.
local function id_list(text)
  local out = {}
  for id in text:gmatch("[^,%s]+") do out[#out + 1] = id end
  return out
end

-- The stand `id` if there is one (a sabot set aside earlier), else nil.
local function stand(id)
  local found, u = pcall(umpire.unit, id)
  if found then return u end
  return nil
end

umpire.command {
  name = "convert",
  help = "change order: share the stands' SP between N stands of another type, never adding\n" ..
    "SP (2.2.3, 2.2.4). With TO (N ids), sets their SP and type, puts them on the table and\n" ..
    "the old stands aside (off_table=sabot); an id naming no stand makes a new stand in the\n" ..
    "first old stand's Command, with its quality and body",
  args = {
    { name = "from", type = "selector", help = "the stands changing order, e.g. bor1,bor2" },
    { name = "n", type = "int", help = "how many stands they become" },
    { name = "type", type = "choice", values = util.types, help = "the new stand type" },
    { name = "to", type = "text", optional = true,
      help = "[SPLIT] [IDS]: the player's own split of the SP, e.g. 4+3+3 (default: as even as " ..
        "possible), then the N stands to become: sabots set aside before, or new ids (sk1,sk2,sk3)" },
    { name = "free", type = "flag", help = "no MOVE action (e.g. before play); AMB-30" },
    arg.force("the umpire overrides the action limit (2.1.1)"),
  },
  run = function(ctx, args)
    local from, n = args.from, args.n
    if n < 1 then umpire.fail("convert into at least one stand") end
    local total, start = 0, 0
    for _, u in ipairs(from) do
      if not util.on_table(u) then
        umpire.fail(u.id .. " is not on the table (off_table=" .. u.off_table .. ")")
      end
      total, start = total + u.sp, start + u.sp_start
    end
    if total < n then
      umpire.fail(total .. " SP cannot give each of " .. n .. " stands at least 1 (2.2.4)")
    end
    -- The player's own split, typed first in TO as A+B+C (2.2.3-2.2.4): it must share exactly
    -- the SP there are, at least 1 a stand.
    local words = id_list(args.to or "")
    local own
    if words[1] and words[1]:match("^%d+%+[%d+]*%d$") then
      own = {}
      local sum = 0
      for v in words[1]:gmatch("%d+") do own[#own + 1] = tonumber(v); sum = sum + tonumber(v) end
      table.remove(words, 1)
      if #own ~= n then
        umpire.fail("the split " .. table.concat(own, "+") .. " shares SP between " .. #own ..
          " stands, but the change is into " .. n .. "; give " .. n .. " numbers")
      end
      for _, v in ipairs(own) do
        if v < 1 then
          umpire.fail("every new stand needs at least 1 SP (2.2.4): the split " ..
            table.concat(own, "+") .. " gives one 0")
        end
      end
      if sum ~= total then
        umpire.fail("the split " .. table.concat(own, "+") .. " adds up to " .. sum .. " SP, but " ..
          "the stands have " .. total .. ": a change of order shares the SP there are, no more and " ..
          "no fewer (2.2.3); make it add up to " .. total)
      end
    end
    local sps, starts = M.split(total, n), M.split(math.max(start, n), n)
    if own then
      -- The start values follow the player's split; any SP already lost are shared evenly.
      local extra = M.split(math.max(start - total, 0), n)
      sps, starts = own, {}
      for i = 1, n do starts[i] = own[i] + extra[i] end
    end
    local c = ctx:check("Change of order 2.2.4")
    for _, u in ipairs(from) do c:add(u.sp, u.id .. " " .. u.type, "2.2.3") end
    c:result(n .. " " .. args.type .. ": " .. table.concat(sps, ", ") ..
      (own and " (the player's split)" or " (as even as possible)"))
    local from_ids = {}
    for i, u in ipairs(from) do from_ids[i] = u.id end
    umpire.record("convert", { from = from_ids, type = args.type, total = total, sp = sps,
      sp_start = starts, own_split = own ~= nil })
    if #words == 0 then
      return "split " .. total .. " SP as " .. table.concat(sps, ", ") .. " for " .. n .. " " ..
        args.type .. " (start values " .. table.concat(starts, ", ") .. "); give " .. n ..
        " ids as TO to apply: new ids make new stands, the ids of stands set aside reuse them"
    end
    local ids = words
    if #ids ~= n then
      umpire.fail("TO names " .. #ids .. " stands but the split is into " .. n)
    end
    local reason = "change of order from " .. from[1].type .. " (2.2.4)"
    local first, made = from[1], {}
    local to = {}
    for i, id in ipairs(ids) do
      for _, f in ipairs(from) do
        if f.id == id then umpire.fail(id .. " is in both FROM and TO") end
      end
      for j = 1, i - 1 do
        if ids[j] == id then umpire.fail(id .. " is named twice in TO") end
      end
      local u = stand(id)
      if u == nil then
        -- A new stand of the body, in the Command of the stands it comes from (2.2.4).
        u = umpire.create_unit {
          command = first.command, id = id,
          name = first.bare_name .. " (" .. args.type .. " " .. i .. ")",
          attrs = { type = args.type, quality = first.quality, body = first.body },
          reason = reason,
        }
        made[#made + 1] = id
      end
      to[i] = u
    end
    for i, u in ipairs(to) do
      if u.type ~= args.type then u:set("type", args.type, reason) end
      u:set("sp_start", starts[i], reason)
      u:set("sp", sps[i], reason)
      if u.off_table ~= "no" then u:set("off_table", "no", reason) end
    end
    for _, f in ipairs(from) do f:set("off_table", "sabot", "changed order (2.2.4)") end
    if #made > 0 then
      print("new stands " .. table.concat(made, ", ") .. " in " .. first.command ..
        " (quality " .. first.quality .. "): set any other attribute they need, such as weapon")
    end
    -- A change of order is a manoeuvre costing half a move (AMB-30): the new stands have
    -- used their MOVE action.
    if args.free then
      -- nothing: a change of order before play, say
    elseif umpire.option("order_change") == "move_action" then
      for _, u in ipairs(to) do actions.use(u, "move", args.force) end
      print("the change of order is their MOVE action and costs half a Table 4 move (AMB-30)")
    else
      print("the change of order uses no action; take half a Table 4 move off the new stands' " ..
        "next move (AMB-30; option order_change no_action)")
    end
    return "now " .. n .. " " .. args.type .. ": " .. table.concat(sps, ", ") .. " SP"
  end,
}

-- The Appendix's printed ranges (issue 16): each sample army records, in its side's `appendix`,
-- the entries of its list with their printed counts and SP ("line 7 x 5-6; voltigeurs 1-2 x 5"),
-- and each stand its `entry`. `roster check SIDE` says whether the army is within them.
local function range(text, what, side)
  local lo, hi = text:match("^(%d+)%-(%d+)$")
  if lo then return tonumber(lo), tonumber(hi) end
  local n = text:match("^(%d+)$")
  if n then return tonumber(n), tonumber(n) end
  umpire.fail(side .. ": the appendix " .. what .. " `" .. text .. "` is not a number or a min-max " ..
    "range such as 8-10")
end

function M.appendix(side)
  local text = umpire.side(side).appendix
  local out = {}
  for item in text:gmatch("[^;]+") do
    local key, count, sp = item:match("^%s*(%S+)%s+(%S+)%s+x%s+(%S+)%s*$")
    if not key then
      umpire.fail(side .. ": the appendix entry `" .. item:match("^%s*(.-)%s*$") .. "` should read " ..
        "KEY COUNT x SP, e.g. `warriors 8-10 x 5`")
    end
    local cl, ch = range(count, "count", side)
    local sl, sh = range(sp, "SP", side)
    out[#out + 1] = { key = key, count = { cl, ch }, sp = { sl, sh } }
  end
  return out
end

local function shown(r) return r[1] == r[2] and tostring(r[1]) or (r[1] .. "-" .. r[2]) end

umpire.command {
  name = "roster",
  help = "`roster check SIDE`: whether the side's stands are within the Appendix list's printed\n" ..
    "min-max counts and SP (the side's `appendix`, each stand's `entry`); names each entry out of range",
  args = {
    { name = "mode", type = "choice", values = { "check" }, help = "check against the printed ranges" },
    { name = "side", type = "side", help = "the side, e.g. french" },
  },
  run = function(ctx, args)
    local side = args.side.id
    if umpire.side(side).appendix == "" then
      umpire.fail(side .. " records no Appendix ranges: set its `appendix` attribute (\"KEY COUNT x SP; " ..
        "…\") as the sample armies in examples/olab/ do")
    end
    local entries = M.appendix(side)
    local by_key, counts, bad_sp = {}, {}, {}
    for _, e in ipairs(entries) do by_key[e.key] = e; counts[e.key] = 0; bad_sp[e.key] = {} end
    local strays = {}
    -- Every stand bought counts, on the table or not (eliminated, in reserve, a sabot set aside),
    -- except the stands a change of order made (they carry no entry).
    for _, u in ipairs(umpire.units("side:" .. side)) do
      local e = by_key[u.entry]
      if e then
        counts[u.entry] = counts[u.entry] + 1
        if u.sp_start < e.sp[1] or u.sp_start > e.sp[2] then
          bad_sp[u.entry][#bad_sp[u.entry] + 1] = u.id .. " " .. u.sp_start
        end
      elseif u.entry ~= "" then
        strays[#strays + 1] = u.id .. " (entry `" .. u.entry .. "`)"
      end
    end
    local lines, out, rec = {}, {}, {}
    for _, e in ipairs(entries) do
      local n = counts[e.key]
      local ok = n >= e.count[1] and n <= e.count[2] and #bad_sp[e.key] == 0
      local line = string.format("%-18s %2d stands (printed %s), SP %s%s", e.key, n, shown(e.count),
        shown(e.sp), ok and "" or "  OUT OF RANGE")
      lines[#lines + 1] = line
      if n < e.count[1] or n > e.count[2] then
        out[#out + 1] = e.key .. ": " .. n .. " stands, the list allows " .. shown(e.count)
      end
      if #bad_sp[e.key] > 0 then
        out[#out + 1] = e.key .. ": SP " .. shown(e.sp) .. " printed, but " .. table.concat(bad_sp[e.key], ", ")
      end
      rec[#rec + 1] = { entry = e.key, stands = n, count_min = e.count[1], count_max = e.count[2],
        sp_min = e.sp[1], sp_max = e.sp[2], within = ok }
    end
    for _, s in ipairs(strays) do out[#out + 1] = s .. ": no such entry in the list" end
    umpire.record("roster", { side = side, entries = rec, within = #out == 0 })
    print(table.concat(lines, "\n"))
    if #out == 0 then return side .. " is within the Appendix list's printed ranges" end
    return side .. " is outside the Appendix list's ranges:\n  " .. table.concat(out, "\n  ")
  end,
}

return M
