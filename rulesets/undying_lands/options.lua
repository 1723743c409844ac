-- Every reading of an unclear rule is an option (README.md, "Options"): the default is the
-- recommended reading, the other choices the alternatives; `option set NAME VALUE` mid-game.
local function opt(name, default, choices, doc, rule)
  umpire.option { name = name, default = default, choices = choices, doc = doc, rule = rule }
end

opt("ip_minimum", "construction", {
  { "construction", "the minimum of 1 IP holds when the vignette is built; in play IP may fall to 0 or less" },
  { "always", "IP never falls below 1, in play too" } },
  "where the minimum of 1 IP applies", "3; UL-D01")
opt("ip_clamp_step", "end", {
  { "end", "the running total is raised to 1 once, after every step" },
  { "after_morale", "raised to 1 after the morale class step, then defence and mount armour added" } },
  "where building a vignette's IP applies the minimum of 1", "3; UL-D29")
opt("target_column", "mounted_first", {
  { "mounted_first", "any Mounted target uses the Mounted column; else Leviathan, Behemoth or Close order the Le/Be/CO column; else Foot" },
  { "close_first", "a Close order Mounted target uses the Le/Be/CO column" } },
  "which column of the shooting table a target uses", "18; UL-D02")
opt("shooter_ip", "largest", {
  { "largest", "a shooter that lost 50% or more takes -1, one that lost 100% -2 (not both)" },
  { "cumulative", "both lines: -3 at 100%" } },
  "the shooter's IP loss lines (4 and 5)", "18; UL-D03")
opt("reduce_rounding", "floor_value", {
  { "floor_value", "-25% and -half: the reduced value rounded down" },
  { "floor_reduction", "the reduction rounded down, then taken off" } },
  "how -25% and -half round", "18, 19; UL-D04")
opt("disordered_close", "both", {
  { "both", "a disordered Close order vignette takes -4 and -2 (melee factors 1 and 3)" },
  { "minus4_only", "-4 only" } },
  "melee factors 1 and 3 together", "19; UL-D06")
opt("uphill_lines", "exclusive", {
  { "exclusive", "-2 against an opponent higher up a Gentle Hill, else -1 uphill; the stray 'Disordered Loose Order' ignored" },
  { "literal", "as printed: -2 and -1 both for a Gentle Hill, and -1 more if disordered Loose order" } },
  "melee factors 2 and 6", "19; UL-D07")
opt("more_ip_factor", "applies", {
  { "applies", "-1 when the opponent has more IP (as written)" },
  { "omit", "left out, as the Galatian example does" } },
  "melee factor 4", "19; UL-D08")
opt("charge_factors", "first_round", {
  { "first_round", "charging factors (7, 8, 9, 12) count in the first-contact round only" },
  { "every_round", "they count in every round of the melee" } },
  "how long charge factors count", "19; UL-D10")
opt("flank_lines", "exclusive", {
  { "exclusive", "the +10 and +5 flank lines of the integrity test exclude each other" },
  { "cumulative", "both may apply (+15)" } },
  "integrity test flank lines", "23.2; UL-D12")
opt("fanatic_fail", "charge", {
  { "charge", "a vignette that does not pass by five charges normally; no repulse" },
  { "repulse", "a score over its IP also repulses it" } },
  "failing the fanatic charge test", "16; UL-D13")
opt("rally_cap", "start", {
  { "start", "IP recovered in a rally never rises above the starting IP" },
  { "uncapped", "no cap" } },
  "rally recovery", "24; UL-D14")
opt("disorder_base", "phase_start", {
  { "phase_start", "disordered on losing half the IP it had at the start of the phase" },
  { "starting", "half its starting IP" } },
  "the 50% in one phase", "24; UL-D16")
opt("tu_lost_half", "total", {
  { "total", "a TU has lost 50% when its IP total is half its starting total or less" },
  { "majority", "when most of its vignettes have lost half their IP" } },
  "a TU that has lost 50% (wing demoralisation)", "26; UL-D17")
opt("allowed_actions", "default", {
  { "default", "charges only under ATTACK and RUSH; RUSH allows 1, 2, 4, 5; shooting under any order but march" },
  { "printed", "the lists printed per order" } },
  "the Tactical Actions each order allows", "10; UL-D18")
opt("recoil_count", "tu_totals", {
  { "tu_totals", "a TU recoils if its vignettes lost more IP in the melee than they inflicted, in total" },
  { "per_vignette", "each vignette that lost more than it inflicted recoils" } },
  "who recoils", "22; UL-D19")
opt("long_range", "over_half", {
  { "over_half", "long range is more than half the range" },
  { "half_or_more", "half the range or more" } },
  "long range", "18; UL-D22")
opt("repulse_mounted", "move_plus", {
  { "move_plus", "a repulsed Mounted vignette moves its Tactical Move + 1d12 cm" },
  { "d12_only", "1d12 cm only" } },
  "the repulse move of Mounted", "23.3; UL-D23")
opt("sbw_range", 3, nil, "the range of a special breath weapon in cm (printed 3; may have been 30)", "18; UL-D26")
opt("commander_unit", "free", {
  { "free", "a commander's own TU is activated without a roll and not counted in the attempt" },
  { "counted", "it is activated without a roll but counted in the number tried" } },
  "the commander's own TU", "6, 14; UL-D27")
opt("own_initiative_limits", "carried_out", {
  { "carried_out", "an own-initiative result is carried out whatever the order allows" },
  { "void", "void when the order forbids that Tactical Action: the TU stays stationary" } },
  "own initiative and the order's limits", "21; UL-D30")
opt("more_ip_test", "vignettes", {
  { "vignettes", "the testing vignette against the enemy vignettes in contact with it (summed)" },
  { "tu_totals", "the testing TU's total against the enemy TU's total" } },
  "integrity test: melee opponents have more IP", "23.2; UL-D31")
opt("missile_charge", "srw_lrw", {
  { "srw_lrw", "only SRW or LRW with SA bars charging all but Open order; SSW supplements melee (the Galatian example)" },
  { "any_missile", "any missile class with SA, SSW included, charges only Open order" } },
  "which missile troops may charge only Open order", "17, 21")
opt("disorder_count", "vignette", {
  { "vignette", "the TU is disordered when one of its vignettes loses half its IP in one phase" },
  { "tu_total", "when the TU's vignettes together lose half the TU's IP in one phase" } },
  "the 50% in one phase: each vignette or the TU's total", "24")
