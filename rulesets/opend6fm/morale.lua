-- Ch5 Morale [§6]: morale tests (casualty, charge, receiving a charge), withdraw, rout, rally,
-- the opportunity-fire command test, and the "difficulty 6" command tests of Ch4.

local D = require "opend6fm.data"
local U = require "opend6fm.util"
local M = {}

-- The command roll's value (Ch5 Morale Tests; AMB-11): the sergeant's command, or the squad's
-- (an acting sergeant) when he is out. Returns value, label, factors.
function M.command_value(sq)
  local sg = U.sergeant(sq)
  if sg then
    local base = U.base_skill(sg, "command")
    local v, f = U.skill(sg, "command")
    return v, "sergeant " .. sg.name .. " command " .. base, f, sg
  end
  local std = sq:elements("role=standard unmarked:incapacitated")[1] or sq:elements("unmarked:incapacitated")[1]
  if not std then umpire.fail(sq.name .. " has nobody standing to roll command") end
  return U.base_skill(std, "command"), "acting sergeant: the squad's command " .. U.base_skill(std, "command"), {}, std
end

function M.command_roll(ctx, sq, title)
  local c = ctx:check("Command roll " .. sq.name .. (title and (" · " .. title) or "") .. " (Ch5 Morale Tests)")
  local v, label, f, who = M.command_value(sq)
  local _, r = c:roll("1d6!", "open-ended d6", "Ch1 Critical Successes", who)
  c:add(v - (function() local s = 0 for _, x in ipairs(f) do s = s + x[1] end return s end)(), label)
  for _, x in ipairs(f) do c:add(x[1], x[2], x[3]) end
  if r.dice[1].value == 1 then c:add(-c:total(), "critical failure: the score is 0", "Ch1 Critical Failures") end
  return c
end

-- The standard threat modifiers (Ch5 Morale Test Modifiers), added to check c.
function M.standard_mods(c, sq, o, rally)
  local st = U.state(sq)
  if o.cover then c:add(-1, "behind cover", "Ch5") end
  if st == "shaken" then c:add(1, "squad shaken", "Ch5") end
  if st == "demoralized" or (rally and st == "broken") then c:add(2, "squad " .. st, "Ch5") end
  if sq.cas_turn > 0 then c:add(sq.cas_turn, sq.cas_turn .. " casualties this turn (not the sergeant)", "Ch5") end
  if sq.sergeant_hit then c:add(2, "sergeant wounded or incapacitated this turn", "Ch5") end
  if not rally then
    if sq.cc_result == "won" then c:add(-1, "won the turn of close assault", "Ch5") end
    if sq.cc_result == "lost" then c:add(1, "lost the turn of close assault (forced back)", "Ch5") end
  else
    local half, lost = U.half_down(sq)
    if half then c:add(2, "50% or more casualties (" .. lost .. " of " .. sq.start_size .. ")", "Ch5; AMB-20") end
  end
end

