-- Undying Lands (ASP 2004): vignettes with their own Integrity Points, polyhedral dice, FLD's command structure.
-- The publisher's revision of FLD: Tactical Units of vignettes, each with its own IP, one roll per vignette, integrity tests.
-- The rulebook's headings are not numbered: the numbers in breakdowns are umpire's numbering
-- of them, in the rulebook's order (README.md lists them). UL-Dnn: readings, all options.
-- The command structure (orders, activation, initiative, sequence) is the shared module
-- fld_common with UL's configuration (command.lua).
umpire.ruleset {
  name = "undying_lands",
  doc = "Undying Lands: vignettes with Integrity Points, polyhedral dice, FLD's command structure",
  schema = require "undying_lands.schema",
  -- a turn (9) is Stage 1 orders, Stage 2 activation, Stage 3 initiative, then two phases
  sequence = require("fld_common.sequence").steps(2),
  distance = "cm",
}

require "undying_lands.options"
require "undying_lands.tables"     -- the tables for `table show`
require "undying_lands.units"      -- vignettes and their IP (1-3), move (5), `muster`, `stats`
require "undying_lands.command"    -- commanders (6, 7), orders (10), activation (11, 14), own initiative (12, 21)
require "undying_lands.sequence"   -- turn (9), TI (13), sequencing (15), terrain (8), winning (26)
require "undying_lands.integrity"  -- integrity tests (23), disorder and rally (24)
require "undying_lands.shooting"   -- TA3 (18)
require "undying_lands.melee"      -- TA4 (19), combat results (22)
require "undying_lands.charge"     -- TA1 (16), TA2 (17)
require "undying_lands.movement"   -- TA5 (20), interpenetration (25)
require "undying_lands.campaign"   -- what carries over between the battles of a campaign
