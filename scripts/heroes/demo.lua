-- The heroes house rule's adapter for the demo ruleset. The demo has no hero attribute, so
-- heroes are kept in the heroes store; a unit with no SP left is out of the battle (the demo
-- marks it routed then), and the core gives the +1 SP, the never-rout rule and the +1 test.
local A = { name = "demo" }

A.builtin = {}
A.rules = "demo: heroes kept in the store; +1 SP, never routs and the +1 test from heroes.lua"
A.max_sp = 10

function A.kind(u)
  return (store.declared or {})[u.id]
end

function A.declare(u, kind)
  local d = store.declared or {}
  if d[u.id] == kind then return u.name .. " is already a " .. kind end
  d[u.id] = kind
  store.declared = d
  if kind == "hero" and u.sp < A.max_sp then u:add("sp", 1, "a Hero's +1 SP at creation (8.8.4)") end
  return u.name .. " is a " .. kind
end

function A.eliminated(u)
  return u.sp <= 0
end

A.rout_marker = "routed"

-- A fallen hero back for the next battle: full SP again.
function A.restore(u, reason)
  if u.sp < A.max_sp then u:set("sp", A.max_sp, reason) end
  for _, m in ipairs(u:markers()) do u:unmark(m, reason) end
end

return A
