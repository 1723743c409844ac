-- Other rules (8.1, 8.3, 8.4, 8.5): aircraft warloads and strikes (Table 11), strike AIR leaving
-- and returning, minefields and paradrops. Off-table ART and observers (8.2) and gas fired by
-- SKI/S or ART (8.4) are part of `shoot` (shooting.lua).
local arg = require "olab.args"
local util = require "olab.util"
local actions = require "olab.actions"
local shooting = require "olab.shooting"

local M = {}


-- What each kind of ordnance fires as (5.2.1, 5.1): the Table 7 row, whether it is Indirect,
-- whether it uses up an item of the warload, and its range rule.
local ORDNANCE = {
  guns = { doc = "its guns: Table 11's \"shoots as\", else MSK with rifles", item = false },
  bomb = { doc = "a bomb load as 130 mm ART, Indirect", row = "bl_80_130", indirect = true, item = true },
  dive_bomb = { doc = "a bomb load as 130 mm ART, dive-bombing: direct", row = "bl_80_130", item = true },
  guided_bomb = { doc = "a guided bomb as 130 mm ART: direct", row = "bl_80_130", item = true },
  rocket = { doc = "a rocket shot as its comparable ART, up to 24\" with the altitude", item = true },
  atgw = { doc = "an ATGW (+4 against TNK), Table 6 range with the altitude", item = true },
  aagw = { doc = "an AAGW (+4 against AIR), Table 6 range with the altitude", item = true },
  gas = { doc = "a gas bomb: Indirect, 1D6-2 more to each stand hit (8.4)", row = "bl_80_130",
    indirect = true, item = true },
}
local ORDNANCE_NAMES = { "guns", "bomb", "dive_bomb", "guided_bomb", "rocket", "atgw", "aagw", "gas" }

-- The Table 7 row of an AIR's guns (AMB-40): Table 11's "shoots as" when its aircraft type is
-- listed there (SKI/F: +2 and -2 as SKI; a jet: SKI/S, +3 and -2), else strafing as MSK with rifles.
umpire.option {
  name = "air_guns", default = "shoots_as",
  choices = {
    { "shoots_as", "an AIR's guns shoot as Table 11's \"shoots as\" (SKI/F +2 -2, SKI/S +3 -2) when its warload is listed" },
    { "rifles", "an AIR's guns always strafe as MSK with rifles: +2, no SKI -2 (5.2.1)" },
  },
  doc = "what an AIR's guns shoot as", rule = "5.2.1, Table 11; AMB-40",
}
umpire.option {
  name = "air_return", default = "tenth_round",
  choices = {
    { "tenth_round", "a strike AIR that left in round R may roll to return from round R+10" },
    { "after_ten", "only after ten whole rounds away: from round R+11" },
  },
  doc = "when a strike AIR may first roll to return", rule = "8.3; AMB-46",
}

local function guns_row(air)
  if umpire.option("air_guns") == "rifles" then
    return { key = "small_arms", label = "strafing, as MSK with rifles (option air_guns rifles)" }, nil
  end
  if air.warload ~= "unarmed" then
    local as = umpire.lookup("aircraft", air.warload).shoots_as
    if as == "SKI/F" then
      return { key = "small_arms", label = "guns, as SKI/F (Table 11, AMB-40)" }, "SKI/F"
    elseif as ~= "none" then
      return { key = "ski_s", label = "guns, as SKI/S (Table 11, AMB-40)" }, "SKI/S"
    end
  end
  return { key = "small_arms", label = "strafing, as MSK with rifles (5.2.1)" }, nil
end

