-- Helpers every part of OLAB uses: rounding (1.2), edition switches, and small lookups.
local M = {}

-- 1.2: a fraction of one half or more rounds up, anything smaller down (x >= 0).
function M.rhu(x)
  return math.floor(x + 0.5)
end

function M.clamp(x, lo, hi)
  if x < lo then return lo end
  if x > hi then return hi end
  return x
end

-- 6.6, 8.8.1, 8.8.2: "only a quarter" of the hits, rounded by 1.2; never below 0.
function M.quarter(x)
  return M.rhu(math.max(0, x) / 4)
end

-- Table 9: a third of a vehicle's strength, rounded by 1.2.
function M.third(x)
  return M.rhu(x / 3)
end

-- The edition in force: "pn" (default) or "2e".
function M.edition()
  return umpire.variant == "2e" and "2e" or "pn"
end

function M.is_2e()
  return umpire.variant == "2e"
end

-- The main type of a stand code: "INF/A" -> "INF".
function M.main_type(code)
  return (code:match("^(%u+)")) or code
end

-- General ratings as modifiers (2.1): superior +1, competent 0, inferior -1.
M.rating = { superior = 1, competent = 0, inferior = -1 }

-- A table value that may differ by edition: a record {pn = …, e2 = …} gives the value for
-- the edition in force; anything else is returned as it is.
function M.ed(v)
  if type(v) == "table" and (v.pn ~= nil or v.e2 ~= nil) then
    if M.is_2e() then return v.e2 end
    return v.pn
  end
  return v
end

-- The stand codes of Table 1, in order (for command arguments).
M.types = { "INF/A", "INF/U", "WBD", "PKE", "ARC", "MSK", "SKI/F", "SKI/M", "SKI/S",
            "CAV/A", "CAV/U", "ART", "TNK", "TPT", "AIR" }


