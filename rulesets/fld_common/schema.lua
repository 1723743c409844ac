-- The attributes and markers the shared command parts read (see README.md, "The schema a
-- ruleset declares"), added to a ruleset's schema table: `require("fld_common.schema").add(schema, opts)`.
-- Attributes the ruleset has already declared are kept. `opts.rules` gives the section
-- references shown in the docs ({ commanders, sc, sc_own, orders, ti, seq, tu, win }),
-- `opts.cinc` the word for the commander-in-chief ("C-in-C", "General").
local M = {}

function M.add(schema, opts)
  opts = opts or {}
  local R = opts.rules or {}
  local chief = opts.cinc or "C-in-C"
  local function ref(k) return R[k] and (" (" .. R[k] .. ")") or "" end
  for _, k in ipairs({ "unit", "side", "command", "markers" }) do schema[k] = schema[k] or {} end
  local function put(t, name, v) if t[name] == nil then t[name] = v end end
  local side, cmd, unit, m = schema.side, schema.command, schema.unit, schema.markers
  put(side, "cinc_name", { type = "text", default = "", doc = "the " .. chief .. "'s name" .. ref("commanders") })
  put(side, "cinc_rating", { type = "int", min = 1, max = 6, default = 3, doc = "the " .. chief .. "'s rating" .. ref("commanders") })
  put(side, "cinc_with", { type = "text", default = "", doc = "the unit the " .. chief .. " has joined" .. ref("commanders") })
  put(cmd, "role", { type = "choice", values = { "mtu", "staff" }, default = "mtu",
    doc = "mtu: a sub-commander's command (a wing); staff: a command that is not one" })
  put(cmd, "sc_name", { type = "text", default = "", doc = "the sub-commander's name" .. ref("commanders") })
  put(cmd, "sc_rating", { type = "int", min = 1, max = 6, default = 3, doc = "the sub-commander's rating" .. ref("commanders") })
  put(cmd, "sc_discipline", { type = "choice", values = { "regular", "irregular" }, default = "regular",
    doc = "the sub-commander's class" .. ref("sc_own") })
  put(cmd, "ally", { type = "flag", default = false, doc = "an allied sub-commander" .. ref("sc") })
  put(cmd, "wing", { type = "int", min = 0, max = 99, default = 0,
    doc = "his place in the line, 1 = leftmost; 0: not given (own initiative LR)" .. ref("sc_own") })
  put(cmd, "sc_with", { type = "text", default = "", doc = "the unit the sub-commander has joined" .. ref("commanders") })
  put(cmd, "orders", { type = "choice", values = { "none", "attack", "advance", "wait", "hold", "retreat", "march", "rush" },
    default = "none", doc = "operational orders" .. ref("orders") })
  put(cmd, "activation", { type = "choice", values = { "none", "activated", "failed", "not_tried" }, default = "none",
    doc = "this turn's Stage 1 activation; none: not rolled yet" .. ref("sc") })
  put(cmd, "oi_result", { type = "text", default = "", doc = "this turn's own-initiative result" .. ref("sc_own") })
  put(cmd, "ti", { type = "int", min = -20, max = 40, default = 0, doc = "this turn's tactical initiative, first roll" .. ref("ti") })
  put(cmd, "ti_rank", { type = "int", min = 0, max = 99, default = 0, doc = "place in this turn's order of action; 0: not rolled" .. ref("seq") })
  put(cmd, "demoralised", { type = "flag", default = false, doc = "the wing is demoralised" .. ref("win") })
  put(unit, "discipline", { type = "choice", values = { "regular", "irregular" }, default = "regular",
    doc = "Regular or Irregular" })
  put(m, "activated", { doc = "the \"A\" counter: activated for this turn" .. ref("tu"), expires = "round" })
  put(m, "own_initiative", { doc = "not activated: acts on its own initiative this turn" .. ref("tu"), expires = "round" })
  return schema
end

return M