-- The reach of an AIR's ordnance (5.1, Table 11): bombs, guns and gas attack a stand the AIR
-- flies over (or straight ahead of its base); rockets reach 24" and ATGW and AAGW their Table 6
-- range, each with the altitude allowance. Returns the range text; fails (with `force` as the
-- override where the rules allow it) when the target is out of reach. `reach` calls it too.
function M.air_reach(a, target, ordnance, range, arc, force, items_checked)
  if not ordnance then
    umpire.fail("name the ordnance: guns, bomb, dive_bomb, guided_bomb, rocket, atgw, aagw or gas (8.3)")
  end
  local kind = ORDNANCE[ordnance]
  if not kind then umpire.fail("`" .. ordnance .. "` is not AIR ordnance (guns, bomb, …, atgw, aagw, gas)") end
  if util.off_table(a) then umpire.fail(a.name .. " is not over the table (" .. a.off_table .. ")") end
  if a.sp <= 0 then umpire.fail(a.name .. " has no SP left") end
  if util.off_table(target) then umpire.fail(target.name .. " is not on the table") end
  if target.side == a.side then umpire.fail(target.name .. " is on " .. util.poss(a.name) .. " own side") end
  local function refuse(msg)
    if not force then umpire.fail(msg .. "; add `force` to override") end
    print("(umpire override) " .. msg)
  end
  if kind.item and a.ordnance < 1 and not items_checked then refuse(a.name .. " has no ordnance left (Table 11): `arm` it") end
  local text
  if ordnance == "rocket" or ordnance == "atgw" or ordnance == "aagw" then
    if not range then umpire.fail(ordnance .. " need the `range` in inches (5.1)") end
    local w = ordnance == "rocket" and a.weapon or ordnance
    if w == "" or not shooting.known(w) then
      umpire.fail(a.name .. " needs its rockets' comparable ART class: `set " .. a.id ..
        " weapon bl_to79` (5.1)")
    end
    local limit = ordnance == "rocket" and 24 or umpire.lookup("ranges", w)
    local eff = util.rhu(range) + shooting.altitude(a, target)
    text = string.format("range %d\" + %d\" altitude = %d\"; %s reach %d\"",
      util.rhu(range), eff - util.rhu(range), eff, ordnance, limit)
    if eff > limit then
      refuse(string.format("%s is out of range: %d\" > %d\" (5.1)", target.name, eff, limit))
    end
    return text, w, eff
  end
  text = ordnance .. ": " .. kind.doc .. "; on a stand " .. a.name .. " flies over, or straight " ..
    "ahead of its base (5.1)"
  return text
end

