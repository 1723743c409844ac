-- Tactical initiative (FLD 20: d6 - rating; UL 13: d20 + rating): every sub-commander of both
-- sides rolls, and they act from the highest to the lowest; ties roll again among the tied
-- only, and the new roll settles their order among themselves (FLD-D29).
local util = require "fld_common.util"
local commanders = require "fld_common.commanders"

local M = {}

-- Rolls for `list` (command handles); `attempt` 1 is the first roll. Returns the list sorted,
-- highest first, ties settled by rolling again. `totals[id]` collects each roll's total.
local function rank(ctx, cfg, list, attempt, totals)
  local R = cfg.rules
  local score = {}
  for _, g in ipairs(list) do
    local c = ctx:check("Tactical initiative " .. R.ti .. ": " .. commanders.sc_label(g) .. ", " .. g.side ..
      (attempt > 1 and (", roll " .. attempt .. " after a tie (" .. cfg.ti.tie_rule .. ")") or ""))
    c:roll(cfg.ti.dice, "tactical initiative " .. cfg.ti.dice, R.ti, g)
    c:add(cfg.ti.sign * g.sc_rating, (cfg.ti.sign < 0 and "less" or "plus") .. " the sub-commander's rating", R.ti)
    c:point(cfg.point .. ".ti", { commander = g, attempt = attempt })
    score[g.id] = c:total()
    c:result("TI " .. score[g.id])
    totals[g.id] = totals[g.id] or {}
    table.insert(totals[g.id], score[g.id])
  end
  local sorted, pos = {}, {}
  for i, g in ipairs(list) do sorted[i] = g; pos[g.id] = i end
  table.sort(sorted, function(a, b)
    if score[a.id] ~= score[b.id] then return score[a.id] > score[b.id] end
    return pos[a.id] < pos[b.id]
  end)
  if attempt >= 50 then umpire.fail("tactical initiative: still tied after 50 rolls; check the dice queue") end
  local out, i = {}, 1
  while i <= #sorted do
    local j = i
    while j < #sorted and score[sorted[j + 1].id] == score[sorted[i].id] do j = j + 1 end
    if j > i then
      local tied = {}
      for k = i, j do tied[#tied + 1] = sorted[k] end
      for _, g in ipairs(rank(ctx, cfg, tied, attempt + 1, totals)) do out[#out + 1] = g end
    else
      out[#out + 1] = sorted[i]
    end
    i = j + 1
  end
  return out
end

function M.roll(ctx, cfg)
  local list = util.all_mtus()
  if #list == 0 then
    umpire.fail("ti: no sub-commanders: add commands with units (`add command SIDE ID`) and set them up with `sc`")
  end
  local totals = {}
  local order = rank(ctx, cfg, list, 1, totals)
  local ids, lines = {}, {}
  for i, g in ipairs(order) do
    ids[i] = g.id
    local first = totals[g.id][1]
    if g.ti ~= first then g:set("ti", first, "tactical initiative (" .. cfg.rules.ti .. ")") end
    if g.ti_rank ~= i then g:set("ti_rank", i, "acts " .. i .. util.ordinal(i) .. " in each phase (" .. cfg.rules.ti .. ")") end
    lines[#lines + 1] = string.format("%d. %s (%s) TI %s", i, g.id, g.side, table.concat(totals[g.id], ", then "))
  end
  store.ti = { round = umpire.clock().round, order = ids }
  umpire.record("ti_order", ids)
  return "Order of action this turn (" .. cfg.rules.ti .. ", " .. cfg.rules.seq .. "):\n" .. table.concat(lines, "\n")
end

function M.register(cfg)
  local R = cfg.rules
  umpire.command {
    name = "ti",
    help = "Stage 3 (" .. R.ti .. "): every sub-commander on both sides rolls tactical initiative, " ..
      cfg.ti.dice .. (cfg.ti.sign < 0 and " less" or " plus") .. "\nhis rating; they act highest first in every phase, ties rolled again among the tied\n" ..
      "e.g. `ti`; `ti again` rolls afresh",
    args = { { name = "again", type = "flag", help = "roll again although rolled this turn" } },
    run = function(ctx, args)
      local t = store.ti
      if t and t.round == umpire.clock().round and not args.again then
        umpire.fail("ti: tactical initiative was rolled this turn (" .. table.concat(t.order, ", ") ..
          "); add `again` to roll it afresh")
      end
      local c = umpire.clock()
      if c.phase ~= "initiative" then
        print("note: tactical initiative is rolled in Stage 3, the `initiative` step; the clock is at " .. c.text .. " (" .. R.turn .. ")")
      end
      return M.roll(ctx, cfg)
    end,
  }
end

return M
