-- Set-ups shared by the Undying Lands rule tests (files starting with `_` are helpers).
local h = {}

-- A game with sides r and b, commands rw (red wing) and bw (blue wing), the units given as
-- `add unit` lines, mustered. `opts.options`: "NAME VALUE" strings set before mustering.
function h.game(units, opts)
  opts = opts or {}
  local s = session { ruleset = "undying_lands", seed = opts.seed }
  s:run("add side r Red")
  s:run("add side b Blue")
  s:run("add command r rw RedWing")
  s:run("add command b bw BlueWing")
  for _, o in ipairs(opts.options or {}) do s:run("option set " .. o) end
  for _, u in ipairs(units) do s:run("add unit " .. u) end
  if #units > 0 then s:run("muster") end
  return s
end

-- The worked examples' troops (the rulebook's values; unstated ones assumed: README).
h.rom = "rw rom Romans weapon=hfs morale_class=IV defence=C shield=lsh vignettes=1"
h.gal = "bw gal Galatians order=loose discipline=irregular missile=ssw shield=sh vignettes=2"
h.pike = "rw pk Pikes weapon=pike morale_class=III defence=C vignettes=2"
h.kn = "bw kn Knights type=mounted weapon=lance defence=D mount_armour=partial vignettes=1"
h.bow = "rw bow Longbows order=loose missile=lrw vignettes=2"

-- Queues lists of dice in order.
function h.queue(s, ...) for _, l in ipairs({ ... }) do s:dice(table.unpack(l)) end end

-- Every line of `out` that contains `word`.
function h.lines(out, word)
  local t = {}
  for l in out:gmatch("[^\n]+") do if l:find(word, 1, true) then t[#t + 1] = l end end
  return t
end

-- Whether `a` and `b` differ (for option tests).
function h.differ(a, b) ok(a ~= b, "expected the alternative to change the result, both gave " .. tostring(a)) end

return h
