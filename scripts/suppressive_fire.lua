-- Suppressive fire (OLAB 8.8.1): `suppress` pins a target for a quarter of the HP; `ground` lets a stand go to ground.
--
-- Deliberate suppression is its own command, so it is declared by typing `suppress` instead of
-- `shoot`. The shot is scored as usual (olab.shooting.score); the target takes a quarter of it
-- (1.2 rounding, AMB-08) and its player chooses: the normal save against that quarter, after
-- which it is suppressed (the default), or `avoid`: one D6 instead of the save, the quarter taken
-- in full, and suppression escaped only when the D6 beats the quarter (AMB-08).
--
-- A suppressed stand counts as in cover against shooting (OLAB's shooting.lua already reads the
-- marker, 8.8.1), and in its next turn may manoeuvre or shoot, not both (the pre_ handlers
-- below). The marker goes at the end of the round after the one it was put on.
--
-- Going to ground (voluntary suppression): `ground STAND` before a normal `shoot` at it. Its
-- save then decides: 2D6 above the full HP suppresses it and it takes a quarter (AMB-08b, the
-- literal reading); otherwise the roll counts as its normal save.
local arg = require "olab.args"
local shooting = require "olab.shooting"
local util = require "olab.util"
local actions = require "olab.actions"

umpire.option {
  name = "voluntary_vs", default = "full",
  choices = {
    { "full", "going to ground succeeds when the 2D6 save beats the full HP of the shot" },
    { "quarter", "it succeeds when the 2D6 beats a quarter of the HP" },
  },
  doc = "what a stand going to ground must beat", rule = "8.8.1; AMB-08b",
}
umpire.option {
  name = "suppress_order", default = "quarter_then_save",
  choices = {
    { "quarter_then_save", "suppressive fire: quarter the HP, then the normal save against the quarter" },
    { "save_then_quarter", "the normal save against the full HP, then a quarter of what gets through" },
  },
  doc = "the order of the quarter and the save under suppressive fire", rule = "8.8.1; AMB-08",
}

local function cover_level(word)
  return word and ({ open = 0, cover = 1, double = 2 })[word] or nil
end

