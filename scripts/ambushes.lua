-- Ambushes (OLAB 8.8.3): up to five stands wait off the table in secret terrain until activated or an enemy `enter`s it.
--
-- At deployment the first deployer (PN; the 2nd Edition: the initiative winner) may hold up to
-- five of its first stands off the table (`off_table = ambush`), each with a secret note of the
-- terrain item it waits in. The note lives in this house rule's store, never in a unit's
-- attributes or in a change's reason, so `status`, `show` and the journal's reasons do not give
-- it away; only `ambushes`, the umpire's command, shows it.
--
-- An ambushing stand comes onto the table when its owner activates it as part of a set in a
-- manoeuvre phase (`activate`: the pre_activate handler places it first), or at once when an
-- enemy stand enters its terrain (`enter STAND TERRAIN`).
local arg = require "olab.args"
local util = require "olab.util"
local MAX = 5

-- Who may lay ambushes: PN names the first deployer, the 2nd Edition the initiative winner (the
-- background initiative of 3.2, which the winner may use to make the other side deploy first).
local function who()
  return util.is_2e() and "the initiative winner (2E)" or "the first deployer"
end

local function key(text)
  return (text:lower():gsub("^%s+", ""):gsub("%s+$", ""):gsub("%s+", " "))
end

-- The notes are the umpire's: kept in `secret` (journalled, shown nowhere). A game whose notes
-- were kept in `store` before `secret` existed still reads them there.
local function notes() return secret.notes or store.notes or {} end

local function keep(n)
  secret.notes = n
  if store.notes ~= nil then store.notes = nil end
end

-- Places a stand from ambush with a reason that names no terrain until it is sprung.
local function place(u, why)
  local n = notes()
  local where = n[u.id] and n[u.id].terrain or "?"
  if u.off_table == "ambush" then u:set("off_table", "no", why .. " (8.8.3)") end
  n[u.id] = nil
  keep(n)
  return u.name .. " appears from ambush in " .. where
end

umpire.command {
  name = "ambush",
  help = "at deployment, hide up to five of the first deployer's (2E: the initiative winner's)\n" ..
    "stands off the table in ambush, with a secret note of the terrain item they wait in\n" ..
    "(8.8.3). Type it where the other players cannot see.\n" ..
    "e.g. `ambush lh1,lh2,lh3 the wood by the river`",
  args = {
    { name = "units", type = "selector", help = "the stands, all of one side" },
    { name = "terrain", type = "text", secret = true,
      help = "the terrain item: woods, hill, defile, BUA… (secret: shown as ‹secret› in `log` and `undo`)" },
    arg.force("the umpire's override of the limits"),
  },
  run = function(ctx, args)
    local n = notes()
    local side = args.units[1].side
    local count = 0
    for id, note in pairs(n) do
      if note.side ~= side and not args.force then
        error("only " .. who() .. " lays ambushes (8.8.3), and " .. note.side ..
          " already has; add `force` to override", 0)
      end
      if note.side == side then count = count + 1 end
    end
    for _, u in ipairs(args.units) do
      if u.side ~= side then error("an ambush is of one side: " .. u.id .. " is " .. u.side, 0) end
      if u.off_table ~= "no" and not n[u.id] then
        error(u.id .. " is not on the table (" .. u.off_table .. ")", 0)
      end
      if not n[u.id] then count = count + 1 end
    end
    if count > MAX and not args.force then
      error(string.format("%s would have %d stands in ambush: at most %d, of its first stands " ..
        "deployed (8.8.3); add `force` to override", side, count, MAX), 0)
    end
    local terrain = key(args.terrain)
    if terrain == "" then error("name the terrain item the stands wait in", 0) end
    for _, u in ipairs(args.units) do
      n[u.id] = { side = side, terrain = terrain }
      if u.off_table ~= "ambush" then u:set("off_table", "ambush", "held off the table in ambush (8.8.3)") end
    end
    keep(n)
    return string.format("%d of %s's stands wait in ambush (%d of %d); the note is kept secret",
      #args.units, side, count, MAX)
  end,
}

umpire.command {
  name = "ambushes",
  secret = true,
  help = "the umpire's eyes only: every stand in ambush and the terrain it waits in (8.8.3)",
  args = {},
  run = function(ctx)
    local lines = {}
    for id, note in pairs(notes()) do
      lines[#lines + 1] = string.format("%s (%s) waits in %s", id, note.side, note.terrain)
    end
    if #lines == 0 then return "no stands in ambush" end
    table.sort(lines)
    return "umpire only:\n" .. table.concat(lines, "\n")
  end,
}

umpire.command {
  name = "enter",
  help = "an enemy stand enters a terrain item: any stands waiting in ambush there are placed\n" ..
    "at once (8.8.3). e.g. `enter zulu3 the wood by the river`",
  args = {
    { name = "stand", type = "unit", help = "the stand entering" },
    { name = "terrain", type = "text", help = "the terrain item, as the umpire names it" },
  },
  run = function(ctx, args)
    local where, lines = key(args.terrain), {}
    local ids = {}
    for id, note in pairs(notes()) do
      if note.terrain == where and note.side ~= args.stand.side then ids[#ids + 1] = id end
    end
    table.sort(ids)
    for _, id in ipairs(ids) do
      lines[#lines + 1] = place(umpire.unit(id),
        "sprung: an enemy stand (" .. args.stand.name .. ") entered its hiding place")
    end
    if #lines == 0 then return args.stand.name .. " enters " .. args.terrain end
    return table.concat(lines, "\n")
  end,
}

-- A stand in ambush that its owner activates in a manoeuvre phase is placed, then the
-- activation goes on as usual.
umpire.on("pre_activate", function(ev)
  local n = notes()
  for _, u in ipairs(ev.units or {}) do
    if n[u.id] and u.off_table == "ambush" then
      if umpire.clock().phase ~= "manoeuvre" and not ev.force then
        print(u.name .. " is in ambush: it is placed only when activated in a manoeuvre phase (8.8.3)")
        return false
      end
      print(place(u, "placed from ambush by its owner's set"))
    end
  end
  return true
end)
