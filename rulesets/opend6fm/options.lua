-- Every ambiguity of the source that is a choice between readings (AMB-nn, README.md): the
-- recommended reading is the default. README.md lists them with the tests of each alternative.

local function opt(name, default, choices, doc, rule)
  umpire.option { name = name, default = default, choices = choices, doc = doc, rule = rule }
end

opt("damage_tie", "wound", { { "wound", "DS equal to SR wounds, as the Damage Table reads" },
  { "no_effect", "a tie does nothing, as the opposed-test example reads" } },
  "what a tied damage roll does", "Ch3 Damage Table; Ch1 Opposed Tests; AMB-01")
opt("marksmanship_attribute", "cor", { { "cor", "under Coordination, as the attribute list puts it" },
  { "agi", "under Agility, as Ch1 says of firearms; gives the sample's marksmanship 5 and 6" } },
  "the attribute marksmanship is trained from", "Ch1 Attribute and Skill List; AMB-31")
opt("heavy_crossbow_ds", "example", { { "example", "Damage Strength 5, as the damage example uses" },
  { "sheet", "Damage Strength 6, as the record sheet prints" } },
  "the heavy crossbow's Damage Strength", "Ch3 Damage Determination; Ch7 record sheet; AMB-05")
opt("sheet_ranges", "inches", { { "inches", "the record sheet's ranges are inches" },
  { "metres", "they are metres: halved (1\" = 2 m)" } },
  "the unit of the record sheet's weapon ranges", "Game Scales; AMB-18")
opt("target_cover", "majority", { { "majority", "the cover of the majority of visible targets, a 50/50 split the better (Ch3)" },
  { "best", "the best cover among the visible targets (Ch1 Squad Shooting)" } },
  "which cover the target squad gets", "Ch3 Target Condition; AMB-03")
opt("range_measure", "average", { { "average", "centre of the fire line to the centre of the targets (Ch3)" },
  { "farthest", "the farthest distance from the firers to the targets (Ch1)" } },
  "the range of a volley when several distances are given", "Ch3 Measuring Range; AMB-02")
opt("command_test", "straight", { { "straight", "command roll against difficulty 6" },
  { "opposed", "command roll against a threat roll of 6" } },
  "the 'difficulty 6 command test' of disengaging and refusing to advance", "Ch4; AMB-06")
opt("wound_walk", "minus_one", { { "minus_one", "the wound's -1 AGI lowers the Walk rate by 1" },
  { "unchanged", "the Walk rate is unchanged" } },
  "whether a wound lowers the Walk rate", "Ch3 Effects of Damage; AMB-14")
opt("wounded_sergeant", "minus_one", { { "minus_one", "a wounded sergeant commands at -1" },
  { "full", "his command is not lowered" } },
  "a wounded sergeant's command for morale and initiative", "Ch5 Morale Tests; AMB-11")
opt("initiative_roll", "open", { { "open", "open-ended, with criticals" },
  { "plain", "a plain d6" } }, "the initiative roll", "Sequence of Play; AMB-12, AMB-24")
opt("crawl_is_walk", "walk", { { "walk", "crawling, standing up or going prone count as walking (+1, Fire +1)" },
  { "still", "they do not count as moving" } }, "crawling and going prone", "Ch2 Prone Soldiers; AMB-15")
opt("cc_weapon_bonus", "best", { { "best", "the best single weapon bonus" },
  { "stack", "every weapon bonus the soldier has adds" } },
  "several close combat weapon bonuses", "Ch4 Close Combat Modifiers Chart; AMB-32")
opt("forceback_count", "all", { { "all", "every casualty the squad took this turn" },
  { "close_combat", "only the close combat casualties" } },
  "the casualties compared to force back", "Ch4 Force Back and Advance; AMB-34")
opt("half_casualties", "wounded_count", { { "wounded_count", "wounded and incapacitated against the starting size" },
  { "incapacitated_only", "only soldiers incapacitated" } },
  "'50% or more casualties'", "Ch5 Rally; AMB-20")
opt("terrain_values", "chart", { { "chart", "the printed Terrain and Barrier Effects Charts" },
  { "text", "the text: creek light (+1), stream medium (+2), barbed wire 4\"" } },
  "terrain values where the chart and the text differ", "Ch6; AMB-19")
opt("rally_eligibility", "neither", { { "neither", "a squad that shot or fought may not rally" },
  { "either", "it may rally unless it both shot and fought" } },
  "who may rally", "Ch5 Rally; AMB-21")
opt("cc_damage", "end_of_phase", { { "end_of_phase", "close combat results apply together at the end of the phase" },
  { "at_once", "each fight's result applies at once" } },
  "when close combat casualties take effect", "Ch4; AMB-16")
