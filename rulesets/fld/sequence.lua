-- FLD's turn (16), tactical initiative (20), sequencing within a phase (22) and winning and
-- losing (34), on the shared module `fld_common` with FLD's `cfg` (fld/command.lua).
local cfg = require("fld.command").cfg
require("fld_common.sequence").register(cfg)
require("fld_common.initiative").register(cfg)
require("fld_common.victory").register(cfg)
