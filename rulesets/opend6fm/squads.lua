-- Ch1 Soldiers and Squads, Ch7 Creating Squads: composition, pricing (SGP), record sheet,
-- movement rates, and the weapons the source gives values for.

local D = require "opend6fm.data"
local U = require "opend6fm.util"

local ATTRS = { "agi", "int", "cor", "acu", "phy", "cha" }
local S = {}

-- The kit of the squad's standard soldiers (or, lacking one, the sergeant's).
local function standard(sq)
  return sq:elements("role=standard")[1] or sq:elements("role=sergeant")[1]
end

-- Checks the composition against Ch1 and the troop listing (Ch7); returns the problems.
function S.problems(sq)
  local p = {}
  local all = sq:elements()
  local n, sgts, champs, stds = #all, #sq:elements("role=sergeant"), #sq:elements("role=champion"), #sq:elements("role=standard")
  if n < 3 or n > 10 then p[#p + 1] = n .. " soldiers: a squad has 3 to 10 (Ch1 Soldiers and Squads)" end
  if sgts ~= 1 then p[#p + 1] = sgts .. " sergeants: a squad has exactly one (`set " .. sq.id .. ".N role sergeant`)" end
  if champs > 2 then p[#p + 1] = champs .. " champions: at most two (Ch7)" end
  if stds < 1 then p[#p + 1] = "no standard soldier: a squad has at least one (Ch1)" end
  local base = standard(sq)
  local troop = D.TROOPS[sq.troop or ""]
  if troop then
    if sq.quality ~= troop.quality then p[#p + 1] = "quality " .. sq.quality .. " is not the listing's " .. troop.quality .. " (" .. troop.name .. ", Ch7)" end
    if n < troop.size[1] or n > troop.size[2] then p[#p + 1] = n .. " soldiers: the listing's size is " .. troop.size[1] .. "-" .. troop.size[2] .. " (" .. troop.name .. ", Ch7)" end
  end
  for _, e in ipairs(all) do
    if e.role == "standard" and base then
      for _, a in ipairs(ATTRS) do
        if e[a] ~= base[a] then p[#p + 1] = e.name .. ": " .. a .. " " .. e[a] .. " differs from the squad's " .. base[a] .. " (standard soldiers are identical, Ch1)" end
      end
      if e.weapons ~= base.weapons then p[#p + 1] = e.name .. ": weapons differ from the squad's (Ch1)" end
      for _, s in ipairs(U.SKILLS) do
        if e["tr_" .. s] ~= base["tr_" .. s] then p[#p + 1] = e.name .. ": " .. s .. " training " .. e["tr_" .. s] .. " differs from the squad's " .. base["tr_" .. s] .. " (standard soldiers are identical, Ch1)" end
      end
      if e.move ~= base.move then p[#p + 1] = e.name .. ": Move " .. e.move .. " differs from the squad's " .. base.move .. " (Ch1)" end
    end
    -- a sergeant may better only his command (Ch7 Troop Lists, Sergeants)
    if e.role == "sergeant" and base and e ~= base then
      for _, s in ipairs(U.SKILLS) do
        if s ~= "command" and e["tr_" .. s] > base["tr_" .. s] then
          p[#p + 1] = e.name .. ": a sergeant may raise only his command, not " .. s .. " (Ch7 Troop Lists, Sergeants)"
        end
      end
    end
    if troop then
      if e.move ~= troop.move then p[#p + 1] = e.name .. ": Move " .. e.move .. " is not the listing's " .. troop.move .. " (" .. troop.name .. ")" end
      if troop.armor == "none" and (e.armor_str ~= 0 or e.armor_agi ~= 0 or e.armor_cost ~= 0) then
        p[#p + 1] = e.name .. ": the listing allows no armour (" .. troop.name .. ", Ch7 Troop Lists)"
      end
      for _, a in ipairs(ATTRS) do
        if e[a] ~= troop.attrs[a] then p[#p + 1] = e.name .. ": " .. a .. " " .. e[a] .. " is not the listing's " .. troop.attrs[a] .. " (" .. troop.name .. ")" end
      end
      for _, s in ipairs(U.SKILLS) do
        local lim = troop.skills
        if e.role == "sergeant" and s == "command" then lim = troop.sergeant
        elseif e.role == "champion" then lim = troop.champions end
        if e["tr_" .. s] > lim then p[#p + 1] = e.name .. ": " .. s .. " training " .. e["tr_" .. s] .. " is over the listing's level " .. lim .. " (Ch7; AMB-43)" end
      end
    end
  end
  return p
end

-- Ch7 [§9.3]: every cost, per soldier and in all, as a breakdown.
function S.price(ctx, sq)
  local base = standard(sq)
  if not base then umpire.fail(sq.id .. " has no soldiers: add them (`add element " .. sq.id .. " ID NAME`)") end
  local n = #sq:elements()
  local c = ctx:check("Squad cost " .. sq.name .. " (Ch7 Creating Your Forces)")
  c:add(D.QUALITY_COST[sq.quality], "quality " .. sq.quality, "Ch7 troop quality")
  c:add(base.move, "Move " .. base.move, "Ch7: 1 SGP a point")
  local asum, alist = 0, {}
  for _, a in ipairs(ATTRS) do asum = asum + base[a]; alist[#alist + 1] = base[a] end
  c:add(asum, "attributes " .. table.concat(alist, "+"), "Ch7 Attributes and Skills")
  for _, s in ipairs(U.SKILLS) do
    local t = base["tr_" .. s]
    if t > 0 then c:add(t, "training " .. s .. " +" .. t, "Ch7: 1 SGP a level") end
  end
  for _, k in ipairs(U.weapons_of(base)) do
    local w = U.weapon(k, base.name)
    c:add(U.need(w, "cost", "SGP cost"), w.name, "Ch7 Weapons and Armor")
  end
  if base.armor_cost > 0 then c:add(base.armor_cost, "armour", "Ch7 Weapons and Armor") end
  local per = c:total()
  c:result(per .. " SGP a soldier")
  local t = ctx:check("Squad total " .. sq.name .. " (Ch7 Sergeants and Champions)")
  t:add(per * n, per .. " x " .. n .. " soldiers (sergeant and champions included)", "Ch7")
  local lines = { { "per soldier", per }, { "soldiers", n }, { "base", per * n } }
  for _, e in ipairs(sq:elements("role=sergeant|champion")) do
    for _, s in ipairs(U.SKILLS) do
      local extra = e["tr_" .. s] - base["tr_" .. s]
      if extra > 0 then
        t:add(extra, e.role .. " " .. e.name .. ": " .. s .. " +" .. extra .. " (skill " .. U.base_skill(e, s) .. ")", "Ch7")
        lines[#lines + 1] = { e.id .. " " .. s, extra }
      end
    end
    local have = {}
    for _, k in ipairs(U.weapons_of(base)) do have[k] = true end
    for _, k in ipairs(U.weapons_of(e)) do
      if not have[k] then
        local w = U.weapon(k, e.name)
        local cost = U.need(w, "cost", "SGP cost")
        t:add(cost, e.role .. " " .. e.name .. ": " .. w.name, "Ch7")
        lines[#lines + 1] = { e.id .. " " .. w.key, cost }
      end
    end
  end
  t:result(t:total() .. " SGP")
  umpire.record("per_soldier", per)
  umpire.record("soldiers", n)
  umpire.record("base", per * n)
  umpire.record("total", t:total())
  return per, t:total()
end

umpire.command {
  name = "sgp",
  help = "price a squad in Squad Generation Points, every cost shown, and check it against the limits (Ch7): sgp ice",
  args = { { name = "squad", type = "unit", help = "the squad to price" },
           { name = "budget", type = "int", optional = true, help = "the side's SGP budget, to compare" } },
  run = function(ctx, args)
    local sq = args.squad
    local per, total = S.price(ctx, sq)
    local p = S.problems(sq)
    local out = { sq.name .. ": " .. per .. " SGP a soldier, " .. total .. " SGP in all" }
    if args.budget then out[#out + 1] = "budget " .. args.budget .. ": " .. (total <= args.budget and ("within it, " .. (args.budget - total) .. " left") or ("over it by " .. (total - args.budget))) end
    if #p == 0 then out[#out + 1] = "within the limits of Ch1 and the troop listing"
    else for _, x in ipairs(p) do out[#out + 1] = "LIMIT: " .. x end end
    umpire.record("problems", p)
    return table.concat(out, "\n")
  end,
}

-- Ch7: build a squad from a troop listing or typed attributes, then price it.
umpire.command {
  name = "raise",
  help = "create a squad with its soldiers and price it (Ch7): raise COMMAND ID NAME-WORD size=10 troop=arctic_human "
    .. "quality=elite train=marksmanship:2,melee:2,brawling:2,command:1 weapons=medium_crossbow,magic_melee "
    .. "sergeant=command:1 champion=marksmanship:1,heavy_crossbow [attrs=3/2/2/2/3/2 move=10 champion2=…]",
  args = { { name = "command", type = "group", help = "the command (group) it joins" },
           { name = "rest", type = "text", help = "ID NAME then key=value words" } },
  run = function(ctx, args)
    local id, name, rest = args.rest:match("^(%S+)%s+(%S+)%s*(.*)$")
    if not id then umpire.fail("raise: write raise COMMAND ID NAME key=value… (help raise)") end
    local o = U.opts(rest, { size = "int", troop = "word", quality = { "average", "veteran", "elite" },
      train = "word", weapons = "word", sergeant = "word", champion = "word", champion2 = "word",
      attrs = "list", move = "int" }, "raise")
    local troop = o.troop and D.TROOPS[o.troop]
    if o.troop and not troop then umpire.fail("raise: no troop listing `" .. o.troop .. "` (the source gives only arctic_human); type attrs=AGI/INT/COR/ACU/PHY/CHA move=N instead") end
    local base = {}
    if troop then for a, v in pairs(troop.attrs) do base[a] = v end; base.move = troop.move end
    if o.attrs then
      if #o.attrs ~= 6 then umpire.fail("raise: attrs= takes six values AGI/INT/COR/ACU/PHY/CHA") end
      for i, a in ipairs(ATTRS) do base[a] = o.attrs[i] end
    end
    if o.move then base.move = o.move end
    if base.agi == nil or base.move == nil then umpire.fail("raise: give troop=arctic_human, or attrs=… and move=…") end
    local function train(text, into)
      for k, v in tostring(text or ""):gmatch("([%a_]+):(%d+)") do
        if not U.skill_attr(k) then umpire.fail("raise: no skill `" .. k .. "` (" .. table.concat(U.SKILLS, ", ") .. ")") end
        into["tr_" .. k] = (into["tr_" .. k] or 0) + tonumber(v)
      end
    end
    train(o.train, base)
    base.weapons = o.weapons or ""
    for k in base.weapons:gmatch("[%w_]+") do U.weapon(k, "weapons=") end
    local size = o.size or 10
    local quality = o.quality or (troop and troop.quality) or "average"
    local elems = {}
    local function copy() local t = {}; for k, v in pairs(base) do t[k] = v end; return t end
    local function extra_weapons(t, text)
      for k in tostring(text or ""):gmatch("[%w_]+") do
        if not k:find(":") and D.WEAPONS[D.WEAPON_ALIASES[k] or k] then
          t.weapons = (t.weapons ~= "" and (t.weapons .. ",") or "") .. k
        end
      end
    end
    local sg = copy(); sg.role = "sergeant"; train(o.sergeant, sg)
    elems[1] = { id = id .. "_sgt", name = name .. " sergeant", attrs = sg }
    local nch = 0
    for _, key in ipairs { "champion", "champion2" } do
      if o[key] then
        local ch = copy(); ch.role = "champion"; train(o[key], ch); extra_weapons(ch, o[key])
        nch = nch + 1
        elems[#elems + 1] = { id = id .. "_ch" .. nch, name = name .. " champion " .. nch, attrs = ch }
      end
    end
    for i = 1, size - 1 - nch do
      local st = copy(); st.role = "standard"
      elems[#elems + 1] = { id = id .. "_" .. i, name = name .. " " .. i, attrs = st }
    end
    local m = D.MORALE_START[quality]
    local sq = umpire.create_unit { command = args.command, id = id, name = name,
      attrs = { troop = o.troop or "", quality = quality, morale = m, morale_start = m, state = "steady",
                soldiers = #elems, start_size = #elems },
      elements = elems, reason = "raised (Ch7 Creating Squads)" }
    local okp, per, total = pcall(S.price, ctx, sq)
    local p = S.problems(sq)
    if not okp then
      p[#p + 1] = "not priced: " .. (tostring(per):match("^[^\n]*"):gsub("^[%w/_%.]+:%d+: ", ""))
      per, total = "?", "?"
    end
    local out = { name .. ": " .. #elems .. " soldiers, " .. per .. " SGP a soldier, " .. total .. " SGP in all; morale " .. m }
    for _, x in ipairs(p) do out[#out + 1] = "LIMIT: " .. x end
    return table.concat(out, "\n")
  end,
}

umpire.command {
  name = "rates",
  help = "a soldier's Walk and Run rates in inches (Ch2 Movement Rates): rates ice.2",
  args = { { name = "soldier", type = "element", help = "SQUAD.SOLDIER" } },
  run = function(ctx, args)
    local e = args.soldier
    local c = ctx:check("Walk rate " .. e.name .. " (Ch2 Walk Rate)")
    c:add(e.move / 2, "Move " .. e.move .. " / 2", "Ch2")
    c:add(e.agi, "AGI", "Ch2")
    if e.armor_agi ~= 0 then c:add(e.armor_agi, "armour AGI modifier", "Ch7") end
    local walk, run, pen = U.rates(e)
    if pen > 0 then c:add(-1, "wounded: AGI -1", "AMB-14") end
    c:result(walk .. "\"")
    local r = ctx:check("Run rate " .. e.name .. " (Ch2 Run Rate)")
    r:add(e.move, "Move", "Ch2"); r:add(e.agi + e.armor_agi, "AGI", "Ch2")
    r:result(run and (run .. "\"") or "wounded: cannot run (Ch3 Effects of Damage)")
    umpire.record("walk", walk); umpire.record("run", run or 0)
    return e.name .. ": walk " .. walk .. "\", run " .. (run and (run .. "\"") or "none (wounded)")
  end,
}

umpire.command {
  name = "weapons",
  help = "the weapons the source gives values for, with what it leaves blank (Ch3, Ch7): weapons",
  args = {},
  run = function()
    local keys = {}
    for k in pairs(D.WEAPONS) do keys[#keys + 1] = k end
    table.sort(keys)
    local out = { "| key | weapon | kind | DS | short | medium | long | SGP | source |", "|---|---|---|---|---|---|---|---|---|" }
    local function v(x) return x == nil and "—" or tostring(x) end
    for _, k in ipairs(keys) do
      local w = U.weapon(k)
      out[#out + 1] = string.format("| %s | %s | %s | %s | %s | %s | %s | %s | %s |", k, w.name, w.kind,
        (w.kind == "melee" and w.ds) and ("Str+" .. w.ds) or v(w.ds), v(w.s), v(w.m), v(w.l), v(w.cost), w.src)
    end
    out[#out + 1] = "— : not in the source (its Weapons Chart is absent); a rule needing it refuses and asks for the value"
    return table.concat(out, "\n")
  end,
}

umpire.command {
  name = "roster",
  help = "a squad soldier by soldier: role, skills now (with wounds and morale), Strength, rates, weapons, markers: roster rangers",
  args = { { name = "squad", type = "unit" } },
  run = function(ctx, args)
    local sq = args.squad
    local L = { sq.name .. " · " .. sq.quality .. " · morale " .. sq.morale .. "/" .. sq.morale_start .. " " .. U.state(sq)
      .. " · soldiers " .. sq.soldiers .. "/" .. sq.start_size .. " · casualties this turn " .. sq.cas_turn
      .. (sq.sergeant_hit and " + sergeant" or "") .. " · in all " .. sq.cas_total }
    local rec = {}
    for i, e in ipairs(sq:elements()) do
      local sk = {}
      local r = { id = e.id, role = e.role, markers = e:markers() }
      for _, s in ipairs { "marksmanship", "melee", "brawling", "command" } do
        local v = U.skill(e, s)
        sk[#sk + 1] = s:sub(1, 4) .. " " .. v
        r[s] = v
      end
      local walk, run = U.rates(e)
      r.strength = U.strength(e); r.walk = walk; r.run = run or 0
      rec[#rec + 1] = r
      local m = e:markers()
      L[#L + 1] = string.format("%2d. %-22s %-9s %s · Str %d · walk %s run %s · %s%s", i, e.name, e.role,
        table.concat(sk, " "), U.strength(e), U.num(walk), run and U.num(run) or "—", e.weapons,
        #m > 0 and (" · " .. table.concat(m, ", ")) or "")
    end
    umpire.record("soldiers", rec)
    return table.concat(L, "\n")
  end,
}

-- Ch1 Squad Coherence, Separation (AMB-10): from the base-edge distances the umpire measures,
-- who is linked to the sergeant; the rest are separated (marked, or unmarked on rejoining).
umpire.command {
  name = "coherence",
  help = "who is separated: links within the squad's command distance (the sergeant's own for his links), from measured base-edge gaps (Ch1 Squad Coherence): "
    .. "coherence rangers r_sgt-r1=3,r1-r2=2.5,r2-r3=4",
  args = { { name = "squad", type = "unit" },
           { name = "gaps", type = "text", help = "A-B=INCHES,… between soldiers (ids), the gaps that matter" } },
  run = function(ctx, args)
    local sq = args.squad
    local sg = U.sergeant(sq)
    local std = sq:elements("role=standard unmarked:incapacitated")[1]
    if not std then umpire.fail(sq.name .. " has no standard soldier standing to give the squad's command") end
    local squad_cmd = U.skill(std, "command")
    local members = {}
    for _, e in ipairs(U.standing(sq)) do members[e.id] = e end
    local adj = {}
    local c = ctx:check("Coherence " .. sq.name .. " (Ch1 Squad Coherence; AMB-10)")
    for a, b, d in args.gaps:gmatch("([%w_]+)%-([%w_]+)=([%d%.]+)") do
      local ea, eb = members[a], members[b]
      if not ea or not eb then umpire.fail("coherence: `" .. a .. "-" .. b .. "`: both must be soldiers of " .. sq.id .. " standing (ids: show " .. sq.id .. ")") end
      local lim = squad_cmd
      if ea.role == "sergeant" or eb.role == "sergeant" then lim = U.skill(ea.role == "sergeant" and ea or eb, "command") end
      local linked = tonumber(d) <= lim
      c:add(0, a .. "-" .. b .. " " .. d .. "\" " .. (linked and "≤" or ">") .. " " .. lim .. "\"" .. (linked and "" or ": no link"))
      if linked then
        adj[a] = adj[a] or {}; adj[b] = adj[b] or {}
        table.insert(adj[a], b); table.insert(adj[b], a)
      end
    end
    if not sg then umpire.fail(sq.name .. "'s sergeant is out: the player names the soldiers who form the squad; mark the rest `separated` (AMB-10)") end
    local seen, queue = { [sg.id] = true }, { sg.id }
    while #queue > 0 do
      local x = table.remove(queue, 1)
      for _, y in ipairs(adj[x] or {}) do if not seen[y] then seen[y] = true; queue[#queue + 1] = y end end
    end
    local sep = {}
    for id, e in pairs(members) do
      if not seen[id] then
        sep[#sep + 1] = id
        U.mark(e, "separated", "out of command distance of the sergeant's group (Ch1 Separation)")
      else
        U.unmark(e, "separated", "back within the squad's command distance (Ch1)")
      end
    end
    table.sort(sep)
    c:result(#sep == 0 and "coherent" or (#sep .. " separated"))
    umpire.record("separated", sep)
    return #sep == 0 and (sq.name .. " is coherent") or (sq.name .. ": separated " .. table.concat(sep, ", ") .. " (+1 to shoot, -1 in close combat, may not start one, Ch1)")
  end,
}

-- The Weapons Chart is absent (§0.2): the umpire fills in the values his game uses.
umpire.command {
  name = "weapon",
  help = "fill in what the absent Weapons Chart would give, for this game: a blank of a weapon the source names "
    .. "(weapon longbow cost=12 · weapon sword ds=1), or a new weapon with its kind "
    .. "(weapon javelin kind=thrown ds=3 s=3 m=6 l=10 cost=2)",
  args = { { name = "key", type = "text", help = "KEY then ds=, s=, m=, l=, cost=, and for a new weapon kind=ranged|thrown|melee|siege" } },
  run = function(ctx, args)
    local key, rest = args.key:match("^([%w_]+)%s*(.*)$")
    if not key then umpire.fail("weapon: write weapon KEY field=value… (help weapon)") end
    local o = U.opts(rest, { ds = "int", s = "number", m = "number", l = "number", cost = "int",
      kind = { "ranged", "thrown", "melee", "natural", "siege" } }, "weapon")
    local k = D.WEAPON_ALIASES[key] or key
    local known = D.WEAPONS[k]
    if next(o) == nil then umpire.fail("weapon: give at least one value: ds=, s=, m=, l=, cost=") end
    if known then
      if o.kind then umpire.fail("weapon: " .. known.name .. " is a " .. known.kind .. " weapon in the source; kind= is for new weapons") end
      for f in pairs(o) do
        if known[f] ~= nil then umpire.fail("weapon: the source gives " .. known.name .. " " .. f .. " " .. tostring(known[f]) .. "; only blanks are filled in (options change the disputed values)") end
      end
    else
      local have = store.weapons and store.weapons[k]
      if not o.kind and not (have and have.kind) then
        umpire.fail("weapon: `" .. k .. "` is not a weapon of the source: give its kind= (ranged, thrown, melee, siege) to enter it for this game")
      end
    end
    store.weapons = store.weapons or {}
    local entry = store.weapons[k] or {}
    local set = {}
    for f, v in pairs(o) do entry[f] = v; set[#set + 1] = f .. "=" .. v end
    if entry.kind == "thrown" then entry.skill = "throwing"; entry.kind = "ranged"; entry.thrown = true end
    if entry.kind == "siege" then entry.skill = "siege" end
    if entry.kind == "melee" and entry.cc == nil then entry.cc = "standard" end
    if entry.kind == "natural" then entry.kind = "melee"; entry.cc = "natural" end   -- claws, fangs: +1 (Ch4 chart)
    store.weapons[k] = entry
    table.sort(set)
    return (known and known.name or k) .. ": " .. table.concat(set, " ") .. " for this game (the umpire's values, not the source's)"
  end,
}

-- Advanced Weapons and Equipment is absent (§10): the umpire gives a squad's armour.
umpire.command {
  name = "armor",
  help = "give a squad's soldiers armour with the umpire's values, or an armour type a house rule enters (armour types are in the absent Advanced Game): "
    .. "armor rangers str=1 agi=-1 cost=4 · armor rangers mail",
  args = { { name = "squad", type = "unit" }, { name = "values", type = "text", help = "str=N agi=N cost=N, or a house rule's armour type" } },
  run = function(ctx, args)
    local o, why
    local word = args.values:match("^%s*([%w_]+)%s*$")
    if word and not args.values:find("=") then
      local a = require("opend6fm.advanced").armour_of(word)
      o, why = { str = a.str, agi = a.agi, cost = a.cost }, "armour: " .. a.name .. " (a house rule's armour type; Advanced Game absent)"
    else
      o, why = U.opts(args.values, { str = "int", agi = "int", cost = "int" }, "armor"), "armour (the umpire's values; Advanced Game absent)"
    end
    local n = 0
    for _, e in ipairs(args.squad:elements()) do
      if o.str then e:set("armor_str", o.str, why) end
      if o.agi then e:set("armor_agi", o.agi, why) end
      if o.cost then e:set("armor_cost", o.cost, why) end
      n = n + 1
    end
    return args.squad.name .. ": armour on " .. n .. " soldiers (Strength only for resisting damage, Ch3)"
  end,
}

umpire.command {
  name = "troops",
  help = "the troop listings the source gives (only the Arctic Human Soldiers; its Troop List is absent) (Ch7): troops",
  args = {},
  run = function()
    local out = {}
    for k, t in pairs(D.TROOPS) do
      out[#out + 1] = string.format("%s (%s): %s, size %d-%d, AGI %d INT %d COR %d ACU %d PHY %d CHA %d, Move %d; skills level %d (any); weapons any; armour %s; sergeants level %d; champions level %d (any)",
        t.name, k, t.quality, t.size[1], t.size[2], t.attrs.agi, t.attrs.int, t.attrs.cor, t.attrs.acu, t.attrs.phy, t.attrs.cha,
        t.move, t.skills, t.armor, t.sergeant, t.champions)
    end
    table.sort(out)
    return table.concat(out, "\n")
  end,
}

-- Ch7 Sample Completed Squad Record Sheet, in Markdown.
umpire.command {
  name = "sheet",
  help = "print a squad's record sheet in Markdown (Ch7 record sheet): sheet ice",
  args = { { name = "squad", type = "unit" } },
  run = function(ctx, args)
    local sq = args.squad
    local b = standard(sq)
    if not b then umpire.fail(sq.id .. " has no soldiers") end
    local sg = sq:elements("role=sergeant")[1]
    local per, total = S.price(ctx, sq)
    local walk, run = U.rates(b)
    local L = {}
    local function l(s) L[#L + 1] = s end
    l("## " .. sq.name)
    l("")
    l("- **Troop type:** " .. ((D.TROOPS[sq.troop or ""] or {}).name or sq.troop or "") .. " · **Quality:** " .. sq.quality .. " (cost " .. D.QUALITY_COST[sq.quality] .. ")")
    l("- **Sergeant's command:** " .. (sg and U.base_skill(sg, "command") or "—") .. " · **Squad command:** " .. U.base_skill(b, "command") .. " · **Soldiers:** " .. #sq:elements())
    l("- **Move:** " .. b.move .. " (cost " .. b.move .. ") · **Walk** " .. walk .. "\" · **Run** " .. (run or "—") .. "\"")
    l("")
    -- Trng and Spec: the listing's training levels for the squad and for champions (Ch7
    -- Attributes and Skills), shown only when the squad names its troop listing.
    local troop = D.TROOPS[sq.troop or ""]
    l("| attribute | value | cost | trng | spec |"); l("|---|---|---|---|---|")
    local names = { agi = "AGI", int = "INT", cor = "COR", acu = "ACU", phy = "PHY (STR)", cha = "CHA" }
    for _, a in ipairs(ATTRS) do
      l("| " .. names[a] .. " | " .. b[a] .. " | " .. b[a] .. " | " .. (troop and troop.skills or "—") .. " | " .. (troop and troop.champions or "—") .. " |")
    end
    l("")
    -- skill code = controlling attribute + training (Ch7); the source's names in brackets
    local shown = { melee = "melee combat", brawling = "brawling (fighting)" }
    l("| skill | attribute | code | training cost |"); l("|---|---|---|---|")
    for _, s in ipairs(U.SKILLS) do
      if b["tr_" .. s] > 0 then
        l("| " .. (shown[s] or s) .. " | " .. U.skill_attr(s):upper() .. " " .. b[U.skill_attr(s)] .. " | " .. U.base_skill(b, s) .. " | " .. b["tr_" .. s] .. " |")
      end
    end
    l("")
    local function weapon_row(w)
      local dmg = w.kind == "melee" and (w.ds and (b.phy + w.ds) or "—") or (w.ds or "—")
      return string.format("| %s | %s | %s | %s | %s | %s |", w.name, dmg, w.s or "", w.m or "", w.l or "", w.cost or "—")
    end
    l("| weapon | damage | short | medium | long | cost |"); l("|---|---|---|---|---|---|")
    local have = {}
    for _, k in ipairs(U.weapons_of(b)) do have[k] = true; l(weapon_row(U.weapon(k))) end
    l("")
    l("- **Armour:** STR " .. b.armor_str .. " / AGI " .. b.armor_agi .. " (cost " .. b.armor_cost .. ")")
    l("- **Per soldier:** " .. per .. " × " .. #sq:elements() .. " = " .. per * #sq:elements())
    for _, e in ipairs(sq:elements("role=sergeant|champion")) do
      local bits = {}
      for _, s in ipairs(U.SKILLS) do
        local x = e["tr_" .. s] - b["tr_" .. s]
        if x > 0 then bits[#bits + 1] = s .. " " .. U.base_skill(e, s) .. " (cost " .. x .. ")" end
      end
      l("- **" .. e.role .. "** " .. e.id .. ": " .. (#bits > 0 and table.concat(bits, ", ") or "no extra training"))
      -- a champion's own weapon, besides the squad's kit, on its own line (Ch7 record sheet)
      local extra = {}
      for _, k in ipairs(U.weapons_of(e)) do if not have[k] then extra[#extra + 1] = weapon_row(U.weapon(k)) end end
      if #extra > 0 then
        l(""); l("  | weapon | damage | short | medium | long | cost |"); l("  |---|---|---|---|---|---|")
        for _, r in ipairs(extra) do l("  " .. r) end
        l("")
      end
    end
    l("- **Grand total:** " .. total .. " SGP")
    local track = {}
    for m = 7, 0, -1 do
      if m > sq.morale_start then track[#track + 1] = "~~" .. m .. "~~"
      elseif m > sq.morale then track[#track + 1] = "[x]" .. m
      else track[#track + 1] = "[ ]" .. m end
    end
    l("- **Morale track:** " .. table.concat(track, " ") .. " (now " .. sq.morale .. ", " .. U.state(sq) .. ")")
    return table.concat(L, "\n")
  end,
}

return S
