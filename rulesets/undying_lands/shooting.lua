-- TA3 shooting (18): one roll for each shooting vignette, its die from weapon, proficiency and
-- the target's column; modifiers in the printed order (additive first, then -25%, -half); the
-- result is the IP the target vignette loses, never below 0 (UL-D05).
local data = require "undying_lands.data"
local U = require "undying_lands.util"
local I = require "undying_lands.integrity"

local fmorale = require "fld_common.morale"

local M = {}

local SHOOTER_LOSS = {
  { 0.5, -1, "4. shooter has lost 50% of its IP" },
  { 1.0, -2, "5. shooter has lost 100% of its IP" },
}

-- The target column (UL-D02): "foot", "heavy" (Le, Be, CO) or "mounted".
function M.column(t)
  if t.type == "mounted" then
    if t.order == "close" and umpire.option("target_column") == "close_first" then
      return "heavy", "Close order Mounted in the Le/Be/CO column (option target_column close_first)"
    end
    return "mounted", "Mounted"
  end
  if t.type == "leviathan" or t.type == "behemoth" or t.order == "close" then
    return "heavy", "Leviathan, Behemoth or Close order"
  end
  return "foot", "Loose or Open order Foot"
end

-- One vignette's shot. `o`: range (cm), long (flag), cover, charger, hill, sbw. Returns the
-- IP loss and the record.
function M.shot(ctx, f, t, o)
  local fu, tu = U.unit_of(f), U.unit_of(t)
  local weapon = o.sbw and "sbw" or fu.missile
  if weapon == "none" then umpire.fail("shoot: " .. fu.id .. " has no missile weapon (2.4); `sbw` for a breath weapon") end
  if o.sbw and not fu.sbw then umpire.fail("shoot: " .. fu.id .. " has no special breath weapon (sbw=true) (2.4)") end
  if o.sbw and fu:has("sbw_used") then umpire.fail("shoot: " .. fu.id .. " has used its breath weapon: once per game (2.4)") end
  if fu:has("march") then umpire.fail("shoot: " .. fu.id .. " is in march formation and cannot fight (20.i)") end
  -- 18: a vignette in melee shoots only at the enemy it fights, and only with SSW or SBW
  local foes = I.enemies(f)
  if #foes > 0 then
    local fights = false
    for _, x in ipairs(foes) do if x.id == t.id then fights = true end end
    if not fights then
      umpire.fail("shoot: " .. U.vname(f) .. " is in melee and may shoot only at the enemy it fights (" ..
        U.vname(foes[1]) .. ") (18)")
    end
    if weapon ~= "ssw" and weapon ~= "sbw" then
      umpire.fail("shoot: " .. U.vname(f) .. " is in melee and may shoot only with SSW or SBW, not " .. weapon:upper() .. " (18)")
    end
  end
  local w = data.SHOOT[weapon]
  local range = weapon == "sbw" and umpire.option("sbw_range") or w.range
  local long = o.long
  if o.range then
    if o.range > range then
      umpire.fail("shoot: " .. t.id .. " is " .. o.range .. " cm away, beyond " .. weapon:upper() .. "'s " .. range .. " cm (18)")
    end
    if umpire.option("long_range") == "over_half" then long = o.range > range / 2 else long = o.range >= range / 2 end
  end
  local col, why = M.column(tu)
  local die = w[col][data.PROF_INDEX[fu.proficiency]]
  local c = ctx:check("Shooting 18: " .. U.vname(f) .. " (" .. weapon:upper() .. ") at " .. U.vname(t))
  local rec = { firer = f.id, target = t.id, die = die, column = col, factors = {} }
  local rolled = c:roll(die, weapon:upper() .. ", " .. fu.proficiency .. ", target " .. why ..
    (die == "1d2" and " (d2: a d4 halved, rounded up)" or ""), "18")
  rec.rolled = rolled
  local F = rec.factors
  if tu.order == "close" then U.factor(c, F, 2, "1. target is Close order", "18") end
  if o.charger then U.factor(c, F, -2, "2. target is a charger that moved into contact", "18") end
  if o.cover or tu.order == "open" then U.factor(c, F, -2, "3. target " .. (o.cover and "in cover" or "is Open order"), "18") end
  -- 18 lines 4-5, one graded condition: fld_common's loss brackets, the larger only or both (UL-D03)
  local cumulative = umpire.option("shooter_ip") == "cumulative"
  local lost = f.ip_start > 0 and (f.ip_start - f.ip) / f.ip_start or 0
  for _, b in ipairs(fmorale.brackets(lost, SHOOTER_LOSS, cumulative, false)) do
    U.factor(c, F, b[2], b[3], "18; " .. (cumulative and "option shooter_ip cumulative" or "UL-D03"))
  end
  if long or o.hill then
    U.factor(c, F, -3, "6. " .. (long and ("long range" .. (o.range and (": " .. o.range .. " cm of " .. range) or "")) or "shooting up a Gentle Hill"),
      "18" .. (o.range and "; UL-D22" or ""))
  end
  local v = c:total()
  if fu.order == "loose" then
    local r = U.reduce(v, "quarter")
    if r ~= v then U.factor(c, F, r - v, "7. shooter is Loose order: -25%, round down", "18; UL-D04") end
  elseif fu.order == "open" then
    local r = U.reduce(v, "half")
    if r ~= v then U.factor(c, F, r - v, "8. shooter is Open order: -half, round down", "18; UL-D04") end
  end
  c:point("ul.shooting.modifiers", { firer = f, target = t, weapon = weapon, column = col })
  local loss = math.max(0, c:total())
  if loss ~= c:total() then U.factor(c, F, loss - c:total(), "never below 0", "18; UL-D05") end
  c:result(t.id .. " loses " .. loss .. " IP")
  rec.loss = loss
  if o.sbw then fu:mark("sbw_used", "breathed (18: once per game)") end
  return loss, rec
