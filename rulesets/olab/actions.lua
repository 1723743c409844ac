-- The action limit (2.1.1): each stand may MOVE, SHOOT and fight in CLOSE COMBAT at most once a
-- round, and never all three. Actions are markers that expire at the end of the round, so the
-- clock clears them; the umpire may override the limit with `force`, which is journalled.
local M = {}

local marker = { move = "moved", shoot = "shot", cc = "fought" }
local names = { move = "MOVE", shoot = "SHOOT", cc = "CLOSE COMBAT" }

-- The actions a stand has used this round, as a list of keys ("move", "shoot", "cc").
function M.used(u)
  local out = {}
  for _, key in ipairs({ "move", "shoot", "cc" }) do
    if u:has(marker[key]) then out[#out + 1] = key end
  end
  return out
end

-- How many actions the stand may take this round: 2, or 1 with NBC kit worn (8.4).
function M.limit(u)
  if u.nbc then return 1 end
  return 2
end

-- Why `u` may not take action `key` now (nil if it may).
function M.refusal(u, key)
  if u:has(marker[key]) then
    return u.name .. " has already used its " .. names[key] .. " action this round (2.1.1)"
  end
  local used = M.used(u)
  if #used >= M.limit(u) then
    local list = {}
    for i, k in ipairs(used) do list[i] = names[k] end
    return u.name .. " has already used " .. #used .. (#used == 1 and " action" or " actions") .. " this round (" ..
      table.concat(list, ", ") .. "; 2.1.1)"
  end
  return nil
end

-- Marks action `key` as used by `u`; fails with the reason if the limit forbids it, unless
-- `force` is set (the umpire's deliberate override, noted with the reason).
function M.use(u, key, force)
  local why = M.refusal(u, key)
  if why and not force then
    umpire.fail(why .. "; add `force` to override")
  end
  local reason = names[key] .. " action (2.1.1)"
  if why then reason = reason .. ", over the limit by the umpire's decision" end
  if not u:has(marker[key]) then u:mark(marker[key], reason) end
end

umpire.command {
  name = "actions",
  help = "the actions each chosen stand has used this round and what it may still do (2.1.1)",
  args = { { name = "units", type = "selector", help = "which stands, e.g. side:romans" } },
  run = function(ctx, args)
    local lines = {}
    for _, u in ipairs(args.units) do
      local used = M.used(u)
      local list = {}
      for i, k in ipairs(used) do list[i] = names[k] end
      local left = M.limit(u) - #used
      lines[#lines + 1] = string.format("%-12s used: %-22s %d left", u.id,
        #list > 0 and table.concat(list, ", ") or "none", math.max(0, left))
    end
    return table.concat(lines, "\n")
  end,
}

return M
