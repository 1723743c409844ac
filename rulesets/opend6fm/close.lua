-- Ch4 Close Combat [§5]: charges and the tests they need, pairs of up to three on one,
-- the close combat roll with its modifiers, damage, force back and advance, disengaging.

local D = require "opend6fm.data"
local U = require "opend6fm.util"
local M = require "opend6fm.morale"
local R = require "opend6fm.ranged"

-- The soldiers named, and the words naming them.
local function ids(text, what)
  local l, w = {}, {}
  for x in tostring(text or ""):gmatch("[^,%s]+") do
    local e = umpire.element(x)
    if not e then umpire.fail(what .. ": `" .. x .. "` is not a soldier (SQUAD.SOLDIER)") end
    l[#l + 1] = e
    w[#w + 1] = x
  end
  return l, w
end

-- The weapon bonus to the roll (Ch4 chart; AMB-32) and the melee weapon, if any. `memo` (the
-- fight's) keeps the answer for each weapon list (the soldiers of a squad mostly carry the
-- same) and the option cc_weapon_bonus.
local function weapon_bonus(e, name, memo)
  local list = e.weapons
  local mk = "|bonus|" .. tostring(list or "")
  local known = memo[mk]
  if known then return known[1], known[2] end
  local bonuses, melee = {}, nil
  for _, k in ipairs(U.words(list)) do
    local w = U.weapon(k, name, memo)
    if w.kind == "melee" then
      melee = melee or w
      if w.cc == "magic" then bonuses[#bonuses + 1] = { D.CC.magic_weapon, "magic melee weapon (" .. w.name .. ")" }; melee = w
      elseif w.cc == "standard" then bonuses[#bonuses + 1] = { D.CC.standard_weapon, "standard melee weapon (" .. w.name .. ")" }
      elseif w.cc == "natural" then bonuses[#bonuses + 1] = { D.CC.natural_weapon, "natural weapon (" .. w.name .. ")" } end
    end
  end
  table.sort(bonuses, function(a, b) return a[1] > b[1] end)
  local best = memo["|best|"]
  if best == nil then best = umpire.option("cc_weapon_bonus") == "best"; memo["|best|"] = best end
  if best then bonuses = { bonuses[1] } end
  memo[mk] = { bonuses, melee }
  return bonuses, melee
end

local markers_of = U.marker_set

-- One soldier's close combat roll as a check. o: charging (set of squads), barrier (set),
-- rear (set of soldier ids), outnumber (how many extra on his one enemy), swing (+2); memo
-- and squads (by id), kept for the whole fight when given; marks, the set of each soldier's
-- markers (by id) when the fight has read them.
local function cc_roll(ctx, e, o, title)
  local name, unit, id = e.name, e.unit, e.id
  local bon, melee = weapon_bonus(e, e, o.memo or {})
  local skill_name = melee and "melee" or "brawling"
  local squads = o.squads or {}
  local sq = squads[unit]
  if not sq then sq = umpire.unit(unit); squads[unit] = sq end
  local m = o.marks and o.marks[id] or markers_of(e)
  local _, f, base = U.skill(e, skill_name, sq, m.wounded or false)
  local c = ctx:check("Close combat " .. name .. (title and (" · " .. title) or "") .. " (Ch4 Close Combat Skill Tests)")
  local _, r = c:roll("1d6!", "open-ended d6", "Ch1 Critical Successes", e)
  c:add(base, skill_name .. " " .. base, "Ch4")
  for _, x in ipairs(f) do c:add(x[1], x[2], x[3]) end
  for _, b in ipairs(bon) do if b then c:add(b[1], b[2], "Ch4 Close Combat Modifiers Chart; AMB-32") end end
  if o.charging[unit] then c:add(D.CC.charging, "charging (first turn)", "Ch4 chart") end
  if o.barrier[unit] then c:add(D.CC.barrier, "defending a barrier", "Ch4 chart") end
  if (o.outnumber or 0) > 0 then c:add(o.outnumber * D.CC.outnumber_each, "outnumbering: " .. (o.outnumber + 1) .. " on 1", "Ch4 chart") end
  if o.rear[id] then c:add(D.CC.side_or_rear, "attacked from side or rear", "Ch4 chart") end
  if o.swing then c:add(D.CC.parting_swing, "parting swing: attack from the rear", "Ch4 Disengaging; AMB-36") end
  if m.prone then c:add(D.CC.prone, "prone", "Ch4 chart") end
  if m.separated then c:add(D.CC.separated, "separated from the squad", "Ch1 Separation") end
  local st = U.state(sq)
  if st == "shaken" then c:add(D.CC.shaken, "squad shaken", "Ch5") elseif st == "demoralized" then c:add(D.CC.demoralized, "squad demoralized", "Ch5") end
  -- hook point for house rules: a soldier's close combat roll (heroes, creatures, spells)
  c:point("opend6fm.cc.modifiers", { soldier = e, squad = sq, skill = skill_name, swing = o.swing or false })
  if r[1] == 1 then c:add(-c:total(), "critical failure: the score is 0", "Ch1 Critical Failures") end
  return c:total(), melee
end

-- The winner's Damage Strength in close combat (Ch4 Close Combat Damage; AMB-33). `wounded`,
-- whether he is, when the fight has read his markers.
local function cc_ds(e, melee, wounded)
  if wounded == nil then wounded = e:has("wounded") end
  local str = e.phy - (wounded and 1 or 0)
  if not melee then return str, "Strength " .. str .. " (brawling)" end
  local w = U.need(melee, "ds", "Damage Strength")
  return str + w, "Strength " .. str .. " + " .. melee.name .. " " .. w
end

local CC_OPTS = { target = "word", charging = "word", barrier = "word", rear = "word" }

local function set_of(text)
  local s = {}
  if text == nil then return s end -- nothing to split (a gmatch costs as much as a host call)
  for x in tostring(text):gmatch("[^,%s]+") do s[x] = true end
  return s
end

umpire.command {
  name = "melee",
  help = "one close combat: a lone soldier against 1 to 3 in base contact, each rolling melee (or brawling) + modifiers; "
    .. "the lone soldier's one roll is compared with each (Ch4 Resolving Close Assault): "
    .. "melee hum.2 gob.3,gob.4 target=gob.3 [charging=gob] [barrier=hum] [rear=hum.2]",
  args = { { name = "lone", type = "element", help = "the soldier on his own side of the fight" },
           { name = "foes", type = "text", help = "the 1-3 enemy soldiers in contact with him (comma-separated), then options" } },
  run = function(ctx, args)
    local words, rest = args.foes:match("^(%S+)%s*(.*)$")
    local foes, named = ids(words, "melee")
    local o = U.opts(rest, CC_OPTS, "melee")
    local lone = args.lone
    if #foes < 1 or #foes > 3 then umpire.fail("melee: at most 3 soldiers may be in base contact with one (Ch4 Pairing Off); give 1 to 3") end
    -- each soldier's squad (his side is his squad's: a handle the fight needs anyway) and his
    -- markers, read once for the whole fight: the rolls change no soldier, nor do the hooks of
    -- opend6fm.cc.modifiers, which add modifiers to a roll
    local squads, marks = {}, {}
    local function squad_of(uid)
      local sq = squads[uid]
      if not sq then sq = umpire.unit(uid); squads[uid] = sq end
      return sq
    end
    local lunit = lone.unit
    local lside = squad_of(lunit).side
    for _, f in ipairs(foes) do
      if squad_of(f.unit).side == lside then umpire.fail("melee: " .. f.name .. " is on " .. lone.name .. "'s side") end
      local m = marks[f.id] or markers_of(f)
      marks[f.id] = m
      if m.incapacitated then umpire.fail("melee: " .. f.name .. " is out of the battle") end
    end
    marks[lone.id] = markers_of(lone)
    if marks[lone.id].incapacitated then umpire.fail("melee: " .. lone.name .. " is out of the battle") end
    -- the target named as one of the foes is that foe's handle
    local target = foes[1]
    if o.target then
      target = nil
      for i, x in ipairs(named) do if x == o.target then target = foes[i] end end
      target = target or umpire.element(o.target)
    end
    if not target then umpire.fail("melee: target=" .. o.target .. " is not a soldier") end
    local sit = { charging = set_of(o.charging), barrier = set_of(o.barrier), rear = {}, memo = {}, squads = squads, marks = marks }
    if o.rear then
      for x in tostring(o.rear):gmatch("[^,%s]+") do local e = umpire.element(x); if e then sit.rear[e.id] = true end end
    end
    local funit = foes[1].unit
    local lsq, fsq = squads[lunit], squads[funit]
    for _, uid in ipairs { lunit, funit } do
      local sq = squads[uid]
      if U.state(sq) == "broken" and sit.charging[uid] then umpire.fail(sq.name .. " is broken and may not fight a charge") end
    end
    local ls, lmelee = cc_roll(ctx, lone, sit, "alone against " .. #foes)
    local blows_on_lone, lone_hits = {}, nil
    local lname, target_id = lone.name, target.id
    local rec = { lone = { id = lone.id, score = ls }, foes = {} }
    local ffight = { charging = sit.charging, barrier = sit.barrier, rear = sit.rear, outnumber = #foes - 1, memo = sit.memo, squads = sit.squads, marks = marks }
    for _, f in ipairs(foes) do
      local fs, fmelee = cc_roll(ctx, f, ffight)
      local fname, fid = f.name, f.id
      local line = ctx:check("Close combat: " .. lname .. " " .. ls .. " v " .. fname .. " " .. fs .. " (Ch4 Close Combat Skill Tests)")
      local res
      if fs > ls then
        res = fname .. " wins: damages " .. lname
        local ds, lab = cc_ds(f, fmelee, marks[fid].wounded or false)
        blows_on_lone[#blows_on_lone + 1] = { ds = ds, label = fname .. ": " .. lab }
      elseif ls > fs then
        if fid == target_id then
          res = lname .. " wins against his target: damages " .. fname
          local ds, lab = cc_ds(lone, lmelee, marks[lone.id].wounded or false)
          lone_hits = { ds = ds, label = lname .. ": " .. lab }
        else
          res = lname .. " wins but " .. fname .. " is not his target: he only avoids the blow"
        end
      else
        res = "a tie: nothing happens"
      end
      line:result(res)
      rec.foes[#rec.foes + 1] = { id = fid, score = fs, result = res }
    end
    umpire.record("fight", rec)
    local now = umpire.option("cc_damage") == "at_once"
    local out = {}
    for _, sq in ipairs { lsq, fsq } do U.mark(sq, "fought", "fought in close combat (Ch5 Rally)") end
    for _, e in ipairs { lone, table.unpack(foes) } do
      local m = marks[e.id]
      if not m.engaged then e:mark("engaged", "in base contact (Ch4)"); m.engaged = true end
    end
    local tie = (#blows_on_lone > 0 or lone_hits) and umpire.option("damage_tie") or nil
    -- the markers the fight has read serve the holding too, unless a house rule wraps R.damage
    local plain = R.plain_damage()
    if #blows_on_lone > 0 then
      local m = marks[lone.id]
      local w, i = R.damage(ctx, lone, blows_on_lone, nil, tie, m.wounded or false)
      out[#out + 1] = lname .. ": " .. R.hold(lone, w, i, "close combat (Ch4 Close Combat Damage)", now, "close", plain and m or nil)
    end
    if lone_hits then
      local m = marks[target_id] or markers_of(target)
      local w, i = R.damage(ctx, target, { lone_hits }, nil, tie, m.wounded or false)
      out[#out + 1] = target.name .. ": " .. R.hold(target, w, i, "close combat (Ch4 Close Combat Damage)", now, "close", plain and m or nil)
    end
    if #out == 0 then out[1] = "no damage" end
    return table.concat(out, "\n")
  end,
}

-- Ch4 Declaring a Charge, Ch5 charge and receiving tests.
umpire.command {
  name = "charge",
  help = "declare a charge: the charger's morale test (threat 6), then the defender's (threat 4), with the exemptions (Ch4; Ch5): "
    .. "charge goblins rangers [flank] [barrier] [heavy] [cover] [charger_cover]",
  args = { { name = "charger", type = "unit" }, { name = "target", type = "unit" },
           { name = "inputs", type = "text", optional = true,
             help = "flank (into flank or rear), barrier (defender directly behind a barrier), heavy (the target has a crewed or siege weapon), cover (defender behind cover), charger_cover (the charger, still stationary, behind cover)" } },
  run = function(ctx, args)
    local o = U.opts(args.inputs, { flank = "flag", barrier = "flag", heavy = "flag", cover = "flag", charger_cover = "flag" }, "charge")
    local a, d = args.charger, args.target
    local sa = U.state(a)
    if sa == "demoralized" or sa == "broken" then umpire.fail(a.name .. " is " .. sa .. ": it may not charge (Ch4 Declaring a Charge)") end
    if a:has("no_fire") or a:has("fire_plus1") then umpire.fail(a.name .. " has already moved this turn: a charge is declared at the start of its move (Ch4)") end
    local na, nd = #U.standing(a), #U.standing(d)
    local out = {}
    umpire.record("sizes", { na, nd })
    if na >= 2 * nd and not o.heavy then
      out[#out + 1] = a.name .. " (" .. na .. ") has twice " .. d.name .. "'s " .. nd .. " or more: no charge test (Ch4)"
    else
      local txt, r = M.test(ctx, a, "charge", { flank = o.flank, barrier = o.barrier, cover = o.charger_cover })
      out[#out + 1] = txt
      if r.withdraw or r.state == "demoralized" or r.state == "broken" then
        out[#out + 1] = "the charge is ABORTED: " .. a.name .. " does not move this phase, bar the withdraw or rout (AMB-28)"
        U.mark(a, "fire_plus1", "an aborted charge counts as having moved (AMB-28)")
        umpire.record("charge", "aborted")
        return table.concat(out, "\n")
      end
    end
    U.mark(a, "charged", "charging (Ch4): +1 in the first close combat, may not fire this turn")
    U.mark(a, "no_fire", "a charge is a run: no fire this turn (Ch2)")
    umpire.record("charge", "goes in")
    if na * 2 < nd and not o.flank then
      out[#out + 1] = d.name .. " faces fewer than half its number: no receiving test (Ch4); it may use defensive fire if charged from the front (`deffire`)"
      umpire.record("receive", "exempt")
    else
      local txt, r = M.test(ctx, d, "receive", { flank = o.flank, outnumbered = na >= 2 * nd, cover = o.cover })
      out[#out + 1] = txt
      if r.withdraw or r.state == "broken" then
        U.mark(d, "no_fire", "lost its defensive fire and may not fire this turn (Ch4 Receiving a Charge)")
        out[#out + 1] = d.name .. " gives way: no defensive fire, no fire this turn; " .. a.name .. " moves onto its old position and may go on with movement left (Ch4)"
        umpire.record("receive", r.state == "broken" and "routs" or "withdraws")
      else
        local ranged = false
        for _, e in ipairs(U.standing(d)) do if U.weapon_of(e, "ranged") then ranged = true end end
        local can = ranged and not o.flank and not d:has("no_fire")
        out[#out + 1] = d.name .. " stands" .. (can and ("; defensive fire at the midpoint or where the chargers come into view, the nearer (`deffire " .. d.id .. " " .. a.id .. " range=…`)")
          or "; no defensive fire (" .. (not ranged and "no ranged weapons" or (o.flank and "charged in flank or rear" or "it ran or opportunity-fired")) .. ", Ch4; AMB-40)")
        umpire.record("receive", "stands")
      end
    end
    out[#out + 1] = a.name .. " now moves at its Run Rate straight at the enemy (`chargefail " .. a.id .. "` if no soldier reaches contact)"
    return table.concat(out, "\n")
  end,
}

umpire.command {
  name = "chargefail",
  help = "a charge whose Run Rate brings no soldier into contact fails: morale -1 (Ch4 Moving into Contact): chargefail goblins",
  args = { { name = "squad", type = "unit" } },
  run = function(ctx, args)
    local sq = args.squad
    local old = sq.morale
    local new, st = U.set_morale(sq, old - 1, "the charge fell short (Ch4 Moving into Contact)")
    return sq.name .. ": morale " .. old .. " → " .. new .. " (" .. st .. ")" .. (st == "broken" and "\n" .. M.rout_text(sq) or "")
  end,
}

-- Ch4 Force Back and Advance After Combat; AMB-34.
umpire.command {
  name = "forceback",
  help = "after the Close Combat Phase: the squad with more casualties this turn is forced back 4\" unless the other is outnumbered 2:1 (Ch4 Force Back): forceback goblins rangers",
  args = { { name = "a", type = "unit" }, { name = "b", type = "unit" } },
  run = function(ctx, args)
    local a, b = args.a, args.b
    local applied = R.apply_pending("close")
    if #applied > 0 then print("The phase's fights are over: their damage takes effect now (AMB-16)\n  " .. table.concat(applied, "\n  ")) end
    local key = umpire.option("forceback_count") == "all" and "all" or "cc"
    local function cas(sq)
      if key == "all" then return sq.cas_all end
      return sq.cas_cc
    end
    local c = ctx:check("Force back (Ch4 Force Back and Advance After Combat; AMB-34)")
    local ca, cb = cas(a), cas(b)
    c:add(ca, a.name .. ": casualties this turn" .. (key == "cc" and " in close combat" or ""))
    c:add(-cb, b.name .. ": casualties this turn" .. (key == "cc" and " in close combat" or ""))
    umpire.record("casualties", { ca, cb })
    if ca == cb then c:result("equal: nobody is forced back"); return "nobody is forced back" end
    local loser, winner = (ca > cb) and a or b, (ca > cb) and b or a
    local nw, nl = #U.standing(winner), #U.standing(loser)
    if nw * 2 < nl then
      c:result(winner.name .. " (" .. nw .. ") is outnumbered 2:1 by " .. loser.name .. " (" .. nl .. "): nobody is forced back")
      return "nobody is forced back"
    end
    c:result(loser.name .. " is forced back")
    winner:set("cc_result", "won", "forced its opponent back (Ch4): -1 threat next Morale Phase")
    loser:set("cc_result", "lost", "forced back (Ch4): +1 threat next Morale Phase")
    umpire.record("forced_back", loser.id)
    return loser.name .. " retreats 4\" straight away from " .. winner.name .. ", keeping its facing (a door, window, wall or impassable ground stops it short); "
      .. winner.name .. " advances as far, staying in contact, unless it defends a barrier or passes `advance " .. winner.id .. " refuse`"
  end,
}

umpire.command {
  name = "advance",
  help = "a winner that will not advance after forcing its enemy back takes a difficulty 6 command test (Ch4; AMB-06): advance rangers refuse",
  args = { { name = "squad", type = "unit" }, { name = "refuse", type = "choice", values = { "refuse" } } },
  run = function(ctx, args)
    local pass = M.command_test(ctx, args.squad, "refusing to advance")
    umpire.record("passed", pass)
    return args.squad.name .. (pass and " holds its ground" or " must advance 4\", staying in contact")
  end,
}

-- Ch4 The Movement Phase and Close Combat (disengaging); AMB-35, AMB-36.
umpire.command {
  name = "disengage",
  help = "an engaged squad tries to pull out: difficulty 6 command test; on success the enemy gets a parting swing at +2 and the squad loses 1 morale (Ch4): "
    .. "disengage goblins rangers [pairs=r1:gob2,r2:gob3]",
  args = { { name = "squad", type = "unit" }, { name = "enemy", type = "unit" },
           { name = "inputs", type = "text", optional = true, help = "pairs=ENEMY:SOLDIER,… (who swings at whom; else in order)" } },
  run = function(ctx, args)
    local o = U.opts(args.inputs, { pairs = "word" }, "disengage")
    local sq, en = args.squad, args.enemy
    local pass = M.command_test(ctx, sq, "disengage")
    umpire.record("passed", pass)
    if not pass then return sq.name .. " fails to disengage: it stays in contact and may only change facing (AMB-35)" end
    return M.parting_swing(ctx, sq, en, o.pairs, "disengaging") .. "\n" ..
      (function()
        local old = sq.morale
        local new, st = U.set_morale(sq, old - 1, "disengaged (Ch4): morale -1")
        for _, e in ipairs(sq:elements("marked:engaged")) do e:unmark("engaged", "disengaged") end
        return sq.name .. " turns about and runs off at its Run Rate; morale " .. old .. " → " .. new .. " (" .. st .. ")"
      end)()
  end,
}

-- The parting swing (Ch4; Ch5 a squad breaking or withdrawing from close combat).
function M.parting_swing(ctx, sq, en, pairs, why)
  local list = {}
  if pairs then
    for a, b in pairs:gmatch("([^:,]+):([^,]+)") do
      local ea, eb = umpire.element(a), umpire.element(b)
      if not ea or not eb then umpire.fail("pairs: `" .. a .. ":" .. b .. "` must name two soldiers") end
      list[#list + 1] = { ea, eb }
    end
  else
    local ours = sq:elements("unmarked:incapacitated")
    local theirs = en:elements("unmarked:incapacitated")
    local eng = en:elements("marked:engaged unmarked:incapacitated")
    if #eng > 0 then theirs = eng end
    for i = 1, math.min(#ours, #theirs) do list[#list + 1] = { theirs[i], ours[i] } end
  end
  local out = {}
  local none = { charging = {}, barrier = {}, rear = {} }
  for _, p in ipairs(list) do
    local as, amelee = cc_roll(ctx, p[1], { charging = {}, barrier = {}, rear = {}, swing = true }, "parting swing")
    local ds_, _ = cc_roll(ctx, p[2], none, why)
    if as > ds_ then
      local ds, lab = cc_ds(p[1], amelee)
      local w, i = R.damage(ctx, p[2], { { ds = ds, label = p[1].name .. ": " .. lab } })
      out[#out + 1] = p[2].name .. ": " .. R.hold(p[2], w, i, "parting swing (Ch4)", true, "close")
    else
      out[#out + 1] = p[2].name .. " gets away unhurt (" .. ds_ .. " v " .. as .. ")"
    end
  end
  return "Parting swing by " .. en.name .. ":\n" .. table.concat(out, "\n")
end

umpire.command {
  name = "swing",
  help = "the parting swing at a squad that breaks or withdraws while in close combat (Ch4; Ch5): swing goblins rangers [pairs=…]",
  args = { { name = "squad", type = "unit" }, { name = "enemy", type = "unit" },
           { name = "inputs", type = "text", optional = true, help = "pairs=ENEMY:SOLDIER,…" } },
  run = function(ctx, args)
    local o = U.opts(args.inputs, { pairs = "word" }, "swing")
    return M.parting_swing(ctx, args.squad, args.enemy, o.pairs, "pulling out")
  end,
}
