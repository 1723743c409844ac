-- The heroes house rule's adapter for OpenD6 Fantasy Miniatures (scripts/heroes.lua picks it
-- when the ruleset opend6fm is loaded). THE CLUB'S HOUSE RULE, NOT OPEND6'S: the source names
-- heroes in its Advanced Game but never gives that chapter (rulesets/opend6fm/README.md, "What
-- the source lacks"), so nothing here is OpenD6's own Heroes rule. It is OLAB 8.8.4 and 1.3
-- put into OpenD6 terms; README.md in this folder says it for the umpire ("What a Hero means in
-- OpenD6").
--
-- * A Hero is a soldier (`hero wardens.w_sgt`), as in the ruleset's own Advanced Game hooks
--   (`special HERO ACTION`, `role = "hero"`); his squad is the unit the roster, the morale rules
--   and the campaign see.
-- * OLAB's +1 SP becomes one more wound level, once a battle: SP are what an OLAB stand can lose
--   before it is gone; an OpenD6 soldier's wound levels (unhurt, wounded, incapacitated, Ch3
--   Effects of Damage) are what he can lose. The first damage result that would hurt the Hero
--   is one level lighter: a wound is shrugged off, an incapacitated result only wounds.
-- * OLAB's "never routs" becomes: the Hero's squad never Breaks while he stands. A broken squad
--   (morale 0) is OpenD6's rout (Ch5 Broken Squads); while the Hero is on his feet his squad's
--   morale goes no lower than 1 (demoralized), so a "-2 and withdraw" that would rout it
--   withdraws instead.
-- * The +1 on a single dispute test: OpenD6 has none, so `herotest` from heroes.lua serves.
-- A Main Character gets none of this; both are noted to return in the next battle when they
-- are incapacitated.
--
-- The ruleset has no hook point at the damage result nor at a change of morale (its points are
-- `opend6fm.ranged.difficulty` and `opend6fm.cc.modifiers`, neither of which fits), so this
-- adapter wraps two functions of the ruleset's shared modules instead: `R.damage` (one damage
-- resolution on a soldier, opend6fm.ranged) and `U.set_morale` (opend6fm.util), plus
-- `M.test` (opend6fm.morale, the morale tests) only to reach the command's breakdown. It
-- leaves their results alone unless a Hero is concerned, and prints its own breakdown when it
-- changes one. Switching the house rule off loads the ruleset afresh, unwrapped.
local U = require "opend6fm.util"
local R = require "opend6fm.ranged"
local M = require "opend6fm.morale"

local A = { name = "opend6fm" }

local LABEL = "the club's heroes house rule, not OpenD6's"
A.label = LABEL
A.help = {
  hero = "THE CLUB'S HOUSE RULE, not OpenD6's (its Advanced Game, with heroes, is absent): declare\n" ..
    "a soldier a Hero (one wound level shrugged off once a battle, Ch3; his squad never Breaks\n" ..
    "while he stands, Ch5; +1 on `herotest`) or, with `main`, a Main Character (none of that),\n" ..
    "after OLAB 8.8.4; both return next battle if incapacitated. e.g. `hero wardens.w_sgt`",
  herotest = "THE CLUB'S HOUSE RULE, not OpenD6's: a single test of whether something can happen:\n" ..
    "d6, 4 or more, +1 if the soldier concerned is a Hero (OLAB 1.3, 8.8.4). e.g. `herotest wardens.w_sgt`",
}

A.builtin = {}
A.rules = "OpenD6 (the club's house rule: the source's Advanced Game, with its heroes, is absent): " ..
  "a Hero is a soldier, kept in the store; one wound level shrugged off once a battle instead of " ..
  "+1 SP (Ch3); his squad never Breaks while he stands (Ch5); the +1 test from heroes.lua"
