-- Trusted Lua, part of umpire: the sandbox (src/script/sandbox.rs): the environment every script runs in.
local umpire, host_print, host_require, host_random, make_store, kit, strings, tables, budget = ...
local check_caught, is_tripped, sync = budget.check_caught, budget.tripped, budget.sync
local check_chunk, charge = budget.check_chunk, budget.charge
local G = _G
local raw_pcall, raw_xpcall, raw_load = G.pcall, G.xpcall, G.load
local raw_setmetatable, raw_rawset, raw_rawget = G.setmetatable, G.rawset, G.rawget
local next, error, type = G.next, G.error, G.type
local readonly, is_protected = kit.readonly, kit.is_protected

local function copy(t)
  local c = {}
  for k, v in next, t do c[k] = v end
  return c
end

-- C functions that read their whole string argument without making anything of its size
-- (what they make, the collector's sentinel charges): a long one is charged as read.
local function reads(f)
  return function(s, ...)
    if type(s) == "string" and #s > 256 then charge(#s // 16) end
    return f(s, ...)
  end
end

-- A caught error is re-raised if a budget ran out, so `pcall` cannot swallow it.
local function pass(ok, ...)
  if not ok then check_caught((...)) end
  return ok, ...
end

local raw_select = G.select
local base = {
  assert = G.assert, error = G.error, ipairs = G.ipairs, next = G.next,
  rawequal = G.rawequal, rawget = G.rawget, rawlen = G.rawlen,
  tonumber = reads(G.tonumber), tostring = G.tostring, type = G.type, getmetatable = G.getmetatable,
  _VERSION = G._VERSION, print = host_print, require = host_require,
}
-- `pairs` in one order whatever the run (kit.ordered); a `__pairs` metamethod is honoured.
local raw_pairs, ordered = G.pairs, kit.ordered
base.pairs = function(t)
  local f, s, c = raw_pairs(t)
  -- Lua's own `pairs` hands back `next` unless a `__pairs` metamethod answered.
  if f ~= next then return f, s, c end
  return ordered(t), t, nil
end
-- `select(n, ...)` moves what follows the n-th value: a long list is charged.
base.select = function(n, ...)
  if n ~= "#" then
    local k = raw_select("#", ...)
    if k > 256 then charge(k) end
  end
  return raw_select(n, ...)
end
base.pcall = function(f, ...) return pass(raw_pcall(f, ...)) end
-- Lua calls a message handler with hooks off when the error came from the budget hook:
-- once a budget has run out, the script's handler is skipped.
base.xpcall = function(f, h, ...)
  local function handler(e)
    if is_tripped() then return e end
    return h(e)
  end
  return pass(raw_xpcall(f, handler, ...))
end
base.rawset = function(t, k, v)
  if is_protected(t) then error("cannot modify a read-only table", 2) end
  return raw_rawset(t, k, v)
end
base.setmetatable = function(t, mt)
  -- Finalisers run with hooks off; `__close` is refused too (see `coroutine.close`).
  if type(mt) == "table" and (raw_rawget(mt, "__gc") ~= nil or raw_rawget(mt, "__close") ~= nil) then
    error("`__gc` and `__close` metamethods are not allowed in scripts", 2)
  end
  return raw_setmetatable(t, mt)
end

-- Strings: the budgeted functions go into the real table, which string methods read through
-- the string metatable; no `dump`; the metatable cannot be read or changed.
local S = G.string
for name, f in next, strings do S[name] = f end
S.byte = reads(S.byte)
S.dump = nil
G.getmetatable("").__metatable = false
base.string = readonly(S, "string")
base.table = readonly(tables, "table")
local utf8 = copy(G.utf8)
utf8.len, utf8.codepoint, utf8.offset = reads(utf8.len), reads(utf8.codepoint), reads(utf8.offset)
base.utf8 = readonly(utf8, "utf8")
local math = copy(G.math)
math.random = host_random
math.randomseed = nil
base.math = readonly(math, "math")

-- Coroutines. A coroutine stopped by a budget error keeps its hooks off (Lua leaves it so),
-- so it is never closed: its to-be-closed variables would run unbounded. Entering and
-- leaving a coroutine sets the count hook's interval of the thread entered.
local C = G.coroutine
local co_create, co_resume, co_close, co_yield, co_status = C.create, C.resume, C.close, C.yield, C.status
local poisoned = raw_setmetatable({}, { __mode = "k" })
local co = copy(C)
co.create = function(f)
  if type(f) ~= "function" then return co_create(f) end
  return co_create(function(...)
    sync()
    return f(...)
  end)
end
local function resumed(c, ok, ...)
  if not ok and is_tripped() then poisoned[c] = true end
  sync()
  if not ok then check_caught((...)) end
  return ok, ...
end
co.resume = function(c, ...) return resumed(c, co_resume(c, ...)) end
local function back(...)
  sync()
  return ...
end
co.yield = function(...) return back(co_yield(...)) end
co.close = function(c)
  if poisoned[c] then
    check_caught(nil)
    return false, "cannot close a coroutine stopped by a budget: its to-be-closed variables are dropped"
  end
  return pass(co_close(c))
end
-- As Lua's `coroutine.wrap`: an error closes the coroutine and is raised again, with the
-- caller's position in front of a message.
local function wrapped(c, ok, ...)
  if not ok and is_tripped() then poisoned[c] = true end
  sync()
  if ok then return ... end
  local e = ...
  check_caught(e)
  if co_status(c) == "dead" then
    local _, closed = co_close(c)
    if closed ~= nil then e = closed end
  end
  if type(e) == "string" then error(e, 2) end
  error(e, 0)
end
co.wrap = function(f)
  local c = co.create(f)
  return function(...) return wrapped(c, co_resume(c, ...)) end
end
base.coroutine = readonly(co, "coroutine")
base.umpire = readonly(umpire, "umpire")

local shared = readonly(base, "_G")
local env_mt = { __index = shared, __metatable = false }
-- A script's environment; `store` is the named script's store and `secret` its store for the
-- umpire's eyes only (none for `load`ed chunks).
local function new_env(script)
  local env = {}
  env._G = env
  if script then
    env.store = make_store(script)
    env.secret = make_store("secret:" .. script)
  end
  return raw_setmetatable(env, env_mt)
end

-- Compiling is one C call: a chunk is at most 1 MiB (a few milliseconds to compile), and
-- its text is charged.
local concat, MAX_CHUNK = G.table.concat, 1 << 20
local function too_big(n)
  return "load: a chunk is at most 1 MiB, this one is " .. n .. " bytes"
end
base.load = function(chunk, name, mode, env)
  if mode ~= nil and mode ~= "t" then
    error("load: only text chunks are allowed (mode \"t\")", 2)
  end
  if type(chunk) == "function" then
    -- The pieces a reader gives are read first, so the whole text can be checked.
    local parts, size = {}, 0
    while true do
      local piece = chunk()
      if piece == nil or piece == "" then break end
      if type(piece) ~= "string" then return nil, "reader function must return a string" end
      size = size + #piece
      if size > MAX_CHUNK then return nil, too_big(size) end
      parts[#parts + 1] = piece
    end
    chunk = concat(parts)
  end
  if type(chunk) == "string" then
    if #chunk > MAX_CHUNK then return nil, too_big(#chunk) end
    charge(#chunk // 8)
    local refused = check_chunk(chunk, type(name) == "string" and name or nil)
    if refused then return nil, refused end
  end
  return raw_load(chunk, name, "t", env or new_env(nil))
end

-- Nothing else may reach the real globals' loaders.
G.dofile, G.loadfile, G.load, G.require, G.collectgarbage = nil, nil, nil, nil, nil
return new_env
