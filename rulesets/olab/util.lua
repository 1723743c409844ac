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

return M
