-- Tables 6-11 and the knock-out table: shooting, close combat and aircraft, as data.
-- The rules that read them are in shooting.lua, combat.lua and special.lua; every value here is
-- the same in both editions except where a comment says otherwise.
local T = {}

-- Table 6: the range in inches of each weapon class. A stand's `weapon` (and `weapon2`,
-- `weapon_vs_tnk`) attribute holds one of these keys. Rocket ART uses the key of the gun it is
-- comparable with; a TNK uses the key of its comparable ART (the -18" is applied in the rules).
T.ranges = {
  doc = "Table 6: weapon ranges in inches (5.1); * rows are 6\" shorter for horse artillery",
  entries = {
    -- Foot anti-tank teams have no Table 6 row; their reach is the band 8.8.2's KO table gives
    -- their rows: 1st generation (AT rifles, bazookas, Panzerfaust, PIAT) 1/2"-2", 2nd
    -- generation (RPG, MAW) 1/2"-4". Table 7 gives them no row of their own: the team's own
    -- small-arms or SKI/S row applies; the KO table row is the class's own.
    { "at_rifle", 2 },           -- 1st-generation foot AT weapons: AT rifle, bazooka, Panzerfaust, PIAT
    { "rpg", 4 },                -- 2nd-generation foot AT weapons: RPG, MAW
    { "pre1700", 4 },            -- most pre-c.1700 SKI/F and SKI/M weapons (javelins, slings…)
    { "pistol", 4 },             -- pistol-type weapons (gunpowder, unlike pre1700)
    { "matchlock", 6 },          -- matchlock muskets, SKI with matchlocks
    { "bow", 8 },                -- ARC with bows
    { "flintlock", 8 },          -- most MSK and SKI/F with flintlocks
    { "crossbow", 10 },
    { "longbow", 12 },
    { "beam_rifle", 12 },        -- hand-held "rifle" beam weapons
    { "rifle_musket", 20 },      -- post-c.1850 muzzle-loading rifles: the range, not Table 7's +2
    { "rifle", 20 },             -- breech-loading rifles and later small arms
    { "support_beam", 20 },      -- SKI/S-type support beam weapons
    { "ski_s", 24 },             -- SKI/S support weapons (HMG, mortars…)
    { "torsion_art", 24 },
    { "aagw", 24 },              -- AAGW not mounted on ART
    { "ml_smoothbore", 30 },     -- * muzzle-loading smoothbore ART
    { "atgw", 30 },              -- * all ATGW
    { "light_beam_cannon", 30 }, -- *
    { "ml_rifled", 50 },         -- * muzzle-loading rifled ART
    { "beam_cannon", 50 },       -- *
    { "bl_to79", 60 },           -- * breech-loading rifled ART up to 79 mm
    { "heavy_beam_cannon", 60 }, -- * (AMB-39: range as Table 6 lists it)
    { "bl_80_130", 70 },         -- breech-loading rifled ART 80-130 mm
    { "bl_over130", 75 },        -- breech-loading rifled ART over 130 mm
    { "ship", 80 },              -- "ship weapons": super-heavy guns and beams
  },
}

-- Table 7: additions to the shooting score. The firer's current SP is added first (not a row
-- here). One weapon row is used per shot (AMB-15); flank and rear add to it.
T.fire_additions = {
  doc = "Table 7: additions to the shooting score (5.2.1), besides the firer's current SP",
  entries = {
    { "small_arms", 2 },         -- SKI/F or MSK with breech-loading rifles or later small arms
    { "ski_s", 3 },              -- the firer is SKI/S
    { "ml_smoothbore", 1 },
    { "ml_rifled", 2 },
    { "canister", 2 },           -- smoothbore ART with canister at 8" or less (replaces the +1)
    { "bl_to79", 3 },
    { "light_beam_cannon", 3 },
    { "bl_80_130", 4 },
    { "beam_cannon", 4 },
    { "bl_over130", 5 },
    { "heavy_beam_cannon", 5 },
    { "ship", 7 },
    { "guided", 4 },             -- ATGW against TNK, AAGW against AIR
    { "flank", 2 },              -- ground fire striking the target's flank arc
    { "rear", 3 },               -- ground fire striking the target's rear arc
  },
}

-- Table 8: deductions from the shooting score (negative numbers: they are added as they are).
T.fire_deductions = {
  doc = "Table 8: deductions from the shooting score (5.2.1)",
  entries = {
    { "target_ski", -2 },
    { "firer_ski", -2 },
    { "light", -2 },             -- target is a light-armour TNK (scout cars, APCs)
    { "infa_soft_weapon", -2 },  -- target INF/A hit by non-gunpowder (PN: or superior tech) weapons
    { "medium", -3 },
    { "heavy", -4 },
    { "super", -5 },
  },
}

