-- The tables of Undying Lands that survive in our copy, as printed (numbers only).
local M = {}

M.TYPES = { "foot", "mounted", "leviathan", "behemoth" }
M.TYPE_NAME = { foot = "Foot", mounted = "Mounted", leviathan = "Leviathan", behemoth = "Behemoth" }
M.ORDER_NAME = { close = "Close order", loose = "Loose order", open = "Open order" }

-- 2.3: minimum vignettes in a Tactical Unit.
M.MIN_TU = { irregular = 2, regular = 1, regular_pike = 2 }

-- 2.5: morale classes and their change to IP.
M.MORALE = { V = 10, IV = 5, III = 0, II = -5, I = -10 }

-- 2.7: animal armour for Mounted.
M.MOUNT_ARMOUR = { none = 0, partial = 2, full = 4 }

-- 3: BIV additions for Foot with spear or pike.
M.BIV_WEAPON = { spear = 4, pike = 8 }

-- 5: Tactical Move in cm, by order and general class; extra if Fast.
M.MOVE = {
  close = { foot = 10, mounted = 10, leviathan = 10, behemoth = 10 },
  loose = { foot = 15, mounted = 15, leviathan = 15, behemoth = 10 },
  open = { foot = 15, mounted = 20, leviathan = 15, behemoth = 10 },
}
M.FAST = { foot = 5, mounted = 10, leviathan = 5, behemoth = 5 }

-- 18: shooting: range in cm and base die by target column (foot, heavy = Le/Be/CO, mounted)
-- and proficiency (militia, drilled, skilled).
M.SHOOT = {
  ssw = { range = 10, foot = { "1d2", "1d4", "1d6" }, heavy = { "1d4", "1d6", "1d8" }, mounted = { "2d4", "2d6", "2d8" } },
  srw = { range = 20, foot = { "1d4", "1d6", "1d8" }, heavy = { "1d6", "1d8", "1d10" }, mounted = { "2d6", "2d8", "2d10" } },
  lrw = { range = 40, foot = { "1d6", "1d8", "1d10" }, heavy = { "1d8", "1d10", "1d12" }, mounted = { "2d8", "2d10", "2d12" } },
  sbw = { range = 3, foot = { "1d4", "1d4", "1d6" }, heavy = { "1d6", "1d8", "1d10" }, mounted = { "1d6", "1d8", "1d10" } },
}
M.PROF_INDEX = { militia = 1, drilled = 2, skilled = 3 }

-- 19: melee proficiency dice by army class.
M.MELEE_DICE = {
  regular = { militia = "2d4", drilled = "2d6", skilled = "3d6" },
  irregular = { militia = "1d8", drilled = "1d12", skilled = "1d20" },
}

-- 28 (optional): the size table, height in feet "up to".
M.SIZE_FEET = {
  foot = { "4 ft", "5 ft", "6 ft", "7 ft", "8 ft" },
  mounted = { "4 ft", "5 ft", "6 ft", "7 ft", "8 ft" },
  leviathan = { "7 ft", "8 ft", "9 ft", "10 ft", "12 ft" },
  behemoth = { "no", "10 ft", "15 ft", "20 ft", "more" },
}
M.SIZES = { "v_small", "small", "average", "large", "huge" }

return M
