-- The sequence of play (3.2-3.3): background initiative for deployment, reserves coming on,
-- the round's initiative, and activation in sets of five within each phase.
--
-- Rule state kept in the store (journalled and undone with the game):
--   store.deploy     = { winner = SIDE }                      background initiative (3.2)
--   store.initiative = { round = N, side = SIDE }             this round's initiative (3.3)
--   store.sets       = { round = N, phase = P, last = SIDE, count = { [SIDE] = n } }
local arg = require "olab.args"
local util = require "olab.util"

local M = {}

-- The readings of this part the umpire may switch (`option list`, `option set NAME VALUE`).
umpire.option {
  name = "round_structure",
  default = "phase_major",
  choices = {
    { "phase_major", "each phase is played through by both sides' sets in turn, then the next phase" },
    { "set_major", "each set plays all its phases before the other side's set; a stand is in one " ..
      "set a round" },
  },
  doc = "how sets and phases make up a round",
  rule = "3.3; AMB-01",
}
umpire.option {
  name = "initiative_ties",
  default = "roll_again",
  choices = {
    { "roll_again", "a tie in initiative (and background initiative, disputes) is rolled again" },
    { "holder_keeps", "the side that held the initiative the round before keeps it (in a dispute: " ..
      "this round's holder wins); with no holder yet, roll again" },
  },
  doc = "what a tied initiative or dispute roll means",
  rule = "3.2, 3.3, PN 1.3; AMB-33",
}
umpire.option {
  name = "leftover_sets",
  default = "last",
  choices = {
    { "last", "sets of fewer than five wait until neither side has a full set left" },
    { "in_turn", "a side's last, smaller set goes in its turn like any other" },
  },
  doc = "when a side's last set of fewer than five stands is activated",
  rule = "3.3; AMB-34",
}
umpire.option {
  name = "reserves_from",
  default = "round_2",
  choices = {
    { "round_2", "reserves roll from round 2 (\"a later round\")" },
    { "round_1", "reserves may roll from the first round" },
  },
  doc = "the first round reserves may come on",
  rule = "3.2; AMB-34",
}
umpire.option {
  name = "pcp_lost",
  default = "stands_lost",
  choices = {
    { "stands_lost", "the full PCP of stands eliminated or routed off the table" },
    { "with_sp_lost", "that, and each SP lost by a stand still in the game" },
  },
  doc = "what counts as PCP lost when a game ends on time",
  rule = "3.4; AMB-10",
}

function M.set_major()
  return umpire.option("round_structure") == "set_major"
end

-- The side whose initiative decides a tie under `initiative_ties holder_keeps`, or nil.
function M.tie_rule(sides, holder)
  if umpire.option("initiative_ties") ~= "holder_keeps" or not holder or #sides ~= 2 then
    return "again", nil
  end
  if holder == sides[1] then return "first", holder end
  if holder == sides[2] then return "second", holder end
  return "again", nil
end

