-- Ch3 Ranged Combat [§4]: the six steps (targeting, range, final difficulty, marksmanship
-- tests, hit allocation, damage), damage held to the end of the phase; opportunity and
-- defensive fire apply at once. Also: the damage roll alone, following fire, siege weapons,
-- the line-of-sight dispute.

local D = require "opend6fm.data"
local U = require "opend6fm.util"
local R = {}

-- Ch3 Measuring Range (AMB-02, AMB-04): the band of distance d for weapon w, or nil (no shot).
function R.band(w, d)
  local s, m, l = w.s, w.m, w.l
  if d > U.need(w, "l", "long range") then return nil end
  U.need(w, "s", "short range"); U.need(w, "m", "medium range")
  if d <= s then return "short" elseif d <= m then return "medium" else return "long" end
end

-- Ch3 Target Condition (AMB-03): the cover of the target squad from counts of visible soldiers
-- by grade; majority (upper median: the highest grade at least half have) or the best.
function R.cover_of(counts)
  local total = 0
  for _, g in ipairs(D.COVER_ORDER) do total = total + (counts[g] or 0) end
  if total == 0 then return "none" end
  if umpire.option("target_cover") == "best" then
    for i = #D.COVER_ORDER, 1, -1 do if (counts[D.COVER_ORDER[i]] or 0) > 0 then return D.COVER_ORDER[i] end end
  end
  local best, atleast = "none", 0
  for i = #D.COVER_ORDER, 1, -1 do
    atleast = atleast + (counts[D.COVER_ORDER[i]] or 0)
    if atleast * 2 >= total then return D.COVER_ORDER[i] end
  end
  return best
end

