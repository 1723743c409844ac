-- Heroes and Main Characters (OLAB 8.8.4, 1.3): `hero` declares them; Heroes never rout; the fallen return next battle.
--
-- The rule is written once here and fitted to a rule system by a small adapter in
-- scripts/heroes/RULESET.lua, chosen by the name of the ruleset in force. Each adapter says how
-- to read and declare a Hero, when a stand is out of the battle, and what the ruleset already
-- does itself (`builtin`), so that nothing is done twice; an adapter may also say how `heroes`
-- shows a unit's strength (`strength(u)`, else its SP), that `hero` names a soldier rather
-- than a unit (`declares = "element"`), who falls (`who(u)`), and its own help and label
-- (`help`, `label`). To use the rule with another ruleset, copy scripts/heroes/demo.lua and
-- add it to ADAPTERS.
--
-- What it does, where the ruleset does not: a Hero gets +1 SP when declared; a Hero never
-- routs (a Main Character does); a Hero adds +1 to a single dispute test (`herotest`). Always:
-- a Hero or Main Character that is eliminated is noted in the store to come back in the next
-- battle of the campaign (`heroes` lists them).
local ADAPTERS = { olab = "heroes.olab", demo = "heroes.demo", fld = "heroes.fld",
  undying_lands = "heroes.undying_lands", opend6fm = "heroes.opend6fm" }

local ruleset = umpire.ruleset_name()
if not ADAPTERS[ruleset or ""] then
  error("heroes.lua has no adapter for " .. (ruleset and ("the ruleset " .. ruleset) or "house rules alone") ..
    ": write scripts/heroes/NAME.lua (copy scripts/heroes/demo.lua) and add it to ADAPTERS in " ..
    "scripts/heroes.lua", 0)
end
local chosen = require(ADAPTERS[ruleset])
local function adapter() return chosen end
-- What `hero` and `herotest` name: a unit, or (OpenD6) a soldier of one, which the adapter
-- finds from the word typed (`resolve`), so that a wrong name is refused with the fix.
local TARGET = chosen.resolve and "text" or "unit"
local function target(x) return (x ~= nil and chosen.resolve) and chosen.resolve(x) or x end
local HELP = chosen.help or {}

umpire.command {
  name = "hero",
  help = HELP.hero or ("declare a Hero (+1 SP, never routs, +1 on dispute tests) or, with `main`, a Main\n" ..
    "Character (no SP bonus, routs) before play (8.8.4). e.g. `hero boudica main`"),
  args = {
    { name = "stand", type = TARGET, help = TARGET == "unit" and "the stand" or "the soldier (SQUAD.SOLDIER)" },
    { name = "main", type = "flag", help = "a Main Character rather than a Hero" },
  },
  run = function(ctx, args)
    return adapter().declare(target(args.stand), args.main and "main character" or "hero")
  end,
}

