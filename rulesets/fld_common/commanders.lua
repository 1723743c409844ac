-- The chain of command shared by FLD and Undying Lands: one C-in-C (UL: the General) per side,
-- sub-commanders who each lead a Major Tactical Unit (a command of the game: a battle, wing or
-- legio), and the Tactical Units in it.
--
-- Where it is kept (schema fields the ruleset declares; see rulesets/fld/schema.lua):
--   side:    cinc_name, cinc_rating (1-6), cinc_with (the unit the C-in-C figure has joined)
--   command: role ("mtu" for a sub-commander's command, "staff" for one that is not an MTU,
--            such as the C-in-C's escort), sc_name, sc_rating (1-6), sc_discipline, ally,
--            wing (its place in the line, left to right, for "as left or right"), sc_with,
--            orders, activation, oi_result, ti, demoralised
-- Troops' discipline is the unit attribute `discipline` ("regular"/"irregular"), declared by
-- the units' part of the ruleset; a unit without it counts as regular.
local util = require "fld_common.util"

local M = {}

-- Whether a unit is irregular (a unit without a `discipline` attribute is regular).
function M.irregular_unit(u)
  if tostring(util.attr(u, "type", "")):lower() == "behemoth" then return true end   -- FLD 1: always
  return tostring(util.attr(u, "discipline", "regular")):lower():sub(1, 3) == "irr"
end

-- Keeps the units' own record of a commander figure (the attribute `commander`: none, sub,
-- cinc, where the units' part declares it) in step with `cinc_with` / `sc_with`.
local function sync_figure(old_id, new_id, value, reason)
  if old_id ~= "" and old_id ~= new_id then
    local ok, u = pcall(umpire.unit, old_id)
    if ok and util.attr(u, "commander", nil) == value then u:set("commander", "none", reason) end
  end
  if new_id ~= "" then
    local u = umpire.unit(new_id)
    local cur = util.attr(u, "commander", nil)
    if cur ~= nil and cur ~= value and not (value == "sub" and cur == "cinc") then
      u:set("commander", value, reason)
    end
  end
end

-- Whether the units' part has commander figures (util.is_figure: `type` commander); cfg.figures
-- = false says its unit types include none (UL), and M.register reads it.
local figures = true

-- The troops of a command (its units still in the game): all but the commander figures. Where
-- there are none, the units are not read one by one (victory's handlers ask on every loss).
function M.units(g)
  if not figures then return util.units_of(g.id) end
  local out = {}
  for _, u in ipairs(util.units_of(g.id)) do
    if not util.is_figure(u) then out[#out + 1] = u end
  end
  return out
end

-- A commander figure named in `cinc … figure UNIT` or `sc … figure UNIT`: its rating and name.
local function figure(id, side, what)
  local u = umpire.unit(id)
  if not util.is_figure(u) then
    umpire.fail(what .. " figure " .. u.id .. ": " .. u.name .. " is not a commander figure (type=commander)")
  end
  if u.side ~= side then umpire.fail(what .. " figure " .. u.id .. ": it is on " .. u.side .. "'s side, not " .. side .. "'s") end
  return u, util.attr(u, "rating", 0), (u.name:gsub(" %[[^%]]*%]$", ""))
end

-- How many of the command's units are irregular, and how many units it has.
function M.irregular_count(g)
  local n, irr = 0, 0
  for _, u in ipairs(M.units(g)) do
    n = n + 1
    if M.irregular_unit(u) then irr = irr + 1 end
  end
  return irr, n
end

-- A sub-commander's name for breakdowns: "left (Duke Ulric, rating 3)".
function M.sc_label(g)
  local name = util.attr(g, "sc_name", "")
  return g.id .. " (" .. (name ~= "" and (name .. ", ") or "") .. "rating " .. g.sc_rating .. ")"
end

function M.cinc_label(side, word)
  local s = umpire.side(side)
  local name = util.attr(s, "cinc_name", "")
  return (name ~= "" and name or (s.id .. "'s " .. (word or "C-in-C"))) .. ", rating " .. s.cinc_rating
end

-- Whether a sub-commander goes by the irregular own-initiative table (FLD 19, UL 12): he is
-- irregular himself, or so is any of his troops. Returns the answer and why.
function M.irregular_sc(g)
  if g.sc_discipline == "irregular" then return true, "the sub-commander is irregular" end
  local irr = M.irregular_count(g)
  if irr > 0 then return true, irr .. " of his units irregular" end
  return false, "he and all his units are regular"
end

-- The sub-commanders (MTU commands) of a side, sorted by `wing` (unnumbered ones last, in
-- the order their units appear).
function M.mtus(side)
  local list = util.commands(side, "mtu")
  local pos = {}
  for i, g in ipairs(list) do pos[g.id] = i end
  table.sort(list, function(a, b)
    local wa, wb = a.wing, b.wing
    if wa == 0 then wa = 1000 + pos[a.id] end
    if wb == 0 then wb = 1000 + pos[b.id] end
    return wa < wb
  end)
  return list
end

-- The neighbouring sub-commanders to the left and right of `g` by their `wing` numbers
-- (nil where there is none). `known` is false when `g` has no wing number.
function M.neighbours(g)
  if g.wing == 0 then return nil, nil, false end
  local left, right
  for _, o in ipairs(util.commands(g.side, "mtu")) do
    if o.id ~= g.id and o.wing ~= 0 then
      if o.wing < g.wing and (left == nil or o.wing > left.wing) then left = o end
      if o.wing > g.wing and (right == nil or o.wing < right.wing) then right = o end
    end
  end
  return left, right, true
end

-- Which commanders are with a unit (FLD 31.2 morale modifiers read this): `{ sc = bool,
-- cinc = bool }`, from the side's `cinc_with` and the commands' `sc_with`.
function M.with_unit(u)
  local out = { sc = false, cinc = false }
  if util.attr(umpire.side(u.side), "cinc_with", "") == u.id then out.cinc = true end
  for _, g in ipairs(util.commands(u.side)) do
    if util.attr(g, "sc_with", "") == u.id then out.sc = true end
  end
  return out
end

-- Registers `cinc`, `sc` and `commanders` with the ruleset's configuration `cfg` (see
-- rulesets/fld/command.lua): cfg.rules.commanders (the rule reference), cfg.orders (names).
function M.register(cfg)
  figures = cfg.figures ~= false
  local R = cfg.rules
  local chief = cfg.words.cinc            -- "C-in-C" (UL: "General")

  umpire.command {
    name = "cinc",
    help = "name a side's " .. chief .. " and give his rating 1-6 (" .. R.commanders .. "); `with UNIT`\n" ..
      "if his figure has joined a unit, `alone` if it acts on its own; without RATING, shows him\n" ..
      "`figure UNIT` takes the rating and name of his commander figure (a unit of type=commander)\n" ..
      "e.g. `cinc red 4 with guard Duke Ulric`, `cinc light figure warden`",
    args = {
      { name = "side", type = "side", help = "the side" },
      { name = "rating", type = "int", optional = true, help = "Commander Rating, 1 to 6" },
      { name = "rest", type = "text", optional = true, help = "[figure UNIT] [with UNIT | alone] [NAME]" },
    },
    run = function(ctx, args)
      local s = args.side
      if args.rating then
        if args.rating < 1 or args.rating > 6 then
          umpire.fail("cinc " .. s.id .. ": a Commander Rating is 1 to 6, not " .. args.rating .. " (" .. R.commanders .. ")")
        end
        if s.cinc_rating ~= args.rating then
          s:set("cinc_rating", args.rating, chief .. "'s Commander Rating (" .. R.commanders .. ")")
        end
      end
      local w = util.words(args.rest)
      local i = 1
      if w[1] == "figure" then
        if not w[2] then umpire.fail("cinc " .. s.id .. " figure: name his figure's unit, e.g. `figure warden`") end
        local f, r, fname = figure(w[2], s.id, "cinc " .. s.id)
        if r >= 1 and r <= 6 and s.cinc_rating ~= r and not args.rating then
          s:set("cinc_rating", r, "the rating of his figure " .. f.id .. " (" .. R.commanders .. ")")
        end
        if s.cinc_name ~= fname then s:set("cinc_name", fname, "his figure " .. f.id) end
        table.remove(w, 1); table.remove(w, 1)
      end
      if w[1] == "with" then
        if not w[2] then umpire.fail("cinc " .. s.id .. " with: name the unit his figure joins, e.g. `with guard`") end
        local u = umpire.unit(w[2])
        if u.side ~= s.id then umpire.fail(u.id .. " is on " .. u.side .. "'s side, not " .. s.id .. "'s") end
        if s.cinc_with ~= u.id then
          sync_figure(s.cinc_with, u.id, "cinc", chief .. " joins " .. u.name .. " (" .. R.commanders .. ")")
          s:set("cinc_with", u.id, chief .. " joins " .. u.name .. " (" .. R.commanders .. ")")
        end
        i = 3
      elseif w[1] == "alone" then
        if s.cinc_with ~= "" then
          sync_figure(s.cinc_with, "", "cinc", chief .. " acts alone (" .. R.commanders .. ")")
          s:set("cinc_with", "", chief .. " acts alone (" .. R.commanders .. ")")
        end
        i = 2
      end
      local name = table.concat(w, " ", i)
      if name ~= "" and name ~= s.cinc_name then s:set("cinc_name", name, chief .. "'s name") end
      return s.id .. ": " .. M.cinc_label(s.id, chief) ..
        (s.cinc_with ~= "" and (", with " .. s.cinc_with) or ", acting alone") .. " (" .. R.commanders .. ")"
    end,
  }

  umpire.command {
    name = "sc",
    help = "set up a sub-commander: his command (Major Tactical Unit), rating 1-6 and, in any\n" ..
      "order: regular|irregular, ally|own (FLD: an ally is +1 to activate), wing N (his place\n" ..
      "in the line, 1 = leftmost, for `as left or right`), with UNIT|alone, staff|mtu (staff:\n" ..
      "a command that is not a Major Tactical Unit), figure UNIT (his commander figure's\n" ..
      "rating and name), name NAME (the rest of the line)\n" ..
      "e.g. `sc left 3 irregular wing 1 with warband1 name Gorbag`",
    args = {
      { name = "command", type = "group", help = "the sub-commander's command" },
      { name = "rating", type = "int", optional = true, help = "Commander Rating, 1 to 6" },
      { name = "rest", type = "text", optional = true, help = "regular|irregular ally|own wing N with UNIT name NAME" },
    },
    run = function(ctx, args)
      local g = args.command
      local why = " (" .. R.commanders .. ")"
      if args.rating then
        if args.rating < 1 or args.rating > 6 then
          umpire.fail("sc " .. g.id .. ": a Commander Rating is 1 to 6, not " .. args.rating .. why)
        end
        if g.sc_rating ~= args.rating then g:set("sc_rating", args.rating, "sub-commander's rating" .. why) end
      end
      local w = util.words(args.rest)
      local i = 1
      while i <= #w do
        local k = w[i]:lower()
        if k == "regular" or k == "irregular" then
          if g.sc_discipline ~= k then g:set("sc_discipline", k, "the sub-commander is " .. k .. why) end
        elseif k == "ally" or k == "own" then
          if not cfg.ally_modifier and k == "ally" then
            umpire.fail("sc " .. g.id .. ": " .. cfg.name .. " has no allied sub-commanders' modifier")
          end
          if g.ally ~= (k == "ally") then g:set("ally", k == "ally", k == "ally" and "an allied contingent" or "not an ally") end
        elseif k == "staff" or k == "mtu" then
          if g.role ~= k then
            g:set("role", k, k == "mtu" and "a Major Tactical Unit" or "not a Major Tactical Unit: not activated or counted" .. why)
          end
        elseif k == "wing" then
          local n = tonumber(w[i + 1] or "")
          if not n or n < 1 or n ~= math.floor(n) then
            umpire.fail("sc " .. g.id .. " wing: give his place in the line as a whole number, 1 = leftmost, e.g. `wing 2`")
          end
          if g.wing ~= n then g:set("wing", n, "place in the line, from the left") end
          i = i + 1
        elseif k == "with" then
          local id = w[i + 1]
          if not id then umpire.fail("sc " .. g.id .. " with: name the unit his figure joins, e.g. `with " .. g.id .. "1`") end
          local u = umpire.unit(id)
          if u.side ~= g.side then umpire.fail(u.id .. " is on " .. u.side .. "'s side, not " .. g.side .. "'s") end
          if g.sc_with ~= u.id then
            sync_figure(g.sc_with, u.id, "sub", "the sub-commander joins " .. u.name .. why)
            g:set("sc_with", u.id, "the sub-commander joins " .. u.name .. why)
          end
          i = i + 1
        elseif k == "alone" then
          if g.sc_with ~= "" then
            sync_figure(g.sc_with, "", "sub", "the sub-commander acts alone" .. why)
            g:set("sc_with", "", "the sub-commander acts alone" .. why)
          end
        elseif k == "figure" then
          if not w[i + 1] then umpire.fail("sc " .. g.id .. " figure: name his figure's unit, e.g. `figure marshal`") end
          local f, r, fname = figure(w[i + 1], g.side, "sc " .. g.id)
          if r >= 1 and r <= 6 and g.sc_rating ~= r and not args.rating then
            g:set("sc_rating", r, "the rating of his figure " .. f.id .. why)
          end
          if g.sc_name ~= fname then g:set("sc_name", fname, "his figure " .. f.id) end
          i = i + 1
        elseif k == "name" then
          local name = table.concat(w, " ", i + 1)
          if name == "" then umpire.fail("sc " .. g.id .. " name: give the name after `name`") end
          if g.sc_name ~= name then g:set("sc_name", name, "the sub-commander's name") end
          break
        else
          umpire.fail("sc " .. g.id .. ": `" .. w[i] .. "` is not understood; give regular|irregular, " ..
            "ally|own, wing N, with UNIT|alone, staff|mtu, figure UNIT or name NAME")
        end
        i = i + 1
      end
      local irr, n = M.irregular_count(g)
      return g.id .. ": " .. M.sc_label(g) .. ", " .. g.sc_discipline .. (g.ally and ", ally" or "") ..
        (g.wing > 0 and (", wing " .. g.wing) or "") .. (g.role == "staff" and ", staff (not an MTU)" or "") ..
        "; " .. n .. " unit" .. (n == 1 and "" or "s") .. " (" .. irr .. " irregular); orders " .. g.orders
    end,
  }

  umpire.command {
    name = "commanders",
    help = "the chain of command: each side's " .. chief .. " and sub-commanders with ratings,\n" ..
      "orders, activation this turn, tactical initiative and units (" .. R.commanders .. ")\n" ..
      "e.g. `commanders` or `commanders red`",
    args = { { name = "side", type = "side", optional = true } },
    run = function(ctx, args)
      local lines = {}
      local sides = args.side and { args.side.id } or umpire.sides()
      for _, side in ipairs(sides) do
        local s = umpire.side(side)
        lines[#lines + 1] = side .. ": " .. chief .. " " .. M.cinc_label(side, chief) ..
          (s.cinc_with ~= "" and (", with " .. s.cinc_with) or "")
        for _, g in ipairs(M.mtus(side)) do
          local irr, n = M.irregular_count(g)
          local act, aunits = 0, 0
          for _, u in ipairs(M.units(g)) do
            if u:has("activated") then act = act + 1 end
            if u:has("own_initiative") then aunits = aunits + 1 end
          end
          lines[#lines + 1] = string.format("  %s: %s%s%s; orders %s; %s%s; TI %s; units %d (%d irregular): %d activated, %d own initiative%s",
            g.id, M.sc_label(g), g.sc_discipline == "irregular" and ", irregular" or "",
            g.ally and ", ally" or "", g.orders:upper(), g.activation == "none" and "activation not rolled" or g.activation,
            g.oi_result ~= "" and (" (own initiative: " .. g.oi_result .. ")") or "",
            g.ti_rank > 0 and (tostring(g.ti) .. ", acts " .. g.ti_rank .. util.ordinal(g.ti_rank)) or "not rolled",
            n, irr, act, aunits, g.demoralised and "; DEMORALISED" or "")
        end
        for _, g in ipairs(util.commands(side, "staff")) do
          lines[#lines + 1] = "  " .. g.id .. ": staff, not a Major Tactical Unit"
        end
      end
      return table.concat(lines, "\n")
    end,
  }
end

return M
