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

return all
