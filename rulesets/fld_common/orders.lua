-- Operational orders and own initiative, shared by FLD and Undying Lands: the orders and the
-- Tactical Actions each allows (FLD 17, UL 10), a sub-commander's own initiative (FLD 19,
-- UL 12; the two tables are the same in both books) and a Tactical Unit's own initiative
-- (FLD 29, UL 21).
local util = require "fld_common.util"
local commanders = require "fld_common.commanders"
local seq = require "fld_common.sequence"

local M = {}

M.NAMES = { "attack", "advance", "wait", "hold", "retreat", "march", "rush" }

-- FLD's orders (17), in our words. `allowed`: the Tactical Actions a unit under the order
-- may take (FLD sets no limit). UL passes its own list (cfg.orders).
M.FLD = {
  attack = { text = "every unit must advance at least its full move toward the nearest enemy unit" },
  advance = { text = "every unit must advance at least half its move toward the nearest enemy unit" },
  wait = { text = "units may move up to a full move, but may close on an enemy unit by no more than " ..
    "half their move (the printed words: no closer than half their move rate)" },
  hold = { text = "units may move up to a full move, but never nearer to any enemy unit" },
  retreat = { text = "every unit must at once move, up to its full move, straight away from the enemy " ..
    "or toward its own baseline, whichever is nearer" },
  march = { text = "units may move up to twice their move in march column: more ranks than figures " ..
    "in the front rank, and at most 4 figures in front" },
  rush = { text = "given only by own initiative: every unit moves at double rate toward the nearest " ..
    "enemy units" },
}

-- A sub-commander's own initiative (FLD 19 = UL 12): d6 down, rating across.
M.SC_TABLES = {
  irregular = {
    { "LR", "R", "R", "R", "R", "AT" },
    { "LR", "R", "R", "R", "AT", "AT" },
    { "LR", "R", "LR", "AT", "AT", "A" },
    { "R", "LR", "AT", "AT", "A", "A" },
    { "LR", "AT", "AT", "A", "A", "P" },
    { "AT", "AT", "A", "A", "P", "P" },
  },
  regular = {
    { "A", "LR", "A", "A", "A", "P" },
    { "LR", "A", "A", "A", "P", "P" },
    { "A", "A", "LR", "P", "P", "P" },
    { "LR", "W", "W", "P", "P", "P" },
    { "LR", "W", "W", "W", "P", "P" },
    { "W", "LR", "W", "W", "W", "P" },
  },
}
M.CODES = {
  AT = { orders = "attack", text = "orders become ATTACK" },
  A = { orders = "advance", text = "orders become ADVANCE" },
  W = { orders = "wait", text = "orders become WAIT" },
  R = { orders = "rush", text = "orders become RUSH: double-rate moves toward the nearest enemy" },
  P = { text = "orders as the player wishes" },
  LR = { text = "copies the orders of the sub-commander to his left or right" },
}

-- A Tactical Unit's own initiative (FLD 29 = UL 21): d6 rows, regular / irregular columns,
-- and the direction of "as neighbour".
M.UNIT_TABLE = {
  regular = { "neighbour", "neighbour", "player", "player", "player", "player" },
  irregular = { "neighbour", "neighbour", "charge", "charge", "player", "player" },
}
M.NEIGHBOUR = { "left", "left", "right", "right", "front", "rear" }

local function cross(name, rows)
  local cells = {}
  for r = 1, 6 do cells[r] = rows[r] end
  umpire.table { name = name, rows = { "1", "2", "3", "4", "5", "6" },
    cols = { "1", "2", "3", "4", "5", "6" }, cells = cells }
end

-- The orders a unit of sub-commander `g` obeys, and the text of that order (cfg.orders).
function M.describe(cfg, order)
  local o = cfg.orders[order]
  if not o then return "no orders yet" end
  return util.value(o.text)
end

