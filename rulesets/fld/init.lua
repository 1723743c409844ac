-- The Forces of Light and Darkness v1.1 (Alienstar Publishing, 2001): units of identical figures
-- in ranks, operational orders and sub-commander activation, five Tactical Actions and combat
-- by a bucket of d6 per figure. Rule references in breakdowns are the sections of the digest
-- (shared/rules/fld.md), each mapped to the rulebook's heading in README.md; FLD-Dnn are its
-- interpretation defaults, each an option (`option list`).
local schema = require "fld.schema"
local steps

-- command and sequence
-- A turn (16): Stage 1 orders, Stage 2 activation, Stage 3 initiative, then four phases.
steps = require("fld_common.sequence").steps(4)
-- end of command and sequence

umpire.ruleset {
  name = "fld",
  doc = "The Forces of Light and Darkness v1.1: figures in ranks, orders and activation, buckets of d6",
  schema = schema,
  sequence = steps,
}

-- command and sequence
require "fld.command"    -- commanders (5, 12), orders (17), activation (18, 21), own initiative (19, 29)
require "fld.sequence"   -- turn (16), tactical initiative (20), sequencing (22), winning and losing (34)
require "fld.terrain"    -- table generation (14), deployment (15)
-- end of command and sequence

-- units and fighting
