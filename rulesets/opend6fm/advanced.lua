-- The Advanced Game's hooks [§10]. The forum text names heroes, magic, creatures and mounts,
-- the gamemaster's events, weather, smoke and fire, and armour types with their costs, and
-- gives the rules of none of them ("see the Advanced Game"). This file invents none: it gives a
-- house rule the places to put its own, as tables it fills in while it loads and as events it
-- handles. A house rule reaches them with `local A = require "opend6fm.advanced"`; the README's
-- "Hook points" lists each, and `scripts/opend6fm_advanced.lua` is a worked example.

local D = require "opend6fm.data"
local U = require "opend6fm.util"
local A = {}

-- Tables a house rule fills in while it loads (empty under the rules as written).
A.CREATURES = {}   -- key -> creature stat block (A.creature)
A.SPELLS = {}      -- key -> spell (A.spell)
A.ARMOUR = {}      -- key -> armour type (A.armour)

local ATTRS = { "agi", "int", "cor", "acu", "phy", "cha" }
local TRAINED = { "marksmanship", "throwing", "melee", "brawling", "command", "siege" }

local function bad(what, msg) error("opend6fm.advanced: " .. what .. ": " .. msg, 3) end

local function keys(t)
  local l = {}
  for k in pairs(t) do l[#l + 1] = k end
  table.sort(l)
  return #l > 0 and table.concat(l, ", ") or "none (a house rule enters them)"
end

-- A creature stat block (§10 Creatures: "figures can represent creatures"; the Riding skill
-- controls mounts): a soldier's attributes and Move, training, weapons, and natural weapons
-- (claws, fangs: +1 in close combat by the Ch4 chart) with their Damage Strength.
-- A.creature("war_wolf", { name = "War wolf", attrs = { agi = 4, phy = 3 }, move = 16,
--   train = { brawling = 1 }, natural = { fangs = 1 }, weapons = "" })
function A.creature(key, block)
  if type(key) ~= "string" or not key:match("^[%w_]+$") then bad("creature", "the key is a word of letters, digits and _ (\"war_wolf\")") end
  if type(block) ~= "table" or type(block.name) ~= "string" then bad("creature " .. key, "give a table with at least name = \"…\"") end
  for a in pairs(block.attrs or {}) do
    local ok = false
    for _, x in ipairs(ATTRS) do if x == a then ok = true end end
    if not ok then bad("creature " .. key, "`" .. tostring(a) .. "` is not an attribute (" .. table.concat(ATTRS, ", ") .. ")") end
  end
  for s in pairs(block.train or {}) do
    local ok = false
    for _, x in ipairs(TRAINED) do if x == s then ok = true end end
    if not ok then bad("creature " .. key, "`" .. tostring(s) .. "` is not a trained skill (" .. table.concat(TRAINED, ", ") .. ")") end
  end
  local weapons = {}
  for w in tostring(block.weapons or ""):gmatch("[%w_]+") do weapons[#weapons + 1] = w end
  for w, ds in pairs(block.natural or {}) do
    if math.type(ds) ~= "integer" then bad("creature " .. key, "natural weapon " .. tostring(w) .. " needs its Damage Strength, a whole number") end
    D.HOUSE_WEAPONS[w] = { name = w:gsub("_", " "), kind = "melee", cc = "natural", ds = ds,
      src = "natural weapon of the creature `" .. key .. "`, a house rule's stat block" }
    weapons[#weapons + 1] = w
  end
  table.sort(weapons)
  A.CREATURES[key] = { name = block.name, attrs = block.attrs or {}, move = block.move, train = block.train or {},
    weapons = table.concat(weapons, ",") }
end

-- A spell (§10 Magic: wizards "sling spells" as a hero's special action; the spell list is
-- absent): cast with `skill` (an attribute or a trained skill) against `difficulty` (a
-- straight test), or against the target's `resist` attribute (an opposed test, no winner on a
-- tie). What it does is the house rule's: it handles `opend6fm_spell`.
-- A.spell("firebolt", { name = "Firebolt", skill = "int", difficulty = 10 })
function A.spell(key, spec)
  if type(key) ~= "string" or not key:match("^[%w_]+$") then bad("spell", "the key is a word of letters, digits and _ (\"firebolt\")") end
  if type(spec) ~= "table" or type(spec.name) ~= "string" then bad("spell " .. key, "give a table with at least name = \"…\"") end
  local ok = false
  for _, x in ipairs(ATTRS) do if x == spec.skill then ok = true end end
  for _, x in ipairs(TRAINED) do if x == spec.skill then ok = true end end
  if not ok then bad("spell " .. key, "skill = one of " .. table.concat(ATTRS, ", ") .. ", " .. table.concat(TRAINED, ", ")) end
  if (spec.difficulty == nil) == (spec.resist == nil) then bad("spell " .. key, "give difficulty = N (a straight test) or resist = \"phy\" (opposed by the target), one of them") end
  A.SPELLS[key] = { name = spec.name, skill = spec.skill, difficulty = spec.difficulty, resist = spec.resist }
end

-- An armour type (§10 Advanced Weapons and Equipment: armour types, their Strength and AGI
-- modifiers and SGP costs, all absent): `armor SQUAD KEY` puts it on a squad.
-- A.armour("mail", { name = "Mail shirt", str = 1, agi = -1, cost = 4 })
function A.armour(key, spec)
  if type(key) ~= "string" or not key:match("^[%w_]+$") then bad("armour", "the key is a word of letters, digits and _ (\"mail\")") end
  if type(spec) ~= "table" or type(spec.name) ~= "string" then bad("armour " .. key, "give a table with at least name = \"…\"") end
  for _, f in ipairs { "str", "agi", "cost" } do
    if spec[f] ~= nil and math.type(spec[f]) ~= "integer" then bad("armour " .. key, f .. " is a whole number") end
  end
  A.ARMOUR[key] = { name = spec.name, str = spec.str or 0, agi = spec.agi or 0, cost = spec.cost or 0 }
end

function A.armour_of(key)
  local a = A.ARMOUR[key]
  if not a then
    umpire.fail("armor: no armour type `" .. key .. "`: armour types are in the absent Advanced Game; give the values (armor SQUAD str=1 agi=-1 cost=4) or switch on a house rule that enters types (known: " .. keys(A.ARMOUR) .. ")")
  end
  return a
end

-- A creature joins a squad (§10 Creatures): an element with the role `creature` and the
-- stat block's values; for a house rule's own command. Returns its handle.
function A.add_creature(sq, key, id, reason)
  local b = A.CREATURES[key]
  if not b then
    umpire.fail("no creature stat block `" .. tostring(key) .. "`: creatures are in the absent Advanced Game; a house rule enters them (known: " .. keys(A.CREATURES) .. ")")
  end
  local attrs = { role = "creature", weapons = b.weapons }
  for a, v in pairs(b.attrs) do attrs[a] = v end
  for s, v in pairs(b.train) do attrs["tr_" .. s] = v end
  if b.move then attrs.move = b.move end
  local e = sq:add_element { id = id, name = b.name, attrs = attrs, reason = reason }
  sq:add("soldiers", 1, e.name .. " joins")
  sq:add("start_size", 1, e.name .. " joins")
  return e
end

-- A spell of the table cast by `hero` (`special HERO cast SPELL [TARGET]`, turn.lua): a
-- straight test against its difficulty, or an opposed test against the target's attribute
-- (no winner on a tie, as close combat). Raises `opend6fm_spell` for the house rule to do what
-- the spell does. Returns the line to show.
function A.cast(ctx, hero, text)
  local key, tid = tostring(text or ""):match("^([%w_]+)%s*(%S*)$")
  local sp = key and A.SPELLS[key]
  if not sp then
    umpire.fail("special: no spell `" .. tostring(key) .. "` to cast: spells are in the absent Advanced Game; a house rule enters them (known: " .. keys(A.SPELLS) .. ")")
  end
  local target = tid ~= "" and umpire.element(tid) or nil
  if tid ~= "" and not target then umpire.fail("special: `" .. tid .. "` is not a soldier (SQUAD.SOLDIER)") end
  if sp.resist and not target then umpire.fail("special: " .. sp.name .. " is resisted by its target: name him (special " .. hero.id .. " cast " .. key .. " SQUAD.SOLDIER)") end
  local sv, slab
  for _, a in ipairs(ATTRS) do if a == sp.skill then sv = hero[a]; slab = a:upper() .. " " .. sv end end
  if not sv then sv = U.skill(hero, sp.skill); slab = sp.skill .. " " .. sv end
  local success, margin, score
  if sp.difficulty then
    local c = ctx:check("Casting " .. sp.name .. ": " .. hero.name .. " v difficulty " .. sp.difficulty .. " (Ch1 Straight Skill Tests; a house rule's spell)")
    score = U.open(c, sv, slab, hero)
    success, margin = score >= sp.difficulty, score - sp.difficulty
    c:result(success and "the spell works" or "the spell fails")
  else
    local rv = target[sp.resist]
    local r = ctx:opposed(function()
      local c = ctx:check(hero.name .. " casts " .. sp.name .. " (Ch1 Opposed Tests; a house rule's spell)")
      U.open(c, sv, slab, hero)
      return c
    end, function()
      local c = ctx:check(target.name .. " resists (Ch1 Opposed Tests)")
      U.open(c, rv, sp.resist:upper() .. " " .. rv, target)
      return c
    end, { tie = "none", names = { hero.name, target.name }, title = "Casting " .. sp.name, rule = "Ch1 Opposed Tests" })
    score = r.totals[1]
    success, margin = r.winner == 1, r.totals[1] - r.totals[2]
  end
  umpire.record("spell", key); umpire.record("score", score); umpire.record("success", success); umpire.record("margin", margin)
  umpire.emit("opend6fm_spell", { hero = hero, spell = key, target = target, success = success, margin = margin })
  return hero.name .. " casts " .. sp.name .. ": " .. (success and "it works" or "it fails") .. " (what it does is the house rule's)"
end

-- One special action per hero per turn (Sequence of Play, phase 6), spent by `special`
-- (turn.lua clears the record at the end of the turn).
function A.use_special(hero)
  store.special_done = store.special_done or {}
  if store.special_done[hero.id] then umpire.fail(hero.name .. " has taken his special action this turn (Sequence of Play, phase 6)") end
  local done = store.special_done
  done[hero.id] = true
  store.special_done = done
end

return A
