-- Tables 1-5 (stands, strength, quality, moves, terrain) and the two price lists the points
-- cost system (2.2.2) needs. Values are the rulebooks'; where the editions differ a record
-- holds both: `pn` (Player Notes, the default) and `e2` (2nd Edition).
-- Scripts read them with umpire.lookup("NAME", KEY); see stands.lua and movement.lua.
return {
  stand_types = {
    doc = "Table 1: stand type codes",
    entries = {
      { "INF/A", "infantry, armoured: close-order heavy foot" },
      { "INF/U", "infantry, unarmoured: close-order foot" },
      { "WBD", "warband: loose-order tribal or irregular foot" },
      { "PKE", "pikes (war elephants count as PKE)" },
      { "ARC", "archers and other pre-bayonet shooters, close order" },
      { "MSK", "muskets: close-order volley firearms with bayonets" },
      { "SKI/F", "skirmishers on foot, open order" },
      { "SKI/M", "mounted skirmishers (and light chariots)" },
      { "SKI/S", "support weapons: machine guns, mortars and the like" },
      { "CAV/A", "armoured (heavy) cavalry" },
      { "CAV/U", "unarmoured cavalry, camelry" },
      { "ART", "guns, rockets, war machines" },
      { "TNK", "armoured vehicles: light/medium/heavy/super armour, slow/medium/fast" },
      { "TPT", "transport: animal, motor or jeep; camp followers, civilians" },
      { "AIR", "aircraft and flying creatures: fixed wing, rotary, creature" },
    },
  },

  base_sp = {
    doc = "Table 2: base strength by stand type (2E: SKI/S 2)",
    entries = {
      { "INF/A", 4 }, { "INF/U", 3 }, { "PKE", 3 }, { "MSK", 3 }, { "WBD", 3 }, { "ARC", 3 },
      { "CAV/A", 4 }, { "CAV/U", 3 },
      { "ART", 4 }, { "AIR", 4 },
      { "SKI/F", 2 }, { "SKI/M", 2 }, { "SKI/S", { pn = 3, e2 = 2 } },
      { "TPT", 1 },
      { "TNK light", 5 }, { "TNK medium", 6 }, { "TNK heavy", 7 }, { "TNK super", 8 },
    },
  },

  quality = {
    doc = "Table 3: strength modifiers (quality grades are alternatives; the rest add up)",
    entries = {
      { "poor", -2 },
      { "trained", 0 },
      { "good", 2 },
      { "elite", 3 },
      { "magic user", 3 },
      { "SKI/F or SKI/S after 1906 or sci-fi", 2 },
      { "General", 1 },
      { "Hero", { pn = 1, e2 = 0 } },
      { "elephant PKE", -1 },
      { "agreed trait", "+1 or -1" },
    },
  },

  moves = {
    doc = "Table 4: maximum move in inches (charge: charging; AIR: min and max)",
    entries = {
      { "INF", 6 }, { "ARC", 6 }, { "PKE", 6 }, { "MSK", 6 }, { "TPT animal", 6 },
      { "WBD", { move = 6, charge = 8 } },
      { "SKI/F", 8 }, { "SKI/S", 8 }, { "TNK slow", 8 },
      { "SKI/M", { move = 10, charge = 12 } },
      { "CAV/U", { move = 10, charge = 12 } },
      { "CAV/A", 10 }, { "TNK medium", 10 }, { "TPT motor", 10 },
      { "ART manhandled", 3 },
      { "TNK fast", 16 }, { "TPT jeep", 16 },
      { "AIR rotary", { min = 6, pn = 40, e2 = 30 } },
      { "AIR rotary loitering", { min = 6, pn = 18, e2 = 12 } },
      { "AIR fixed", { min = 24, pn = 80, e2 = 60 } },
      { "limber animal", -2 },
      { "limber motor", -4 },
      { "horse artillery TPT", 4 },
    },
  },

  terrain = {
    doc = "Table 5 and 4.3: cost of each inch, flat deductions, who may not enter",
    entries = {
      { "open", { cost = 1 } },
      { "woods", { cost = 2, ski_flat = -2, limit = 2, barred = "PKE; PN also wheeled vehicles" } },
      { "bua", { cost = 3, barred = "PKE CAV ART TPT TNK, except along roads" } },
      { "marsh", { cost = 2, barred = "ART TNK CAV PKE; wheeled TPT (2E: TPT not on foot)" } },
      { "river", { cost = 2, barred = "all but SKI, except at bridges and fords" } },
      { "ford", { cost = 2 } },
      { "steep slope up", -2 },
      { "road", { bonus = 4, motor = 8 } },
      { "linear obstacle", { pn = -2, e2 = -1 } },
      { "disengage", -3 },
      { "swap places", -3 },
      { "minimum move", 2 },
    },
  },

  command_distance = {
    doc = "4.1.2: command distance in inches by the army's communications",
    entries = {
      { "none", { pn = 6, e2 = 4 } },
      { "telephone", { pn = 12, e2 = 8 } },
      { "radio", { pn = 24, e2 = 18 } },
    },
  },

  pcp_weapon = {
    doc = "2.2.2: fire factors (Table 7) added to ART (TNK: 1 less) when pricing",
    entries = {
      { "torsion_art", 0 }, { "rocket", 0 },
      { "ml_smoothbore", 1 }, { "ml_rifled", 2 },
      { "bl_to79", 3 }, { "light_beam_cannon", 3 },
      { "bl_80_130", 4 }, { "beam_cannon", 4 },
      { "bl_over130", 5 }, { "heavy_beam_cannon", 5 },
      { "ship", 7 },
    },
  },

  pcp_air = {
    doc = "Table 11: extra PCP to arm an aircraft (sci-fi adds 5 more)",
    entries = {
      { "unarmed", 0 }, { "fighter", 1 }, { "fighter_bomber", 2 }, { "tactical_bomber", 3 },
      { "jet", 4 }, { "attack_helicopter", 5 }, { "scifi", 5 },
    },
  },
}
