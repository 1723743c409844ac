-- Set-ups shared by the FLD unit-and-fighting tests (files starting with `_` are helpers).
local h = {}

-- An FLD game with sides light and dark, commands l1 (light) and d1 (dark), the units given
-- as `add unit` lines, mustered (ranks, integrity, points).
function h.game(units, opts)
  local s = session(opts or { ruleset = "fld" })
  s:run("add side light Light")
  s:run("add side dark Dark")
  s:run("add command light l1 Lights")
  s:run("add command dark d1 Darks")
  for _, u in ipairs(units) do s:run("add unit " .. u) end
  if #units > 0 then s:run("muster") end
  return s
end

-- Queues lists of dice in order.
function h.queue(s, ...)
  for _, list in ipairs({ ... }) do s:dice(table.unpack(list)) end
end

-- n dice of one face.
function h.rep(face, n)
  local t = {}
  for i = 1, n do t[i] = face end
  return t
end

-- Typical units.
h.cw = "d1 cw Chaos_Warriors figures=24 files=12 height=7 attacks=3 melee=4 strength=4 natural=1 armour=plate_sh morale=5"
h.pk = "l1 pk Pikes figures=32 files=8 height=6 melee=3 weapon=p strength=3 armour=partial_sh morale=4"
h.arc = "l1 arc Archers figures=24 files=12 height=6 shooting=3 missile=lb melee=2 morale=3 order=loose"
h.war = "d1 war Warband figures=24 files=12 discipline=irregular height=6 melee=3 morale=3 base_move=5"

return h
