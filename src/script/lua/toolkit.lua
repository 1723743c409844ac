-- Trusted Lua, part of umpire: the sandbox's toolkit (src/script/sandbox.rs): protection, read-only views.
local setmetatable, next, error, tostring, type = setmetatable, next, error, tostring, type
local rawget, sort = rawget, table.sort
local kit = {}

-- `pairs` walks keys in one order whatever the run: numbers ascending, then strings, then
-- `false` and `true`, then any other key. Lua's own order follows string hashes, which are
-- seeded afresh for each state, so a rule that printed or rolled in `next` order would not
-- play the same twice (a replay, a golden transcript, the odds of a seed).
local function rank(k)
  local ty = type(k)
  if ty == "number" then return 1 elseif ty == "string" then return 2 elseif ty == "boolean" then return 3 end
  return 4
end
local function before(a, b)
  local ra, rb = rank(a), rank(b)
  if ra ~= rb then return ra < rb end
  if ra <= 2 then return a < b end
  if ra == 3 then return b and not a end
  return false
end
-- An iterator over `t`'s keys in that order (values as they are when reached, `wrap`ped when
-- given; a key set to nil meanwhile is skipped).
function kit.ordered(t, wrap)
  local keys, n = {}, 0
  -- keys all strings or all numbers (the common case) sort with Lua's own `<`, without
  -- calling `before` for each comparison
  local strings, numbers = true, true
  for k in next, t do
    n = n + 1
    keys[n] = k
    local ty = type(k)
    if ty ~= "string" then strings = false end
    if ty ~= "number" then numbers = false end
  end
  if n > 1 then
    if strings or numbers then sort(keys) else sort(keys, before) end
  end
  local i = 0
  return function()
    while i < n do
      i = i + 1
      local k = keys[i]
      local v = rawget(t, k)
      if v ~= nil then
        if wrap then v = wrap(v) end
        return k, v
      end
    end
    return nil
  end
end
local ordered = kit.ordered

-- Objects no script may write into with `rawset`: proxies, views, handles, checks, stores.
local protected = setmetatable({}, { __mode = "k" })
function kit.protect(t)
  protected[t] = true
  return t
end
-- Weak maps whose keys are protected too (objects kept with their private state, such as
-- checks and `ctx`): one entry for each such object instead of two.
local guarded = {}
function kit.guard(map) guarded[#guarded + 1] = map end
local function is_protected(t)
  if protected[t] then return true end
  for i = 1, #guarded do
    if guarded[i][t] ~= nil then return true end
  end
  return false
end
kit.is_protected = is_protected

local function refuse(name)
  return function(_, k)
    error("`" .. name .. "` is read-only (cannot set `" .. tostring(k) .. "`)", 2)
  end
end

-- A read-only proxy of `t`: reads go through, writes fail naming `name`, `pairs` walks `t`
-- without ever handing it out, and the metatable is hidden.
function kit.readonly(t, name)
  local proxy = setmetatable({}, {
    __index = t,
    __newindex = refuse(name),
    __pairs = function() return ordered(t), nil, nil end,
    __len = function() return #t end,
    __metatable = false,
  })
  protected[proxy] = true
  return proxy
end

-- A deep read-only view of `t`: tables inside are views too (the same view each time).
local views = setmetatable({}, { __mode = "k" })
local function view(t, name)
  if type(t) ~= "table" or is_protected(t) then return t end
  local v = views[t]
  if v then return v end
  local function wrap(value) return view(value, name) end
  v = setmetatable({}, {
    __index = function(_, k) return view(t[k], name) end,
    __newindex = refuse(name),
    __pairs = function() return ordered(t, wrap), nil, nil end,
    __len = function() return #t end,
    __metatable = false,
  })
  protected[v] = true
  views[t] = v
  return v
end
kit.view = view

-- A deep copy of plain data (a list read from a unit's attributes, say).
local function copy(v)
  if type(v) ~= "table" then return v end
  local c = {}
  for k, x in next, v do c[k] = copy(x) end
  return c
end
kit.copy = copy

return kit
