-- Morale triggers and modifiers shared by FLD (§31, §34) and its revision Undying Lands. It
-- knows nothing of units or the game: callers pass plain facts and get back lists to put in a
-- breakdown, so each ruleset keeps its own schema. No init.lua: `ruleset list` does not offer
-- this folder; `require "fld_common.morale"` loads it.
local M = {}

-- The loss brackets (FLD §31.2; shooting uses the 25/50 pair, §25.3). `lost` is the fraction
-- of starting integrity lost (1 = all). `brackets` is a list of { above, value, label } from
-- the smallest up, `strict` true for "over", false for "or more". With `cumulative` every
-- bracket reached applies; otherwise only the largest (FLD-D09).
function M.brackets(lost, brackets, cumulative, strict)
  local hit = {}
  for _, b in ipairs(brackets) do
    local reached = strict and lost > b[1] or (not strict and lost >= b[1])
    if reached then hit[#hit + 1] = b end
  end
  if cumulative or #hit == 0 then return hit end
  return { hit[#hit] }
end

-- FLD §31.2's loss brackets.
M.fld_loss = {
  { 0.25, -1, "lost over 25% of integrity" },
  { 0.50, -2, "lost over 50% of integrity" },
  { 0.75, -3, "lost over 75% of integrity" },
  { 1.00, -4, "lost over 100% of integrity" },
}

-- The triggers of FLD §31.1 that hold for the facts given. Facts (all optional):
-- lost (fraction), is_behemoth, charged_by_behemoth, loose_open_foot, charged_by_mounted_in_open,
-- wants_fanatic, wants_formation_change, friend_broke_within_12, mtu_demoralised_now,
-- contacted_flank_or_rear. Returns a list of { letter, text }.
M.trigger_text = {
  a = "lost over 25% of its starting integrity",
  b = "charged by a Behemoth (not itself one)",
  c = "Loose or Open order Foot charged by Mounted in the open",
  d = "wishes to fanatic charge",
  e = "wishes to change formation",
  f = "a friendly unit broke within 12\"",
  g = "a Major Tactical Unit of its side became demoralised",
  h = "contacted in flank or rear",
}
function M.triggers(f)
  local t = {}
  local function add(k) t[#t + 1] = { k, M.trigger_text[k] } end
  if (f.lost or 0) > 0.25 then add("a") end
  if f.charged_by_behemoth and not f.is_behemoth then add("b") end
  if f.loose_open_foot and f.charged_by_mounted_in_open then add("c") end
  if f.wants_fanatic then add("d") end
  if f.wants_formation_change then add("e") end
  if f.friend_broke_within_12 then add("f") end
  if f.mtu_demoralised_now then add("g") end
  if f.contacted_flank_or_rear then add("h") end
  return t
end

-- §31.1 a: the loss within one phase disorders when it is over 25% of the starting integrity
-- (or 25% or more, `at_least`; FLD-D23).
function M.disorders(phase_loss, start, at_least)
  if start <= 0 then return false end
  local f = phase_loss / start
  if at_least then return f >= 0.25 end
  return f > 0.25
end

-- §34: a Major Tactical Unit is demoralised once at least half its units have Fragmented or
-- Broken; a side has lost once at least half its MTUs are demoralised.
function M.demoralised(units, gone)
  if units <= 0 then return false end
  return gone * 2 >= units
end

-- The modifiers of FLD §31.2 from the facts: lost (fraction), cumulative (FLD-D09),
-- charged_in_open (Loose/Open Foot charged by Behemoth or Mounted on good ground),
-- outmassed, unsupported, disordered_or_fragmented, own_mtu_demoralised, demoralised_mtus
-- (count on its side), linked, sub_commander, cinc, cinc_value (-2 printed, FLD-D14).
-- Returns a list of { value, label, rule }.
function M.modifiers(f)
  local m = {}
  local function add(v, l, r) m[#m + 1] = { v, l, r or "31.2" } end
  if f.charged_in_open then add(-1, "Loose/Open Foot charged by Behemoth or Mounted on good ground") end
  if f.outmassed then add(-1, "melee opponents have a Mass advantage") end
  for _, b in ipairs(M.brackets(f.lost or 0, M.fld_loss, f.cumulative, true)) do
    add(b[2], b[3], "31.2" .. (f.cumulative and "; FLD-D09 cumulative" or "; FLD-D09"))
  end
  if f.unsupported then add(-1, "unsupported", "31.2; FLD-D26") end
  if f.disordered_or_fragmented then add(-1, "disordered or Fragmented") end
  if f.own_mtu_demoralised then add(-2, "part of a demoralised Major Tactical Unit") end
  if (f.demoralised_mtus or 0) > 0 then
    add(-2 * f.demoralised_mtus, f.demoralised_mtus .. " demoralised Major Tactical Unit(s) on its side, -2 each")
  end
  if f.linked then add(1, "in a linked group") end
  if f.sub_commander then add(1, "a sub-commander is with the unit") end
  if f.cinc then add(f.cinc_value or -2, "the C-in-C is with the unit", "31.2; FLD-D14") end
  return m
end

-- FLD §11: the band for a modified score at a morale level.
function M.band(level, score)
  if score >= 7 - level then return "pass" end
  if score < 2 - level then return "break" end
  return "fragment"
end

return M
