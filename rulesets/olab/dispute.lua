-- Settling disputes (PN 1.3): an opposed D6 between the sides, or a single D6 test that
-- succeeds on 4 or more (+1 when the stand concerned is a Hero, 8.8.4). The 2nd Edition has
-- no such rule.
local util = require "olab.util"
local sequence = require "olab.sequence"

umpire.command {
  name = "dispute",
  help = "PN 1.3: `dispute` rolls an opposed D6 per side (ties roll again, AMB-33);\n" ..
    "`dispute test [UNIT]` rolls a D6 that succeeds on 4+, +1 if UNIT is a Hero",
  args = {
    { name = "mode", type = "choice", values = { "opposed", "test" }, optional = true,
      help = "opposed (default) or a single test" },
    { name = "unit", type = "unit", optional = true, help = "the stand the test concerns" },
  },
  run = function(ctx, args)
    if util.is_2e() then
      umpire.fail("the 2nd Edition has no dispute rule (it is PN 1.3); the umpire decides")
    end
    if (args.mode or "opposed") == "test" then
      local c = ctx:check("Dispute test 1.3" .. (args.unit and (": " .. args.unit.name) or ""))
      c:roll("1d6", "dispute D6", "1.3", args.unit)
      if args.unit and args.unit.hero then c:add(1, "Hero", "1.3, 8.8.4") end
      local yes = c:total() >= 4
      c:result(yes and "it happens (4+)" or "it does not (under 4)")
      umpire.record("dispute", { mode = "test", unit = args.unit and args.unit.id or false,
        score = c:total(), succeeds = yes })
      return yes and "yes: the test succeeds" or "no: the test fails"
    end
    local sides = util.sides()
    if #sides < 2 then umpire.fail("an opposed dispute needs two sides with stands") end
    -- Each side's D6 in its own breakdown; a tie for the highest rolls again, the tied
    -- sides only (AMB-33): ctx:opposed re-runs their functions and shows each comparison.
    local makers = {}
    for i, side in ipairs(sides) do
      makers[i] = function(attempt)
        local c = ctx:check("Dispute 1.3: " .. side .. (attempt > 1 and " (again after a tie)" or ""))
        local d = c:roll("1d6", "dispute D6", "1.3", umpire.side(side))
        c:result(tostring(d))
        return c
      end
    end
    -- `initiative_ties holder_keeps`: this round's initiative holder wins a tie (AMB-33).
    local tie, keeper = sequence.tie_rule(sides, sequence.initiative_side())
    local o = ctx:opposed(makers, { tie = tie, names = sides, title = "Dispute 1.3", rule = "1.3, AMB-33" })
    local totals = {}
    for i, side in ipairs(sides) do totals[side] = o.totals and o.totals[i] or false end
    umpire.record("dispute", { mode = "opposed", totals = totals, winner = sides[o.winner],
      ties = o.ties or 0, tie_kept_by = (o.tie and keeper) or false })
    if o.tie and keeper then
      return sides[o.winner] .. " wins the dispute: a tie, and it holds the initiative this round " ..
        "(1.3; option initiative_ties holder_keeps)"
    end
    return sides[o.winner] .. " wins the dispute"
  end,
}