end

umpire.command {
  name = "shoot",
  help = "TA3 (18): vignettes shoot, each with one roll against a target vignette; `return` for\n" ..
    "the target shooting back (losses together). Give the range (cm; 12\" converted) to judge long\n" ..
    "range, or `long`. `cover`, `charger` (target charged into contact), `hill` (up a Gentle Hill),\n" ..
    "`sbw` (breath weapon: target tests, trigger i).\n" ..
    "  shoot bow.1 pike.1 25cm     shoot bow.1 war.2 12 cover     shoot drake.1 rom.1 2cm sbw",
  args = {
    { name = "firer", type = "element", help = "the shooting vignette (UNIT.N)" },
    { name = "target", type = "element", help = "the target vignette" },
    { name = "range", type = "distance", optional = true, help = "distance in cm" },
    { name = "long", type = "flag", help = "long range (when no range is given)" },
    { name = "cover", type = "flag", help = "target in cover" },
    { name = "charger", type = "flag", help = "target is a charger that moved into contact" },
    { name = "hill", type = "flag", help = "shooting up a Gentle Hill" },
    { name = "sbw", type = "flag", help = "the special breath weapon" },
    { name = "return", type = "flag", help = "the target shoots back at the firer" },
  },
  run = function(ctx, args)
    local f, t = args.firer, args.target
    local fname, tname = U.vname(f), U.vname(t)
    if f.unit == t.unit or U.unit_of(f).side == U.unit_of(t).side then umpire.fail("shoot: " .. U.vname(t) .. " is a friend") end
    local o = { range = args.range, long = args.long, cover = args.cover, charger = args.charger, hill = args.hill, sbw = args.sbw }
    local loss, rec = M.shot(ctx, f, t, o)
    local back, brec = 0, nil
    if args["return"] then back, brec = M.shot(ctx, t, f, { range = args.range, long = args.long }) end
    U.lose(t, loss, "shot by " .. fname .. " (18)")
    if back > 0 then U.lose(f, back, "shot back by " .. tname .. " (18)") end
    local units = { U.unit_of(t) }
    if brec then units[2] = U.unit_of(f) end
    local lines = I.after_losses(ctx, units)
    if args.sbw then
      lines[#lines + 1] = U.unit_of(t).id .. " tests: breath weapon attack (23.1 i)"
      local l, r = I.test(ctx, U.unit_of(t), { trigger = "i" })
      for _, x in ipairs(l) do lines[#lines + 1] = x end
      umpire.record("integrity", r)
    end
    umpire.record("shooting", { shot = rec, ["return"] = brec })
    table.insert(lines, 1, tname .. " loses " .. loss .. " IP" .. (brec and ("; " .. fname .. " loses " .. back) or ""))
    return table.concat(lines, "\n")
  end,
}

return M
