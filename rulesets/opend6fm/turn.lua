-- The turn (Sequence of Play): initiative, movement, the Special Actions phase and the end of
-- the turn; the hooks for the Advanced Game, which the source names but does not give (§10).

local D = require "opend6fm.data"
local U = require "opend6fm.util"
local A = require "opend6fm.advanced"

-- The side's best current command (AMB-24): soldiers on the table, not of broken squads.
local function best_command(side)
  local best, who = nil, nil
  for _, sq in ipairs(umpire.units("side:" .. side .. " off_table=no")) do
    if U.state(sq) ~= "broken" then
      for _, e in ipairs(sq:elements("unmarked:incapacitated")) do
        local v = U.skill(e, "command")
        if not best or v > best then best, who = v, e end
      end
    end
  end
  return best, who
end

umpire.command {
  name = "initiative",
  help = "each side (allied sides, a `team`: once) rolls a d6 + its best command skill; ties among the highest roll again (Sequence of Play, Initiative; AMB-24): initiative",
  args = {},
  run = function(ctx)
    local fns, names = {}, {}
    local plain = umpire.option("initiative_roll") == "plain"
    -- Allied sides (a team, `team NAME SIDE…`) roll once, with the best command among them:
    -- the README's "Teams".
    local parties, index = {}, {}
    for _, sd in ipairs(umpire.sides()) do
      local key = umpire.side(sd).team or sd
      if not index[key] then
        index[key] = #parties + 1
        parties[#parties + 1] = { id = key, sides = {} }
      end
      table.insert(parties[index[key]].sides, sd)
    end
    for _, p in ipairs(parties) do
      local v, who
      for _, sd in ipairs(p.sides) do
        local sv, sw = best_command(sd)
        if sv and (not v or sv > v) then v, who = sv, sw end
      end
      if v then
        local label = #p.sides > 1 and ("team " .. p.id .. " (" .. table.concat(p.sides, ", ") .. ")") or p.id
        names[#names + 1] = p.id
        fns[#fns + 1] = function(attempt)
          local c = ctx:check("Initiative " .. label .. (attempt > 1 and " again" or "") .. " (Sequence of Play)")
          if plain then U.plain(c, v, "best command: " .. who.name .. " " .. v, who)
          else U.open(c, v, "best command: " .. who.name .. " " .. v, who) end
          return c
        end
      end
    end
    if #fns < 2 then umpire.fail("initiative needs two sides with soldiers on the table") end
    local o = ctx:opposed(fns, { tie = "again", names = names, title = "Initiative", rule = "Sequence of Play" })
    store.initiative = o.name
    umpire.record("side", o.name); umpire.record("totals", o.totals); umpire.record("rerolls", o.ties)
    return o.name .. " has the initiative: it chooses to move first or second; in the Ranged Combat Phase the other side picks first"
  end,
}

-- Ch2: how the squad moved this phase sets its markers (Fire +1 / No Fire).
umpire.command {
  name = "move",
  help = "record how a squad moved: still, facing, crawl, prone, walk, run: its markers, and who moves next (Ch2 Walk vs Run): move rangers walk",
  args = { { name = "squad", type = "unit" },
           { name = "mode", type = "choice", values = { "still", "facing", "crawl", "prone", "walk", "run" } } },
  run = function(ctx, args)
    local sq, m = args.squad, args.mode
    local st = U.state(sq)
    local after = function(text)
      -- Ch2 / AMB-25: sides alternate a squad at a time; a side with none left lets the other finish.
      U.mark(sq, "moved", "moved (or stayed) this Movement Phase (Ch2)")
      local left, sides = {}, umpire.sides()
      for _, sd in ipairs(sides) do
        left[sd] = umpire.count("side:" .. sd .. " off_table=no unmarked:moved state!=broken")
      end
      local nextside
      for _, sd in ipairs(sides) do
        if sd ~= sq.side and left[sd] > 0 then nextside = sd end
      end
      if not nextside and left[sq.side] > 0 then nextside = sq.side end
      local parts = {}
      for _, sd in ipairs(sides) do parts[#parts + 1] = sd .. " " .. left[sd] end
      umpire.record("unmoved", left)
      return text .. "\nsquads still to move: " .. table.concat(parts, ", ") ..
        (nextside and ("; next: " .. nextside .. " (Ch2; AMB-25)") or "; every squad has moved")
    end
    if st == "broken" then umpire.fail(sq.name .. " is broken: it moves in the Morale Phase, at its Run Rate toward " .. sq.rally_point .. " (Ch5)") end
    if m ~= "still" and (sq:has("opfire_passed") or sq:has("opfire_failed")) then
      umpire.fail(sq.name .. (sq:has("opfire_passed") and " took the opportunity to fire" or " failed its opportunity-fire test")
        .. ": it may not move this turn (Ch2 Opportunity Fire)")
    end
    if m == "run" then
      local w = sq:elements("marked:wounded unmarked:incapacitated")
      if #w > 0 then
        return (function()
          U.mark(sq, "no_fire", "ran: the squad may not fire this turn (Ch2)")
          return after(sq.name .. " runs: No Fire. Its wounded (" .. #w .. ") cannot run and may walk only: they may fall behind (separation, Ch1)")
        end)()
      end
      U.mark(sq, "no_fire", "ran: the squad may not fire this turn (Ch2)")
      return after(sq.name .. " runs: No Fire marker (Ch2)")
    end
    local walks = m == "walk" or m == "facing" or ((m == "crawl" or m == "prone") and umpire.option("crawl_is_walk") == "walk")
    if walks then
      U.mark(sq, "fire_plus1", (m == "walk" and "walked" or (m .. ", counted as walking (AMB-15)")) .. ": +1 to its ranged difficulty (Ch2)")
      return after(sq.name .. ": Fire +1 marker" .. (st == "demoralized" and "; demoralized: not toward any visible enemy (Ch5)" or ""))
    end
    return after(sq.name .. " stays still: no marker")
  end,
}

-- Ch2 Terrain and Barriers: the cost of one soldier's path.
umpire.command {
  name = "path",
  help = "the cost of a soldier's move over terrain and barriers against his rate (Ch2 Terrain and Barriers): "
    .. "path gob.2 walk scrub:2,clear:3 [barriers=low_wall] [stand]",
  args = { { name = "soldier", type = "element" },
           { name = "mode", type = "choice", values = { "walk", "run", "crawl", "charge" } },
           { name = "route", type = "text", help = "TERRAIN:INCHES,… then barriers=…, stand (got up from prone, 2\")" } },
  run = function(ctx, args)
    local segs, rest = args.route:match("^(%S+)%s*(.*)$")
    local o = U.opts(rest, { barriers = "word", stand = "flag" }, "path")
    local e = args.soldier
    local walk, run = U.rates(e)
    local mode = args.mode
    local c = ctx:check("Path of " .. e.name .. " (" .. mode .. ") (Ch2 Terrain and Barriers)")
    local rate
    if mode == "crawl" then rate = 2
    elseif mode == "walk" then rate = walk
    else
      if not run then
        if mode == "charge" then rate = walk; c:add(0, "wounded charger moves at his Walk rate (AMB-26)")
        else umpire.fail(e.name .. " is wounded: he cannot run (Ch3 Effects of Damage)") end
      else rate = run end
    end
    local textv = umpire.option("terrain_values") == "text"
    if o.stand then c:add(2, "standing up from prone", "Ch2 Prone Soldiers") end
    local bad = {}
    for t, n in segs:gmatch("([%a_]+):([%d%.]+)") do
      local tt = D.TERRAIN[t]
      if not tt then
        local k = {}
        for x in pairs(D.TERRAIN) do k[#k + 1] = x end
        table.sort(k)
        umpire.fail("path: no terrain `" .. t .. "` (" .. table.concat(k, ", ") .. "); impassable ground cannot be entered")
      end
      if tt.no_run and (mode == "run" or mode == "charge") then bad[#bad + 1] = t .. " is very rough: no running (Ch2)" end
      c:add(tonumber(n) * tt.mult, n .. "\" of " .. t .. " x" .. tt.mult, "Ch2 / Ch6 Terrain Effects Chart")
    end
    for b in tostring(o.barriers or ""):gmatch("[%a_]+") do
      local bb = D.BARRIER[b]
      if not bb then umpire.fail("path: no barrier `" .. b .. "`; impassable barriers cannot be crossed") end
      local cost = (textv and bb.text_cost) or bb.cost
      c:add(cost, "crossing " .. b, "Ch2 / Ch6 Barrier Effects Chart; AMB-19")
    end
    local cost = c:total()
    local okp = cost <= rate and #bad == 0
    c:result(U.num(cost) .. "\" of " .. U.num(rate) .. "\" " .. mode .. " rate: " .. (okp and ("legal, " .. U.num(rate - cost) .. "\" left") or "NOT legal"))
    umpire.record("cost", cost); umpire.record("rate", rate); umpire.record("legal", okp)
    return table.concat(bad, "\n") .. (#bad > 0 and "\n" or "") .. (okp and "legal" or (cost > rate and ("over by " .. U.num(cost - rate) .. "\": stop before the barrier and cross next Movement Phase, or shorten the move") or "not at a run"))
  end,
}

-- The Special Actions phase and the end of the turn: markers off, per-turn records cleared.
local function end_turn()
  local out = {}
  for _, sq in ipairs(umpire.units("all")) do
    for _, m in ipairs { "fire_plus1", "no_fire", "charged", "defensive_fired", "shot", "fought" } do
      if sq:has(m) then sq:unmark(m, "end of turn (Special Actions phase)") end
    end
    if sq.cas_turn > 0 then sq:set("cas_turn", 0, "end of turn") end
    if sq.cas_cc > 0 then sq:set("cas_cc", 0, "end of turn") end
    if sq.cas_all > 0 then sq:set("cas_all", 0, "end of turn") end
    if sq.targets ~= "" then sq:set("targets", "", "end of turn") end
    if sq.cc_result ~= "none" then sq:set("cc_result", "none", "end of turn") end
    if sq.sergeant_hit then sq:set("sergeant_hit", false, "end of turn") end
  end
  if store.special_done then store.special_done = nil end
  return out
end

umpire.on("round_ends", function() end_turn() end)

umpire.command {
  name = "endturn",
  help = "the Special Actions phase by hand: take off Fire +1 and No Fire markers and clear the turn's records (done by itself at the end of each round): endturn",
  args = {},
  run = function() end_turn(); return "markers cleared; a new turn may begin" end,
}

-- Advanced Game hooks (§10): the source names hero special actions but gives no rules.
-- A house rule handles `opend6fm_special_action` (fields: hero, action, params) and returns
-- true once it has resolved it; one special action per hero per turn is enforced here.
umpire.command {
  name = "special",
  help = "a hero's one special action this turn, resolved by a house rule (the Advanced Game is absent from the source): "
    .. "special hero.h1 bless · special hero.h1 cast firebolt gob.3 (a spell of a house rule's table)",
  args = { { name = "hero", type = "element" }, { name = "action", type = "text" } },
  run = function(ctx, args)
    A.use_special(args.hero)
    local act, params = args.action:match("^(%S+)%s*(.*)$")
    -- "magical skill use": a spell of a house rule's table (advanced.lua)
    if act == "cast" then return A.cast(ctx, args.hero, params) end
    umpire.emit("opend6fm_special_action", { hero = args.hero, action = act, params = params })
    return args.hero.name .. ": special action `" .. act .. "`" .. " (Advanced Game: resolved by a house rule, if one is on)"
  end,
}

-- The GM's surprises (§10): recorded in the journal and raised as `opend6fm_gm_event` for a
-- house rule; the game changes with the ordinary commands (`set`, `mark`) or the house rule.
umpire.command {
  name = "gmevent",
  help = "record a gamemaster's event and raise it for house rules (the Advanced Game's GM rules are absent): gmevent smoke drifts over the ford",
  args = { { name = "text", type = "text" } },
  run = function(ctx, args)
    local name = args.text:match("^(%S+)")
    umpire.emit("opend6fm_gm_event", { name = name, text = args.text, round = umpire.clock().round })
    return "GM event: " .. args.text
  end,
}

-- The Special Actions phase begins: battlefield conditions may change (weather, smoke, fire:
-- Advanced Game, absent). House rules update their templates on this event.
umpire.on("step_begins", function(ev)
  if ev.phase == "special" then
    umpire.emit("opend6fm_special_phase", { round = ev.round })
  end
end)