umpire.command {
  name = "heroes",
  help = "the Heroes and Main Characters in the game, and the fallen who return in the next\n" ..
    "battle of the campaign (8.8.4)",
  args = {},
  run = function(ctx)
    local A = adapter()
    local lines = { "rules: " .. A.rules }
    local all = umpire.units("all")
    for _, u in ipairs(all) do
      local kind = A.kind(u)
      if kind then
        lines[#lines + 1] = string.format("%s (%s, %s): %s%s", u.id, u.side, kind,
          A.strength and A.strength(u) or string.format("SP %d", u.sp), A.eliminated(u) and ", fallen" or "")
      end
    end
    local fallen = store.fallen or {}
    local ids = {}
    for id in pairs(fallen) do ids[#ids + 1] = id end
    table.sort(ids)
    if #ids > 0 then
      lines[#lines + 1] = "to return in the next battle of the campaign (8.8.4):"
      for _, id in ipairs(ids) do
        local f = fallen[id]
        lines[#lines + 1] = string.format("  %s (%s, %s), fell in round %d", f.name, f.side, f.kind, f.round)
      end
    end
    return table.concat(lines, "\n")
  end,
}

-- The fallen come back next battle: noted when a Hero or Main Character is eliminated.
umpire.on("unit_damaged", function(ev)
  local A = adapter()
  local u = ev.unit
  local kind = A.kind(u)
  if not kind or not A.eliminated(u) then return end
  local fallen = store.fallen or {}
  if fallen[u.id] then return end
  local name = A.who and A.who(u) or u.name
  fallen[u.id] = { name = name, side = u.side, kind = kind, round = umpire.clock().round or 0 }
  store.fallen = fallen
  print(string.format("%s (%s) falls, and will return in the next battle of the campaign (8.8.4%s)",
    name, kind, A.label and ("; " .. A.label) or ""))
end)

-- A campaign's battle ends (`battle end`): the fallen come back for the next one (8.8.4), as
-- the adapter restores them (at their starting strength), so the roster keeps them.
--
-- For the campaign (`battle end` reads what its events record): `heroes`, each Hero's and Main
-- Character's fate in this battle (stood, fell and returns, or lost with a unit no longer in
-- the game), for the heroes' careers.
umpire.on("battle_ends", function()
  local A = adapter()
  local fallen = store.fallen or {}
  local fates = {}
  for _, u in ipairs(umpire.units("all")) do
    local kind = A.kind(u)
    if kind then
      local f = fallen[u.id]
      fates[#fates + 1] = { id = u.id, name = A.who and A.who(u) or u.name, side = u.side, kind = kind,
        fate = f and "fell" or "stood", round = f and f.round or nil }
    end
  end
  for id, f in pairs(fallen) do
    local found, u = pcall(umpire.unit, id)
    if not (found and u) then
      fates[#fates + 1] = { id = id, name = f.name, side = f.side, kind = f.kind, fate = "lost", round = f.round }
    end
  end
  table.sort(fates, function(a, b) return a.id < b.id end)
  if #fates > 0 then umpire.record("heroes", fates) end
  local back = {}
  for id, f in pairs(fallen) do
    local found, u = pcall(umpire.unit, id)
    if found and u and A.restore then
      A.restore(u, "fallen, " .. f.name .. " returns for the next battle (8.8.4)")
      back[#back + 1] = f.name
    end
  end
  store.fallen = nil
  if #back > 0 then
    table.sort(back)
    print("back for the next battle (8.8.4): " .. table.concat(back, ", "))
  end
end)

-- What the campaign's next battle must know (event `next_battle`, at `campaign new` and after a
-- `battle end`): the Heroes an adapter keeps in the store (FLD, Undying Lands, OpenD6) are
-- set in the next battle's store, so they are still Heroes there.
umpire.on("next_battle", function()
  if not store.declared then return end
  -- A copy: what `store` gives is a view of the stored value, which a record does not take.
  local declared = {}
  for id, kind in pairs(store.declared) do declared[id] = kind end
  umpire.record("carry.heroes", { declared = declared })
end)

-- A Hero never routs (a Main Character does), unless the ruleset sees to it itself.
umpire.on("unit_marked", function(ev)
  local A = adapter()
  if A.builtin.never_rout then return end
  local u = ev.unit
  if ev.marker == A.rout_marker and A.kind(u) == "hero" and not A.eliminated(u) then
    u:unmark(A.rout_marker, "a Hero never routs (8.8.4)")
  end
end)

-- The +1 on a single dispute test, for rulesets that have no such test of their own.
umpire.command {
  name = "herotest",
  help = HELP.herotest or ("a single test of whether something can happen: D6, 4 or more, +1 if the stand\n" ..
    "concerned is a Hero (1.3, 8.8.4). e.g. `herotest hector`. Under OLAB use `dispute test`"),
  args = { { name = "stand", type = TARGET, optional = true,
    help = TARGET == "unit" and "the stand concerned" or "the soldier concerned (SQUAD.SOLDIER)" } },
  run = function(ctx, args)
    local A = adapter()
    args.stand = target(args.stand)
    if A.builtin.dispute then
      error(A.name .. " has its own test with the Hero's +1: `dispute test " ..
        (args.stand and args.stand.id or "STAND") .. "`", 0)
    end
    local c = ctx:check("Dispute test 1.3" .. (args.stand and (": " .. args.stand.name) or "") ..
      (A.label and (" (OLAB; " .. A.label .. ")") or ""))
    c:roll("1d6", "dispute D6", "1.3", args.stand)
    if args.stand and A.kind(args.stand) == "hero" then
      c:add(1, "Hero" .. (A.label and (", " .. A.label) or ""), "1.3, 8.8.4")
    end
    local yes = c:total() >= 4
    c:result(yes and "it happens (4+)" or "it does not (under 4)")
    return yes and "yes" or "no"
  end,
}
