-- The tables for `table show` (the rules read data.lua and placeholders.lua).
local data = require "undying_lands.data"
local ph = require "undying_lands.placeholders"

local function cross(name, rows, cols, get)
  local cells = {}
  for i, r in ipairs(rows) do
    cells[i] = {}
    for j, c in ipairs(cols) do cells[i][j] = get(r, c) end
  end
  umpire.table { name = name, rows = rows, cols = cols, cells = cells }
end
local orders, types = { "close", "loose", "open" }, data.TYPES
cross("biv_placeholder", orders, types, function(r, c) return ph.biv[r][c] end)
cross("physique_size_placeholder", { "low", "average", "high", "extreme" }, data.SIZES,
  function(r, c) return ph.physique_size[r][c] end)
cross("defence_placeholder", { "A", "B", "C", "D", "E", "F" }, { "pts", "sh", "lsh", "move" },
  function(r, c) return ph.defence[r][c] end)
cross("weapon_class_placeholder", { "lance", "2hpw", "2hw", "m2hw", "sa", "hfs", "pike", "spear" },
  { "first", "foot", "other" }, function(r, c) return ph.weapon[r][c] end)
cross("base_numbers_placeholder", orders, data.SIZES, function(r, c) return ph.base_numbers[r][c] end)
cross("move", orders, types, function(r, c) return data.MOVE[r][c] end)
umpire.table { name = "morale_class", entries = { { "V", 10 }, { "IV", 5 }, { "III", 0 }, { "II", -5 }, { "I", -10 } } }
for _, w in ipairs({ "ssw", "srw", "lrw", "sbw" }) do
  cross("shooting_" .. w, { "militia", "drilled", "skilled" }, { "foot", "heavy", "mounted" },
    function(r, c) return data.SHOOT[w][c][data.PROF_INDEX[r]] end)
end
cross("melee_dice", { "regular", "irregular" }, { "militia", "drilled", "skilled" },
  function(r, c) return data.MELEE_DICE[r][c] end)
cross("size", types, data.SIZES, function(r, c)
  for i, s in ipairs(data.SIZES) do if s == c then return data.SIZE_FEET[r][i] end end
end)
