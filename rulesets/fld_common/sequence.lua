-- The turn and the Tactical Action sequence shared by FLD and Undying Lands: Tactical Actions,
-- what each unit has declared in the phase under way, and the order they are carried out in
-- (FLD 16, 22; UL 9, 15).
--
-- Kept in the store (the `fld_common` store, journalled and undone with the game):
--   store.decl = { key = "ROUND.PHASE", units = { [UNIT] = { ta = N, compulsory = bool } } }
--   store.oi   = { key = "ROUND.PHASE", units = { [UNIT] = { result = TEXT, ta = N|nil } } }
--   store.ti   = { round = N, order = { COMMAND, … }, totals = { [COMMAND] = { t1, t2… } } }
local util = require "fld_common.util"
local commanders = require "fld_common.commanders"

local M = {}

-- The five Tactical Actions, by number.
M.TA = {
  { n = 1, word = "fanatic", name = "fanatic charge" },
  { n = 2, word = "charge", name = "charge" },
  { n = 3, word = "shoot", name = "shoot" },
  { n = 4, word = "melee", name = "melee" },
  { n = 5, word = "move", name = "move" },
}
M.TA_WORDS = { "fanatic", "charge", "shoot", "melee", "move", "1", "2", "3", "4", "5" }

-- A Tactical Action's number from its word or number; nil if neither.
function M.ta_number(word)
  word = tostring(word):lower()
  local n = tonumber(word)
  if n and M.TA[n] then return n end
  for _, t in ipairs(M.TA) do if t.word == word or t.name == word then return t.n end end
  return nil
end

function M.ta_name(n) return "TA" .. n .. " " .. M.TA[n].name end

-- The key of the phase under way ("2.phase3"), and whether the clock is in a phase of
-- Tactical Actions (`cfg.phases`).
function M.phase_key(cfg)
  local c = umpire.clock()
  local in_phase = false
  for _, p in ipairs(cfg.phases) do if p == c.phase then in_phase = true end end
  return c.round .. "." .. tostring(c.phase), in_phase, c
end

-- The store's table `name` for the phase under way (a fresh one when the phase changed).
local function phase_table(cfg, name)
  local key = M.phase_key(cfg)
  local t = store[name]
  if not t or t.key ~= key then
    store[name] = { key = key, units = {} }
    t = store[name]
  end
  return t.units
end

function M.declarations(cfg) return phase_table(cfg, "decl") end
function M.own_results(cfg) return phase_table(cfg, "oi") end

-- Records that `u` takes Tactical Action `ta` in the phase under way.
function M.record(cfg, u, ta, compulsory)
  M.declarations(cfg)[u.id] = { ta = ta, compulsory = compulsory }
end

-- The tactical-initiative order of this turn: a list of command ids, or nil if not rolled.
function M.ti_order()
  local t = store.ti
  if t and t.round == umpire.clock().round then return t.order end
  return nil
end

