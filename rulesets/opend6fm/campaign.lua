-- Between the battles of a campaign (`battle end`, event `carry_over`, after `battle_ends`): what an OpenD6 force
-- carries into its next battle. The source has no campaign rules; umpire's reading is in
-- README.md ("Campaigns"):
-- - a soldier incapacitated is lost (taken out of his squad); a squad with nobody left is
--   lost: its roster leaves it out;
-- - every other soldier comes back, a wound healed between battles; the squad's size now is
--   its size at the start of the next battle (the 50% rule counts from it), and its morale is
--   its starting level again, steady;
-- - what belonged to the battle is cleared: markers, casualties counted, targets, close-combat
--   results, and a squad taken off the table comes back.
local reason = "between battles (campaign; README)"

local PER_BATTLE = { cas_turn = 0, cas_cc = 0, cas_all = 0, cas_total = 0, sergeant_hit = false,
  cc_result = "none", targets = "", off_table = "no", state = "steady" }

umpire.on("carry_over", function()
  for _, u in ipairs(umpire.units("all")) do
    local left = 0
    for _, e in ipairs(u:elements()) do
      if e:has("incapacitated") or e:has("pending_incap") then
        e:remove("incapacitated in the battle (campaign; README)")
      else
        left = left + 1
        for _, m in ipairs(e:markers()) do e:unmark(m, reason) end
      end
    end
    if left > 0 then
      if u.soldiers ~= left then u:set("soldiers", left, reason) end
      if u.start_size ~= left then u:set("start_size", left, "its size for the next battle (campaign; README)") end
      if u.morale ~= u.morale_start then u:set("morale", u.morale_start, reason) end
      for attr, value in pairs(PER_BATTLE) do
        if u[attr] ~= value then u:set(attr, value, reason) end
      end
      for _, m in ipairs(u:markers()) do u:unmark(m, reason) end
    elseif u.soldiers ~= 0 then
      u:set("soldiers", 0, "nobody left (campaign; README)")
    end
  end
end)