umpire.command {
  name = "strike",
  help = "an AIR attacks in its pass: guns, a bomb load, rockets, ATGW/AAGW or gas (5.1, 5.2.1, " ..
    "Table 11); a strike AIR then leaves to re-arm (8.3)\n" ..
    "e.g. `strike stuka tank dive_bomb`, `strike typhoon tiger rocket 6`, `strike b25 a bomb more b`",
  args = {
    { name = "air", type = "unit", help = "the AIR stand" },
    { name = "target", type = "unit", help = "the stand attacked (flown over, or in range)" },
    { name = "ordnance", type = "choice", values = ORDNANCE_NAMES, help = "what it delivers" },
    { name = "range", type = "distance", optional = true,
      help = "ground distance in inches, for rockets, ATGW and AAGW" },
    arg.arc("arc", "the target's arc the attack strikes (AMB-51: AIR get no flank or rear bonus " ..
      "unless option flank_fire at_ground)"),
    arg.cover("the first target's cover (default: its `cover` attribute)"),
    { name = "target2", type = "unit", optional = true,
      help = "Indirect bombs: a second stand within 4\" of the first (5.2.1)" },
    { name = "more", type = "flag", help = "more ordnance follows in this pass: do not leave yet" },
    arg.force("umpire's override (empty warload, range, action limit)"),
  },
  run = function(ctx, args)
    local a, kind = args.air, ORDNANCE[args.ordnance]
    if a.type ~= "AIR" then umpire.fail(a.name .. " is not AIR: use `shoot` (5.1)") end
    if util.off_table(a) then umpire.fail(a.name .. " is not over the table (" .. a.off_table .. ")") end
    if a.sp <= 0 then umpire.fail(a.name .. " has no SP left") end
    local targets = { args.target }
    if args.target2 then targets[2] = args.target2 end
    if #targets > 1 and not kind.indirect then
      umpire.fail("only Indirect bombs hit a second stand (5.2.1)")
    end
    for _, t in ipairs(targets) do
      if t.side == a.side then umpire.fail(t.name .. " is on " .. util.poss(a.name) .. " own side") end
      if util.off_table(t) then umpire.fail(t.name .. " is not on the table") end
    end
    if kind.item and a.ordnance < 1 then
      if not args.force then
        umpire.fail(a.name .. " has no ordnance left (Table 11): `arm` it, or add `force`")
      end
      print("(umpire override) " .. a.name .. " has no ordnance left")
    end
    -- One pass, one firing action: the first strike of a pass uses SHOOT.
    local pass = store.air_pass or {}
    if pass[a.id] ~= util.round() then actions.use(a, "shoot", args.force) end
    local spec = { firer = a, targets = targets, arc = args.arc or "front", air = true, skip_checks = true,
      indirect = kind.indirect, chemical = args.ordnance == "gas", force = args.force,
      cover = args.cover and ({ open = 0, cover = 1, double = 2 })[args.cover] or nil,
      title = "Air strike (" .. args.ordnance .. ")", range = 0, weapon = "bl_80_130" }
    if kind.row then
      spec.weapon_row = function() return { key = kind.row, label = kind.doc } end
    elseif args.ordnance == "guns" then
      local r, as = guns_row(a)
      spec.weapon_row = function() return r end
      spec.as_ski = as
    else
      -- rockets, ATGW, AAGW: in range, with the altitude allowance (5.1)
      local text, w, eff = M.air_reach(a, args.target, args.ordnance, args.range, args.arc, args.force, true)
      spec.range_text = text
      spec.weapon = w
      spec.range = eff
    end
    if kind.item and a.ordnance > 0 then a:add("ordnance", -1, args.ordnance .. " released (Table 11)") end
    local out = shooting.resolve(ctx, spec)
    local left = false
    if not args.more and not a.loiter and a.air ~= "creature" and not util.off_table(a) then left = true end
    -- For programs: what was delivered, how many items are left, whether the AIR leaves.
    umpire.record("strike", { air = a.id, ordnance = args.ordnance, items_left = a.ordnance,
      leaves = left })
    if args.more then
      pass[a.id] = util.round()
      store.air_pass = pass
      return out .. "\n" .. a.name .. " continues its pass"
    end
    pass[a.id] = nil
    store.air_pass = pass
    if not a.loiter and a.air ~= "creature" and not util.off_table(a) then
      a:set("off_table", "air_away", "one pass made: leaves to re-arm (8.3)")
      M.record_departure(a.id)
      out = out .. "\n" .. a.name .. " leaves to re-arm; it may try to return from round " ..
        (util.round() + 10) .. " (`airreturn`, 8.3)"
    end
    return out
  end,
}

-- Table 11: load an AIR's warload.
umpire.command {
  name = "arm",
  help = "loads an AIR with its Table 11 warload (sci-fi: PN +1 item, 2e +2) and shows the " ..
    "extra PCP (8.3)\ne.g. `arm stuka fighter_bomber`",
  args = {
    { name = "air", type = "unit", help = "the AIR stand" },
    { name = "warload", type = "choice", values = { "fighter", "fighter_bomber",
      "tactical_bomber", "jet", "attack_helicopter", "unarmed" }, help = "its Table 11 row" },
    { name = "scifi", type = "flag", help = "a sci-fi attack AIR: more ordnance, +5 PCP" },
  },
  run = function(ctx, args)
    local a = args.air
    if a.type ~= "AIR" then umpire.fail(a.name .. " is not AIR") end
    local row = umpire.lookup("aircraft", args.warload)
    local items, pcp = row.items, row.pcp
    local scifi = args.scifi or a.scifi
    if scifi and args.warload ~= "unarmed" then
      items = items + (util.is_2e() and 2 or 1)
      pcp = pcp + 5
    end
    if a.warload ~= args.warload then a:set("warload", args.warload, "Table 11 (8.3)") end
    if args.scifi and not a.scifi then a:set("scifi", true, "a sci-fi attack AIR (8.7.2)") end
    a:set("ordnance", items, "warload: " .. items .. " item(s) (Table 11)")
    local w = store.warload or {}
    w[a.id] = items
    store.warload = w
    -- the recommended cap: non-loitering AIR at most 10% of the army's stands (8.3)
    local all = umpire.count("side:" .. a.side)
    local strike = umpire.count("side:" .. a.side .. " type=AIR loiter=false")
    local out = string.format("%s: %s, shoots as %s, %d item(s) of %s, +%d PCP (Table 11)",
      a.name, args.warload, row.shoots_as, items, row.ordnance, pcp)
    if 10 * strike > all then
      out = out .. string.format("\nnote: %d strike AIR in %d stands is over the 10%% recommended (8.3)",
        strike, all)
    end
    return out
  end,
}

