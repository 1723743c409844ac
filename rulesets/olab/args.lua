-- The command arguments several OLAB commands share, declared once: the umpire's override, the
-- arc a stand is struck or shot in, the cover a target is in.
local A = {}

local ARCS = { "front", "flank", "rear" }
local COVER = { "open", "cover", "double" }

-- `force`: the umpire overrides a refusal; `help` says which.
function A.force(help)
  return { name = "force", type = "flag", help = help or "the umpire's override" }
end

-- An arc (`front`, `flank`, `rear`), optional.
function A.arc(name, help)
  return { name = name or "arc", type = "choice", values = ARCS, optional = true, help = help }
end

-- Cover (`open`, `cover`, `double`), optional.
function A.cover(help)
  return { name = "cover", type = "choice", values = COVER, optional = true, help = help }
end

return A
