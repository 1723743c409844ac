-- Between the battles of a campaign (`battle end`, event `carry_over`, after `battle_ends`): what an OLAB army
-- carries into its next battle. The rulebooks have no campaign rules; this is umpire's
-- reading, in README.md ("Campaigns"):
-- - a stand eliminated (SP 0) is lost: the roster leaves it out;
-- - every other stand comes back, routed-off and retreated stands included, at the SP it ended
--   with, which becomes its starting SP (so it does not rout at once for being "below half");
-- - what belongs to one battle is cleared: markers, a Command's or army's morale threshold
--   and retreat, Generals killed, PCP lost, and the stand counts morale is measured against.

local reason = "between battles (campaign; README)"

local function reset(h, attrs)
  for attr, value in pairs(attrs) do
    if h[attr] ~= value then h:set(attr, value, reason) end
  end
end

umpire.on("carry_over", function()
  local commands = {}
  for _, u in ipairs(umpire.units("all")) do
    commands[u.command] = true
    if u.sp > 0 then
      for _, m in ipairs(u:markers()) do u:unmark(m, reason) end
      local back = u.off_table == "routed_off" or u.off_table == "retreated"
      if back then u:set("off_table", "no", "returns for the next battle (campaign; README)") end
      if u.sp_start ~= u.sp then u:set("sp_start", u.sp, "starts the next battle at the SP it ended with (campaign; README)") end
    end
  end
  for id in pairs(commands) do
    reset(umpire.group(id), { threshold = 0, retreating = false, general_killed = false, start_stands = 0 })
  end
  for _, id in ipairs(umpire.sides()) do
    reset(umpire.side(id), { threshold = 0, retreating = false, generals_killed = 0, pcp_lost = 0,
      start_stands = 0 })
  end
end)
