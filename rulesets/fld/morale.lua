-- Morale tests (§31) with the shared triggers and modifiers of fld_common.morale, disorder and
-- rally (§32), interpenetration (§33), and the checks every loss of integrity leads to.
local C = require "fld_common.morale"
local U = require "fld.util"
local M = {}

-- Mounted for flight, pursuit and recoil: Mounted, chariots, and quadruped Behemoths.
function M.rides(u)
  return U.is_mounted(u) or (u.type == "behemoth" and u.legs == "quadruped")
end

-- §34 demoralisation of a command (Major Tactical Unit), as fld_common/victory.lua computes it
-- for `victory` (the one count: at least half its units Fragmented or Broken, sticky).
local V = require "fld_common.victory"
local function cfg() return require("fld.command").cfg end
function M.command_demoralised(cmd)
  return (V.demoralised(cfg(), umpire.group(cmd)))
end
function M.side_demoralised(side)
  return V.side_demoralised(cfg(), side)
end

-- A morale test (§31.2, §11). opts: trigger letter, charged_in_open, outmassed, unsupported,
-- apply (false: only score it, for the fanatic charge). Returns band, score, check.
function M.test(ctx, u, opts)
  opts = opts or {}
  local mtus = M.side_demoralised(u.side)
  local own = false
  for _, c in ipairs(mtus) do if c == u.command then own = true end end
  local mods = C.modifiers {
    charged_in_open = opts.charged_in_open, outmassed = opts.outmassed,
    lost = U.lost_fraction(u), cumulative = umpire.option("loss_brackets") == "cumulative",
    unsupported = opts.unsupported,
    disordered_or_fragmented = u:has("disordered") or u:has("fragmented"),
    own_mtu_demoralised = own, demoralised_mtus = #mtus, linked = u.linked,
    sub_commander = u.commander == "sub", cinc = u.commander == "cinc",
    cinc_value = umpire.option("cinc_with_unit") == "plus2" and 2 or -2,
  }
  local why = opts.trigger and (" (trigger " .. opts.trigger .. ": " .. (C.trigger_text[opts.trigger] or "") .. ")") or ""
  local c = ctx:check("Morale 31: " .. u.name .. ", morale " .. u.morale .. why)
  local die = c:roll("1d6", "d6", "31.2", u)
  local modifiers = {}
  for _, m in ipairs(mods) do
    c:add(m[1], m[2], m[3])
    modifiers[#modifiers + 1] = { value = m[1], why = m[2] }
  end
  c:point("fld.morale.modifiers", { unit = u, trigger = opts.trigger })
  local score = c:total()
  local band = C.band(u.morale, score)
  local label = string.format("%s (pass %d+, break below %d; 11)", band, 7 - u.morale, 2 - u.morale)
  if opts.need then label = label .. string.format("; needs %d to pass by two: %s", opts.need, score >= opts.need and "passed by two" or "not passed by two") end
  c:result(label)
  local rec = { unit = u.id, trigger = opts.trigger, die = die, modifiers = modifiers, score = score, band = band,
    morale = u.morale, pass_at = 7 - u.morale, break_below = 2 - u.morale }
  if opts.apply ~= false then M.apply(ctx, u, band, rec) end
  umpire.record("morale", rec)
  return band, score, c
end

-- §31.3 the result of a test on the unit.
function M.apply(ctx, u, band, rec)
  if band == "fragment" and not u:has("fragmented") then
    u:mark("fragmented", "morale test: Fragment (31.3)")
  elseif band == "break" then
    if not u:has("broken") then u:mark("broken", "morale test: Break (31.3)") end
    local mv = U.move(u)
    local f = ctx:check("Flight 31.3: " .. u.name)
    f:add(mv / 2, "half its move " .. U.fmt_in(mv), "31.3")
    f:roll(M.rides(u) and "2d6" or "1d6", M.rides(u) and "Mounted" or "Foot", "31.3")
    f:result("flees " .. U.fmt_in(f:total()) .. " straight back; figures fanned out")
    if rec then rec.flee = f:total() end
    print("Broken: friendly units within 12\" of " .. u.name .. " test morale (31.1 f: `morale UNIT f`); " ..
      "irregular opponents must pursue, regular may (`pursue UNIT`)")
  end
  -- §34: marking the unit has already demoralised its MTU if it should (fld_common/victory.lua
  -- prints it); what it means for the morale rules is trigger g.
  if (band == "fragment" or band == "break") and M.command_demoralised(u.command) then
    print("every unit of side " .. u.side .. " tests morale now (31.1 g: `due side:" .. u.side .. "`)")
  end
end

-- After a unit lost integrity (shooting, melee, gunnes): disorder for a big loss in one phase
-- and the morale test it triggers (§25.5, §26.5, §31.1 a). Returns notes for the output.
-- `opt` (U.options) and `known` (what the caller read of the unit and does not change with a
-- loss: `integrity_start`, `name`, `marked` (its markers, U.marked), and `integrity` and
-- `phase_loss` (U.take_hits) after the loss) when it has them.
function M.after_loss(ctx, u, notes, opt, known)
  known, opt = known or {}, opt or U.options()
  local start = known.integrity_start or u.integrity_start
  if start <= 0 then return end
  local pl = known.phase_loss or U.phase_loss(u, opt)
  if not U.has(u, "disordered", known.marked) and C.disorders(pl, start, opt.disorder_loss == "at_least_25") then
    u:mark("disordered", string.format("lost %s of %s integrity this phase (31.1 a, 32)", U.fmt(pl), U.fmt(start)))
  end
  local lost = U.lost_fraction(u, start, known.integrity)
  local due = C.triggers { lost = lost }
  for i = 1, #due do
    local t = due[i]
    notes[#notes + 1] = string.format("%s has lost %.0f%% of its integrity: morale test due (31.1 %s): `morale %s %s`",
      known.name or u.name, 100 * lost, t[1], u.id, t[1])
  end
end

-- The triggers of §31.1 that umpire can see for itself: a (loss over 25%) and g (a command of
-- its side demoralised). The others come from charges (b, c, h), wishes (d, e) and the table (f).
function M.standing_triggers(u)
  local list = C.triggers { lost = U.lost_fraction(u), mtu_demoralised_now = #M.side_demoralised(u.side) > 0 }
  return list
end

umpire.command {
  name = "due",
  help = "which units must test morale now for the triggers umpire can see (31.1 a, g): `due side:dark`; a test is due again every phase while the trigger holds",
  args = { { name = "units", type = "selector", optional = true, help = "default: every unit" } },
  run = function(ctx, args)
    local lines, rec = {}, {}
    for _, u in ipairs(args.units or umpire.units("all")) do
      if u.type ~= "commander" and not u:has("broken") and u.integrity_start > 0 then
        local t = M.standing_triggers(u)
        if #t > 0 then
          local ks = {}
          for _, x in ipairs(t) do ks[#ks + 1] = x[1] .. " (" .. x[2] .. ")" end
          lines[#lines + 1] = u.name .. ": " .. table.concat(ks, "; ") .. " — `morale " .. u.id .. " " .. t[1][1] .. "`"
          rec[u.id] = (function() local r = {} for _, x in ipairs(t) do r[#r + 1] = x[1] end return r end)()
        end
      end
    end
    for id, p in pairs(store.pending or {}) do
      local u = umpire.units(id)[1]
      if u and not u:has("broken") then
        lines[#lines + 1] = string.format("%s must go on %s %s until contact (23.5, 24.4): `%s %s %s DIST`", u.name,
          p.fanatic and "fanatic charging" or "charging", p.target, p.fanatic and "fanatic" or "charge", id, p.target)
      end
    end
    umpire.record("due", rec)
    if #lines == 0 then return "no morale test due for the triggers umpire can see (31.1 a, g)" end
    return table.concat(lines, "\n")
  end,
}

umpire.command {
  name = "reform",
  help = "changes a unit between formed and unformed after a morale test (4, 28.iv, 31.1 e): `reform bows unformed`",
  args = { { name = "unit", type = "unit" }, { name = "to", type = "choice", values = { "formed", "unformed" } },
           { name = "unsupported", type = "flag", help = "the unit is unsupported (-1)" } },
  run = function(ctx, args)
    local u = args.unit
    local want = args.to == "formed"
    if u.formed == want then umpire.fail(u.name .. " is already " .. args.to) end
    if not want then
      local always = u.order == "close" or ((u.type == "leviathan" or u.type == "behemoth") and u.order == "loose") or
        (u.type == "chariot" and u.order == "loose" and (u.animals == 2 or u.animals == 4))
      if always then umpire.fail(u.name .. " is always formed (4): " .. u.order .. " order " .. u.type .. " may not become unformed") end
    end
    local band = M.test(ctx, u, { trigger = "e", unsupported = args.unsupported })
    if band == "break" then return u.name .. " breaks instead of changing formation" end
    u:set("formed", want, "changes formation (28.iv)")
    return u.name .. " is now " .. args.to
  end,
}

umpire.command {
  name = "morale",
  help = "a morale test (31): d6 + modifiers on the morale table (11); the trigger letter a-h names why",
  args = {
    { name = "unit", type = "unit" },
    { name = "trigger", type = "choice", values = { "a", "b", "c", "d", "e", "f", "g", "h" }, optional = true,
      help = "31.1: a loss>25%, b Behemoth charge, c Mounted charge on Loose/Open Foot, d fanatic, e formation, f friend broke, g MTU demoralised, h flank/rear" },
    { name = "charged", type = "flag", help = "Loose/Open Foot charged by Behemoth or Mounted on good ground (-1)" },
    { name = "outmassed", type = "flag", help = "melee opponents have a Mass advantage (-1)" },
    { name = "unsupported", type = "flag", help = "no support as 31.2 defines it (-1)" },
  },
  run = function(ctx, args)
    local u = args.unit
    if u:has("broken") then umpire.fail(u.name .. " is already broken: it tests no more (31.3)") end
    local band = M.test(ctx, u, { trigger = args.trigger, charged = args.charged,
      charged_in_open = args.charged, outmassed = args.outmassed, unsupported = args.unsupported })
    return u.name .. ": " .. band
  end,
}

umpire.command {
  name = "disorder",
  help = "disorders a unit, e.g. formed troops entering a wood or steep hill (32): `disorder pk wood`",
  args = { { name = "unit", type = "unit" }, { name = "why", type = "text", optional = true } },
  run = function(ctx, args)
    local u = args.unit
    if u:has("disordered") then umpire.fail(u.name .. " is already disordered; `rally " .. u.id .. "` to recover") end
    u:mark("disordered", (args.why or "the umpire") .. " (32)")
    return u.name .. " is disordered: additive armour -" .. (u.order == "close" and 2 or 1) ..
      ", melee to-hit +" .. ((u.order == "close" or U.is_mounted(u)) and 2 or 1) .. ", morale -1 (32)"
  end,
}

umpire.command {
  name = "rally",
  help = "starts a disordered unit's rally: 1d6-2 phases in good terrain with no enemy within 12\" (32); `rally ID stop` ends it",
  args = { { name = "unit", type = "unit" }, { name = "stop", type = "flag", help = "the rally is broken off" } },
  run = function(ctx, args)
    local u = args.unit
    if args.stop then
      u:set("rally_left", -1, "rally broken off: an enemy within 12\" or bad terrain (32)")
      return u.name .. " stops rallying"
    end
    if not u:has("disordered") then umpire.fail(u.name .. " is not disordered: nothing to rally (32)") end
    local c = ctx:check("Rally 32: " .. u.name)
    c:roll("1d6", "d6", "32", u)
    c:add(-2, "less 2", "32")
    local n = c:total()
    if n <= 0 and umpire.option("rally_zero") == "min_one" then
      c:add(1 - n, "at least one phase (option rally_zero)", "32; FLD-D22")
      n = 1
    end
    c:result(n <= 0 and "good order at the end of this phase" or (n .. " phase(s)"))
    u:set("rally_left", math.max(0, n), "rallying (32)")
    umpire.record("rally", { unit = u.id, phases = n })
    return u.name .. " rallies: keep it in good terrain with no enemy within 12\""
  end,
}

-- §32: each phase that ends counts down a rally; at 0 the unit is in good order.
umpire.on("step_ends", function()
  for _, u in ipairs(umpire.units("rally_left>=0")) do
    if u.rally_left <= 1 then
      u:set("rally_left", -1, "rally complete (32)")
      if u:has("disordered") then u:unmark("disordered", "rallied: back in good order (32)") end
    else
      u:add("rally_left", -1, "a phase of rally (32)")
    end
  end
end)

umpire.command {
  name = "interpenetrate",
  help = "may a unit pass through a friend? only unformed troops may (33): `interpenetrate skirm pk`",
  args = { { name = "mover", type = "unit" }, { name = "through", type = "unit" } },
  run = function(ctx, args)
    local a, b = args.mover, args.through
    if a.side ~= b.side then umpire.fail(b.name .. " is an enemy: nobody passes through enemies (33)") end
    if a.formed then
      umpire.fail(a.name .. " is formed: only unformed troops pass through friends (33); change formation first")
    end
    umpire.record("interpenetrate", true)
    return a.name .. " (unformed) may pass through " .. b.name .. " (33)"
  end,
}

return M
