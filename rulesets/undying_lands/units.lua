-- Vignettes and Tactical Units (1-3, 5, 27, 28): the classes, the IP of each vignette built
-- step by step in the rulebook's order, the move, and what a roster shows.
local data = require "undying_lands.data"
local ph = require "undying_lands.placeholders"
local U = require "undying_lands.util"

local M = {}

-- Checks a TU's classes against 2.1-2.7; returns a list of problems (each with its section).
function M.problems(u, n)
  local p = {}
  local t, o, w, mis = u.type, u.order, u.weapon, u.missile
  local function bad(text) p[#p + 1] = text end
  if t == "behemoth" and u.discipline ~= "irregular" then bad("a Behemoth is always Irregular: set discipline=irregular (2.1)") end
  if w == "lance" and t ~= "mounted" then bad("a Lance is for Mounted only (2.4)") end
  if (w == "2hpw" or w == "m2hw") and (not (t == "foot" or t == "leviathan") or o == "close") then
    bad(w:upper() .. " is for Foot and Leviathan in Loose or Open order (2.4)") end
  if w == "2hw" and not (t == "foot" or t == "leviathan") then bad("2HW is for Foot and Leviathan (2.4)") end
  if w == "hfs" and t ~= "foot" then bad("HFS is for Foot only (2.4)") end
  if w == "pike" and not (t == "foot" and o == "close") then bad("a Pike is for Close order Foot only (2.4)") end
  if w == "spear" and not (t == "foot" and o ~= "open") then bad("a Spear is for Close or Loose order Foot (2.4)") end
  if mis == "ssw" and not (t == "foot" or t == "mounted") then bad("SSW is for Foot and javelin-armed Mounted (2.4)") end
  if mis == "srw" and not (t == "foot" or (t == "mounted" and o ~= "close")) then bad("SRW is for Foot and Loose or Open order Mounted (2.4)") end
  if mis == "lrw" and not (t == "foot" or t == "mounted") then bad("LRW is for Foot (the elf bow also Mounted) (2.4)") end
  if u.shield ~= "none" and (t == "leviathan" or t == "behemoth") then bad("Leviathans and Behemoths may not have shields (2.7)") end
  if u.shield ~= "none" and (w == "2hpw" or w == "2hw" or w == "m2hw" or mis == "lrw") then
    bad("no shields with 2HPW, 2HW, M2HW or LRW (2.7)") end
  if u.shield == "lsh" and (t ~= "foot" or o == "open" or w == "pike" or mis ~= "none" or u.sbw) then
    bad("large shields are for Close or Loose order Foot without Pike or any missile class, a breath weapon included (2.7)") end
  if u.mount_armour ~= "none" and t ~= "mounted" then bad("animal armour is for Mounted only (2.7)") end
  if u.mount_armour ~= "none" and u.fast then bad("Fast Mounted may not have animal armour (5)") end
  if u.fast and o == "close" then bad("only Loose or Open order vignettes may be Fast (5)") end
  if n then
    local min = data.MIN_TU[u.discipline]
    if u.discipline == "regular" and w == "pike" then min = data.MIN_TU.regular_pike end
    if n < min then bad(n .. " vignette" .. (n == 1 and "" or "s") .. ": " .. (u.discipline == "irregular" and "an " or "a ") .. u.discipline .. (w == "pike" and " pike" or "") ..
      " TU needs at least " .. min .. " (2.3)") end
  end
  return p
end

-- The IP of one vignette of TU `u`, built in the rulebook's order (3), as a check. Returns
-- the IP and the factor list (for the record).
function M.build(ctx, u)
  local c = ctx:check("Integrity Points 3: " .. u.name .. " (" .. U.class_text(u) .. ")")
  local f = {}
  U.factor(c, f, ph.biv[u.order][u.type], "1. BIV, " .. data.ORDER_NAME[u.order] .. " " .. data.TYPE_NAME[u.type], "3, table p.6", true)
  if u.type == "foot" and data.BIV_WEAPON[u.weapon] then
    U.factor(c, f, data.BIV_WEAPON[u.weapon], "1. Foot with " .. u.weapon, "3")
  end
  U.factor(c, f, ph.physique_size[u.physique][u.size], "2. physique " .. u.physique .. ", size " .. u.size, "3, table p.7", true)
  U.factor(c, f, data.MORALE[u.morale_class], "3. morale class " .. u.morale_class, "2.5")
  local clamp_after_morale = umpire.option("ip_clamp_step") == "after_morale"
  if clamp_after_morale and c:total() < 1 then
    U.factor(c, f, 1 - c:total(), "minimum 1 after the morale class (option ip_clamp_step after_morale)", "3; UL-D29")
  end
  local col = ({ none = "pts", sh = "sh", lsh = "lsh" })[u.shield]
  U.factor(c, f, ph.defence[u.defence][col], "4. defence class " .. u.defence ..
    ({ pts = ", no shield", sh = " with shields", lsh = " with large shields" })[col], "2.7, table p.8", true)
  if u.type == "mounted" and u.mount_armour ~= "none" then
    U.factor(c, f, data.MOUNT_ARMOUR[u.mount_armour], "5. " .. u.mount_armour .. " animal armour", "2.7")
  end
  if c:total() < 1 then
    U.factor(c, f, 1 - c:total(), "6. the minimum is 1", "3" .. (clamp_after_morale and "" or "; UL-D29"))
  end
  local ip = c:total()
  c:result(ip .. " IP for each vignette")
  return ip, f
end

-- 28 (optional): the real creatures a vignette stands for: the base numbers table (lost: a
-- placeholder) by order and size, then the printed changes in the printed order: +50% with
-- Spear, +100% with Pike, -50% for Mounted, then divided by 10 for Leviathans and by 100 for
-- Behemoths, both rounded up. Returns the number and the steps taken (text).
function M.base_numbers(u)
  local n = ph.base_numbers[u.order][u.size]
  local steps = { n .. " from the table" }
  if u.weapon == "spear" then n = n * 3 / 2; steps[#steps + 1] = "+50% Spear = " .. U.cm(n) end
  if u.weapon == "pike" then n = n * 2; steps[#steps + 1] = "+100% Pike = " .. U.cm(n) end
  if u.type == "mounted" then n = n / 2; steps[#steps + 1] = "-50% Mounted = " .. U.cm(n) end
  if u.type == "leviathan" then n = math.ceil(n / 10); steps[#steps + 1] = "/10 Leviathan, rounded up = " .. n end
  if u.type == "behemoth" then n = math.ceil(n / 100); steps[#steps + 1] = "/100 Behemoth, rounded up = " .. n end
  n = U.cm(n)
  if #steps == 1 then steps = {} end
  return n, steps
end

function M.muster_unit(ctx, u)
  local ip, f = M.build(ctx, u)
  local els = u:elements()
  if #els == 0 then
    for i = 1, u.vignettes do
      u:add_element { id = u.id .. "_v" .. i, name = u.name .. " vignette " .. i,
        attrs = { ip = ip, ip_start = ip, ip_phase = ip }, reason = "vignette " .. i .. " of " .. u.name .. " (1, 2.3)" }
    end
    els = u:elements()
  else
    for _, e in ipairs(els) do
      e:set("ip_start", ip, "built (3)")
      e:set("ip", ip, "built (3)")
      e:set("ip_phase", ip, "built (3)")
    end
  end
  local why = #els .. " vignette" .. (#els == 1 and "" or "s") .. " of " .. ip .. " IP (3)"
  u:set("ip_start", ip * #els, why)
  u:set("ip", ip * #els, why)
  if not u:has("mustered") then u:mark("mustered", "IP built (3)") end
  return ip, f, #els
end

umpire.command {
  name = "muster",
  help = "builds the Integrity Points of every vignette (3), step by step in the rulebook's order,\n" ..
    "makes the vignettes of TUs that list none (`vignettes=N`), and checks the classes (2).\n" ..
    "Without a unit: every TU not yet mustered. `muster rom` rebuilds one (its IP back to the start).",
  args = { { name = "unit", type = "unit", optional = true, help = "one TU (rebuilt even if mustered)" } },
  run = function(ctx, args)
    local list = args.unit and { args.unit } or umpire.units("unmarked:mustered")
    if #list == 0 then return "every TU is mustered already; `muster UNIT` rebuilds one" end
    local out, rec = {}, {}
    for _, u in ipairs(list) do
      local ip, f, n = M.muster_unit(ctx, u)
      rec[u.id] = { ip = ip, vignettes = n, total = ip * n, factors = f }
      local line = u.id .. ": " .. n .. " vignette" .. (n == 1 and "" or "s") .. " of " .. ip .. " IP = " .. ip * n
      for _, p in ipairs(M.problems(u, n)) do line = line .. "\n  problem: " .. p end
      out[#out + 1] = line
    end
    umpire.record("muster", rec)
    return table.concat(out, "\n")
  end,
}

umpire.command {
  name = "stats",
  help = "a TU's roster line: classes, move, each vignette's IP, its dice and its problems (1-5, 18, 19, 27, 28)",
  args = { { name = "unit", type = "unit", help = "the TU" } },
  run = function(ctx, args)
    local u = args.unit
    local els = u:elements()
    local mv, base, fast, d = U.move(u)
    local pi = data.PROF_INDEX[u.proficiency]
    local lines = {
      u.id .. ": " .. u.name .. " — " .. U.class_text(u) .. ", " .. u.proficiency .. ", morale class " .. u.morale_class ..
        ", defence " .. u.defence .. (u.shield ~= "none" and (" + " .. u.shield) or "") ..
        (u.mount_armour ~= "none" and (", " .. u.mount_armour .. " animal armour") or ""),
      "weapons: " .. u.weapon:upper() .. (u.missile ~= "none" and (", " .. u.missile:upper()) or "") .. (u.sbw and ", SBW" or ""),
      "Tactical Move " .. mv .. " cm (" .. base .. (fast > 0 and (" +" .. fast .. " Fast") or "") ..
        " +" .. d .. " defence " .. ph.label("Move") .. ") (5)",
      "melee die " .. data.MELEE_DICE[u.discipline][u.proficiency] .. " (19)",
    }
    if u.missile ~= "none" then
      local s = data.SHOOT[u.missile]
      lines[#lines + 1] = u.missile:upper() .. " " .. s.range .. " cm: " .. s.foot[pi] .. " vs Foot, " .. s.heavy[pi] ..
        " vs Le/Be/CO, " .. s.mounted[pi] .. " vs Mounted (18)"
    end
    local v = {}
    for i, e in ipairs(els) do
      v[#v + 1] = u.id .. "." .. i .. " " .. e.ip .. "/" .. e.ip_start .. (e:has("repulsed") and " repulsed" or "")
    end
    lines[#lines + 1] = "vignettes: " .. (#v > 0 and table.concat(v, ", ") or "none (run `muster`)") ..
      "; TU " .. u.ip .. "/" .. u.ip_start .. " IP" .. (u:has("disordered") and "; disordered" or "")
    local sizes = {}
    for i, s in ipairs(data.SIZES) do if s == u.size then lines[#lines + 1] = "size " .. s .. ": up to " .. data.SIZE_FEET[u.type][i] .. " (28)" end end
    local bn, bn_steps = M.base_numbers(u)
    lines[#lines + 1] = "stands for about " .. bn .. " creatures " .. ph.label("base numbers") ..
      (#bn_steps > 0 and (": " .. table.concat(bn_steps, ", ")) or "") .. " (28, optional; flavour only)"
    lines[#lines + 1] = "points: the rulebook gives none (27)"
    for _, p in ipairs(M.problems(u, #els > 0 and #els or nil)) do lines[#lines + 1] = "problem: " .. p end
    umpire.record("stats", { move = mv, ip = u.ip, ip_start = u.ip_start, vignettes = #els,
      base_numbers = bn, base_numbers_placeholder = true, move_placeholder = true })
    return table.concat(lines, "\n")
  end,
}

return M
