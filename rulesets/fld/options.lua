-- Every reading of an unclear rule in the units-and-fighting half of FLD, as an option the
-- umpire can change mid-game (`option list`, `option set NAME VALUE`). The default is the
-- recommended reading (FLD-Dnn); README.md lists them with a test for each.
local function opt(name, rule, doc, choices)
  umpire.option { name = name, default = choices[1][1], choices = choices, doc = doc, rule = rule }
end

opt("combat_table", "27; FLD-D01", "how the Combat Table's axes are read", {
  { "own_row", "row = your level or strength, column = the opponent's level or armour" },
  { "literal", "as the printed labels say: row = opponent, column = your own" },
  { "reverse_both", "grid[7 - opponent][7 - own]" } })
opt("impossible_score", "0; FLD-D03", "a required score of 7 or more", {
  { "none", "no d6 succeeds" }, { "six_always", "a natural 6 always succeeds" } })
opt("penetration_order", "25.4; FLD-D06", "which armour is rolled against first", {
  { "natural_first", "natural, then additive" }, { "additive_first", "additive, then natural" } })
opt("sixes_bonus", "25.4, 26.4; FLD-D07", "which sixes earn the extra hit point", {
  { "last_roll", "the sixes among the kept dice of the last roll made" },
  { "to_hit_roll", "the sixes of the to-hit roll that went on to get through" } })
opt("weapon_to_hit", "25.3; FLD-D08", "the sign of the weapon 'To Hit' column", {
  { "bonus", "a bonus to the shooter: required - value (SB +1 is easier)" },
  { "as_factor", "added to the required score like a tactical factor (SB +1 is harder)" } })
opt("loss_brackets", "25.3, 31.2; FLD-D09", "graded integrity-loss modifiers", {
  { "largest", "only the largest bracket applies" }, { "cumulative", "every bracket reached applies" } })
opt("mass_factors", "26.3; FLD-D10", "the two Mass to-hit factors", {
  { "replace", "+2 (more than twice) replaces +1" }, { "cumulative", "+1 and +2: +3" } })
opt("fanatic_factors", "26.3; FLD-D11", "what a fanatic charger takes", {
  { "both", "-1 fanatic and -1 charging" }, { "fanatic_only", "-1 fanatic only" } })
opt("charge_effects", "26.3; FLD-D12", "how long the charge factors and first-contact dice last", {
  { "first_round", "the round of the phase the units met" }, { "whole_melee", "every round of that melee" } })
opt("uphill_fragmented", "26.3; FLD-D13", "the merged line 'uphill. Unit is Fragmented'", {
  { "separate", "two separate +1 factors" }, { "uphill_only", "only the uphill +1; Fragmented adds nothing" } })
opt("cinc_with_unit", "31.2; FLD-D14", "the C-in-C with a testing unit", {
  { "minus2", "-2, as printed" }, { "plus2", "+2, as errata might read" } })
opt("irregular_response", "24; FLD-D15", "irregulars charged roll", {
  { "add", "d6 + (morale - 1), as printed" }, { "subtract", "d6 - (morale - 1)" } })
opt("halves", "25.2, 26.2; FLD-D16", "how half-rate ranks' dice are rounded", {
  { "sum_then_floor", "sum the half-rate ranks, then round down" }, { "per_rank_floor", "round each rank down" } })
opt("spear_bonus", "26.2; FLD-D17", "the spear bonus against Mounted", {
  { "both_ranks", "+ half the attacks of both ranks" }, { "front_rank", "+ half the front rank's attacks" } })
opt("fanatic_test", "23", "a fanatic-charge test not passed by two", {
  { "choose_only", "it only turns the fanatic charge into a charge" },
  { "apply_band", "a Fragment or Break band also applies to the unit" } })
opt("rally_zero", "32; FLD-D22", "a rally roll of 0 or less", {
  { "end_of_phase", "recovers at the end of this phase" }, { "min_one", "at least one phase" } })
opt("disorder_loss", "31.1 a; FLD-D23", "the loss in one phase that disorders", {
  { "over_25", "more than 25% of starting integrity" }, { "at_least_25", "25% or more" } })
opt("recoil_big", "30; FLD-D25", "the recoil of Behemoths and Artillery", {
  { "one_die", "1d6\"" }, { "two_dice", "2d6\"" } })
opt("integrity_floor", "8.2; FLD-D33", "integrity below 0", {
  { "allowed", "may go below 0" }, { "floor_zero", "stops at 0" } })
opt("mass_who", "26.3; FLD-D35", "who takes the Mass to-hit factors", {
  { "both", "both sides, every round" }, { "charger_only", "only a unit charging this phase" } })
opt("m2hw_shield", "10, 26.2; FLD-D36", "M2HW and shields against shooting", {
  { "none", "no shield at all, against shooting too" }, { "shooting", "the shield counts against shooting" } })
opt("shooting_penetration", "25.4; FLD-D37", "penetration rolls when shooting", {
  { "two_rolls", "natural, then additive (shooting column)" }, { "one_roll", "one roll against the additive value only" } })
opt("figure_loss", "25.4, 26.4 (our reading)", "whether lost integrity takes figures off", {
  { "follow_integrity", "a figure leaves for each full BUIV of integrity lost, rear rank first" },
  { "none", "figures stay; only integrity falls (the other reading of §8.2)" } })
opt("armour_points", "36, 10; FLD-D32", "which value of the additive armour is priced", {
  { "melee", "the additive armour's melee column (with animal armour, at most 6)" },
  { "shooting", "its shooting column (with animal armour, at most 6)" } })
opt("disorder_armour", "10, 32", "what disordered Close order troops lose 2 from", {
  { "additive", "the additive armour only, as Loose and Open order lose 1 from theirs" },
  { "close_both", "the natural armour as well (the sentence says 'armour class' for Close order)" } })
