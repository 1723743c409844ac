-- TA4 melee (19): each vignette in contact rolls its proficiency dice + its weapon class + the
-- tactical factors in the printed order, -half for Open order; the total is the IP its
-- opponent loses (never below 0). Losses land together. Combat results (22): the TU that lost
-- more than it inflicted recoils.
local data = require "undying_lands.data"
local ph = require "undying_lands.placeholders"
local U = require "undying_lands.util"
local I = require "undying_lands.integrity"

local M = {}

-- The weapon class a vignette fights with this round (19; UL-D09: the Lance only in the
-- first-contact round, then SA).
function M.weapon(u, first)
  if u.weapon == "lance" and not first then return "sa", "Lance after first contact: fights with SA (UL-D09)" end
  return u.weapon, nil
end

-- A weapon cell's line as shown (19, table p.20), by weapon and column ("first", "foot",
-- "other"): { label, placeholder }. Made once per cell: a cell a worked example gives says so,
-- every other is a placeholder and says that.
local cell_lines = {}
local COLUMN_TEXT = { first = " at first contact", foot = " vs Foot", other = " vs Other" }
local function cell_line(w, col)
  local by_w = cell_lines[w]
  if not by_w then by_w = {}; cell_lines[w] = by_w end
  local line = by_w[col]
  if not line then
    local label = w:upper() .. COLUMN_TEXT[col]
    local src = ph.from_text[w .. "." .. col]
    if src then line = { label .. " (value from " .. src .. ")", false }
    else line = { ph.label(label), true } end
    by_w[col] = line
  end
  return line
end

local function wcell(c, F, w, col)
  local line, v = cell_line(w, col), ph.weapon[w][col]
  c:add(v, line[1], "19, table p.20")
  F[#F + 1] = { label = line[1], value = v, rule = "19, table p.20", placeholder = line[2] }
end

-- An option M.score reads, once per melee (`opt` caches it).
local function option(opt, name)
  local v = opt[name]
  if v == nil then v = umpire.option(name); opt[name] = v end
  return v
end

-- What M.score reads of a TU and of a vignette. M.fight reads them once for the whole melee:
-- every read of a handle's field is a metamethod call (and the first in a command a call into
-- umpire), and nothing they hold changes before the losses land. `marked`: the TU's markers
-- as a set (M.marked), when the caller has them.
function M.tu_facts(u, marked)
  local disordered
  if marked then disordered = marked.disordered == true else disordered = u:has("disordered") end
  return { id = u.id, discipline = u.discipline, proficiency = u.proficiency, weapon = u.weapon,
    type = u.type, order = u.order, disordered = disordered }
end

-- A unit's markers as a set (fld_common.util.marked): one call into umpire where each u:has
-- is one.
M.marked = require("fld_common.util").marked
function M.vignette_facts(e, unit)
  return { id = e.id, ip = e.ip, unit = unit or e.unit }
end

