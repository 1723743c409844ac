-- Between the battles of a campaign (`battle end`, event `battle_ends`): what FLD and Undying
-- Lands clear of their command structure, which belongs to one battle. Neither rulebook has
-- campaign rules; this is umpire's reading (each ruleset's README, "Campaigns").
local M = {}

-- A command's state for one battle, and its value before any battle.
local PER_BATTLE = { orders = "none", activation = "none", oi_result = "", ti = 0, ti_rank = 0,
  demoralised = false }

-- Sets every command's per-battle state back, giving `reason`.
function M.reset_commands(reason)
  local seen = {}
  for _, u in ipairs(umpire.units("all")) do
    local id = u.command
    if not seen[id] then
      seen[id] = true
      local g = umpire.group(id)
      for attr, value in pairs(PER_BATTLE) do
        if g[attr] ~= value then g:set(attr, value, reason) end
      end
    end
  end
end

-- Takes off `h`'s markers except those in `keep` (a set of names).
function M.clear_markers(h, keep, reason)
  for _, m in ipairs(h:markers()) do
    if not keep[m] then h:unmark(m, reason) end
  end
end

return M
