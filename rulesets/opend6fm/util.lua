-- Shared helpers: the open-ended roll, skills with their penalties, morale status, weapons,
-- and a small key=value reader for the measured inputs a command takes.

local D = require "opend6fm.data"
local U = {}

-- Ch1 "Critical Failures" / "Critical Successes" [§2.6.1]: one open-ended die added to `mod`
-- on check `c`. A first die of 1 scores 0 whatever the modifiers; a 6 adds and rolls again
-- (a later 1 is only 1). Returns the score and whether it was a critical failure / success.
function U.open(c, mod, label, by)
  local _, r = c:roll("1d6!", "open-ended d6", "Ch1 Critical Successes", by)
  if mod ~= 0 or label then c:add(mod, label or "modifier") end
  local first = r[1] -- the first die rolled: an open-ended roll keeps every die, in order
  if first == 1 then
    c:add(-c:total(), "critical failure: the score is 0", "Ch1 Critical Failures")
    return 0, "failure"
  end
  return c:total(), (first == 6) and "success" or nil
end

-- A plain d6 (not a test, no criticals): LOS disputes, deviation, and initiative by option.
function U.plain(c, mod, label, by)
  c:roll("1d6", "d6", nil, by)
  if mod ~= 0 or label then c:add(mod, label or "modifier") end
  return c:total()
end

