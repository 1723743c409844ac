-- Small helpers the shared FLD / Undying Lands command modules use.
local M = {}

-- The words of a text argument (nil gives none).
function M.words(text)
  local out = {}
  for w in tostring(text or ""):gmatch("%S+") do out[#out + 1] = w end
  return out
end

-- An attribute that another part of the ruleset may or may not declare (a unit's
-- `discipline`, say): its value, or `default` when the schema has no such attribute.
local function index(h, name) return h[name] end
function M.attr(h, name, default)
  local ok, v = pcall(index, h, name)     -- no closure made per call: handlers ask this often
  if ok and v ~= nil then return v end
  return default
end

-- Whether a handle carries a marker the schema may not declare (false if undeclared).
function M.has(h, marker)
  local ok, v = pcall(function() return h:has(marker) end)
  return ok and v == true
end

-- A unit's markers as a set (name -> true): one call into umpire (u:markers()) where each
-- u:has is one, for the rules that ask a unit several markers in one command. What the set
-- says holds until the unit changes.
function M.marked(u)
  local set = {}
  local list = u:markers()
  for i = 1, #list do set[list[i]] = true end
  return set
end

-- Ids of a list of handles, joined.
function M.ids(list, sep)
  local out = {}
  for i, h in ipairs(list) do out[i] = h.id end
  return table.concat(out, sep or ", ")
end

-- Whether a unit is a commander figure (the units' part gives them `type = "commander"`).
function M.is_figure(u)
  return tostring(M.attr(u, "type", "")):lower() == "commander"
end

-- The commands (groups) of a side that have Tactical Units (commander figures alone do not
-- make one), in the order their first units appear; with `role`, only commands whose `role`
-- attribute is that (`"mtu"`: the sub-commanders').
function M.commands(side, role)
  local seen, out = {}, {}
  for _, u in ipairs(umpire.units("side:" .. side)) do
    local c = u.command
    if not seen[c] and not M.is_figure(u) then
      seen[c] = true
      local g = umpire.group(c)
      if role == nil or M.attr(g, "role", "mtu") == role then out[#out + 1] = g end
    end
  end
  return out
end

-- Every sub-commander's command (role `mtu`) of every side, sides in the game's order.
function M.all_mtus()
  local out = {}
  for _, side in ipairs(umpire.sides()) do
    for _, g in ipairs(M.commands(side, "mtu")) do out[#out + 1] = g end
  end
  return out
end

-- The units of a command that are still in the fight (not removed); `filter` adds selector terms.
function M.units_of(command, filter)
  return umpire.units("command:" .. command .. (filter and (" " .. filter) or ""))
end

function M.clamp(x, lo, hi)
  if x < lo then return lo end
  if x > hi then return hi end
  return x
end

-- A signed modifier: +1, -2, 0.
function M.signed(n)
  if n > 0 then return "+" .. n end
  return tostring(n)
end

-- A configuration value that may be a function (read when the rule applies, e.g. an option).
function M.value(v, ...)
  if type(v) == "function" then return v(...) end
  return v
end

-- 1st, 2nd, 3rd, 4th… (the suffix only).
function M.ordinal(n)
  local t = n % 100
  if t >= 11 and t <= 13 then return "th" end
  return ({ "st", "nd", "rd" })[n % 10] or "th"
end

return M
