-- Morale (7.1), routs (7.2), rallying (7.3) and elimination (7.4).
--
-- Routs and elimination are automatic: after any SP loss, by any command, the `unit_damaged`
-- handler below eliminates a stand at 0 SP and routs one below half its starting SP. It runs
-- at once when a rule takes the SP (so a later step of the same command sees the elimination),
-- and after the command for a loss the umpire typed (`set war7 sp 0`). `rally`
-- and `morale` are the A.O.B. tests. Command (PN) and army (2e) morale state is kept in the
-- Command's (2e: the side's) attributes: `start_stands`, `threshold`, `retreating`, and
-- `general_killed` (2e: the side's `generals_killed`).
local arg = require "olab.args"
local util = require "olab.util"

local M = {}


-- 7.2, 7.4: what an SP loss from `old` to `new` does to stand `u` (the unit_damaged handler).
function M.after_loss(u, old, new)
  if u.off_table == "eliminated" then return end
  if new <= 0 then
    local why = u.type == "AIR" and "SP 0: eliminated, crashes off the table (7.4, 5.2.1)"
      or "SP 0: eliminated (7.4)"
    u:set("off_table", "eliminated", why)
    if u:has("routed") then u:unmark("routed", "eliminated (7.4)") end
    if u:has("engaged") then u:unmark("engaged", "eliminated (7.4)") end
    -- a square loses its second stand: the survivor stands alone again (6.6)
    local sq = store.squares or {}
    if sq[u.id] then
      local p = umpire.unit(sq[u.id])
      sq[u.id], sq[p.id] = nil, nil
      store.squares = sq
      if p.formation == "square" then p:set("formation", "normal", "its square partner is gone (6.6)") end
    end
    if u.general ~= "none" then
      local why = u.name .. ", a General, eliminated (7.1, 7.4)"
      local grp = umpire.group(u.command)
      if not grp.general_killed then grp:set("general_killed", true, why) end
      local side = umpire.side(u.side)
      side:add("generals_killed", 1, why)
      print(string.format("%s was a General: its Command names an Inferior replacement (7.4)",
        u.name))
    end
    return
  end
  if 2 * new < u.sp_start and not u:has("routed") then
    if u.hero and not util.is_2e() then
      print(u.name .. " is a Hero and never routs (8.8.4)")
      return
    end
    u:mark("routed", string.format("SP %d is below half of its starting %d (7.2)", new, u.sp_start))
    local r = store.rout_round or {}
    r[u.id] = util.round()
    store.rout_round = r
  end
end
umpire.on("unit_damaged", function(ev) M.after_loss(ev.unit, ev.old, ev.new) end, { at_once = true })

umpire.command {
  name = "rally",
  help = "a routing stand rallies on D6 5+, with a General within 4\" adding its rating and " ..
    "+1 for Regular/Good/Elite or modern troops (7.3)\ne.g. `rally legio3 suetonius`",
  args = {
    { name = "stand", type = "unit", help = "the routing stand" },
    { name = "general", type = "unit", optional = true,
      help = "a friendly General within 4\" (its own Command's first, else the best; AMB-36)" },
    arg.force("allow a rally the rules forbid this round"),
  },
  run = function(ctx, args)
    local u, g = args.stand, args.general
    if not u:has("routed") then umpire.fail(u.name .. " is not routing (7.3)") end
    if util.off_table(u) then umpire.fail(u.name .. " is off the table (" .. u.off_table .. ")") end
    local routed_in = (store.rout_round or {})[u.id]
    if routed_in == util.round() and not args.force then
      umpire.fail(u.name .. (util.is_2e() and " has not yet spent a turn routing (2e 7.3)" or
        " cannot rally in the round it took the casualties that routed it (PN 7.2)") ..
        "; add `force` to override")
    end
    if g then
      if g.general == "none" then umpire.fail(g.name .. " is not a General (2.1)") end
      if g.side ~= u.side then umpire.fail(g.name .. " is not on " .. util.poss(u.name) .. " side") end
      if util.off_table(g) then umpire.fail(g.name .. " is off the table") end
    end
    local c = ctx:check("Rally 7.3: " .. u.name)
    c:roll("1d6", "rally D6", "7.3", u)
    if g and g.id ~= u.id then
      c:add(util.rating[g.general] or 0, g.general .. " General " .. g.name .. " within 4\"", "7.3")
    end
    -- The troop line: at most +1 in all (AMB-07).
    local good = u.quality == "good" or u.quality == "elite"
    local troop
    if util.is_2e() then
      if u.regular and good then troop = "Regular and " .. u.quality end
    elseif u.regular or good then
      troop = u.regular and "Regular" or u.quality
    end
    if not troop and util.after(1900) then troop = util.scifi() and "sci-fi troops" or "troops after c.1900" end
    if troop then c:add(1, troop, "7.3, AMB-07") end
    c:point("olab.rally.modifiers", { stand = u, general = g })
    if c:total() >= 5 then
      c:result("rallies (5+)")
      u:unmark("routed", "rallied (7.3)")
      if not u:has("rallied") then u:mark("rallied", "rallied (7.3)") end
      return u.name .. " rallies"
    end
    c:result("still routing (needs 5+)")
    return u.name .. " is still routing"
  end,
}

-- The morale group of a stand: its Command (PN) or its side (2e army morale), as
-- {kind, id, handle, label}.
local function group_of(u)
  if util.is_2e() then
    return { kind = "side", id = u.side, handle = umpire.side(u.side), label = "side:" .. u.side }
  end
  return { kind = "command", id = u.command, handle = umpire.group(u.command),
    label = "command:" .. u.command }
end

-- Losses counted for morale (7.1): PN eliminated or routed off the table; 2e eliminated or
-- routing (also those still on the table; AMB-50). Counted by the host for the stands of
-- `label` (`command:c1`, `side:red`).
local function lost_in(label)
  local lost = umpire.count(label .. " off_table=eliminated|routed_off")
  if util.is_2e() then lost = lost + umpire.count(label .. " marked:routed off_table=no") end
  return lost
end

-- One morale test for group `g` (from group_of) if a new threshold has been reached.
function M.test(ctx, g, base, force)
  local h = g.handle
  if base and base ~= h.start_stands then
    h:set("start_stands", base, "stands at the start, given by the umpire (7.1)")
  end
  local n = h.start_stands
  if n == 0 then n = umpire.count(g.label) end
  if n == 0 then return g.label .. ": no stands" end
  local lost = lost_in(g.label)
  local pct = util.rhu(100 * lost / n)
  local level = math.floor(pct / 10) * 10
  local tested = h.threshold
  local what = util.is_2e() and "army" or "Command"
  if level < 20 or (level <= tested and not force) then
    return string.format("%s %s: %d of %d stands lost (%d%%): no new threshold (7.1)", what,
      g.label, lost, n, pct)
  end
  local fail = level / 10 - 1
  local c = ctx:check(string.format("%s morale 7.1: %s, %d of %d stands lost (%d%%)",
    util.is_2e() and "Army" or "Command", g.label, lost, n, pct))
  local side = g.kind == "side" and g.id or h.side
  c:roll("1d6", "morale D6", "7.1", g.label)
  local rating, label = util.cinc_rating(side)
  if rating ~= 0 then c:add(rating, label, "7.1") end
  if util.is_2e() then
    local killed = umpire.side(side).generals_killed
    if killed > 0 then c:add(-killed, killed .. " General(s) killed this game", "2e 7.1") end
  elseif h.general_killed then
    c:add(-1, "the Command's General is killed", "7.1")
  end
  c:point("olab.morale.modifiers", { group = g.label, kind = g.kind, side = side, level = level,
    lost = lost, stands = n })
  if level ~= tested then
    h:set("threshold", level, "morale tested at " .. level .. "% (7.1; AMB-06)")
  end
  if c:total() <= fail then
    c:result(string.format("retreats (%d%%: fails on %d or less)", level, fail))
    local from = util.round() + 1
    if not h.retreating then
      h:set("retreating", true, string.format("failed its morale test at %d%%: retreats in " ..
        "good order from round %d (7.1)", level, from))
    end
    for _, u in ipairs(umpire.units(g.label .. " off_table=no unmarked:retreating")) do
      u:mark("retreating", string.format("its %s retreats in good order from round %d (7.1)",
        what, from))
    end
    return string.format("%s %s retreats in good order from round %d", what, g.label, from)
  end
  c:result(string.format("holds (%d%%: fails on %d or less)", level, fail))
  return string.format("%s %s holds", what, g.label)
end

umpire.command {
  name = "morale",
  help = "A.O.B. morale: each Command (2e: army) that reached a new 20/30/40…% loss threshold " ..
    "rolls D6 + C-in-C rating, -1 if its General is killed (2e: per General); " ..
    "it retreats on 1 at 20%, 1-2 at 30%… (7.1)\ne.g. `morale all`, `morale command:c1 12`",
  args = {
    { name = "groups", type = "selector",
      help = "stands whose Commands (2e: sides) to test: all, command:c1, side:red" },
    { name = "start", type = "int", optional = true,
      help = "stands the group had at the start (default: its stands in the game; remembered)" },
    arg.force("test again at a threshold already tested"),
  },
  run = function(ctx, args)
    local seen, order = {}, {}
    for _, u in ipairs(args.groups) do
      local g = group_of(u)
      if not seen[g.label] then seen[g.label] = true; order[#order + 1] = g end
    end
    if #order == 0 then return "no stands chosen" end
    if args.start and #order > 1 then umpire.fail("`start` is for one group at a time") end
    local out = {}
    for _, g in ipairs(order) do out[#out + 1] = M.test(ctx, g, args.start, args.force) end
    return table.concat(out, "\n")
  end,
}

return M
