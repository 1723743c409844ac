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
local command = require "olab.command"

local M = {}

-- Readings of 7.1-7.3 the umpire may change mid-game (`option set NAME VALUE`); each default
-- is the reading README.md recommends.
umpire.option {
  name = "morale_losses",
  default = "percentage",
  choices = {
    { "percentage", "the share lost, rhu(100 x lost / stands), reaches 20, 30, 40... (AMB-06)" },
    { "count", "the stands lost reach rhu(0.2 x stands), rhu(0.3 x stands)... (at least 1)" },
  },
  doc = "how a Command's (2e: army's) losses are compared with 20%, 30%...",
  rule = "7.1; AMB-06",
}
umpire.option {
  name = "morale_rating",
  default = "cinc",
  choices = {
    { "cinc", "the C-in-C's rating is added, as both texts say (AMB-06)" },
    { "command_general", "the tested Command's own General's rating (PN; 2e: still the C-in-C)" },
  },
  doc = "whose General rating a morale test adds",
  rule = "7.1; AMB-06",
}
umpire.option {
  name = "morale_crossings",
  default = "one_roll",
  choices = {
    { "one_roll", "thresholds crossed at once give one roll, at the highest (AMB-06)" },
    { "each_threshold", "one roll for each threshold crossed, the lowest first, until one fails" },
  },
  doc = "a morale test that crosses several thresholds at once",
  rule = "7.1; AMB-06",
}
umpire.option {
  name = "army_morale_routing",
  default = "routing_now",
  choices = {
    { "routing_now", "2e army morale counts stands routing at the test; rallied ones stop counting (AMB-50)" },
    { "ever_routed", "every stand that has routed in this game counts, rallied or not" },
  },
  doc = "which routing stands 2e army morale counts as lost",
  rule = "2e 7.1; AMB-50",
}
umpire.option {
  name = "rally_troops",
  default = "once",
  choices = {
    { "once", "at most +1 from the troop lines (Regular, Good/Elite, after c.1900) (AMB-07)" },
    { "each", "+1 for each troop line that applies (PN up to +3)" },
  },
  doc = "the rally's troop modifiers",
  rule = "7.3; AMB-07",
}
umpire.option {
  name = "rally_2e_line",
  default = "both",
  choices = {
    { "both", "2e: +1 for a stand that is Regular and also rated Good or Elite, as printed (AMB-07)" },
    { "either", "2e: +1 for a Regular stand or a Good/Elite one, as PN's \"and/or\"" },
  },
  doc = "whom the 2e rally's troop +1 is for",
  rule = "2e 7.3; AMB-07",
}
umpire.option {
  name = "rally_general",
  default = "own_first",
  choices = {
    { "own_first", "of the Generals within 4\", the stand's own Command General, else the best-rated (AMB-36)" },
    { "best_rated", "the best-rated General within 4\", whichever Command he leads" },
  },
  doc = "which General within 4\" helps a rally",
  rule = "7.3; AMB-36",
}
umpire.option {
  name = "square_losses",
  default = "split",
  choices = {
    { "split", "a square's losses are split between its stands, each routing on its own (AMB-29)" },
    { "pooled", "the square routs as one: both stands when their SP together fall below half their starting SP" },
  },
  doc = "the rout test of a square's two stands",
  rule = "6.6, 7.2; AMB-29",
}


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
  -- Option `square_losses pooled` (AMB-29): a square's stands rout together, on their SP together.
  local p = u.formation == "square" and umpire.option("square_losses") == "pooled" and util.partner(u)
  if p and not util.off_table(p) then
    local sp, start = new + p.sp, u.sp_start + p.sp_start
    if 2 * sp < start then
      for _, x in ipairs({ u, p }) do
        if not x:has("routed") and not (x.hero and not util.is_2e()) then
          x:mark("routed", string.format("its square's SP %d are below half of their starting %d " ..
            "(7.2; option square_losses pooled)", sp, start))
          local r = store.rout_round or {}
          r[x.id] = util.round()
          store.rout_round = r
        end
      end
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

