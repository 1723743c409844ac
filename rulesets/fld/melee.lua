-- TA4 melee (§26): both sides roll their buckets at once, the losses land together, then the
-- combat result (§30: recoil) and the morale checks. Pursuit and breaking off (§28 vi, §31.3).
local D = require "fld.data"
local U = require "fld.util"
local B = require "fld.bucket"
local Mo = require "fld.morale"
local Un = require "fld.units"

local M = {}

-- Is this unit charging (or fanatic charging) for the to-hit factors of this round (FLD-D12)?
-- `marked`: its markers (U.marked).
local function charge_state(u, opt, marked)
  if opt.charge_effects == "whole_melee" then
    local mem = store.charger
    mem = mem and mem[u.id]
    return mem ~= nil, mem and mem.fanatic
  end
  local fanatic = marked.fanatic == true
  return marked.charging == true or fanatic, fanatic
end

-- The chance that one die of a pool needing n succeeds (for choosing the better weapon).
local function p(n)
  return math.max(0, math.min(6, 7 - math.max(1, n))) / 6
end

-- The attributes of each unit the melee always reads (each read once into a plain table):
-- what the losses, coming last, do not change.
local READS = { "name", "type", "order", "integrity_start", "weapon", "weapon2", "melee", "formed",
  "attacks", "strength", "armour", "barding", "natural" }

-- One side's required score, dice and strength against the other (§26.2-26.3, §27). `me` and
-- `them` hold what the melee read once of each unit: its attributes by name (READS), `unit`
-- (the handle), `ranks` (U.ranks), `mass` and `marked` (U.marked); `opt` its options
-- (U.options). The attributes are read from these plain tables, not through the handles.
local function side_spec(ctx, me, them, first, words, side, opt)
  local u, o = me, them
  -- the better of the weapon classes against this opponent (1)
  local weapon, melee = u.weapon, u.melee
  local o_melee = o.melee
  local how = opt.combat_table
  if u.weapon2 ~= "none" then
    local function value(w, m)
      local n = Un.melee_dice(u, o, first, w, nil, me.ranks, opt)
      local s = math.min(6, u.strength + D.weapons[w][4])
      local e = n * p(U.combat(m, o_melee, how))
      local nat = U.natural(o, them.marked, opt)
      if nat > 0 then e = e * p(U.combat(s, nat, how)) end
      local a = U.additive(o, "melee", them.marked)
      if a > 0 then e = e * p(U.combat(s, a, how)) end
      return e
    end
    if value(u.weapon2, u.melee - 1) > value(u.weapon, u.melee) then weapon, melee = u.weapon2, u.melee - 1 end
  end
  local c = ctx:check("Score to hit 26.3: " .. u.name .. " v " .. o.name)
  local base = U.combat(melee, o_melee, how)
  c:add(base, "melee " .. melee .. (weapon ~= u.weapon and " (secondary " .. D.weapons[weapon][1] .. ", -1)" or "") ..
    " v melee " .. o_melee .. " on the Combat Table", "27; FLD-D01")
  local charging, fanatic = charge_state(me.unit, opt, me.marked)
  local my_mass, o_mass = me.mass, them.mass
  if o_mass > my_mass and (opt.mass_who == "both" or charging) then
    if o_mass > 2 * my_mass then
      if opt.mass_factors == "cumulative" then
        c:add(1, "opponent has greater Mass (" .. o_mass .. " v " .. my_mass .. ")", "26.3; FLD-D10")
      end
      c:add(2, "opponent has over twice your Mass (" .. o_mass .. " v " .. my_mass .. ")", "26.3; FLD-D10")
    else
      c:add(1, "opponent has greater Mass (" .. o_mass .. " v " .. my_mass .. ")", "26.3")
    end
  end
  local utype, uorder, oorder = u.type, u.order, o.order
  local marked = me.marked
  if marked.disordered then
    if uorder == "close" or U.is_mounted(u) then c:add(2, "disordered Close order or Mounted", "26.3")
    else c:add(1, "disordered " .. uorder .. " order", "26.3") end
  end
  if words[(side == "first" and "second" or "first") .. "_uphill"] then
    c:add(1, "fighting troops uphill of you", "26.3")
  end
  if marked.fragmented and opt.uphill_fragmented == "separate" then
    c:add(1, "Fragmented", "26.3; FLD-D13")
  end
  if fanatic then c:add(-1, "fanatic charging", "26.3") end
  if charging and not (fanatic and opt.fanatic_factors == "fanatic_only") then
    c:add(-1, "charging", "26.3; FLD-D11")
  end
  local o_foot, o_mounted = U.is_foot(o), U.is_mounted(o)
  if charging and utype == "behemoth" and ((oorder == "close" and o_foot) or o_mounted) then
    c:add(-1, "Behemoth charging Close order Foot or Mounted", "26.3")
  end
  if utype == "chariot" and oorder == "close" and o_foot then c:add(-1, "chariots fighting Close order Foot", "26.3") end
  if U.is_mounted(u) and oorder ~= "close" and o_foot then c:add(-1, "Mounted fighting Loose or Open order Foot", "26.3") end
  if charging and U.irregular(me.unit) and uorder == "loose" and U.is_foot(u) then c:add(-1, "Irregular Loose order Foot charging", "26.3") end
  c:point("fld.melee.modifiers", { unit = me.unit, opponent = them.unit, first_contact = first })
  local need = c:total()
  local n, why
  local part = words[side .. "_figures"]
  if not u.formed and part then
    n = part * u.attacks
    why = part .. " figures in contact x " .. u.attacks .. " (unformed, 26.2)"
  elseif part then
    n, why = Un.melee_dice(u, o, first, weapon, part, me.ranks, opt)
    why = part .. " files of the front rank, with the ranks behind them: " .. why
  else
    n, why = Un.melee_dice(u, o, first, weapon, nil, me.ranks, opt)
  end
  local w = D.weapons[weapon]
  local strength = math.min(6, u.strength + w[4])
  c:result("needs " .. need .. "+ with " .. n .. " dice (" .. why .. "); strength " .. strength ..
    (w[4] > 0 and (" (" .. u.strength .. " +" .. w[4] .. " " .. w[1] .. ")") or ""))
  return { need = need, n = n, why = why, strength = strength, weapon = weapon }