-- The clock's steps for a ruleset with `n` phases of Tactical Actions: the three stages, then
-- the phases ("orders", "activation", "initiative", "phase1" … "phaseN").
function M.steps(n)
  local out = { "orders", "activation", "initiative" }
  for i = 1, n do out[#out + 1] = "phase" .. i end
  return out
end

-- Whether a unit is activated this turn or acting on its own initiative.
function M.status(u)
  if u:has("activated") then return "activated" end
  if u:has("own_initiative") then return "own_initiative" end
  return "not rolled"
end

-- Whether a unit may take TA1 (FLD 23: irregular Close or Loose order troops, and
-- Behemoths). Units without `order` or `type` attributes are not checked. Returns ok, why.
function M.may_fanatic(u)
  local t = tostring(util.attr(u, "type", "")):lower()
  if t == "behemoth" then return true end
  if not commanders.irregular_unit(u) then return false, "only irregular troops and Behemoths may fanatic charge" end
  local order = util.attr(u, "order", nil)
  if order ~= nil and not tostring(order):lower():match("^close") and not tostring(order):lower():match("^loose") then
    return false, "only Close or Loose order irregulars (and Behemoths) may fanatic charge"
  end
  return true
end

function M.register(cfg)
  local R = cfg.rules
  local orders = require "fld_common.orders"

  umpire.command {
    name = "declare",
    help = "declare a unit's Tactical Action for this phase (" .. R.seq .. "): fanatic (1), charge (2),\n" ..
      "shoot (3) or move (5); melee (4) is never chosen, units in contact fight. Units on\n" ..
      "their own initiative are compulsory and go first within each action\n" ..
      "e.g. `declare spears1 charge`, `declare bows1 3`",
    args = {
      { name = "unit", type = "unit", help = "the unit" },
      { name = "action", type = "choice", values = M.TA_WORDS, help = "the Tactical Action" },
      { name = "force", type = "flag", help = "the umpire overrides the checks (journalled)" },
    },
    run = function(ctx, args)
      local u = args.unit
      local ta = M.ta_number(args.action)
      local key, in_phase, clock = M.phase_key(cfg)
      if not in_phase then
        umpire.fail("declare " .. u.id .. ": Tactical Actions are declared in a phase (" .. table.concat(cfg.phases, ", ") ..
          "); the clock is at " .. clock.text .. "; move it on with `next`")
      end
      if ta == 4 then
        umpire.fail("declare " .. u.id .. " melee: TA4 is never chosen; every unit in contact fights (" .. R.seq .. ")")
      end
      local problems = {}
      local status = M.status(u)
      local compulsory = status ~= "activated"
      local g = umpire.group(u.command)
      local own = M.own_results(cfg)[u.id]
      if compulsory then
        if status == "not rolled" then
          print("note: " .. u.id .. " was not rolled for in Stage 2: it acts on its own initiative (" .. R.tu_own .. ")")
        end
        if not own then
          problems[#problems + 1] = u.id .. " acts on its own initiative: roll `tuinit " .. u.id .. "` first (" .. R.tu_own .. ")"
        elseif own.ta and own.ta ~= ta then
          problems[#problems + 1] = u.id .. "'s own initiative gave " .. M.ta_name(own.ta) .. " (" .. R.tu_own .. ")"
        elseif not own.ta and own.result ~= "as the player wishes" then
          problems[#problems + 1] = u.id .. "'s own initiative: " .. own.result .. " (" .. R.tu_own .. ")"
        end
      end
      if (not compulsory or util.value(cfg.own_initiative_obeys_orders)) and not orders.allows(cfg, g.orders, ta) then
        problems[#problems + 1] = g.id .. "'s " .. g.orders:upper() .. " orders do not allow " .. M.ta_name(ta) ..
          orders.allowed_text(cfg, g.orders) .. " (" .. R.orders .. ")"
      end
      if ta == 1 then
        local ok, why = M.may_fanatic(u)
        if not ok then problems[#problems + 1] = u.id .. ": " .. why .. " (" .. R.fanatic .. ")" end
      end
      if #problems > 0 then
        if not args.force then umpire.fail("declare " .. u.id .. ": " .. table.concat(problems, "; ") .. "; add `force` to override") end
        print("umpire's override: " .. table.concat(problems, "; "))
      end
      M.record(cfg, u, ta, compulsory)
      return u.id .. " declares " .. M.ta_name(ta) .. " (" .. (compulsory and "compulsory, own initiative" or "activated, by choice") ..
        ") in " .. clock.text .. " (" .. R.seq .. ")"
    end,
  }

  umpire.command {
    name = "phase",
    help = "the order of play in this phase (" .. R.seq .. "): sub-commanders by tactical initiative,\n" ..
      "each through Tactical Actions 1 to 5, compulsory (own-initiative) units before activated\n" ..
      "ones; shows who has declared what and who has not\n" ..
      "e.g. `phase`",
    args = {},
    run = function(ctx)
      local key, in_phase, clock = M.phase_key(cfg)
      local lines = { clock.text .. (in_phase and "" or " (not a phase of Tactical Actions yet)") }
      local order = M.ti_order()
      local list = {}
      if order then
        for _, id in ipairs(order) do list[#list + 1] = umpire.group(id) end
      else
        lines[#lines + 1] = "tactical initiative not rolled this turn (`ti`, " .. R.ti .. "): sub-commanders listed by side"
        list = util.all_mtus()
      end
      local decl = in_phase and M.declarations(cfg) or {}
      for i, g in ipairs(list) do
        lines[#lines + 1] = string.format("%d. %s (%s, %s)%s", i, g.id, g.side, g.orders:upper(),
          g.ti_rank > 0 and (" TI " .. g.ti) or "")
        local by_ta, waiting = {}, {}
        for _, u in ipairs(commanders.units(g)) do
          local d = decl[u.id]
          if d then
            by_ta[d.ta] = by_ta[d.ta] or { must = {}, may = {} }
            table.insert(d.compulsory and by_ta[d.ta].must or by_ta[d.ta].may, u.id)
          else
            waiting[#waiting + 1] = u.id .. (u:has("activated") and "" or "*")
          end
        end
        for n = 1, 5 do
          local t = by_ta[n]
          if n == 4 then
            local fighting = {}
            for _, u in ipairs(commanders.units(g)) do
              if util.has(u, "in_melee") then fighting[#fighting + 1] = u.id end
            end
            lines[#lines + 1] = "   TA4 melee: every unit in contact fights" ..
              (#fighting > 0 and (": " .. table.concat(fighting, ", ")) or "")
          elseif t then
            local parts = {}
            if #t.must > 0 then parts[#parts + 1] = "compulsory first: " .. table.concat(t.must, ", ") end
            if #t.may > 0 then parts[#parts + 1] = "then: " .. table.concat(t.may, ", ") end
            lines[#lines + 1] = "   " .. M.ta_name(n) .. ": " .. table.concat(parts, "; ")
          end
        end
        if #waiting > 0 then
          lines[#lines + 1] = "   not declared: " .. table.concat(waiting, ", ") .. "  (* own initiative: `tuinit`)"
        end
      end
      return table.concat(lines, "\n")
    end,
  }

  umpire.command {
    name = "turn",
    help = "where the turn stands (" .. R.turn .. "): the stages done and to do, and the next command\n" ..
      "e.g. `turn`",
    args = {},
    run = function(ctx)
      local c = umpire.clock()
      local lines = { c.text .. ": a turn is Stage 1 orders and sub-commander activation, Stage 2 unit " ..
        "activation, Stage 3 tactical initiative, then " .. #cfg.phases .. " phases of Tactical Actions (" .. R.turn .. ")" }
      for _, side in ipairs(umpire.sides()) do
        local mtus = commanders.mtus(side)
        local s1, s2, n2 = 0, 0, 0
        for _, g in ipairs(mtus) do
          if g.activation ~= "none" then s1 = s1 + 1 end
          for _, u in ipairs(commanders.units(g)) do
            n2 = n2 + 1
            if u:has("activated") or u:has("own_initiative") then s2 = s2 + 1 end
          end
        end
        lines[#lines + 1] = string.format("%s: Stage 1 %s; Stage 2 %d of %d units rolled for", side,
          s1 > 0 and "done" or ("to do: `scactivate " .. side .. " …`"), s2, n2)
      end
      lines[#lines + 1] = "Stage 3: " .. (M.ti_order() and ("done: " .. table.concat(M.ti_order(), ", ")) or "to do: `ti`")
      return table.concat(lines, "\n")
    end,
  }

  local hints = {
    orders = "Stage 1 (" .. R.sc .. "): `scactivate SIDE SC DISTANCE [blocked] [ORDER] …` for each side",
    activation = "Stage 2 (" .. R.tu .. "): `activate COMMAND UNITS|all|none` for each sub-commander",
    initiative = "Stage 3 (" .. R.ti .. "): `ti`",
  }
  umpire.on("step_begins", function(ev)
    local h = hints[ev.phase]
    if not h then
      for _, p in ipairs(cfg.phases) do
        if p == ev.phase then
          h = "Tactical Actions (" .. R.seq .. "): `tuinit UNIT` for own-initiative units, `declare UNIT ACTION`, `phase` for the order"
        end
      end
    end
    if h then print(h) end
  end)

  -- Activation lasts for the turn (16): the units' markers expire with the round; the
  -- sub-commanders' activation, own-initiative result and place in the order are cleared here.
  umpire.on("round_ends", function()
    for _, g in ipairs(util.all_mtus()) do
      if g.activation ~= "none" then g:set("activation", "none", "activation lasts one turn (" .. R.turn .. ")") end
      if g.oi_result ~= "" then g:set("oi_result", "", "a new turn (" .. R.turn .. ")") end
      if g.ti_rank ~= 0 then g:set("ti_rank", 0, "tactical initiative is rolled each turn (" .. R.ti .. ")") end
    end
  end)
end

return M
