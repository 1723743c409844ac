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

-- umpire.units(selector), but an empty list when nothing matches (umpire.units raises an
-- error for a selector that matches no unit).
function M.units(selector)
  local ok, r = pcall(umpire.units, selector)
  if ok then return r end
  if tostring(r):find("no unit matches", 1, true) then return {} end
  error(r, 0)
end

-- The sides that have stands, in the order their first stands appear.
function M.sides()
  local seen, out = {}, {}
  for _, u in ipairs(M.units("all")) do
    if not seen[u.side] then
      seen[u.side] = true
      out[#out + 1] = u.side
    end
  end
  return out
end

-- A side's C-in-C stand (the stand flagged `cinc`), or nil. Scripts cannot read side
-- attributes, so the C-in-C's rating comes from this stand's `general` attribute.
function M.cinc(side)
  for _, u in ipairs(M.units("side:" .. side)) do
    if u.cinc then return u end
  end
  return nil
end

-- The C-in-C rating of a side (3.2, 3.3): +1 superior, 0 competent, -1 inferior; 0 if the
-- side has no stand flagged `cinc`.
function M.cinc_rating(side)
  local g = M.cinc(side)
  if not g then return 0, nil end
  return M.rating[g.general] or 0, g
end

-- Whether a stand is on the table (not in reserve, ambush, away, off or a spare sabot).
function M.on_table(u)
  return u.off_table == "no"
end

return M