-- One vignette's score against `opp` (a vignette). `s` = situation of this side: charging,
-- fanatic (set of vignette ids), first, uphill (gentle), slope, opp_flank. `f`: the facts
-- { u, o, e, opp } (M.tu_facts, M.vignette_facts) when the caller has them. Returns score, record.
function M.score(ctx, e, opp, s, u, o, f)
  u, o = u or U.unit_of(e), o or U.unit_of(opp)
  f = f or { u = M.tu_facts(u), o = M.tu_facts(o), e = M.vignette_facts(e), opp = M.vignette_facts(opp) }
  local uf, of, ef, pf = f.u, f.o, f.e, f.opp
  local names, opt = s.names or {}, s.opt or {}
  local c = ctx:check("Melee 19: " .. (names[ef.id] or U.vname(e)) .. " against " .. (names[pf.id] or U.vname(opp)))
  local F = {}
  -- `rolled` and `score` are filled in below: naming them here makes the table at its size
  local rec = { vignette = ef.id, opponent = pf.id, factors = F, rolled = 0, score = 0 }
  local die = data.MELEE_DICE[uf.discipline][uf.proficiency]
  rec.rolled = c:roll(die, uf.discipline .. " " .. uf.proficiency, "19")
  local w, note = M.weapon(uf, s.first)
  if note then c:add(0, note, "19; UL-D09") end
  if s.first then wcell(c, F, w, "first") end
  wcell(c, F, w, of.type == "foot" and "foot" or "other")
  local dis = uf.disordered
  -- each option is read when a line needs it, and once per melee (`opt`)
  local charge_ok = s.first
  if not charge_ok and (s.charging or (s.fanatic and s.fanatic[ef.id])) then
    charge_ok = option(opt, "charge_factors") == "every_round"
  end
  local literal
  if s.uphill or (dis and uf.order == "loose") then literal = option(opt, "uphill_lines") == "literal" end
  local line1 = (dis and uf.order == "close") or ef.ip <= 0
  if line1 then U.factor(c, F, -4, "1. " .. (ef.ip <= 0 and "has lost all its IP" or "disordered Close order"), "19") end
  if s.uphill then U.factor(c, F, -2, "2. opponent higher up a Gentle Hill", "19; UL-D07") end
  if dis and (uf.order == "close" or uf.type == "mounted") then
    if uf.order == "close" and option(opt, "disordered_close") == "minus4_only" and line1 then
      c:add(0, "3. disordered Close order: -4 only (option disordered_close minus4_only)", "19; UL-D06")
    else
      U.factor(c, F, -2, "3. disordered Close order or Mounted", "19; UL-D06")
    end
  end
  if pf.ip > ef.ip and option(opt, "more_ip_factor") == "applies" then
    U.factor(c, F, -1, "4. opponent has more IP (" .. pf.ip .. " > " .. ef.ip .. ")", "19; UL-D08")
  end
  if dis and uf.order ~= "close" then U.factor(c, F, -1, "5. disordered Loose or Open order", "19") end
  if s.slope or (s.uphill and literal) then
    U.factor(c, F, -1, "6. fighting troops uphill" .. (s.uphill and " (option uphill_lines literal)" or ""), "19; UL-D07")
  end
  if dis and uf.order == "loose" and literal then
    U.factor(c, F, -1, "6. 'Disordered Loose Order' as printed (option uphill_lines literal)", "19; UL-D07")
  end
  if s.charging and charge_ok then
    local rule = "19" .. (s.first and "; UL-D10" or "; option charge_factors every_round")
    if uf.type == "behemoth" and ((of.type == "foot" and of.order == "close") or of.type == "mounted") then
      U.factor(c, F, 1, "7. Behemoth charging Close order Foot or Mounted", rule)
    end
    U.factor(c, F, 1, "8. " .. (s.counter and "counter-charging" or "charging"), rule)
    if uf.discipline == "irregular" and uf.order == "loose" and uf.type == "foot" and not s.counter then
      U.factor(c, F, 2, "9. Irregular Loose order Foot charging", rule)
    end
  end
  if uf.type == "mounted" and of.type == "foot" and of.order ~= "close" then
    U.factor(c, F, 2, "10. Mounted fighting Loose or Open order Foot", "19")
  end
  if s.opp_flank and of.order == "close" then U.factor(c, F, 3, "11. opponent is Close order, contacted in flank or rear", "19") end
  if s.fanatic and s.fanatic[ef.id] and charge_ok then U.factor(c, F, 4, "12. fanatic charging", "19" .. (s.first and "; UL-D10" or "")) end
  c:point("ul.melee.factors", { vignette = e, opponent = opp, first = s.first })
  if uf.order == "open" then
    local v = c:total()
    local r = U.reduce(v, "half")
    if r ~= v then U.factor(c, F, r - v, "13. Open order: -half, round down", "19; UL-D04") end
  end
  local total = c:total()
  local score = math.max(0, total)
  if score ~= total then U.factor(c, F, score - total, "never below 0", "19; UL-D05") end
  c:result(pf.id .. " loses " .. score .. " IP")
  rec.score = score
  return score, rec