-- Rolls D6 + C-in-C rating for every party (a team of allied sides rolls once, with its best
-- C-in-C's rating; a side in no team alone), each in its own breakdown, and rolls again on a
-- tie for first place, the tied only (AMB-33): ctx:opposed re-runs their functions and shows
-- each comparison. Returns the winning party (a team's name or a side's id).
local function contest(ctx, title, rule, holder)
  local parties = util.parties()
  if #parties < 2 then
    umpire.fail(#util.sides() < 2
      and "need two sides with stands; add them or load the armies (`army load FILE`)"
      or "every side is in one team: an initiative needs two parties (`team none SIDE…`)")
  end
  local names, makers = {}, {}
  for i, party in ipairs(parties) do
    names[i] = party.id
    makers[i] = function(attempt)
      local who = party.team and ("team " .. party.id .. " (" .. table.concat(party.sides, ", ") .. ")")
        or party.id
      local label = attempt == 1 and who or (who .. ", roll " .. attempt .. " after a tie")
      local c = ctx:check(title .. ": " .. label)
      c:roll("1d6", "initiative D6", rule, umpire.side(party.sides[1]))
      local rating, rating_label = require("olab.command").party_rating(party)
      c:add(rating, rating_label, rule)
      c:result(tostring(c:total()))
      return c
    end
  end
  local tie, keeper = M.tie_rule(names, holder)
  local o = ctx:opposed(makers, { tie = tie, names = names, title = title, rule = rule .. ", AMB-33" })
  if o.tie and keeper then
    print("tie: " .. keeper .. " held the initiative in the round before and keeps it " ..
      "(option initiative_ties holder_keeps)")
  end
  local totals = {}
  for i, name in ipairs(names) do totals[name] = o.totals and o.totals[i] or false end
  umpire.record("initiative", { title = title, totals = totals, winner = names[o.winner],
    ties = o.ties or 0, tie_kept_by = (o.tie and keeper) or false })
  return names[o.winner]
end

umpire.command {
  name = "deploy",
  help = "background initiative (3.2): D6 + C-in-C rating per side, ties roll again;\n" ..
    "the winner picks a table edge and deploys first or makes the opponent deploy first",
  args = {},
  run = function(ctx)
    local winner = contest(ctx, "Background initiative 3.2", "3.2")
    store.deploy = { winner = winner }
    return winner .. " wins the background initiative: choose a table edge, then deploy first " ..
      "or make the opponent do so. Scratch games: up to 8\" in from your edge, 6\" clear at the " ..
      "flanks, five stands at a time in turn (3.2)"
  end,
}

umpire.command {
  name = "initiative",
  help = "the round's initiative (3.3): D6 + C-in-C rating per side (allied sides, a `team`: once,\n" ..
    "with its best C-in-C), ties roll again;\n" ..
    "the winner's set goes first in each phase, unless it makes the opponent go first",
  args = { { name = "again", type = "flag", help = "roll again although rolled this round" } },
  run = function(ctx, args)
    local round = umpire.clock().round
    local prev = store.initiative
    if prev and prev.round == round and not args.again then
      umpire.fail("initiative for round " .. round .. " is already " .. prev.side ..
        "'s; add `again` to roll it afresh")
    end
    -- The side that held the initiative in the round before (for `initiative_ties`).
    local before = nil
    if prev and prev.round < round then before = prev.side elseif prev then before = prev.before end
    local winner = contest(ctx, "Initiative 3.3, round " .. round, "3.3", before)
    store.initiative = { round = round, side = winner, before = before }
    return winner .. " has the initiative in round " .. round .. " (3.3)"
  end,
}

-- A General's off-day roll before play (the Appendix's note to Napoleon's French: Waterloo was
-- an off-day, and a 5-6 on a D6 before play makes Napoleon merely Competent). Any General may be
-- given the roll; a 5-6 takes its rating one grade down, and a C-in-C's side rating with it.
local LOWER = { superior = "competent", competent = "inferior" }
umpire.command {
  name = "offday",
  help = "before play: a General's off-day roll (Appendix, Napoleon's French): D6, on a 5-6 its\n" ..
    "rating drops a grade (Superior to Competent) for the game; a C-in-C's side rating too",
  args = {
    { name = "general", type = "unit", help = "the General, e.g. napoleon" },
    arg.force("roll although play has begun"),
  },
  run = function(ctx, args)
    local g = args.general
    if g.general == "none" then
      umpire.fail(g.name .. " is not a General (general=none): the off-day roll is a General's")
    end
    if not LOWER[g.general] then
      umpire.fail(g.name .. " is already Inferior: an off day cannot make him worse")
    end
    local clock = umpire.clock()
    local before_play = clock.round <= 1 and (clock.phase == nil or clock.phase == "initiative")
    if not before_play and not args.force then
      umpire.fail("the off-day roll is made before play (Appendix, Napoleon's French); it is " ..
        clock.text .. ": add `force` to roll now")
    end
    local store_days = store.offdays or {}
    if store_days[g.id] and not args.force then
      umpire.fail(g.name .. " has had his off-day roll (" .. store_days[g.id] .. "); add `force` to roll again")
    end
    local c = ctx:check("Off-day roll before play: " .. g.name)
    local d = c:roll("1d6", "off-day D6 (5-6: an off day)", "Appendix", g)
    local off = d >= 5
    local old = g.general
    local new = LOWER[old]
    c:result(off and ("an off day: " .. new .. " instead of " .. old) or ("on form: " .. old))
    store_days[g.id] = off and ("off day, " .. new) or "on form"
    store.offdays = store_days
    umpire.record("offday", { general = g.id, d6 = d, off_day = off, rating = off and new or old })
    if not off then return g.name .. " is on form: still " .. old end
    g:set("general", new, "an off day: " .. old .. " to " .. new .. " for the game (Appendix)")
    if g.cinc then
      local side = umpire.side(g.side)
      local r = util.rating[new]
      if side.cinc_rating ~= r then
        side:set("cinc_rating", r, "the C-in-C's off day (Appendix)")
      end
    end
    return g.name .. " has an off day: " .. new .. " for this game" ..
      (g.cinc and " (the side's C-in-C rating follows)" or "")
  end,
}