-- The steps after Tables 7 and 8 (5.2.1 "NEXT", 8.1, 8.2): one place for their numbers.
T.fire_steps = {
  doc = "5.2.1 after Tables 7-8: indirect, off-table, cover; the save dice",
  entries = {
    { "indirect", -4 },
    { "off_table", -2 },         -- off-table ART without a forward observer (8.2)
    { "cover", -4 },
    { "double_cover", -4 },      -- a further -4 for double-strength cover (8.1)
    { "save_dice", "2d6" },
    { "shield_dice", "1d6" },    -- one extra save die for sci-fi vehicle shields (8.7.2)
  },
}

-- Table 9: additions for close combat, for the striking stand (its SP is added first; a third
-- of it for TNK and TPT).
T.cc_additions = {
  doc = "Table 9: additions for close combat (6.5), besides the striker's current SP",
  entries = {
    { "close_order", 2 },        -- striker is INF/A, INF/U or MSK
    { "mounted_vs_foot", 2 },    -- mounted striker hitting foot, TPT or ART (same row: +2 once)
    { "foot_vs_heavy_open", 1 }, -- foot hitting TNK, SKI/S or elephant in the open
    { "foot_vs_heavy_cover", 3 },-- … the same inside woods or BUA
    { "bonus", 2 },              -- charging (first turn) and/or General and/or CAV vs SKI (AMB-04)
    { "ski_f_modern", 1 },       -- SKI/F after 1915 or in sci-fi
    { "wbd_charging", 1 },       -- a charging WBD (AMB-22)
    { "pike", 3 },               -- PKE striking a non-PKE, not TNK or motor vehicles
    { "attack_column", 1 },      -- MSK c.1790-1875 backed by a MSK directly behind (6.6)
  },
}

-- Table 10: deductions for close combat (negative numbers), and the steps after it (6.5).
T.cc_deductions = {
  doc = "Table 10: deductions for close combat (6.5), and the terrain and flank steps",
  entries = {
    { "cav_a", -1 },             -- struck CAV/A, striker with non-firearms or pre-1700 firearms
    { "inf_a", -2 },             -- struck INF/A (or an armoured mount), the same weapons
    { "scifi_armour", -2 },      -- struck wears substantial sci-fi armour
    { "striker_ski", -2 },       -- striker is SKI
    { "defended", -4 },          -- NEXT: blow on the front of foot/ART defending terrain
    { "flank", 4 },              -- NEXT: blow on the flank or rear of a non-PKE
    { "pike_flank", 8 },         -- NEXT: blow on the flank or rear of a PKE
  },
}

-- Table 11: suggested AIR ordnance and its points cost (8.3). `items` is the number of bomb
-- loads, rocket shots or ATGW the aircraft carries; `shoots_as` what its own guns shoot as.
T.aircraft = {
  doc = "Table 11: aircraft ordnance and extra PCP (8.3); sci-fi: PN +1 item, 2e +2 items, +5 PCP",
  entries = {
    { "fighter", { shoots_as = "SKI/F", items = 0, ordnance = "none", pcp = 1 } },
    { "fighter_bomber", { shoots_as = "SKI/F", items = 1, ordnance = "bomb or rocket", pcp = 2 } },
    { "tactical_bomber", { shoots_as = "none", items = 2, ordnance = "bomb", pcp = 3 } },
    { "jet", { shoots_as = "SKI/F or SKI/S", items = 3, ordnance = "bomb or rocket", pcp = 4 } },
    { "attack_helicopter", { shoots_as = "none", items = 3, ordnance = "rocket or atgw", pcp = 5 } },
    { "unarmed", { shoots_as = "none", items = 0, ordnance = "none", pcp = 0 } },
  },
}

-- The knock-out conversion table (8.8.2): the modified D6 needed to knock the target out.
T.knock_out = {
  doc = "KO table (8.8.2): D6 needed, firer row by target column",
  rows = { "at_rifle", "rpg", "torsion_ml", "atgw", "aagw", "bl_to79", "bl_80_130",
           "bl_over130", "ship" },
  cols = { "soft", "light", "medium", "heavy", "super" },
  cells = {
    { 3, 4, 4, 5, 6 }, -- foot with 1st-generation AT weapons (bazooka, Panzerfaust), 1/2"-2"
    { 2, 3, 3, 4, 5 }, -- foot with 2nd-generation RPG, MAW, 1/2"-4"; SKI/S at any range
    { 2, 2, 4, 6, 6 }, -- torsion ART; muzzle-loading ART
    { 4, 4, 4, 5, 5 }, -- ATGW; light beam cannon
    { 2, 2, 6, 6, 6 }, -- AAGW
    { 3, 4, 5, 6, 6 }, -- breech-loading rifled ART up to 79 mm
    { 2, 2, 4, 5, 6 }, -- breech-loading rifled ART 80-130 mm; heavy beam cannon
    { 2, 2, 3, 4, 5 }, -- breech-loading rifled ART over 130 mm
    { 2, 2, 2, 5, 5 }, -- "ship weapons"
  },
}

return T
