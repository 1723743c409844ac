-- Helpers the Undying Lands parts share: vignettes and their IP, the phase's losses, factors
-- recorded for --json with their placeholder flags.
local data = require "undying_lands.data"
local ph = require "undying_lands.placeholders"

local M = {}

-- A factor in a check and in a record list: { label, value, rule, placeholder }.
function M.factor(c, list, value, label, rule, placeholder)
  if placeholder then label = ph.label(label) end
  c:add(value, label, rule)
  if list then list[#list + 1] = { label = label, value = value, rule = rule, placeholder = placeholder or false } end
end

-- The vignettes of a TU, refusing a TU that has none (not mustered).
function M.vignettes(u, what)
  local v = u:elements()
  if #v == 0 then
    umpire.fail((what or "") .. u.id .. " has no vignettes: run `muster " .. u.id .. "` first (3)")
  end
  return v
end

function M.unit_of(e) return umpire.unit(e.unit) end

-- A plain copy of a value read from the store. A table read from the store is a view, and
-- every index into a view reads the whole stored value again; `pairs` reads it once, so the
-- copy costs one store read per table in it.
function M.plain(v)
  if type(v) ~= "table" then return v end
  local out = {}
  for k, x in pairs(v) do out[k] = M.plain(x) end
  return out
end

-- The phase under way, as a key.
function M.phase_key()
  local c = umpire.clock()
  return tostring(c.round) .. "." .. tostring(c.phase)
end

-- Keeps each vignette's IP at the start of the phase (24; UL-D16), before a loss.
function M.baseline(e, key)
  local k = key or M.phase_key()
  if e.phase_key ~= k then
    if e.ip_phase ~= e.ip then e:set("ip_phase", e.ip, "IP at the start of phase " .. k .. " (24)") end
    e:set("phase_key", k, "phase " .. k)
  end
end

-- The TU's IP total kept in step with its vignettes (routed vignettes count 0). `els`: its
-- vignettes (u:elements()) when the caller has them and none has been added or removed since;
-- `facts`: their IP as M.lose_all left them (facts[e].ip, by handle), where it knows them.
function M.sync(u, reason, els, facts)
  local t = 0
  for _, e in ipairs(els or u:elements()) do
    local f = facts and facts[e]
    t = t + (f and f.ip or e.ip)
  end
  if u.ip ~= t then u:set("ip", t, reason) end
end

-- A vignette loses `n` IP (n >= 0). IP floor by option ip_minimum (UL-D01). With `nosync`
-- the caller brings the TU's total up to date afterwards (M.sync), once for many losses.
function M.lose(e, n, reason, nosync, key)
  if n <= 0 then return e.ip end
  local facts = {}
  M.lose_all({ { e, n, reason } }, key or M.phase_key(), facts)
  if not nosync then M.sync(M.unit_of(e), reason) end
  return facts[e].ip
end

-- Many losses of one command, in order, each as M.lose(e, n, reason, true, key) describes
-- (M.baseline, then the loss): `hits` = { { e, n, reason }, … }. What it reads of each
-- vignette is kept in `facts[e]` (by handle: { ip, phase_key, ip_phase }, as they are after
-- the losses; `ip` may be given there beforehand), so the caller's M.sync and the checks after
-- the losses need not read them again. The option ip_minimum is read once, when a vignette
-- would fall below 1.
function M.lose_all(hits, key, facts)
  local floor
  for _, h in ipairs(hits) do
    local e, n = h[1], h[2]
    if n > 0 then
      local f = facts[e]
      if f == nil then f = {}; facts[e] = f end
      local ip = f.ip
      if ip == nil then ip = e.ip end
      -- M.baseline: once the phase_key is this phase's, a second loss leaves it as it is
      if f.phase_key ~= key then
        if e.phase_key ~= key then
          local base = e.ip_phase
          if base ~= ip then e:set("ip_phase", ip, "IP at the start of phase " .. key .. " (24)"); base = ip end
          e:set("phase_key", key, "phase " .. key)
          f.ip_phase = base
        end
        f.phase_key = key
      end
      local new = ip - n
      if new < 1 then
        if floor == nil then floor = umpire.option("ip_minimum") == "always" end
        if floor then new = math.min(ip, 1) end
      end
      if new ~= ip then e:set("ip", new, h[3]) end
      f.ip = new
    end
  end
end

-- A vignette gains `n` IP (rally), capped by option rally_cap (UL-D14). Returns the gain.
function M.gain(e, n, reason)
  local new = e.ip + n
  if umpire.option("rally_cap") == "start" and new > e.ip_start then new = math.max(e.ip, e.ip_start) end
  local g = new - e.ip
  if g ~= 0 then e:set("ip", new, reason) end
  M.sync(M.unit_of(e), reason)
  return g
end

-- Reductions of -25% and -half, rounded down (UL-D04). Returns the new value and the text.
function M.reduce(v, kind)
  local how = umpire.option("reduce_rounding")
  if v <= 0 then return v end
  if kind == "quarter" then
    if how == "floor_value" then return math.floor(v * 3 / 4) end
    return v - math.floor(v / 4)
  end
  if how == "floor_value" then return math.floor(v / 2) end
  return v - math.floor(v / 2)
end

-- Tactical Move in cm (5, 2.7): by order and class, + Fast, + the defence Move column.
function M.move(u)
  local m = data.MOVE[u.order][u.type]
  local fast = u.fast and data.FAST[u.type] or 0
  local d = ph.defence[u.defence].move
  return m + fast + d, m, fast, d
end

function M.class_text(u)
  return (u.discipline == "irregular" and "Irregular " or "Regular ") .. data.ORDER_NAME[u.order] .. " " ..
    data.TYPE_NAME[u.type]
end

-- A vignette's label: "rom.1 (Romans vignette 1)".
function M.vname(e)
  local u = M.unit_of(e)
  local i = 0
  for n, x in ipairs(u:elements()) do if x.id == e.id then i = n end end
  return u.id .. "." .. i
end

function M.signed(n) return n > 0 and ("+" .. n) or tostring(n) end

-- A distance in cm as typed: whole numbers without a decimal point (15, not 15.0), others as
-- they are (22.5).
function M.cm(x)
  local i = math.tointeger(x)
  if i then return i end
  if x == math.floor(x) then return math.floor(x) end
  return x
end

-- The fanatic charge's reach (16): one and a half times the Tactical Move, unrounded (the
-- rulebook rounds nothing here: a 15 cm move reaches 22.5 cm).
function M.fanatic_reach(u) return M.cm(M.move(u) * 3 / 2) end


-- The Tactical Move as a factor of a check: it includes the defence class's Move column, a
-- placeholder (2.7, table p.8), so the line says so.
function M.move_factor(c, u, list, label)
  M.factor(c, list, M.move(u), (label or "Tactical Move") .. " (with the defence Move column)", "5", true)
end
function M.move_text(u)
  return M.move(u) .. " cm " .. ph.label("with the defence Move column")
end

return M
