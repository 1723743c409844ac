-- Manoeuvre (4.2-4.4): how far a stand may move (Tables 4 and 5 with the 4.3 deductions),
-- charges and evades. The umpire describes the move; the script works out the allowance,
-- refuses what the rules forbid, and records the MOVE action (2.1.1).
local arg = require "olab.args"
local util = require "olab.util"
local actions = require "olab.actions"

local M = {}

-- The readings of this part the umpire may switch (`option list`, `option set NAME VALUE`).
umpire.option {
  name = "minimum_move",
  default = "after_costs",
  choices = {
    { "after_costs", "a stand may always move 2\", whatever the deductions and terrain costs" },
    { "before_terrain", "the allowance is raised to 2\" before terrain costs: 2\" of woods is 1\"" },
  },
  doc = "where the 2\" minimum move applies",
  rule = "4.3; AMB-31",
}
umpire.option {
  name = "road_bonus",
  default = "bonus_doubled",
  choices = {
    { "bonus_doubled", "TNK and motor transport get the road bonus twice: +8\"" },
    { "move_doubled", "TNK and motor transport double their whole move on a road" },
  },
  doc = "what \"double if TNK or motor TPT\" doubles on a road",
  rule = "Table 5; AMB-32",
}
umpire.option {
  name = "evade_outcome",
  default = "charge_goes_on",
  choices = {
    { "charge_goes_on", "the charger goes on up to its full charge move and may still make contact" },
    { "charge_stops", "the charge ends where the evader stood: no contact this round" },
  },
  doc = "what becomes of a charge whose target evades",
  rule = "4.4; AMB-18",
}
umpire.option {
  name = "charge_bonus_contact",
  default = "first_round",
  choices = {
    { "first_round", "the charge bonus only for contact in the round the charge was declared" },
    { "any_round", "a charge that goes on into later rounds keeps its bonus until contact" },
  },
  doc = "when contact still earns the Table 9 charge bonus",
  rule = "6.2; AMB-19",
}
umpire.option {
  name = "precontact_action",
  default = "shoot",
  choices = {
    { "shoot", "pre-contact fire is the charged stand's SHOOT action" },
    { "none", "pre-contact fire uses no action: a stand that has shot may still fire" },
  },
  doc = "what firing at a charger before contact costs",
  rule = "6.3; AMB-21",
}

umpire.option {
  name = "charge_bonus_targets",
  default = "all_pke",
  choices = {
    { "all_pke", "no charge bonus against the front of ART, SKI/S or any PKE, war elephants included" },
    { "no_elephants", "war elephants (PKE flagged `elephant`) do not deny the bonus: they are no pike hedge" },
  },
  doc = "which stands' front denies a charger the charge bonus",
  rule = "4.4, Table 1; AMB-22",
}

