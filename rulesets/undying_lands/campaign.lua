-- Between the battles of a campaign (`battle end`, event `carry_over`, after `battle_ends`): what an Undying Lands
-- army carries into its next battle. The rulebook has no campaign rules; umpire's reading is
-- in README.md ("Campaigns"):
-- - a vignette with no IP left is lost (taken out of its Tactical Unit), and a TU with none
--   left is lost: its roster leaves it out;
-- - every other vignette comes back at the IP it ended with, which become its starting IP, so
--   the next battle's 50% lines count from there;
-- - what belonged to the battle is cleared: markers (not `mustered`), rallying, following up,
--   and each command's orders, activation, initiative and demoralisation.
local common = require "fld_common.campaign"
local U = require "undying_lands.util"

local reason = "between battles (campaign; README)"
local KEEP = { mustered = true }

umpire.on("carry_over", function()
  for _, u in ipairs(umpire.units("all")) do
    local left = 0
    for _, e in ipairs(u:elements()) do
      if e.ip <= 0 then
        e:remove("lost with all its IP (campaign; README)")
      else
        left = left + 1
        if e.ip_start ~= e.ip then
          e:set("ip_start", e.ip, "starts the next battle at the IP it ended with (campaign; README)")
        end
        common.clear_markers(e, {}, reason)
      end
    end
    if left > 0 then
      U.sync(u, reason)
      if u.ip_start ~= u.ip then u:set("ip_start", u.ip, reason) end
      if u.vignettes ~= left then u:set("vignettes", left, reason) end
      common.clear_markers(u, KEEP, reason)
      if u.rally_left ~= -1 then u:set("rally_left", -1, reason) end
      if u.follow_up ~= 0 then u:set("follow_up", 0, reason) end
    end
  end
  common.reset_commands(reason)
end)
