-- TA1 fanatic charge (16) and TA2 charge (17): who may, how far, the target's reaction,
-- counter-charges meeting halfway, evades, and first contact. Melee follows (`melee`).
local U = require "undying_lands.util"
local I = require "undying_lands.integrity"
local orders = require "fld_common.orders"
local seq = require "fld_common.sequence"
local cfg = require("undying_lands.command").cfg

local M = {}

-- Whether TU `u` may take Tactical Action `ta` under its orders (10; UL-D18, UL-D30).
function M.order_allows(u, ta, what)
  local g = umpire.group(u.command)
  if u:has("own_initiative") and umpire.option("own_initiative_limits") == "carried_out" then return end
  if g.orders == "none" and ta <= 2 then
    umpire.fail(what .. ": " .. u.id .. "'s wing has no orders yet; charges need ATTACK or RUSH orders (10; UL-D18): `orders " .. g.id .. " attack`")
  end
  if not orders.allows(cfg, g.orders, ta) then
    umpire.fail(what .. ": " .. u.id .. "'s wing is on " .. g.orders:upper() .. " orders, which do not allow " ..
      seq.ta_name(ta) .. orders.allowed_text(cfg, g.orders) .. " (10; UL-D18)" ..
      (u:has("own_initiative") and "; own initiative obeys the order (option own_initiative_limits void, UL-D30)" or ""))
  end
end

-- Who may break off or evade (20.v).
function M.may_evade(u)
  if u.order ~= "close" then return true end
  return u.discipline == "regular" and u.type == "foot"
end

-- The reactions allowed to target `t` charged by `a` (16 table, UL-D32; 17).
function M.reactions(a, t, fanatic)
  if fanatic then
    if t.discipline == "regular" and t.order == "close" and t.type == "foot" then
      return { stand = true }, "Regular Close order Foot only stand (16)"
    end
    if t.discipline == "irregular" and t.type == "foot" and t.order ~= "open" and a.type == "foot" then
      return { counter = true }, "Irregular Close or Loose order Foot charged by Foot must counter-charge (16; UL-D32)"
    end
    if t.type == "foot" and t.order ~= "close" and a.type == "mounted" then
      return { evade = true }, "Loose or Open order Foot charged by Mounted may only evade (16)"
    end
    if t.type == "foot" and t.order ~= "close" and a.type == "foot" then
      return { stand = true, counter = true, evade = true }, "Loose or Open order Foot charged by Foot (16)"
    end
    return { stand = true, counter = true }, "others stand or counter-charge (16)"
  end
  local r
  if a.type == "mounted" then r = { stand = true, evade = true } else r = { stand = true, evade = true, counter = true } end
  if not M.may_evade(t) then r.evade = nil end
  return r, (a.type == "mounted" and "charged by Mounted: stand or evade" or "charged by Foot: stand, evade or counter-charge") ..
    (M.may_evade(t) and "" or "; only Loose or Open order, or Regular Close order Foot, may evade (20.v)") .. " (17)"
end