-- The sides that have stands, in the order their first stands appear (the sides' order).
-- Counted by the host: no stand is read.
function M.sides()
  local out = {}
  for _, side in ipairs(umpire.sides()) do
    if umpire.count("side:" .. side) > 0 then out[#out + 1] = side end
  end
  return out
end

-- The parties at the table (allied sides, `team NAME SIDE…`): each team, and each side in no
-- team, in the order of their first sides, as { id = TEAM or SIDE, team = true/false,
-- sides = {…} }. A team shares the initiative and (2e) army morale: see the README's
-- "Teams".
function M.parties()
  local out, index = {}, {}
  for _, side in ipairs(M.sides()) do
    local team = umpire.side(side).team
    local key = team or side
    if not index[key] then
      index[key] = #out + 1
      out[#out + 1] = { id = key, team = team ~= nil, sides = {} }
    end
    local p = out[index[key]]
    p.sides[#p.sides + 1] = side
  end
  return out
end

-- The party `side` plays in: its team's name, or the side itself.
function M.party_of(side)
  return umpire.side(side).team or side
end

-- The sides of party `id` (a team's name or a side's id).
function M.party_sides(id)
  for _, p in ipairs(M.parties()) do
    if p.id == id then return p.sides end
  end
  return { id }
end

-- Rating names by modifier, for breakdown labels.
M.rating_name = { [1] = "superior", [0] = "competent", [-1] = "inferior" }

-- A side's C-in-C stand (the stand flagged `cinc`), or nil. It only names the C-in-C in
-- breakdowns; the rating is the side's `cinc_rating`.
function M.cinc(side)
  return umpire.units("side:" .. side .. " cinc=true")[1]
end

-- The C-in-C rating of a side (3.2, 3.3, 7.1): the side's `cinc_rating` attribute (army files
-- set it; `cinc SIDE STAND` names the C-in-C and copies its rating; `newgeneral` makes a
-- replacement Inferior). Returns the modifier, a label for the breakdown and the C-in-C stand.
-- While the C-in-C stand is eliminated and not yet replaced (7.4) the rating does not apply.
function M.cinc_rating(side)
  local s = umpire.side(side)
  local g = M.cinc(side)
  local r = s.cinc_rating
  if g and g.off_table == "eliminated" then
    return 0, "C-in-C " .. g.name .. " eliminated: no rating until `newgeneral` (7.4)", g
  end
  local who = g and ("C-in-C " .. g.name) or (M.poss(s.name) .. " C-in-C, no stand named")
  return r, who .. " (" .. (M.rating_name[r] or tostring(r)) .. ")", g
end

-- Whether a stand is on the table (not in reserve, ambush, away, off or a spare sabot).
function M.on_table(u)
  return u.off_table == "no"
end

-- Stand classes used by shooting, close combat and morale (the rulebooks' glossary of stand types).
local FOOT = { INF = true, WBD = true, PKE = true, ARC = true, MSK = true }
-- Foot: INF, WBD, PKE (not elephants), ARC, MSK, SKI/F, SKI/S.
function M.is_foot(u)
  local t = u.type
  if t == "SKI/F" or t == "SKI/S" then return true end
  if t == "PKE" and u.elephant then return false end
  return FOOT[M.main_type(t)] == true
end

-- Mounted: CAV/A, CAV/U, SKI/M; elephants count as mounted (AMB-37).
function M.is_mounted(u)
  local t = u.type
  return t == "CAV/A" or t == "CAV/U" or t == "SKI/M" or (t == "PKE" and u.elephant)
end

function M.is_ski(u) return M.main_type(u.type) == "SKI" end

-- The game's period, set with `period` (store: year, scifi). Unset: no period-gated bonus.
function M.year() return (store.period or {}).year end
function M.scifi() return (store.period or {}).scifi == true end
-- True when the game is after `year` (or science fiction).
function M.after(year)
  local y = M.year()
  return M.scifi() or (y ~= nil and y > year)
end
-- True when the game's year is known and within [lo, hi].
function M.between(lo, hi)
  local y = M.year()
  return y ~= nil and y >= lo and y <= hi and not M.scifi()
end

-- Takes `hp` SP off `u` (never below 0) with a reason; returns the SP actually lost.
-- The unit_damaged handler of morale.lua runs at once and checks rout and elimination, so a
-- later step of the same command sees them.
function M.damage(u, hp, reason)
  local loss = math.min(math.max(0, hp), u.sp)
  if loss > 0 then u:add("sp", -loss, reason) end
  return loss
end

-- Whether a stand is out of the game (eliminated, routed off, retreated...).
function M.off_table(u)
  return u.off_table ~= "no"
end

-- The other stand of `u`'s square (6.6; formations.lua keeps the pairs), or nil.
function M.partner(u)
  local id = (store.squares or {})[u.id]
  return id and umpire.unit(id) or nil
end

-- A name in the possessive: "Archers'", "Warriors 7's".
function M.poss(name)
  return name .. (name:sub(-1) == "s" and "'" or "'s")
end

-- The current round.
function M.round() return umpire.clock().round end

-- Stand types that may never charge (4.4); they may still advance into contact.
M.NO_CHARGE = { PKE = true, TNK = true, ["SKI/S"] = true, ARC = true, TPT = true, ART = true }

-- The type a stand is protected as when shot at, knocked out or moved (2.2.4): the Wespe is
-- ART protected as a light-armour TNK and moves as a medium-speed TNK. Its own type otherwise.
function M.protected_type(u)
  local p = u.protected_as
  if p and p ~= "none" and p ~= "" then return p end
  return u.type
end

-- `u` seen as the vehicle it is protected as (2.2.4): the same stand, with `type` replaced,
-- for the movement rules. Methods still act on the stand itself.
function M.as_protected(u)
  local p = M.protected_type(u)
  if p == u.type then return u end
  return setmetatable({ type = p, own_type = u.type }, {
    __index = function(_, k)
      local v = u[k]
      if type(v) == "function" then return function(_, ...) return v(u, ...) end end
      return v
    end,
  })
end

-- The stand's own type when `u` is its protected view (`as_protected`), else nil.
function M.own_type(u)
  return type(u) == "table" and rawget(u, "own_type") or nil
end

-- A motor vehicle: TNK, or motor or jeep transport (Table 5 roads, 6.5 PKE +3).
function M.is_motor(u)
  return u.type == "TNK" or (u.type == "TPT" and (u.transport == "motor" or u.transport == "jeep"))
end

return M
