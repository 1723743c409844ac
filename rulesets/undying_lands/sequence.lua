-- UL's turn of two phases (9), tactical initiative d20 + rating (13), the Tactical Action
-- sequence (15), winning and losing (26), table and deployment (8) on fld_common.
local cfg = require("undying_lands.command").cfg
require("fld_common.sequence").register(cfg)
require("fld_common.initiative").register(cfg)
require("fld_common.victory").register(cfg)
require("fld_common.terrain").register(cfg)