end

umpire.command {
  name = "melee",
  help = "TA4: a round of melee between two units in contact (26, 27, 30): `melee cw pk`, `melee cw pk second_uphill later`, `melee sk pk 4` (4 of sk's figures in contact), `melee pk sk 0 4` (0: all that fight)",
  args = {
    { name = "first", type = "unit", help = "one unit in the melee" },
    { name = "second", type = "unit", help = "the unit it fights" },
    { name = "first_figures", type = "int", optional = true,
      help = "the first unit's figures in contact if unformed, or the files of a formed unit that ran into a unit not its target (26.2); 0 or left out: all that fight" },
    { name = "second_figures", type = "int", optional = true, help = "the same for the second unit" },
    { name = "uphill", type = "choice", values = { "first_uphill", "second_uphill" }, optional = true,
      help = "which unit fights from uphill (+1 to hit it, 26.3)" },
    { name = "round", type = "choice", values = { "contact", "later" }, optional = true,
      help = "contact: the first-contact round; later: a later round (read from the charge markers when left out, 26.2)" },
  },
  run = function(ctx, args)
    local a, b = args.first, args.second
    local w = {}
    if args.uphill then w[args.uphill] = true end
    if args.round then w[args.round] = true end
    for _, k in ipairs({ "first_figures", "second_figures" }) do
      local n = args[k]
      if n and n < 0 then umpire.fail(k .. " " .. n .. ": type the figures in contact, 1 or more (0: all that fight) (26.2)") end
      if n and n > 0 then w[k] = n end
    end
    if a.side == b.side then umpire.fail(a.name .. " and " .. b.name .. " are on the same side (26)") end
    -- What the melee asks many times is read once: the markers (one list, where each u:has
    -- is a call into umpire), the ranks (an elements() list and a read per rank), the Mass
    -- and what else of each unit does not change until the losses land, and the options.
    -- (The attributes' loop counts up to #READS: ipairs calls a function for every item.)
    local opt = U.options()
    local function read(u)
      local f = { unit = u }
      local marked = U.marked(u)
      if marked.march then umpire.fail(u.name .. " is in march formation and cannot fight (28.i)") end
      if marked.broken then umpire.fail(u.name .. " is broken: it flees; use `pursue` (31.3)") end
      f.marked = marked
      f.ranks = U.ranks(u)
      if not U.has_figures(u, f.ranks) then umpire.fail(u.name .. " has no figures left") end
      f.mass = U.mass_value(u)
      for i = 1, #READS do
        local k = READS[i]
        f[k] = u[k]
      end
      return f
    end
    local fa = read(a)
    local fb = read(b)
    local an, bn = fa.name, fb.name
    local first = (fa.marked.first_contact or fb.marked.first_contact or w.contact) and not w.later
    if opt.charge_effects == "whole_melee" and not w.later then
      local mem = store.charger or {}
      if mem[a.id] or mem[b.id] then first = true end
    end
    local sa = side_spec(ctx, fa, fb, first, w, "first", opt)
    local sb = side_spec(ctx, fb, fa, first, w, "second", opt)
    local ra = B.resolve(ctx, { title = "Melee 26.4: " .. an, strength = sa.strength, opt = opt,
      armours = B.armours(fb, "melee", nil, opt, fb.marked),
      pools = { { n = sa.n, need = sa.need, label = sa.why, rule = "26.2" } } })
    local rb = B.resolve(ctx, { title = "Melee 26.4: " .. bn, strength = sb.strength, opt = opt,
      armours = B.armours(fa, "melee", nil, opt, fa.marked),
      pools = { { n = sb.n, need = sb.need, label = sb.why, rule = "26.2" } } })
    -- losses land together (26.1)
    local fb_lost, fa_lost
    fb_lost, fb.phase_loss = U.take_hits(b, ra.hp, "melee with " .. an .. " (26.4)", opt, fb)
    fa_lost, fa.phase_loss = U.take_hits(a, rb.hp, "melee with " .. bn .. " (26.4)", opt, fa)
    -- the integrity after the losses, read before the markers below (which change no
    -- attribute, but make a handle read again)
    fa.integrity, fb.integrity = a.integrity, b.integrity
    if not fa.marked.in_melee then a:mark("in_melee", "in melee (26)") end
    if not fb.marked.in_melee then b:mark("in_melee", "in melee (26)") end
    local notes = {}
    -- §30 recoil: who took more hit points than it dealt
    local rec = { first = { unit = a.id, dice = ra.dice, need = sa.need, hits = ra.hits, pools = ra.pools, through = ra.through, sixes = ra.sixes,
      hp = ra.hp, steps = ra.steps, figures_lost = fa_lost, integrity = fa.integrity },
      second = { unit = b.id, dice = rb.dice, need = sb.need, hits = rb.hits, pools = rb.pools, through = rb.through, sixes = rb.sixes,
      hp = rb.hp, steps = rb.steps, figures_lost = fb_lost, integrity = fb.integrity }, first_contact = first and true or false }
    local loser, lf
    if rb.hp > ra.hp then loser, lf = a, fa elseif ra.hp > rb.hp then loser, lf = b, fb end
    if loser then
      local big = lf.type == "behemoth" or lf.type == "artillery"
      local mounted = U.is_mounted(lf)
      local dice = (mounted or (big and opt.recoil_big == "two_dice")) and "2d6" or "1d6"
      local c = ctx:check("Combat result 30: " .. lf.name .. " recoils")
      c:roll(dice, (mounted and "Mounted" or (big and "Behemoth/Artillery (option recoil_big)" or "Foot")), "30; FLD-D25")
      local distance = c:total()
      c:result("recoils " .. U.fmt_in(distance) .. " straight back")
      rec.recoil = { unit = loser.id, distance = distance }
    else
      notes[#notes + 1] = "equal hit points: no recoil (30)"
    end
    Mo.after_loss(ctx, a, notes, opt, fa)
    Mo.after_loss(ctx, b, notes, opt, fb)
    if fb.mass > fa.mass then notes[#notes + 1] = "in morale tests " .. an .. " counts as outmassed (31.2): add `outmassed`" end
    if fa.mass > fb.mass then notes[#notes + 1] = "in morale tests " .. bn .. " counts as outmassed (31.2): add `outmassed`" end
    umpire.record("melee", rec)
    notes[#notes + 1] = string.format("%s %d hit points, %s %d; figures lost: %s %d, %s %d",
      an, ra.hp, bn, rb.hp, an, fa_lost, bn, fb_lost)
    return table.concat(notes, "\n")
  end,
}

-- §28 vi: Loose or Open order units in melee may break formation and move back.
umpire.command {
  name = "breakoff",
  help = "break formation and move (28.vi): a Loose or Open unit in melee falls back 1d6\" (Foot) or 2d6\" (Mounted) + half its move, unformed",
  args = { { name = "unit", type = "unit" } },
  run = function(ctx, args)
    local u = args.unit
    if u.order == "close" then umpire.fail(u.name .. " is Close order: only Loose or Open order units break formation (28.vi)") end
    if not u:has("in_melee") then umpire.fail(u.name .. " is not in melee: break formation and move is for units in melee; an evade is part of `respond` (28.vi)") end
    local mv = U.move(u)
    local c = ctx:check("Break formation 28.vi: " .. u.name)
    c:add(mv / 2, "half its move " .. U.fmt_in(mv), "28.vi")
    c:roll(Mo.rides(u) and "2d6" or "1d6", Mo.rides(u) and "Mounted" or "Foot", "28.vi")
    c:result("moves " .. U.fmt_in(c:total()) .. " to its rear, unformed")
    u:unmark("in_melee", "broke formation (28.vi)")
    if u.formed then u:set("formed", false, "ends unformed (28.vi)") end
    if store.charger then store.charger[u.id] = nil end
    umpire.record("breakoff", { unit = u.id, distance = c:total() })
    return "regular enemies may pursue, irregular must: `pursue UNIT`"
  end,
}

umpire.command {
  name = "pursue",
  help = "a pursuit move (28.vi, 31.3): `pursue war` rolls half move + 1d6 (Foot) or 2d6 (Mounted); `broken` adds the +1/+2 of 31.3",
  args = { { name = "unit", type = "unit" }, { name = "broken", type = "flag", help = "pursuing a broken unit (31.3): +1 Foot, +2 Mounted" } },
  run = function(ctx, args)
    local u = args.unit
    local mv = U.move(u)
    local rides = Mo.rides(u)
    local c = ctx:check("Pursuit " .. (args.broken and "31.3" or "28.vi") .. ": " .. u.name)
    c:add(mv / 2, "half its move " .. U.fmt_in(mv), args.broken and "31.3" or "28.vi")
    c:roll(rides and "2d6" or "1d6", rides and "Mounted" or "Foot", args.broken and "31.3" or "28.vi")
    if args.broken then c:add(rides and 2 or 1, rides and "Mounted pursuit +2" or "Foot pursuit +1", "31.3") end
    c:result("pursues " .. U.fmt_in(c:total()) .. (U.irregular(u) and " (irregulars must pursue)" or " (regulars may)"))
    umpire.record("pursue", { unit = u.id, distance = c:total() })
    return "if the pursuers reach the enemy the melee goes on next phase (28.vi)"
  end,
}



umpire.command {
  name = "combat",
  help = "reads the Combat Table (27) as the option combat_table says: `combat 4 3` (your melee 4 v the opponent's 3, or strength v armour)",
  args = { { name = "own", type = "int", help = "your melee level, or strength" },
           { name = "opponent", type = "int", help = "the opponent's melee level, or armour class" } },
  run = function(ctx, args)
    local own, opp = args.own, args.opponent
    if own < 1 then
      umpire.fail("own " .. own .. ": a melee level or strength is 1 or more (7, 9); the table's columns run 1-6 (27)")
    end
    if opp < 0 or opp > 6 then
      umpire.fail("opponent " .. opp .. ": a melee level or armour class runs 1-6 (7, 10; table 27)")
    end
    if opp == 0 then
      umpire.record("combat", 0)
      return "armour 0: nothing to penetrate, every hit goes through (no roll; FLD-D05)"
    end
    local v = U.combat(own, opp)
    umpire.record("combat", v)
    local note = own > 6 and string.format(" (strength %d read as 6, the table's last column; FLD-D04)", own) or ""
    return string.format("Combat Table: %d v %d needs %d+ (27; combat_table = %s)%s", own, opp, v,
      umpire.option("combat_table"), note)
  end,
}
return M
