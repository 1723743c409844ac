-- Between the battles of a campaign (`battle end`, event `carry_over`, after `battle_ends`): what an FLD army
-- carries into its next battle. The rulebook has no campaign rules; umpire's reading is in
-- README.md ("Campaigns"):
-- - a unit with no Integrity Points left is lost: its roster leaves it out;
-- - every other unit comes back with the figures still in its ranks (they become its
--   `figures`), its Integrity Points now as its starting ones, so the next battle's loss
--   fractions count from there; broken and fragmented units have rallied;
-- - what belonged to the battle is cleared: markers (not `mustered` or `battery`), rallying,
--   and each command's orders, activation, initiative and demoralisation.
local common = require "fld_common.campaign"

local reason = "between battles (campaign; README)"
local KEEP = { mustered = true, battery = true }

umpire.on("carry_over", function()
  for _, u in ipairs(umpire.units("all")) do
    if u.integrity > 0 then
      common.clear_markers(u, KEEP, reason)
      local figures = 0
      for _, rank in ipairs(u:elements()) do figures = figures + rank.figures end
      if figures > 0 and figures ~= u.figures then
        u:set("figures", figures, "the figures left in its ranks (campaign; README)")
      end
      if u.integrity_start ~= u.integrity then
        u:set("integrity_start", u.integrity, "starts the next battle at the Integrity Points it ended with (campaign; README)")
      end
      if u.rally_left ~= -1 then u:set("rally_left", -1, reason) end
    end
  end
  common.reset_commands(reason)
end)
