-- Distances as the umpire types them, and distance bands. Shared by FLD (inches) and Undying
-- Lands (centimetres): every function takes the ruleset's unit, "in" or "cm".
--
--   local distance = require "fld_common.distance"
--   distance.parse('12"', "in")     --> 12          distance.parse("30cm", "in") --> 11.81…
--   distance.parse("12in", "cm")    --> 30.48       distance.parse("6'", "in")   --> 72
--   distance.band(18, distance.FLD_COMMAND)  --> 1, "over 12\" to 24\""
local M = {}

-- Centimetres in one of each unit the umpire may type.
local CM = { ["in"] = 2.54, cm = 1, mm = 0.1, ft = 30.48, m = 100 }
local SUFFIX = {
  ['"'] = "in", ["''"] = "in", ["in"] = "in", inch = "in", inches = "in",
  cm = "cm", mm = "mm", m = "m", ["'"] = "ft", ft = "ft", feet = "ft", foot = "ft",
}

-- `text` ('12"', "12in", "12", "30cm", "6'", "2.5") as a distance in `unit` ("in" or "cm").
-- A bare number is already in `unit`. Returns the value, or nil and a message naming the
-- problem and what would be accepted.
function M.parse(text, unit)
  unit = unit or "in"
  if type(text) == "number" then return text end
  local s = tostring(text or ""):lower():gsub("%s+", "")
  local num, suffix = s:match("^(%d*%.?%d+)(.*)$")
  if not num then
    return nil, "`" .. tostring(text) .. "` is not a distance: type a number with its unit, " ..
      "e.g. 12\" or 12in (inches) or 30cm"
  end
  local v = tonumber(num)
  if suffix == "" then return v end
  local from = SUFFIX[suffix]
  if not from then
    return nil, "`" .. tostring(text) .. "`: unknown unit `" .. suffix .. "`; use \" or in, cm, mm or ' (feet)"
  end
  return v * CM[from] / CM[unit]
end

-- Like parse, but refuses the command with the message (and where it was typed).
function M.need(text, unit, what)
  local v, err = M.parse(text, unit)
  if not v then umpire.fail((what and (what .. ": ") or "") .. err) end
  return v
end

-- Whether a word looks like a distance (a number, with or without a unit).
function M.is_distance(word)
  return type(word) == "string" and word:lower():match("^%d*%.?%d+[%a\"']*$") ~= nil
    and M.parse(word, "in") ~= nil
end

-- A distance for a breakdown label: 12", 11.8", 30 cm (one decimal at most).
function M.show(v, unit)
  local t = string.format("%.1f", v):gsub("%.0$", "")
  if (unit or "in") == "in" then return t .. '"' end
  return t .. " " .. unit
end

-- Distance bands: a list of { upto = N [, open = true], mod = M, label = "…" }, nearest
-- first; a band holds distances up to N inclusive (`open`: strictly below N); the last band
-- has no `upto` and holds the rest. Returns the band's modifier, its label and its index.
function M.band(d, bands)
  for i, b in ipairs(bands) do
    if b.upto == nil or (b.open and d < b.upto) or (not b.open and d <= b.upto) then
      return b.mod, b.label, i
    end
  end
  error("distance bands without a last, open-ended band")
end

-- FLD 18 (FLD-D20): 12" or less 0; over 12" to 24" +1; over 24" to 48" +2; further +3.
-- The printed bands are "13 to 24" and "25 to 48"; the gaps between are closed upwards.
M.FLD_COMMAND = {
  { upto = 12, mod = 0, label = '12" or less' },
  { upto = 24, mod = 1, label = 'over 12" to 24"' },
  { upto = 48, mod = 2, label = 'over 24" to 48"' },
  { mod = 3, label = 'over 48"' },
}

-- Undying Lands 11 (UL-D21), in cm: under 30 0; 30 to 60 +1; over 60 to 120 +2; further +3.
M.UL_COMMAND = {
  { upto = 30, open = true, mod = 0, label = "under 30 cm" },
  { upto = 60, mod = 1, label = "30 to 60 cm" },
  { upto = 120, mod = 2, label = "over 60 to 120 cm" },
  { mod = 3, label = "over 120 cm" },
}

-- Range bands of a weapon, `{ S = 4, M = 8, L = 16 }` (FLD 35): "S", "M", "L", or nil when
-- beyond the long range.
function M.range_band(d, ranges)
  for _, k in ipairs({ "S", "M", "L" }) do
    if ranges[k] and d <= ranges[k] then return k end
  end
  return nil
end

return M
