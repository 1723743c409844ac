-- The heroes house rule's adapter for FLD, The Forces of Light and Darkness (scripts/heroes.lua
-- picks it when FLD is loaded). FLD has no Heroes of its own, so they are kept in the heroes
-- store, as for the demo. What a Hero means in FLD (README.md in this folder says it for the
-- umpire):
--
-- * OLAB's +1 SP becomes +1 Integrity Point: SP are what an OLAB stand loses to hits, Integrity
--   Points what an FLD unit loses (FLD 8.2), so a Hero's unit has one more than its start: the
--   first hit point it takes costs no figure and counts for no loss. `integrity_start`, the
--   base of the loss fractions (25%, 50%) and of figure removal, stays as `muster` computed it
--   (so declare after `muster`).
-- * OLAB's "never routs" becomes "never Breaks": a Hero's unit never fails a morale test (FLD
--   31) so badly that it Breaks: a score in the Break band is raised to the bottom of the
--   Fragment band, on the breakdown as a line of its own. It can still Fragment, and still fail a fanatic charge's test by two (23.2). Any other
--   Break (an Irregular unit's charge response, 24.5) is lifted by heroes.lua itself.
-- * The +1 on a single dispute test: FLD has none, so `herotest` from heroes.lua serves.
-- A Main Character gets none of this (no Integrity Point, Breaks as usual); both are noted to
-- return in the next battle when their unit has no integrity left.
local A = { name = "fld" }

A.builtin = {}
A.rules = "FLD: Heroes kept in the store; +1 Integrity Point instead of +1 SP; never Break on a " ..
  "morale test (31); other Breaks lifted and the +1 test from heroes.lua"
A.rout_marker = "broken"

function A.kind(u)
  return (store.declared or {})[u.id]
end

-- Declares a Hero (+1 Integrity Point, FLD 8.2) or a Main Character (nothing more).
function A.declare(u, kind)
  if u.type == nil then umpire.fail(u.id .. " is not an FLD unit") end
  local d = store.declared or {}
  if d[u.id] == kind then return u.name .. " is already a " .. kind end
  if kind == "hero" and not u:has("mustered") then
    umpire.fail(u.name .. " is not mustered yet: `muster " .. u.id .. "` first (it computes the " ..
      "Integrity Points the Hero's +1 is added to, FLD 8.2), then `hero " .. u.id .. "`")
  end
  d[u.id] = kind
  store.declared = d
  if kind == "hero" then
    u:add("integrity", 1, "a Hero's +1 Integrity Point, in place of OLAB's +1 SP (8.8.4; FLD 8.2)")
  end
  return u.name .. " is a " .. (kind == "hero" and "Hero" or "Main Character")
end

function A.eliminated(u)
  return u.integrity <= 0
end

-- Markers that are not the battle's: the unit's muster and its being a battery.
local LASTING = { mustered = true, battery = true }

-- A fallen Hero back for the campaign's next battle: its Integrity Points as at the start and
-- no marker of the battle it fell in (it stays mustered, so it is not mustered again).
function A.restore(u, reason)
  if u.integrity < u.integrity_start then u:set("integrity", u.integrity_start, reason) end
  for _, m in ipairs(u:markers()) do
    if not LASTING[m] then u:unmark(m, reason) end
  end
end

-- What `heroes` shows of a unit's strength.
function A.strength(u)
  return string.format("integrity %g of %g", u.integrity, u.integrity_start)
end

-- A Hero never Breaks on a morale test (FLD 31, 11): the Break band is below 2 - morale.
umpire.hook("fld.morale.modifiers", function(c, ctx, sit)
  local u = sit and sit.unit
  if not u or A.kind(u) ~= "hero" then return end
  local floor = 2 - u.morale
  if c:total() < floor then
    c:add(floor - c:total(), "a Hero never Breaks: raised to the Fragment band (heroes house rule, 8.8.4)", "8.8.4")
  end
end)

return A
