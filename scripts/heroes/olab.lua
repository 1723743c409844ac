-- The heroes house rule's adapter for OLAB (scripts/heroes.lua picks it when OLAB is loaded).
-- OLAB already has Heroes and Main Characters as stand flags (`hero`, `main_character`): its
-- `sp` counts the Hero's +1 SP (Table 3; none in the 2nd Edition), morale.lua never routs a PN
-- Hero, and `dispute test` adds +1 for one. So this adapter only says how to read and declare
-- them, and when a stand is out of the battle; the core leaves the rest to OLAB.
local A = { name = "olab" }

-- What the ruleset already does, so the core does not do it twice.
A.builtin = { sp = true, never_rout = true, dispute = true }
A.rules = "OLAB: Table 3 (+1 SP, PN), morale.lua (never routs, PN), `dispute test` (+1, PN)"

function A.kind(u)
  if u.hero then return "hero" end
  if u.main_character then return "main character" end
  return nil
end

-- Declares a Hero (+1 SP in PN, Table 3; AMB-24) or a Main Character (no SP bonus). A stand
-- that was already flagged (an army list) keeps its printed SP: the +1 is in them already.
function A.declare(u, kind)
  if kind == "hero" then
    if u.hero then return u.name .. " is already a Hero" end
    u:set("hero", true, "declared a Hero before play (8.8.4)")
    if umpire.variant ~= "2e" and u.sp_start < 12 then
      u:add("sp_start", 1, "a Hero's +1 SP at creation (Table 3, 8.8.4)")
      u:add("sp", 1, "a Hero's +1 SP at creation (Table 3, 8.8.4)")
    end
  else
    if u.main_character then return u.name .. " is already a Main Character" end
    u:set("main_character", true, "declared a Main Character before play: no SP bonus (8.8.4)")
  end
  return u.name .. " is a " .. (kind == "hero" and "Hero" or "Main Character")
end

function A.eliminated(u)
  return u.off_table == "eliminated"
end

A.rout_marker = "routed"

-- The 2nd Edition keeps only the return (8.8.4): no +1 SP, no immunity to rout, no dispute
-- bonus, for Heroes and Main Characters alike. `hero`'s help says so under that variant.
if umpire.variant == "2e" then
  A.help = {
    hero = "declare a Hero or, with `main`, a Main Character, agreed before play: either comes back\n" ..
      "in the next game even if eliminated in this one (2nd Edition 8.8.4: no +1 SP, no immunity to\n" ..
      "rout, no dispute bonus). e.g. `hero boudica main`",
  }
end

-- A fallen Hero or Main Character back for the campaign's next battle: on the table at its
-- starting SP, with no marker of the battle it fell in.
function A.restore(u, reason)
  if u.off_table ~= "no" then u:set("off_table", "no", reason) end
  if u.sp ~= u.sp_start then u:set("sp", u.sp_start, reason) end
  for _, m in ipairs(u:markers()) do u:unmark(m, reason) end
end

return A
