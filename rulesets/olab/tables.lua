-- Every OLAB table, gathered from the parts of the rules (each part's tables module).
local all = {}
local function add(part)
  for name, t in pairs(part) do
    assert(all[name] == nil, "table " .. name .. " is declared twice")
    all[name] = t
  end
end
add(require "olab.tables_stands")   -- Tables 1-5: stands, SP, movement, terrain
add(require "olab.tables_fire")     -- Tables 6-11, KO: shooting, close combat, aircraft

-- The roster attributes of a firer's arcs (5.1), which shooting.lua reads. They belong in
-- schema.lua; until its owner moves them there they are added here, the one file of the
-- shooting part loaded before `umpire.ruleset` reads the schema (init.lua requires the schema
-- module first, so this is the same table). A declaration already in schema.lua wins.
local unit = (require "olab.schema").unit
unit.turret = unit.turret or { type = "choice", values = { "auto", "yes", "no" }, default = "auto",
  doc = "may it turn its weapon to fire into its flank or rear arcs, at the cost of a MOVE " ..
    "(5.1)? auto: TNK yes (a tank turret), every other stand no; no for a StuG, yes for a " ..
    "gun on a pivot mount" }
unit.fixed_arc = unit.fixed_arc or { type = "flag", default = false,
  doc = "a fixed-arc weapon (StuG, catapult, fixed rocket launcher): fires only straight ahead " ..
    "across its base front, not across its whole front arc (5.1)" }
return all
