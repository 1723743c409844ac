-- OpenD6 Fantasy Miniatures in miniature: the opposed damage roll (4.9) between two soldiers
-- of two squads, each side rolling open-ended (2.6.1: a 6 adds and rolls again; a first die of
-- 1 scores 0). Soldiers are elements with their own Strength and wound markers. A test ruleset
-- for the rules API, not the whole game.

umpire.ruleset {
  name = "od6_damage",
  doc = "OpenD6 in miniature: opposed damage rolls between soldiers (4.9)",
  schema = {
    element = {
      phy = { type = "int", min = 0, max = 12, default = 3, doc = "Strength (PHY)" },
      armor = { type = "int", min = 0, max = 6, default = 0, doc = "armor bonus, against damage only" },
      ds = { type = "int", min = 0, max = 12, default = 3, doc = "Damage Strength of the soldier's weapon" },
    },
    markers = {
      wounded = "wounded: -1 to everything, cannot run (4.9.4)",
      incapacitated = "out of the battle, removed at the end of the phase (4.9.4)",
    },
  },
}

umpire.option {
  name = "damage_tie", default = "wound",
  choices = { { "wound", "DS equal to SR wounds, as the Damage Table reads (AMB-01)" },
              { "no_effect", "a tie does nothing, as the first example reads" } },
  doc = "what a tied damage roll does", rule = "4.9.2; AMB-01",
}

-- roll(mod) of 2.6.1 as a check: the open-ended die plus the modifier, or 0 on a first 1.
local function open_ended(ctx, title, mod, label, who)
  local c = ctx:check(title)
  local _, wild = c:roll("1d6!", "open-ended die", "2.6.1", who)
  c:add(mod, label)
  if wild.dice[1].value == 1 then c:add(-c:total(), "critical failure: no modifiers (2.6.1)", "2.6.1") end
  return c
end

umpire.command {
  name = "damage",
  help = "one hit: the shooter's Damage Strength roll against the target's Strength roll (4.9)",
  args = { { name = "shooter", type = "element", help = "SQUAD.SOLDIER" },
           { name = "target", type = "element", help = "SQUAD.SOLDIER hit" } },
  run = function(ctx, args)
    local a, t = args.shooter, args.target
    if a.unit == t.unit then umpire.fail("a soldier does not shoot his own squad") end
    if t:has("incapacitated") then umpire.fail(t.name .. " is already out of the battle") end
    local strength = t.phy + t.armor - (t:has("wounded") and 1 or 0)                 -- 4.9.1
    local ds = open_ended(ctx, "Damage Strength 4.9.1: " .. a.name, a.ds, "weapon Damage Strength", a)
    local sr = open_ended(ctx, "Strength 4.9.1: " .. t.name, strength,
      "PHY " .. t.phy .. " + armor " .. t.armor .. (t:has("wounded") and " - 1 wounded" or ""), t)
    local o = ctx:opposed(ds, sr, {
      names = { "damage", "strength" }, title = "Damage 4.9.2", rule = "4.9.2",
      tie = umpire.option("damage_tie") == "wound" and "first" or "none",
    })
    if o.winner ~= 1 then return t.name .. ": no effect" end
    if o.margin >= 4 or t:has("wounded") then                                         -- AMB-17
      t:mark("incapacitated", o.margin >= 4 and "DS 4 or more over SR (4.9.2)" or "a second wound (AMB-17)")
      return t.name .. " is incapacitated"
    end
    t:mark("wounded", "DS at least SR (4.9.2)")
    return t.name .. " is wounded"
  end,
}