-- OpenD6 routs by morale 0 (the squad's `state`), not by a marker: there is none to lift.
A.rout_marker = "opend6fm_no_rout_marker"
-- `hero` and `herotest` name a soldier (SQUAD.SOLDIER), not a squad.
function A.resolve(word)
  local found, e = pcall(umpire.element, word)
  if found and e then return e end
  local is_squad, sq = pcall(umpire.unit, word)
  if is_squad and sq then
    local l = {}
    for _, x in ipairs(sq:elements()) do l[#l + 1] = sq.id .. "." .. x.id end
    umpire.fail("under OpenD6 a Hero is one soldier, not a squad: name the soldier as SQUAD.SOLDIER, one of " ..
      table.concat(l, ", ") .. " (the club's heroes house rule)")
  end
  umpire.fail("no soldier `" .. word .. "`: name him as SQUAD.SOLDIER (`roster SQUAD` lists the ids)")
end

local function declared() return store.declared or {} end

-- The declared soldiers of a squad, Heroes first.
local function of_squad(sq)
  local d, out = declared(), {}
  for _, e in ipairs(sq:elements()) do
    if d[e.id] then out[#out + 1] = e end
  end
  table.sort(out, function(a, b) return (d[a.id] == "hero" and 0 or 1) < (d[b.id] == "hero" and 0 or 1) end)
  return out
end

-- A soldier's kind; a squad's is its Hero's (or Main Character's).
function A.kind(x)
  if x.kind == "element" then return declared()[x.id] end
  local l = of_squad(x)
  return l[1] and declared()[l[1].id] or nil
end

local function standing_hero(sq)
  for _, e in ipairs(of_squad(sq)) do
    if declared()[e.id] == "hero" and not e:has("incapacitated") then return e end
  end
end

function A.declare(e, kind)
  local d = declared()
  if d[e.id] == kind then return e.name .. " is already a " .. kind end
  if e:has("incapacitated") then
    umpire.fail(e.name .. " is incapacitated: only a soldier still in the battle can be declared (`hero` before play)")
  end
  local sq = umpire.unit(e.unit)
  for _, o in ipairs(of_squad(sq)) do
    if o.id ~= e.id then
      umpire.fail(sq.name .. " already has " .. o.name .. " as its " .. d[o.id] ..
        ": one Hero or Main Character a squad (the club's house rule)")
    end
  end
  d[e.id] = kind
  store.declared = d
  return e.name .. " of " .. sq.name .. " is a " .. (kind == "hero" and "Hero" or "Main Character") ..
    " (" .. LABEL .. ", OLAB 8.8.4)" ..
    (kind == "hero" and ": one wound level in hand (Ch3), his squad never Breaks while he stands (Ch5)" or "")
end

-- A squad is "fallen" for heroes.lua when its Hero or Main Character is incapacitated.
function A.eliminated(sq)
  for _, e in ipairs(of_squad(sq)) do
    if e:has("incapacitated") then return true end
  end
  return false
end

-- Who falls, for heroes.lua's messages.
function A.who(sq)
  local l = of_squad(sq)
  return l[1] and (l[1].name .. " of " .. sq.name) or sq.name
end

local function condition(e)
  if e:has("incapacitated") then return "incapacitated" end
  local w = e:has("wounded") and "wounded" or "unhurt"
  if A.kind(e) == "hero" then
    w = w .. ((store.shrugged or {})[e.id] and ", wound level spent" or ", wound level in hand")
  end
  return w
end

function A.strength(sq)
  local l = of_squad(sq)
  return string.format("%s %s; %d of %d soldiers standing, morale %d (%s)",
    l[1] and l[1].name or "?", l[1] and condition(l[1]) or "", sq.soldiers, sq.start_size, sq.morale, sq.state)
end

-- A fallen Hero or Main Character back for the campaign's next battle: on his feet again,
-- unhurt and without markers, counted among his squad's soldiers; his wound level is back.
-- The squad's other losses stay (they are not heroes).
function A.restore(sq, reason)
  for _, e in ipairs(of_squad(sq)) do
    if e:has("incapacitated") then
      sq:add("soldiers", 1, reason)
      if sq.cas_total > 0 then sq:add("cas_total", -1, reason) end
    end
    for _, m in ipairs(e:markers()) do e:unmark(m, reason) end
    local s = store.shrugged or {}
    if s[e.id] then s[e.id] = nil; store.shrugged = s end
  end
end

-- A campaign's battle ends: every Hero has his wound level back for the next battle (heroes.lua
-- brings back the fallen through `restore`).
umpire.on("battle_ends", function()
  if store.shrugged then store.shrugged = nil end
end)

-- One more wound level, once a battle (OLAB 8.8.4's +1 SP; Ch3 Effects of Damage). Levels:
-- 0 unhurt, 1 wounded, 2 incapacitated; a damage result that would take the Hero from his level
-- to a higher one takes him one level less far.
local NAMES = { [0] = "unhurt", [1] = "wounded", [2] = "incapacitated" }
local damage = R.damage
R.damage = function(ctx, e, hits, why)
  local wounds, incap, res, srv = damage(ctx, e, hits, why)
  if A.kind(e) ~= "hero" or (store.shrugged or {})[e.id] then return wounds, incap, res, srv end
  if e:has("incapacitated") or e:has("pending_incap") then return wounds, incap, res, srv end
  local now = (e:has("wounded") or e:has("pending_wound")) and 1 or 0
  local after = incap and 2 or math.min(2, now + wounds)
  if after <= now then return wounds, incap, res, srv end
  local c = ctx:check("A Hero's extra wound level: " .. e.name .. " (" .. LABEL .. "; OLAB 8.8.4, Ch3 Effects of Damage)")
  c:add(after, "wound levels: the damage leaves him " .. NAMES[after], "Ch3 Damage Table, Effects of Damage")
  c:add(-1, "a Hero shrugs off one wound level, once a battle: " .. LABEL .. ", in place of OLAB's +1 SP",
    "OLAB 8.8.4; Ch3 Effects of Damage")
  local left = after - 1
  c:result(NAMES[left] .. (left == now and ": the hit does him no harm" or "") .. "; his extra wound level is spent")
  local s = store.shrugged or {}
  s[e.id] = true
  store.shrugged = s
  umpire.record("hero_wound_level", { soldier = e.id, from = NAMES[after], to = NAMES[left] })
  if left == 2 then return wounds, incap, res, srv end
  if left == now then return 0, false, res, srv end
  return 1, false, res, srv
end

-- The Hero's squad never Breaks while he stands (OLAB 8.8.4's never routs; Ch5 Morale Statuses,
-- Broken Squads): its morale goes no lower than 1. In a morale test (casualty, charge,
-- receiving) the command's breakdown shows the raise; elsewhere (`chargefail`, `disengage`),
-- where no breakdown reaches this function, a line is printed.
local live
local function with_ctx(f)
  return function(ctx, ...)
    local before = live
    live = ctx
    local r = table.pack(pcall(f, ctx, ...))
    live = before
    if not r[1] then error(r[2], 0) end
    return table.unpack(r, 2, r.n)
  end
end
M.test = with_ctx(M.test)

local set_morale = U.set_morale
U.set_morale = function(sq, m, reason)
  local hero = standing_hero(sq)
  if hero and m < 1 and sq.morale >= 1 then
    m = 0
    local text = "a Hero's squad never Breaks while he stands: " .. LABEL .. ", in place of OLAB's never routs"
    if live then
      local c = live:check("The Hero holds " .. sq.name .. ": " .. hero.name .. " (" .. LABEL .. "; OLAB 8.8.4, Ch5 Broken Squads)")
      c:add(m, "morale 0: the squad would be broken and rout", "Ch5 Morale Statuses")
      c:add(1 - m, text, "OLAB 8.8.4; Ch5 Broken Squads")
      c:result("morale 1, demoralized: no rout")
    else
      print(sq.name .. ": morale 0 raised to 1 (demoralized, no rout): " .. hero.name ..
        " stands; " .. text .. " (OLAB 8.8.4; Ch5 Broken Squads)")
    end
    umpire.record("hero_holds", { squad = sq.id, hero = hero.id, morale = m })
    m = 1
    reason = reason .. "; raised to 1: " .. text .. " (OLAB 8.8.4; Ch5 Broken Squads)"
  end
  return set_morale(sq, m, reason)
end

return A
