-- OpenD6 Advanced Game stand-ins, a club's example (not OpenD6's rules): a war wolf and its rider, mail shirts, a firebolt and dread, a hero's rally, smoke that thins away.
--
-- The forum text of OpenD6 Fantasy Miniatures names an Advanced Game (heroes, magic, creatures
-- and mounts, the gamemaster, weather, smoke and fire, armour types) and gives none of it. These
-- are one club's stand-ins, written to show each hook `rulesets/opend6fm` offers for it (its
-- README, "Hook points"): copy the file and put your own in. Every value and effect here is the
-- club's choice, not the source's.

if umpire.ruleset_name() ~= "opend6fm" then
  error("opend6fm_advanced is a house rule over OpenD6 Fantasy Miniatures: umpire --ruleset opend6fm --house opend6fm_advanced")
end
local A = require "opend6fm.advanced"
local U = require "opend6fm.util"

local HOUSE = "house rule opend6fm_advanced"

-- A creature's stat block: a soldier's attributes, Move and training, and a natural weapon
-- (its DS here; the Ch4 chart's +1 for natural weapons comes with it). `creature` adds one.
A.creature("war_wolf", { name = "War wolf", attrs = { agi = 4, int = 1, cor = 2, acu = 3, phy = 3, cha = 1 },
  move = 16, train = { brawling = 1 }, natural = { wolf_fangs = 1 } })

umpire.command {
  name = "creature",
  help = "a creature of this house rule's stat blocks joins a squad (war_wolf): creature rangers war_wolf wolf1",
  args = { { name = "squad", type = "unit" }, { name = "what", type = "text", help = "KEY ID" } },
  run = function(ctx, args)
    local key, id = args.what:match("^([%w_]+)%s+([%w_]+)$")
    if not key then umpire.fail("creature: write creature SQUAD KEY ID (creature rangers war_wolf wolf1)") end
    local e = A.add_creature(args.squad, key, id, "a creature of the " .. HOUSE)
    return e.name .. " joins " .. args.squad.name
  end,
}

-- A rider (`set SOLDIER mount CREATURE_ID`) fights from his mount's back at +1.
umpire.hook("opend6fm.cc.modifiers", function(c, ctx, s)
  if s.soldier.mount ~= "" then c:add(1, "mounted (" .. HOUSE .. ")") end
end)

-- An armour type: `armor SQUAD mail`.
A.armour("mail", { name = "Mail shirt", str = 1, agi = -1, cost = 4 })

-- A spell, cast as a hero's special action (`special HERO cast firebolt TARGET`): INT against
-- difficulty 9; when it works, the target is knocked prone.
-- A second, opposed: Dread, CHA against the target's CHA; when it works, his squad's morale
-- falls by 1.
A.spell("firebolt", { name = "Firebolt", skill = "int", difficulty = 9 })
A.spell("dread", { name = "Dread", skill = "cha", resist = "cha" })
umpire.on("opend6fm_spell", function(ev)
  if not ev.success or not ev.target then return end
  if ev.spell == "firebolt" and not ev.target:has("prone") then
    ev.target:mark("prone", "knocked down by a firebolt (" .. HOUSE .. ")")
  elseif ev.spell == "dread" then
    local sq = umpire.unit(ev.target.unit)
    U.set_morale(sq, sq.morale - 1, "dread (" .. HOUSE .. ")")
  end
end)

-- A hero's special action: `special HERO rally` steadies his squad, morale +1 (never above
-- its starting level).
umpire.on("opend6fm_special_action", function(ev)
  if ev.action ~= "rally" then return end
  local sq = umpire.unit(ev.hero.unit)
  U.set_morale(sq, sq.morale + 1, ev.hero.name .. " rallies his squad (" .. HOUSE .. ")")
end)

-- The gamemaster's smoke: `gmevent smoke …` lays a smoke template for two turns; each Special
-- Actions phase it thins, and after the second it is gone. `smoke` lists them.
umpire.on("opend6fm_gm_event", function(ev)
  if ev.name ~= "smoke" then return end
  local t = store.smoke or {}
  t[#t + 1] = { at = ev.text, turns = 2 }
  store.smoke = t
end)

umpire.on("opend6fm_special_phase", function()
  local t = store.smoke
  if not t then return end
  local left = {}
  for _, x in ipairs(t) do
    if x.turns > 1 then left[#left + 1] = { at = x.at, turns = x.turns - 1 } end
  end
  store.smoke = #left > 0 and left or nil
end)

umpire.command {
  name = "smoke",
  help = "the smoke templates on the table, with the turns each has left: smoke",
  args = {},
  run = function()
    local t = store.smoke
    if not t then return "no smoke on the table" end
    local out = {}
    for _, x in ipairs(t) do out[#out + 1] = x.at .. ": " .. x.turns .. " turn" .. (x.turns == 1 and "" or "s") .. " left" end
    return table.concat(out, "\n")
  end,
}