-- The General whose rating helps a rally (7.3, AMB-36), of those the umpire names as within
-- 4": the stand's own Command General if named (option `rally_general own_first`, the
-- default), else the best-rated. Returns the General and why, or nil.
local function rally_general(u, named)
  if #named == 0 then return nil end
  if #named == 1 then return named[1], nil end
  if umpire.option("rally_general") == "own_first" then
    local own = command.general_of(u)
    for _, g in ipairs(named) do
      if own and g.id == own.id then return g, "its own Command's General (AMB-36)" end
    end
  end
  local best = named[1]
  for _, g in ipairs(named) do
    if (util.rating[g.general] or 0) > (util.rating[best.general] or 0) then best = g end
  end
  local why = umpire.option("rally_general") == "best_rated"
    and "the best-rated (option rally_general best_rated)" or "the best-rated (AMB-36)"
  return best, why
end

umpire.command {
  name = "rally",
  help = "a routing stand rallies on D6 5+, with a General within 4\" adding its rating and " ..
    "+1 for Regular/Good/Elite or modern troops (7.3)\ne.g. `rally legio3 suetonius`, " ..
    "`rally legio3 suetonius agricola` (both within 4\": the rules pick, AMB-36)",
  args = {
    { name = "stand", type = "unit", help = "the routing stand" },
    { name = "general", type = "unit", optional = true,
      help = "a friendly General within 4\" (its own Command's first, else the best; AMB-36)" },
    { name = "general2", type = "unit", optional = true,
      help = "a second General within 4\": the rules choose which one helps (AMB-36)" },
    arg.force("allow a rally the rules forbid this round"),
  },
  run = function(ctx, args)
    local u = args.stand
    if not u:has("routed") then umpire.fail(u.name .. " is not routing (7.3)") end
    if util.off_table(u) then umpire.fail(u.name .. " is off the table (" .. u.off_table .. ")") end
    local routed_in = (store.rout_round or {})[u.id]
    if routed_in == util.round() and not args.force then
      umpire.fail(u.name .. (util.is_2e() and " has not yet spent a turn routing (2e 7.3)" or
        " cannot rally in the round it took the casualties that routed it (PN 7.2)") ..
        "; add `force` to override")
    end
    local named = {}
    for _, g in ipairs({ args.general, args.general2 }) do
      if g.general == "none" then umpire.fail(g.name .. " is not a General (2.1)") end
      if g.side ~= u.side then umpire.fail(g.name .. " is not on " .. util.poss(u.name) .. " side") end
      if util.off_table(g) then umpire.fail(g.name .. " is off the table") end
      if g.id ~= u.id then named[#named + 1] = g end
    end
    local g, why = rally_general(u, named)
    local c = ctx:check("Rally 7.3: " .. u.name)
    local roll = c:roll("1d6", "rally D6", "7.3", u)
    if g then
      c:add(util.rating[g.general] or 0, g.general .. " General " .. g.name .. " within 4\"" ..
        (why and ", " .. why or ""), "7.3")
    end
    -- The troop lines: at most +1 in all (AMB-07), or each (option rally_troops each).
    local each = umpire.option("rally_troops") == "each"
    local good = u.quality == "good" or u.quality == "elite"
    local lines = {}
    if util.is_2e() then
      -- The side's `regular_2e`: a 2e list that makes every stand Regular where PN does not
      -- (the Romans' WBD auxilia).
      local regular = u.regular or umpire.side(u.side).regular_2e
      if regular and good then
        lines[#lines + 1] = "Regular and " .. u.quality
      elseif (regular or good) and umpire.option("rally_2e_line") == "either" then
        lines[#lines + 1] = (regular and "Regular" or u.quality) .. " (option rally_2e_line either)"
      end
    elseif each then
      if u.regular then lines[#lines + 1] = "Regular" end
      if good then lines[#lines + 1] = u.quality end
    elseif u.regular or good then
      lines[#lines + 1] = u.regular and "Regular" or u.quality
    end
    if (each or #lines == 0) and util.after(1900) then
      lines[#lines + 1] = util.scifi() and "sci-fi troops" or "troops after c.1900"
    end
    for _, troop in ipairs(lines) do
      c:add(1, troop .. (each and " (option rally_troops each)" or ""), "7.3, AMB-07")
    end
    c:point("olab.rally.modifiers", { stand = u, general = g })
    local total = c:total()
    local rallies = total >= 5
    -- For programs (docs/json.md).
    umpire.record("rally", { stand = u.id, general = g and g.id or false, roll = roll,
      modifiers = total - roll, total = total, need = 5,
      result = rallies and "rallies" or "still_routing" })
    if rallies then
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
-- {kind, id, handle, label}. Allied sides (a team, `team NAME SIDE…`) are one army for 2e army
-- morale: the team's stands are counted together, its state kept on its first side, and it
-- tests with its best C-in-C's rating (the README's "Teams").
local function group_of(u)
  if util.is_2e() then
    local team = u.team
    if team then
      local sides = util.party_sides(team)
      if #sides > 1 then
        local start = 0
        for _, sd in ipairs(sides) do
          local n = umpire.side(sd).start_stands
          if n == 0 then n = umpire.count("side:" .. sd) end
          start = start + n
        end
        return { kind = "side", id = sides[1], handle = umpire.side(sides[1]), label = "team:" .. team,
          team = team, sides = sides, start = start }
      end
    end
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
  local note
  if util.is_2e() then
    lost = lost + umpire.count(label .. " marked:routed off_table=no")
    -- Option `army_morale_routing ever_routed` (AMB-50): rallied stands that routed still count.
    if umpire.option("army_morale_routing") == "ever_routed" then
      local once = 0
      local routed = store.rout_round or {}
      for _, u in ipairs(umpire.units(label .. " off_table=no unmarked:routed")) do
        if routed[u.id] then once = once + 1 end
      end
      lost = lost + once
      note = once .. " rallied but once routed (option army_morale_routing ever_routed)"
    end
  end
  return lost, note
end

-- The loss threshold reached (7.1, AMB-06): 0, or 20, 30, 40... By default the percentage
-- lost, rounded by 1.2, in tens; with option `morale_losses count`, the highest X whose
-- rhu(X% of the stands) (at least 1) the stands lost reach.
local function level_of(lost, n, pct)
  if umpire.option("morale_losses") == "count" then
    local level, x = 0, 20
    while x <= 100 and lost >= math.max(1, util.rhu(x * n / 100)) do
      level = x
      x = x + 10
    end
    return level
  end
  return math.floor(pct / 10) * 10
end

-- The rating a morale test adds (7.1, AMB-06): the C-in-C's, or (option `morale_rating
-- command_general`, PN) the tested Command's own General's; a team's best C-in-C's.
local function morale_rating(g, side)
  if g.team then
    return command.party_rating({ id = g.team, team = true, sides = g.sides })
  end
  if g.kind == "command" and umpire.option("morale_rating") == "command_general" then
    local gen = command.general_of({ command = g.id, side = side })
    if not gen then return 0, "no General left in " .. g.id .. " (option morale_rating command_general)" end
    local r = util.rating[gen.general] or 0
    return r, "Command General " .. gen.name .. " (" .. gen.general ..
      ") (option morale_rating command_general)"
  end
  return command.cinc_rating(side)
end

-- One morale test for group `g` (from group_of) if a new threshold has been reached.
function M.test(ctx, g, base, force)
  local h = g.handle
  if base and base ~= h.start_stands then
    h:set("start_stands", base, "stands at the start, given by the umpire (7.1)")
  end
  local n = h.start_stands
  if g.team and not base then n = g.start end
  if n == 0 then n = umpire.count(g.label) end
  if n == 0 then return g.label .. ": no stands", { group = g.label, stands = 0, result = "no_test" } end
  local lost, lost_note = lost_in(g.label)
  local pct = util.rhu(100 * lost / n)
  local level = level_of(lost, n, pct)
  local how = ""
  if umpire.option("morale_losses") == "count" then
    how = string.format(", threshold %d%% by count (option morale_losses count)", level)
  end
  if lost_note then how = how .. "; " .. lost_note end
  local tested = h.threshold
  local what = util.is_2e() and "army" or "Command"
  local rec = { group = g.label, stands = n, lost = lost, percentage = pct, threshold = level,
    tested_before = tested }
  if level < 20 or (level <= tested and not force) then
    rec.result = "no_test"
    return string.format("%s %s: %d of %d stands lost (%d%%%s): no new threshold (7.1)", what,
      g.label, lost, n, pct, how), rec
  end
  -- The thresholds rolled for: the highest reached (AMB-06), or with option `morale_crossings
  -- each_threshold` every new one from the lowest, until one fails.
  local levels = { level }
  if umpire.option("morale_crossings") == "each_threshold" and level > tested then
    levels = {}
    for lv = math.max(20, tested + 10), level, 10 do levels[#levels + 1] = lv end
  end
  local out
  for i, lv in ipairs(levels) do
    local note = #levels > 1 and string.format("; threshold %d%% of %d crossed (option " ..
      "morale_crossings each_threshold)", lv, level) or ""
    local line, failed = M.roll(ctx, g, lv, tested, rec, string.format("%d of %d stands lost (%d%%%s%s)",
      lost, n, pct, how, note))
    out = line
    if failed then break end
  end
  return out, rec
end

-- One morale roll of group `g` at threshold `level` (7.1); `rec` gathers the record. Returns
-- the line and whether the group retreats.
function M.roll(ctx, g, level, tested, rec, lost_text)
  local h = g.handle
  local what = util.is_2e() and "army" or "Command"
  local lost, n = rec.lost, rec.stands
  local fail = level // 10 - 1
  local c = ctx:check(string.format("%s morale 7.1: %s, %s",
    util.is_2e() and "Army" or "Command", g.label, lost_text))
  local side = g.kind == "side" and g.id or h.side
  local roll = c:roll("1d6", "morale D6", "7.1", g.label)
  local rating, label = morale_rating(g, side)
  if rating ~= 0 then c:add(rating, label, "7.1") end
  if util.is_2e() then
    local killed = 0
    for _, sd in ipairs(g.sides or { side }) do killed = killed + umpire.side(sd).generals_killed end
    if killed > 0 then c:add(-killed, killed .. " General(s) killed this game", "2e 7.1") end
  elseif h.general_killed then
    c:add(-1, "the Command's General is killed", "7.1")
  end
  c:point("olab.morale.modifiers", { group = g.label, kind = g.kind, side = side, level = level,
    lost = lost, stands = n })
  if level ~= h.threshold then
    h:set("threshold", level, "morale tested at " .. level .. "% (7.1; AMB-06)")
  end
  local total = c:total()
  rec.roll, rec.rating, rec.modifiers, rec.total, rec.fails_on = roll, rating, total - roll, total, fail
  rec.rolled_at = level
  rec.rolls = (rec.rolls or 0) + 1
  rec.result = total <= fail and "retreats" or "holds"
  if total <= fail then
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
    return string.format("%s %s retreats in good order from round %d", what, g.label, from), true
  end
  c:result(string.format("holds (%d%%: fails on %d or less)", level, fail))
  return string.format("%s %s holds", what, g.label), false
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
    local out, records = {}, {}
    for i, g in ipairs(order) do out[i], records[i] = M.test(ctx, g, args.start, args.force) end
    -- For programs (docs/json.md): one record a group.
    umpire.record("morale", records)
    return table.concat(out, "\n")
  end,
}

return M
