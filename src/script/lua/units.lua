-- Trusted Lua, part of umpire: unit, side and command handles, elements, the clock and the store (src/script/world.rs).
local H, OP, kit = ...
local type, tostring, error, setmetatable, math_type = type, tostring, error, setmetatable, math.type
local next, rawset = next, rawset
local protect, copy, ordered = kit.protect, kit.copy, kit.ordered
local READ, HAS, MARKERS, KIND, UNIT, UNITS, COUNT, SIDES, SET, MARK, UNMARK, CLOCK =
  OP.read, OP.has, OP.markers, OP.kind, OP.unit, OP.units, OP.count, OP.sides, OP.set, OP.mark,
  OP.unmark, OP.clock
local STORE_GET, STORE_SET, STORE_KEYS = OP.store_get, OP.store_set, OP.store_keys
local ELEMENT, ELEMENTS, CREATE_UNIT, ADD_ELEMENT, REMOVE, MOVE =
  OP.element, OP.elements, OP.create_unit, OP.add_element, OP.remove, OP.move

local Unit = {}
local methods = {}

-- A handle: an empty table whose id is kept here, out of the scripts' reach; everything
-- else is read from the game when asked, one attribute or marker at a time.
local ids = setmetatable({}, { __mode = "k" })
kit.guard(ids)   -- a handle is protected by being here (one entry a handle, not two)
-- The handle of an id while some script holds it: listing a squad's soldiers again gives the
-- same handles, not new tables (so a handle is also the same key in a script's table).
local handles = setmetatable({}, { __mode = "v" })
local function handle(id)
  local h = handles[id]
  if h == nil then
    h = setmetatable({}, Unit)
    ids[h] = id
    handles[id] = h
  end
  return h
end
local function id_of(u) return ids[u] end

-- What this call has read, by id: attribute or field name -> value, and under the key
-- `MARKED` marker name -> on or not. The call's host function (`H[1]`, a new one for every
-- call) tells calls apart: a new call starts with nothing read. What is read of a unit is
-- dropped as soon as a script changes that unit.
local MARKED = {}
local cache, token = {}, nil
local function read_of(id)
  local f = H[1]
  if f ~= token then cache, token = {}, f end
  local c = cache[id]
  if c == nil then
    c = {}
    cache[id] = c
  end
  return c, f
end
local function changed(id)
  if H[1] == token then cache[id] = nil end
end
-- A unit or element removed or moved: its side, command or unit, and those of its elements,
-- may all read differently now.
local function forget_all()
  if H[1] == token then cache = {} end
end

Unit.__index = function(u, k)
  local m = methods[k]
  if m then return m end
  local id = ids[u]
  if k == "id" then return id end
  if type(k) ~= "string" then return nil end
  -- read_of(id), written out: this is the path every attribute a script reads takes
  local f = H[1]
  if f ~= token then cache, token = {}, f end
  local c = cache[id]
  if c == nil then
    c = {}
    cache[id] = c
  end
  local v = c[k]
  if v == nil then
    -- An undeclared attribute is an error from the host, naming the nearest.
    v = f(READ, id, k)
    if v == nil then return nil end
    c[k] = v
  end
  -- A list is copied: what one script does to it no other script sees.
  if type(v) == "table" then return copy(v) end
  return v
end
Unit.__newindex = function(u, k)
  error("units change through u:set(\"" .. tostring(k) .. "\", value, \"reason\"): every change needs a reason", 2)
end
-- How a unit, side or command is shown: `u.name`, its name with its id (`Warriors 7
-- [war7]`), so a breakdown says which of two "Line infantry 3" is meant.
Unit.__tostring = function(u) return u.name end
Unit.__concat = function(a, b) return tostring(a) .. tostring(b) end
Unit.__eq = function(a, b) return ids[a] == ids[b] end
Unit.__metatable = false

local function self_id(u, method)
  local id = ids[u]
  if id == nil then
    error("u:" .. method .. "(…) is called on a unit, side or command, with a colon", 3)
  end
  return id
end

-- u:get("sp"): an attribute (the same as u.sp).
function methods:get(attr) return self[attr] end
-- u:set("sp", 3, "reason"): changes an attribute.
function methods:set(attr, value, reason)
  local id = self_id(self, "set")
  changed(id)
  local fired = H[1](SET, id, attr, value, reason)
  -- A change some handler takes at once: it runs now (see `at_once` in runner.lua).
  if fired then H[2](fired) end
  return self
