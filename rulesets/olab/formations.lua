-- Formations of 6.6: squares (`square`) and testudo or schiltron (`testudo`). How they fight
-- and are shot at is in combat.lua and shooting.lua; a square's two stands are paired in the
-- store (`squares`), because a stand cannot point at another through its attributes.
local arg = require "olab.args"
local util = require "olab.util"
local actions = require "olab.actions"
local morale = require "olab.morale"

-- `formed`: the umpire records a square or testudo that is already formed (set up so before
-- play, or formed while nobody typed it): no action is spent and nothing is checked against
-- this round's actions. The change is journalled like any other.
local function spend(u, args)
  if args.formed then return end
  actions.use(u, "move", args.force)
end

-- 6.6: two MSK back to back form a square; one stand named breaks it up.
umpire.command {
  name = "square",
  help = "`square A B` forms a square of two MSK stands (c.1700-c.1900); `square A` breaks " ..
    "it up. Uses each stand's MOVE action (AMB-30) (6.6); `formed` records a square already " ..
    "formed (before play), spending no action",
  args = {
    { name = "first", type = "unit", help = "a MSK stand" },
    { name = "second", type = "unit", optional = true, help = "the MSK stand behind it" },
    { name = "formed", type = "flag", help = "already formed: record it without spending actions" },
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
        spend(u, args)
        u:set("formation", "normal", args.formed and "recorded as out of square by the umpire (6.6)"
          or "square broken up (6.6)")
      end
      -- Option square_losses pooled: out of the square, each stand tests its own rout (7.2).
      if umpire.option("square_losses") == "pooled" then
        for _, u in ipairs({ a, b }) do
          if not util.off_table(u) then morale.after_loss(u, u.sp, u.sp) end
        end
      end
      return a.name .. " and " .. b.name .. " leave their square"
    end
    if a.id == b.id then umpire.fail("a square needs two different MSK stands, back to back (6.6)") end
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
      spend(u, args)
      u:set("formation", "square", args.formed and "already in square, recorded by the umpire (6.6)"
        or "formed square (6.6)")
    end
    return a.name .. " and " .. b.name .. (args.formed and " are in square (no action spent)" or
      " form a square") .. ": 1/4 of their SP to each face, " ..
      "no flanks, no charge bonus against it, defending terrain in close combat (6.6)"
  end,
}

-- 6.6: a legionary INF/A stand (or a schiltron) declares testudo, or leaves it.
umpire.command {
  name = "testudo",
  help = "a Roman legionary INF/A stand (or a schiltron) forms testudo, or leaves it; uses its " ..
    "MOVE action (AMB-30) (6.6); `formed` records one already in testudo, spending no action",
  args = {
    { name = "stand", type = "unit" },
    { name = "off", type = "flag", help = "leave testudo" },
    { name = "formed", type = "flag", help = "already formed: record it without spending an action" },
    arg.force("umpire's override"),
  },
  run = function(ctx, args)
    local u = args.stand
    if args.off then
      if u.formation ~= "testudo" then umpire.fail(u.name .. " is not in testudo") end
      spend(u, args)
      u:set("formation", "normal", args.formed and "recorded as out of testudo by the umpire (6.6)"
        or "left testudo (6.6)")
      return u.name .. " leaves testudo"
    end
    if u.type ~= "INF/A" and not args.force then
      umpire.fail("only INF/A stands form testudo or schiltron (6.6); add `force` to override")
    end
    if u.formation == "testudo" then umpire.fail(u.name .. " is already in testudo") end
    spend(u, args)
    u:set("formation", "testudo", args.formed and "already in testudo, recorded by the umpire (6.6)"
      or "formed testudo (6.6)")
    return u.name .. (args.formed and " is in testudo (no action spent)" or " forms testudo") ..
      ": 1/4 SP to each face, no flanks, defending terrain, never shoots (6.6)"
  end,
}

