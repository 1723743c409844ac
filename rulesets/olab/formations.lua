-- Formations of 6.6: squares (`square`) and testudo or schiltron (`testudo`). How they fight
-- and are shot at is in combat.lua and shooting.lua; a square's two stands are paired in the
-- store (`squares`), because a stand cannot point at another through its attributes.
local arg = require "olab.args"
local util = require "olab.util"
local actions = require "olab.actions"

-- 6.6: two MSK back to back form a square; one stand named breaks it up.
umpire.command {
  name = "square",
  help = "`square A B` forms a square of two MSK stands (c.1700-c.1900); `square A` breaks " ..
    "it up. Uses each stand's MOVE action (AMB-30) (6.6)",
  args = {
    { name = "first", type = "unit", help = "a MSK stand" },
    { name = "second", type = "unit", optional = true, help = "the MSK stand behind it" },
    arg.force("umpire's override"),
  },
  run = function(ctx, args)
    local a, b = args.first, args.second
    local sq = store.squares or {}
    if not b then
      local p = sq[a.id]
      if not p then umpire.fail(a.name .. " is not in a square") end
      b = umpire.unit(p)
      sq[a.id], sq[b.id] = nil, nil
      store.squares = sq
      for _, u in ipairs({ a, b }) do
        actions.use(u, "move", args.force)
        u:set("formation", "normal", "square broken up (6.6)")
      end
      return a.name .. " and " .. b.name .. " leave their square"
    end
    if a.type ~= "MSK" or b.type ~= "MSK" then umpire.fail("a square is formed by two MSK stands (6.6)") end
    if a.side ~= b.side then umpire.fail("the two stands are on different sides") end
    if util.year() and not util.between(1700, 1900) then
      umpire.fail("squares are formed c.1700-c.1900 (6.6); the period is " .. util.year())
    end
    for _, u in ipairs({ a, b }) do
      if sq[u.id] then umpire.fail(u.name .. " is already in a square") end
    end
    sq[a.id], sq[b.id] = b.id, a.id
    store.squares = sq
    for _, u in ipairs({ a, b }) do
      actions.use(u, "move", args.force)
      u:set("formation", "square", "formed square (6.6)")
    end
    return a.name .. " and " .. b.name .. " form a square: 1/4 of their SP to each face, " ..
      "no flanks, no charge bonus against it, defending terrain in close combat (6.6)"
  end,
}

-- 6.6: a legionary INF/A stand (or a schiltron) declares testudo, or leaves it.
umpire.command {
  name = "testudo",
  help = "a Roman legionary INF/A stand (or a schiltron) forms testudo, or leaves it; uses its " ..
    "MOVE action (AMB-30) (6.6)",
  args = {
    { name = "stand", type = "unit" },
    { name = "off", type = "flag", help = "leave testudo" },
    arg.force("umpire's override"),
  },
  run = function(ctx, args)
    local u = args.stand
    if args.off then
      if u.formation ~= "testudo" then umpire.fail(u.name .. " is not in testudo") end
      actions.use(u, "move", args.force)
      u:set("formation", "normal", "left testudo (6.6)")
      return u.name .. " leaves testudo"
    end
    if u.type ~= "INF/A" and not args.force then
      umpire.fail("only INF/A stands form testudo or schiltron (6.6); add `force` to override")
    end
    actions.use(u, "move", args.force)
    u:set("formation", "testudo", "formed testudo (6.6)")
    return u.name .. " forms testudo: 1/4 SP to each face, no flanks, defending terrain, never shoots (6.6)"
  end,
}