-- A morale test of `kind` (casualty, charge, receive); `o` holds cover, flank, barrier,
-- outnumbered. Applies the result; returns the result word and the new status.
function M.test(ctx, sq, kind, o)
  if U.state(sq) == "broken" and kind == "casualty" then
    umpire.fail(sq.name .. " is broken: it makes a rally test, not a morale test (Ch5 Broken Squads; `rally " .. sq.id .. "`)")
  end
  local cr = M.command_roll(ctx, sq, kind)
  local t = ctx:check("Threat roll " .. sq.name .. " · " .. kind .. " (Ch5 Morale Test Base Threat Level Chart)")
  t:add(D.THREAT_BASE[kind], kind .. " test", "Ch5 base threat")
  M.standard_mods(t, sq, o, false)
  if kind == "charge" then
    if o.flank then t:add(-2, "charging the flank or rear", "Ch5 charging squad") end
    if o.barrier then t:add(1, "enemy directly behind a barrier", "Ch5 charging squad") end
  elseif kind == "receive" then
    if o.flank then t:add(2, "attacked in flank or rear", "Ch5 receiving squad") end
    if o.outnumbered then t:add(2, "outnumbered 2:1", "Ch5 receiving squad") end
  end
  if sq.sergeant_hit then sq:set("sergeant_hit", false, "the sergeant's +2 applies to the first test after he is hit (Ch5)") end
  local threat = t:total()
  local _, r = t:roll("1d6!", "open-ended d6", "Ch1 Critical Successes")
  if r.dice[1].value == 1 then t:add(-t:total(), "critical failure: the score is 0", "Ch1 Critical Failures; AMB-12") end
  local TR, CR = t:total(), cr:total()
  local res, delta
  if TR >= CR + 4 then res, delta = "morale -2 and withdraw", -2
  elseif TR > CR then res, delta = "morale -1", -1
  elseif CR >= TR + 4 then res, delta = "morale +1", 1
  else res, delta = "no effect", 0 end
  local old = sq.morale
  local new, st = U.set_morale(sq, old + delta, kind .. " morale test: " .. res .. " (Ch5 Morale Test Results)")
  local withdraw = delta == -2 and st ~= "broken"
  t:result("TR " .. TR .. " v CR " .. CR .. ": " .. res .. " → morale " .. new .. ", " .. st .. (delta == -2 and st == "broken" and " (the rout replaces the withdraw)" or ""))
  umpire.record("threat", threat); umpire.record("tr", TR); umpire.record("cr", CR)
  umpire.record("result", res); umpire.record("morale", new); umpire.record("state", st); umpire.record("withdraw", withdraw)
  local words = { sq.name .. ": " .. res .. ", morale " .. old .. " → " .. new .. " (" .. st .. ")"
    .. ((delta > 0 and new == old) and " — no higher than its starting level (Ch5 Morale Levels)" or "") }
  if withdraw then words[#words + 1] = "WITHDRAW: move it 4\" straight away from the nearest enemy squad, terrain ignored, any facing (Ch5)" end
  if st == "broken" and old > 0 then words[#words + 1] = M.rout_text(sq) end
  if (withdraw or (st == "broken" and old > 0)) and #sq:elements("marked:engaged unmarked:incapacitated") > 0 then
    words[#words + 1] = "in close combat: the enemy first gets a parting swing (`swing " .. sq.id .. " ENEMY`, Ch4; Ch5)"
  end
  return table.concat(words, "\n"), { withdraw = withdraw, state = st, result = res }
end

function M.rout_text(sq)
  local fast, slow = nil, nil
  for _, e in ipairs(sq:elements("unmarked:incapacitated")) do
    local walk, run = U.rates(e)
    if run then fast = math.max(fast or 0, run) else slow = math.min(slow or 99, walk) end
  end
  local how = fast and ("its Run Rate, " .. U.num(fast) .. "\"") or "at a walk"
  if slow then how = how .. " (its wounded walk " .. U.num(slow) .. "\" and may be left behind)" end
  return "ROUT: " .. sq.name .. " moves " .. how .. " toward " .. sq.rally_point
    .. " (or the nearest edge; the closest unblocked edge if an enemy is nearer to it); it drops assembled weapons, every skill but the sergeant's command is 0 (Ch5 Broken Squads)"
end

local MOR_OPTS = { cover = "flag", flank = "flag", barrier = "flag", outnumbered = "flag" }

umpire.command {
  name = "morale",
  help = "a casualty morale test in the Morale Phase: command roll against threat 4 + modifiers (Ch5 Morale Tests): morale goblins [cover]",
  args = { { name = "squad", type = "unit" },
           { name = "inputs", type = "text", optional = true, help = "cover (behind cover)" } },
  run = function(ctx, args)
    local o = U.opts(args.inputs, MOR_OPTS, "morale")
    local sq = args.squad
    if sq.cas_turn == 0 and not sq.sergeant_hit then
      umpire.fail(sq.name .. " took no casualty this turn: no casualty test (Ch5); below its start it may `rally`")
    end
    local out = M.test(ctx, sq, "casualty", o)
    return out
  end,
}

-- Ch5 Rally, Broken Squads; AMB-08, AMB-21, AMB-22.
umpire.command {
  name = "rally",
  help = "a rally test: command roll against rally threat 4 + modifiers; broken squads must test each Morale Phase (Ch5 Rally): "
    .. "rally goblins [cover] [enemy_near] [arrived]",
  args = { { name = "squad", type = "unit" },
           { name = "inputs", type = "text", optional = true, help = "cover; enemy_near (an enemy within 12\"); arrived (a routing squad reached its rally point or edge)" } },
  run = function(ctx, args)
    local o = U.opts(args.inputs, { cover = "flag", enemy_near = "flag", arrived = "flag" }, "rally")
    local sq = args.squad
    local st = U.state(sq)
    if sq.off_table ~= "no" then umpire.fail(sq.name .. " has been removed from play") end
    if st ~= "broken" then
      if sq.morale >= sq.morale_start then umpire.fail(sq.name .. " is at its starting morale " .. sq.morale_start .. ": nothing to rally (Ch5 Rally)") end
      local shot, fought = sq:has("shot"), sq:has("fought")
      local barred = umpire.option("rally_eligibility") == "neither" and (shot or fought) or (shot and fought)
      if barred then umpire.fail(sq.name .. " " .. (shot and "shot" or "") .. (shot and fought and " and " or "") .. (fought and "fought" or "") .. " this turn: it may not rally (Ch5 Rally; AMB-21)") end
      if o.enemy_near then umpire.fail(sq.name .. " has an enemy within 12\": it may not rally (Ch5 Rally)") end
      if sq.cas_turn > 0 then umpire.fail(sq.name .. " took casualties this turn: it makes the casualty test (`morale " .. sq.id .. "`), not a rally (AMB-23)") end
    end
    local cr = M.command_roll(ctx, sq, "rally")
    local t = ctx:check("Rally threat roll " .. sq.name .. " (Ch5 Rally Test Threat Level Modifiers)")
    t:add(D.THREAT_BASE.rally, "rally test", "Ch5")
    M.standard_mods(t, sq, o, true)
    if sq.sergeant_hit then sq:set("sergeant_hit", false, "the sergeant's +2 applies to the first test after he is hit (Ch5)") end
    local _, r = t:roll("1d6!", "open-ended d6", "Ch1 Critical Successes")
    if r.dice[1].value == 1 then t:add(-t:total(), "critical failure: the score is 0", "Ch1 Critical Failures; AMB-12") end
    local RR, CR = t:total(), cr:total()
    local delta = CR > RR + 4 and 2 or (CR > RR and 1 or 0)
    local res = delta == 2 and "morale +2" or (delta == 1 and "morale +1" or "no effect")
    t:result("RR " .. RR .. " v CR " .. CR .. ": " .. res .. " (Ch5 Rally Test Results; AMB-08)")
    umpire.record("rr", RR); umpire.record("cr", CR); umpire.record("result", res)
    local old = sq.morale
    if delta > 0 then
      local new, nst = U.set_morale(sq, old + delta, "rallied (Ch5 Rally Test Results)")
      U.unmark(sq, "at_rally_point", "rallied")
      umpire.record("morale", new)
      return sq.name .. " rallies: morale " .. old .. " → " .. new .. " (" .. nst .. ")" .. (st == "broken" and "; it halts and moves normally from the next Movement Phase; skills are restored (AMB-42)" or "")
    end
    umpire.record("morale", old)
    if st == "broken" then
      if sq:has("at_rally_point") then
        sq:set("off_table", "removed", "failed its last rally at " .. sq.rally_point .. ": scattered, hidden or captured (Ch5 Broken Squads)")
        return sq.name .. " fails its last chance and is removed from play"
      end
      if o.arrived then
        sq:mark("at_rally_point", "reached " .. sq.rally_point .. ": one last rally test next Morale Phase (Ch5)")
      end
      return sq.name .. " fails to rally: " .. M.rout_text(sq) .. (o.arrived and "\nit reaches " .. sq.rally_point .. " and stops: last chance next Morale Phase" or "")
    end
    return sq.name .. " fails to rally: no effect"
  end,
}

umpire.command {
  name = "opfiretest",
  help = "the opportunity-fire command test of a crossbow squad that has not moved: command roll against threat 4 (Ch5; AMB-06): opfiretest rangers [cover]",
  args = { { name = "squad", type = "unit" },
           { name = "inputs", type = "text", optional = true, help = "cover" } },
  run = function(ctx, args)
    local o = U.opts(args.inputs, { cover = "flag" }, "opfiretest")
    local sq = args.squad
    local st = U.state(sq)
    if st == "demoralized" or st == "broken" then umpire.fail(sq.name .. " is " .. st .. ": no opportunity fire (Ch5 Morale Statuses)") end
    if sq:has("fire_plus1") or sq:has("no_fire") then umpire.fail(sq.name .. " has moved or fired this turn: only a squad that has not moved may opportunity-fire (Ch2)") end
    if sq:has("opfire_passed") or sq:has("opfire_failed") then umpire.fail(sq.name .. " has already taken its opportunity-fire test this turn (Ch2 Opportunity Fire)") end
    local xb = false
    for _, e in ipairs(sq:elements("unmarked:incapacitated")) do
      for _, k in ipairs(U.weapons_of(e)) do if k:find("crossbow") then xb = true end end
    end
    if not xb then umpire.fail(sq.name .. " has no crossbows: only crossbow squads may opportunity-fire (Ch2 Opportunity Fire)") end
    local cr = M.command_roll(ctx, sq, "opportunity fire")
    local t = ctx:check("Opportunity-fire threat roll " .. sq.name .. " (Ch5 Opportunity Fire Test)")
    t:add(D.THREAT_BASE.opportunity, "opportunity fire", "Ch5")
    if o.cover then t:add(-1, "behind cover", "Ch5") end
    if st == "shaken" then t:add(1, "squad shaken", "Ch5") end
    local half, lost = U.half_down(sq)
    if half then t:add(2, "50% or more casualties (" .. lost .. ")", "Ch5; AMB-20") end
    local _, r = t:roll("1d6!", "open-ended d6", "Ch1 Critical Successes")
    if r.dice[1].value == 1 then t:add(-t:total(), "critical failure: the score is 0", "Ch1 Critical Failures") end
    local OF, CR = t:total(), cr:total()
    local can = OF < CR
    t:result("OF " .. OF .. " v CR " .. CR .. ": " .. (can and "can fire" or "cannot fire"))
    umpire.record("of", OF); umpire.record("cr", CR); umpire.record("can_fire", can)
    if can then U.mark(sq, "opfire_passed", "passed the opportunity-fire test (Ch5)")
    else U.mark(sq, "opfire_failed", "failed the opportunity-fire test: it may not move this Movement Phase (Ch2; Ch5)") end
    if can then return sq.name .. " may opportunity-fire now (`opfire " .. sq.id .. " TARGET range=…`); then no more movement or fire this turn" end
    return sq.name .. " cannot fire: it may not move this Movement Phase, but fires normally in the Ranged Combat Phase"
  end,
}

-- Ch4's "difficulty 6 command test" (disengage, refusing to advance): straight or opposed (AMB-06).
function M.command_test(ctx, sq, what)
  local cr = M.command_roll(ctx, sq, what)
  local CR = cr:total()
  if umpire.option("command_test") == "straight" then
    local pass = CR >= 6
    cr:result(CR .. " v difficulty 6: " .. (pass and "passed" or "failed") .. " (Ch4; AMB-06)")
    return pass, CR, 6
  end
  local t = ctx:check("Threat roll " .. sq.name .. " · " .. what .. " (AMB-06)")
  t:add(6, "threat 6", "AMB-06")
  local _, r = t:roll("1d6!", "open-ended d6", "Ch1 Critical Successes")
  if r.dice[1].value == 1 then t:add(-t:total(), "critical failure: the score is 0", "Ch1 Critical Failures") end
  local pass = CR > t:total()
  t:result("TR " .. t:total() .. " v CR " .. CR .. ": " .. (pass and "passed" or "failed"))
  return pass, CR, t:total()
end

return M
