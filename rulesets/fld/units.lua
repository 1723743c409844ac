-- The troop data record (§1-10) and points (§36): `muster` turns what the umpire typed into
-- ranks and Integrity Points, `stats` shows every derived value with the step that gave it,
-- `points` prices units and commander figures.
local D = require "fld.data"
local U = require "fld.util"

local M = {}

-- §36 points per figure, as factors of a check (FLD-D32: per figure, level 0 costs 0,
-- natural and additive armour each costed; additive at its melee-column value).
function M.points_check(ctx, u)
  local c = ctx:check("Points 36: " .. u.name)
  if u.type == "commander" then
    c:add(100 * u.rating, "Commander Rating " .. u.rating .. " x 100", "36")
    c:result(U.fmt(c:total()) .. " pts")
    return c, c:total(), c:total()
  end
  local lname = U.legs(u)
  local legs = D.move[lname]
  c:add(u.base_move * legs.points, "base move " .. U.fmt(u.base_move) .. "\" x " .. legs.points .. " (" .. lname ..
    (lname ~= u.legs and ", as Mounted: 2.3" or "") .. ")", "36")
  local mass = U.mass(u)
  local col = umpire.option("armour_points") == "shooting" and 2 or 1   -- FLD-D32: which column is priced
  local addv = math.min(6, D.armour[u.armour][col] + D.barding[u.barding][col])
  for _, f in ipairs({ { "melee factor", u.melee }, { "shooting factor", u.shooting }, { "Mass", mass },
      { "strength", u.strength }, { "natural armour", u.natural },
      { "additive armour" .. (col == 2 and " (shooting column)" or ""), addv },
      { "morale", u.morale } }) do
    c:add(D.level_points[f[2]], f[1] .. " " .. f[2], "36")
  end
  local per = c:total()
  local n = u.figures > 0 and u.figures or U.figures(u)
  c:result(U.fmt(per) .. " pts a figure x " .. n .. " = " .. U.fmt(per * n) .. " pts")
  return c, per, per * n
end