end

-- Pairs: each vignette of a against its opponent. From `text` ("1-1,2-1"), else the contacts
-- in the store, else side by side (1 v 1, 2 v 2; extras against the last). `av`, `bv`: the
-- vignettes of a and b (U.vignettes); `contact`: store.contact, or false when there is none;
-- `vf`: each vignette's facts (M.vignette_facts), for its id.
local function pairs_of(a, b, text, av, bv, contact, vf)
  local out = {}
  if text and text ~= "" then
    for x, y in text:gmatch("(%d+)%-(%d+)") do
      local e, f = av[tonumber(x)], bv[tonumber(y)]
      if not e or not f then umpire.fail("melee: pair " .. x .. "-" .. y .. ": " .. a.id .. " has " .. #av ..
        " vignettes, " .. b.id .. " " .. #bv .. " (pairs are A-B numbers: 1-1,2-1)") end
      out[#out + 1] = { e, f }
    end
    if #out == 0 then umpire.fail("melee: pairs are written A-B, comma-separated: 1-1,2-2") end
    return out
  end
  -- The contacts by id (I.contact_ids, the store read once): an enemy in contact that is one
  -- of the other TU's vignettes is the one to fight.
  local aset, bset = {}, {}
  for _, e in ipairs(av) do aset[vf[e].id] = e end
  for _, f in ipairs(bv) do bset[vf[f].id] = f end
  local used = {}
  for i, e in ipairs(av) do
    local opp, known
    for _, id in ipairs(I.contact_ids(vf[e].id, contact)) do if bset[id] then opp, known = bset[id], true; break end end
    if not opp then opp = bv[math.min(i, #bv)] end
    out[#out + 1] = { e, opp, known = known }
    used[vf[opp].id] = true
  end
  -- B's vignettes not fought by anyone fight the A vignette facing them
  for i, f in ipairs(bv) do
    if not used[vf[f].id] then
      local opp
      for _, id in ipairs(I.contact_ids(vf[f].id, contact)) do if aset[id] then opp = aset[id]; break end end
      out[#out + 1] = { opp or av[math.min(i, #av)], f, back = true }
    end
  end
  return out
end

function M.fight(ctx, a, b, o)
  if a.side == b.side then umpire.fail("melee: " .. a.id .. " and " .. b.id .. " are on the same side") end
  -- the TUs' markers, read once: march, first_contact, charging, disordered and in_melee are
  -- asked of them below (only in_melee is put on before the last of those questions)
  local a_id, b_id = a.id, b.id
  local marks = { [a_id] = M.marked(a), [b_id] = M.marked(b) }
  for _, id in ipairs({ a_id, b_id }) do
    if marks[id].march then umpire.fail("melee: " .. id .. " is in march formation and cannot fight (20.i)") end
  end
  -- the vignettes, read once (each u:elements() is a call into umpire), and what M.score reads
  -- of them and of the TUs, read once too (M.tu_facts, M.vignette_facts): `facts` by handle
  -- (the vignettes' and a's and b's), the same by id for the TUs (`tf`). The losses and the
  -- checks after them keep them up to date (U.lose_all, U.sync, I.after_losses).
  local av, bv = U.vignettes(a, "melee: "), U.vignettes(b, "melee: ")
  local tf = { [a_id] = M.tu_facts(a, marks[a_id]), [b_id] = M.tu_facts(b, marks[b_id]) }
  local facts = { [a] = tf[a_id], [b] = tf[b_id] }
  for _, x in ipairs({ { av, a_id }, { bv, b_id } }) do
    for _, e in ipairs(x[1]) do
      facts[e] = M.vignette_facts(e, x[2])   -- a vignette of a is a's: its unit need not be read
    end
  end
  local vf = facts
  local first = o.first or marks[a_id].first_contact or marks[b_id].first_contact or false
  local st = store.charges or {}
  local function side(id, flags, els)
    local ch = U.plain(st[id]) or {}     -- a plain copy: see U.plain
    local fan = {}
    for _, id in ipairs(ch.fanatic or {}) do fan[id] = true end
    if flags.fanatic then for _, e in ipairs(els) do fan[vf[e].id] = true end end
    return { first = first, charging = flags.charged or flags.fanatic or marks[id].charging or (not first and ch.charged),
      counter = ch.counter, fanatic = fan, uphill = flags.uphill, slope = flags.slope, opp_flank = flags.opp_flank }
  end
  local sa = side(a_id, { charged = o.a_charged, fanatic = o.a_fanatic, uphill = o.a_uphill, slope = o.a_slope, opp_flank = o.b_flank }, av)
  local sb = side(b_id, { charged = o.b_charged, fanatic = false, uphill = o.b_uphill, slope = o.b_slope, opp_flank = o.a_flank }, bv)
  if o.b_charged then sb.counter = true end
  local contact = store.contact       -- read once: pairs_of, then I.touch_all
  local P = pairs_of(a, b, o.pairs, av, bv, contact or false, vf)
  local names, opt = {}, {}
  for _, x in ipairs({ { a_id, av }, { b_id, bv } }) do
    local id = x[1]
    for i, e in ipairs(x[2]) do names[vf[e].id] = id .. "." .. i end
  end
  sa.names, sb.names, sa.opt, sb.opt = names, names, opt, opt
  local hits, rec = {}, { first_contact = first, blows = {} }
  local per = {}   -- per vignette: inflicted, received
  local function blow(e, f, s)
    local ef, ff = vf[e], vf[f]
    local eu, fu = (ef.unit == a_id) and a or b, (ff.unit == a_id) and a or b
    local sc, r = M.score(ctx, e, f, s, eu, fu, { u = tf[ef.unit], o = tf[ff.unit], e = ef, opp = ff })
    hits[#hits + 1] = { f, sc, e }
    rec.blows[#rec.blows + 1] = r
    local eid, fid = ef.id, ff.id
    per[eid] = per[eid] or { e = e, inflicted = 0, received = 0 }
    per[fid] = per[fid] or { e = f, inflicted = 0, received = 0 }
    per[eid].inflicted = per[eid].inflicted + sc
    per[fid].received = per[fid].received + sc
  end
  for _, p in ipairs(P) do
    if not p.back then blow(p[1], p[2], sa) end
    local bfights = true
    if not p.back then
      -- a B vignette answers only the first A vignette it is paired with
      local pid = vf[p[2]].id
      for _, q in ipairs(P) do if q ~= p and vf[q[2]].id == pid and not q.back and q.answered then bfights = false end end
      p.answered = bfights
    end
    if bfights then blow(p[2], p[1], sb) end
  end
  -- the new contacts, in the order of the pairs, in one write per list (I.touch_all)
  local touch = {}
  for _, p in ipairs(P) do if not p.known then touch[#touch + 1] = { vf[p[1]].id, vf[p[2]].id } end end
  I.touch_all(touch, contact or false)
  -- losses together (19)
  local tot = { [a_id] = { inf = 0, rec = 0 }, [b_id] = { inf = 0, rec = 0 } }
  for _, h in ipairs(hits) do
    local f, sc, e = vf[h[1]], h[2], vf[h[3]]
    tot[f.unit].rec = tot[f.unit].rec + sc
    tot[e.unit].inf = tot[e.unit].inf + sc
  end
  local key = U.phase_key()
  local losses = {}
  for i, h in ipairs(hits) do losses[i] = { h[1], h[2], "melee with " .. names[vf[h[3]].id] .. " (19)" } end
  U.lose_all(losses, key, facts)
  U.sync(a, "melee (19)", av, facts)
  U.sync(b, "melee (19)", bv, facts)
  for _, x in ipairs({ { a, a_id }, { b, b_id } }) do
    if not marks[x[2]].in_melee then x[1]:mark("in_melee", "in contact (19)") end
  end
  rec.totals = { [a_id] = tot[a_id], [b_id] = tot[b_id] }
  local lines = { a_id .. " inflicted " .. tot[a_id].inf .. " IP and lost " .. tot[a_id].rec ..
    "; " .. b_id .. " inflicted " .. tot[b_id].inf .. " and lost " .. tot[b_id].rec }
  -- 22: combat results
  local recoils = {}
  local function recoil(u, label)
    local c = ctx:check("Combat result 22: " .. label .. " recoils")
    local ty = tf[u.id].type
    local die = (ty == "mounted" or ty == "leviathan") and "1d20" or "1d10"
    c:roll(die, "straight back, facing the enemy", "22")
    c:result(c:total() .. " cm")
    recoils[#recoils + 1] = { who = label, cm = c:total() }
    lines[#lines + 1] = label .. " recoils " .. c:total() .. " cm, still facing the enemy (22)"
  end
  if umpire.option("recoil_count") == "per_vignette" then
    for _, x in pairs(per) do
      if x.received > x.inflicted then
        recoil(vf[x.e].unit == a_id and a or b, names[x.e.id] .. " (option recoil_count per_vignette)")
      end
    end
  else
    for _, u in ipairs({ a, b }) do
      local t = tot[u.id]
      if t.rec > t.inf then recoil(u, u.id) end
    end
  end
  rec.recoils = recoils
  -- what the checks after the losses need is known: the vignettes (none added or removed), their
  -- IP and phase, and whether a or b was disordered (only in_melee was marked since)
  local known = { key = key, els = { [a_id] = av, [b_id] = bv }, facts = facts }
  for _, x in ipairs(I.after_losses(ctx, { a, b }, known)) do lines[#lines + 1] = x end
  umpire.record("melee", rec)
  return table.concat(lines, "\n")
end

local FLAGS = { "first", "a_charged", "a_fanatic", "b_charged", "a_uphill", "b_uphill", "a_slope", "b_slope",
  "a_flank", "b_flank" }
umpire.command {
  name = "melee",
  help = "TA4 (19): two TUs in contact fight a round; every vignette rolls, losses land together,\n" ..
    "then the combat result (22), disorder (24) and tests for vignettes with no IP left (23.1 a).\n" ..
    "Pairs come from the charge (who contacted whom), else side by side; `pairs 1-1,2-1` to say.\n" ..
    "The first-contact round is the phase of the charge (or `first`). Flags (a = first unit):\n" ..
    "a_charged a_fanatic b_charged (counter-charge), a_uphill/b_uphill (opponent higher up a\n" ..
    "Gentle Hill), a_slope/b_slope (fighting uphill on another slope), a_flank/b_flank (contacted\n" ..
    "in flank or rear).    melee gal rom    melee pk kn first b_charged pairs 1-1",
  args = {
    { name = "a", type = "unit", help = "one TU" },
    { name = "b", type = "unit", help = "the other" },
    { name = "first", type = "flag", help = "the first-contact round" },
    { name = "a_charged", type = "flag" }, { name = "a_fanatic", type = "flag" }, { name = "b_charged", type = "flag" },
    { name = "a_uphill", type = "flag" }, { name = "b_uphill", type = "flag" },
    { name = "a_slope", type = "flag" }, { name = "b_slope", type = "flag" },
    { name = "a_flank", type = "flag" }, { name = "b_flank", type = "flag" },
    { name = "pairs", type = "text", optional = true, help = "`pairs 1-1,2-1`: A-B vignette numbers" },
  },
  run = function(ctx, args)
    local p = args.pairs
    if p then p = p:gsub("^%s*pairs%s*", "") end
    -- the flags M.fight reads (a copy: args is read-only), `pairs` without its word
    local o = { pairs = p }
    for _, k in ipairs(FLAGS) do o[k] = args[k] end
    return M.fight(ctx, args.a, args.b, o)
  end,
}

return M
