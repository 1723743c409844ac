-- TA3 shooting (§25) and gunnes (§35): who may shoot, one d6 per shooting figure, the score
-- to hit with its factors, then the bucket against the target's armour (bucket.lua).
local D = require "fld.data"
local U = require "fld.util"
local B = require "fld.bucket"
local Mo = require "fld.morale"
local C = require "fld_common.morale"

-- Applies a resolution's hit points to the target; returns figures lost and the notes. `opt`
-- (U.options) and `known` (what was read of the target before the loss: `marked`, U.marked)
-- when the caller has them.
local function land(ctx, target, hp, reason, opt, known)
  local notes = {}
  local lost, phase = U.take_hits(target, hp, reason, opt)
  if known then known.phase_loss = phase end
  Mo.after_loss(ctx, target, notes, opt, known)
  return lost, notes
end

umpire.command {
  name = "shoot",
  help = "TA3: a unit shoots at a target at a distance (25): `shoot arc kn 10\" cover`, `shoot sk kn 8 5` (an unformed unit: 5 figures in range)",
  args = {
    { name = "firer", type = "unit", help = "the unit shooting" },
    { name = "target", type = "unit", help = "the enemy unit shot at" },
    { name = "distance", type = "distance", help = "from the firer to the target, measured by the umpire (12, 12\", 30cm)" },
    { name = "figures", type = "int", optional = true,
      help = "an unformed firer: its figures within range (25.2); leave out for a formed unit" },
    { name = "cover", type = "flag", help = "the target is in cover (+2 to the score, 25.3)" },
    { name = "charging", type = "flag", help = "the target charged into contact with the firer (+2, 25.3)" },
  },
  run = function(ctx, args)
    local f, t = args.firer, args.target
    local dist = args.distance
    local w = { cover = args.cover, charging = args.charging, figures = args.figures }
    if w.figures and f.formed then
      umpire.fail("FIGURES " .. w.figures .. ": " .. f.name .. " is formed and shoots with its front rank and half " ..
        "the second (25.2); type figures in range only for an unformed unit, or drop `" .. w.figures .. "`")
    end
    if w.figures and w.figures < 1 then
      umpire.fail("FIGURES " .. w.figures .. ": type how many of " .. f.name .. "'s figures are in range, 1 or more (25.2)")
    end
    if f.side == t.side then umpire.fail(t.name .. " is a friend of " .. f.name .. ": shoot at an enemy (25.1)") end
    if f.missile == "none" or f.shooting <= 0 then
      umpire.fail(f.name .. " has no missile weapon: set `missile` and `shooting` (25.6)")
    end
    -- the firer's markers and the options, read once (each u:has and umpire.option is a call
    -- into umpire)
    local fm, opt = U.marked(f), U.options()
    if fm.march then umpire.fail(f.name .. " is in march formation and cannot fight (28.i)") end
    if fm.broken then umpire.fail(f.name .. " is broken and flees (31.3)") end
    -- weapon strength, to-hit and range (§25.6, §35 later small arms)
    local strength, to_hit, range, wname
    local late = D.late_arms[f.missile]
    if late then
      wname = late.name
      for _, band in ipairs(late) do
        if dist <= band[1] then strength, range = band[2], band[1]; break end
      end
      range = range or late[#late][1]
      to_hit = 0
    else
      local m = D.missiles[f.missile]
      strength, to_hit, range, wname = m[1], m[2], m[3], m[4]
    end
    if not strength or dist > range then
      umpire.fail(string.format("%s is %s away, beyond the %s's range of %d\" (25.6)", t.name, U.fmt_in(dist), wname, range))
    end
    local in_melee = fm.in_melee == true
    if in_melee and not (f.missile == "sb" or f.missile == "j" or f.missile == "d") then
      umpire.fail(f.name .. " is in melee: only short bows, javelins or darts shoot from ranks 2-3 at melee opponents (25.1)")
    end
    -- the score to hit
    local req = ctx:check("Score to hit 25.3: " .. f.name .. " (" .. wname .. ") at " .. t.name .. ", " .. U.fmt_in(dist))
    req:add(7 - f.shooting, "shooting factor " .. f.shooting, "25.3")
    if to_hit ~= 0 then
      if opt.weapon_to_hit == "as_factor" then
        req:add(to_hit, wname .. " 'To Hit' " .. string.format("%+d", to_hit) .. " as a factor (option weapon_to_hit)", "25.6; FLD-D08")
      else
        req:add(-to_hit, wname .. " 'To Hit' " .. string.format("%+d", to_hit) .. " for the shooter", "25.6; FLD-D08")
      end
    end
    if w.charging then req:add(2, "target charged into contact", "25.3") end
    if w.cover then req:add(2, "target in cover", "25.3") end
    if not t.formed then req:add(1, "target unformed", "25.3") end
    if t.type == "behemoth" or (t.order == "close" and t.weapon == "p") then
      req:add(-1, t.type == "behemoth" and "target a Behemoth" or "target Close order with pike", "25.3")
    end
    if U.is_mounted(t) then req:add(-2, "target Mounted", "25.3") end
    local lost = U.lost_fraction(f)
    for _, b in ipairs(C.brackets(lost, { { 0.25, 1, "shooter has lost 25% or more of its integrity" },
        { 0.5, 2, "shooter has lost 50% or more of its integrity" } }, opt.loss_brackets == "cumulative", false)) do
      req:add(b[2], b[3], "25.3; FLD-D09")
    end
    req:point("fld.shooting.modifiers", { firer = f, target = t, distance = dist, weapon = f.missile })
    local need = req:total()
    -- the dice (§25.2)
    local pools = {}
    local rk = U.ranks(f)      -- read once: every way of counting the dice below uses them
    if in_melee then
      local n2, n3 = U.rank(f, 2, rk), U.rank(f, 3, rk)
      local n = opt.halves == "sum_then_floor" and (n2 + n3) // 2 or (n2 // 2 + n3 // 2)
      pools[1] = { n = n, need = need + 2, label = "half of ranks 2-3 (" .. n2 .. " + " .. n3 .. "), +2", rule = "25.2; FLD-D16" }
      req:result("needs " .. need .. "+, " .. (need + 2) .. "+ from ranks 2-3")
    elseif not f.formed then
      local have = U.figures(f, rk)
      local n = w.figures or have
      if n > have then umpire.fail(f.name .. " has only " .. have .. " figures; " .. n .. " figures in range is too many (25.2)") end
      pools[1] = { n = n, need = need, label = n .. " unformed figures in range", rule = "25.2" }
      req:result("needs " .. need .. "+")
    else
      local n1, n2 = U.rank(f, 1, rk), U.rank(f, 2, rk)
      pools[1] = { n = n1, need = need, label = "front rank, " .. n1 .. " figures", rule = "25.2" }
      pools[2] = { n = n2 // 2, need = need + 2, label = "half the second rank (" .. n2 .. "), +2", rule = "25.2-25.3; FLD-D30" }
      req:result("needs " .. need .. "+, " .. (need + 2) .. "+ from the second rank")
    end
    -- what the loss does not change of the target, read before it (a change makes the
    -- handle read again)
    local known = { marked = U.marked(t), name = t.name, integrity_start = t.integrity_start }
    local armours = B.armours(t, "shooting", opt.shooting_penetration == "two_rolls", opt, known.marked)
    local r = B.resolve(ctx, { title = "Shooting 25.4", pools = pools, strength = strength, armours = armours, opt = opt })
    local figs, notes = land(ctx, t, r.hp, "shot by " .. f.name .. " (25.4)", opt, known)
    r.figures_lost, r.integrity, r.need, r.strength = figs, t.integrity, need, strength
    r.firer, r.target, r.distance = f.id, t.id, dist
    umpire.record("shoot", r)
    notes[#notes + 1] = string.format("%s: %d hit points on %s, %d figure(s) lost, integrity %s of %s",
      f.name, r.hp, known.name, figs, U.fmt(r.integrity), U.fmt(known.integrity_start))
    return table.concat(notes, "\n")
  end,
}

-- §35 gunnes: the umpire lays the line of fire and counts the figures of the target unit within
-- 1" of it; each takes one penetration die at the band's strength (FLD-D31).
umpire.command {
  name = "cannon",
  help = "a gunne fires along a line (35): `cannon gun1 pk 14\" 5` (5 figures of pk within 1\" of the line)",
  args = {
    { name = "gun", type = "unit", help = "the gunne firing" },
    { name = "target", type = "unit", help = "the enemy unit the line of fire crosses" },
    { name = "distance", type = "distance", help = "the range from the gun to the target (12, 12\", 30cm)" },
    { name = "figures", type = "int", help = "the target's figures within 1\" of the line of fire, counted by the umpire (35)" },
  },
  run = function(ctx, args)
    local g, t = args.gun, args.target
    local dist = args.distance
    if g.gun == "none" then umpire.fail(g.name .. " is not a gunne: set its `gun` weight (light, medium, heavy, siege) and `period` (35)") end
    local n = args.figures
    if n < 1 then umpire.fail("figures " .. n .. ": type how many figures of " .. t.name .. " are within 1\" of the line of fire, 1 or more (35)") end
    local bands = D.gunnes[g.period][g.gun]
    local band
    for i, lim in ipairs(bands) do if dist <= lim then band = i; break end end
    if not band then
      umpire.fail(string.format("%s is %s away: beyond the %s %s gunne's long range %d\" (35)", t.name, U.fmt_in(dist), g.period, g.gun, bands[3]))
    end
    local strength = D.gunnes[g.period].strength[band]
    local bname = ({ "short", "medium", "long" })[band]
    local c = ctx:check("Gunne 35: " .. g.name .. " (" .. g.period .. " " .. g.gun .. ") at " .. t.name .. ", " .. U.fmt_in(dist))
    c:add(strength, bname .. " range (up to " .. bands[band] .. "\"): strength", "35")
    c:result(n .. " figure(s) within 1\" of the line: one penetration die each (FLD-D31)")
    local opt = U.options()
    local known = { marked = U.marked(t), name = t.name, integrity_start = t.integrity_start }
    local r = B.resolve(ctx, { title = "Gunne 35", penetration_dice = math.min(n, U.figures(t)), strength = strength,
      armours = B.armours(t, "shooting", true, opt, known.marked), opt = opt })
    local figs, notes = land(ctx, t, r.hp, "hit by " .. g.name .. " (35)", opt, known)
    r.band, r.strength, r.figures_lost, r.integrity = bname, strength, figs, t.integrity
    umpire.record("cannon", r)
    notes[#notes + 1] = string.format("%s: %d hit points on %s, %d figure(s) lost", g.name, r.hp, known.name, figs)
    return table.concat(notes, "\n")
  end,
}

umpire.command {
  name = "battery",
  help = "a gunne unlimbers as a battery: from now on it only pivots up to 45 degrees (35)",
  args = { { name = "gun", type = "unit" } },
  run = function(ctx, args)
    if args.gun.gun == "none" then umpire.fail(args.gun.name .. " is not a gunne (35)") end
    args.gun:mark("battery", "unlimbered as a battery (35)")
    return args.gun.name .. " is set up: it moved at 6\" until now, and may only pivot up to 45 degrees (35)"
  end,
}
