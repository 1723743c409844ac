-- The Forces of Light and Darkness v1.1 (FLD): figures in ranks, orders, buckets of d6.
-- Units of identical figures in ranks, operational orders and sub-commander activation, buckets
-- of d6 to hit and to penetrate armour, Integrity Points.
-- The rulebook's sections are headed but not numbered: the numbers in breakdowns (§25) are
-- umpire's numbering of its headings, in the rulebook's order, listed in README.md with the
-- heading each stands for. Readings of ambiguous rules are options (README).

local schema = require "fld.schema"
local tables = require "fld.tables"

umpire.ruleset {
  name = "fld",
  doc = "The Forces of Light and Darkness v1.1: figures in ranks, orders and activation, buckets of d6",
  schema = schema,
  tables = tables,
  -- a turn (16) is Stage 1 orders, Stage 2 activation, Stage 3 initiative, then four phases
  sequence = require("fld_common.sequence").steps(4),
  distance = "in",
}

-- units and fighting
require "fld.options"
require "fld.units"      -- the troop data record, mass, integrity, points (1-10, 36)
require "fld.shooting"   -- TA3 shooting (25) and gunnes (35)
require "fld.melee"      -- TA4 melee (26), combat results (30)
require "fld.charge"     -- TA1 fanatic charge, TA2 charge and responses (23, 24)
require "fld.morale"     -- morale tests (31), disorder and rally (32), interpenetration (33)

-- command and sequence
require "fld.command"    -- commanders (5, 12), orders (17), activation (18, 21), own initiative (19, 29)
require "fld.sequence"   -- turn (16), tactical initiative (20), sequencing (22), winning and losing (34)
require "fld.terrain"    -- table generation (14), deployment (15)
require "fld.campaign"     -- what carries over between the battles of a campaign
