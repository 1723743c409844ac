-- FLD's table generation (14) and deployment (15) on the shared module `fld_common`.
local cfg = require("fld.command").cfg
require("fld_common.terrain").register(cfg)