local function list(t)
  local out = {}
  for _, k in ipairs({ "stand", "counter", "evade" }) do if t[k] then out[#out + 1] = k end end
  return table.concat(out, ", ")
end

-- The evade or break-off move (20.v): full Tactical Move + 1d8 (Foot, Leviathan, Behemoth;
-- UL-D25) or + 1d12 (Mounted).
function M.breakoff_move(ctx, u, why)
  local c = ctx:check("Break off 20.v: " .. u.id .. " " .. why)
  U.move_factor(c, u, nil, "full Tactical Move")
  c:roll(u.type == "mounted" and "1d12" or "1d8", "to the rear", "20.v" .. ((u.type == "leviathan" or u.type == "behemoth") and "; UL-D25" or ""))
  c:result(c:total() .. " cm to the rear")
  return c:total()
end

function M.charge(ctx, a, t, args, fanatic)
  local what = fanatic and "fanatic" or "charge"
  if a.side == t.side then umpire.fail(what .. ": " .. t.id .. " is a friend") end
  U.vignettes(a, what .. ": ")
  U.vignettes(t, what .. ": ")
  M.order_allows(a, fanatic and 1 or 2, what)
  if fanatic then
    local ok, why = seq.may_fanatic(a)
    if not ok then umpire.fail("fanatic: " .. a.id .. ": " .. why .. " (16)") end
  end
  if a.order ~= "close" and (t.type ~= "foot") then
    umpire.fail(what .. ": " .. a.id .. " is " .. a.order .. " order and may not charge Mounted, Leviathans or Behemoths (17)")
  end
  -- 17, 21: missile troops with only SA charge only Open order enemies. Reading (option
  -- missile_charge): SSW is a supplementary weapon of melee troops (the Galatians, javelins and
  -- swords, fanatic-charge Roman Close order in the example of 19), so only SRW and LRW count.
  local barred = a.missile == "srw" or a.missile == "lrw" or
    (a.missile == "ssw" and umpire.option("missile_charge") == "any_missile")
  if a.weapon == "sa" and barred and t.order ~= "open" then
    umpire.fail(what .. ": " .. a.id .. " carries only a missile weapon (" .. a.missile:upper() ..
      ") and SA and may charge only Open order enemies (17, 21" ..
      (a.missile == "ssw" and "; option missile_charge any_missile" or "") .. ")")
  end
  if a:has("own_initiative") and t.ip * 2 > a.ip then
    return a.id .. " will not charge " .. t.id .. " on its own initiative: the enemy has more than half its IP (" ..
      t.ip .. " > " .. a.ip .. "/2); it retreats two full moves (" .. 2 * U.move(a) .. " cm " ..
      require("undying_lands.placeholders").label("with the defence Move column") .. ") instead (21; UL-D24)"
  end
  local lines, rec = {}, { charger = a.id, target = t.id, fanatic = fanatic, placeholder = true,
    placeholder_note = "reach and evade distances include the defence Move column, a PLACEHOLDER" }
  -- 16: fanatic chargers test (trigger d) and must pass by five
  local fan_ids = {}
  if fanatic then
    local l, r, five = I.test(ctx, a, { trigger = "d", fanatic = true, unsupported = args.unsupported })
    for _, x in ipairs(l) do lines[#lines + 1] = x end
    for _, e in ipairs(five) do fan_ids[#fan_ids + 1] = e.id end
    rec.test = r
    lines[#lines + 1] = #five .. " of " .. #r .. " vignettes fanatic; the rest charge normally (16)"
    if #a:elements() == 0 then return table.concat(lines, "\n") end
  end
  -- 16: 1.5 x the Tactical Move, unrounded; if no vignette passed by five the TU makes a
  -- normal charge (TA2) with its Tactical Move (17)
  local reach = (fanatic and #fan_ids > 0) and U.fanatic_reach(a) or U.move(a)
  if fanatic and #fan_ids == 0 then
    lines[#lines + 1] = a.id .. " makes a normal charge (17): reach " .. reach .. " cm, not 1.5 x its move (16)"
  end
  local allowed, why = M.reactions(a, t, fanatic)
  local react = args.reaction
  if not react then
    if allowed.counter and not allowed.stand then react = "counter" elseif allowed.stand then react = "stand" else react = "evade" end
  end
  if not allowed[react] then
    umpire.fail(what .. ": " .. t.id .. " may not " .. react .. ": " .. why .. "; allowed: " .. list(allowed))
  end
  rec.reaction = react
  lines[#lines + 1] = t.id .. " " .. ({ stand = "stands", counter = "counter-charges", evade = "evades" })[react] .. " (" .. why .. ")"
  local dist = args.distance
  if react == "evade" then
    local back = M.breakoff_move(ctx, t, "evades the charge")
    rec.evade = back
    lines[#lines + 1] = t.id .. " evades " .. back .. " cm before the chargers move (" .. (fanatic and "16" or "17") .. ", 20.v); " ..
      a.id .. (a.discipline == "irregular" and " must go on charging in later phases until it contacts (17)" or " may stop (17)")
    umpire.record("charge", rec)
    return table.concat(lines, "\n")
  end
  if dist then
    local need = dist
    if react == "counter" then need = dist / 2 end
    if need > reach then
      lines[#lines + 1] = a.id .. " reaches " .. reach .. " cm of the " .. (react == "counter" and "half-way " or "") .. U.cm(need) ..
        " cm needed: no contact (its reach includes the defence Move column " ..
        require("undying_lands.placeholders").label("") .. "); " .. (a.discipline == "irregular" and "it must go on charging next phase (17)" or
        "as a regular it may stop after this move (17)")
      umpire.record("charge", rec)
      return table.concat(lines, "\n")
    end
  end
  -- contact
  if not a:has("charging") then a:mark("charging", what .. " into contact (" .. (fanatic and "16" or "17") .. ")", "phase") end
  if #fan_ids > 0 and not a:has("fanatic") then a:mark("fanatic", "fanatic charge (16)", "phase") end
  for _, x in ipairs({ a, t }) do
    if not x:has("first_contact") then x:mark("first_contact", "first contact (19)", "phase") end
  end
  if store.charges == nil then store.charges = {} end
  store.charges[a.id] = { charged = true, fanatic = fan_ids }
  if react == "counter" then
    if not t:has("charging") then t:mark("charging", "counter-charged: the two meet half-way (16, 17)", "phase") end
    store.charges[t.id] = { charged = true, counter = true, fanatic = {} }
  else
    store.charges[t.id] = nil
  end
  local av, tv = a:elements(), t:elements()
  for i, e in ipairs(av) do I.touch(e, tv[math.min(i, #tv)]) end
  lines[#lines + 1] = a.id .. " contacts " .. t.id .. (dist and (" (" .. dist .. " cm" .. (react == "counter" and ", meeting half-way" or "") ..
    " of " .. reach .. " cm reach " .. require("undying_lands.placeholders").label("with the defence Move column") .. ")") or "") .. "; melee follows: `melee " .. a.id .. " " .. t.id .. "` (19)"
  -- integrity triggers of the target (23.1 b, c, h). The test is taken once, when any of them
  -- applies, with every modifier of 23.2 the charge brings: +3 for Loose or Open order Foot
  -- charged by a Behemoth or Mounted, +10 or +5 for a flank or rear contact.
  local trig = {}
  if a.type == "behemoth" and t.type ~= "behemoth" then trig[#trig + 1] = "b" end
  local loose_foot = t.type == "foot" and t.order ~= "close"
  if loose_foot and (a.type == "mounted" or a.type == "leviathan" or a.type == "behemoth") and not args.not_open then
    trig[#trig + 1] = "c"
  end
  local o = { charged = loose_foot and (a.type == "mounted" or a.type == "behemoth"), unsupported = args.target_unsupported }
  if args.flank and #t:elements() > 0 then
    trig[#trig + 1] = "h"
    if t.order == "close" and a.ip >= t.ip then o.flank_close = true
    elseif t.order ~= "open" and a.ip * 4 >= t.ip then o.flank_other = true end
  end
  if #trig > 0 then
    local words, lettered = {}, {}
    for _, x in ipairs(trig) do words[#words + 1] = I.TRIGGERS[x]; lettered[#lettered + 1] = x .. ": " .. I.TRIGGERS[x] end
    o.trigger, o.trigger_text = trig[1], table.concat(lettered, "; ")
    lines[#lines + 1] = t.id .. " tests: " .. table.concat(words, "; ") .. " (23.1 " .. table.concat(trig, ", ") ..
      (#trig > 1 and "; one test for the charge" or "") .. ")"
    local l, r = I.test(ctx, t, o)
    for _, x in ipairs(l) do lines[#lines + 1] = x end
    for _, x in ipairs(trig) do rec["test_" .. x] = r end
  end
  umpire.record("charge", rec)
  return table.concat(lines, "\n")
end

local function args_for(fanatic)
  local a = {
    { name = "charger", type = "unit", help = "the charging TU" },
    { name = "target", type = "unit", help = "the TU charged" },
    { name = "distance", type = "distance", optional = true, help = "the gap in cm, to see whether the charge reaches" },
    { name = "reaction", type = "choice", values = { "stand", "counter", "evade" }, optional = true,
      help = "the target's reaction (" .. (fanatic and "16" or "17") .. "); the one it must take if left out" },
    { name = "flank", type = "flag", help = "the charge contacts the target's flank or rear (23.1 h)" },
    { name = "not_open", type = "flag", help = "the target is not in the open (no trigger c)" },
    { name = "target_unsupported", type = "flag", help = "+2 to the target's integrity test: it is unsupported (23.2)" },
  }
  if fanatic then
    a[#a + 1] = { name = "unsupported", type = "flag", help = "+2 to the chargers' test (23.1 d): they are unsupported (23.2)" }
  end
  return a
end

umpire.command {
  name = "charge",
  help = "TA2 (17): a TU charges straight ahead, up to its Tactical Move, under ATTACK or RUSH\n" ..
    "orders; the target stands, evades or counter-charges (meeting half-way); on contact the\n" ..
    "first-contact round begins and the target tests once if any of 23.1 b, c, h applies.\n" ..
    "  charge kn war 8cm     charge kn war 14cm counter     charge orcs bows evade",
  args = args_for(false),
  run = function(ctx, args) return M.charge(ctx, args.charger, args.target, args, false) end,
}

umpire.command {
  name = "fanatic",
  help = "TA1 (16): irregular Close or Loose order troops and Behemoths under ATTACK or RUSH; each\n" ..
    "vignette takes an integrity test (23.1 d) and must pass by five to be fanatic (+4), the rest\n" ..
    "charge normally; moves up to 1.5 x Tactical Move; the target's reaction by the table of 16.\n" ..
    "  fanatic gal rom 12cm",
  args = args_for(true),
  run = function(ctx, args) return M.charge(ctx, args.charger, args.target, args, true) end,
}

return M