-- The initiative side of the current round, or nil if not rolled.
function M.initiative_side()
  local i = store.initiative
  if i and i.round == umpire.clock().round then return i.side end
  return nil
end

-- The stands of `side` that still have to be activated in this phase: on the table, not
-- eliminated, no `activated` marker. The host picks them (and counts them, `M.left`) without
-- the rules reading every stand of the side.
local function waiting_selector(side)
  return "side:" .. side .. " off_table=no sp>0 unmarked:" .. (M.set_major() and "set_done" or "activated")
end
function M.waiting(side)
  return umpire.units(waiting_selector(side))
end
function M.left(side)
  return umpire.count(waiting_selector(side))
end
-- The stands of a party (a team or a side alone, util.parties) still to activate.
local function party_left(party)
  local n = 0
  for _, side in ipairs(party.sides) do n = n + M.left(side) end
  return n
end

-- Those that must move first (PN 3.3): routing (7.2) or out of command (4.1.2).
local function compulsory(side)
  return umpire.units(waiting_selector(side) .. " marked:routed|out_of_command")
end
local function is_compulsory(u)
  return u:has("routed") or u:has("out_of_command")
end

local function ids(list)
  local out = {}
  for i, u in ipairs(list) do out[i] = u.id end
  return table.concat(out, ", ")
end

-- The phases played in sets (3.3).
local SET_PHASES = { command = true, manoeuvre = true, shooting = true, close_combat = true,
  aob = true }

