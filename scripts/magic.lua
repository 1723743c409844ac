-- Magic (OLAB 8.7.3.1): magic users `cast` one attack or `ward` one defence a round instead of their two actions.
--
-- A cast is direct (a target in sight within 24") or indirect (anywhere on the table, one target,
-- -1 on the D6). Either hits on 5 or more. An attack then does 2D6 HP less the target side's
-- 1D6; nothing else is added (no caster SP, no Tables 7-8, no cover: AMB-05a). A defence on a
-- friendly stand gives 2D6 less the opposing side's 1D6 as SP, on top of what it has, never
-- past 12 (AMB-05b); it does not rally a routing stand (AMB-05e).
--
-- What OLAB already does for magic users is left to it: `sp` gives them +3 SP (Table 3) and `pcp`
-- adds their +20 PCP (stands.lua); this file adds neither again. `magicusers` shows each side's
-- share against the suggested 10% limit.
local arg = require "olab.args"
local util = require "olab.util"
local actions = require "olab.actions"

local DIRECT_RANGE = 24

umpire.option {
  name = "magic_defence", default = "to_12",
  choices = {
    { "to_12", "a defence adds its gain to current SP up to 12, past the starting SP if need be" },
    { "to_start", "a defence only restores lost SP, up to the stand's `sp_start`" },
  },
  doc = "how far a magic defence raises a stand's SP", rule = "8.7.3.1; AMB-05b",
}