-- Whether order `order` allows Tactical Action `ta` (cfg.orders[order].allowed, a list or a
-- function returning one, read when the rule applies (UL reads an option); none: all).
function M.allows(cfg, order, ta)
  local o = cfg.orders[order]
  local allowed = o and util.value(o.allowed)
  if not allowed then return true end
  for _, n in ipairs(allowed) do if n == ta then return true end end
  return false
end

-- Rolls a sub-commander's own initiative (FLD 19) and applies it to his orders. `why` says
-- why he is on his own initiative. Returns a line for the command's output.
function M.sc_own_initiative(ctx, cfg, g, why)
  local R = cfg.rules
  local irr, which = commanders.irregular_sc(g)
  local tname = irr and "irregular" or "regular"
  local c = ctx:check("Sub-commander's own initiative " .. R.sc_own .. ": " .. commanders.sc_label(g) ..
    ", " .. tname .. " table (" .. which .. ")")
  local d = c:roll("1d6", "own initiative d6", R.sc_own, g)
  local code = M.SC_TABLES[tname][d][g.sc_rating]
  local meaning = M.CODES[code]
  c:result(code .. ": " .. meaning.text)
  local old, new, note = g.orders, nil, nil
  if meaning.orders then
    new = meaning.orders
  elseif code == "P" then
    local choices = {}
    for _, n in ipairs(M.NAMES) do if n ~= "rush" then choices[#choices + 1] = n end end
    new = umpire.ask {
      question = "Own initiative P: which orders does the player give " .. g.id .. "?",
      choices = choices, default = (old ~= "none" and old ~= "rush") and old or "hold",
      context = "own initiative · " .. g.id,
    }
    note = "the player's choice"
  else -- LR
    local left, right, known = commanders.neighbours(g)
    local from
    local others = 0
    for _, o in ipairs(util.commands(g.side, "mtu")) do if o.id ~= g.id then others = others + 1 end end
    if not known and others > 0 then
      local choices = {}
      for _, o in ipairs(util.commands(g.side, "mtu")) do
        if o.id ~= g.id then choices[#choices + 1] = o.id end
      end
      choices[#choices + 1] = "keep"
      if #choices < 2 then choices[#choices + 1] = "none" end
      local a = umpire.ask {
        question = "Own initiative LR: " .. g.id .. " has no wing number; copy the orders of which " ..
          "neighbour (keep: none beside him)?",
        choices = choices, default = "keep", context = "own initiative · " .. g.id,
      }
      if a ~= "keep" and a ~= "none" then from = umpire.group(a) end
    elseif left and right then
      local lr = ctx:check("Left or right " .. R.sc_own .. ": " .. g.id .. " has wings on both sides")
      local d2 = lr:roll("1d6", "1-3 left, 4-6 right", R.sc_own, g)
      from = d2 <= 3 and left or right
      lr:result(from.id .. ", to the " .. (d2 <= 3 and "left" or "right"))
    else
      from = left or right
    end
    if from then
      new = from.orders
      note = "as " .. from.id .. ", his neighbour"
      if new == "none" then new = nil; note = from.id .. " has no orders to copy: keeps his own" end
    else
      note = "no neighbouring wing: keeps his orders"
    end
  end
  local result = code .. (note and (", " .. note) or "")
  umpire.record("own_initiative_" .. g.id, { die = d, table = tname, code = code, orders = new or old })
  g:set("oi_result", result, "own initiative (" .. R.sc_own .. ")")
  if new and new ~= old then
    g:set("orders", new, "own initiative " .. code .. " (" .. R.sc_own .. ")")
  end
  return g.id .. " (" .. why .. ") on own initiative: " .. result .. "; orders " .. g.orders
end

function M.register(cfg)
  local R = cfg.rules
  cross("sc_initiative_irregular", M.SC_TABLES.irregular)
  cross("sc_initiative_regular", M.SC_TABLES.regular)
  umpire.table { name = "unit_initiative", rows = { "1-2", "3-4", "5-6" }, cols = { "regular", "irregular" },
    cells = { { "as neighbour", "as neighbour" }, { "as player wishes", "charge" },
              { "as player wishes", "as player wishes" } } }
  umpire.table { name = "as_neighbour", dice = "1d6",
    rows = { { "1-2", "left" }, { "3-4", "right" }, { "5", "front" }, { "6", "rear" } } }

  local order_words = {}
  for _, n in ipairs(M.NAMES) do order_words[#order_words + 1] = n end
  umpire.command {
    name = "orders",
    help = "a sub-commander's written operational orders (" .. R.orders .. "): set them before the\n" ..
      "game (no roll; in Stage 1 `scactivate` changes them with a roll); without ORDER shows\n" ..
      "every sub-commander's orders and what each order means\n" ..
      "e.g. `orders left attack`, `orders`",
    args = {
      { name = "command", type = "group", optional = true, help = "the sub-commander's command" },
      { name = "order", type = "choice", values = order_words, optional = true },
      { name = "force", type = "flag", help = "the umpire sets RUSH or changes orders outside the rules" },
    },
    run = function(ctx, args)
      local g = args.command
      if g and args.order then
        if args.order == "rush" and not args.force then
          umpire.fail("orders " .. g.id .. " rush: RUSH comes only from an own-initiative roll (" ..
            R.sc_own .. "); add `force` to set it anyway")
        end
        if umpire.clock().round > 1 and g.orders ~= "none" and not args.force then
          umpire.fail("orders " .. g.id .. ": once the game is under way orders change through the " ..
            "C-in-C's activation roll (`scactivate " .. g.side .. " " .. g.id .. " " .. args.order ..
            "`, " .. R.sc .. "); add `force` for the umpire's correction")
        end
        if g.orders ~= args.order then
          g:set("orders", args.order, (args.force and "set by the umpire" or "written orders") .. " (" .. R.orders .. ")")
        end
        return g.id .. ": " .. args.order:upper() .. " — " .. M.describe(cfg, args.order) .. M.allowed_text(cfg, args.order)
      end
      local lines = {}
      local sides = g and { g.side } or umpire.sides()
      for _, side in ipairs(sides) do
        for _, m in ipairs(commanders.mtus(side)) do
          if not g or m.id == g.id then
            lines[#lines + 1] = side .. " / " .. m.id .. ": " .. m.orders:upper() ..
              (m.orders ~= "none" and (" — " .. M.describe(cfg, m.orders)) or "")
          end
        end
      end
      if not g then
        lines[#lines + 1] = "Orders (" .. R.orders .. "):"
        for _, n in ipairs(M.NAMES) do
          lines[#lines + 1] = "  " .. n:upper() .. ": " .. M.describe(cfg, n) .. M.allowed_text(cfg, n)
        end
      end
      return table.concat(lines, "\n")
    end,
  }

  umpire.command {
    name = "scinit",
    help = "roll a sub-commander's own initiative (" .. R.sc_own .. "): d6 against his rating on the\n" ..
      "irregular table (he or any of his units irregular) or the regular one; AT/A/W/R set his\n" ..
      "orders, P asks the player's choice, LR copies a neighbouring wing (a die if both)\n" ..
      "(`scactivate` rolls it for every sub-commander not activated)\n" ..
      "e.g. `scinit left`",
    args = { { name = "command", type = "group", help = "the sub-commander's command" } },
    run = function(ctx, args)
      return M.sc_own_initiative(ctx, cfg, args.command, "rolled by the umpire")
    end,
  }

  umpire.command {
    name = "tuinit",
    help = "a Tactical Unit acting on its own initiative (" .. R.tu_own .. "): d6 on the regular or irregular\n" ..
      "column; As Neighbour rolls the direction and asks which Tactical Action that neighbour\n" ..
      "takes (up to 3 throws); the result is declared as its compulsory action this phase\n" ..
      "e.g. `tuinit warband1`",
    args = { { name = "unit", type = "unit", help = "the unit (not activated this turn)" } },
    run = function(ctx, args)
      local u = args.unit
      local key, in_phase = seq.phase_key(cfg)
      if not in_phase then
        umpire.fail("tuinit " .. u.id .. ": own-initiative actions are rolled in a phase of Tactical Actions (" ..
          table.concat(cfg.phases, ", ") .. "); move the clock on with `next`")
      end
      if u:has("activated") then
        umpire.fail("tuinit " .. u.id .. ": " .. u.name .. " is activated this turn and chooses its action freely (" .. R.tu .. ")")
      end
      local done = seq.own_results(cfg)[u.id]
      if done then
        umpire.fail("tuinit " .. u.id .. ": already rolled this phase (" .. done.result .. "); `undo` it to roll again")
      end
      if not u:has("own_initiative") then
        u:mark("own_initiative", "not activated: acts on its own initiative (" .. R.tu_own .. ")", "round")
      end
      local irr = commanders.irregular_unit(u)
      local col = irr and "irregular" or "regular"
      local c = ctx:check("Own initiative " .. R.tu_own .. ": " .. u.name .. " (" .. col .. ")")
      local d = c:roll("1d6", "own initiative d6", R.tu_own, u)
      local res = M.UNIT_TABLE[col][d]
      local ta, result
      if res == "charge" then
        ta, result = 2, "charge"
        c:result("charge: must charge (TA2)")
      elseif res == "player" then
        result = "as the player wishes"
        c:result("as the player wishes")
      else
        c:result("as neighbour")
        for throw = 1, 3 do
          local n = ctx:check("As neighbour " .. R.tu_own .. ": " .. u.name .. ", throw " .. throw .. " of 3")
          local d2 = n:roll("1d6", "1-2 left, 3-4 right, 5 front, 6 rear", R.tu_own, u)
          local dir = M.NEIGHBOUR[d2]
          local a = umpire.ask {
            question = "Which Tactical Action is the next friendly unit to the " .. dir .. " of " .. u.id ..
              " taking? (none: no such unit; forbidden: " .. u.id .. " may not do it)",
            choices = { "fanatic", "charge", "shoot", "move", "none", "forbidden" },
            default = "none", context = "own initiative · " .. u.id,
          }
          local t = seq.ta_number(a)
          if t and util.value(cfg.own_initiative_obeys_orders) and not M.allows(cfg, umpire.group(u.command).orders, t) then
            n:result("the neighbour's " .. a .. " is not allowed under " .. umpire.group(u.command).orders:upper() .. ": throw again")
          elseif t then
            n:result("to the " .. dir .. ": " .. seq.ta_name(t))
            ta, result = t, "as the neighbour to the " .. dir
            break
          else
            n:result("to the " .. dir .. ": " .. (a == "none" and "nothing to copy" or "forbidden to " .. u.id) .. ", throw again")
          end
        end
        if not ta and not result then
          if irr then
            result = cfg.irregular_no_neighbour.text
            ta = cfg.irregular_no_neighbour.ta
          else
            result = "stays where it is (no usable neighbour after three throws)"
          end
        end
      end
      seq.own_results(cfg)[u.id] = { result = result, ta = ta }
      umpire.record("unit_initiative", { unit = u.id, die = d, column = col, result = result, ta = ta })
      if ta then seq.record(cfg, u, ta, true) end
      return u.id .. " on its own initiative: " .. result ..
        (ta and ("; declared " .. seq.ta_name(ta) .. ", compulsory (" .. R.seq .. ")") or
          (result == "as the player wishes" and ("; `declare " .. u.id .. " ACTION`: compulsory, goes first (" .. R.seq .. ")") or ""))
    end,
  }
end

-- ", allows TA 3, 4, 5" for an order with limits, else "".
function M.allowed_text(cfg, order)
  local o = cfg.orders[order]
  local allowed = o and util.value(o.allowed)
  if not allowed then return "" end
  local t = {}
  for _, n in ipairs(allowed) do t[#t + 1] = tostring(n) end
  return " (Tactical Actions allowed: " .. table.concat(t, ", ") .. ")"
end

return M