-- A check that also keeps each step added, for `umpire.record`.
local function recording(c)
  local steps = {}
  local proxy = setmetatable({ steps = steps }, {
    __index = function(_, k)
      if k == "add" then
        return function(_, v, label, rule)
          steps[#steps + 1] = { value = v, label = label }
          return c:add(v, label, rule)
        end
      end
      local f = c[k]
      if type(f) == "function" then return function(_, ...) return f(c, ...) end end
      return f
    end,
  })
  return proxy
end

local function moves(key) return umpire.lookup("moves", key) end

-- Who may evade a charge (4.4): SKI/F and SKI/M.
function M.may_evade(u)
  return u.type == "SKI/F" or u.type == "SKI/M"
end
local function terrain(key) return umpire.lookup("terrain", key) end

-- Half the speed of each transport a stand may mount or leave (4.3).
M.transports = { animal = 6, cavalry = 10, motor = 10, slow_tnk = 8, medium_tnk = 10, fast = 16 }
local transport_names = { "animal", "cavalry", "motor", "slow_tnk", "medium_tnk", "fast" }

local FOOT = { ["INF/A"] = true, ["INF/U"] = true, WBD = true, PKE = true, ARC = true,
  MSK = true, ["SKI/F"] = true, ["SKI/S"] = true }

-- Wheeled for Table 5: motor and jeep transport, and guns moving on their limbers (PN).
local function wheeled(u)
  return (u.type == "TPT" or u.type == "ART") and (u.transport == "motor" or u.transport == "jeep")
    or (u.type == "ART" and u.transport == "animal")
end

-- Motor vehicles for the road bonus: TNK, motor TPT, and a gun moving on its motor limber.
local function motorised(u, m)
  return util.is_motor(u) or (u.type == "ART" and (u.transport == "motor" or u.transport == "jeep")
    and (u.formation == "limbered" or m.limber))
end

-- Whether an ART stand moves on its limber this time: it has a transport and is limbered
-- already or limbers as part of this move.
local function on_limber(u, m)
  return u.type == "ART" and u.transport ~= "none" and (u.formation == "limbered" or m.limber)
end

-- The Table 4 row for a stand (`m`: the move described).
local function table4(u, m)
  local t = u.type
  if t == "INF/A" or t == "INF/U" then return "INF" end
  if t == "TNK" then
    if u.speed == "none" then
      umpire.fail(u.id .. " is a TNK without a speed: set speed=slow|medium|fast (Table 4)")
    end
    return "TNK " .. u.speed
  end
  if t == "ART" and not on_limber(u, m) then return "ART manhandled" end
  if t == "TPT" or t == "ART" then
    local tr = u.transport
    if tr == "animal" or tr == "motor" or tr == "jeep" then return "TPT " .. tr end
    umpire.fail(u.id .. " is a TPT without a kind: set transport=animal|motor|jeep (Table 4)")
  end
  if t == "AIR" then
    if u.air == "fixed" then return "AIR fixed" end
    return u.loiter and "AIR rotary loitering" or "AIR rotary"
  end
  return t
end

-- Works out the allowance for a move described by `m` (see the `move` arguments), adding
-- every step to check `c`. Returns the allowance in inches, or raises the reason the move
-- is not allowed.
function M.allowance(c, u, m)
  u = util.as_protected(u) -- a stand protected as a TNK moves as one (2.2.4)
  local key = table4(u, m)
  local row = moves(key)
  if u.type == "AIR" then
    local lo, hi = row.min, util.ed(row)
    c:add(hi, key .. " maximum (minimum " .. lo .. "\")", "Table 4")
    return hi, lo
  end
  -- Formations that hardly move (6.6).
  if u.formation == "square" then
    if not util.is_2e() then umpire.fail(u.name .. " is in square: a square cannot move (PN 6.6)") end
    c:add(2, "square: the 2\" minimum only", "2E 6.6")
    return 2, 0
  end
  if u.formation == "testudo" then
    c:add(2, "testudo: the 2\" minimum only", "6.6")
    return 2, 0
  end
  local base
  local label, rule = key, "Table 4"
  local own = util.own_type(u)
  if own then
    label, rule = key .. " (" .. own .. " moving as the TNK it is protected as)", "Table 4, 2.2.4"
  end
  if type(row) == "table" then
    base = m.charge and row.charge or row.move
    c:add(base, label .. (m.charge and " charging" or ""), rule)
  else
    base = row
    c:add(base, label, rule)
  end
  if key == "TPT animal" and u.type == "ART" and u.horse_artillery then
    c:add(moves("horse artillery TPT"), "horse artillery", "2.2.4")
  end
  c:point("olab.move.allowance", { stand = u, move = m, row = key })
  if m.backstep then
    if not FOOT[u.type] or u.type:match("^SKI") then
      umpire.fail("only infantry may backstep (4.3); " .. u.id .. " is " .. u.type)
    end
    c:add(util.rhu(base / 2) - base, "backstep: half a move straight back", "4.3")
  end
  if m.road then
    if m.charge then
      c:add(0, "no road bonus when charging", "Table 5")
    else
      local r = terrain("road")
      if motorised(u, m) and umpire.option("road_bonus") == "move_doubled" then
        c:add(c:total(), "whole move along a road, doubled for TNK/motor (option road_bonus " ..
          "move_doubled)", "Table 5; AMB-32")
      else
        local bonus = motorised(u, m) and r.motor or r.bonus
        c:add(bonus, "whole move along a road" .. (bonus == r.motor and " (TNK/motor)" or ""),
          "Table 5; AMB-32")
      end
    end
  end
  if m.slope then c:add(terrain("steep slope up"), "up a steep slope", "Table 5") end
  if m.obstacle then
    c:add(util.ed(terrain("linear obstacle")), "crossing a linear obstacle",
      util.is_2e() and "2E 4.3" or "PN 4.3")
  end
  if m.disengage then c:add(terrain("disengage"), "disengaging", "4.3") end
  if m.swap then c:add(terrain("swap places"), "swapping places", "4.3") end
  local limbering = (m.limber and 1 or 0) + (m.unlimber and 1 or 0)
  if limbering > 0 then
    if u.type ~= "ART" then umpire.fail("only ART limber or unlimber (Table 4)") end
    local per = (u.transport == "animal") and moves("limber animal") or moves("limber motor")
    c:add(per * limbering, (limbering == 2 and "limbering and unlimbering" or
      (m.limber and "limbering" or "unlimbering")) .. " (" .. per .. "\" each)", "Table 4")
  end
  if m.mounting then
    local speed = M.transports[m.mounting]
    c:add(-util.rhu(speed / 2), "mounting/dismounting: half of " .. m.mounting .. " " ..
      speed .. "\"", "4.3")
  end
  if m.terrain == "woods" and u.type:match("^SKI") then
    c:add(terrain("woods").ski_flat, "SKI in woods (instead of double cost)", "Table 5")
  end
  return c:total(), 0
end

-- Refuses terrain the stand may not enter (Table 5, 4.3).
local function check_terrain(u, m)
  local t, code = m.terrain, u.type
  local main = util.main_type(code)
  if not t or t == "open" or m.road then return end
  local function no(why) umpire.fail(u.name .. " cannot enter " .. t .. ": " .. why) end
  if t == "woods" then
    if code == "PKE" then no("woods are impassable to PKE (Table 5)") end
    if not util.is_2e() and wheeled(u) then no("PN: woods are impassable to wheeled vehicles") end
  elseif t == "bua" then
    if code == "PKE" or main == "CAV" or code == "ART" or code == "TPT" or code == "TNK" then
      no(code .. " enter built-up areas only along roads (add `road`) (Table 5)")
    end
  elseif t == "marsh" then
    if code == "ART" or code == "TNK" or main == "CAV" or code == "PKE" then
      no("marsh is impassable to ART, TNK, CAV and PKE (Table 5)")
    end
    if code == "TPT" and (u.transport == "motor" or u.transport == "jeep") then
      no(util.is_2e() and "2E: marsh bars TPT not on foot" or "PN: marsh bars wheeled TPT")
    end
  elseif t == "river" then
    if main ~= "SKI" then
      no("only SKI cross rivers away from bridges and fords (use `ford`, or `road` for a bridge)")
    end
  end
end

-- The cost of the route: open ground 1:1, `inside` inches of terrain at its rate.
local function route_cost(u, m, distance)
  local inside = m.inside or 0
  if not m.terrain or m.terrain == "open" or m.road then return distance, "" end
  local rate = terrain(m.terrain).cost
  if m.terrain == "woods" and u.type:match("^SKI") then rate = 1 end
  if inside > distance then distance = inside end
  return (distance - inside) + inside * rate,
    string.format("%g\" open + %g\" %s x%d", distance - inside, inside, m.terrain, rate)
end

-- Moves happen when a stand's set is activated (3.3): a reminder, not a refusal, since
-- the umpire may resolve moves without keeping the sets in umpire.
local function remind_activation(u)
  if umpire.clock().phase == "manoeuvre" and not u:has("activated") then
    print("note: " .. u.id .. " has not been activated in this manoeuvre phase (`activate`, 3.3)")
  end
end

-- The one free change of facing a round (4.3); a charge may turn once at its start (4.4).
local function check_turn(u, m)
  if m.turn and u:has("turned") and not m.force then
    umpire.fail(u.name .. " has already changed facing this round (4.3); add `force` to override")
  end
end

local function record_turn(u, m)
  if m.turn and not u:has("turned") then u:mark("turned", "its change of facing (4.3)") end
end

-- The move arguments shared by `move` and `charge`.
local move_args = {
  { name = "terrain", type = "choice", optional = true,
    values = { "open", "woods", "bua", "marsh", "river", "ford" },
    help = "difficult ground on the route (Table 5)" },
  { name = "inside", type = "distance", optional = true,
    help = "inches of the route inside that ground" },
  { name = "mounting", type = "choice", optional = true, values = transport_names,
    help = "mounting or dismounting this transport: half its speed (4.3)" },
  { name = "road", type = "flag", help = "the whole move is along a road (Table 5)" },
  { name = "slope", type = "flag", help = "moving up a steep slope (Table 5)" },
  { name = "obstacle", type = "flag", help = "crossing a wall or hedge (4.3)" },
  { name = "swap", type = "flag", help = "swapping places with an adjacent stand (4.3)" },
  { name = "limber", type = "flag", help = "ART limbers up (Table 4)" },
  { name = "unlimber", type = "flag", help = "ART unlimbers (Table 4)" },
  { name = "turn", type = "flag", help = "changes facing: once a round (4.3; a charge's one turn)" },
  { name = "plan", type = "flag", help = "only work it out: no MOVE action recorded" },
  arg.force("the umpire overrides the action limit (2.1.1) and the distance allowed (Tables 4-5)"),
}

local function with(extra)
  local out = {}
  for _, a in ipairs(extra) do out[#out + 1] = a end
  for _, a in ipairs(move_args) do out[#out + 1] = a end
  return out
end

-- Works out and judges a move; returns the allowance, the cost and a verdict line.
local function judge(ctx, title, u, m)
  u = util.as_protected(u) -- the Wespe moves as the TNK it is (2.2.4)
  if m.inside and not m.terrain then
    umpire.fail("INSIDE needs the ground it is in, e.g. `woods 2` (Table 5)")
  end
  if m.inside and m.inside < 0 then umpire.fail("INSIDE is a distance: 0 or more inches") end
  if m.inside and m.distance and util.rhu(m.inside) > util.rhu(m.distance) then
    umpire.fail(string.format("INSIDE (%g\") is more than the whole move (%g\"): give the move's " ..
      "length first, then the part of it in %s", m.inside, m.distance, m.terrain))
  end
  if m.terrain and m.terrain ~= "open" and m.inside == nil and m.distance then
    m.inside = m.distance -- the whole move is in that ground
  end
  check_terrain(u, m)
  local c = recording(ctx:check(title))
  local allow, min = M.allowance(c, u, m)
  local distance = m.distance and util.rhu(m.distance) or nil
  local rec = { unit = u.id, allowance = allow, steps = c.steps, distance = distance or false }
  m.record = rec
  if u.type == "AIR" then
    rec.minimum = min
    if distance and (distance < min or distance > allow) then
      c:result("not allowed")
      umpire.fail(u.name .. " must fly between " .. min .. "\" and " .. allow .. "\" (Table 4)")
    end
    c:result(min .. "-" .. allow .. "\"")
    rec.allowed = true
    return allow, distance
  end
  local limit = 2 -- the minimum move (4.3; AMB-31)
  -- AMB-31's other reading: the 2" floor is on the allowance, and terrain is paid out of it.
  local floor_first = umpire.option("minimum_move") == "before_terrain"
  if floor_first and allow < limit then
    c:add(limit - allow, "raised to the 2\" minimum before terrain (option minimum_move before_terrain)",
      "4.3; AMB-31")
    allow = limit
    rec.allowance = allow
  end
  local capped = m.terrain == "woods" and not m.road and
    (util.main_type(u.type) == "CAV" or u.type == "ART" or u.type == "TPT" or u.type == "TNK")
  if distance == nil then
    if m.terrain and m.terrain ~= "open" and not m.road then
      local rate = terrain(m.terrain).cost
      if m.terrain == "woods" and u.type:match("^SKI") then rate = 1 end
      local inside = util.rhu(math.max(allow, 0) / rate)
      if not floor_first then inside = math.max(inside, limit) end
      local cap = ""
      if capped and inside > terrain("woods").limit then
        inside = terrain("woods").limit
        cap = " (at most 2\" inside woods for " .. u.type .. ", Table 5)"
      end
      rec.in_terrain = inside
      c:result(math.max(allow, limit) .. "\" in the open; " .. inside .. "\" all in " .. m.terrain .. cap)
    else
      c:result(math.max(allow, limit) .. "\"")
    end
    rec.allowed = true
    return allow, nil
  end
  local cost, how = route_cost(u, m, distance)
  rec.cost = cost
  if how ~= "" then print(string.format("route: %s = %g\" of movement (Table 5)", how, cost)) end
  if capped and (m.inside or 0) > terrain("woods").limit and not m.force then
    c:result("not allowed")
    umpire.fail(u.name .. " may move at most 2\" inside woods a turn (Table 5); add `force` to override")
  end
  if cost > allow and (floor_first or distance > limit) then
    if not m.force then
      c:result("not allowed")
      umpire.fail(string.format("%s cannot move %d\": it costs %g\" of an allowance of %d\" (Tables 4-5%s); " ..
        "add `force` to override", u.name, distance, cost, allow,
        floor_first and "; option minimum_move before_terrain" or ""))
    end
    c:result(distance .. "\" moved: more than allowed, by the umpire's `force`")
    rec.allowed, rec.forced = false, true
    return allow, distance
  end
  c:result(distance .. "\" allowed" .. (cost > allow and " (the 2\" minimum, 4.3)" or ""))
  rec.allowed = true
  return allow, distance
end

umpire.command {
  name = "move",
  help = "how far a stand may move and whether the move described is allowed (Tables 4-5,\n" ..
    "4.3), with the breakdown; records its MOVE action (2.1.1) unless `plan`.\n" ..
    "e.g. `move leg1 6 woods 2 slope`, `move gun1 limber road`, `move ski1 3 medium_tnk`",
  args = with({
    { name = "unit", type = "unit" },
    { name = "distance", type = "distance", optional = true, help = "inches to move (route length)" },
    { name = "backstep", type = "flag", help = "infantry stepping straight back (4.3)" },
    { name = "disengage", type = "flag", help = "leaving a close combat (4.3)" },
  }),
  run = function(ctx, args)
    local u = args.unit
    if not util.on_table(u) then umpire.fail(u.id .. " is not on the table (" .. u.off_table .. ")") end
    if u:has("engaged") and not args.disengage then
      umpire.fail(u.name .. " is in close combat: add `disengage` to move away (4.3)")
    end
    check_turn(u, args)
    local allow, distance = judge(ctx, "Manoeuvre 4.2: " .. u.name, u, args)
    args.record.plan = args.plan
    umpire.record("move", args.record)
    if not args.plan then remind_activation(u); record_turn(u, args) end
    -- A planned move only works the allowance out: the stand stays in its close combat.
    if args.disengage and not args.plan then
      u:mark("disengaged", "disengaged: no shooting or new close combat this round (4.3)")
      if u:has("engaged") then u:unmark("engaged", "disengaged (4.3)") end
    end
    if not args.plan then
      actions.use(u, "move", args.force)
      -- The gun's state after the move: on its limber, or deployed again.
      if args.unlimber and u.formation == "limbered" or (args.unlimber and args.limber) then
        u:set("formation", "normal", "unlimbered (Table 4)")
      elseif args.limber and not args.unlimber then
        u:set("formation", "limbered", "limbered up (Table 4)")
      end
    end
    if distance then return u.name .. " moves " .. distance .. "\"" end
    return u.name .. " may move up to " .. math.max(allow, 2) .. "\""
  end,
}

umpire.command {
  name = "charge",
  help = "declare a charge (4.4): a straight move of 2\" or more, one turn to an adjacent\n" ..
    "facing at the start; not PKE, TNK, SKI/S, ARC, TPT or ART; WBD 8\", CAV/U and SKI/M\n" ..
    "12\", no road bonus. Says whether the Table 9 charge bonus applies and what the target may do",
  args = with({
    { name = "unit", type = "unit", help = "the charger" },
    { name = "target", type = "unit", help = "the stand charged" },
    { name = "distance", type = "distance", help = "inches from the charger to the target" },
    arg.arc("arc", "the target's arc the charger will contact (default front)"),
    { name = "about", type = "flag",
      help = "the charger would first turn about (180°): refused, a charge turns at most 90° (4.4)" },
  }),
  run = function(ctx, args)
    local u, target = args.unit, args.target
    if util.NO_CHARGE[u.type] then
      umpire.fail(u.type .. " may not charge (4.4); it may still advance into contact with `move`")
    end
    if u.type == "AIR" or target.type == "AIR" then
      umpire.fail("close combat is for ground stands only: AIR never charge or are charged (6.1)")
    end
    if u.side == target.side then umpire.fail(target.id .. " is on the same side") end
    if u:has("engaged") then umpire.fail(u.name .. " is in close combat: no new charges until it ends (6.2)") end
    if u:has("routed") then umpire.fail(u.name .. " is routing and cannot charge (7.2; AMB-49)") end
    if u:has("disengaged") then umpire.fail(u.name .. " disengaged this round: no new close combat (4.3)") end
    if util.rhu(args.distance) < 2 then
      umpire.fail(string.format("a charge is a straight move of at least 2\" (4.4); %g\" %s: from " ..
        "closer, advance into contact with `move %s`", args.distance,
        util.rhu(args.distance) == args.distance and "is less" or
          ("rounds to " .. util.rhu(args.distance) .. "\" (1.2)"), u.id))
    end
    -- 4.4: one turn, at the very start, and only to a facing adjacent to the present one.
    if args.about then
      if not args.force then
        umpire.fail(u.name .. " would turn about before charging: a charge may turn only once, " ..
          "at its start, to an adjacent facing (90°, 4.4); turn with `move " .. u.id .. " turn` " ..
          "and charge later, or add `force` to override")
      end
      print("(umpire override) " .. u.name .. " turns about before charging; 4.4 allows 90° at most")
    end
    local m = {}
    for k, v in pairs(args) do m[k] = v end
    m.charge = true
    if args.about then m.turn = true end
    check_turn(u, m)
    local allow = judge(ctx, "Charge 4.4: " .. u.name .. " at " .. target.name, u, m)
    if not args.plan then remind_activation(u); record_turn(u, m) end
    local distance = util.rhu(args.distance)
    local arc = args.arc or "front"
    local lines = { u.name .. " charges " .. target.name }
    local bonus = true
    local elephant_allowed = target.type == "PKE" and target.elephant and
      umpire.option("charge_bonus_targets") == "no_elephants"
    if arc == "front" and elephant_allowed and target.formation ~= "square" and target.formation ~= "testudo" then
      lines[#lines + 1] = "war elephants do not deny the charge bonus (4.4; option charge_bonus_targets no_elephants)"
    elseif arc == "front" and (target.type == "ART" or target.type == "PKE" or target.type == "SKI/S") then
      bonus = false
      lines[#lines + 1] = "no charge bonus against the front of " .. target.type ..
        " (4.4; AMB-22): it needs the move to take the target's place"
    elseif target.formation == "square" or target.formation == "testudo" then
      bonus = false
      lines[#lines + 1] = "no charge bonus against a " .. target.formation .. " (6.6)"
    end
    if bonus then
      lines[#lines + 1] = "charge bonus if contact is made this turn (Table 9, 6.2)"
    end
    if not args.plan then
      actions.use(u, "move", args.force)
      if not u:has("charging") then u:mark("charging", "charged " .. target.name .. " (4.4)") end
      if bonus and not u:has("charge_bonus") then
        u:mark("charge_bonus", "first turn of its charge: Table 9 bonus on contact this turn (6.2)")
      end
      local charges = store.charges or {}
      charges[u.id] = { round = umpire.clock().round, target = target.id, bonus = bonus,
        distance = distance, allowance = allow }
      store.charges = charges
    end
    local may_evade = M.may_evade(target)
    if may_evade and not target:has("moved") then
      -- The evade is its MOVE action (4.4, 2.1.1): not once its actions are spent.
      local spent = actions.refusal(target, "move")
      if spent then
        lines[#lines + 1] = target.name .. " cannot evade: " .. spent .. " and the evade is its MOVE (4.4)"
      else
        lines[#lines + 1] = target.name .. " may evade 6\" (`evade " .. target.id .. "`, 4.4)"
      end
    end
    local fire = false
    if distance > 7 then
      local free = umpire.option("precontact_action") == "none"
      local why = not free and actions.refusal(target, "shoot")
      if free and #actions.used(target) >= actions.limit(target) then
        lines[#lines + 1] = target.name .. " cannot fire before contact: it has already used " ..
          #actions.used(target) .. " action(s) this round, its limit (6.3, 2.1.1)"
      elseif why then
        lines[#lines + 1] = target.name .. " cannot fire before contact: " .. why ..
          " and pre-contact fire is its SHOOT action (6.3; AMB-21)"
      elseif free then
        fire = true
        lines[#lines + 1] = target.name .. " may fire before contact if its weapon reaches more " ..
          "than 7\"; it costs no action (6.3; option precontact_action none)"
      else
        fire = true
        lines[#lines + 1] = target.name .. " may fire before contact if its weapon reaches more " ..
          "than 7\" and it has its SHOOT action left (6.3; AMB-21)"
      end
    end
    -- For programs (docs/json.md).
    umpire.record("charge", { unit = u.id, target = target.id, distance = distance,
      allowance = allow, arc = arc, bonus = bonus, may_evade = may_evade and not target:has("moved"),
      precontact_fire = fire, plan = args.plan })
    return table.concat(lines, "\n")
  end,
}

umpire.command {
  name = "evade",
  help = "a charged SKI/F or SKI/M that has not moved this round falls back 6\" (4.4);\n" ..
    "this is its MOVE action (2.1.1). Says whether the charger still makes contact",
  args = {
    { name = "unit", type = "unit" },
    arg.force("the umpire overrides the checks"),
  },
  run = function(ctx, args)
    local u = args.unit
    if not M.may_evade(u) then
      umpire.fail("only SKI/F and SKI/M may evade (4.4); " .. u.id .. " is " .. u.type)
    end
    if u:has("moved") and not args.force then
      umpire.fail(u.name .. " has already moved this round and cannot evade (4.4)")
    end
    -- The charge it evades: declared this round against it.
    local round, charger, ch = umpire.clock().round, nil, nil
    for id, entry in pairs(store.charges or {}) do
      if entry.target == u.id and entry.round == round and (not charger or id < charger) then
        charger, ch = id, entry
      end
    end
    if not charger and not args.force then
      umpire.fail("nobody has charged " .. u.name .. " this round: a stand evades a charge (4.4); " ..
        "declare it first (`charge CHARGER " .. u.id .. " DIST`), or add `force` to fall back anyway")
    end
    actions.use(u, "move", args.force)
    u:mark("evaded", "evaded a charge (4.4)")
    if not charger then
      umpire.record("evade", { unit = u.id, charger = false, contact = false })
      return u.name .. " falls back 6\" (the umpire's `force`: no charge declared against it)"
    end
    if not ch.distance or not ch.allowance then
      -- A charge recorded before distances were kept (an older game): the umpire judges.
      umpire.record("evade", { unit = u.id, charger = charger, contact = false })
      return u.name .. " falls back 6\" straight away from " .. charger .. "; measure whether its " ..
        "charge move still reaches it (4.4; AMB-18)"
    end
    local c = ctx:check("Evade 4.4: " .. u.name .. " from " .. umpire.unit(charger).name)
    c:add(ch.distance, "distance when the charge was declared", "4.4")
    c:add(6, "the evade: 6\" straight away from the charger", "4.4; AMB-18")
    local gap = c:total()
    local stops = umpire.option("evade_outcome") == "charge_stops"
    local contact = not stops and ch.allowance ~= nil and gap <= ch.allowance
    local verdict
    if stops then
      c:result("no contact: the charge ends where " .. u.name .. " stood (option evade_outcome charge_stops)")
      verdict = "the charge ends where " .. u.name .. " stood: no contact this round " ..
        "(4.4; option evade_outcome charge_stops)"
    elseif contact then
      c:result(gap .. "\" within the charge move of " .. ch.allowance .. "\": contact")
      verdict = umpire.unit(charger).name .. " still reaches it (" .. gap .. "\" of its " ..
        ch.allowance .. "\" charge move): close combat follows" ..
        (ch.bonus and ", with the charge bonus (Table 9, 6.2)" or "") .. " (4.4; AMB-18)"
    else
      c:result(gap .. "\" beyond the charge move of " .. ch.allowance .. "\": no contact")
      verdict = umpire.unit(charger).name .. " falls " .. (gap - ch.allowance) ..
        "\" short: no contact this round (4.4; AMB-18)"
    end
    umpire.record("evade", { unit = u.id, charger = charger, gap = gap, allowance = ch.allowance,
      contact = contact })
    return u.name .. " falls back 6\" straight away from the charger; " .. verdict
  end,
}

-- 6.2, AMB-19: a charge that has not made contact by the end of its round goes on; with
-- `charge_bonus_contact any_round` it keeps the bonus into the next round.
umpire.on("round_ends", function()
  if umpire.option("charge_bonus_contact") ~= "any_round" then return end
  local keep = {}
  for id, entry in pairs(store.charges or {}) do
    local ok, u = pcall(umpire.unit, id)
    if ok and entry.bonus and entry.round == umpire.clock().round and util.on_table(u)
      and not u:has("fought") and not u:has("engaged") and not u:has("routed") then
      keep[#keep + 1] = id
    end
  end
  table.sort(keep)
  store.charges_going_on = keep
end)

umpire.on("round_begins", function(event)
  local keep = store.charges_going_on
  if not keep or #keep == 0 then return end
  local charges = store.charges or {}
  for _, id in ipairs(keep) do
    local u = umpire.unit(id)
    local entry = charges[id]
    if entry and not u:has("charge_bonus") then
      u:mark("charge_bonus", "its charge goes on: Table 9 bonus on contact (6.2; option " ..
        "charge_bonus_contact any_round)")
      entry.round = event.round
    end
  end
  store.charges = charges
  store.charges_going_on = nil
end)

-- 7.2, 7.1: the compulsory moves toward the stand's own base edge. A routing stand turns
-- about and makes one full standard (non-charge) Table 4 move; a stand of a retreating
-- Command (2e: army) moves at normal speed (AMB-35). The umpire gives the distance to the
-- edge; a move that reaches it takes the stand off the table: `routed_off` (it counts for PN
-- Command morale) or `retreated` (it does not).
umpire.command {
  name = "rout",
  help = "the compulsory move of a routing (or retreating) stand: a full Table 4 move toward\n" ..
    "its own base edge (7.2, 7.1); EDGE is the distance to that edge: if the move reaches it,\n" ..
    "or with `off`, the stand leaves the table (off_table=routed_off, or retreated)\n" ..
    "e.g. `rout war3 9`, `rout war3 off`",
  args = {
    { name = "unit", type = "unit", help = "a routing or retreating stand" },
    { name = "edge", type = "distance", optional = true,
      help = "inches to its own base edge, measured by the umpire" },
    { name = "off", type = "flag", help = "it leaves the table whatever the distance" },
    arg.force("the umpire overrides the action limit (2.1.1)"),
  },
  run = function(ctx, args)
    local u = args.unit
    if not util.on_table(u) then umpire.fail(u.id .. " is not on the table (" .. u.off_table .. ")") end
    local routing = u:has("routed")
    if not routing and not u:has("retreating") then
      umpire.fail(u.name .. " is neither routing (7.2) nor retreating (7.1): use `move`")
    end
    if args.edge and args.edge < 0 then umpire.fail("EDGE is a distance: 0 or more inches") end
    local title = routing and "Rout move 7.2: " or "Retreat in good order 7.1: "
    local c = ctx:check(title .. u.name)
    -- a square or testudo must break up first (`square A`, `testudo A off`)
    local allow = M.allowance(c, u, {})
    local edge = args.edge and util.rhu(args.edge) or nil
    local leaves = args.off or (edge ~= nil and allow >= edge)
    local where = routing and "routed_off" or "retreated"
    actions.use(u, "move", args.force)
    umpire.record("rout", { unit = u.id, routing = routing, allowance = allow, edge = edge or false,
      leaves = leaves and true or false })
    if leaves then
      c:result(allow .. "\" toward its own base edge" .. (edge and (", " .. edge .. "\" away: off the table") or
        ": off the table"))
      if u:has("engaged") then u:unmark("engaged", "leaves the close combat") end
      u:set("off_table", where, routing and "routed off the table (7.2)" or
        "retreated off the table in good order (7.1)")
      if routing then u:unmark("routed", "routed off the table (7.2)") end
      return u.name .. (routing and " routs off the table: it counts as lost for PN Command morale (7.1)"
        or " leaves the table in good order; it does not count as lost (7.1; AMB-35)")
    end
    c:result(allow .. "\" toward its own base edge" .. (edge and (", " .. (edge - allow) .. "\" short of it") or ""))
    if u:has("engaged") then u:unmark("engaged", "turns about and leaves the close combat (7.2)") end
    return u.name .. " turns about and moves " .. allow .. "\" toward its own base edge" ..
      (routing and " (7.2)" or " (7.1)")
  end,
}

return M
