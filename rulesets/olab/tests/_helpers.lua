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

-- Red: a Superior C-in-C and 6 more stands (rc); blue: an Inferior C-in-C and 5 more (bc): the
-- set-up of the sequence tests (deployment, initiative, sets).
function h.cinc_game(opts)
  local s = session(opts or { ruleset = "olab" })
  s:run("add side red Red")
  s:run("add side blue Blue")
  s:run("add command red rc R")
  s:run("add command blue bc B")
  s:run("add unit rc rgen RedGen type=SKI/M general=superior cinc=true")
  for i = 1, 6 do s:run("add unit rc r" .. i .. " R" .. i .. " type=INF/U") end
  s:run("add unit bc bgen BlueGen type=SKI/M general=inferior cinc=true")
  for i = 1, 5 do s:run("add unit bc b" .. i .. " B" .. i .. " type=WBD") end
  s:run("cinc red rgen")
  s:run("cinc blue bgen")
  return s
end

-- Moves the clock to the named phase of the round.
function h.to_phase(s, phase)
  for _ = 1, 8 do
    if s:run("clock"):find(phase) then return end
    s:run("next")
  end
end

-- Moves the clock on to the next round.
function h.next_round(s)
  local r = s:run("clock"):match("round (%d+)")
  repeat s:run("next") until s:run("clock"):match("round (%d+)") ~= r
end

return h
