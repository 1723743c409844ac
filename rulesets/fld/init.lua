-- The Forces of Light and Darkness v1.1 (FLD): units of identical figures in ranks, buckets of
-- d6 to hit and to penetrate, Integrity Points. Section numbers in breakdowns are the digest's
-- (../shared/rules/fld.md), which follows the rulebook's order; readings are options (README).
-- Two engineers share this file; each adds lines only inside his own block.

local schema = require "fld.schema"
local tables = require "fld.tables"

umpire.ruleset {
  name = "fld",
  doc = "The Forces of Light and Darkness v1.1: figures in ranks, buckets of d6, integrity",
  schema = schema,
  tables = tables,
}

-- units and fighting
require "fld.options"
require "fld.units"      -- the troop data record, mass, integrity, points (1-10, 36)
require "fld.shooting"   -- TA3 shooting (25) and gunnes (35)
require "fld.melee"      -- TA4 melee (26), combat results (30)
require "fld.charge"     -- TA1 fanatic charge, TA2 charge and responses (23, 24)
require "fld.morale"     -- morale tests (31), disorder and rally (32), interpenetration (33)
-- end units and fighting

-- command and sequence
-- end command and sequence