-- Split a roll of `n` open-ended dice (`nd6!`) into each soldier's chain of dice. The dice
-- come in the order rolled, each die followed by the dice its explosions add, and every 6
-- explodes: so a die after a 6 is an extra of the same chain, read straight from the kept
-- values. Only if that does not give `n` chains (a die stopped exploding at the cap on
-- explosions) are the dice's own flags read (`r.dice`, a table for every die).
function U.chains(r, n)
  local out, m, six = {}, 0, false
  for i = 1, #r do
    local v = r[i]
    if six then
      local ch = out[m]
      ch[#ch + 1] = v
    else
      m = m + 1
      out[m] = { v }
    end
    six = v == 6
  end
  if m == n or n == nil and not six then return out end
  out = {}
  for _, d in ipairs(r.dice) do
    if d.extra and #out > 0 then table.insert(out[#out], d.value)
    else out[#out + 1] = { d.value } end
  end
  return out
end

-- n open-ended rolls at once, each + skill: { {dice = {...}, score = n, crit = ...}, ... }
function U.many(n, skill)
  if n <= 0 then return {} end
  local _, r = umpire.roll(n .. "d6!", { label = "open-ended d6 x" .. n })
  local res = {}
  for _, ch in ipairs(U.chains(r, n)) do
    local sum = 0
    for _, v in ipairs(ch) do sum = sum + v end
    local crit = ch[1] == 1 and "failure" or (ch[1] == 6 and "success" or nil)
    res[#res + 1] = { dice = ch, score = crit == "failure" and 0 or sum + skill, crit = crit }
  end
  return res
end

function U.chain_text(x)
  if #x.dice == 1 then return tostring(x.dice[1]) .. "→" .. x.score end
  return "[" .. table.concat(x.dice, "+") .. "]→" .. x.score
end

-- Ch5 "Morale Statuses" [§6.2]
function U.state_of(m)
  if m >= 4 then return "steady" elseif m >= 2 then return "shaken"
  elseif m == 1 then return "demoralized" else return "broken" end
end

function U.state(sq) return U.state_of(sq.morale) end

-- Skills [§2.1]: attribute + training. Marksmanship's attribute is an option (AMB-31).
local SKILL_ATTR = { melee = "agi", brawling = "agi", throwing = "cor", command = "cha", siege = "cor" }
U.SKILLS = { "marksmanship", "throwing", "melee", "brawling", "command", "siege" }

function U.skill_attr(skill)
  if skill == "marksmanship" then return umpire.option("marksmanship_attribute") end
  return SKILL_ATTR[skill]
end

-- The skill as trained, before any penalty.
function U.base_skill(e, skill)
  local a = U.skill_attr(skill)
  if not a then umpire.fail("no skill `" .. skill .. "` (skills: " .. table.concat(U.SKILLS, ", ") .. ")") end
  return e[a] + e["tr_" .. skill]
end

-- The skill a soldier rolls now, with the factors as {value, label, rule} (AMB-14, Ch5 rout),
-- and the skill as trained (U.base_skill). `sq`, his squad's handle, and `wounded`, whether he
-- is wounded, when the caller has them.
function U.skill(e, skill, sq, wounded)
  local base = U.base_skill(e, skill)
  local v = base
  local f = {}
  sq = sq or umpire.unit(e.unit)
  if sq.morale == 0 and not (skill == "command" and e.role == "sergeant") then
    f[#f + 1] = { -v, "broken squad: skills are 0", "Ch5 Morale Statuses (broken)" }
    return 0, f, base
  end
  if wounded == nil then wounded = e:has("wounded") end
  if wounded and not (skill == "command" and umpire.option("wounded_sergeant") == "full") then
    f[#f + 1] = { -1, "wounded: -1 to every skill", "Ch3 Effects of Damage; AMB-14" }
    v = v - 1
  end
  return v, f, base
end

-- Strength for resisting damage [§4.9.1]: PHY + armour, -1 wounded.
function U.strength(e)
  local s = e.phy + e.armor_str - (e:has("wounded") and 1 or 0)
  return s
end

-- Movement rates [§3.2]: Walk = Move/2 + AGI, Run = Move + AGI; not rounded.
function U.rates(e)
  local agi = e.agi + e.armor_agi
  local pen = (e:has("wounded") and umpire.option("wound_walk") == "minus_one") and 1 or 0
  local walk = e.move / 2 + agi - pen
  if walk == math.floor(walk) then walk = math.floor(walk) end
  local run = (not e:has("wounded")) and (e.move + agi) or nil
  return walk, run, pen
end

-- Weapons: the entry of the source's values, with the options in force. `where` (text, or
-- the soldier's handle: his name is read only for an error) says whose weapon it is. `memo` (a table the
-- command makes for itself) keeps each weapon for the rest of the command, so a volley or a
-- fight reads the umpire's entries (`store.weapons`) and the options once, not once a soldier.
function U.weapon(key, where, memo)
  local out = memo and memo[key]
  if out then return out end
  local k = D.WEAPON_ALIASES[key] or key
  local w = D.WEAPONS[k] or D.HOUSE_WEAPONS[k]
  local entered = store.weapons
  local filled = entered and entered[k]
  if not w and filled and filled.kind then
    -- a weapon the umpire entered for this game (the Weapons Chart is absent, AMB-49)
    w = { name = k, src = "the umpire's entry for this game, not the source's" }
  end
  if not w then
    local names = {}
    for n in pairs(D.WEAPONS) do names[#names + 1] = n end
    table.sort(names)
    if type(where) == "table" then where = where.name end
    umpire.fail("no weapon `" .. key .. "`" .. (where and (" (" .. where .. ")") or "") ..
      ": the source's Weapons Chart is absent; the weapons it gives values for are " .. table.concat(names, ", "))
  end
  -- copied with `next`: the order of a copy does not matter, and `pairs` would sort the keys
  out = {}
  for a, b in next, w do out[a] = b end
  out.key = k
  if filled then
    for a, b in pairs(filled) do out[a] = b end
    if D.WEAPONS[k] then out.src = w.src .. "; the umpire's values for this game: `weapon " .. k .. "`" end
  end
  if k == "heavy_crossbow" and umpire.option("heavy_crossbow_ds") == "example" then out.ds = w.ds_example end
  if w.sheet and umpire.option("sheet_ranges") == "metres" then
    for _, b in ipairs { "s", "m", "l" } do if out[b] then out[b] = out[b] / 2 end end
  end
  if memo then memo[key] = out end
  return out
end

function U.need(w, field, what)
  if w[field] == nil then
    umpire.fail(w.name .. " has no " .. what .. " in the source (" .. w.src ..
      "): fill in the absent Weapons Chart for this game with `weapon " .. w.key .. " " .. field .. "=N`")
  end
  return w[field]
end

-- The words of a list such as "medium_crossbow,magic_melee", split once for each different
-- text (a soldier's weapons are read for every shot and every blow). The list is shared: read
-- it, do not change it.
local words_of, words_n = {}, 0
function U.words(text)
  text = tostring(text or "")
  local l = words_of[text]
  if l then return l end
  l = {}
  for k in text:gmatch("[%w_]+") do l[#l + 1] = k end
  if words_n >= 256 then words_of, words_n = {}, 0 end
  words_of[text], words_n = l, words_n + 1
  return l
end

-- A soldier's weapon keys, in the order listed (a shared list: do not change it).
function U.weapons_of(e) return U.words(e.weapons) end

-- The soldier's weapon of a kind (first listed), or nil. `memo` as for U.weapon.
function U.weapon_of(e, kind, memo)
  for _, k in ipairs(U.weapons_of(e)) do
    local w = U.weapon(k, e.name, memo)
    if w.kind == kind then return w end
  end
end

-- Reads `key=value` words and flags from the rest of a command line. `spec` maps each key to
-- "int", "number", "word", "list" (numbers separated by `/`), "flag", or a table of choices.
function U.opts(text, spec, cmd)
  local o = {}
  for w in tostring(text or ""):gmatch("%S+") do
    local k, v = w:match("^([%w_]+)=(.+)$")
    k = k or w
    local t = spec[k]
    if not t then
      local keys = {}
      for n in pairs(spec) do keys[#keys + 1] = n end
      table.sort(keys)
      umpire.fail(cmd .. ": `" .. w .. "` is not understood; it takes " .. table.concat(keys, ", "))
    end
    if t == "flag" then
      if v then umpire.fail(cmd .. ": `" .. k .. "` is a flag: write it alone") end
      o[k] = true
    elseif v == nil then
      umpire.fail(cmd .. ": `" .. k .. "` needs a value: " .. k .. "=…")
    elseif t == "int" or t == "number" then
      local n = tonumber(v)
      if not n or (t == "int" and n ~= math.floor(n)) then
        umpire.fail(cmd .. ": `" .. w .. "` needs a " .. (t == "int" and "whole number" or "number"))
      end
      o[k] = n
    elseif t == "list" and tonumber(v) then
      o[k] = { tonumber(v) } -- one number: no separator to split at (a gmatch costs as much as a host call)
    elseif t == "list" then
      local l = {}
      for x in v:gmatch("[^/,]+") do
        local n = tonumber(x)
        if not n then umpire.fail(cmd .. ": `" .. w .. "`: `" .. x .. "` is not a number (write 12/14/16)") end
        l[#l + 1] = n
      end
      o[k] = l
    elseif type(t) == "table" then
      local okv = false
      for _, c in ipairs(t) do if c == v then okv = true end end
      if not okv then umpire.fail(cmd .. ": `" .. w .. "`: " .. k .. " is one of " .. table.concat(t, ", ")) end
      o[k] = v
    else
      o[k] = v
    end
  end
  return o
end

-- The sergeant of a squad standing, or nil.
function U.sergeant(sq)
  local l = sq:elements("role=sergeant unmarked:incapacitated")
  return l[1]
end

function U.standing(sq) return sq:elements("unmarked:incapacitated") end

function U.num(x)
  if type(x) == "number" and x == math.floor(x) then return string.format("%d", x) end
  return tostring(x)
end

-- The set of a squad's or soldier's markers, from one host call (a has() is one each).
function U.marker_set(x)
  local m = {}
  for _, k in ipairs(x:markers()) do m[k] = true end
  return m
end

-- Marks a squad or soldier unless it already carries the marker.
function U.mark(x, m, reason)
  if not x:has(m) then x:mark(m, reason) end
end

function U.unmark(x, m, reason)
  if x:has(m) then x:unmark(m, reason) end
end

function U.sign(n) return n >= 0 and ("+" .. n) or tostring(n) end

-- Ch5 Morale Levels: set the level, never above the start nor below 0, and the status with it.
function U.set_morale(sq, m, reason)
  if m > sq.morale_start then m = sq.morale_start end
  if m < 0 then m = 0 end
  if m ~= sq.morale then sq:set("morale", m, reason) end
  local st = U.state_of(m)
  if st ~= sq.state then sq:set("state", st, reason) end
  return m, st
end

-- Ch5 "50% or more casualties" (AMB-20, option half_casualties).
function U.half_down(sq)
  local lost = sq.cas_total
  if umpire.option("half_casualties") == "wounded_count" then
    lost = lost + #sq:elements("marked:wounded unmarked:incapacitated")
  end
  return sq.start_size > 0 and lost * 2 >= sq.start_size, lost
end

-- A soldier's damage result applied (Ch3 Effects of Damage; AMB-17): `wounds` new wound
-- results, `incap` an incapacitated result. Counts the squad's casualties of the turn once a
-- soldier (the sergeant sets sergeant_hit instead, Ch5). Returns what became of him.
function U.apply_damage(e, wounds, incap, why, from)
  if e:has("incapacitated") or (wounds == 0 and not incap) then return "no effect" end
  local sq = umpire.unit(e.unit)
  local total = wounds + (e:has("wounded") and 1 or 0)
  local res
  if incap or total >= 2 then
    e:mark("incapacitated", why .. (incap and "" or " (a second wound, AMB-17)"))
    sq:add("soldiers", -1, e.name .. " out of the battle")
    sq:add("cas_total", 1, e.name .. " incapacitated")
    res = "incapacitated"
  else
    e:mark("wounded", why)
    if not e:has("prone") then e:mark("prone", "a wounded soldier is laid prone (Ch3 Effects of Damage)") end
    res = "wounded"
  end
  -- a soldier counts once a turn as a casualty, however often he is hit (AMB-17)
  if not e:has("hit_turn") then
    e:mark("hit_turn", "a casualty this turn", "round")
    sq:add("cas_all", 1, "a soldier hit this turn (Ch4 force back)")
    if e.role == "sergeant" then sq:set("sergeant_hit", true, "the sergeant is hit (Ch5 threat +2)")
    else sq:add("cas_turn", 1, "a casualty this turn (Ch5)") end
  end
  if from == "close" and not e:has("hit_cc") then
    e:mark("hit_cc", "a close combat casualty this turn (AMB-34)", "round")
    sq:add("cas_cc", 1, "a close combat casualty (AMB-34)")
  end
  return res
end

return U
