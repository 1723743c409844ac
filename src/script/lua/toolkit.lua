-- Trusted Lua, part of umpire: the sandbox's toolkit (src/script/sandbox.rs): protection, read-only views.
local setmetatable, next, error, tostring, type = setmetatable, next, error, tostring, type
local kit = {}

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
  local function iter(_, k) return next(t, k) end
  local proxy = setmetatable({}, {
    __index = t,
    __newindex = refuse(name),
    __pairs = function() return iter, nil, nil end,
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
  local function iter(_, k)
    local key, value = next(t, k)
    return key, view(value, name)
  end
  v = setmetatable({}, {
    __index = function(_, k) return view(t[k], name) end,
    __newindex = refuse(name),
    __pairs = function() return iter, nil, nil end,
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