end
-- u:add("sp", -1, "reason"): adds to a number attribute.
function methods:add(attr, delta, reason)
  if type(delta) ~= "number" then error("u:add(attr, delta, reason): delta must be a number", 2) end
  local v = self[attr]
  if type(v) ~= "number" then error("u:add: `" .. tostring(attr) .. "` is not a number", 2) end
  return self:set(attr, v + delta, reason)
end
-- u:has("routed"): whether the marker is on (an undeclared marker, or a side, is an error
-- from the host).
function methods:has(marker)
  local id = ids[self]
  if id == nil then id = self_id(self, "has") end
  local f = H[1]
  if f ~= token then cache, token = {}, f end
  local c = cache[id]
  if c == nil then
    c = {}
    cache[id] = c
  end
  local m = c[MARKED]
  if m == nil then
    m = {}
    c[MARKED] = m
  end
  local on = m[marker]
  if on == nil then
    on = f(HAS, id, marker)
    if marker ~= nil then m[marker] = on end
  end
  return on
end
-- u:markers(): the names of its markers.
function methods:markers() return { H[1](MARKERS, self_id(self, "markers")) } end
-- u:mark("routed", "reason" [, "end of round"]): puts a marker on.
function methods:mark(marker, reason, expiry)
  local id = self_id(self, "mark")
  changed(id)
  local fired = H[1](MARK, id, marker, reason, expiry)
  if fired then H[2](fired) end
  return self
end
-- u:unmark("routed", "reason"): takes it off.
function methods:unmark(marker, reason)
  local id = self_id(self, "unmark")
  changed(id)
  local fired = H[1](UNMARK, id, marker, reason)
  if fired then H[2](fired) end
  return self
end

