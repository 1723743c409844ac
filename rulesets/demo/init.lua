-- A tiny demonstration ruleset: the whole script API in one file.
-- Load it with `umpire --ruleset demo`; the tests in src/script/tests.rs use it.

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

-- A command: `shoot FIRER [MODIFIER]`, explained line by line.
umpire.command {
  name = "shoot",
  help = "roll to hit: 1d6 + modifiers, hits on 4+ (5+ in the classic variant)",
  args = {
    { name = "firer", type = "unit", help = "the unit shooting" },
    { name = "modifier", type = "int", optional = true, help = "sum of modifiers" },
  },
  run = function(ctx, args)
    local c = ctx:check("Shooting 5.2")
    c:roll("1d6", "to hit", "5.2.1")
    if args.modifier then c:add(args.modifier, "modifiers", "5.2.2") end
    c:point("shooting.modifiers") -- house rules hook in here
    local need = umpire.variant == "classic" and 5 or 4
    local total = c:total()
    c:result(total >= need and "hit" or "miss")
    if total >= need then
      return args.firer .. " hits (" .. total .. ")"
    end
    return args.firer .. " misses (" .. total .. ")"
  end,
}

-- Tables from Lua: roll on one, look one up.
umpire.command {
  name = "morale",
  help = "2d6 on the morale table, +quality modifier, -1 if pinned",
  args = {
    { name = "unit", type = "unit" },
    { name = "quality", type = "choice", values = { "green", "trained", "veteran" }, optional = true },
    { name = "pinned", type = "flag" },
  },
  run = function(ctx, args)
    local modifier = umpire.lookup("quality", args.quality or "trained")
    if args.pinned then modifier = modifier - 1 end
    local result, total = umpire.roll_table("morale", modifier)
    return args.unit .. " " .. result .. " (" .. total .. ")"
  end,
}

umpire.on("round_begins", function(event)
  print("round " .. tostring(event.round) .. " begins")
end)

umpire.on("pre_rally", function(event)
  return event.unit ~= "routed"
end)
