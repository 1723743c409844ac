-- A test ruleset for events (tests/events.rs runs tests/events.lua beside it): handlers run at
-- once, a rule's own events (`umpire.emit`), `step_ends` and `round_ends`, and hook points
-- that hand their situation to house rules.

umpire.ruleset {
  name = "events",
  doc = "stands with strength points, eliminated at once (a test of events and hook points)",
  schema = {
    unit = {
      sp = { type = "int", min = 0, max = 10, default = 4, doc = "strength points" },
      off_table = { type = "choice", values = { "no", "out" }, default = "no" },
    },
    markers = { shaken = "wavering", cheered = "heartened", tired = "worn out" },
    status = { strength = "sp" },
  },
  sequence = { "move", "fire" },
}

-- Elimination at once: the step of a command after a loss sees the stand out.
umpire.on("unit_damaged", function(ev)
  if ev.new <= 0 and ev.unit.off_table == "no" then
    ev.unit:set("off_table", "out", "no SP left (E.2)")
  end
end, { at_once = true })

-- A handler after the command: it sees everything the command (and at-once handlers) did.
umpire.on("unit_damaged", function(ev)
  print(string.format("after: %s lost %g%s", ev.unit.id, ev.loss, ev.unit.off_table == "out" and ", out" or ""))
end)

umpire.command {
  name = "volley",
  help = "two shots of N SP each; the second is held if the first put the target out",
  args = { { name = "target", type = "unit" }, { name = "n", type = "int" } },
  run = function(ctx, args)
    local u = args.target
    u:add("sp", -math.min(args.n, u.sp), "first shot (E.1)")
    if u.off_table == "out" then return "second shot held: " .. u.id .. " is out" end
    u:add("sp", -math.min(args.n, u.sp), "second shot (E.1)")
    return u.id .. (u.off_table == "out" and " is out after two shots" or " stands")
  end,
}

umpire.command {
  name = "blunder",
  help = "a loss, then an error: everything is taken back",
  args = { { name = "target", type = "unit" } },
  run = function(ctx, args)
    args.target:set("sp", 0, "blunder (E.9)")
    error("the blunder fails after " .. args.target.off_table)
  end,
}

-- A rule's own event.
umpire.on("cheer", function(ev)
  ev.unit:mark("cheered", "cheered by " .. ev.by .. " x" .. ev.times)
  print("cheer heard by " .. ev.unit.id .. " (" .. ev.event .. ")")
end)
umpire.on("cheer", function(ev)
  if ev.unit:has("shaken") then ev.unit:unmark("shaken", "steadied by the cheer") end
end)

umpire.command {
  name = "cheer",
  args = { { name = "unit", type = "unit" } },
  run = function(ctx, args)
    local went = umpire.emit("cheer", { unit = args.unit, by = "the drums", times = 3 })
    -- the handlers ran at once: the marker is on already
    return "emit " .. tostring(went) .. ", cheered " .. tostring(args.unit:has("cheered"))
  end,
}

umpire.on("ask", function(ev) return ev.answer end)
umpire.command {
  name = "ask",
  args = { { name = "answer", type = "choice", values = { "yes", "no" } } },
  run = function(ctx, args)
    return "emit gave " .. tostring(umpire.emit("ask", { answer = args.answer == "yes" }))
  end,
}

umpire.on("tamper", function(ev) ev.times = 99 end)
umpire.on("echo", function(ev) umpire.emit("echo", { n = ev.n + 1 }) end)
umpire.on("unit_marked", function(ev)
  if ev.marker == "tired" then
    ev.unit:unmark("tired", "shakes it off")
    ev.unit:mark("tired", "tires again")
  end
end, { at_once = true })

umpire.command {
  name = "misuse",
  args = { { name = "how", type = "choice", values = { "tamper", "echo", "builtin", "pre", "fields", "loop" } },
    { name = "unit", type = "unit", optional = true } },
  run = function(ctx, args)
    if args.how == "tamper" then umpire.emit("tamper", { times = 1 })
    elseif args.how == "echo" then umpire.emit("echo", { n = 1 })
    elseif args.how == "builtin" then umpire.emit("unit_damaged", { unit = args.unit })
    elseif args.how == "pre" then umpire.emit("pre_volley", {})
    elseif args.how == "fields" then umpire.emit("cheer", "loud")
    elseif args.how == "loop" then args.unit:mark("tired", "marched all day") end
  end,
}

-- The clock: `step_ends` and `round_ends` come before it moves.
umpire.on("step_ends", function(ev)
  local now = umpire.clock()
  print(string.format("step ends: round %d %s (clock at %s)", ev.round, ev.phase, now.phase))
  if ev.phase == "fire" then
    for _, u in ipairs(umpire.units("marked:shaken")) do u:unmark("shaken", "the fire phase is over") end
  end
end)
umpire.on("round_ends", function(ev)
  print(string.format("round %d ends (clock in round %d)", ev.round, umpire.clock().round))
end)
umpire.on("round_begins", function(ev) print("round " .. ev.round .. " begins") end)

-- A hook point with its situation.
umpire.command {
  name = "aim",
  args = { { name = "firer", type = "unit" }, { name = "target", type = "unit" },
    { name = "bare", type = "flag" } },
  run = function(ctx, args)
    local c = ctx:check("Aim E.3")
    c:add(3, "base", "E.3")
    if args.bare then
      c:point("events.aim")
    else
      c:point("events.aim", { firer = args.firer, target = args.target, weapon = "bow",
        range = { min = 2, max = 12 } })
    end
    c:result(c:total() >= 4 and "hit" or "miss")
  end,
}
umpire.hook("events.aim", function(c, ctx, aim)
  if aim == nil then
    c:add(0, "no situation", "E.3")
  else
    c:add(1, aim.firer.id .. " aims at " .. aim.target.id .. " with a " .. aim.weapon ..
      " (" .. aim.range.min .. "-" .. aim.range.max .. ")", "E.3")
  end
end)
umpire.hook("events.aim", function(c, ctx, aim)
  if aim and aim.target.sp < 2 then aim.weapon = "sling" end
end)
