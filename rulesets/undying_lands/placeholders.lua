-- THE SIX LOST TABLES. Our copy of the Undying Lands rulebook keeps the labels of these
-- tables but not their numbers. The values below are PLACEHOLDERS made by umpire (README.md,
-- "Placeholders", shows how each was derived), not the rulebook's. A club that has the
-- printed numbers edits them here, and nowhere else: every rule reads these tables, and every
-- breakdown line and record that uses one says "PLACEHOLDER" (`ph.tag`).
local M = {}

-- 3, table p.6: Basic Integrity Value by order (rows) and general class (columns).
M.biv = {
  close = { foot = 15, mounted = 22, leviathan = 22, behemoth = 22 },
  loose = { foot = 11, mounted = 18, leviathan = 15, behemoth = 15 },
  open = { foot = 7, mounted = 8, leviathan = 11, behemoth = 11 },
}

-- 3, table p.7: Physique (rows) and Size (columns), added to the BIV.
M.physique_size = {
  low = { v_small = -15, small = -10, average = -5, large = 0, huge = 5 },
  average = { v_small = -10, small = -5, average = 0, large = 5, huge = 10 },
  high = { v_small = -5, small = 0, average = 5, large = 10, huge = 15 },
  extreme = { v_small = 0, small = 5, average = 10, large = 15, huge = 20 },
}

-- 2.7, table p.8: Defence class: IP with no shield (pts), with shields (sh), with large
-- shields (lsh) - one column only - and the change to the move in cm.
M.defence = {
  A = { pts = 0, sh = 6, lsh = 8, move = 0 },
  B = { pts = 1, sh = 6, lsh = 9, move = 0 },
  C = { pts = 2, sh = 6, lsh = 10, move = 0 },
  D = { pts = 4, sh = 7, lsh = 10, move = 0 },
  E = { pts = 6, sh = 8, lsh = 10, move = 0 },
  F = { pts = 8, sh = 10, lsh = 12, move = 0 },
}

-- 7, table p.11: Command control. The score needed on a d6 by the number tried (rows: regular
-- 1-3, 4-6, 7-8, 9+; irregular 1-2, 3, 4, 5+) and the rating (columns 1-6); "no": cannot be
-- activated (five such cells survive, their places do not).
M.activation = {
  { 5, 4, 3, 2, 1, 1 },
  { 6, 5, 4, 3, 2, 1 },
  { "no", "no", 5, 4, 3, 2 },
  { "no", "no", "no", 5, 4, 3 },
}

-- 19, table p.20: Melee weapon class factors: at first contact, vs Foot, vs Other (Mounted,
-- Leviathan, Behemoth). `from_text` lists the cells the worked examples give (not placeholders).
M.weapon = {
  lance = { first = 2, foot = 0, other = 0 },
  ["2hpw"] = { first = 1, foot = 1, other = 1 },
  ["2hw"] = { first = 1, foot = 1, other = 1 },
  m2hw = { first = 1, foot = 2, other = 2 },
  sa = { first = 1, foot = 0, other = 0 },
  hfs = { first = 3, foot = 1, other = 1 },
  pike = { first = 1, foot = 2, other = 6 },
  spear = { first = 1, foot = 2, other = 4 },
}
M.from_text = {
  ["sa.first"] = "the Galatian example (19)", ["sa.foot"] = "the Galatian example (19)",
  ["hfs.first"] = "the Roman example (19)", ["hfs.foot"] = "the Roman example (19)",
  ["pike.first"] = "the pike example (19)", ["pike.other"] = "the pike example (19)",
}

-- 28, table p.27 (optional, flavour only): real creatures a vignette stands for, by order and size.
M.base_numbers = {
  close = { v_small = 1920, small = 1440, average = 960, large = 720, huge = 480 },
  loose = { v_small = 1440, small = 1080, average = 720, large = 540, huge = 360 },
  open = { v_small = 480, small = 360, average = 240, large = 180, huge = 120 },
}

-- The words every use of a placeholder carries, in the breakdown line and in the record.
M.tag = "PLACEHOLDER"
function M.label(text) return text .. " [" .. M.tag .. ": lost table, umpire's value]" end

return M
