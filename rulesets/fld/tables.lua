-- FLD's tables for the shell (`table list`, `table show fld_combat`); built from data.lua, which
-- the rules read, so the two never differ.
local D = require "fld.data"
local T = {}
local six = { "1", "2", "3", "4", "5", "6" }

T.fld_combat = { doc = "§27 Combat Table as printed (rows: printed rows; the option combat_table says how to read it)",
  rows = six, cols = six, cells = D.grid }
T.fld_buiv = { doc = "§8.2 Base Unit Integrity Value: order by Mass", rows = { "1", "2", "3" }, cols = six,
  cells = { D.buiv.close, D.buiv.loose, D.buiv.open } }
T.fld_mass = { doc = "§8.1 Mass by height in feet (up to)", entries = {
  { "up to 4'", 1 }, { "up to 5'", 2 }, { "up to 6'", 3 }, { "up to 9'", 4 }, { "up to 12'", 5 }, { "more", 6 } } }
do
  local e = {}
  for _, k in ipairs(D.armour_order) do
    local a = D.armour[k]
    e[#e + 1] = { k, a[1] .. " melee / " .. a[2] .. " shooting (" .. a[3] .. ")" }
  end
  e[#e + 1] = { "partial animal armour", "+0 melee / +1 shooting" }
  e[#e + 1] = { "full animal armour", "+1 melee / +2 shooting" }
  T.fld_armour = { doc = "§10 additive armour class", entries = e }
end
T.fld_morale = { doc = "§11 morale table: the modified d6 by morale level", rows = six,
  cols = { "break below", "fragment", "pass" },
  cells = { { 1, "1 to 5", "6+" }, { 0, "0 to 4", "5+" }, { -1, "-1 to 3", "4+" },
            { -2, "-2 to 2", "3+" }, { -3, "-3 to 1", "2+" }, { -4, "-4 to 0", "1+" } } }
do
  local e = {}
  for _, k in ipairs(D.missile_order) do
    local w = D.missiles[k]
    local th = w[2] == 0 and "-" or string.format("%+d", w[2])
    e[#e + 1] = { k, w[4] .. ": strength " .. w[1] .. ", to hit " .. th .. ", range " .. w[3] .. "\"" }
  end
  T.fld_missiles = { doc = "§25.6 shooting weapons", entries = e }
end
T.fld_to_hit = { doc = "§25.3 score to hit by shooting factor", entries = {
  { "1", "6+" }, { "2", "5+" }, { "3", "4+" }, { "4", "3+" }, { "5", "2+" }, { "6", "1+" } } }
T.fld_irregular_response = { doc = "§24 irregulars charged: d6 + (morale - 1)", rows = { "<=2", "3-4", "5+" },
  cols = { "reaction" }, cells = { { "counter-charge" }, { "evade if able, else break" }, { "break" } } }
do
  local rows, cells = {}, {}
  for _, p in ipairs(D.periods) do
    for _, w in ipairs(D.weights) do
      rows[#rows + 1] = p .. " " .. w
      local b = D.gunnes[p][w]
      cells[#cells + 1] = { b[1], b[2], b[3] }
    end
    rows[#rows + 1] = p .. " strength"
    local s = D.gunnes[p].strength
    cells[#cells + 1] = { s[1], s[2], s[3] }
  end
  T.fld_gunnes = { doc = "§35 gunne range bands (inches) and band strength", rows = rows, cols = { "S", "M", "L" }, cells = cells }
end
T.fld_points = { doc = "§36 points per level of a characteristic", entries = {
  { "1", 10 }, { "2", 20 }, { "3", 30 }, { "4", 50 }, { "5", 100 }, { "6", 150 } } }
return T
