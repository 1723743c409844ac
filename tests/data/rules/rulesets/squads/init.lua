-- A test ruleset for the element API (tests/elements.rs runs tests/elements.lua beside it):
-- squads whose soldiers are elements with hit points, created, moved and removed by rules.

umpire.ruleset {
  name = "squads",
  doc = "squads of soldiers, each an element with hit points (a test of the element API)",
  schema = {
    unit = { hp = { type = "int", min = 0, max = 30, default = 0, doc = "the squad's hit points" } },
    element = {
      hp = { type = "int", min = 0, max = 3, default = 2, doc = "a soldier's hit points" },
      role = { type = "choice", values = { "rifle", "medic" }, default = "rifle" },
    },
    markers = {
      fallen = "out of the fight",
      pinned = { doc = "keeps its head down", expires = "round" },
    },
    -- `element_damaged` follows the soldiers' `hp` (named here; without it, the attribute
    -- `strength` names would be followed, as elements declare `hp` too).
    status = { strength = "hp", element_strength = "hp" },
  },
  sequence = { "orders", "fire" },
}

umpire.command {
  name = "wound",
  help = "a soldier loses hit points",
  args = {
    { name = "soldier", type = "element", help = "UNIT.ELEMENT or the element's id" },
    { name = "n", type = "int", optional = true },
  },
  run = function(ctx, args)
    local e = args.soldier
    e:add("hp", -(args.n or 1), "wounded (T.1)")
    return e .. " of " .. e.unit .. " has " .. e.hp .. " HP"
  end,
}

umpire.on("element_damaged", function(ev)
  print(ev.element.id .. " lost " .. ev.loss .. " " .. ev.attr .. " (" .. ev.unit.id .. ")")
  if ev.new <= 0 then ev.element:mark("fallen", "no HP left (T.2)") end
end)
umpire.on("element_marked", function(ev)
  print(ev.element.id .. " of " .. ev.unit.id .. " marked " .. ev.marker)
end)
umpire.on("element_marker_expired", function(ev)
  print(ev.element.id .. " no longer " .. ev.marker)
end)

umpire.command {
  name = "pin",
  help = "a soldier is pinned until the end of the round",
  args = { { name = "soldier", type = "element" } },
  run = function(ctx, args) args.soldier:mark("pinned", "under fire (T.3)") end,
}

umpire.command {
  name = "look",
  help = "what a soldier's handle reads",
  args = { { name = "soldier", type = "element" } },
  run = function(ctx, args)
    local e = args.soldier
    local same = umpire.element(e.unit .. "." .. e.id) == e
    return table.concat({ e.id, e.name, e.kind, e.unit, e.side, e.command, tostring(e.hp),
      e:get("role"), tostring(e:has("fallen")), table.concat(e:markers(), "+"),
      tostring(same) }, " ")
  end,
}

umpire.command {
  name = "standing",
  help = "the soldiers of a squad a filter picks",
  args = {
    { name = "squad", type = "unit" },
    { name = "filter", type = "text", optional = true },
  },
  run = function(ctx, args)
    local ids = {}
    for _, e in ipairs(args.squad:elements(args.filter)) do ids[#ids + 1] = e.id end
    return #ids .. ": " .. table.concat(ids, ",")
  end,
}

umpire.command {
  name = "recruit",
  help = "a new squad of N soldiers joins a command",
  args = {
    { name = "command", type = "group" },
    { name = "id", type = "choice", values = { "sq9", "sq8" } },
    { name = "n", type = "int" },
  },
  run = function(ctx, args)
    local soldiers = {}
    for i = 1, args.n do
      soldiers[i] = { id = args.id .. "s" .. i, name = "Soldier " .. i,
        attrs = { role = i == 1 and "medic" or "rifle" } }
    end
    local u = umpire.create_unit {
      command = args.command, id = args.id, name = "Squad " .. args.id,
      attrs = { hp = 2 * args.n }, elements = soldiers, reason = "reinforcements (T.4)",
    }
    local e = u:add_element { id = args.id .. "sgt", name = "Sergeant", attrs = { hp = 3 },
      reason = "a sergeant leads it (T.4)" }
    return u.name .. " with " .. #u:elements() .. " soldiers under " .. e.name
  end,
}

umpire.command {
  name = "detach",
  help = "a soldier joins another squad",
  args = { { name = "soldier", type = "element" }, { name = "squad", type = "unit" } },
  run = function(ctx, args)
    args.soldier:move_to(args.squad, "detached (T.5)")
    return args.soldier.id .. " now in " .. args.soldier.unit
  end,
}

umpire.command {
  name = "transfer",
  help = "a squad joins another command",
  args = { { name = "squad", type = "unit" }, { name = "command", type = "group" } },
  run = function(ctx, args)
    args.squad:move_to(umpire.group(args.command.id), "transferred (T.6)")
    return args.squad.id .. " now in " .. args.squad.command .. " of " .. args.squad.side
  end,
}

umpire.command {
  name = "disband",
  help = "a squad, or one soldier, leaves the game",
  args = { { name = "squad", type = "unit", optional = true },
           { name = "soldier", type = "element", optional = true } },
  run = function(ctx, args)
    if args.squad then args.squad:remove("disbanded (T.7)") end
    if args.soldier then args.soldier:remove("sent home (T.7)") end
  end,
}

-- Mistakes a script can make, each refused with its file and line.
umpire.command {
  name = "mistake",
  args = { { name = "which", type = "choice", values = {
    "duplicate", "attribute", "no_command", "typo", "remove_side", "move_to_command",
    "no_reason", "bad_filter", "element_of_side" } } },
  run = function(ctx, args)
    local w = args.which
    if w == "duplicate" then
      umpire.create_unit { command = "alpha", id = "sq1", reason = "again" }
    elseif w == "attribute" then
      umpire.create_unit { command = "alpha", id = "sq7", attrs = { hq = 3 }, reason = "typo" }
    elseif w == "no_command" then
      umpire.create_unit { command = "omega", id = "sq7", reason = "nowhere" }
    elseif w == "typo" then
      umpire.create_unit { comand = "alpha", id = "sq7", reason = "typo" }
    elseif w == "remove_side" then
      umpire.side("blue"):remove("gone")
    elseif w == "move_to_command" then
      umpire.element("sq1.1"):move_to("alpha", "wrong")
    elseif w == "no_reason" then
      umpire.unit("sq1"):remove()
    elseif w == "bad_filter" then
      umpire.unit("sq1"):elements("side:blue")
    else
      umpire.side("blue"):elements()
    end
  end,
}