-- Puts the marker on until the end of the following round, and remembers when it went on
-- (the manoeuvre-or-fire restriction is for the stand's *next* turn).
local function suppress(u, why)
  local round = umpire.clock().round
  if u:has("suppressed") then u:unmark("suppressed", "suppressed again") end
  u:mark("suppressed", why .. " (8.8.1)", "2 rounds")
  local s = store.placed or {}
  s[u.id] = round
  store.placed = s
end

local function may_suppress(t)
  if t.type == "AIR" then error("AIR cannot be suppressed (8.8.1)", 0) end
  if t:has("engaged") then error(t.name .. " is in close combat and cannot be suppressed (8.8.1)", 0) end
end

umpire.command {
  name = "suppress",
  help = "suppressive fire (8.8.1), declared instead of `shoot`: the target takes a quarter of\n" ..
    "the HP and is suppressed (counts as in cover; next turn MOVE or SHOOT, not both).\n" ..
    "`avoid`: the target rolls one D6 instead of its save, takes the quarter in full, and is\n" ..
    "not suppressed if the D6 beats it. e.g. `suppress mg1 rifles 20`, `suppress mg1 rifles 20 avoid`",
  args = {
    { name = "firer", type = "unit", help = "the stand firing" },
    { name = "target", type = "unit", help = "the stand fired at (not AIR, not in close combat)" },
    { name = "range", type = "distance", help = "inches" },
    arg.arc("arc", "the target's arc hit (default front)"),
    arg.facing(),
    arg.cover("the target's cover (default: its `cover` attribute)"),
    { name = "indirect", type = "flag", help = "Indirect fire, -4 (5.2.1)" },
    { name = "avoid", type = "flag", help = "the target's choice: the single-D6 avoidance roll instead of its save" },
    arg.force("the umpire's override of a refused shot"),
  },
  run = function(ctx, args)
    local f, t = args.firer, args.target
    shooting.eligible(f)
    may_suppress(t)
    local y = util.year()
    if y and y <= 1860 and not util.scifi() and not args.force then
      error("suppressive fire is for games after c.1860 or sci-fi (8.8.1); the period is " .. y ..
        "; add `force` to override", 0)
    end
    local spec = { firer = f, targets = { t }, range = util.rhu(args.range),
      arc = args.arc or "front", facing = args.facing, cover = cover_level(args.cover), indirect = args.indirect,
      force = args.force, suppressive = true }
    spec.weapon = shooting.weapon_of(f, t, nil)
    shooting.prepare(spec)
    shooting.validate(spec)
    local range_text = shooting.check_range(spec)
    actions.use(f, "shoot", args.force)
    if spec.turret_turns then actions.use(f, "move", args.force) end

    local c = ctx:check(string.format("Suppressive fire 8.8.1: %s at %s — %s", f.name, t.name, range_text))
    local pre = shooting.score(ctx, spec, t, c)
    local q = util.quarter(pre)
    local save_first = umpire.option("suppress_order") == "save_then_quarter" and not args.avoid
    if pre > 0 and not save_first then
      c:add(q - pre, "suppressive fire: a quarter of " .. pre .. " HP", "8.8.1, AMB-08")
    end
    local hp
    local rec = { target = t.id, kind = "suppressive", pre_save = pre, quarter = q, avoid = args.avoid == true }
    if save_first then
      if pre <= 0 then
        c:result("no HP (nothing to save)")
        hp = 0
      else
        local through = shooting.save(ctx, spec, t, c)
        local s = ctx:check("Suppressive fire 8.8.1: a quarter of what got through " ..
          "(option suppress_order save_then_quarter)")
        s:add(through, "HP through the save", "5.2.1")
        hp = util.quarter(through)
        if through > 0 then s:add(hp - through, "suppressive fire: a quarter of " .. through .. " HP", "8.8.1, AMB-08") end
        s:result(hp .. " HP")
        rec.save = pre - through
      end
      suppress(t, "under " .. f.name .. "'s suppressive fire")
    elseif args.avoid then
      c:result(q .. " HP, taken without a save (the target chose the avoidance roll)")
      local a = ctx:check("Avoiding suppression 8.8.1: " .. t.name)
      local d = a:roll("1d6", "avoidance D6, instead of the save", "8.8.1", t)
      rec.avoid_roll = d
      if d > q then
        a:result(string.format("%d beats %d HP: not suppressed", d, q))
      else
        a:result(string.format("%d does not beat %d HP: suppressed (AMB-08c)", d, q))
        suppress(t, "failed to avoid " .. f.name .. "'s suppressive fire")
      end
      hp = q
    else
      local s = c
      if q <= 0 then
        c:result("no HP (nothing to save)")
        hp = 0
      else
        -- the save is against the quarter: a fresh line so the save reads against it
        s = ctx:check("Suppressive fire 8.8.1: " .. t.name .. "'s save against the quarter")
        s:add(q, "a quarter of the HP", "8.8.1")
        hp = shooting.save(ctx, spec, t, s)
        rec.save = q - hp
      end
      suppress(t, "under " .. f.name .. "'s suppressive fire")
    end
    rec.hp, rec.suppressed = hp, t:has("suppressed")
    -- For programs: the score, its quarter, the save or avoidance roll, the HP, the result.
    umpire.record("suppression", rec)
    return shooting.apply(ctx, spec, t, hp) .. (t:has("suppressed") and ", suppressed" or "")
  end,
}

-- Going to ground. The declaration is kept until the stand's next save under normal fire.
umpire.command {
  name = "ground",
  help = "a stand under normal fire goes to ground instead of its normal save (8.8.1): if its\n" ..
    "2D6 save beats the full HP it takes a quarter and is suppressed; if not, the roll is its\n" ..
    "normal save. Declare it before the `shoot`. e.g. `ground rifles`, `ground rifles off`",
  args = {
    { name = "stand", type = "unit", help = "the stand about to be shot at" },
    { name = "off", type = "flag", help = "withdraw the declaration" },
  },
  run = function(ctx, args)
    local u = args.stand
    local g = store.ground or {}
    if args.off then
      g[u.id] = nil
      store.ground = g
      return u.name .. " will save normally"
    end
    may_suppress(u)
    g[u.id] = true
    store.ground = g
    return u.name .. " goes to ground against the next shot at it (8.8.1)"
  end,
}

-- The save point's situation says who is shot, the score before the save and the save roll.
umpire.hook("olab.shooting.save", function(c, ctx, shot)
  -- only under normal fire: not deliberate suppression, not KO fire (its full_factor)
  if not shot or shot.spec.suppressive or shot.spec.full_factor then return end
  local t = shot.target
  local g = store.ground or {}
  if not g[t.id] then return end
  g[t.id] = nil
  store.ground = g
  local pre, roll = shot.score, shot.save
  local q = util.quarter(pre)
  local vs, what = pre, "HP"
  if umpire.option("voluntary_vs") == "quarter" then
    vs, what = q, "HP quartered (option voluntary_vs quarter)"
  end
  local gone = roll > vs
  if gone then
    c:add(q - c:total(), string.format("gone to ground: the save %d beats %d %s, a quarter taken", roll, vs, what),
      "8.8.1, AMB-08b")
    suppress(t, "went to ground")
  else
    c:add(0, string.format("went to ground: the save %d does not beat %d %s and counts as the normal save",
      roll, vs, what), "8.8.1, AMB-08b")
  end
  umpire.record("suppression", { target = t.id, kind = "ground", pre_save = pre, quarter = q,
    save = roll, beat = vs, suppressed = gone, hp = math.max(0, c:total()) })
end)

-- The marker lasts to the end of the round after the one it went on: it is taken off when the
-- round after that begins (its own expiry, two rounds on, is only a fallback).
umpire.on("round_begins", function(ev)
  local placed = store.placed or {}
  for id, r in pairs(placed) do
    if r <= ev.round - 2 then
      local u = umpire.unit(id)
      if u:has("suppressed") then u:unmark("suppressed", "its next turn is over (8.8.1)") end
      placed[id] = nil
    end
  end
  store.placed = placed
end)

-- The manoeuvre-or-fire restriction: in the rounds after it was suppressed, a stand that has
-- moved may not shoot, and one that has shot may not move (until the marker goes).
local function restricted(u, doing, done_marker, done_name, force)
  if not u:has("suppressed") or force then return true end
  local placed = (store.placed or {})[u.id]
  if placed and placed >= umpire.clock().round then return true end
  if u:has(done_marker) then
    print(string.format("%s is suppressed: it has %s this turn and may not %s too (8.8.1); " ..
      "add `force` to override", u.name, done_name, doing))
    return false
  end
  return true
end

umpire.on("pre_move", function(ev) return restricted(ev.unit, "move", "shot", "shot", ev.force) end)
umpire.on("pre_charge", function(ev) return restricted(ev.unit, "charge", "shot", "shot", ev.force) end)
umpire.on("pre_shoot", function(ev) return restricted(ev.firer, "shoot", "moved", "moved", ev.force) end)
umpire.on("pre_suppress", function(ev) return restricted(ev.firer, "shoot", "moved", "moved", ev.force) end)
