-- OpenD6 Fantasy Miniatures (Basic Game), from its forum draft (see README.md).
-- Each soldier is an element of his squad (`ice.s1`); every test is an open-ended d6 plus a
-- skill. References in breakdowns name the source's chapter and heading ("Ch3 Damage Table");
-- README.md maps them to commands and tests, and lists every reading chosen (AMB-nn).

umpire.ruleset {
  name = "opend6fm",
  doc = "OpenD6 Fantasy Miniatures, Basic Game: soldiers in squads, open-ended d6 tests",
  schema = {
    unit = {
      troop = { type = "text", doc = "troop type (Ch7 Troop List)" },
      quality = { type = "choice", values = { "average", "veteran", "elite" }, default = "average",
                  doc = "squad quality; sets the starting morale (Ch5 Morale Levels)" },
      morale = { type = "int", min = 0, max = 7, default = 5, doc = "morale level now (Ch5)" },
      morale_start = { type = "int", min = 5, max = 7, default = 5, doc = "starting morale level (Ch5)" },
      state = { type = "choice", values = { "steady", "shaken", "demoralized", "broken" },
                default = "steady", doc = "morale status, from the level (Ch5 Morale Statuses)" },
      soldiers = { type = "int", min = 0, default = 0, doc = "soldiers on the table" },
      start_size = { type = "int", min = 0, default = 0, doc = "soldiers at the start (the 50% rule)" },
      cas_turn = { type = "int", min = 0, default = 0, doc = "casualties this turn, sergeant not counted (Ch5)" },
      cas_cc = { type = "int", min = 0, default = 0, doc = "soldiers hit in close combat this turn, sergeant included (AMB-34 option)" },
      cas_all = { type = "int", min = 0, default = 0, doc = "soldiers hit this turn, sergeant included (Ch4 force back)" },
      cas_total = { type = "int", min = 0, default = 0, doc = "soldiers incapacitated in all" },
      sergeant_hit = { type = "flag", default = false, doc = "sergeant wounded or incapacitated this turn, not yet tested (Ch5)" },
      cc_result = { type = "choice", values = { "none", "won", "lost" }, default = "none",
                    doc = "forced its opponent back / was forced back this turn (Ch5 threat modifiers)" },
      targets = { type = "text", default = "", doc = "squads it fired at this turn: at most two (Ch1 Squad Shooting)" },
      rally_point = { type = "text", default = "home edge", doc = "where it routs to (Ch5 Rally Points)" },
      off_table = { type = "choice", values = { "no", "removed" }, default = "no", doc = "removed from play" },
    },
    element = {
      role = { type = "choice", values = { "standard", "sergeant", "champion", "hero", "creature" }, default = "standard",
               doc = "sergeant, standard soldier or champion (Ch1 Soldiers and Squads); hero or creature for the Advanced Game's house rules" },
      agi = { type = "int", min = 0, default = 2, doc = "Agility" },
      int = { type = "int", min = 0, default = 2, doc = "Intellect (KNO on the sample)" },
      cor = { type = "int", min = 0, default = 2, doc = "Coordination (MEC on the sample)" },
      acu = { type = "int", min = 0, default = 2, doc = "Acumen (PER on the sample)" },
      phy = { type = "int", min = 0, default = 2, doc = "Physique = Strength (STR on the sample)" },
      cha = { type = "int", min = 0, default = 2, doc = "Charisma (TEC on the sample)" },
      move = { type = "int", min = 0, default = 10, doc = "Move (Ch2 Movement Rates)" },
      tr_marksmanship = { type = "int", min = 0, default = 0, doc = "training: marksmanship" },
      tr_throwing = { type = "int", min = 0, default = 0, doc = "training: throwing" },
      tr_melee = { type = "int", min = 0, default = 0, doc = "training: melee combat" },
      tr_brawling = { type = "int", min = 0, default = 0, doc = "training: fighting (brawling)" },
      tr_command = { type = "int", min = 0, default = 0, doc = "training: command" },
      tr_siege = { type = "int", min = 0, default = 0, doc = "training: siege weapons" },
      weapons = { type = "text", default = "", doc = "weapon keys, comma-separated (see `weapons`)" },
      armor_str = { type = "int", default = 0, doc = "armour: Strength modifier (resisting damage only)" },
      armor_agi = { type = "int", default = 0, doc = "armour: Agility modifier" },
      armor_cost = { type = "int", default = 0, doc = "armour: SGP cost (Advanced Weapons and Equipment, absent)" },
      facing = { type = "int", min = 0, max = 359, default = 0, doc = "facing, degrees (Ch2 Facing)" },
      mount = { type = "text", default = "", doc = "the creature he rides, by id (`mount`; Riding and mounts are Advanced Game, absent)" },
    },
    markers = {
      wounded = { doc = "one wound: -1 skills and Strength, cannot run (Ch3 Effects of Damage)" },
      incapacitated = { doc = "out of the battle; removed at the end of the phase (Ch3)" },
      prone = { doc = "lying down: +1 to be shot, -2 in close combat (Ch2 Prone Soldiers)" },
      separated = { doc = "out of command distance: +1 to shoot, -1 in close combat (Ch1)" },
      fire_plus1 = { doc = "walked this turn: +1 ranged difficulty (Ch2)" },
      no_fire = { doc = "ran or opportunity-fired: may not fire this turn (Ch2)" },
      charged = { doc = "charged this turn: may not fire; +1 in the first close combat (Ch4)" },
      defensive_fired = { doc = "used defensive fire: may not fire in the Ranged Combat Phase (Ch4)" },
      shot = { doc = "shot this turn (may not rally, Ch5)" },
      fought = { doc = "fought in close combat this turn (may not rally, Ch5)" },
      engaged = { doc = "in base contact with the enemy" },
      moved = { doc = "has taken (or declined) its move this Movement Phase (Ch2)", expires = "round" },
      opfire_passed = { doc = "passed its opportunity-fire test: may opportunity-fire, then neither moves nor fires again this turn (Ch2; Ch5)", expires = "round" },
      opfire_failed = { doc = "failed its opportunity-fire test: may not move this Movement Phase, fires normally later (Ch2; Ch5)", expires = "round" },
      pending_wound = { doc = "a wound result, taking effect at the end of the phase (Ch3 Effects of Damage)" },
      pending_incap = { doc = "an incapacitated result, taking effect at the end of the phase (Ch3)" },
      hit_turn = { doc = "counted as a casualty this turn (Ch5)" },
      hit_cc = { doc = "counted as a close combat casualty this turn (AMB-34)" },
      at_rally_point = { doc = "a routing squad reached its rally point or edge: last chance (Ch5)" },
    },
    status = { attrs = { "quality", "morale", "state" }, strength = "soldiers", max = "start_size",
               away = { attr = "off_table", present = "no" },
               -- what a large game's `status` lists first: squads shaken or worse, wounded
               -- soldiers, squads in base contact
               attention = { values = { state = { "shaken", "demoralized", "broken" } },
                             element_markers = { "wounded" }, markers = { "engaged" } } },
  },
  sequence = { "initiative", "movement", "ranged", "close_combat", "morale", "special" },
}

require "opend6fm.options"
require "opend6fm.squads"
require "opend6fm.dice"
require "opend6fm.ranged"
require "opend6fm.close"
require "opend6fm.morale"
require "opend6fm.turn"
require "opend6fm.advanced"
require "opend6fm.campaign"   -- what carries over between the battles of a campaign