-- 8.3: the round each AIR left the table to re-arm (`store.air_away`), however it left: by
-- `strike`, or by the umpire's `set ID off_table air_away` or an `add unit … off_table=air_away`
-- (their `pre_` events). `airreturn` counts the ten rounds from it.
function M.record_departure(id)
  local away = store.air_away or {}
  away[id] = util.round()
  store.air_away = away
end

-- The ids a built-in `set`/`add unit` line puts away (`off_table` to `air_away`), from its words.
local function departures(words, first)
  local away = false
  for i = first + 1, #words do
    local w = words[i]
    if w == "off_table=air_away" or (w == "off_table" and words[i + 1] == "air_away") then away = true end
  end
  if not away then return {} end
  local ids = {}
  for id in tostring(words[first] or ""):gmatch("[^,]+") do ids[#ids + 1] = id end
  return ids
end

umpire.on("pre_set", function(ev)
  for _, id in ipairs(departures(ev.words, 1)) do
    local u = umpire.unit(id)
    if u and u.off_table ~= "air_away" then M.record_departure(id) end
  end
end)
umpire.on("pre_add", function(ev)
  -- `add unit COMMAND ID NAME … off_table=air_away`
  if ev.words[1] == "unit" then
    for _, id in ipairs(departures(ev.words, 3)) do M.record_departure(id) end
  end
end)

-- 8.3: a strike AIR that left may return after ten rounds, on a 6 (AMB-46).
umpire.command {
  name = "airreturn",
  help = "a strike AIR that left to re-arm rolls to return: from ten rounds after it left, " ..
    "on a D6 of 6 (8.3, AMB-46)",
  args = {
    { name = "air", type = "unit", help = "the AIR stand away re-arming" },
    arg.force("the umpire lets it roll although ten rounds have not passed, or its departure is unknown"),
  },
  run = function(ctx, args)
    local a = args.air
    if a.off_table ~= "air_away" then umpire.fail(a.name .. " is not away re-arming (8.3)") end
    local left = (store.air_away or {})[a.id]
    if not left then
      if not args.force then
        umpire.fail(string.format("%s's departure round is not known (8.3): add `force` to roll " ..
          "anyway", a.name))
      end
      print("(umpire override) " .. a.name .. "'s departure round is not known (8.3)")
    else
      local wait, why = 10, ""
      if umpire.option("air_return") == "after_ten" then
        wait, why = 11, ", after ten whole rounds away (option air_return after_ten)"
      end
      if util.round() < left + wait then
        if not args.force then
          umpire.fail(string.format("%s left in round %d: it may try from round %d (8.3%s); add " ..
            "`force` to override", a.name, left, left + wait, why))
        end
        print(string.format("(umpire override) %s left in round %d: it could try from round %d (8.3%s)",
          a.name, left, left + wait, why))
      end
    end
    local c = ctx:check("AIR return 8.3: " .. a.name)
    local d = c:roll("1d6", "return D6", "8.3", a)
    -- For programs: the return roll and whether the AIR came back.
    umpire.record("airreturn", { air = a.id, left_round = left, roll = d, returns = d >= 6 })
    if c:total() >= 6 then
      c:result("returns")
      a:set("off_table", "no", "returns re-armed (8.3)")
      local items = (store.warload or {})[a.id]
      if items then a:set("ordnance", items, "re-armed (8.3)") end
      return a.name .. " returns"
    end
    c:result("not this round (needs 6)")
    return a.name .. " stays away"
  end,
}

-- 8.1: a stand crossing a minefield.
umpire.command {
  name = "minefield",
  help = "a stand that enters or crosses a minefield loses 1D6 SP, no save (8.1, AMB-44); " ..
    "engineers' cleared lanes are safe",
  args = { { name = "stand", type = "unit", help = "the stand crossing" } },
  run = function(ctx, args)
    local u = args.stand
    local c = ctx:check("Minefield 8.1: " .. u.name)
    c:roll("1d6", "minefield damage, no save", "8.1", u)
    local hp = c:total()
    c:result(hp .. " SP lost")
    local before = u.sp
    util.damage(u, hp, hp .. " SP to a minefield (8.1)")
    return string.format("%s: SP %d → %d", u.name, before, u.sp)
  end,
}

-- 8.1: engineers clear a lane through a minefield.
umpire.command {
  name = "clearlane",
  help = "engineers clear a minefield lane one base wide, 2\" a move; that round they may not " ..
    "shoot or fight (8.1). Uses the MOVE action",
  args = {
    { name = "stand", type = "unit", help = "a stand with the `engineer` flag" },
    arg.force("umpire's override"),
  },
  run = function(ctx, args)
    local u = args.stand
    if not u.engineer and not args.force then
      umpire.fail(u.name .. " is not engineers: `set " .. u.id .. " engineer true` (8.1)")
    end
    if (u:has("shot") or u:has("fought")) and not args.force then
      umpire.fail(u.name .. " has shot or fought this round; engineers clearing mines may not (8.1)")
    end
    actions.use(u, "move", args.force)
    if not u:has("clearing") then u:mark("clearing", "clearing a minefield lane (8.1)") end
    return u.name .. " clears 2\" of lane, one base wide: stands using it take no mine damage (8.1)"
  end,
}

-- 8.5: paratroops landing. Stands dropped from off the table (in reserve, or aloft in their
-- transports) come on; with a Command named, they land under it and join it.
local LANDS_FROM = { no = true, reserve = true, air_away = true }

umpire.command {
  name = "paradrop",
  help = "each stand landing by parachute or glider takes 1D6-3 HP, no save (8.5); stands in\n" ..
    "reserve or aloft (off_table=reserve|air_away) come on, and with COMMAND they join it\n" ..
    "e.g. `paradrop para1,para2`, `paradrop para1,para2 b2`",
  args = {
    { name = "stands", type = "selector", help = "the stands landing" },
    { name = "command", type = "group", optional = true,
      help = "the Command they land under (its General's command distance counts, 8.5)" },
  },
  run = function(ctx, args)
    local out = {}
    local cmd = args.command
    for _, u in ipairs(args.stands) do
      if not LANDS_FROM[u.off_table] then
        umpire.fail(u.name .. " cannot land: it is " .. u.off_table .. " (off_table)")
      end
      if cmd and cmd.side ~= u.side then
        umpire.fail(cmd.name .. " is a Command of " .. cmd.side .. ", not of " .. u.side ..
          ": paratroops land under their own side's Command (8.5)")
      end
    end
    for _, u in ipairs(args.stands) do
      if u.off_table ~= "no" then
        u:set("off_table", "no", "lands by parachute or glider (8.5)")
      end
      if cmd and u.command ~= cmd.id then
        u:move_to(cmd, "lands under " .. cmd.name .. " (8.5)")
      end
      local c = ctx:check("Landing 8.5: " .. u.name)
      c:roll("1d6", "landing D6", "8.5", u)
      c:add(-3, "landing", "8.5")
      local hp = math.max(0, c:total())
      c:result(hp .. " HP, no save")
      local before = u.sp
      util.damage(u, hp, hp .. " HP landing (8.5)")
      local para = store.paradropped or {}
      para[u.id] = true
      store.paradropped = para
      out[#out + 1] = string.format("%s: SP %d → %d", u.name, before, u.sp)
    end
    out[#out + 1] = util.is_2e() and
      "stands outside their General's command distance must move back and may not shoot until they do (2e 8.5)" or
      "stands outside their General's command distance lose 1 SP a turn as in 4.1.2 (PN 8.5)"
    return table.concat(out, "\n")
  end,
}

return M
