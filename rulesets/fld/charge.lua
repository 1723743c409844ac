-- TA1 fanatic charge (§23) and TA2 charge (§24): who may charge, how far, how the target
-- meets it (stand, counter-charge, evade, or for irregulars a roll that may break them), and
-- whether the chargers reach it. Contact marks both for the first-contact round of melee.
local D = require "fld.data"
local U = require "fld.util"
local Mo = require "fld.morale"
local C = require "fld_common.morale"

-- The arguments `charge` and `fanatic` share: the distance measured by the umpire, the
-- target's reaction when the umpire types it, and what he sees of the ground and the contact.
local function charge_args()
  return {
    { name = "charger", type = "unit", help = "the unit charging" },
    { name = "target", type = "unit", help = "the enemy unit charged" },
    { name = "distance", type = "distance", help = "from the charger to the target when the charge starts (12, 12\", 30cm)" },
    { name = "reaction", type = "choice", values = { "stand", "evade", "countercharge" }, optional = true,
      help = "how a Regular target meets it, if its player has said (else umpire asks when there is a choice)" },
    { name = "open", type = "flag", help = "Mounted charging Loose/Open Foot in the open (31.1 b)" },
    { name = "flank", type = "flag", help = "the charge contacts the target's flank or rear (31.1 h)" },
  }
end

-- The words `resolve` reads, from the declared arguments.
local function words_of(args)
  local w = { open = args.open, flank = args.flank }
  if args.reaction then w[args.reaction] = true end
  return w
end

-- §28.vi: who can break formation and move (so evade).
local function can_evade(t) return t.order ~= "close" end

-- The reactions §23 allows a fanatic charge's target (FLD-D38: the specific rows win).
local function fanatic_reactions(t, c)
  local by_foot = U.is_foot(c)
  if t.discipline == "regular" and t.type ~= "behemoth" and t.order == "close" and U.is_foot(t) then
    return { "stand" }, "Regular Close order Foot only stand (23)"
  end
  if U.irregular(t) and (t.order == "close" or t.order == "loose") and U.is_foot(t) and by_foot then
    return { "countercharge" }, "Irregular Close or Loose order Foot charged by Foot must counter-charge (23; FLD-D38)"
  end
  if t.order ~= "close" or U.light_chariot(t) then
    if by_foot then return { "stand", "countercharge", "evade" }, "Loose/Open order or Light Chariots charged by Foot (23)" end
    return { "evade" }, "Loose/Open order or Light Chariots charged by Mounted only evade (23)"
  end
  return { "stand", "countercharge" }, "other troops stand or counter-charge (23)"
end

