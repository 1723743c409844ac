-- Set-ups shared by the OpenD6 Fantasy Miniatures tests (`local h = require "_helpers"`).

local h = {}

-- A game with sides red and blue, commands r (red) and b (blue).
function h.game(opts)
  local s = session(opts or { ruleset = "opend6fm" })
  s:run("add side red Red")
  s:run("add side blue Blue")
  s:run("add command red r Reds")
  s:run("add command blue b Blues")
  return s
end

-- A squad: `h.squad(s, "b", "gob", { n = 5, attrs = "agi=3 cor=3 phy=2", weapons = "longbow" })`.
-- Soldiers are ID1 (the sergeant), ID2… standard; `champion = "cor=3 weapons=heavy_crossbow"`
-- adds a champion last. Morale from `quality` (average unless given).
function h.squad(s, cmd, id, o)
  local q = o.quality or "average"
  local m = ({ average = 5, veteran = 6, elite = 7 })[q]
  local n = o.n or 5
  s:run("add unit " .. cmd .. " " .. id .. " " .. (o.name or id))
  s:run("set " .. id .. " quality " .. q)
  s:run("set " .. id .. " morale_start " .. m)
  s:run("set " .. id .. " morale " .. (o.morale or m))
  s:run("set " .. id .. " state " .. ({ [0] = "broken", "demoralized", "shaken", "shaken", "steady", "steady", "steady", "steady" })[o.morale or m])
  local attrs = (o.attrs or "") .. (o.weapons and (" weapons=" .. o.weapons) or "")
  for i = 1, n do
    local role = i == 1 and "sergeant" or "standard"
    s:run("add element " .. id .. " " .. id .. i .. " " .. id .. i .. " role=" .. role .. " " .. attrs)
  end
  local total = n
  if o.champion then
    s:run("add element " .. id .. " " .. id .. "c " .. id .. "c role=champion " .. (o.attrs or "") .. " " .. o.champion)
    total = total + 1
  end
  s:run("set " .. id .. " soldiers " .. total)
  s:run("set " .. id .. " start_size " .. total)
  return s
end

-- Moves the clock to a phase of the current or next round.
function h.to_phase(s, phase)
  for _ = 1, 12 do
    if s:run("clock"):find(phase .. " phase", 1, true) then return end
    s:run("next")
  end
  error("no phase " .. phase)
end

return h
