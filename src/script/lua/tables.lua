-- Trusted Lua, part of umpire: the counted table library (src/script/library.rs).
local raw, charge = ...
local getmetatable, type, error, select, tointeger = getmetatable, type, error, select, math.tointeger
local maxinteger = math.maxinteger
local r_insert, r_remove, r_concat, r_unpack, r_sort, r_move =
  raw.insert, raw.remove, raw.concat, raw.unpack, raw.sort, raw.move

-- Elements one C call of `table.move` moves; longest list one C call of `table.sort` sorts.
local CHUNK, SORT_IN_C = 4096, 65536

-- A table without a metatable: C's work on it is bounded by what it really holds.
local function plain(t) return type(t) == "table" and getmetatable(t) == nil end

local function int(v, n, name)
  local i = tointeger(v)
  if i == nil then
    local why = type(v) == "number" and "number has no integer representation"
      or "number expected, got " .. (v == nil and "no value" or type(v))
    error("bad argument #" .. n .. " to '" .. name .. "' (" .. why .. ")", 3)
  end
  return i
end

local t = {}
for k, v in pairs(raw) do t[k] = v end

-- Tables with metatables (and values that are not tables) go through Lua code: each
-- element read or written through a metamethod is an instruction the budget counts.

function t.insert(list, ...)
  if plain(list) then return r_insert(list, ...) end
  local n = select("#", ...)
  local e = #list + 1
  if n == 1 then
    list[e] = (...)
    return
  elseif n ~= 2 then
    error("wrong number of arguments to 'insert'", 2)
  end
  local pos, v = ...
  pos = int(pos, 2, "insert")
  if pos < 1 or pos > e then error("bad argument #2 to 'insert' (position out of bounds)", 2) end
  for i = e, pos + 1, -1 do list[i] = list[i - 1] end
  list[pos] = v
end

function t.remove(list, pos)
  if plain(list) then return r_remove(list, pos) end
  local size = #list
  if pos == nil then pos = size else pos = int(pos, 2, "remove") end
  if pos ~= size and (pos < 1 or pos > size + 1) then
    error("bad argument #2 to 'remove' (position out of bounds)", 2)
  end
  local v = list[pos]
  while pos < size do
    list[pos] = list[pos + 1]
    pos = pos + 1
  end
  list[pos] = nil
  return v
end

-- A plain copy of list[i..j], read through its metamethods.
local function copy(list, i, j)
  local c = {}
  for k = i, j do c[k] = list[k] end
  return c
end

function t.concat(list, sep, i, j)
  if plain(list) then return r_concat(list, sep, i, j) end
  i = i == nil and 1 or int(i, 3, "concat")
  j = j == nil and #list or int(j, 4, "concat")
  return r_concat(copy(list, i, j), sep, i, j)
end

function t.unpack(list, i, j)
  if plain(list) then
    -- Every value is pushed: a long list is charged.
    local from, to = tointeger(i or 1), tointeger(j or #list)
    if from and to and to - from > 256 then charge(to - from) end
    return r_unpack(list, i, j)
  end
  i = i == nil and 1 or int(i, 2, "unpack")
  j = j == nil and #list or int(j, 3, "unpack")
  return r_unpack(copy(list, i, j), i, j)
end

-- A stable merge sort in Lua (every comparison and move an instruction the budget counts).
local function merge_sort(a, n, less)
  local b = {}
  local width = 1
  while width < n do
    local i = 1
    while i <= n do
      local mid, hi = i + width, i + 2 * width
      if mid > n + 1 then mid = n + 1 end
      if hi > n + 1 then hi = n + 1 end
      local l, r, k = i, mid, i
      while l < mid and r < hi do
        if less(a[r], a[l]) then b[k] = a[r]; r = r + 1 else b[k] = a[l]; l = l + 1 end
        k = k + 1
      end
      while l < mid do b[k] = a[l]; l = l + 1; k = k + 1 end
      while r < hi do b[k] = a[r]; r = r + 1; k = k + 1 end
      i = hi
    end
    a, b = b, a
    width = width * 2
  end
  return a
end

local function lt(x, y) return x < y end

function t.sort(list, comp)
  if comp ~= nil and type(comp) ~= "function" then
    return r_sort(list, comp)   -- C says what is wrong
  end
  local n = plain(list) and #list or nil
  if n and n <= SORT_IN_C then
    charge(n * 16)
    return r_sort(list, comp)
  end
  if not plain(list) and type(list) ~= "table" then return r_sort(list, comp) end
  n = #list
  local sorted = merge_sort(copy(list, 1, n), n, comp or lt)
  for k = 1, n do list[k] = sorted[k] end
end

function t.move(a1, f, e, to, a2)
  if plain(a1) and (a2 == nil or plain(a2)) then
    local fi, ei = tointeger(f), tointeger(e)
    if fi and ei and (ei < fi or (fi > 0 and ei - fi < CHUNK)) then
      return r_move(a1, f, e, to, a2)
    end
  end
  r_move(a1, 1, 0, 1, a2)   -- C checks the tables (and moves nothing)
  f, e, to = int(f, 2, "move"), int(e, 3, "move"), int(to, 4, "move")
  local dst = a2
  if dst == nil then dst = a1 end
  if e < f then return dst end
  if not (f > 0 or e < maxinteger + f) then
    error("bad argument #3 to 'move' (too many elements to move)", 2)
  end
  local n = e - f + 1
  if not (to <= maxinteger - n + 1) then
    error("bad argument #4 to 'move' (destination wrap around)", 2)
  end
  local backward = not (to > e or to <= f or (a2 ~= nil and a1 ~= a2))
  if plain(a1) and plain(dst) then
    -- In C, a chunk at a time, in the order C would move them.
    if backward then
      local hi = e
      while hi >= f do
        local lo = (hi - f < CHUNK) and f or hi - CHUNK + 1
        charge(hi - lo + 1)
        r_move(a1, lo, hi, to + (lo - f), dst)
        hi = lo - 1
      end
    else
      local lo = f
      while lo <= e do
        local hi = (e - lo < CHUNK) and e or lo + CHUNK - 1
        charge(hi - lo + 1)
        r_move(a1, lo, hi, to + (lo - f), dst)
        lo = hi + 1
      end
    end
  elseif backward then
    for i = n - 1, 0, -1 do dst[to + i] = a1[f + i] end
  else
    for i = 0, n - 1 do dst[to + i] = a1[f + i] end
  end
  return dst
end

return t
