-- UL's turn of two phases (9), tactical initiative d20 + rating (13), the Tactical Action
-- sequence (15), winning and losing (26), table and deployment (8) on fld_common.
local cfg = require("undying_lands.command").cfg
require("fld_common.sequence").register(cfg)
require("fld_common.initiative").register(cfg)
require("fld_common.victory").register(cfg)
require("fld_common.terrain").register(cfg)

-- 26: a wing is demoralised as soon as half its TUs have lost half their IP (checked when a
-- TU loses IP); its orders become RETREAT, and every TU of the side tests (23.1 g).
-- With tu_lost_half total (the default), a TU counts once its vignettes' IP is at half its
-- starting IP or less; a loss that leaves the TU's own total above half cannot have made it
-- count, so the wing is not read then (the TU's total is its vignettes' IP, negative IP
-- included, which is never more than the IP the count adds up). The check runs on the loss
-- that brings a TU to half, and on every loss after it.
local victory = require "fld_common.victory"
umpire.on("unit_damaged", function(ev)
  if ev.attr ~= "ip" then return end
  local u = ev.unit
  if ev.new * 2 > u.ip_start and umpire.option("tu_lost_half") ~= "majority" then return end
  local g = umpire.group(u.command)
  -- `role` is declared (fld_common.schema, default mtu): read as it is, not through futil.attr
  if g.role ~= "mtu" or g.demoralised then return end
  -- every loss of IP of a TU runs this: decide first, and list the TUs only for the message
  if not victory.half_count(cfg, g) then return end
  local n, bad = victory.count(cfg, g)
  if n > 0 and #bad * 2 >= n then
    g:set("demoralised", true, #bad .. " of " .. n .. " TUs " .. cfg.counts_text .. " (26)")
    print(g.id .. " is demoralised: " .. #bad .. " of " .. n .. " TUs " .. cfg.counts_text ..
      " (26); its orders become RETREAT; every TU of " .. g.side .. " tests (`integrity UNIT g`, 23.1 g); `victory` shows the sides")
    cfg.on_demoralised(g)
    umpire.emit("mtu_demoralised", { command = g.id, side = g.side })
  end
end)