-- What an army file or `add unit` left out: ranks as elements, starting integrity.
local function problems(u)
  local p = {}
  local n, files = u.figures, u.files
  local ranks = files > 0 and math.ceil(n / files) or 1
  if u.type == "commander" or u.type == "artillery" then return p, ranks end
  local irr = U.irregular(u)
  local min
  if u.type == "behemoth" then min = 3
  elseif u.type == "chariot" then min = irr and 6 or 4
  elseif U.is_mounted(u) then min = irr and 10 or 4
  else min = irr and 16 or 8 end
  if n < min then
    p[#p + 1] = string.format("%d figures: %s %s units need at least %d (2.1)", n,
      irr and "irregular" or "regular", u.type, min)
  end
  local lo, hi
  if u.order == "close" and U.is_foot(u) then
    if u.weapon == "p" then lo, hi = 4, 4 else lo, hi = 2, 4 end
  else lo, hi = 1, 2 end
  if ranks < lo or ranks > hi then
    p[#p + 1] = string.format("%d ranks: %s order %s%s must be %d to %d deep (2.2); change files", ranks,
      u.order, u.type, u.weapon == "p" and " with pike" or "", lo, hi)
  end
  if u.weapon == "p" and u.weapon2 ~= "none" then p[#p + 1] = "pikes cannot be combined with another weapon (1)" end
  local w = D.weapons[u.weapon]
  if u.strength < w[5] then
    p[#p + 1] = string.format("%s need strength %d, the unit has %d (26.2)", w[1], w[5], u.strength)
  end
  if (u.weapon == "p" or u.weapon == "s") and not (u.order == "close" and U.is_foot(u)) then
    p[#p + 1] = w[1] .. " are for Close order Foot only (26.2)"
  end
  local legs = D.move[U.legs(u)]
  if u.base_move < legs.min or u.base_move > legs.max then
    p[#p + 1] = string.format("base move %s\" is outside the %s range %d\"-%d\" (6)", U.fmt(u.base_move),
      U.legs(u), legs.min, legs.max)
  end
  return p, ranks
end

umpire.command {
  name = "muster",
  help = "computes each unit's data record from what was typed: ranks of figures, Mass, Integrity Points, points (1, 8, 36)",
  args = { { name = "units", type = "selector", optional = true, help = "the units (default: every unit not yet mustered)" } },
  run = function(ctx, args)
    local list = args.units or umpire.units("unmarked:mustered")
    local lines, total = {}, 0
    for _, u in ipairs(list) do
      if u.figures <= 0 and #u:elements() > 0 then
        local n = 0
        for _, e in ipairs(u:elements()) do n = n + e.figures end
        u:set("figures", n, "figures counted from its ranks (1)")
        if u.files == 0 then u:set("files", u:elements()[1].figures, "front rank counted (1)") end
      end
      if u.figures <= 0 then
        umpire.fail(u.id .. " has no figures: set them first (`set " .. u.id .. " figures 24`, and `files 12` for 12 a rank)")
      end
      local p, ranks = problems(u)
      if #u:elements() == 0 then
        local files = u.files > 0 and u.files or u.figures
        local left = u.figures
        for i = 1, ranks do
          local f = math.min(files, left)
          u:add_element { id = u.id .. "_r" .. i, name = "rank " .. i, attrs = { figures = f },
            reason = "rank " .. i .. " of " .. ranks .. ": " .. f .. " figures (1)" }
          left = left - f
        end
      end
      local buiv, txt = U.buiv(u)
      local mass, how = U.mass(u)
      local c = ctx:check("Integrity 8.2: " .. u.name)
      c:add(buiv * u.figures, "BUIV " .. txt .. " (" .. u.order .. " order, " .. how .. ") x " .. u.figures .. " figures", "8.2")
      c:result(U.fmt(c:total()) .. " Integrity Points")
      u:set("integrity_start", c:total(), "starting integrity (8.2)")
      u:set("integrity", c:total(), "starting integrity (8.2)")
      local _, _, pts = M.points_check(ctx, u)
      u:set("points", pts, "points value (36)")
      u:mark("mustered", "data record computed (1)")
      total = total + pts
      for _, q in ipairs(p) do lines[#lines + 1] = "note: " .. u.id .. ": " .. q end
      umpire.record("muster." .. u.id, { mass = mass, buiv = buiv, integrity = c:total(), ranks = ranks, points = pts, problems = p })
    end
    lines[#lines + 1] = #list .. " unit(s) mustered, " .. U.fmt(total) .. " pts"
    return table.concat(lines, "\n")
  end,
}

-- Half of the dice of ranks (their figures ... x `a` attacks), by the option halves (26.2).
local function half(a, opt, ...)
  local t, s = 0, 0
  for _, x in ipairs({ ... }) do t = t + x * a; s = s + (x * a) // 2 end
  return U.option(opt, "halves") == "sum_then_floor" and t // 2 or s
end

-- The melee dice of a unit by its weapon (§26.2), with the rule for each term. Used by melee,
-- which passes the ranks (U.ranks) it has read already as `rk`, and its options (U.options)
-- as `opt`.
function M.melee_dice(u, opp, first, weapon, part, rk, opt)
  weapon = weapon or u.weapon
  local a = u.attacks
  rk = rk or U.ranks(u)
  -- the figures of rank i that fight, each rank read only when the weapon uses it
  local function nr(i)
    local r = rk[i]
    local n = r and U.count(r) or 0
    if part and part < n then n = part end     -- 26.2: only the files of the figures in contact
    return n
  end
  local n1 = nr(1)
  if not u.formed then
    return n1 * a, string.format("unformed: %d figures in contact x %d attacks, no rear ranks (26.2)", n1, a)
  end

  if weapon == "p" then
    local n2, n3 = nr(2), nr(3)
    if opp and U.is_foot(opp) then
      local h = half(a, opt, n2, n3)
      return n1 * a + h, string.format("pike v Foot: %d x %d + half of (%d + %d) x %d = %d + %d (26.2)", n1, a, n2, n3, a, n1 * a, h)
    end
    local n4 = nr(4)
    return (n1 + n2 + n3 + n4) * a, string.format("pike: (%d + %d + %d + %d) x %d (26.2)", n1, n2, n3, n4, a)
  elseif weapon == "s" then
    local n2 = nr(2)
    local n = (n1 + n2) * a
    if opp and U.is_mounted(opp) then
      local b = U.option(opt, "spear_bonus") == "both_ranks" and n // 2 or (n1 * a) // 2
      return n + b, string.format("spear: (%d + %d) x %d = %d, + %d v Mounted (26.2, FLD-D17)", n1, n2, a, n, b)
    end
    return n, string.format("spear: (%d + %d) x %d (26.2)", n1, n2, a)
  elseif weapon == "htw" then
    local n2 = nr(2)
    if first then return 2 * (n1 + n2) * a, string.format("HTW at first contact: 2 x (%d + %d) x %d (26.2)", n1, n2, a) end
    local h = half(a, opt, n2)
    return n1 * a + h, string.format("HTW after first contact: %d x %d + half of %d x %d (26.2)", n1, a, n2, a)
  elseif weapon == "l" then
    if first then return 2 * n1 * a, string.format("lance at first contact: 2 x %d x %d (26.2)", n1, a) end
    return n1 * a, string.format("lance: %d x %d (26.2)", n1, a)
  end
  return n1 * a, string.format("%s: front rank %d x %d attacks (26.2)", D.weapons[weapon][1], n1, a)
end

umpire.command {
  name = "stats",
  help = "a unit's data record with every step: Mass, integrity, move, armour, ranks, dice, points (1-10, 36)",
  args = { { name = "unit", type = "unit" } },
  run = function(ctx, args)
    local u = args.unit
    local mass, how = U.mass(u)
    local c = ctx:check("Mass 8.1: " .. u.name)
    c:add(mass, how, "8.1")
    local buiv, txt = U.buiv(u)
    local i = ctx:check("Integrity 8.2: " .. u.name)
    i:add(buiv * u.figures, "BUIV " .. txt .. " (" .. u.order .. ", Mass " .. mass .. ") x " .. u.figures .. " figures at the start", "8.2")
    i:result("start " .. U.fmt(u.integrity_start) .. ", now " .. U.fmt(u.integrity) ..
      string.format(" (%.0f%% lost)", 100 * U.lost_fraction(u)))
    local mv, bonus = U.move(u)
    local m = ctx:check("Move 6: " .. u.name)
    m:add(u.base_move, "base move (" .. U.legs(u) .. (U.legs(u) ~= u.legs and ", as Mounted: 2.3" or "") .. ", Close order)", "6")
    if bonus > 0 then m:add(bonus, u.order .. " order bonus", "6") end
    m:result(U.fmt_in(mv) .. "; march " .. U.fmt_in(2 * mv) .. " (28.i)")
    local arm = ctx:check("Armour 10: " .. u.name)
    local am, sm = U.additive(u, "melee")
    local as, ss = U.additive(u, "shooting")
    local nat, nwhy = U.natural(u)
    arm:add(nat, "natural" .. (nwhy ~= "" and (": " .. nwhy) or ""), "10")
    arm:result(string.format("%d/%d in melee (%s); %d/%d against shooting (%s)", nat, am, sm, nat, as, ss))
    local ranks = {}
    for k, r in ipairs(U.ranks(u)) do ranks[#ranks + 1] = "rank " .. k .. ": " .. U.count(r) end
    local kind = (U.irregular(u) and "Irregular" or "Regular") .. " " .. u.order .. " order " .. u.type ..
      ((U.is_foot(u) or u.type == "chariot") and "" or "") .. (u.formed and ", formed" or ", unformed")
    local heavy = (u.order == "close" or u.type == "leviathan" or u.type == "behemoth" or
      (u.type == "chariot" and (u.crew > 3 or u.animals > 2))) and "Heavy" or "Light"
    local dice, why = M.melee_dice(u, nil, false)
    local basing = D.basing[u.order][u.type] or "-"
    if (u.type == "foot" or u.type == "mounted") and mass >= 4 then
      basing = D.wide_frontage[u.order] .. basing:match("/%d+") .. " (wider: Mass 4+)"
    end
    local lines = {
      kind .. "; " .. heavy .. " (2.4); basing " .. basing .. " mm a figure (3)",
      "figures " .. U.figures(u) .. " of " .. u.figures .. " (" .. table.concat(ranks, ", ") .. ")",
      "melee " .. u.melee .. " with " .. D.weapons[u.weapon][1] .. (u.weapon2 ~= "none" and
        (" (and " .. D.weapons[u.weapon2][1] .. " at " .. (u.melee - 1) .. ")") or "") ..
        ", " .. u.attacks .. " attack(s): " .. dice .. " dice (" .. why .. ")",
      "strength " .. u.strength .. (D.weapons[u.weapon][4] > 0 and (" +" .. D.weapons[u.weapon][4] .. " with the weapon") or "") ..
        "; morale " .. u.morale .. ": pass on " .. (7 - u.morale) .. "+, break below " .. (2 - u.morale) .. " (11)",
    }
    if u.missile ~= "none" then
      local w = D.missiles[u.missile]
      if w then
        lines[#lines + 1] = string.format("shooting %d with %s: strength %d, range %d\", needs %d+ before factors (25.3, 25.6)",
          u.shooting, w[4], w[1], w[3], 7 - u.shooting)
      else
        lines[#lines + 1] = "shooting " .. u.shooting .. " with " .. D.late_arms[u.missile].name .. " (35)"
      end
    end
    if not u:has("mustered") then lines[#lines + 1] = "not mustered yet: `muster " .. u.id .. "` makes its ranks and integrity" end
    local markers = u:markers()
    if #markers > 0 then lines[#lines + 1] = "markers: " .. table.concat(markers, ", ") end
    M.points_check(ctx, u)
    umpire.record("stats", { mass = mass, buiv = buiv, integrity = u.integrity, integrity_start = u.integrity_start,
      move = mv, natural = nat, additive_melee = am, additive_shooting = as, melee_dice = dice, figures = U.figures(u) })
    return table.concat(lines, "\n")
  end,
}

umpire.command {
  name = "points",
  help = "the points value of units and commander figures (36): `points side:light`",
  args = { { name = "units", type = "selector" } },
  run = function(ctx, args)
    local total = 0
    for _, u in ipairs(args.units) do
      local _, _, t = M.points_check(ctx, u)
      total = total + t
    end
    umpire.record("points", total)
    return U.fmt(total) .. " pts in all"
  end,
}

return M
