-- The heroes house rule's adapter for Undying Lands (scripts/heroes.lua picks it when the
-- ruleset undying_lands is loaded). UL has no Heroes of its own, so they are kept in the
-- heroes store. What a Hero means in UL (rulesets/undying_lands/README.md, "Heroes"):
--
-- * OLAB's +1 SP becomes +1 Integrity Point on the Hero's own vignette (the TU's first, where
--   umpire seats its figure): IP are what a vignette loses (UL 3). `ip_start`, the base of the
--   50% lines, stays as `muster` built it (so declare after `muster`).
-- * OLAB's "never routs" becomes: the Hero's vignette never routs on an integrity test (UL 23):
--   a score 10 or more over its IP is lowered to 9 over, on the breakdown as a line of its
--   own, so it is repulsed instead. Other vignettes of its TU test as usual.
-- * The +1 on a single dispute test: UL has none, so `herotest` from heroes.lua serves.
-- A Main Character gets none of this; both are noted to return in the next battle when their
-- TU has no IP left (or no vignette).
local U = require "undying_lands.util"

local A = { name = "undying_lands" }

A.builtin = {}
A.rules = "Undying Lands: Heroes kept in the store; +1 IP on the Hero's vignette instead of +1 SP; " ..
  "the Hero's vignette never routs on an integrity test (23); the +1 test from heroes.lua"
-- UL takes a routed vignette off the table: there is no rout marker to lift.
A.rout_marker = "ul_no_rout_marker"

function A.kind(u)
  return (store.declared or {})[u.id]
end

-- The Hero's vignette: the TU's first.
local function seat(u)
  return u:elements()[1]
end

function A.declare(u, kind)
  if not u:has("mustered") then
    umpire.fail(u.name .. " is not mustered yet: `muster " .. u.id .. "` first (it builds the IP the " ..
      "Hero's +1 is added to, UL 3), then `hero " .. u.id .. "`")
  end
  local d = store.declared or {}
  if d[u.id] == kind then return u.name .. " is already a " .. kind end
  d[u.id] = kind
  store.declared = d
  if kind == "hero" then
    local e = seat(u)
    e:set("ip", e.ip + 1, "a Hero's +1 IP, in place of OLAB's +1 SP (8.8.4; UL 3)")
    U.sync(u, "a Hero's +1 IP (8.8.4)")
  end
  return u.name .. " is a " .. (kind == "hero" and "Hero" or "Main Character")
end

function A.eliminated(u)
  return #u:elements() == 0 or u.ip <= 0
end

-- A fallen Hero back for a campaign's next battle: each vignette left at the IP it was built
-- with, without markers (vignettes taken off the table stay off).
function A.restore(u, reason)
  for _, e in ipairs(u:elements()) do
    if e.ip < e.ip_start then e:set("ip", e.ip_start, reason) end
  end
  U.sync(u, reason)
  -- It stays mustered (its IP are built), so it is not mustered again.
  for _, m in ipairs(u:markers()) do
    if m ~= "mustered" then u:unmark(m, reason) end
  end
end

function A.strength(u)
  return string.format("IP %d of %d", u.ip, u.ip_start)
end

-- The Hero's vignette never routs on an integrity test (UL 23.3): at most 9 over its IP.
umpire.hook("ul.integrity", function(c, ctx, sit)
  if not sit or sit.trigger == "d" then return end
  local u, e = sit.unit, sit.vignette
  if A.kind(u) ~= "hero" or seat(u).id ~= e.id then return end
  local cap = e.ip + 9
  if c:total() > cap then
    c:add(cap - c:total(), "a Hero never routs: at most 9 over its IP, repulsed (heroes house rule, 8.8.4)", "8.8.4")
  end
end)

return A
