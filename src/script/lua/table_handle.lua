-- Trusted Lua, part of umpire: table handles, umpire.table(name) (src/script/registry.rs).
local lookup, roll_table, kit = ...
local setmetatable, error = setmetatable, error
local names = setmetatable({}, { __mode = "k" })
local Handle = {}
local HandleMT = {
  __index = function(h, k)
    if k == "name" then return names[h] end
    return Handle[k]
  end,
  __newindex = function() error("a table handle is read-only", 2) end,
  __metatable = false,
}
local function name_of(h)
  local n = names[h]
  if not n then error("call it on a table handle, with a colon: t:lookup(key)", 3) end
  return n
end
-- t:lookup(key [, col]): the cell, and the row key used.
function Handle:lookup(key, col) return lookup(name_of(self), key, col) end
-- t:roll([modifier [, col]]): the value read and the modified total.
function Handle:roll(modifier, col) return roll_table(name_of(self), modifier, col) end
return function(name)
  local h = kit.protect(setmetatable({}, HandleMT))
  names[h] = name
  return h
end
