-- Helpers the FLD fighting rules share: distances shown in inches, the Combat Table, dice pools, a unit's
-- derived record (mass, BUIV, move, armour), losses and figure removal.
local D = require "fld.data"
local M = {}

function M.clamp(x, lo, hi) return math.max(lo, math.min(hi, x)) end

function M.fmt_in(x)
  if x == math.floor(x) then return string.format("%d\"", x) end
  return string.format("%.1f\"", x)
end

function M.fmt(x)
  if x == math.floor(x) then return string.format("%d", x) end
  return (string.format("%.2f", x):gsub("0+$", ""))
end

-- The options as a table read lazily and kept: for one command that asks the same ones many
-- times (each umpire.option is a call into umpire). Make a new one per command, so an
-- `option set` between commands is seen.
local options_mt = { __index = function(t, name)
  local v = umpire.option(name)
  t[name] = v       -- (no __newindex: a plain set, without the sandbox's rawset)
  return v
end }
function M.options()
  return setmetatable({}, options_mt)
end

-- An option from the command's table (M.options) when the caller has one, else asked.
local function option(opt, name)
  if opt then return opt[name] end
  return umpire.option(name)
end
M.option = option

-- The clock's text, read once per command and kept in its options table (M.options) when the
-- caller has one (umpire.clock is a call into umpire, and the clock stands still in a command).
local CLOCK = {}
function M.clock_text(opt)
  if not opt then return umpire.clock().text end
  local t = rawget(opt, CLOCK)
  if t == nil then
    t = umpire.clock().text
    opt[CLOCK] = t
  end
  return t
end

-- A unit's markers as a set (fld_common.util.marked).
M.marked = require("fld_common.util").marked
-- Whether the unit has the marker: from `marked` (M.marked) when the caller has read it.
local function has(u, marker, marked)
  if marked then return marked[marker] == true end
  return u:has(marker)
end
M.has = has

-- §27 the Combat Table read by the option combat_table (FLD-D01), inputs clamped (FLD-D04).
-- `how`: the option's value when the caller has read it.
function M.combat(own, opp, how)
  if own < 1 then own = 1 elseif own > 6 then own = 6 end
  if opp < 1 then opp = 1 elseif opp > 6 then opp = 6 end
  how = how or umpire.option("combat_table")
  if how == "literal" then return D.grid[opp][own] end
  if how == "reverse_both" then return D.grid[7 - opp][7 - own] end
  return D.grid[own][opp]
end

-- A pool of n d6 needing `need`: the expression, and the need actually used (FLD-D03).
-- `opt`: the command's options (M.options), when the caller has them.
function M.pool(n, need, opt)
  local eff = need
  if eff < 1 then eff = 1 end
  if eff > 6 then eff = option(opt, "impossible_score") == "six_always" and 6 or 7 end
  return n .. "d6>=" .. eff, eff
end

-- The sixes that are successes (FLD-D07). One pass over r.dice in Lua: r:count with a function
-- calls back into Lua for every die.
function M.sixes(r)
  local n = 0
  for _, d in ipairs(r.dice or {}) do
    if d.success and d.value == 6 then n = n + 1 end
  end
  return n
end

-- Mass (§8.1): typed by hand, else from height. Returns mass and how it was found.
function M.mass(u)
  if u.mass > 0 then return u.mass, "Mass " .. u.mass .. " typed" end
  local h = u.height
  for m, limit in ipairs(D.mass_limits) do
    if h <= limit then return m, "height " .. M.fmt(h) .. "' is up to " .. limit .. "': Mass " .. m end
  end
  return 6, "height " .. M.fmt(h) .. "' is over 12': Mass 6"
end

-- The Mass alone, as M.mass finds it, without writing how (the fighting rules ask it often).
function M.mass_value(u)
  local m = u.mass
  if m > 0 then return m end
  local h = u.height
  local limits = D.mass_limits
  for i = 1, #limits do
    if h <= limits[i] then return i end
  end
  return 6
end

-- BUIV (§8.2) and its text; `mass` and `order` when the caller knows them already.
function M.buiv(u, mass, order)
  local m = mass or M.mass_value(u)
  order = order or u.order
  return D.buiv[order][m], D.buiv_text[order][m]
end

-- Broad classes used throughout (each reads the type once: every read of a handle's field is
-- a lookup through its metatable). `u`: a handle, or a table of what was read of one.
function M.is_mounted(u)
  local t = u.type
  return t == "mounted" or t == "chariot"
end
function M.is_foot(u)
  local t = u.type
  return t == "foot" or t == "leviathan" or t == "commander"
end
function M.irregular(u) return u.discipline == "irregular" or u.type == "behemoth" end
function M.light_chariot(u)
  return u.type == "chariot" and (u.order == "open" or (u.order == "loose" and u.animals <= 2))
end

-- The legs a unit moves and pays by (§6, §36). §2.3 makes the Mounted the ridden and
-- unridden quadrupeds and the chariots (drawn by animals), so a Mounted or chariot unit is a
-- quadruped whatever `legs` says; every other type goes by its `legs`.
function M.legs(u)
  local t = u.type
  if t == "mounted" or t == "chariot" then return "quadruped" end
  return u.legs
end

-- Move in inches (§6): base, plus the Loose or Open bonus by legs.
function M.move(u)
  local legs = D.move[M.legs(u)]
  local bonus = (u.order == "loose" and legs.loose) or (u.order == "open" and legs.open) or 0
  return u.base_move + bonus, bonus
end

-- The ranks now: a list of { e = element }, front first. A rank's figures are M.count(rank),
-- read when first asked (a read of an element is a call into umpire, and a 1HW unit fights
-- with its front rank alone) and kept in the rank as `n`.
function M.ranks(u)
  local out = {}
  local list = u:elements()
  for i = 1, #list do out[i] = { e = list[i] } end
  return out
end
local function count(r)
  local n = r.n
  if n == nil then
    n = r.e.figures
    r.n = n
  end
  return n
end
M.count = count
-- The figures of rank i; `ranks` (M.ranks) when the caller has read them already.
function M.rank(u, i, ranks)
  local r = (ranks or M.ranks(u))[i]
  return r and count(r) or 0
end
-- The figures left; `ranks` (M.ranks) when the caller has read them already.
function M.figures(u, ranks)
  ranks = ranks or M.ranks(u)
  local k = #ranks
  if k == 0 then return u.figures end
  local n = 0
  for i = 1, k do n = n + count(ranks[i]) end
  return n
end
-- Whether the unit has figures left (M.figures > 0), reading no more ranks than it must.
function M.has_figures(u, ranks)
  ranks = ranks or M.ranks(u)
  local k = #ranks
  if k == 0 then return u.figures > 0 end
  for i = 1, k do
    if count(ranks[i]) > 0 then return true end
  end
  return false
end

-- Effective additive armour (§10): row (shield allowed?) -> + animal armour -> cap 6 ->
-- - disorder -> floor 0. `kind` is "melee" or "shooting"; `marked` (M.marked) when the caller
-- has read the unit's markers. Returns value and the steps.
function M.additive(u, kind, marked)
  local col = kind == "melee" and 1 or 2
  local row = D.armour[u.armour]
  local steps = {}
  local key = u.armour
  local w = D.weapons[u.weapon]
  local keep
  if kind == "melee" then keep = w[2] else keep = w[3] end
  if kind == "shooting" and u.weapon == "m2hw" and umpire.option("m2hw_shield") == "shooting" then keep = true end
  if row[4] and not keep then
    key = row[5]
    steps[#steps + 1] = w[1] .. ": no shield " .. (kind == "melee" and "in melee" or "at all") .. " (10)"
  end
  local v = D.armour[key][col]
  steps[#steps + 1] = D.armour[key][3] .. " " .. v .. " (" .. kind .. " column, 10)"
  local b = D.barding[u.barding][col]
  if b > 0 then v = v + b; steps[#steps + 1] = "+" .. b .. " " .. u.barding .. " animal armour (10)" end
  if v > 6 then v = 6; steps[#steps + 1] = "capped at 6 (10)" end
  if has(u, "disordered", marked) then
    local cut = u.order == "close" and 2 or 1
    v = math.max(0, v - cut)
    steps[#steps + 1] = "-" .. cut .. " disordered " .. u.order .. " order (10, 32)"
  end
  return v, table.concat(steps, "; ")
end

-- Effective natural armour (§10): as typed, unless the option disorder_armour is `close_both`
-- and the unit is disordered Close order: §10 says such troops lose 2 from their "armour
-- class", which that reading takes from the natural armour as well. Returns value and why.
-- `marked` (M.marked) and `opt` (M.options) when the caller has them.
function M.natural(u, marked, opt)
  local v = u.natural
  if v > 0 and u.order == "close" and has(u, "disordered", marked) and option(opt, "disorder_armour") == "close_both" then
    return math.max(0, v - 2), v .. " - 2 disordered Close order (10; option disorder_armour)"
  end
  return v, ""
end

-- Loss so far as a fraction of starting integrity (FLD-D24).
-- `start` (the starting integrity) and `now` (the integrity) when the caller has read them.
function M.lost_fraction(u, start, now)
  start = start or u.integrity_start
  if start <= 0 then return 0 end
  return (start - (now or u.integrity)) / start
end

-- Applies hit points to a unit's integrity (FLD-D33), keeps the loss of this phase for the
-- disorder trigger, and takes figures off by the option figure_loss. Returns the figures lost,
-- and the hit points lost this phase (what M.phase_loss reads) when there was a loss.
-- `opt` (M.options) and `known` (what the caller read of the unit before any change this
-- command: `mass`, `order`, `integrity_start`, `ranks` (M.ranks); each is read here when not
-- given) save calls into umpire.
function M.take_hits(u, hp, reason, opt, known)
  if hp <= 0 then return 0 end
  opt = opt or M.options()
  -- what the figure removal needs that the loss does not change is read before it: u:set
  -- drops everything the handle has read
  local keep = opt.figure_loss ~= "none"
  local buiv, start, istart
  if keep then
    known = known or {}
    buiv = M.buiv(u, known.mass, known.order)
    start, istart = u.figures, known.integrity_start or u.integrity_start
  end
  local new = u.integrity - hp
  if new < 0 and opt.integrity_floor == "floor_zero" then new = 0 end
  u:set("integrity", new, reason .. ": -" .. M.fmt(hp) .. " integrity")
  -- the loss of this phase, one plain value per unit: "CLOCK|HP"
  local clock = M.clock_text(opt)
  local key = "loss_" .. u.id
  local was = store[key]
  local wclock, whp = nil, 0
  if was then wclock, whp = was:match("^(.*)|([%d%.]+)$") end
  local phase = (wclock == clock) and (tonumber(whp) + hp) or hp
  store[key] = clock .. "|" .. phase
  if not keep then return 0, phase end
  return M.remove_figures(u, reason, opt, buiv, start, istart, known.ranks), phase
end

-- Figures follow integrity (our reading; the rulebook gives no removal rule): a figure leaves
-- for each full Base Unit Integrity Value lost, taken from the rearmost rank first so the
-- front rank stays full as long as it can. `buiv`, `start` (figures), `istart` (starting
-- integrity) and `ranks` (M.ranks, read since the unit's elements last changed) when the
-- caller has read them.
function M.remove_figures(u, reason, opt, buiv, start, istart, ranks)
  opt = opt or M.options()
  if opt.figure_loss == "none" then return 0 end
  buiv = buiv or M.buiv(u)
  start = start or u.figures
  if start <= 0 or buiv <= 0 then return 0 end
  local lost = math.floor(((istart or u.integrity_start) - u.integrity) / buiv + 1e-9)
  local should = math.max(0, start - lost)
  ranks = ranks or M.ranks(u)         -- read once: the count and the removal both use them
  local have = M.figures(u, ranks)
  local take = have - should
  if take <= 0 then return 0 end
  local left = take
  for i = #ranks, 1, -1 do
    if left <= 0 then break end
    local r = ranks[i]
    local t = math.min(left, r.n)     -- read: M.figures counted every rank
    if t > 0 then
      -- the rank's figures as read: e:set, where e:add would read them again
      r.e:set("figures", r.n - t, t .. " figure" .. (t > 1 and "s" or "") .. " lost from rank " .. i ..
        " (" .. reason .. "; a figure per " .. M.fmt(buiv) .. " integrity lost, rear rank first)")
      left = left - t
    end
  end
  return take
end

-- Hit points lost this phase (for the disorder trigger, §31.1 a); `opt` (M.options) when the
-- caller has one (it keeps the clock's text).
function M.phase_loss(u, opt)
  local was = store["loss_" .. u.id]
  if not was then return 0 end
  local c, hp = was:match("^(.*)|([%d%.]+)$")
  if c == M.clock_text(opt) then return tonumber(hp) end
  return 0
end

return M
