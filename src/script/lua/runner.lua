-- Trusted Lua, part of umpire: the command and event runner, umpire.emit and the handlers run at once (src/script/host.rs).
local handle, make_ctx, flatten, view, H, idle, listeners, MAX_DEPTH, reserved = ...
local select, type, error, pairs, tostring, unpack = select, type, error, pairs, tostring, table.unpack
local all, at_once_of = listeners.all, listeners.at_once

local function fill(t, ...)
  local list, n = { ... }, select("#", ...)
  local i = 1
  while i <= n do
    local name, what, v = list[i], list[i + 1], list[i + 2]
    i = i + 3
    if what == 1 then
      v = handle(v)
    elseif what == 2 then
      local units = {}
      for j = 1, v do units[j] = handle(list[i + j - 1]) end
      i = i + v
      v = units
    end
    t[name] = v
  end
  return t
end

-- Between calls `H[1]` is `idle` again (the host puts it back if `run` fails).
local function done(...)
  H[1] = idle
  return ...
end

-- `host` is the call's function, `H[1]` while the command runs.
local function command(host, run, name, hooks, ...)
  H[1] = host
  local args = {}
  if select("#", ...) > 0 then fill(args, ...) end
  local ctx, state = make_ctx(name, hooks, args)
  local ret = run(ctx, args)
  return done(ret, flatten(state))
end

local function event(name, ...)
  return view(fill({ event = name }, ...), "the event")
end

-- How deep handlers run within one another in this call (`umpire.emit` and handlers run at
-- once); a new call (a new `H[1]`) starts again at 0.
local depth, depth_of = 0, nil
local function deliver(list, name, p, level)
  if H[1] ~= depth_of then depth, depth_of = 0, H[1] end
  if depth >= MAX_DEPTH then
    error("event `" .. name .. "` raised more than " .. MAX_DEPTH .. " deep: its handlers " ..
      "keep raising events (a handler of `" .. name .. "` probably reacts to its own change, " ..
      "or emits what it handles); check the `umpire.on` handlers of `" .. name .. "`", level)
  end
  depth = depth + 1
  local go = true
  for i = 1, #list do
    if list[i](p) == false then go = false; break end
  end
  depth = depth - 1
  return go
end

-- The events of a change a script just made, from the host (see `at_once_events` in
-- world.rs), in one flat list: for each event its name, its number of fields, then each field
-- as `fill` reads it (name, what, value). Their `at_once` handlers run now, in the same call.
local function at_once(list)
  local i, n = 1, #list
  while i <= n do
    local name, fields = list[i], list[i + 1]
    local last = i + 1 + 3 * fields
    local handlers = at_once_of[name]
    if handlers then
      -- level 4: deliver, at_once, the handle's method (`u:set`, `u:mark`…), its caller
      deliver(handlers, name, view(fill({ event = name }, unpack(list, i + 2, last)), "the event"), 4)
    end
    i = last + 1
  end
end

-- umpire.emit(name, fields): every handler of `name` runs now, in this call; false if one
-- returned false.
local function emit(name, fields)
  if H[1] == idle then
    error("umpire.emit can only be used while a command or an event runs, not while the rules load", 2)
  end
  if type(name) ~= "string" then
    error("umpire.emit(name, fields): the name is text, such as \"ambush_sprung\"", 2)
  end
  if reserved[name] or name:sub(1, 4) == "pre_" then
    error("umpire.emit: `" .. name .. "` is raised by umpire itself (a change, the clock or a " ..
      "command); give the rule's own event another name", 2)
  end
  if fields ~= nil and type(fields) ~= "table" then
    error("umpire.emit(name, fields): the fields are a table, such as { unit = u, hits = 2 }", 2)
  end
  local list = all[name]
  if not list then return true end
  local t = {}
  if fields then
    for k, v in pairs(fields) do
      if type(k) ~= "string" then
        error("umpire.emit: a field's name is text, not " .. tostring(k), 2)
      end
      t[k] = v
    end
  end
  t.event = name
  -- not a tail call: the error's level 3 is the script that called umpire.emit
  local went = deliver(list, name, view(t, "the event"), 3)
  return went
end

return command, event, at_once, emit