-- The caster may act: a magic user, on the table, not routing, with no action used this round
-- (its one cast replaces both actions). Marks both actions as used.
local function use_cast(caster, what, force)
  if not caster.magic_user then
    error(caster.name .. " is not a magic user: `set " .. caster.id .. " magic_user true` (8.7.3.1)", 0)
  end
  if util.off_table(caster) then error(caster.name .. " is off the table (" .. caster.off_table .. ")", 0) end
  local problems = {}
  if caster:has("routed") then problems[#problems + 1] = caster.name .. " is routing (AMB-49)" end
  if #actions.used(caster) > 0 then
    problems[#problems + 1] = caster.name .. " has already acted this round: a magic user's one " ..
      "attack or defence replaces both its actions (8.7.3.1)"
  end
  if #problems > 0 then
    if not force then error(table.concat(problems, "; ") .. "; add `force` to override", 0) end
    print("(umpire override) " .. table.concat(problems, "; "))
  end
  for _, key in ipairs({ "move", "shoot" }) do
    if not caster:has(key == "move" and "moved" or "shot") then
      caster:mark(key == "move" and "moved" or "shot", what .. ": both actions (8.7.3.1)")
    end
  end
end

-- The magic users of a side and its stands not eliminated, for the 10% limit (counted by the
-- host).
local function share(side)
  local alive = "side:" .. side .. " off_table!=eliminated"
  return umpire.count(alive .. " magic_user=true"), umpire.count(alive)
end

local function warn_limit(side)
  local m, n = share(side)
  if n > 0 and m * 10 > n then
    print(string.format("note: %s has %d magic users among %d stands, more than the suggested " ..
      "10%% (8.7.3.1)", side, m, n))
  end
end

-- The hit: one D6, -1 for an indirect cast, 5 or more. Returns whether it hit and the die.
-- A target in base contact (`contact`) is direct at 0": no range is needed.
local function hit_test(ctx, title, caster, target, range, indirect, contact)
  if contact then
    if indirect then error("a stand in base contact is in sight: drop `indirect` or `contact`", 0) end
    range = 0
  end
  if not indirect and range == nil then
    error("a direct cast needs the range: `… " .. target.id .. " 18`; `contact` for a stand in " ..
      "base contact; or add `indirect`", 0)
  end
  if not indirect and range > DIRECT_RANGE then
    error(string.format("%s is %d\" away: direct magic reaches %d\" (8.7.3.1); add `indirect` " ..
      "(anywhere on the table, -1)", target.name, range, DIRECT_RANGE), 0)
  end
  local how = indirect and "indirect, anywhere on the table" or
    (contact and "direct, in base contact" or string.format("direct, %d\" of %d\"", range, DIRECT_RANGE))
  local c = ctx:check(string.format("%s 8.7.3.1: %s at %s (%s)", title, caster.name, target.name, how))
  local d = c:roll("1d6", "magic D6", "8.7.3.1", caster)
  if indirect then c:add(-1, "indirect magic", "8.7.3.1, AMB-05d") end
  c:point("magic.hit", { caster = caster, target = target, range = range, indirect = indirect })
  local hit = c:total() >= 5
  c:result(hit and "hit (5+)" or "miss (under 5)")
  return hit, d
end

-- 2D6 against the other side's 1D6; returns the net (never below 0).
local function contest(ctx, title, roller, other, what)
  local c = ctx:check(title)
  local roll = c:roll("2d6", roller .. "'s 2D6", "8.7.3.1", roller)
  local _, d = umpire.roll("1d6", { label = "1D6 against the magic", by = other })
  c:add(-d[1], string.format("1D6 rolled by %s [%d]", other, d[1]), "8.7.3.1, AMB-05c")
  c:point("magic." .. what, { roller = roller, other = other, what = what })
  local net = math.max(0, c:total())
  c:result(net .. (what == "attack" and " HP" or " SP"))
  return net, roll, d[1]
end

local cast_args = {
  { name = "caster", type = "unit", help = "the magic user" },
  { name = "target", type = "unit", help = "the one stand it targets" },
  { name = "range", type = "distance", optional = true, help = "inches, for a direct cast (24\" at most)" },
  { name = "indirect", type = "flag", help = "out of sight or beyond 24\": anywhere, -1 on the D6" },
  { name = "contact", type = "flag", help = "the target is in base contact with the caster: direct, no range needed" },
  arg.force("the umpire's override"),
}

umpire.command {
  name = "cast",
  help = "a magic attack (8.7.3.1): D6 5+ to hit (indirect -1), then 2D6 HP less the target\n" ..
    "side's 1D6; it replaces both of the caster's actions this round.\n" ..
    "e.g. `cast merlin hengist 18`, `cast merlin hengist indirect`",
  args = cast_args,
  run = function(ctx, args)
    local caster, t = args.caster, args.target
    if t.side == caster.side and not args.force then
      error(t.name .. " is on " .. caster.name .. "'s own side: attack an enemy, or `ward` a friend", 0)
    end
    if util.off_table(t) then error(t.name .. " is not on the table (" .. t.off_table .. ")", 0) end
    local range = args.range and util.rhu(args.range)
    -- (a clock still at the first step means the umpire is not keeping the phases in umpire)
    local phase = umpire.clock().phase
    if phase and phase ~= "shooting" and phase ~= "initiative" then
      print("note: a magic attack counts as shooting and is made in the shooting phase " ..
        "(8.7.3.1); this is the " .. phase .. " phase")
    end
    use_cast(caster, "magic attack", args.force)
    warn_limit(caster.side)
    local hit, hit_roll = hit_test(ctx, "Magic attack", caster, t, range, args.indirect, args.contact)
    if not hit then
      umpire.record("magic", { kind = "attack", caster = caster.id, target = t.id, hit_roll = hit_roll, hit = false })
      return caster.name .. "'s spell misses " .. t.name
    end
    local hp, roll, against = contest(ctx, "Magic attack 8.7.3.1: " .. t.name .. " takes", caster.name, t.side, "attack")
    -- For programs: the hit roll, the 2D6 and the 1D6 against it, the HP.
    umpire.record("magic", { kind = "attack", caster = caster.id, target = t.id, hit_roll = hit_roll,
      hit = true, roll = roll, against = against, hp = hp })
    local before = t.sp
    util.damage(t, hp, string.format("%d HP from %s's magic (8.7.3.1)", hp, caster.name))
    return string.format("%s: %d HP, SP %d → %d", t.name, hp, before, t.sp)
  end,
}

umpire.command {
  name = "ward",
  help = "a magic defence (8.7.3.1): D6 5+ to hit (indirect -1), then 2D6 less the opposing\n" ..
    "side's 1D6 added to a friendly stand's SP, never past 12; it does not rally.\n" ..
    "It replaces both of the caster's actions this round. e.g. `ward althic hengist 6`",
  args = cast_args,
  run = function(ctx, args)
    local caster, t = args.caster, args.target
    if t.side ~= caster.side and not args.force then
      error(t.name .. " is not on " .. caster.name .. "'s side: a defence is for a friend", 0)
    end
    if util.off_table(t) then error(t.name .. " is not on the table (" .. t.off_table .. ")", 0) end
    local range = args.range and util.rhu(args.range)
    use_cast(caster, "magic defence", args.force)
    warn_limit(caster.side)
    local hit, hit_roll = hit_test(ctx, "Magic defence", caster, t, range, args.indirect, args.contact)
    if not hit then
      umpire.record("magic", { kind = "defence", caster = caster.id, target = t.id, hit_roll = hit_roll, hit = false })
      return caster.name .. "'s spell fails to reach " .. t.name
    end
    local enemy = "the opposing side"
    for _, s in ipairs(util.sides()) do if s ~= t.side then enemy = s break end end
    local gain, roll, against = contest(ctx, "Magic defence 8.7.3.1: " .. t.name .. " gains", caster.name, enemy, "defence")
    local before = t.sp
    local cap, capped = 12, " (capped at 12)"
    local why = string.format("%s's magic defence, never past 12 (8.7.3.1, AMB-05b)", caster.name)
    if umpire.option("magic_defence") == "to_start" then
      cap = math.min(12, math.max(before, t.sp_start))
      capped = string.format(" (capped at its starting SP %d: option magic_defence to_start)", t.sp_start)
      why = string.format("%s's magic defence, restoring up to its starting SP (option magic_defence to_start)",
        caster.name)
    end
    local new = math.min(cap, before + gain)
    if new > before then t:add("sp", new - before, why) end
    -- For programs: the hit roll, the 2D6 and the 1D6 against it, the SP gained.
    umpire.record("magic", { kind = "defence", caster = caster.id, target = t.id, hit_roll = hit_roll,
      hit = true, roll = roll, against = against, gain = new - before })
    local note = ""
    if new < before + gain then note = capped end
    if t:has("routed") then note = note .. "; still routing: magic does not rally (AMB-05e)" end
    return string.format("%s: SP %d → %d%s", t.name, before, new, note)
  end,
}

umpire.command {
  name = "magicusers",
  help = "each side's magic users against the suggested limit of 10% of its stands (8.7.3.1)",
  args = {},
  run = function(ctx)
    local lines = {}
    for _, side in ipairs(util.sides()) do
      local m, n = share(side)
      local names = {}
      for _, u in ipairs(umpire.units("side:" .. side .. " off_table!=eliminated magic_user=true")) do
        names[#names + 1] = u.id
      end
      local limit = math.floor(n / 10)
      lines[#lines + 1] = string.format("%s: %d of %d stands (limit %d)%s%s", side, m, n, limit,
        #names > 0 and ": " .. table.concat(names, ", ") or "",
        m > limit and " — over the suggested 10% (8.7.3.1)" or "")
    end
    return table.concat(lines, "\n")
  end,
}
