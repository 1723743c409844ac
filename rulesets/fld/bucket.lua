-- The bucket of dice (§25.4, used by shooting, melee and gunnes): roll the pools to hit, roll
-- the hits again to penetrate each armour (natural then additive, FLD-D06; an armour of 0 is
-- no roll, FLD-D05), then count hit points: the dice that got through plus one per six
-- (FLD-D07). Each step is a check with its rule; the numbers go to the record.
local U = require "fld.util"
local B = {}

-- Every face of a roll, in order, for the record (`--json`: all the dice of a big bucket),
-- and its sixes that are successes (U.sixes).
-- The bucket's pools (U.pool: Nd6>=k) drop no die, so the roll's own list of kept dice is
-- every face in the order rolled, and the record takes that list as it is (a record reads a
-- table's list part, not its fields or metatable): no copy. A six is a success unless no die
-- can succeed (k of 7, no successes). Reading r.dice would build a table of ten fields for
-- every die.
local function faces(r)
  local sixes = 0
  if #r.dropped > 0 then
    local out = {}
    for i, d in ipairs(r.dice) do
      local v = d.value
      out[i] = v
      if v == 6 and d.success then sixes = sixes + 1 end
    end
    return out, sixes
  end
  if r.successes > 0 then
    for i = 1, #r do
      if r[i] == 6 then sixes = sixes + 1 end
    end
  end
  return r, sixes
end

-- spec: { title, pools = { {n, need, label, rule}, … }, strength, armours = { {name, value, why}, … },
--         penetration_dice = n (gunnes: dice that go straight to penetration),
--         opt = the command's options (U.options), when the caller has them }
function B.resolve(ctx, spec)
  local opt = spec.opt or U.options()
  local out = { dice = 0, hits = 0, pools = {}, steps = {} }
  local last_sixes = {}    -- the sixes of each roll of the last step (FLD-D07)
  local sixes_to_hit = 0
  if spec.pools then
    local hit = ctx:check(spec.title .. ": to hit")
    local pools = spec.pools
    for i = 1, #pools do
      local p = pools[i]
      if p.n > 0 then
        local expr, eff = U.pool(p.n, p.need, opt)
        local _, r = hit:roll(expr, p.label .. ", " .. eff .. "+" .. (eff ~= p.need and (" (needs " .. p.need .. ")") or ""), p.rule)
        local rolled, sixes = faces(r)
        local hits = r.successes
        out.dice = out.dice + p.n
        out.hits = out.hits + hits
        out.pools[#out.pools + 1] = { dice = p.n, need = p.need, hits = hits, sixes = sixes, rolled = rolled }
        sixes_to_hit = sixes_to_hit + sixes
        last_sixes[#last_sixes + 1] = sixes
      end
    end
    hit:result(out.hits .. " hit" .. (out.hits == 1 and "" or "s") .. " from " .. out.dice .. " dice")
  else
    out.dice, out.hits = spec.penetration_dice, spec.penetration_dice
  end
  local kept = out.hits
  local armours = spec.armours
  for i = 1, #armours do
    local a = armours[i]
    if kept > 0 and a.value > 0 then
      local need = U.combat(spec.strength, a.value, opt.combat_table)
      local p = ctx:check(spec.title .. ": penetrate " .. a.name .. " armour " .. a.value)
      local _, r = p:roll(U.pool(kept, need, opt), "strength " .. spec.strength .. " v armour " .. a.value ..
        " on the Combat Table: " .. need .. "+", "27")
      if a.why and a.why ~= "" then p:add(0, "armour: " .. a.why) end
      kept = r.successes
      local rolled, sixes = faces(r)
      last_sixes = { sixes }
      p:result(kept .. " get through")
      out.steps[#out.steps + 1] = { armour = a.name, value = a.value, need = need, dice = #rolled, through = kept,
        rolled = rolled }
    elseif a.value <= 0 then
      out.steps[#out.steps + 1] = { armour = a.name, value = 0, skipped = true }
    end
  end
  local sixes = 0
  local to_hit_sixes = opt.sixes_bonus == "to_hit_roll"
  if to_hit_sixes then
    sixes = math.min(sixes_to_hit, kept)
  else
    for i = 1, #last_sixes do sixes = sixes + last_sixes[i] end
  end
  if kept == 0 then sixes = 0 end
  local hp = ctx:check(spec.title .. ": hit points")
  hp:add(kept, "dice that got through", "25.4")
  local steps = out.steps
  for i = 1, #steps do
    local st = steps[i]
    if st.skipped then hp:add(0, st.armour .. " armour 0: no roll", "FLD-D05") end
  end
  hp:add(sixes, to_hit_sixes and "sixes of the to-hit roll (option sixes_bonus)"
    or "sixes of the last roll", "25.4, 26.4; FLD-D07")
  local total = hp:total()
  hp:result(total .. " hit points")
  out.through, out.sixes, out.hp = kept, sixes, total
  return out
end

-- The armour steps in the order of the option penetration_order. `opt` (U.options) and
-- `marked` (U.marked, the target's markers) when the caller has them.
function B.armours(target, kind, natural_too, opt, marked)
  opt = opt or U.options()
  local add, why = U.additive(target, kind, marked)
  local list = {}
  if natural_too ~= false then
    local nat, nwhy = U.natural(target, marked, opt)
    list[#list + 1] = { name = "natural", value = nat, why = nwhy }
  end
  list[#list + 1] = { name = "additive (" .. kind .. ")", value = add, why = why }
  if opt.penetration_order == "additive_first" and #list == 2 then list = { list[2], list[1] } end
  return list
end

return B