local function ask(t, allowed, why, typed, what, notes)
  notes[#notes + 1] = t.name .. " may " .. table.concat(allowed, " or ") .. ": " .. why
  if typed then
    for _, a in ipairs(allowed) do if a == typed then return typed end end
    umpire.fail(t.name .. " may not " .. typed .. ": " .. why .. "; allowed: " .. table.concat(allowed, ", "))
  end
  if #allowed == 1 then return allowed[1] end
  return umpire.ask { question = "How does " .. t.name .. " meet the " .. what .. "? (" .. why .. ")",
    choices = allowed, default = allowed[1], context = what .. " · " .. t.name }
end

-- §24.5 the irregular response roll: d6 + (morale - 1), or d6 - (morale - 1) by option.
local function irregular_response(ctx, t)
  local c = ctx:check("Charge response 24.5: " .. t.name .. " (Irregular, morale " .. t.morale .. ")")
  c:roll("1d6", "d6", "24.5", t)
  if umpire.option("irregular_response") == "subtract" then
    c:add(-(t.morale - 1), "less morale - 1 (option irregular_response)", "24.5; FLD-D15")
  else
    c:add(t.morale - 1, "morale - 1, as printed", "24.5; FLD-D15")
  end
  local r = D.irregular_response(c:total())
  if r == "evade_or_break" then r = can_evade(t) and "evade" or "break" end
  c:result(({ countercharge = "counter-charges", evade = "evades", ["break"] = "breaks" })[r] .. " (1-2 counter-charge, 3-4 evade if able else break, 5+ break)")
  return r, c:total()
end

-- Moves the charge through the response. Returns the record.
local function resolve(ctx, u, t, dist, words, fanatic)
  local mv = U.move(u)
  local allowance = fanatic and mv * 1.5 or mv
  local c = ctx:check((fanatic and "Fanatic charge 23: " or "Charge 24: ") .. u.name .. " at " .. t.name .. ", " .. U.fmt_in(dist))
  c:add(mv, "move", "6")
  if fanatic then c:add(mv * 0.5, "one and a half times the move", "23.3") end
  c:result("reaches " .. U.fmt_in(allowance) .. " straight ahead")
  local typed = (words.stand and "stand") or (words.evade and "evade") or (words.countercharge and "countercharge") or nil
  local reaction, score
  local notes = {}
  if fanatic then
    local allowed, why = fanatic_reactions(t, u)
    reaction = ask(t, allowed, why, typed, "fanatic charge", notes)
  elseif U.irregular(t) then
    if typed then umpire.fail(t.name .. " is Irregular: its response is rolled, not chosen (24.5); leave out `" .. typed .. "`") end
    reaction, score = irregular_response(ctx, t)
  else
    local allowed = can_evade(t) and { "stand", "evade", "countercharge" } or { "stand", "countercharge" }
    reaction = ask(t, allowed, can_evade(t) and "a Regular unit chooses (24.5)" or "a Regular Close order unit cannot evade (24.5, 28.vi)", typed, "charge", notes)
  end
  local rec = { charger = u.id, target = t.id, distance = dist, allowance = allowance, reaction = reaction,
    response_score = score, fanatic = fanatic }
  local reach = allowance
  if reaction == "break" then
    Mo.apply(ctx, t, "break", rec)
    rec.contact = false
    notes[#notes + 1] = t.name .. " breaks before the charge: the chargers may pursue (`pursue " .. u.id .. " broken`)"
    return rec, notes
  elseif reaction == "evade" then
    local tm = U.move(t)
    local e = ctx:check("Evade 28.vi: " .. t.name)
    e:add(tm / 2, "half its move " .. U.fmt_in(tm), "28.vi")
    e:roll(Mo.rides(t) and "2d6" or "1d6", Mo.rides(t) and "Mounted" or "Foot", "28.vi", t)
    e:result("moves " .. U.fmt_in(e:total()) .. " away before the chargers move, unformed")
    t:mark("evaded", "evaded the charge (28.vi)")
    if t.formed then t:set("formed", false, "evaders end unformed (23.7, 28.vi)") end
    rec.evade = e:total()
    dist = dist + e:total()
  elseif reaction == "countercharge" then
    local tm = U.move(t)
    reach = allowance + tm
    notes[#notes + 1] = t.name .. " counter-charges: they meet halfway (23.8, 24.6)"
    t:mark("charging", "counter-charges (24.6)")
  end
  rec.contact = dist <= reach
  if rec.contact then
    u:mark(fanatic and "fanatic" or "charging", (fanatic and "fanatic charge" or "charge") .. " reached " .. t.name .. " (" .. (fanatic and "23" or "24") .. ")")
    if fanatic and not u:has("charging") then u:mark("charging", "a fanatic charger also counts as charging (26.3; FLD-D11)") end
    for _, x in ipairs({ u, t }) do
      x:mark("first_contact", "contact this phase (26.2)")
      if not x:has("in_melee") then x:mark("in_melee", "in contact (26.1)") end
    end
    store.charger = store.charger or {}
    store.charger[u.id] = { target = t.id, fanatic = fanatic }
    if reaction == "countercharge" then store.charger[t.id] = { target = u.id, fanatic = false } end
    notes[#notes + 1] = string.format("contact: %s and %s melee this phase (`melee %s %s`)", u.name, t.name, u.id, t.id)
    if store.pending then store.pending[u.id] = nil end
  else
    if fanatic or U.irregular(u) then
      store.pending = store.pending or {}
      store.pending[u.id] = { target = t.id, fanatic = fanatic }
    end
    notes[#notes + 1] = string.format("no contact: %s stops %s short%s", u.name, U.fmt_in(dist - reach),
      U.irregular(u) and "; Irregulars keep charging next phase until contact (24.4)" or "; Regulars may stop (24.4)")
  end
  -- morale triggers that the charge sets off (31.1 b, c, h), from the shared trigger list
  local loose_foot = t.order ~= "close" and U.is_foot(t)
  local trig = C.triggers { charged_by_behemoth = u.type == "behemoth", is_behemoth = t.type == "behemoth",
    loose_open_foot = loose_foot, charged_by_mounted_in_open = U.is_mounted(u) and words.open,
    contacted_flank_or_rear = words.flank and rec.contact }
  rec.triggers = {}
  for _, x in ipairs(trig) do
    local flag = (loose_foot and (u.type == "behemoth" or U.is_mounted(u)) and x[1] ~= "h") and " charged" or ""
    notes[#notes + 1] = string.format("%s: %s: morale test (31.1 %s): `morale %s %s%s`", t.name, x[2], x[1], t.id, x[1], flag)
    rec.triggers[#rec.triggers + 1] = x[1]
  end
  return rec, notes
end

local function checks(u, t, dist)
  if not dist then umpire.fail("type the distance from " .. u.id .. " to " .. t.id .. ", e.g. 8\" (24.2)") end
  if u.side == t.side then umpire.fail(t.name .. " is a friend: charge an enemy (24)") end
  if u:has("broken") then umpire.fail(u.name .. " is broken and flees (31.3)") end
  if u:has("march") then umpire.fail(u.name .. " is in march formation and cannot fight (28.i)") end
  if u.type == "artillery" then umpire.fail(u.name .. " is artillery: its crew do not charge (2.3)") end
  if not u.formed then
    umpire.fail(u.name .. " is unformed: unformed troops may not charge (24.1, 28.ii); form up first")
  end
end

umpire.command {
  name = "charge",
  help = "TA2: a charge at a target at a distance (24): `charge kn arc 7\"`, `charge kn arc 7\" evade open`",
  args = charge_args(),
  run = function(ctx, args)
    local dist, words = args.distance, words_of(args)
    checks(args.charger, args.target, dist)
    local rec, notes = resolve(ctx, args.charger, args.target, dist, words, false)
    umpire.record("charge", rec)
    return table.concat(notes, "\n")
  end,
}

umpire.command {
  name = "fanatic",
  help = "TA1: a fanatic charge (23): a morale test passed by two, then 1.5 x move; else an ordinary charge: `fanatic war pk 9\"`",
  args = charge_args(),
  run = function(ctx, args)
    local u, t = args.charger, args.target
    local dist, words = args.distance, words_of(args)
    checks(u, t, dist)
    if not (u.type == "behemoth" or (U.irregular(u) and (u.order == "close" or u.order == "loose"))) then
      umpire.fail(u.name .. " may not fanatic charge: only Irregular Close or Loose order troops and Behemoths (23.1); use `charge`")
    end
    local need = (7 - u.morale) + 2
    local band, score = Mo.test(ctx, u, { trigger = "d", need = need, apply = false })
    local by_two = score >= need
    local rec, notes
    if by_two then
      rec, notes = resolve(ctx, u, t, dist, words, true)
    else
      local pre = {}
      if umpire.option("fanatic_test") == "apply_band" and band ~= "pass" then
        Mo.apply(ctx, u, band, nil)
        if band == "break" then
          umpire.record("fanatic", { passed_by_two = false, band = band, score = score })
          return u.name .. " breaks on its fanatic-charge test (option fanatic_test)"
        end
      end
      pre[#pre + 1] = u.name .. " did not pass by two: it charges instead (23.2)"
      rec, notes = resolve(ctx, u, t, dist, words, false)
      table.insert(notes, 1, pre[1])
    end
    rec.passed_by_two, rec.test_score, rec.band = by_two, score, band
    umpire.record("fanatic", rec)
    return table.concat(notes, "\n")
  end,
}