-- The set to activate next, as a command line the shell offers at its prompt (the umpire
-- accepts it with Enter or edits it): the party whose turn it is (the initiative's holder
-- first, then the parties alternate, a party with no full set letting the others go on, AMB-34),
-- its side with the most stands waiting, its compulsory stands first (PN, manoeuvre phase), then
-- the rest in army order, five at most. nil when no set is due.
function M.propose()
  local clock = umpire.clock()
  if not SET_PHASES[clock.phase] then return nil end
  local major = M.set_major()
  local span = major and "round" or clock.phase
  local st = store.sets
  local last = st and st.round == clock.round and st.phase == span and st.last or nil
  local parties, full = {}, false
  for _, p in ipairs(util.parties()) do
    local n = party_left(p)
    if n > 0 then
      parties[#parties + 1] = { p = p, n = n }
      if n >= 5 then full = true end
    end
  end
  if #parties == 0 then return nil end
  local pick
  local init = M.initiative_side()
  for _, c in ipairs(parties) do
    local due = (not last and (not init or c.p.id == init)) or (last and c.p.id ~= last)
    if due and (c.n >= 5 or not full) then pick = c break end
  end
  if not pick then
    for _, c in ipairs(parties) do if c.n >= 5 or not full then pick = c break end end
  end
  if not pick then return nil end
  local side, most = nil, -1
  for _, sd in ipairs(pick.p.sides) do
    local n = M.left(sd)
    if n > most then side, most = sd, n end
  end
  local chosen, seen = {}, {}
  local function add(u)
    if #chosen < 5 and not seen[u.id] then seen[u.id] = true; chosen[#chosen + 1] = u.id end
  end
  if not util.is_2e() and (clock.phase == "manoeuvre" or major) then
    for _, u in ipairs(compulsory(side)) do add(u) end
  end
  for _, u in ipairs(M.waiting(side)) do add(u) end
  if #chosen == 0 then return nil end
  return "activate " .. table.concat(chosen, ",")
end

umpire.command {
  name = "activate",
  help = "activate a set of exactly five stands of one side in this phase (3.3): sides\n" ..
    "alternate (allied sides, a `team`, as one); fewer than five only for a side's last stands,\n" ..
    "after all full sets (AMB-34); PN: in the manoeuvre phase routing and out-of-command stands\n" ..
    "come first. One line a set; the next set is proposed at the prompt (Enter accepts it)",
  args = {
    { name = "units", type = "selector", help = "the set, e.g. leg1,leg2,leg3,leg4,arc1" },
    arg.force("the umpire overrides the checks (journalled)"),
  },
  run = function(ctx, args)
    local set, clock = args.units, umpire.clock()
    local phase = clock.phase
    if phase == nil or phase == "initiative" then
      umpire.fail("sets are activated in the command, manoeuvre, shooting, close_combat and aob " ..
        "phases; move the clock on with `next`")
    end
    -- Set-major rounds (AMB-01): a set plays all its phases at once, so sets are counted over
    -- the round and a stand is in one set a round.
    local major = M.set_major()
    local span = major and "round" or phase
    local side = set[1].side
    local problems = {}
    local function problem(text) problems[#problems + 1] = text end
    for _, u in ipairs(set) do
      if u.side ~= side then umpire.fail("a set is of one side: " .. u.id .. " is " .. u.side) end
      if not util.on_table(u) then umpire.fail(u.id .. " is not on the table (" .. u.off_table .. ")") end
      if u.sp <= 0 then umpire.fail(u.id .. " has been eliminated (7.4)") end
      if major and u:has("set_done") then
        umpire.fail(u.id .. " has played its set this round: a set plays all its phases at once " ..
          "(3.3; option round_structure set_major)")
      end
      if u:has("activated") then umpire.fail(u.id .. " was already activated in this phase") end
    end
    if #set > 5 then umpire.fail("a set is five stands, not " .. #set .. " (3.3)") end
    local waiting = M.left(side)
    -- Sides alternate; allied sides (a team) alternate as one party with the other parties.
    local party = util.party_of(side)
    local others = {}
    for _, p in ipairs(util.parties()) do
      if p.id ~= party then others[#others + 1] = { side = p.id, n = party_left(p) } end
    end
    local other_full = nil
    for _, o in ipairs(others) do if o.n >= 5 then other_full = o.side end end
    if #set < 5 then
      if waiting >= 5 then
        problem(side .. " has " .. waiting .. " stands to activate: a set is exactly five (3.3)")
      elseif #set ~= waiting then
        problem("the last set must hold all of " .. side .. "'s " .. waiting ..
          " remaining stands (" .. ids(M.waiting(side)) .. ")")
      elseif other_full and umpire.option("leftover_sets") == "last" then
        problem("sets of fewer than five wait until the end: " .. other_full ..
          " still has full sets (3.3; AMB-34)")
      end
    end
    -- Sides alternate; a side with no full set left lets the other continue (AMB-34).
    local st = store.sets
    if not st or st.round ~= clock.round or st.phase ~= span then
      st = { round = clock.round, phase = span, count = {} }
      local init = M.initiative_side()
      if init and init ~= party then
        print("(" .. init .. " holds the initiative and lets " .. party .. " go first, 3.3)")
      end
    elseif st.last == party and other_full then
      problem("sides alternate: it is " .. other_full .. "'s turn to activate a set (3.3)")
    elseif st.last == party and umpire.option("leftover_sets") == "in_turn" then
      for _, o in ipairs(others) do
        if o.n > 0 then problem("sides alternate: it is " .. o.side .. "'s turn to activate a set " ..
          "(3.3; option leftover_sets in_turn)") break end
      end
    end
    -- PN: stands with a compulsory move are activated first.
    if not util.is_2e() and (phase == "manoeuvre" or major) then
      local must, chosen = {}, {}
      for _, u in ipairs(set) do chosen[u.id] = true end
      for _, u in ipairs(compulsory(side)) do
        if not chosen[u.id] then must[#must + 1] = u end
      end
      local free = false
      for _, u in ipairs(set) do if not is_compulsory(u) then free = true end end
      if #must > 0 and free then
        problem("compulsory moves first (PN 3.3): " .. ids(must) .. " must be in this set")
      end
    end
    if #problems > 0 then
      if not args.force then umpire.fail(table.concat(problems, "; ") .. "; add `force` to override") end
      print("umpire's override: " .. table.concat(problems, "; "))
    end
    local n = (st.count[side] or 0) + 1
    st.count[side] = n
    st.last = party
    store.sets = st
    -- One line a set: the marks are shown as one line (`leg1, leg2, … marked activated`), and
    -- their reason says which set it is and what is left to activate.
    local left = waiting - #set
    local rest = {}
    for _, o in ipairs(others) do rest[#rest + 1] = o.side .. " " .. o.n end
    local mine = side .. " " .. left
    if party ~= side then
      local p = { sides = util.party_sides(party) }
      mine = party .. " " .. (party_left(p) - #set) .. " (" .. mine .. ")"
    end
    local why = side .. " set " .. n .. " (" .. (major and "all phases, set-major" or phase) ..
      ", 3.3); still to activate: " ..
      mine .. (#rest > 0 and (", " .. table.concat(rest, ", ")) or "")
    for _, u in ipairs(set) do
      u:mark("activated", why)
    end
    if major then
      for _, u in ipairs(set) do
        u:mark("set_done", side .. " set " .. n .. " plays all its phases this round, before " ..
          "the other side's set (3.3; option round_structure set_major)")
      end
    end
    umpire.record("set", { side = side, number = n, phase = major and "round" or phase,
      units = (function() local t = {} for i, u in ipairs(set) do t[i] = u.id end return t end)(),
      left = left, forced = #problems > 0 })
    -- The shell offers the next set at its prompt (rulesets/README.md, "Proposals").
    local next_set = M.propose()
    if next_set then umpire.record("propose", next_set) end
    return nil
  end,
}

umpire.command {
  name = "sets",
  help = "who still has stands to activate in this phase, and who has the initiative (3.3)",
  args = {},
  run = function()
    local clock = umpire.clock()
    local lines = { clock.text .. "; initiative: " .. (M.initiative_side() or "not rolled") }
    for _, side in ipairs(util.sides()) do
      local must = compulsory(side)
      lines[#lines + 1] = string.format("%s: %d to activate%s", side, M.left(side),
        #must > 0 and (" (compulsory first: " .. ids(must) .. ")") or "")
    end
    -- Allied sides alternate as one: their total.
    for _, p in ipairs(util.parties()) do
      if p.team then
        lines[#lines + 1] = string.format("team %s (%s): %d to activate", p.id,
          table.concat(p.sides, ", "), party_left(p))
      end
    end
    local next_set = M.propose()
    if next_set then
      lines[#lines + 1] = "next: " .. next_set
      umpire.record("propose", next_set)
    end
    return table.concat(lines, "\n")
  end,
}

umpire.command {
  name = "reserves",
  help = "roll for reserves to come on (3.2): D6 each, 2-6 enters from behind its own base\n" ..
    "edge, 1 waits a round; from round 2 on. Default: every stand with off_table=reserve",
  args = {
    { name = "units", type = "selector", optional = true, help = "which reserves (default all)" },
    arg.force("roll although it is round 1"),
  },
  run = function(ctx, args)
    local round = umpire.clock().round
    local from = umpire.option("reserves_from") == "round_1" and 1 or 2
    if round < from and not args.force then
      umpire.fail("reserves come on from a later round than the first (3.2); add `force` to roll " ..
        "now, or `option set reserves_from round_1` for that reading (AMB-34)")
    end
    if round < 2 then print("(reserves in round 1: option reserves_from round_1)") end
    local units = args.units or umpire.units("off_table=reserve")
    local lines, rec = {}, {}
    for _, u in ipairs(units) do
      if u.off_table ~= "reserve" then
        umpire.fail(u.id .. " is not in reserve (off_table=" .. u.off_table .. ")")
      end
      local c = ctx:check("Reserves 3.2: " .. u.name)
      local d = c:roll("1d6", "reserves D6", "3.2", u)
      rec[#rec + 1] = { unit = u.id, d6 = d, enters = d >= 2 }
      if d >= 2 then
        c:result("enters")
        u:set("off_table", "no", "reserve arrives on a " .. d .. " (3.2)")
        lines[#lines + 1] = u.id .. " enters from behind its own base edge"
      else
        c:result("delayed a round")
        lines[#lines + 1] = u.id .. " is delayed: roll again next round"
      end
    end
    umpire.record("reserves", rec)
    if #lines == 0 then return "no stands in reserve" end
    return table.concat(lines, "\n")
  end,
}

-- Leaving a phase with stands not yet activated: every stand is activated once in each
-- phase, even to do nothing (AMB-34). A warning only; the umpire may move on.
umpire.on("pre_next", function()
  local phase = umpire.clock().phase
  if not SET_PHASES[phase] or M.set_major() then return end
  local left = {}
  for _, side in ipairs(util.sides()) do
    local n = M.left(side)
    if n > 0 then left[#left + 1] = side .. " " .. n end
  end
  if #left > 0 then
    print("note: stands not activated in the " .. phase .. " phase: " ..
      table.concat(left, ", ") .. " (3.3; AMB-34)")
  end
end)

-- Set-major rounds (AMB-01): the same note when the round ends.
umpire.on("round_ends", function()
  if not M.set_major() then return end
  local left = {}
  for _, side in ipairs(util.sides()) do
    local n = M.left(side)
    if n > 0 then left[#left + 1] = side .. " " .. n end
  end
  if #left > 0 then
    print("note: stands in no set this round: " .. table.concat(left, ", ") ..
      " (3.3; option round_structure set_major)")
  end
end)

-- Reminders as the clock moves: initiative at the start of a round, reserves and
-- compulsory moves when the manoeuvre phase begins.
umpire.on("round_begins", function(event)
  print("round " .. event.round .. ": roll `initiative` (3.3)")
end)

umpire.on("step_begins", function(event)
  if event.phase == "manoeuvre" then
    local n = umpire.count("off_table=reserve")
    local from = umpire.option("reserves_from") == "round_1" and 1 or 2
    if n > 0 and event.round >= from then
      print(n .. " stand(s) in reserve: `reserves` rolls for them (3.2)")
    end
  end
end)

-- 3.4: a game decided on time goes to the side that lost fewer PCP (AMB-10: the text says the
-- opposite, read as inverted). Lost: the full PCP of every stand eliminated and of every stand
-- routed off the table; retreated stands are not lost.
umpire.option {
  name = "score_on_time",
  default = "fewer_lost",
  choices = {
    { "fewer_lost", "the side that lost fewer PCP wins (AMB-10)" },
    { "more_lost", "the side that lost more PCP wins, as the sentence is printed" },
  },
  doc = "who wins a game decided on time",
  rule = "3.4; AMB-10",
}

umpire.command {
  name = "score",
  help = "PCP lost by each side (3.4; AMB-10): every stand eliminated or routed off the table,\n" ..
    "at its `pcp` (from `pcp … apply`) or its 2.2.2 price; on time, fewer lost wins",
  args = {},
  run = function(ctx)
    local stands = require "olab.stands"
    local sides = util.sides()
    if #sides == 0 then umpire.fail("no stands in the game") end
    local lost = {}
    for _, side in ipairs(sides) do
      local c = ctx:check("PCP lost 3.4: " .. side)
      c:add(0, "nothing lost yet", "3.4")
      local any = false
      for _, u in ipairs(umpire.units("side:" .. side .. " off_table=eliminated|routed_off")) do
        local how = u.off_table == "eliminated" and "eliminated" or "routed off the table"
        if not any then c:remove("nothing lost yet"); any = true end
        local pcp = u.pcp
        if pcp == 0 then pcp = stands.price(stands.tally(), u) end
        c:add(pcp, u.id .. " " .. how, "3.4; AMB-10")
      end
      if umpire.option("pcp_lost") == "with_sp_lost" then
        for _, u in ipairs(umpire.units("side:" .. side .. " off_table=no")) do
          if u.sp < u.sp_start then
            if not any then c:remove("nothing lost yet"); any = true end
            c:add(u.sp_start - u.sp, u.id .. " SP lost (option pcp_lost with_sp_lost)", "3.4; AMB-10")
          end
        end
      end
      lost[side] = c:total()
      c:result(lost[side] .. " PCP lost")
      local h = umpire.side(side)
      if h.pcp_lost ~= lost[side] then
        h:set("pcp_lost", lost[side], "PCP lost so far (3.4; AMB-10)")
      end
    end
    umpire.record("score", { pcp_lost = lost })
    local fewer = umpire.option("score_on_time") == "fewer_lost"
    table.sort(sides, function(a, b)
      if fewer then return lost[a] < lost[b] end
      return lost[a] > lost[b]
    end)
    if #sides > 1 and lost[sides[1]] == lost[sides[2]] then
      return "on time: level at " .. lost[sides[1]] .. " PCP lost each (3.4)"
    end
    if fewer then
      return "on time, " .. sides[1] .. " wins: it lost the fewest PCP (3.4; AMB-10)"
    end
    return "on time, " .. sides[1] .. " wins: it lost the most PCP (3.4, as printed; option score_on_time)"
  end,
}

return M
