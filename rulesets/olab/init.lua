-- Obsidian Ludum Ad Bellum (OLAB): stands with strength points, modifier tables, sets of five.
-- Default edition: the Player Notes (PN); `ruleset use olab 2e` selects the 2nd Edition.
-- Rule references in breakdowns are the rulebook's section numbers; see README.md for every
-- reading of an ambiguous rule (AMB-nn refers to the list in the README).

local schema = require "olab.schema"
local tables = require "olab.tables"

umpire.ruleset {
  name = "olab",
  doc = "Obsidian Ludum Ad Bellum: stands, SP, sets of five (Player Notes; variant 2e)",
  schema = schema,
  -- One round: initiative, then each phase played through by both sides in sets of five.
  sequence = { "initiative", "command", "manoeuvre", "shooting", "close_combat", "aob" },
  tables = tables,
  variants = { ["2e"] = "the 2nd Edition rules instead of the Player Notes" },
}

-- Each part of the rules registers its own commands, events and hook points.
require "olab.actions"
require "olab.stands"     -- strength (2.2.1), points (2.2.2), changes of order (2.2.4)
require "olab.sequence"   -- deployment, reserves, initiative, sets of five (3.2-3.3)
require "olab.command"    -- command distance (4.1.2), replacing Generals (7.4)
require "olab.movement"   -- move allowance (Tables 4-5, 4.3), charges and evades (4.4)
require "olab.dispute"    -- settling disputes (PN 1.3)
require "olab.period"
require "olab.shooting"
require "olab.morale"
require "olab.combat"
require "olab.formations"
require "olab.special"
require "olab.campaign"   -- what carries over between the battles of a campaign
