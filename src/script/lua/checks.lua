-- Trusted Lua, part of umpire: ctx, checks and their breakdowns, opposed checks, roll objects (src/script/breakdown.rs).
local H, OP, id_of, kit, text_limit, output_limit, refuse = ...
local type, tostring, error, setmetatable, select = type, tostring, error, setmetatable, select
local rawset, rawlen, ipairs, tointeger = rawset, rawlen, ipairs, math.tointeger
local concat, move, unpack = table.concat, table.move, table.unpack
local view = kit.view
local ROLL, DICE = OP.roll, OP.dice

-- A check's and a ctx's state is kept here, out of the scripts' reach: a check is an empty
-- table with methods, so its lines (the dice shown among them) change only through them.
local checks_of = setmetatable({}, { __mode = "k" })   -- check -> state
local ctxs = setmetatable({}, { __mode = "k" })        -- ctx -> state
kit.guard(checks_of)
kit.guard(ctxs)

-- A check's state, by slot (no keys to hash): its title, its number of lines, its ctx's
-- state, its outcome (or false), then its lines, flat, four slots a line: value, label, rule
-- (or false), roll (the index of its roll among the call's, or false).
local TITLE <const>, LINES <const>, CTX <const>, OUTCOME <const>, FIRST <const> = 1, 2, 3, 4, 4
-- A ctx's state, by slot: the command's name, its arguments, the hook points, the bytes of
-- output its checks make, the ctx itself, its number of checks, the view of its arguments
-- (or false), then its checks' states.
local COMMAND <const>, ARGS <const>, HOOKS <const>, BYTES <const>, HANDLE <const> = 1, 2, 3, 4, 5
local CHECKS <const>, ARGS_VIEW <const>, FIRST_CHECK <const> = 6, 7, 7

-- A roll as scripts get it: still the list of kept dice the first API gave (`r[1]`, `#r`,
-- `r.dropped`, `r.expr`), with `r.total`, `r.successes`, `r.failures`, `r.dice` (every die,
-- made when first read) and the methods `r:count(…)` and `r:again(die)`.
-- What a die did, as the host packs it (see `Die::flags` in src/dice/result.rs).
local KEPT <const>, SUCCESS <const>, FAILURE <const>, EXPLODED <const>, EXTRA <const> = 1, 2, 4, 8, 16
local REROLLED <const>, CLAMPED <const>, CRIT_S <const>, CRIT_F <const>, COMPOUNDED <const> = 32, 64, 128, 256, 512
-- The dice of a roll that are not all plain kept dice, by roll: their values in the order
-- rolled, then their flags, then whether the roll counts successes.
local detail_of = setmetatable({}, { __mode = "k" })
local Roll = {}

-- Every die of `r`, each `{value, kept, success, failure, exploded, extra, rerolled,
-- clamped, compounded, critical}`.
local function dice_list(r)
  local d, out = detail_of[r], {}
  if not d then
    for i = 1, rawlen(r) do
      out[i] = { value = r[i], kept = true, success = false, failure = false, exploded = false,
        extra = false, rerolled = false, clamped = false, compounded = false }
    end
    return out
  end
  local n = (#d - 1) // 2
  for i = 1, n do
    local f = d[n + i]
    out[i] = { value = d[i], kept = f & KEPT ~= 0, success = f & SUCCESS ~= 0,
      failure = f & FAILURE ~= 0, exploded = f & EXPLODED ~= 0, extra = f & EXTRA ~= 0,
      rerolled = f & REROLLED ~= 0, clamped = f & CLAMPED ~= 0, compounded = f & COMPOUNDED ~= 0,
      critical = (f & CRIT_S ~= 0 and "success") or (f & CRIT_F ~= 0 and "failure") or nil }
  end
  return out
end

local RollMT = {
  __index = function(r, k)
    if k == "dice" then
      local list = dice_list(r)
      rawset(r, "dice", list)
      return list
    end
    if k == "successes" or k == "failures" then return 0 end
    return Roll[k]
  end,
  __metatable = false,
}

-- r:count(6): how many kept dice show 6; r:count(function(d) … end): how many of `r.dice`
-- the function says yes to.
function Roll:count(what)
  if type(self) ~= "table" then error("r:count(…) is called on a roll, with a colon", 2) end
  local n = 0
  if type(what) == "number" then
    for i = 1, rawlen(self) do
      if self[i] == what then n = n + 1 end
    end
    return n
  end
  if type(what) == "function" then
    for _, d in ipairs(self.dice) do
      if what(d) then n = n + 1 end
    end
    return n
  end
  error("r:count(6) counts the kept dice showing 6, r:count(function(d) return d.value >= 5 end) " ..
    "the dice the function says yes to; not " .. type(what), 2)
end

-- r:again("d6>=5"): the expression that rolls again, as `die`, the dice this roll counted: its
-- successes, or its kept dice when it counts none (`"19d6>=5"`; `"0"` when there are none).
function Roll:again(die)
  if type(self) ~= "table" then error("r:again(die) is called on a roll, with a colon", 2) end
  if type(die) ~= "string" or not die:find("^d") then
    error("r:again(die): the die to roll the dice again as, such as \"d6>=5\" or \"d6\"", 2)
  end
  local d = detail_of[self]
  local n = (d and d[#d]) and self.successes or rawlen(self)
  if n == 0 then return "0" end
  return n .. die
end

-- The roll object from the host's answer for dice that are not all plain kept dice: `n`
-- values in the order rolled, then their flags, then whether the roll counts successes.
local function detailed(expr, total, n, ...)
  local d = { ... }
  local kept, dropped, k, j, s, f = {}, {}, 0, 0, 0, 0
  for i = 1, n do
    local fl = d[n + i]
    if fl & KEPT ~= 0 then
      k = k + 1
      kept[k] = d[i]
    else
      j = j + 1
      dropped[j] = d[i]
    end
    if fl & SUCCESS ~= 0 then s = s + 1 end
    if fl & FAILURE ~= 0 then f = f + 1 end
  end
  kept.dropped, kept.expr, kept.total, kept.successes, kept.failures = dropped, expr, total, s, f
  detail_of[kept] = d
  return setmetatable(kept, RollMT)
end

-- What the host's roll gives back (see `op::ROLL` in host.rs): the total, the expression as
-- rolled (or false), the index of the roll among the call's, the bytes a breakdown shows of
-- it, then `n` >= 0 and the n dice when they are all plain kept dice, or -n and the detail.
local function rolled(expr, total, as, index, shown, n, ...)
  if n >= 0 then
    return total, setmetatable({ dropped = {}, expr = as or expr, total = total, ... }, RollMT),
      index, shown
  end
  return total, detailed(as or expr, total, -n, ...), index, shown
end

-- A source that asks the umpire (typed or queued dice) says so by rolling nothing: then it
-- is told what the roll is for and who rolls it.
local function asked(expr, label, by, title, total, ...)
  if total ~= nil then return rolled(expr, total, ...) end
  local by_id = id_of(by)
  if by_id ~= nil then return rolled(expr, H[1](ROLL, expr, label, by_id, true, title)) end
  return rolled(expr, H[1](ROLL, expr, label, by, false, title))
end

-- Rolls through the running call's dice. `by` (a handle, or text) and `title` say what the
-- roll is for, when the umpire types the dice.
local function roll(expr, label, by, title)
  return asked(expr, label, by, title, H[1](DICE, expr, id_of(by)))
end

-- `umpire.roll(expr [, label or {label = …, by = …, title = …}])`: the total, the dice, and
-- the roll as a breakdown shows it.
local function roll_api(expr, context)
  local total, dice
  if type(context) == "table" then
    total, dice = roll(expr, context.label, context.by, context.title)
  else
    total, dice = roll(expr, context)
  end
  return total, dice, dice.expr .. " [" .. concat(dice, ", ") .. "]"
end

local function too_long(v, what, level)
  error(what .. " is " .. #v .. " bytes, more than the " .. text_limit ..
    " a text may have (the `text` limit; a club can raise it with `--limit text=16KiB`)", level + 1)
end

-- A text a script gives: at most `text_limit` bytes.
local function text(v, what, level)
  if type(v) ~= "string" then error(what .. " must be text", level + 1) end
  if #v > text_limit then too_long(v, what, level + 1) end
  return v
end

local function too_much(level)
  error("the checks of this command are more than " .. output_limit ..
    " bytes (the `output` limit)", level + 1)
end

local Check = {}
local CheckMT = {
  __index = Check,
  __newindex = function(_, k)
    error("a check changes through its methods (c:add, c:set, c:remove…), not by setting `" ..
      tostring(k) .. "`", 2)
  end,
  __metatable = false,
}

local function bad_call(method)
  error("c:" .. method .. "(…) is called on a check, with a colon", 3)
end

local function state(c, method)
  local s = checks_of[c]
  if not s then bad_call(method) end
  return s
end

-- The position of the line labelled `label` in the flat lines of state `s` (its label's
-- slot), or nil.
local function find(s, label)
  for i = FIRST + 2, FIRST + s[LINES] * 4, 4 do
    if s[i] == label then return i end
  end
  return nil
end

-- c:roll("1d6", "base" [, "5.2" [, by]]): rolls through the host, adds the total as a
-- factor. `by` (a unit or side handle, or text) says who rolls it, for the umpire typing dice.
function Check:roll(expr, label, rule, by)
  local s = checks_of[self]
  if not s then bad_call("roll") end
  local total, dice, index, shown = roll(expr, label or expr, by, s[TITLE])
  if label == nil then
    label = expr
  elseif type(label) ~= "string" or #label > text_limit then
    label = text(label, "the label of c:roll", 2)
  end
  if rule ~= nil and (type(rule) ~= "string" or #rule > text_limit) then
    rule = text(rule, "the rule of c:roll", 2)
  end
  local c = s[CTX]
  local bytes = c[BYTES] + 16 + #label + (rule and #rule or 0) + shown
  c[BYTES] = bytes
  if bytes > output_limit then too_much(2) end
  local n = s[LINES]
  local i = FIRST + n * 4
  s[i + 1], s[i + 2], s[i + 3], s[i + 4] = total, label, rule or false, index
  s[LINES] = n + 1
  return total, dice
end

-- c:add(value, "label" [, "rule"]): a modifier.
function Check:add(value, label, rule)
  local s = checks_of[self]
  if not s then bad_call("add") end
  if type(value) ~= "number" then
    error("c:add(value, label): value must be a number, not " .. type(value), 2)
  end
  if label == nil then
    label = ""
  elseif type(label) ~= "string" or #label > text_limit then
    label = text(label, "the label of c:add", 2)
  end
  if rule ~= nil and (type(rule) ~= "string" or #rule > text_limit) then
    rule = text(rule, "the rule of c:add", 2)
  end
  local c = s[CTX]
  local bytes = c[BYTES] + 16 + #label + (rule and #rule or 0)
  c[BYTES] = bytes
  if bytes > output_limit then too_much(2) end
  local n = s[LINES]
  local i = FIRST + n * 4
  s[i + 1], s[i + 2], s[i + 3], s[i + 4] = value, label, rule or false, false
  s[LINES] = n + 1
  return value
end

-- c:find("label"): the factor's value, or nil.
function Check:find(label)
  local s = state(self, "find")
  local i = find(s, label)
  if i then return s[i - 1] end
  return nil
end

-- c:set("label", value [, "rule"]): changes a factor (adds it if absent). A rolled factor
-- keeps the dice's total: the breakdown never shows dice beside another number.
function Check:set(label, value, rule)
  local s = state(self, "set")
  local i = find(s, label)
  if i then
    if type(value) ~= "number" then error("c:set: value must be a number", 2) end
    if s[i + 2] then
      error("c:set: `" .. tostring(label) .. "` is a roll; add a modifier with c:add instead", 2)
    end
    s[i - 1] = value
    if rule then
      if type(rule) ~= "string" or #rule > text_limit then
        rule = text(rule, "the rule of c:set", 2)
      end
      s[i + 1] = rule
    end
    return value
  end
  return self:add(value, label, rule)
end

-- c:remove("label"): drops a factor; returns its value (nil if there was none). Every die
-- rolled stays in the breakdown: a rolled factor cannot be removed.
function Check:remove(label)
  local s = state(self, "remove")
  local i = find(s, label)
  if not i then return nil end
  local last = FIRST + s[LINES] * 4
  if s[i + 2] then
    error("c:remove: `" .. tostring(label) .. "` is a roll, which stays in the breakdown; add a modifier with c:add instead", 2)
  end
  local value = s[i - 1]
  move(s, i + 3, last, i - 1)
  s[last - 3], s[last - 2], s[last - 1], s[last] = nil, nil, nil, nil
  s[LINES] = s[LINES] - 1
  return value
end

-- c:total(): the sum of the factors so far.
function Check:total()
  local s = state(self, "total")
  local t = 0
  for i = FIRST + 1, FIRST + s[LINES] * 4, 4 do t = t + s[i] end
  return t
end

-- c:point("shooting.modifiers" [, situation]): lets every umpire.hook for that name change
-- the check; each gets the situation (who shoots whom, with what) as a read-only view.
function Check:point(name, situation)
  local s = state(self, "point")
  if situation ~= nil and type(situation) ~= "table" then
    error("c:point(name, situation): the situation is a table, such as { firer = f, target = t }", 2)
  end
  local list = s[CTX][HOOKS][name]
  if list then
    local ctx = s[CTX][HANDLE]
    local seen = situation and view(situation, "the situation of " .. tostring(name))
    for i = 1, #list do list[i](self, ctx, seen) end
  end
  return self
end

-- c:result("hit"): the outcome shown after the total.
function Check:result(outcome)
  local s = state(self, "result")
  s[OUTCOME] = text(tostring(outcome), "the result of c:result", 2)
  return self
end

-- `ctx`: what `run` gets: `ctx.command`, `ctx.args` (a read-only view of the arguments) and
-- `ctx:check(title)`. Its state holds the call's checks' states in its list part.
local Ctx = {}
local CtxMT = {
  __index = function(c, k)
    local m = Ctx[k]
    if m then return m end
    local s = ctxs[c]
    if s then
      if k == "command" then return s[COMMAND] end
      if k == "args" then
        -- Made when first read: most commands' hooks never look.
        local v = s[ARGS_VIEW]
        if not v then
          v = view(s[ARGS], "ctx.args")
          s[ARGS_VIEW] = v
        end
        return v
      end
    end
    return nil
  end,
  __newindex = function(_, k)
    error("`ctx` is read-only (cannot set `" .. tostring(k) .. "`)", 2)
  end,
  __metatable = false,
}

function Ctx:check(title)
  local s = ctxs[self]
  if not s then error("ctx:check(title) is called on ctx, with a colon", 2) end
  if type(title) ~= "string" then error("ctx:check(title): the title is text, such as \"Shooting 5.2.1\"", 2) end
  if #title > text_limit then too_long(title, "the title of ctx:check", 2) end
  local c = setmetatable({}, CheckMT)
  -- Room for four lines: no growing for most checks.
  local cs = { title, 0, s, false, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil,
    nil, nil, nil, nil }
  checks_of[c] = cs
  local bytes = s[BYTES] + 16 + #title
  s[BYTES] = bytes
  if bytes > output_limit then too_much(2) end
  local n = s[CHECKS] + 1
  s[FIRST_CHECK + n], s[CHECKS] = cs, n
  return c
end

-- A number as a breakdown shows it: `4`, not `4.0`.
local function shown_num(x)
  local i = tointeger(x)
  if i then return tostring(i) end
  return tostring(x)
end

local TIES = { again = true, none = true, both = true, first = true, second = true }
local TIE_RULES <const> = '"again" (roll again), "none" (no winner), "both" (the tied sides all win), ' ..
  '"first" or "second" (that side wins a tie)'

-- ctx:opposed(a, b, {tie = …, names = {…}, title = …, rule = …, max = 50}), or
-- ctx:opposed({a, b, c…}, {…}): each side a check, or a function(attempt) that makes one (it
-- is called again for the tied sides when a tie rolls again). The sides' totals are compared,
-- higher wins; each comparison is shown as a line of the breakdown. Returns
-- {winner, winners, name, margin, tie, ties, totals, checks}.
function Ctx:opposed(a, b, opts)
  local s = ctxs[self]
  if not s then error("ctx:opposed(a, b, {tie = …}) is called on ctx, with a colon", 2) end
  local sides = { a, b }
  if type(a) == "table" and not checks_of[a] then sides, opts = a, b end
  if type(opts) ~= "table" then
    error("ctx:opposed(a, b, {tie = …}): say what a tie means: tie = " .. TIE_RULES, 2)
  end
  local tie = opts.tie
  if not TIES[tie] then
    error("ctx:opposed: the tie rule " .. (tie == nil and "is missing" or ("`" .. tostring(tie) .. "` is not one I know")) ..
      "; tie = " .. TIE_RULES, 2)
  end
  local n = #sides
  if n < 2 then error("ctx:opposed compares two sides or more, not " .. n, 2) end
  for i = 1, n do
    local x = sides[i]
    if tie == "again" and type(x) ~= "function" then
      error("ctx:opposed: with tie = \"again\" each side is a function(attempt) that makes its check " ..
        "(it is called again after a tie); side " .. i .. " is a " .. type(x), 2)
    end
    if type(x) ~= "function" and not checks_of[x] then
      error("ctx:opposed: side " .. i .. " is a check (ctx:check) or a function that makes one, not a " ..
        type(x), 2)
    end
  end
  local names = opts.names
  if names ~= nil and type(names) ~= "table" then
    error("ctx:opposed: `names` is a list of texts, one a side", 2)
  end
  local title = opts.title == nil and "Opposed" or text(opts.title, "the title of ctx:opposed", 2)
  local rule = opts.rule ~= nil and text(opts.rule, "the rule of ctx:opposed", 2) or false
  local max = opts.max or 50
  if type(max) ~= "number" or max < 1 then error("ctx:opposed: `max` is how many ties may roll again, a number", 2) end
  local checks, totals, active = {}, {}, {}
  for i = 1, n do active[i] = i end
  local function name(i)
    local given = names and names[i]
    if given ~= nil then return text(tostring(given), "a name of ctx:opposed", 3) end
    return checks_of[checks[i]][TITLE]
  end
  for attempt = 1, max do
    for _, i in ipairs(active) do
      local c = sides[i]
      if type(c) == "function" then
        c = c(attempt)
        if not checks_of[c] then
          error("ctx:opposed: the function of side " .. i .. " returns the check it makes (ctx:check), not a " ..
            type(c), 2)
        end
      end
      checks[i], totals[i] = c, c:total()
    end
    local best, leaders = nil, {}
    for _, i in ipairs(active) do
      local t = totals[i]
      if best == nil or t > best then
        best, leaders = t, { i }
      elseif t == best then
        leaders[#leaders + 1] = i
      end
    end
    local tied, winners, outcome = #leaders > 1, leaders, nil
    if tied then
      local at = "tie at " .. shown_num(best) .. ": "
      if tie == "again" then
        winners, outcome = {}, at .. "roll again"
      elseif tie == "none" then
        winners, outcome = {}, at .. "no winner"
      elseif tie == "both" then
        outcome = at .. (#leaders == 2 and "both win" or "all win")
      else
        winners = { leaders[tie == "first" and 1 or 2] }
        outcome = at .. name(winners[1]) .. " wins the tie"
      end
    end
    local won = {}
    for _, i in ipairs(winners) do won[i] = true end
    local second
    for _, i in ipairs(active) do
      if not won[i] and (second == nil or totals[i] > second) then second = totals[i] end
    end
    local margin = (#winners > 0 and second ~= nil) and best - second or 0
    if not tied then outcome = name(leaders[1]) .. " by " .. shown_num(margin) end
    -- The comparison, as a record among the checks: its title, minus its number of sides, the
    -- ctx, the outcome, then each side's name, total and whether it won, the tie rule and rule.
    local st, k = { title, -#active, s, outcome }, FIRST
    local bytes = s[BYTES] + 16 + #title + #outcome + (rule and #rule or 0)
    for _, i in ipairs(active) do
      local nm = name(i)
      st[k + 1], st[k + 2], st[k + 3] = nm, totals[i], won[i] or false
      k = k + 3
      bytes = bytes + 8 + #nm
    end
    st[k + 1], st[k + 2] = tied and tie or false, rule
    s[BYTES] = bytes
    if bytes > output_limit then too_much(2) end
    local count = s[CHECKS] + 1
    s[FIRST_CHECK + count], s[CHECKS] = st, count
    if not (tied and tie == "again") then
      local winner = #winners == 1 and winners[1] or nil
      return { winner = winner, winners = winners, name = winner and name(winner) or nil,
        margin = margin, tie = tied, ties = attempt - 1, totals = totals, checks = checks }
    end
    active = leaders
  end
  refuse("still tied after " .. max .. " rolls (" .. title .. "); check the dice queue")
end

-- The slots a check's (or a comparison's) state hands over: four a line, or three a side
-- and two more.
local function width(n)
  if n >= 0 then return n * 4 end
  return -n * 3 + 2
end

-- All the checks of a call as plain values (see `decode` in breakdown.rs), from the state
-- of its ctx.
local function flatten(s)
  local count = s[CHECKS]
  if count == 0 then return end
  if count == 1 then
    -- The usual command: one check, its lines handed over as they are kept.
    local c = s[FIRST_CHECK + 1]
    local n = c[LINES]
    return c[TITLE], c[OUTCOME], n, unpack(c, FIRST + 1, FIRST + (n >= 0 and n * 4 or -n * 3 + 2))
  end
  local out, k = {}, 0
  for i = 1, count do
    local c = s[FIRST_CHECK + i]
    local n = c[LINES]
    local w = width(n)
    out[k + 1], out[k + 2], out[k + 3] = c[TITLE], c[OUTCOME], n
    move(c, FIRST + 1, FIRST + w, k + 4, out)
    k = k + 3 + w
  end
  return unpack(out, 1, k)
end

-- A call's `ctx` and its state: the command's name, its hook points and its arguments.
local function make(command, hooks, args)
  local ctx = setmetatable({}, CtxMT)
  local s = { command, args, hooks, 0, ctx, 0, false, nil }
  ctxs[ctx] = s
  return ctx, s
end
return make, flatten, roll_api
