-- Set-ups shared by the OLAB test files (`local h = require "_helpers"`; files starting with `_`
-- are helpers, not tests).

local h = {}

-- An OLAB game (or `opts`' session) with sides red and blue, commands r1 (red) and b1 (blue)
-- and any `extra_commands` (`"red r2 Reserve"`), then one `add unit` per entry of `units`.
function h.game(units, opts, extra_commands)
  local s = session(opts or { ruleset = "olab" })
  s:run("add side red Red")
  s:run("add side blue Blue")
  s:run("add command red r1 Reds")
  for _, c in ipairs(extra_commands or {}) do s:run("add command " .. c) end
  s:run("add command blue b1 Blues")
  for _, u in ipairs(units) do s:run("add unit " .. u) end
  return s
end

-- Moves the clock on to the next round.
function h.next_round(s)
  local r = s:run("clock"):match("round (%d+)")
  repeat s:run("next") until s:run("clock"):match("round (%d+)") ~= r
end

return h
