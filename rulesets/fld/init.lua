-- The Forces of Light and Darkness v1.1 (FLD): units of identical figures in ranks, operational
-- orders and sub-commander activation, buckets of d6 to hit and to penetrate. Section numbers
-- in breakdowns are the digest's (../shared/rules/fld.md), which follows the rulebook's order;
-- readings are options (README).
-- Two engineers share this file; each adds lines only inside his own block.

local schema = require "fld.schema"

umpire.ruleset {
  name = "fld",
  doc = "The Forces of Light and Darkness v1.1: figures in ranks, orders and activation, buckets of d6",
  schema = schema,
  -- command and sequence: a turn (16) is Stage 1 orders, Stage 2 activation, Stage 3 initiative, then four phases
  sequence = require("fld_common.sequence").steps(4),
}

-- units and fighting
-- end units and fighting

-- command and sequence
require "fld.command"    -- commanders (5, 12), orders (17), activation (18, 21), own initiative (19, 29)
require "fld.sequence"   -- turn (16), tactical initiative (20), sequencing (22), winning and losing (34)
require "fld.terrain"    -- table generation (14), deployment (15)
-- end command and sequence
