-- A tiny demonstration ruleset: the whole script API in one file.
-- Load it with `umpire --ruleset demo` (or `ruleset use demo`); rulesets/demo/tests/ tests it.

local tables = require "demo.tables"

umpire.ruleset {
  name = "demo",
  doc = "a demonstration of the umpire script API",
  schema = {
    unit = {
      sp = { type = "int", min = 0, max = 10, default = 4, doc = "strength points" },
      quality = { type = "choice", values = { "green", "trained", "veteran" }, default = "trained" },
    },
    markers = {
      pinned = { doc = "may not move", expires = "own turn" },
      routed = "running away; may not shoot",
    },
    status = { attrs = { "quality" }, strength = "sp", max = 10 },
  },
  sequence = { "initiative", { each_side = { "move", "shoot" } }, "morale" },
  tables = tables,
  variants = { classic = "the first edition: hits on 5+" },
}

umpire.table {
  name = "weather",
  doc = "weather at the start of the game",
  dice = "1d6",
  rows = { { "1-2", "rain" }, { "3-6", "clear" } },
}

-- `shoot FIRER [MODIFIER] [TARGET]`, explained line by line; a hit costs the target 1 SP.
umpire.command {
  name = "shoot",
  help = "roll to hit: 1d6 + modifiers, hits on 4+ (5+ in the classic variant)\na hit costs the target 1 SP",
  args = {
    { name = "firer", type = "unit", help = "the unit shooting" },
    { name = "modifier", type = "int", optional = true, help = "sum of modifiers" },
    { name = "target", type = "unit", optional = true, help = "the unit shot at" },
  },
  run = function(ctx, args)
    local c = ctx:check("Shooting 5.2")
    c:roll("1d6", "to hit", "5.2.1", args.firer) -- `args.firer` rolls it
    if args.modifier then c:add(args.modifier, "modifiers", "5.2.2") end
    if args.target and args.target:has("pinned") then c:add(-1, "target pinned", "5.2.3") end
    c:point("shooting.modifiers") -- house rules hook in here
    local need = umpire.variant == "classic" and 5 or 4
    local total = c:total()
    store.shots = (store.shots or 0) + 1 -- kept in the game, journalled, undone
    umpire.record("shot", { total = total, need = need, hit = total >= need }) -- for programs
    if total < need then
      c:result("miss")
      return args.firer .. " misses (" .. total .. ")"
    end
    c:result("hit")
    if args.target then
      args.target:add("sp", -1, "hit by " .. args.firer.name .. " (5.2.4)")
    end
    return args.firer .. " hits (" .. total .. ")"
  end,
}

-- Tables from Lua in a check: 2d6 + quality on the morale table.
umpire.command {
  name = "morale",
  help = "2d6 on the morale table, + quality, -1 if pinned; falling back pins the unit",
  args = {
    { name = "unit", type = "unit" },
    { name = "quality", type = "choice", values = { "green", "trained", "veteran" }, optional = true },
    { name = "pinned", type = "flag", help = "count the unit as pinned" },
  },
  run = function(ctx, args)
    local u = args.unit
    local quality = args.quality or u.quality
    local c = ctx:check("Morale 7.1")
    c:roll("2d6", "morale roll", "7.1.1", u)
    c:add(umpire.lookup("quality", quality), quality, "7.1.2")
    local pinned = u:has("pinned")
    if args.pinned or pinned then c:add(-1, "pinned", "7.1.3") end
    local result = umpire.lookup("morale", math.max(2, math.min(12, c:total())))
    c:result(result)
    if result == "falls back" and not pinned then
      u:mark("pinned", "fell back (7.1.4)")
    end
  end,
}

-- Selectors give a list of units; markers and attributes change with a reason.
umpire.command {
  name = "rally",
  help = "each routed unit chosen rolls 1d6: on 4+ it rallies at 1 SP (7.4)",
  args = { { name = "units", type = "selector", help = "which units, e.g. side:red" } },
  run = function(ctx, args)
    local any = false
    for _, u in ipairs(args.units) do
      if u:has("routed") then
        any = true
        local c = ctx:check("Rally 7.4: " .. u.name)
        c:roll("1d6", "rally roll", "7.4.1", u)
        if c:total() >= 4 then
          c:result("rallies")
          u:unmark("routed", "rallied (7.4.1)")
          u:set("sp", 1, "rallied at 1 SP (7.4.2)")
        else
          c:result("stays routed")
        end
      end
    end
    if not any then return "no routed unit among them" end
  end,
}

-- Events: the clock, and a unit losing strength.
umpire.on("round_begins", function(event)
  print("round " .. tostring(event.round) .. " begins")
end)

umpire.on("unit_damaged", function(event)
  if event.new <= 0 and not event.unit:has("routed") then
    event.unit:mark("routed", "no SP left (7.3)")
  end
end)

-- A cancellable `pre_` event: routed units do not shoot.
umpire.on("pre_shoot", function(event)
  if event.firer:has("routed") then
    print(event.firer.name .. " is routed and cannot shoot (7.3)")
    return false
  end
end)
