-- The game's period (year, science fiction): it decides the dated rules of 5-8 (SKI/F +1 after
-- 1915, rally +1 after 1900, attack columns 1790-1875, squares 1700-1900). Kept in the store.
local util = require "olab.util"

umpire.command {
  name = "period",
  help = "sets the year the game is set in, and `scifi` for science fiction; no arguments " ..
    "shows it\ne.g. `period 1815`, `period 2300 scifi`",
  args = {
    { name = "year", type = "int", optional = true, help = "the year of the battle" },
    { name = "scifi", type = "flag", help = "a science-fiction game" },
  },
  run = function(ctx, args)
    if args.year or args.scifi then
      store.period = { year = args.year, scifi = args.scifi }
    end
    local y, s = util.year(), util.scifi()
    if not y and not s then return "no period set: dated rules (after 1900 etc.) do not apply" end
    return "period: " .. (y and tostring(y) or "undated") .. (s and ", science fiction" or "")
  end,
}