-- One damage resolution on a soldier [§4.9]: one Strength roll against every DS of the hits.
-- `hits` = list of {ds = n, label = text}. Returns wounds, incap, and the per-hit results.
-- `tie`, the option damage_tie, when the caller has read it (a volley reads it once);
-- `wounded`, whether the soldier is, when the caller has read his markers.
local function damage(ctx, e, hits, why, tie, wounded)
  -- each attribute read once (U.strength's sum, shown factor by factor)
  local name, phy, arm = e.name, e.phy, e.armor_str
  if wounded == nil then wounded = e:has("wounded") end
  local sr = ctx:check("Strength roll " .. name .. " (Ch3 Damage Determination)")
  local str = phy + arm - (wounded and 1 or 0)
  local lab = "Strength: PHY " .. phy .. (arm ~= 0 and (" + armour " .. arm) or "") .. (wounded and " - 1 wounded" or "")
  local srv = U.open(sr, str, lab, e)
  local tie_wounds = (tie or umpire.option("damage_tie")) == "wound"
  local wounds, incap, res = 0, false, {}
  for i, h in ipairs(hits) do
    local c = ctx:check("Damage Strength roll " .. i .. " on " .. name .. ": " .. h.label .. " (Ch3 Damage Determination)")
    local dsv = U.open(c, h.ds, "Damage Strength " .. h.ds)
    local r
    if dsv >= srv + 4 then r = "incapacitated"; incap = true
    elseif dsv > srv or (dsv == srv and tie_wounds) then r = "wound"; wounds = wounds + 1
    else r = "no effect" end
    c:result("DS " .. dsv .. " v SR " .. srv .. ": " .. r .. (dsv == srv and " (a tie, AMB-01)" or "") .. " (Ch3 Damage Table)")
    res[#res + 1] = { ds = dsv, sr = srv, result = r }
  end
  return wounds, incap, res, srv
end
R.damage = damage

-- Whether R.damage is still this file's own, which changes nobody: a house rule may wrap it
-- (scripts/heroes), and then a soldier's markers are read again after it.
function R.plain_damage() return R.damage == damage end

-- Damage results held to the end of the phase (Ch3 Effects of Damage), or applied at once.
-- Held results are markers on the soldier: pending_wound, pending_incap (two wounds make one).
-- `marks`, the set of his markers when the caller has read them (and nothing changed him since).
function R.hold(e, wounds, incap, why, now, from, marks)
  if now then return U.apply_damage(e, wounds, incap, why, from) end
  if wounds == 0 and not incap then return "no effect" end
  local m = marks or U.marker_set(e)
  local pw, pi, wounded = m.pending_wound or false, m.pending_incap or false, m.wounded or false
  local total = wounds + (pw and 1 or 0)
  local cc = from == "close" and " (close combat)" or ""
  if incap or total >= 2 or (wounded and total >= 1) then
    if not pi then e:mark("pending_incap", why .. cc) end
    if pw then e:unmark("pending_wound", "incapacitated instead (AMB-17)") end
    return "incapacitated (at the end of the phase)"
  end
  if not pw and not pi then e:mark("pending_wound", why .. cc) end
  return pi and "incapacitated (at the end of the phase)" or "wounded (at the end of the phase)"
end

-- Applies every held result; `from` = "close" marks them close combat casualties (AMB-34).
function R.apply_pending(from)
  local out = {}
  for _, sq in ipairs(umpire.units("all")) do
    for _, e in ipairs(sq:elements("marked:pending_wound|pending_incap")) do
      local incap, wound = e:has("pending_incap"), e:has("pending_wound")
      if incap then e:unmark("pending_incap", "takes effect") end
      if wound then e:unmark("pending_wound", "takes effect") end
      out[#out + 1] = e.name .. ": " .. U.apply_damage(e, wound and 1 or 0, incap,
        "damage of the phase takes effect (Ch3 Effects of Damage; AMB-16)", from)
    end
  end
  return out
end

local FIRE_OPTS = { range = "list", cover = { "none", "light", "medium", "heavy" }, covers = "word",
  prone = "flag", walked = "flag", opportunity = "flag", defensive = "flag", only = "word",
  visible = "word", weapon = "word", terrain = "word", band = { "short", "medium", "long" }, melee = "word" }

-- Who fires, with which weapon: standard soldiers their squad weapon, a champion the ranged
-- weapon the standard soldiers lack (the heavy crossbow of the sample), else his first.
-- `have` is the set of the standard soldiers' weapons, `memo` the volley's (U.weapon);
-- `standard` whether `e` is a standard soldier.
local function firing_weapon(e, standard, have, memo)
  local first
  for _, k in ipairs(U.weapons_of(e)) do
    local w = U.weapon(k, e, memo)
    if w.kind == "ranged" then
      if not standard and not have[k] then return w end
      first = first or w
    end
  end
  return first
end

-- The whole volley of a squad at a squad (steps 1 to 6).
function R.volley(ctx, firer, target, o, mode)
  local st = U.state(firer)
  if st == "broken" then umpire.fail(firer.name .. " is broken: a routing squad may not shoot (Ch5)") end
  -- the squad's markers, from one list
  local fm = {}
  for _, m in ipairs(firer:markers()) do fm[m] = true end
  if fm.no_fire then umpire.fail(firer.name .. " has a No Fire marker: it ran, charged, gave way to a charge or opportunity-fired this turn (Ch2; Ch4; AMB-40)") end
  if mode == "opportunity" and fm.fire_plus1 then umpire.fail(firer.name .. " has moved this turn: only a squad that has not moved may opportunity-fire (Ch2 Opportunity Fire)") end
  if mode == "ranged" and (fm.charged or fm.defensive_fired) then
    umpire.fail(firer.name .. " charged or used defensive fire this turn and may not fire (Ch4 The Ranged Combat Phase)")
  end
  if mode == "opportunity" and st == "demoralized" then umpire.fail(firer.name .. " is demoralized: no opportunity fire (Ch5)") end
  if mode == "opportunity" and not fm.opfire_passed then
    umpire.fail(firer.name .. " must first pass its opportunity-fire test (`opfiretest " .. firer.id .. "`, Ch2; Ch5 Opportunity Fire)")
  end
  if firer.side == target.side then umpire.fail(firer.name .. " and " .. target.name .. " are on the same side") end
  -- Ch1 Squad Shooting, Ch3: fire may be split between two enemy squads at most.
  local tl, has = {}, false
  local targets = tostring(firer.targets or "")
  if targets ~= "" then
    for x in targets:gmatch("[^,]+") do tl[#tl + 1] = x; if x == target.id then has = true end end
  end
  if not has then
    if #tl >= 2 then umpire.fail(firer.name .. " has already fired at " .. table.concat(tl, " and ") .. " this turn: a squad splits its fire between two squads at most (Ch1 Squad Shooting)") end
    tl[#tl + 1] = target.id
    firer:set("targets", table.concat(tl, ","), "its targets this turn (Ch1 Squad Shooting)")
  end
  if not o.range and not o.band then umpire.fail("fire: give the measured range in inches, range=14 (or range=12/14/16 from each firer, AMB-02)") end
  local d
  if o.range then
    if #o.range == 1 or umpire.option("range_measure") == "average" then
      local s = 0
      for _, x in ipairs(o.range) do s = s + x end
      d = s / #o.range
    else
      d = 0
      for _, x in ipairs(o.range) do if x > d then d = x end end
    end
  end
  -- Step 1: the shooters (Ch3 Ranged Combat Summary; Ch4 no fire in contact).
  local only
  if o.only then only = {}; for x in o.only:gmatch("[^,]+") do only[x] = true end end
  -- Who is a standard soldier, and who is engaged, separated or wounded, come from lists of
  -- the squad's soldiers (a host call each), not from reads of every soldier.
  local std = firer:elements("role=standard")
  local base, standard = std[1], {}
  for _, e in ipairs(std) do standard[e.id] = true end
  local have = {}
  if base then for _, k in ipairs(U.weapons_of(base)) do have[k] = true end end
  local marks = {}
  for _, e in ipairs(firer:elements("unmarked:incapacitated marked:engaged|separated|wounded")) do
    local m = {}
    for _, x in ipairs(e:markers()) do m[x] = true end
    marks[e.id] = m
  end
  -- one weapon per weapon list and role (soldiers of a squad mostly carry the same)
  local shooters, memo, chosen, forced = {}, {}, { [true] = {}, [false] = {} }, nil
  for _, e in ipairs(firer:elements("unmarked:incapacitated")) do
    local id = e.id
    if not only or only[id] or only[e.name] then
      local w
      if o.weapon then
        forced = forced or U.weapon(o.weapon, "weapon=", memo)
        w = forced
      else
        local s = standard[id] or false
        local ck = tostring(e.weapons or "")
        w = chosen[s][ck]
        if w == nil then w = firing_weapon(e, s, have, memo) or false; chosen[s][ck] = w end
      end
      if w then
        local m = marks[id]
        if not (m and m.engaged) then
          shooters[#shooters + 1] = { e = e, id = id, w = w, sep = m and m.separated or false, wounded = m and m.wounded or false }
        end
      end
    end
  end
  if #shooters == 0 then umpire.fail(firer.name .. " has nobody able to shoot (a ranged weapon, not incapacitated, not in base contact: Ch4" .. (o.only and ", among only=" .. o.only or "") .. ")") end
  -- Target condition (majority / best, AMB-03)
  local cover = o.cover or "none"
  if o.covers then
    local counts = {}
    for g, n in o.covers:gmatch("([%a]+):(%d+)") do
      if not D.COVER[g] then umpire.fail("fire: covers= grades are none, light, medium, heavy (covers=light:6,none:4)") end
      counts[g] = tonumber(n)
    end
    cover = R.cover_of(counts)
  end
  -- Cover from a named terrain or barrier (Ch6 charts; AMB-19 for where the text differs).
  if o.terrain then
    local t = D.TERRAIN[o.terrain] or D.BARRIER[o.terrain]
    if not t or t.cover == nil then
      umpire.fail("fire: terrain=" .. o.terrain .. " has no cover value in the charts (swamp is set by the scenario: give cover=light|medium|heavy)")
    end
    local v = (umpire.option("terrain_values") == "text" and t.text_cover) or t.cover
    cover = D.COVER_ORDER[v + 1]
  end
  -- Steps 2-4, grouped by weapon, skill and difficulty. The factors every shot shares (range
  -- band, target, squad) are worked out once a weapon; only separation differs by soldier.
  local walked = o.walked or fm.fire_plus1
  local function factors(w, band, sep)
    local f = { { D.RANGE_BASE[band], band .. " range" .. (d and (" (" .. U.num(d) .. "\" for " .. w.name .. ")") or ""), "Ch3 Ranged Combat Chart" } }
    if D.COVER[cover] > 0 then f[#f + 1] = { D.COVER[cover], "target in " .. cover .. " cover", "Ch3 Target Condition" } end
    if o.prone then f[#f + 1] = { 1, "target prone", "Ch3 Target Condition" } end
    if walked then f[#f + 1] = { 1, "squad walked (Fire +1)", "Ch3 Shooter Conditions" } end
    if mode == "opportunity" then f[#f + 1] = { 1, "opportunity fire", "Ch3 Shooter Conditions" } end
    if mode == "defensive" then f[#f + 1] = { 1, "defensive fire", "Ch3 Shooter Conditions" } end
    if sep then f[#f + 1] = { 1, "separated from the squad", "Ch1 Separation" } end
    if st == "shaken" then f[#f + 1] = { 1, "squad shaken", "Ch5 Morale Statuses" }
    elseif st == "demoralized" then f[#f + 1] = { 2, "squad demoralized", "Ch5 Morale Statuses" } end
    local diff = 0
    for _, x in ipairs(f) do diff = diff + x[1] end
    return f, diff
  end
  -- Soldiers of a squad mostly share their skill: the first shooter's attribute and training
  -- are read, and two lists (a host call each) give the few standing soldiers whose attribute,
  -- or training, is another; only those are read one by one.
  local groups, order, diffs, bands, skill_of = {}, {}, {}, {}, {}
  for _, sh in ipairs(shooters) do
    local e, w, sep = sh.e, sh.w, sh.sep
    local band = o.band or bands[w.key]
    if band == nil then band = R.band(w, d) or false; bands[w.key] = band end
    if band then
      local name = w.skill or "marksmanship"
      local sk = skill_of[name]
      if not sk then
        local a = U.skill_attr(name)
        if not a then umpire.fail("no skill `" .. name .. "` (skills: " .. table.concat(U.SKILLS, ", ") .. ")") end
        local t = "tr_" .. name
        local va, vt = e[a], e[t]
        local other = {}
        for _, x in ipairs(firer:elements("unmarked:incapacitated " .. a .. "!=" .. va)) do other[x.id] = true end
        for _, x in ipairs(firer:elements("unmarked:incapacitated " .. t .. "!=" .. vt)) do other[x.id] = true end
        sk = { a, t, other, va + vt }
        skill_of[name] = sk
      end
      local skill = (sk[3][sh.id] and (e[sk[1]] + e[sk[2]]) or sk[4]) - (sh.wounded and 1 or 0)
      -- a group for each weapon, skill, separation and wound (the band goes with the weapon)
      local by_skill = groups[w.key]
      if not by_skill then by_skill = {}; groups[w.key] = by_skill end
      local by_flags = by_skill[skill]
      if not by_flags then by_flags = {}; by_skill[skill] = by_flags end
      local flags = (sep and 1 or 0) + (sh.wounded and 2 or 0)
      local g = by_flags[flags]
      if not g then
        local f, diff = factors(w, band, sep)
        g = { w = w, skill = skill, diff = diff, f = f, band = band, who = {}, dk = band .. "|" .. diff .. "|" .. (sep and "s" or ""),
              note = sh.wounded and (" (" .. (skill + 1) .. ", wounded -1: Ch3 Veterans and Wounded Soldiers)") or "" }
        by_flags[flags] = g
        order[#order + 1] = g
      end
      g.who[#g.who + 1] = sh.id
    end
  end
  if #order == 0 then umpire.fail("fire: " .. U.num(d) .. "\" is beyond every firer's long range: no shot (Ch3 Measuring Range; AMB-04)") end
  local total_hits, rec = 0, {}
  for _, g in ipairs(order) do
    local dk = g.dk
    if not diffs[g.w.key .. dk] then
      local c = ctx:check("Final difficulty: " .. g.w.name .. " at " .. g.band .. " range (Ch3 Determining Final Difficulty)")
      for _, x in ipairs(g.f) do c:add(x[1], x[2], x[3]) end
      -- hook point for house rules: the final difficulty of one group's shots
      c:point("opend6fm.ranged.difficulty", { firer = firer, target = target, weapon = g.w.key, band = g.band,
        mode = mode, cover = cover, soldiers = #g.who })
      diffs[g.w.key .. dk] = c:total()
      c:result("difficulty " .. c:total())
    end
    g.diff = diffs[g.w.key .. dk]
    local rolls = U.many(#g.who, g.skill)
    local hits, txt, chains = 0, {}, {}
    for i, x in ipairs(rolls) do
      if x.score >= g.diff then hits = hits + 1 end
      txt[#txt + 1] = U.chain_text(x)
      chains[i] = { soldier = g.who[i], dice = x.dice, score = x.score, hit = x.score >= g.diff, critical = x.crit or "none" }
    end
    local c = ctx:check("Marksmanship: " .. #g.who .. " x " .. g.w.name .. ", skill " .. g.skill .. g.note .. " v " .. g.diff .. " (Ch3 Marksmanship Tests)")
    local shown = #rolls <= 12 and table.concat(txt, " ") or (#rolls .. " dice, scores " .. table.concat(txt, " ", 1, 12) .. " …")
    c:add(hits, "hits: " .. shown, "Ch3 Marksmanship Tests")
    c:result(hits .. " hit" .. (hits == 1 and "" or "s"))
    total_hits = total_hits + hits
    rec[#rec + 1] = { weapon = g.w.key, skill = g.skill, difficulty = g.diff, band = g.band, soldiers = #g.who, hits = hits, chains = chains }
    g.hits = hits
  end
  umpire.record("range", d or o.band); umpire.record("cover", cover); umpire.record("groups", rec); umpire.record("hits", total_hits)
  -- Step 5: hit allocation (Ch3 Assigning Hits): each hit at random among the visible targets.
  local pool = {}
  if o.visible then
    for x in o.visible:gmatch("[^,]+") do
      local e = umpire.element(x:find("%.") and x or (target.id .. "." .. x)) or umpire.element(x)
      if not e then umpire.fail("fire: visible=" .. x .. " is not a soldier (write ids: visible=g1,g2)") end
      pool[#pool + 1] = e
    end
  else
    pool = target:elements("unmarked:incapacitated")
  end
  if o.melee then
    local other = umpire.unit(o.melee)
    if not other then umpire.fail("fire: melee=" .. o.melee .. " is not a squad") end
    for _, e in ipairs(other:elements("unmarked:incapacitated marked:engaged")) do pool[#pool + 1] = e end
  end
  if #pool == 0 then umpire.fail(target.name .. " has no soldier to hit") end
  local per, porder, names = {}, {}, {}
  if total_hits > 0 then
    local c = ctx:check("Hit allocation: " .. total_hits .. " hits among " .. #pool .. " visible soldiers (Ch3 Assigning Hits)")
    local gi = 1
    local picks = {}
    if #pool > 1 then
      local _, r = umpire.roll(total_hits .. "d" .. #pool, { label = "hit allocation" })
      for i = 1, #r do picks[i] = r[i] end
    end
    local die, ids = " (d" .. #pool .. ": ", {}
    for _, g in ipairs(order) do
      if g.hits > 0 then
        local hit = { ds = U.need(g.w, "ds", "Damage Strength"), label = g.w.name }
        for _ = 1, g.hits do
          local k = picks[gi] or 1
          local id = ids[k]
          if not id then id = pool[k].id; ids[k] = id end
          local p = per[id]
          if not p then
            local e = pool[k]
            p = { e = e, hits = {} }
            per[id], names[id] = p, e.name
            porder[#porder + 1] = id
          end
          p.hits[#p.hits + 1] = { ds = hit.ds, label = hit.label }
          c:add(0, "hit " .. gi .. " → " .. names[id] .. die .. k .. ")")
          gi = gi + 1
        end
      end
    end
    c:result("hits on " .. #porder .. " soldiers")
  end
  -- Step 6: damage, one Strength roll per soldier hit (Ch3 Multiple Shots Against One Target).
  local now = mode == "opportunity" or mode == "defensive"
  local out, drec = {}, {}
  local why = "hit by " .. firer.name .. " (" .. (mode == "ranged" and "Ch3 Damage Table" or (mode .. " fire, at once")) .. ")"
  local tie = #porder > 0 and umpire.option("damage_tie") or nil
  local plain = R.plain_damage()
  for _, id in ipairs(porder) do
    local p = per[id]
    -- his markers read once for the damage roll and the holding (see R.plain_damage)
    local m = plain and U.marker_set(p.e) or nil
    local wounds, incap, res, srv = R.damage(ctx, p.e, p.hits, nil, tie, m and (m.wounded or false))
    local became = R.hold(p.e, wounds, incap, why, now, nil, m)
    out[#out + 1] = names[id] .. ": " .. became
    drec[#drec + 1] = { soldier = id, sr = srv, results = res, outcome = became }
  end
  umpire.record("damage", drec)
  U.mark(firer, "shot", "fired this turn (Ch5 Rally)")
  if mode == "opportunity" then U.mark(firer, "no_fire", "opportunity fire: no more movement or fire this turn (Ch3 Opportunity Fire)") end
  if mode == "defensive" then U.mark(firer, "defensive_fired", "defensive fire (Ch4): no fire in the Ranged Combat Phase") end
  return firer.name .. " fires at " .. target.name .. ": " .. total_hits .. " hit" .. (total_hits == 1 and "" or "s")
    .. (#out > 0 and ("\n" .. table.concat(out, "\n")) or "")
end

local function fire_cmd(name, mode, help)
  umpire.command {
    name = name,
    help = help,
    args = { { name = "firer", type = "unit", help = "the squad shooting" },
             { name = "target", type = "unit", help = "the squad shot at" },
             { name = "inputs", type = "text", optional = true,
               help = "range=14 (or 12/14/16) [terrain=heavy_woods | cover=light | covers=light:6,none:4] [prone] [walked] [only=ids] [visible=ids] [weapon=KEY] [band=short] [melee=SQUAD]" } },
    run = function(ctx, args)
      return R.volley(ctx, args.firer, args.target, U.opts(args.inputs, FIRE_OPTS, name), mode)
    end,
  }
end
fire_cmd("fire", "ranged", "a squad's volley in the Ranged Combat Phase, damage held to the end of the phase (Ch3): "
  .. "fire rangers goblins range=14 covers=light:6,none:4 walked")
fire_cmd("opfire", "opportunity", "opportunity fire at a moving squad, at the midpoint of its move: +1, damage at once (Ch3 Opportunity Fire): "
  .. "opfire rangers goblins range=20")
fire_cmd("deffire", "defensive", "defensive fire at chargers, +1, damage at once (Ch4 Defensive Fire): deffire rangers goblins range=6")

umpire.command {
  name = "damage",
  help = "hits on one soldier: one Strength roll against the Damage Strength of each hit (Ch3 Damage Determination): "
    .. "damage goblins.2 5 · damage goblins.2 4,4 now",
  args = { { name = "soldier", type = "element", help = "SQUAD.SOLDIER hit" },
           { name = "ds", type = "text", help = "the Damage Strength of each hit: 5 or 4,4; add `now` to apply at once" } },
  run = function(ctx, args)
    local hits, now = {}, false
    for x in args.ds:gmatch("[^,%s]+") do
      if x == "now" then now = true
      elseif tonumber(x) then hits[#hits + 1] = { ds = tonumber(x), label = "DS " .. x }
      else umpire.fail("damage: `" .. x .. "` is not a Damage Strength (write 5 or 4,4)") end
    end
    if #hits == 0 then umpire.fail("damage: give each hit's Damage Strength (damage SQUAD.SOLDIER 5)") end
    local e = args.soldier
    if e:has("incapacitated") then umpire.fail(e.name .. " is already out of the battle") end
    local w, i, res, srv = R.damage(ctx, e, hits)
    umpire.record("sr", srv); umpire.record("results", res)
    return e.name .. ": " .. R.hold(e, w, i, "damage (Ch3 Damage Table)", now)
  end,
}

umpire.command {
  name = "apply",
  help = "apply the damage held until the end of the phase now (done by itself when `next` ends the Ranged Combat or Close Combat Phase): apply",
  args = {},
  run = function()
    local ph = umpire.clock().phase
    local out = R.apply_pending(ph == "close_combat" and "close" or nil)
    return #out == 0 and "no damage pending" or table.concat(out, "\n")
  end,
}

umpire.on("step_ends", function(ev)
  if (ev.phase == "ranged" or ev.phase == "close_combat") and umpire.count("all") > 0 then
    local out = R.apply_pending(ev.phase == "close_combat" and "close" or nil)
    if #out == 0 then return end
    print("End of the " .. ev.phase .. " phase: damage takes effect (Ch3 Effects of Damage; AMB-16)")
    for _, l in ipairs(out) do print("  " .. l) end
  end
end)

umpire.command {
  name = "follow",
  help = "following fire: shot after shot, each at +2, until one misses (Ch3 Following Fire): follow 4 8 · follow rangers.2 8",
  args = { { name = "shooter", type = "text", help = "SKILL or SQUAD.SOLDIER, then the first difficulty; crew=1 loses following fire" } },
  run = function(ctx, args)
    local w = {}
    for x in args.shooter:gmatch("%S+") do w[#w + 1] = x end
    local skill = tonumber(w[1])
    if not skill then
      local e = umpire.element(w[1] or "")
      if not e then umpire.fail("follow: `" .. tostring(w[1]) .. "` is neither a skill nor a soldier") end
      skill = U.skill(e, "marksmanship")
    end
    local diff = tonumber(w[2] or "")
    if not diff then umpire.fail("follow: give the first shot's difficulty (follow 4 8)") end
    if w[3] == "crew=1" then umpire.fail("a crewed weapon manned by one soldier loses following fire (Ch3 Crewed Weapons): fire it once with `test`") end
    local hits, shot = 0, 1
    while shot <= 50 do
      local c = ctx:check("Following fire, shot " .. shot .. " (Ch3 Following Fire)")
      local s = U.open(c, skill, "skill " .. skill)
      local d = diff + 2 * (shot - 1)
      c:result(s .. " v " .. d .. (shot > 1 and (" (+" .. 2 * (shot - 1) .. " following fire)") or "") .. ": " .. (s >= d and "hit" or "miss"))
      if s < d then break end
      hits = hits + 1; shot = shot + 1
    end
    umpire.record("hits", hits)
    return hits .. " hit" .. (hits == 1 and "" or "s") .. " (allocate with `damage`)"
  end,
}

umpire.command {
  name = "los",
  help = "a disputed line of sight: 1-3 it may be shot, 4-6 not; not a test (Ch3 Line of Sight): los",
  args = {},
  run = function(ctx)
    local c = ctx:check("Disputed line of sight (Ch3 Line of Sight)")
    local v = U.plain(c, 0)
    c:result(v <= 3 and "visible: may be shot (and shoot back)" or "not visible")
    umpire.record("visible", v <= 3)
    return v <= 3 and "in sight" or "out of sight"
  end,
}

-- Ch3 Siege Weapons: the shot, deviation and blind fire; damage with `siegedamage`.
umpire.command {
  name = "siege",
  help = "a siege weapon's shot at a point: skill test, and deviation on a miss (Ch3 Siege Weapons): "
    .. "siege 4 range=20 band=medium [blind] [walked] [shaken|demoralized]",
  args = { { name = "skill", type = "int", help = "the crew's siege skill" },
           { name = "inputs", type = "text", help = "band=short|medium|long (siege ranges are absent from the source), blind, walked, shaken, demoralized, separated" } },
  run = function(ctx, args)
    local o = U.opts(args.inputs, { band = { "short", "medium", "long" }, blind = "flag", walked = "flag",
      shaken = "flag", demoralized = "flag", separated = "flag", range = "list" }, "siege")
    if not o.band then umpire.fail("siege: give the range band, band=medium: siege weapons' ranges are in the absent Weapons Chart (AMB-37)") end
    local dc = ctx:check("Siege difficulty (Ch3 Firing Siege Weapons; AMB-37)")
    dc:add(D.RANGE_BASE[o.band], o.band .. " range", "Ch3 Ranged Combat Chart")
    if o.walked then dc:add(1, "walked", "Ch3 Shooter Conditions") end
    if o.shaken then dc:add(1, "shaken", "Ch5") end
    if o.demoralized then dc:add(2, "demoralized", "Ch5") end
    if o.separated then dc:add(1, "separated", "Ch1") end
    if o.blind then dc:add(3, "firing blind", "Ch3 Firing Siege Weapons Blindly") end
    local diff = dc:total()
    dc:result("difficulty " .. diff)
    local function deviate(n)
      local c = ctx:check("Deviation " .. n .. " (Ch3 Siege Weapon Deviation; AMB-38)")
      local _, dir = c:roll("1d6", "direction", "AMB-38")
      local dist = D.DEVIATION[o.band](dir and 0 or 0)
      local _, dr = c:roll("1d6", "distance die", "Ch3 Siege Weapon Deviation Range Chart")
      dist = D.DEVIATION[o.band](dr[1])
      local dirs = { "straight on", "60° clockwise", "120° clockwise", "back toward the firer", "240° clockwise", "300° clockwise" }
      c:result(dist .. "\" " .. dirs[dir[1]])
      return { dir = dir[1], dist = dist }
    end
    local devs = {}
    if o.blind then devs[#devs + 1] = deviate(1) end
    local c = ctx:check("Siege shot (Ch3 Firing Siege Weapons)")
    local s = U.open(c, args.skill, "siege skill")
    local hit = s >= diff
    c:result(s .. " v " .. diff .. ": " .. (hit and "lands where aimed" or "deviates"))
    if not hit then devs[#devs + 1] = deviate(#devs + 1) end
    umpire.record("score", s); umpire.record("difficulty", diff); umpire.record("deviations", devs)
    local where = #devs == 0 and "on the point aimed at" or ""
    for _, dv in ipairs(devs) do where = where .. dv.dist .. "\" direction " .. dv.dir .. "; " end
    return "template (2.5\" radius) lands " .. where .. " — then `siegedamage` each soldier under it"
  end,
}

umpire.command {
  name = "siegedamage",
  help = "a siege hit on one soldier: DS 5, -1 touching the edge, -1 behind a high wall with an opening, -1 prone (Ch3 Siege Weapon Damage): "
    .. "siegedamage goblins.3 touching prone",
  args = { { name = "soldier", type = "element" },
           { name = "inputs", type = "text", optional = true, help = "touching, wall_opening, wall (no opening: unaffected), prone, now" } },
  run = function(ctx, args)
    local o = U.opts(args.inputs, { touching = "flag", wall_opening = "flag", wall = "flag", prone = "flag", now = "flag" }, "siegedamage")
    local e = args.soldier
    if o.wall then return e.name .. ": a high wall without opening shelters him: unaffected (Ch3 Siege Weapon Damage)" end
    local c = ctx:check("Siege Damage Strength (Ch3 Siege Weapon Damage; AMB-39)")
    c:add(5, "siege weapon", "Ch3")
    if o.touching then c:add(-1, "base only touching the template", "Ch3") end
    if o.wall_opening then c:add(-1, "high wall with a door or window between", "Ch3") end
    if o.prone or e:has("prone") then c:add(-1, "prone", "Ch3") end
    local ds = math.max(0, c:total())
    c:result("DS " .. ds)
    local w, i = R.damage(ctx, e, { { ds = ds, label = "siege" } })
    return e.name .. ": " .. R.hold(e, w, i, "siege weapon (Ch3)", o.now)
  end,
}

return R
