-- Integrity tests (23), taken by each vignette: d10 + modifiers against its own IP; repulse
-- and rout. Disorder on losing half the IP in one phase, and rally (24).
--
-- The store `undying_lands` keeps who is in contact with whom:
--   store.contact = { [VIGNETTE] = { ENEMY VIGNETTE, … } }  (charge and melee write it)
local data = require "undying_lands.data"
local U = require "undying_lands.util"
local commanders = require "fld_common.commanders"

local M = {}

M.TRIGGERS = {
  a = "a vignette of the TU has lost all its IP",
  b = "charged by a Behemoth",
  c = "Loose or Open order Foot charged by Mounted, Leviathan or Behemoth in the open",
  d = "wants to fanatic charge",
  e = "wants to change formation",
  f = "a vignette of a friendly TU broke within 30 cm",
  g = "a wing of its side became demoralised",
  h = "contacted in the rear or flank",
  i = "suffered a special breath weapon attack",
}

-- A table read from the store is a view: each index into it, each step of `ipairs` and each
-- `table.insert` reads (and a write writes) the whole stored value again. So the contact lists
-- are read as plain lists, one store read each, and written back once per list.

-- The ids in contact with vignette `id`, a plain list in the stored order. `contact`: the
-- store's `contact` table (read once by a caller that asks for several).
function M.contact_ids(id, contact)
  if contact == nil then contact = store.contact end
  local l = contact and contact[id]
  return l and U.plain(l) or {}
end