-- u:elements(["hp>0 unmarked:fallen"]): handles of a unit's elements, all or those the
-- filter picks (selector terms on the elements' attributes and markers).
function methods:elements(filter)
  local out = { H[1](ELEMENTS, self_id(self, "elements"), filter) }
  for i = 1, #out do out[i] = handle(out[i]) end
  return out
end
-- u:add_element{id = "…", name = "…", attrs = {…}, reason = "…"}: a new element of the unit.
function methods:add_element(spec)
  local id = self_id(self, "add_element")
  if type(spec) ~= "table" then
    error("u:add_element{id = …, name = …, attrs = {…}, reason = …} takes a table", 2)
  end
  return handle(H[1](ADD_ELEMENT, id, spec, spec.reason))
end
-- u:remove("reason"), e:remove("reason"): a unit (with its elements) or an element leaves
-- the game; undone with the command.
function methods:remove(reason)
  local id = self_id(self, "remove")
  forget_all()
  H[1](REMOVE, id, reason)
end
-- u:move_to(command, "reason"): a unit joins another command (of any side);
-- e:move_to(unit, "reason"): an element joins another unit. Ids or handles.
function methods:move_to(where, reason)
  local id = self_id(self, "move_to")
  if type(where) == "table" and ids[where] then where = ids[where] end
  forget_all()
  H[1](MOVE, id, where, reason)
  return self
end

local api = {}
function api.unit(id)
  if type(id) == "table" and ids[id] then return id end
  return handle(H[1](UNIT, id))
end
function api.units(selector)
  local out = { H[1](UNITS, selector) }
  for i = 1, #out do out[i] = handle(out[i]) end
  return out
end
function api.count(selector) return H[1](COUNT, selector) end
-- umpire.element("leg1a") or umpire.element("leg1.2"): an element's handle.
function api.element(id)
  if type(id) == "table" and ids[id] then id = ids[id] end
  return handle(H[1](ELEMENT, id))
end
-- umpire.create_unit{command = …, id = …, name = …, attrs = {…}, elements = {…}, reason = …}
function api.create_unit(spec)
  if type(spec) ~= "table" then
    error("umpire.create_unit{command = …, id = …, name = …, attrs = {…}, elements = {…}, reason = …} takes a table", 2)
  end
  local command = spec.command
  if type(command) == "table" and ids[command] then command = ids[command] end
  return handle(H[1](CREATE_UNIT, spec, command, spec.reason))
end
function api.sides() return { H[1](SIDES) } end
function api.clock()
  local round, phase, side, text = H[1](CLOCK)
  return { round = round, phase = phase, side = side, text = text }
end
-- A side or a command: the same handle, for its attributes (`s.cinc_rating`, `s:set(…)`).
local function group(kind)
  return function(id)
    local k, found = H[1](KIND, id)
    if k ~= kind then
      error("`" .. tostring(id) .. "` is a " .. k .. ", not a " .. kind, 2)
    end
    return handle(found)
  end
end
api.side = group("side")
api.group = group("command")
api.handle = handle
api.id_of = id_of
-- For the host's conversion of plain data (src/script/data.rs): a handle is kept as its id.
api.handle_mt, api.ids = Unit, ids

-- `store`: plain data kept in the game (journalled, undone, replayed), one per script. A table
-- read from it is a view of the stored value, not a copy: reading it reads the store, and
-- writing into it, at any depth (`store.reserves.red = {…}`, `table.insert(store.list, x)`),
-- writes the stored value back as a change of the command.
local views = setmetatable({}, { __mode = "k" })   -- view -> { script, key, path }
local view_mt

-- The value at `path` inside `v`, or nil.
local function walk(v, path)
  for i = 1, #path do
    if type(v) ~= "table" then return nil end
    v = v[path[i]]
  end
  return v
end

-- What a view stands for now, as plain data (a fresh copy).
local function now(at) return walk(H[1](STORE_GET, at[1], at[2]), at[3]) end

-- `v` as plain data to store: a view is replaced by what it stands for, also inside tables.
local function plain(v, depth)
  if type(v) ~= "table" then return v end
  local at = views[v]
  if at then return now(at) end
  depth = depth or 0
  if depth < 32 then
    for k, x in next, v do
      if type(x) == "table" then
        local p = plain(x, depth + 1)
        if p ~= x then rawset(v, k, p) end
      end
    end
  end
  return v
end

local function view(script, key, path, v)
  if type(v) ~= "table" then return v end
  local p = protect({})
  views[p] = { script, key, path }
  return setmetatable(p, view_mt)
end

local function child(at, k)
  local path = {}
  for i = 1, #at[3] do path[i] = at[3][i] end
  path[#path + 1] = k
  return path
end

view_mt = {
  __index = function(p, k)
    local at = views[p]
    local here = now(at)
    if type(here) ~= "table" then return nil end
    return view(at[1], at[2], child(at, k), here[k])
  end,
  __newindex = function(p, k, v)
    local at = views[p]
    local root = H[1](STORE_GET, at[1], at[2])
    local here = walk(root, at[3])
    if type(here) ~= "table" then
      error("store." .. tostring(at[2]) .. ": this table is no longer in the store", 2)
    end
    here[k] = plain(v)
    H[1](STORE_SET, at[1], at[2], root)
  end,
  __len = function(p)
    local here = now(views[p])
    return type(here) == "table" and #here or 0
  end,
  __pairs = function(p)
    local at = views[p]
    local here = now(at)
    if type(here) ~= "table" then return function() end end
    -- In one order whatever the run, as `pairs` is everywhere (kit.ordered).
    local walk = ordered(here)
    return function()
      local k, v = walk()
      if k ~= nil then return k, view(at[1], at[2], child(at, k), v) end
    end
  end,
  __metatable = false,
}

function api.store(script)
  local proxy = protect({})
  return setmetatable(proxy, {
    __index = function(_, k) return view(script, k, {}, H[1](STORE_GET, script, k)) end,
    __newindex = function(_, k, v)
      local at = views[v]
      -- `store.k = store.k` (the old way: read, change, assign back) is already done.
      if at and at[1] == script and at[2] == k and #at[3] == 0 then return end
      H[1](STORE_SET, script, k, plain(v))
    end,
    __pairs = function()
      local keys, i = { H[1](STORE_KEYS, script) }, 0
      return function()
        i = i + 1
        local k = keys[i]
        if k ~= nil then return k, view(script, k, {}, H[1](STORE_GET, script, k)) end
      end
    end,
    __metatable = false,
  })
end
return api
