-- The command arguments several OLAB commands share, declared once: the umpire's override, the
-- arc a stand is struck or shot in, where the target lies from the firer, the cover a target is in.
local A = {}

local ARCS = { "front", "flank", "rear" }
local COVER = { "open", "cover", "double" }
-- Where the target lies in the firer's own arcs (5.1): distinct words from the target's arc.
local FACING = { "ahead", "oblique", "beside", "behind" }

-- `force`: the umpire overrides a refusal; `help` says which.
function A.force(help)
  return { name = "force", type = "flag", help = help or "the umpire's override" }
end

-- An arc (`front`, `flank`, `rear`), optional.
function A.arc(name, help)
  return { name = name or "arc", type = "choice", values = ARCS, optional = true, help = help }
end

-- Where the target lies as seen from the firer (5.1), optional (the default is `ahead`):
-- `ahead` in its front arc (a fixed-arc weapon: straight ahead across its base front),
-- `oblique` in its front arc but off its base front, `beside` in a flank arc, `behind` in its
-- rear arc.
function A.facing(help)
  return { name = "facing", type = "choice", values = FACING, optional = true,
    help = help or "where the target lies from the firer: ahead (default), oblique (front arc, " ..
      "off the base front), beside (flank arc), behind (rear arc) (5.1)" }
end

-- Cover (`open`, `cover`, `double`), optional.
function A.cover(help)
  return { name = "cover", type = "choice", values = COVER, optional = true, help = help }
end

return A