-- The enemy vignettes in contact with vignette `e` (the store).
function M.enemies(e)
  local out = {}
  for _, id in ipairs(M.contact_ids(e.id)) do
    local ok, x = pcall(umpire.element, id)
    if ok and x then out[#out + 1] = x end
  end
  return out
end

-- Records contact between pairs of vignettes (both ways): `list` = { { a, b }, … } (handles
-- or ids), in order, as M.touch would one pair after the other, with one write per list.
-- `contact`: store.contact when the caller has read it (false: there is none).
function M.touch_all(list, contact)
  if #list == 0 then return end
  if contact == nil then contact = store.contact elseif contact == false then contact = nil end
  local lists, changed, order = {}, {}, {}
  local function add(x, y)
    local l = lists[x]
    if l == nil then
      l = M.contact_ids(x, contact or false)
      lists[x] = l
    end
    for _, id in ipairs(l) do if id == y then return end end
    l[#l + 1] = y
    if not changed[x] then changed[x] = true; order[#order + 1] = x end
  end
  for _, p in ipairs(list) do
    local a, b = p[1], p[2]
    a, b = type(a) == "string" and a or a.id, type(b) == "string" and b or b.id
    add(a, b)
    add(b, a)
  end
  if contact == nil then
    local fresh = {}
    for _, x in ipairs(order) do fresh[x] = lists[x] end
    store.contact = fresh
  else
    for _, x in ipairs(order) do contact[x] = lists[x] end
  end
end

-- Records contact between two vignettes (both ways).
function M.touch(a, b)
  M.touch_all({ { a, b } })
end

-- Ends every contact of vignette `id`.
function M.untouch(id)
  if not store.contact then return end
  for _, other in ipairs(store.contact[id] or {}) do
    local l = store.contact[other]
    if l then
      for i = #l, 1, -1 do if l[i] == id then table.remove(l, i) end end
      if #l == 0 then store.contact[other] = nil end
    end
  end
  store.contact[id] = nil
end

-- The "melee opponents have more IP" comparison (23.2; UL-D31): returns mine, theirs or nil.
local function opponents_ip(u, e, given)
  if umpire.option("more_ip_test") == "tu_totals" then
    local seen, theirs = {}, 0
    for _, v in ipairs(u:elements()) do
      for _, x in ipairs(M.enemies(v)) do
        if not seen[x.unit] then seen[x.unit] = true; theirs = theirs + umpire.unit(x.unit).ip end
      end
    end
    if given then theirs = given end
    if next(seen) == nil and not given then return nil end
    return u.ip, theirs, "TU totals (option more_ip_test tu_totals)"
  end
  if given then return e.ip, given, "enemy IP given" end
  local en = M.enemies(e)
  if #en == 0 then return nil end
  local t = 0
  for _, x in ipairs(en) do t = t + x.ip end
  return e.ip, t, "the enemy vignettes in contact (UL-D31)"
end

-- Whether the TU's commander rides with vignette `e` (reading: with the TU's first vignette).
local function commander_with(u)
  local g = umpire.group(u.command)
  if umpire.side(u.side).cinc_with == u.id then return "general" end
  if g.sc_with == u.id then return "sc" end
  return nil
end

-- A vignette routs (23.3): removed; the TU may break (26).
function M.rout(ctx, e, why, lines)
  local u = U.unit_of(e)
  local first = u:elements()[1]
  local was_first = first and first.id == e.id
  M.untouch(e.id)
  e:remove(why)
  U.sync(u, "a vignette routed (23.3)")
  lines[#lines + 1] = "friendly TUs within 30 cm of " .. u.id .. " take an integrity test (23.1 f): `integrity UNIT f`"
  local who = commander_with(u)
  if who and (was_first or #u:elements() == 0) then
    if who == "sc" then
      local g = umpire.group(u.command)
      if not g.demoralised then g:set("demoralised", true, "its sub-commander's TU broke: the sub-commander is lost (26)") end
      if g.orders ~= "retreat" then g:set("orders", "retreat", "a demoralised wing must retreat (26)") end
      lines[#lines + 1] = u.command .. ": the sub-commander is lost with " .. u.id .. "; the wing is demoralised (26)"
      umpire.emit("mtu_demoralised", { command = g.id, side = g.side })
    else
      lines[#lines + 1] = u.side .. " has lost the battle: the General's TU " .. u.id .. " broke (26)"
      umpire.record("side_lost", u.side)
    end
  end
end

-- Repulses vignette `e` (23.3): back Tactical Move + die, disordered, marked repulsed; the
-- opponents in contact follow up (irregular ones must, for 1d4 turns).
function M.repulse(ctx, e, c, lines, rec)
  local u = U.unit_of(e)
  local die = u.type == "mounted" and "1d12" or "1d8"
  local back
  if u.type == "mounted" and umpire.option("repulse_mounted") == "d12_only" then
    local r = ctx:check("Repulse 23.3: " .. U.vname(e))
    back = r:roll(die, "moves back (option repulse_mounted d12_only)", "23.3; UL-D23")
    r:result(back .. " cm to the rear, facing the enemy")
  else
    local r = ctx:check("Repulse 23.3: " .. U.vname(e))
    U.move_factor(r, u, nil)
    rec.placeholder = true
    r:roll(die, "moves back", "23.3" .. (u.type == "mounted" and "; UL-D23" or ""))
    back = r:total()
    r:result(back .. " cm to the rear, facing the enemy")
  end
  rec.back = back
  if not u:has("disordered") then u:mark("disordered", "repulsed (23.3, 24)") end
  if not e:has("repulsed") then e:mark("repulsed", "repulsed: +5 to later tests (23.2)") end
  local followed = {}
  for _, x in ipairs(M.enemies(e)) do
    local o = umpire.unit(x.unit)
    if not followed[o.id] then
      followed[o.id] = true
      local f = ctx:check("Follow-up 23.3: " .. o.id .. " after " .. U.vname(e))
      U.move_factor(f, o, nil)
      f:roll(o.type == "mounted" and "1d10" or "1d6", "follow-up", "23.3")
      if o.discipline == "irregular" then
        local _, r = umpire.roll("1d4")
        local turns = r[1]
        f:result(f:total() .. " cm: irregular, must follow up and contact where it can, for " .. turns .. " turns (1d4)")
        o:set("follow_up", turns, "must follow up the repulsed enemy (23.3)")
      else
        f:result(f:total() .. " cm if it chooses to follow up (regular)")
      end
    end
  end
  M.untouch(e.id)
end

-- One integrity test for each vignette of TU `u`. `o` holds the situation: trigger (letter),
-- enemy_ip, charged, unsupported, flank_close, flank_other, fanatic (passing by five is
-- needed: returns the vignettes that did). Returns lines and a record.
function M.test(ctx, u, o)
  local vignettes = U.vignettes(u, "integrity: ")
  local lines, rec, passed_five = {}, {}, {}
  local trig = o.trigger_text or (o.trigger and (o.trigger .. ": " .. M.TRIGGERS[o.trigger])) or "called by the umpire"
  if o.flank_close and o.flank_other and umpire.option("flank_lines") == "exclusive" then
    umpire.fail("integrity: flank_close and flank_other exclude each other (23.2; UL-D12); give one, " ..
      "or `option set flank_lines cumulative`")
  end
  for _, e in ipairs(vignettes) do
    local c = ctx:check("Integrity test 23: " .. U.vname(e) .. ", trigger " .. trig)
    local r = { vignette = e.id, ip = e.ip }
    c:roll("1d10", "d10", "23.2")
    if o.charged then c:add(3, "Loose or Open Foot charged by Behemoth or Mounted", "23.2") end
    local mine, theirs, how = opponents_ip(u, e, o.enemy_ip)
    if mine and theirs > mine then c:add(2, "melee opponents have more IP (" .. theirs .. " > " .. mine .. ", " .. how .. ")", "23.2; UL-D31") end
    if o.unsupported then c:add(2, "unsupported", "23.2") end
    if e:has("repulsed") then c:add(5, "previously repulsed", "23.2") end
    if o.flank_close then c:add(10, "Close order contacted in flank or rear by equal or more IP", "23.2; UL-D12") end
    if o.flank_other then c:add(5, "contacted in flank or rear by 25% of its IP or more", "23.2; UL-D12") end
    c:point("ul.integrity", { unit = u, vignette = e, trigger = o.trigger })
    local score, ip = c:total(), e.ip
    r.score = score
    if o.fanatic then
      if ip - score >= 5 then
        c:result("passes by five (" .. ip .. " - " .. score .. " = " .. (ip - score) .. "): fanatic charge (16; UL-D13)")
        passed_five[#passed_five + 1] = e
        r.outcome = "fanatic"
      elseif score > ip and umpire.option("fanatic_fail") == "repulse" then
        c:result("fails, over its IP: repulsed (option fanatic_fail repulse)")
        r.outcome = "repulsed"
        M.repulse(ctx, e, c, lines, r)
      else
        c:result("does not pass by five: charges normally instead (16; UL-D13)")
        r.outcome = "charge"
      end
    elseif score - ip >= 10 then
      c:result("breaks and routs: " .. score .. " is 10 or more over IP " .. ip .. " (23.3; UL-D11)")
      r.outcome = "routed"
      M.rout(ctx, e, "broke and routed (23.3)", lines)
    elseif score > ip then
      c:result("repulsed: " .. score .. " over IP " .. ip .. " (23.3; UL-D11)")
      r.outcome = "repulsed"
      M.repulse(ctx, e, c, lines, r)
    else
      c:result("passes: " .. score .. " is not over IP " .. ip .. " (23.3)")
      r.outcome = "passed"
    end
    rec[#rec + 1] = r
  end
  return lines, rec, passed_five
end

-- After losses (18, 19): disorder on losing half in one phase (24), and trigger a. `known`
-- (optional): what the caller has read already in this command and is still so — `key` (the
-- phase, U.phase_key), `els` (each unit's vignettes by unit id), `facts` (by handle, of the
-- vignettes in `els` and the units in `units`: a vignette's ip, phase_key, ip_phase; a unit's
-- `disordered`). Once a test has run (it may change other units), everything is read afresh.
function M.after_losses(ctx, units, known)
  local out = {}
  local key = known and known.key or U.phase_key()
  local facts = known and known.facts or {}
  local function get(h, k)
    local f = facts[h]
    local v
    if f then v = f[k] end
    if v == nil then v = h[k] end
    return v
  end
  local from_start = umpire.option("disorder_base") == "starting"
  local tu_total = umpire.option("disorder_count") == "tu_total"
  for _, u in ipairs(units) do
    local any_zero = false
    local f = facts[u]
    local disordered
    if f and f.disordered ~= nil then disordered = f.disordered else disordered = u:has("disordered") end
    local els = known and known.els and known.els[u.id] or u:elements()
    if tu_total and not disordered then
      -- option disorder_count tu_total: the TU's loss this phase against half its IP at the
      -- start of the phase (or its starting IP, option disorder_base)
      local lost, base = 0, 0
      for _, e in ipairs(els) do
        local ip, here = get(e, "ip"), get(e, "phase_key") == key
        if here then lost = lost + (get(e, "ip_phase") - ip) end
        base = base + (from_start and e.ip_start or (here and get(e, "ip_phase") or ip))
      end
      if base > 0 and lost > 0 and lost * 2 >= base then
        u:mark("disordered", u.id .. " lost " .. lost .. " of " .. base .. " IP this phase (24; option disorder_count tu_total)")
        out[#out + 1] = u.id .. " is disordered: it lost half its IP or more in this phase (24)"
      end
      disordered = true   -- the vignette check below is not used
    end
    for i, e in ipairs(els) do
      local ip = get(e, "ip")
      if not disordered and get(e, "phase_key") == key then
        local base = from_start and e.ip_start or get(e, "ip_phase")
        local lost = get(e, "ip_phase") - ip
        if base > 0 and lost * 2 >= base then
          disordered = true
          local name = u.id .. "." .. i     -- U.vname(e), without reading the elements again
          u:mark("disordered", name .. " lost " .. lost .. " of " .. base .. " IP this phase (24; UL-D16" ..
            (from_start and ", option disorder_base starting" or "") .. ")")
          out[#out + 1] = u.id .. " is disordered: " .. name .. " lost half its IP or more in this phase (24)"
        end
      end
      if ip <= 0 then any_zero = true end
    end
    if any_zero then
      out[#out + 1] = u.id .. " tests: a vignette has lost all its IP (23.1 a)"
      local l, rec = M.test(ctx, u, { trigger = "a" })
      for _, x in ipairs(l) do out[#out + 1] = x end
      umpire.record("integrity_" .. u.id, rec)
      -- the test may have changed any unit: read the rest afresh
      known, facts = nil, {}
    end
  end
  return out
end

umpire.command {
  name = "integrity",
  help = "an integrity test for each vignette of a TU (23): d10 + modifiers against its own IP;\n" ..
    "over its IP: repulsed (back, disordered); 10 or more over: routs. TRIGGER a-i (23.1).\n" ..
    "The +2 for opponents with more IP is read from the vignettes in contact (`enemy_ip N` to give it).\n" ..
    "  integrity gal h flank_other     integrity rom f unsupported",
  args = {
    { name = "unit", type = "unit", help = "the TU" },
    { name = "trigger", type = "choice", values = { "a", "b", "c", "d", "e", "f", "g", "h", "i" }, help = "the trigger (23.1)" },
    { name = "enemy_ip", type = "int", optional = true, help = "IP of the opponents, if not the vignettes in contact (UL-D31)" },
    { name = "charged", type = "flag", help = "+3: Loose or Open Foot charged by Behemoth or Mounted (23.2)" },
    { name = "unsupported", type = "flag", help = "+2: no friendly support (23.2)" },
    { name = "flank_close", type = "flag", help = "+10: Close order, contacted in flank or rear by equal or more IP" },
    { name = "flank_other", type = "flag", help = "+5: contacted in flank or rear otherwise (25% of its IP or more)" },
  },
  run = function(ctx, args)
    if args.trigger == "d" then
      umpire.fail("integrity: trigger d is taken by `fanatic` (16), which needs a pass by five")
    end
    -- 23.2: each modifier belongs to troops of a kind; a flag that cannot apply is refused
    local u = args.unit
    if args.charged and not (u.type == "foot" and u.order ~= "close") then
      umpire.fail("integrity: `charged` (+3) is for Loose or Open order Foot charged by a Behemoth or Mounted (23.2); " ..
        u.id .. " is " .. U.class_text(u))
    end
    if args.flank_close and u.order ~= "close" then
      umpire.fail("integrity: `flank_close` (+10) is for a Close order TU (23.2); " .. u.id .. " is " .. U.class_text(u) ..
        ": use `flank_other` (+5)")
    end
    if args.flank_other and u.order == "open" then
      umpire.fail("integrity: `flank_other` (+5) is not for Open order TUs (23.2); " .. u.id .. " is " .. U.class_text(u))
    end
    local lines, rec = M.test(ctx, args.unit, { trigger = args.trigger, enemy_ip = args.enemy_ip, charged = args.charged,
      unsupported = args.unsupported, flank_close = args.flank_close, flank_other = args.flank_other })
    umpire.record("integrity", rec)
    local n = { passed = 0, repulsed = 0, routed = 0 }
    for _, r in ipairs(rec) do n[r.outcome] = (n[r.outcome] or 0) + 1 end
    lines[#lines + 1] = args.unit.id .. ": " .. n.passed .. " passed, " .. n.repulsed .. " repulsed, " .. n.routed .. " routed"
    return table.concat(lines, "\n")
  end,
}

-- 24: rally. Started when the TU is disordered; lasts max(1, 1d6-2) phases (Irregular) or
-- max(1, 1d4-2) (Regular); completed with `rally UNIT` again once the phases have passed.
umpire.command {
  name = "rally",
  help = "rally a disordered TU (24): the first call rolls how many phases it takes (Irregular\n" ..
    "max(1, 1d6-2), Regular max(1, 1d4-2)); once they have passed, `rally UNIT` again returns it\n" ..
    "to good order and each vignette recovers 1d8 IP (not above its starting IP, UL-D14).\n" ..
    "The TU must be in terrain that does not disorder, with no enemy within 30 cm: give the\n" ..
    "nearest enemy's distance (`rally gal 45cm`) and it is checked.",
  args = {
    { name = "unit", type = "unit", help = "the disordered TU" },
    { name = "enemy", type = "distance", optional = true, help = "distance to the nearest enemy" },
  },
  run = function(ctx, args)
    local u = args.unit
    if not u:has("disordered") then umpire.fail("rally: " .. u.id .. " is not disordered (24)") end
    if args.enemy and args.enemy <= 30 then
      umpire.fail("rally: an enemy is " .. args.enemy .. " cm from " .. u.id .. "; a TU rallies only with no enemy within 30 cm (24)")
    end
    if u.rally_left < 0 then
      local c = ctx:check("Rally 24: " .. u.id .. ", phases needed")
      if u.discipline == "irregular" then c:roll("1d6", "Irregular", "24") else c:roll("1d4", "Regular", "24") end
      c:add(-2, "less 2", "24")
      local n = math.max(1, c:total())
      if n ~= c:total() then c:add(n - c:total(), "at least 1 phase", "24; UL-D15") end
      c:result(n .. " phase" .. (n == 1 and "" or "s"))
      u:set("rally_left", n, "rallying for " .. n .. " phases (24)")
      umpire.record("rally", { phases = n })
      return u.id .. " rallies: good order after " .. n .. " phase" .. (n == 1 and "" or "s") .. " (`rally " .. u.id .. "` then)"
    end
    if u.rally_left > 0 then
      umpire.fail("rally: " .. u.id .. " still needs " .. u.rally_left .. " phase" .. (u.rally_left == 1 and "" or "s") ..
        " before it is back in good order (24); move the clock on with `next`")
    end
    local rec = {}
    for _, e in ipairs(U.vignettes(u)) do
      local c = ctx:check("Rally 24: " .. U.vname(e) .. " recovers IP")
      local d = c:roll("1d8", "IP recovered", "24")
      local g = U.gain(e, d, "rallied: recovers IP (24)")
      if g ~= d then c:add(g - d, "not above its starting IP " .. e.ip_start, "24; UL-D14") end
      c:result(e.ip .. "/" .. e.ip_start .. " IP")
      rec[#rec + 1] = { vignette = e.id, rolled = d, gained = g, ip = e.ip }
    end
    u:unmark("disordered", "rallied (24)")
    u:set("rally_left", -1, "rallied (24)")
    umpire.record("rally", rec)
    return u.id .. " is back in good order (24)"
  end,
}

-- Each new phase counts down the rallies under way.
umpire.on("step_begins", function(ev)
  if not tostring(ev.phase or ""):match("^phase") then return end
  for _, u in ipairs(umpire.units("rally_left>0")) do
    u:set("rally_left", u.rally_left - 1, "a phase of rally passed (24)")
  end
end)

return M
