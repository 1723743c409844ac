-- Close combat (6.0-6.7): `cc` and pre-contact fire (`precontact`, 6.3). Squares and testudo
-- are formed in formations.lua; here they strike and are struck (6.6).
--
-- One `cc` is one exchange at one struck stand: up to three activated attackers strike it,
-- each on the arc it touches, and it strikes back at the attacker on its front (a stand strikes
-- only into its front arc). Blows are simultaneous (AMB-12): every stand strikes with the SP it
-- had before the exchange, and losses are applied after all blows. Dice order: each attacker's
-- D6 then the defender's save against it (no save when the total is 0 or less), in the order
-- typed; then the defender's D6 and the attacker's save.
local arg = require "olab.args"
local util = require "olab.util"
local actions = require "olab.actions"
local shooting = require "olab.shooting"

local M = {}

local function row(t, key) return umpire.lookup(t, key) end

-- Readings of close combat the umpire may change mid-game (`option set NAME VALUE`); each
-- default is the reading README.md recommends, so games and tests are unchanged by default.
umpire.option {
  name = "recoil_at_half",
  default = "edition",
  choices = {
    { "edition", "as the edition in force: PN recoils at exactly half, 2e stays (AMB-03)" },
    { "recoil", "a loss of exactly half recoils in both editions (PN's wording)" },
    { "stay", "a loss of exactly half stays in both editions (2e's \"more than half\")" },
  },
  doc = "a close-combat loss of exactly half the stand's SP",
  rule = "6.7; AMB-03",
}
umpire.option {
  name = "recoil_sp",
  default = "before",
  choices = {
    { "before", "half of the SP the stand had before this exchange (AMB-03)" },
    { "after", "half of the SP it has left after this exchange's losses" },
  },
  doc = "the \"current SP\" a close-combat loss is compared with",
  rule = "6.7; AMB-03",
}
umpire.option {
  name = "bonus_row",
  default = "single",
  choices = {
    { "single", "+2 once, whichever of charging, General, CAV striking SKI apply (AMB-04)" },
    { "cumulative", "+2 for each of them: up to +6" },
  },
  doc = "the Table 9 bonus row",
  rule = "Table 9; AMB-04",
}
umpire.option {
  name = "return_blow",
  default = "free",
  choices = {
    { "free", "the defender's return blow uses none of its actions (AMB-12)" },
    { "uses_action", "the return blow is the defender's CLOSE COMBAT action: without it free, no blow" },
  },
  doc = "whether striking back uses the defender's CLOSE COMBAT action",
  rule = "6.1, 2.1.1; AMB-12",
}
umpire.option {
  name = "blows",
  default = "simultaneous",
  choices = {
    { "simultaneous", "every stand strikes with its SP from before the exchange (AMB-12)" },
    { "attackers_first", "the defender's losses are taken first; it strikes back with what is left" },
  },
  doc = "the order of the blows in one close-combat exchange",
  rule = "6.5, 6.7; AMB-12",
}
umpire.option {
  name = "cc_results",
  default = "every_stand",
  choices = {
    { "every_stand", "6.7's results apply to every stand that takes HP, attackers struck back too (AMB-12)" },
    { "defender_only", "only the stand attacked may recoil; an attacker struck back just loses the SP" },
  },
  doc = "which stands of an exchange the recoil results apply to",
  rule = "6.7; AMB-12",
}
umpire.option {
  name = "several_attackers",
  default = "summed",
  choices = {
    { "summed", "the HP of several attackers are added and tested together (AMB-12)" },
    { "each", "each attacker's HP are tested on their own: the largest blow decides the recoil" },
  },
  doc = "the recoil test of a stand struck by several attackers in one exchange",
  rule = "6.7; AMB-12",
}
umpire.option {
  name = "charging_wbd",
  default = "wbd_charges",
  choices = {
    { "wbd_charges", "+1 to a WBD striking on its own charge (its fierce charge; AMB-22)" },
    { "wbd_charged", "+1 to any stand striking a WBD it charged" },
  },
  doc = "who gets Table 9's \"+1 charging WBD\"",
  rule = "Table 9; AMB-22",
}
umpire.option {
  name = "pike_bonus",
  default = "any_arc",
  choices = {
    { "any_arc", "PKE +3 against a non-PKE wherever it strikes it (always in the PKE's front; AMB-23)" },
    { "enemy_front", "PKE +3 only when striking the enemy's front arc" },
  },
  doc = "when PKE get Table 9's +3",
  rule = "Table 9; AMB-23",
}
umpire.option {
  name = "testudo_strength",
  default = "quarter",
  choices = {
    { "quarter", "a testudo strikes with 1/4 of its SP on every face (AMB-29)" },
    { "full_front", "full SP into its front arc, 1/4 elsewhere" },
  },
  doc = "a testudo's striking strength",
  rule = "6.6; AMB-29",
}
umpire.option {
  name = "elephants",
  default = "mounted",
  choices = {
    { "mounted", "elephant PKE count as mounted: foot striking them get no flank bonus (AMB-37)" },
    { "foot", "elephant PKE count as the foot PKE they are typed as (flank +8, mounted +2 against them)" },
  },
  doc = "whether elephants are mounted or foot in close combat",
  rule = "6.5; AMB-37",
}
umpire.option {
  name = "routing_defender",
  default = "no_blow",
  choices = {
    { "no_blow", "a routing stand takes the blows and does not strike back (AMB-49)" },
    { "strikes_back", "a routing stand strikes back like any other" },
  },
  doc = "whether a routing stand strikes back in close combat",
  rule = "6.5, 7.2; AMB-49",
}

-- "(option NAME VALUE)" when an alternative reading is in force, else "".
local function alt(name)
  local v = umpire.option(name)
  local d = ({ recoil_at_half = "edition", recoil_sp = "before", bonus_row = "single",
    return_blow = "free", blows = "simultaneous", charging_wbd = "wbd_charges",
    cc_results = "every_stand", several_attackers = "summed",
    pike_bonus = "any_arc", testudo_strength = "quarter", elephants = "mounted",
    routing_defender = "no_blow" })[name]
  if v == d then return "" end
  return " (option " .. name .. " " .. tostring(v) .. ")"
end

-- Foot and mounted in close combat: elephants are mounted unless option `elephants foot`
-- (AMB-37).
local function elephant_foot(u)
  return u.type == "PKE" and u.elephant and umpire.option("elephants") == "foot"
end
local function is_foot(u) return util.is_foot(u) or elephant_foot(u) end
local function is_mounted(u) return util.is_mounted(u) and not elephant_foot(u) end

-- 4.4: stands that may never charge, and those nobody gets a charge bonus against frontally.
local NO_BONUS_FRONT = { ART = true, PKE = true, ["SKI/S"] = true }

local function formed(u) return u.formation == "square" or u.formation == "testudo" end
local function is_cav(u) return u.type == "CAV/A" or u.type == "CAV/U" end

-- The Table 9 charge bonus (6.2): the `charge` flag typed by the umpire, or the movement part's
-- `charge_bonus` marker, put on for the first turn of a charge that earns the bonus.
local function charging(u, flag)
  return flag or u:has("charge_bonus")
end

-- The striker's close-combat weapon class (6.5, Table 10): MSK always carry firearms; a stand
-- whose `cc_weapon` is set beyond the default keeps it; otherwise its shooting weapon decides
-- (flintlocks and rifles are firearms, matchlocks and pistols pre-1700 firearms).
local FIREARMS = { flintlock = "firearm", rifle = "firearm", rifle_musket = "firearm",
  matchlock = "early_firearm", pistol = "early_firearm" }
function M.cc_class(s)
  if s.type == "MSK" then return "firearm" end
  if s.cc_weapon ~= "non_firearm" then return s.cc_weapon end
  return FIREARMS[s.weapon] or "non_firearm"
end

-- Squares and testudo count as PKE in close combat (6.6).
local function counts_as_pke(u) return u.type == "PKE" or formed(u) end

-- The striking strength: current SP, a third for TNK and TPT (Table 9), a quarter of the
-- square's two stands or of a testudo stand (6.6, AMB-29). `front`: whether the blow goes
-- into its own front arc (option `testudo_strength full_front`); `after`: its losses in this
-- exchange are already taken (option `blows attackers_first`).
local function strength(c, s, front, after)
  local sp = s.sp
  if s.formation == "testudo" and front and umpire.option("testudo_strength") == "full_front" then
    c:add(sp, "testudo striking into its front: full SP" .. alt("testudo_strength"), "6.6, AMB-29")
  elseif s.formation == "square" then
    local p = util.partner(s)
    local total = s.sp + (p and p.sp or 0)
    c:add(util.quarter(total), string.format("square: 1/4 of %d SP", total), "6.6, AMB-29")
  elseif s.formation == "testudo" then
    c:add(util.quarter(sp), "testudo: 1/4 of its SP", "6.6, AMB-29")
  elseif s.type == "TNK" or s.type == "TPT" then
    c:add(util.third(sp), "1/3 of its SP " .. sp .. " (" .. s.type .. ")", "Table 9")
  elseif after then
    c:add(sp, "striker's SP after the attackers' blows" .. alt("blows"), "Table 9, AMB-12")
  else
    c:add(sp, "striker's current SP", "Table 9")
  end
end

-- One blow: `s` strikes `d` on `d`'s arc `arc`. opts: charging, woods, defended, column,
-- after_losses (its own losses of this exchange are taken already), own_arc (the arc of `s` the blow goes
-- into: front unless a square or testudo strikes elsewhere).
-- Returns the HP `d` takes (nothing is changed here), and {d6, pre_save, save} for programs.
function M.strike(ctx, s, d, arc, opts)
  local c = ctx:check(string.format("Close combat 6.5: %s strikes %s (%s)", s.name, d.name, arc))
  -- What the hook points hand to house rules (read-only for them).
  local situation = { striker = s, struck = d, arc = arc, opts = opts }
  local d6 = c:roll("1d6", "close combat D6", "6.5", s)
  strength(c, s, (opts.own_arc or "front") == "front", opts.after_losses)
  -- Table 9
  if s.type == "INF/A" or s.type == "INF/U" or s.type == "MSK" then
    c:add(row("cc_additions", "close_order"), s.type .. " striker", "Table 9")
  elseif (is_cav(s) or s.type == "SKI/M") and (is_foot(d) or d.type == "TPT" or d.type == "ART") then
    c:add(row("cc_additions", "mounted_vs_foot"), "mounted striking " .. d.type ..
      (elephant_foot(d) and " elephant" .. alt("elephants") or ""), "Table 9")
  end
  if is_foot(s) and (d.type == "TNK" or d.type == "SKI/S" or (d.type == "PKE" and d.elephant)) then
    if opts.woods then
      c:add(row("cc_additions", "foot_vs_heavy_cover"), "foot striking " .. d.type .. " in woods/BUA", "Table 9")
    else
      c:add(row("cc_additions", "foot_vs_heavy_open"), "foot striking " .. d.type .. " in the open", "Table 9")
    end
  end
  local charged = opts.charging
  if charged and ((arc == "front" and NO_BONUS_FRONT[d.type]) or formed(d)) then
    c:add(0, "no charge bonus against " .. (formed(d) and "a " .. d.formation or
      "the front of " .. d.type), formed(d) and "6.6, AMB-22" or "4.4, AMB-22")
    charged = false
  end
  local bonus = {}
  if charged then bonus[#bonus + 1] = "charging" end
  if s.general ~= "none" then bonus[#bonus + 1] = "General" end
  if is_cav(s) and util.is_ski(d) then bonus[#bonus + 1] = "CAV striking SKI" end
  if #bonus > 0 then
    if umpire.option("bonus_row") == "cumulative" then
      for _, b in ipairs(bonus) do
        c:add(row("cc_additions", "bonus"), "bonus: " .. b .. alt("bonus_row"), "Table 9, AMB-04")
      end
    else
      c:add(row("cc_additions", "bonus"), "bonus: " .. table.concat(bonus, ", "), "Table 9, AMB-04")
    end
  end
  if s.type == "SKI/F" and util.after(1915) then
    c:add(row("cc_additions", "ski_f_modern"), "SKI/F after 1915 or sci-fi", "Table 9")
  end
  if umpire.option("charging_wbd") == "wbd_charged" then
    if d.type == "WBD" and charged then
      c:add(row("cc_additions", "wbd_charging"), "charging a WBD" .. alt("charging_wbd"), "Table 9, AMB-22")
    end
  elseif s.type == "WBD" and charged then
    c:add(row("cc_additions", "wbd_charging"), "charging WBD", "Table 9, AMB-22")
  end
  if s.type == "PKE" and not counts_as_pke(d) and not util.is_motor(d) then
    if arc ~= "front" and umpire.option("pike_bonus") == "enemy_front" then
      c:add(0, "PKE striking the " .. arc .. ": no +3" .. alt("pike_bonus"), "Table 9, AMB-23")
    else
      c:add(row("cc_additions", "pike"), "PKE striking a non-PKE", "Table 9, AMB-23")
    end
  end
  if opts.column and s.type == "MSK" then
    c:add(row("cc_additions", "attack_column"), "attack column", "6.6")
  end
  -- Table 10
  local soft = M.cc_class(s) ~= "firearm"
  if soft and d.type == "CAV/A" then
    if d.armoured_mount then
      c:add(row("cc_deductions", "inf_a"), "armoured mounts, struck as INF/A", "Table 10")
    else
      c:add(row("cc_deductions", "cav_a"), "CAV/A struck by non-firearms", "Table 10")
    end
  elseif soft and (d.type == "INF/A" or d.armoured_mount) then
    c:add(row("cc_deductions", "inf_a"), d.type .. " struck by non-firearms", "Table 10")
  end
  if d.scifi_armour then c:add(row("cc_deductions", "scifi_armour"), "sci-fi armour", "Table 10") end
  if util.is_ski(s) then c:add(row("cc_deductions", "striker_ski"), "striker is SKI", "Table 10") end
  c:point("olab.combat.modifiers", situation)
  -- NEXT: defending terrain (squares and testudo count as such), then flank and rear.
  -- Squares and testudo have no flanks: every blow lands on a front (6.6).
  if (arc == "front" or formed(d)) and (is_foot(d) or d.type == "ART") and (opts.defended or formed(d)) then
    c:add(row("cc_deductions", "defended"), formed(d) and d.formation .. ": defending terrain" or
      "defending terrain", "6.5")
  end
  if arc ~= "front" then
    if formed(d) then
      c:add(0, "a " .. d.formation .. " has no flanks", "6.6")
    elseif is_foot(s) and is_mounted(d) then
      c:add(0, "foot striking mounted: no flank/rear bonus", "6.5")
    elseif d.type == "PKE" then
      c:add(row("cc_deductions", "pike_flank"), "PKE struck in the " .. arc ..
        (elephant_foot(d) and alt("elephants") or ""), "6.5")
    else
      c:add(row("cc_deductions", "flank"), "struck in the " .. arc, "6.5")
    end
  end
  c:point("olab.combat.before_save", situation)
  local pre = c:total()
  if pre <= 0 then
    c:result("no HP (nothing to save)")
    return 0, { striker = s.id, struck = d.id, d6 = d6, pre_save = pre, save = 0, hp = 0 }
  end
  local save, dice = umpire.roll("2d6", { label = "save", by = d })
  c:add(-save, string.format("%s save: 2d6 [%s]", util.poss(d.name), table.concat(dice, " ")), "6.5")
  local hp = math.max(0, c:total())
  c:result(hp == 1 and "1 HP" or hp .. " HP")
  return hp, { striker = s.id, struck = d.id, d6 = d6, pre_save = pre, save = save, hp = hp }
end

-- Takes `hp` from a stand (split between the two stands of a square, odd point to the stand
-- struck; AMB-29) with a reason.
local function take(u, hp, reason)
  local p = u.formation == "square" and util.partner(u) or nil
  if p and hp > 1 then
    local other = math.floor(hp / 2)
    util.damage(u, hp - other, reason)
    util.damage(p, other, reason .. ", shared by the square (AMB-29)")
  else
    util.damage(u, hp, reason)
  end
end

-- Whether `u` can recoil 3" straight away from `from` (6.7, 4.3): only the umpire sees the
-- table, so the rules ask when a recoil is due. `blocked` (or `attacker_blocked`) typed with
-- the command answers in advance.
local function recoil_blocked(u, from)
  local answer = umpire.ask {
    question = string.format("%s must recoil 3\" straight away from %s: is its path clear? " ..
      "(blocked: friends that are not SKI, impassable ground or the table edge; 6.7, 4.3)",
      u.name, from.name),
    choices = { "recoils", "blocked" },
    default = "recoils",
    context = "close combat · recoil 6.7",
  }
  return answer == "blocked"
end

-- Whether a loss of `hp` against `base` SP recoils (6.7): PN at half or more, 2e only above
-- half, unless option `recoil_at_half` says otherwise (AMB-03). Returns the answer and the
-- words for the breakdown.
local function recoils_at(hp, base)
  local mode = umpire.option("recoil_at_half")
  local at_half = (mode == "recoil") or (mode == "edition" and not util.is_2e())
  if at_half then return 2 * hp >= base, "half or more" end
  return 2 * hp > base, "more than half"
end

-- 6.7 for one stand: `before` is its SP before the exchange (a square's two stands together),
-- `from` the enemy it recoils from, `blocked` whether a 3" recoil is known to be impossible
-- (else the umpire is asked). Returns the line, whether the stand left the contact, and the
-- outcome for programs: `none`, `stays`, `recoils`, `eliminated` (no SP left) or `blocked`
-- (could not recoil: eliminated).
--
-- `how` (optional): `test_hp`, the HP compared with half (option several_attackers each: the
-- largest single blow), and `no_recoil` (option cc_results defender_only: a struck-back
-- attacker only loses SP).
local function result(u, hp, before, from, blocked, how)
  how = how or {}
  if hp <= 0 then return u.name .. " takes no HP", nil, "none" end
  take(u, hp, string.format("%d HP in close combat (6.5)", hp))
  if u.sp <= 0 or u.off_table == "eliminated" then
    return string.format("%s takes %d HP and is eliminated (7.4)", u.name, hp), true, "eliminated"
  end
  -- "Current SP" (AMB-03): before this exchange, or (option recoil_sp after) what is left.
  local base, of = before, tostring(before)
  if umpire.option("recoil_sp") == "after" then
    base = before - hp
    of = string.format("%d left%s", base, alt("recoil_sp"))
  end
  local t = how.test_hp or hp
  local largest = ""
  if t ~= hp then largest = string.format("largest blow %d%s: ", t, alt("several_attackers")) end
  local recoils, half = recoils_at(t, base)
  if 2 * t == base then half = half .. alt("recoil_at_half") end
  half = largest .. half
  if not recoils then
    local less = "less than half"
    if 2 * t == base and alt("recoil_at_half") ~= "" then less = "exactly half" .. alt("recoil_at_half") end
    return string.format("%s takes %d HP (%s%s of %s): stays (6.7)", u.name, hp, largest, less, of),
      nil, "stays"
  end
  if how.no_recoil then
    return string.format("%s takes %d HP (%s of %s): stays, only the stand attacked recoils%s (6.7)",
      u.name, hp, half, of, alt("cc_results")), nil, "stays"
  end
  -- A square or testudo cannot move 3" (6.6: PN not at all, 2e at most 2"), so it cannot recoil.
  if formed(u) and not blocked then
    blocked = true
    print(string.format("%s is in %s and cannot recoil 3\" (6.6, 6.7)", u.name, u.formation))
  end
  if not blocked then blocked = recoil_blocked(u, from) end
  if blocked then
    local p = u.formation == "square" and util.partner(u) or nil
    for _, x in ipairs({ u, p }) do
      x:set("sp", 0, "cannot recoil 3\": eliminated (6.7)")
    end
    return string.format("%s takes %d HP (%s of %s) and cannot recoil: eliminated (6.7)",
      u.name, hp, half, of), true, "blocked"
  end
  if u:has("engaged") then u:unmark("engaged", "recoiled out of contact (6.7)") end
  return (string.format("%s takes %d HP (%s of %s): recoils 3\" straight away from %s (6.7)",
    u.name, hp, half, of, from.name)), true, "recoils"
end

-- The winner's option (6.7), once every result is applied: only a stand still on the table,
-- not routing and not recoiling itself may follow up.
local function follow_up(line, moved, from, recoiled)
  if not moved or util.off_table(from) or from:has("routed") or recoiled[from.id] then return line end
  return line .. "; " .. from.name .. " may follow up into the space or swap with a fresh " ..
    "stand behind it (6.7)"
end

local function strength_before(u)
  local p = u.formation == "square" and util.partner(u) or nil
  return u.sp + (p and p.sp or 0)
end

umpire.command {
  name = "cc",
  help = "close combat: up to three attackers strike one stand, which strikes back at the one " ..
    "on its front; then stay, recoil 3\" or eliminated (6.5-6.7, Tables 9-10)\n" ..
    "e.g. `cc legio wbd1 charge`, `cc cav1 pike2 flank cav2 front`, `cc legio wbd1 blocked`",
  args = {
    { name = "attacker", type = "unit", help = "the activated stand striking" },
    { name = "defender", type = "unit", help = "the stand struck" },
    arg.arc("arc", "the defender's arc the attacker touches (default front)"),
    { name = "attacker2", type = "unit", optional = true, help = "a second attacker" },
    arg.arc("arc2"),
    { name = "attacker3", type = "unit", optional = true, help = "a third attacker" },
    arg.arc("arc3"),
    { name = "charge", type = "flag", help = "the attackers charged this turn (first turn, 6.2)" },
    { name = "defended", type = "flag", help = "the defender holds defending terrain: walls, crests, works (6.5)" },
    { name = "woods", type = "flag", help = "the defender is in woods or BUA (Table 9 +3)" },
    { name = "column", type = "flag", help = "MSK attackers in attack column, MSK behind (6.6)" },
    { name = "blocked", type = "flag", help = "the defender cannot recoil 3\" (6.7)" },
    { name = "attacker_blocked", type = "flag", help = "the attacker(s) cannot recoil 3\"" },
    arg.force("umpire's override of a refusal or the action limit"),
  },
  run = function(ctx, args)
    local d = args.defender
    local list = {}
    for _, key in ipairs({ "", "2", "3" }) do
      local a = args["attacker" .. key]
      if a then list[#list + 1] = { unit = a, arc = args["arc" .. key] or "front" } end
    end
    local function refuse(msg)
      if not args.force then umpire.fail(msg .. "; add `force` to override") end
      print("(umpire override) " .. msg)
    end
    if d.type == "AIR" then umpire.fail("AIR never fight in close combat (6.1)") end
    if util.off_table(d) then umpire.fail(d.name .. " is not on the table (" .. d.off_table .. ")") end
    if args.column and util.year() and not util.between(1790, 1875) then
      umpire.fail("attack columns are for MSK c.1790-c.1875 (6.6); the period is " .. util.year())
    end
    local named = {}
    for _, e in ipairs(list) do
      local a = e.unit
      if named[a.id] then
        umpire.fail(a.name .. " is named twice: a stand strikes once a turn, into one arc (6.1)")
      end
      named[a.id] = true
      if a.id == d.id then umpire.fail(a.name .. " cannot fight itself") end
      if a.side == d.side then umpire.fail(a.name .. " and " .. d.name .. " are on the same side") end
      if a.type == "AIR" then umpire.fail("AIR never fight in close combat (6.1)") end
      if util.off_table(a) then umpire.fail(a.name .. " is not on the table (" .. a.off_table .. ")") end
      if a.type == "ART" then refuse("ART can never start a close combat (6.1)") end
      if a:has("routed") then refuse(a.name .. " is routing and cannot attack (AMB-49)") end
      if a:has("observing") then refuse(a.name .. " is observing: MOVE only this round (8.2)") end
      if a:has("clearing") then refuse(a.name .. " is clearing mines and may not fight (8.1)") end
      if a:has("disengaged") then
        refuse(a.name .. " disengaged this round and may not start a close combat (4.3)")
      end
      if charging(a, args.charge) and util.NO_CHARGE[a.type] then
        umpire.fail(a.type .. " may never charge (4.4): drop `charge` (it may still advance into contact)")
      end
    end
    -- Pre-exchange strengths (AMB-12).
    local before = { [d.id] = strength_before(d) }
    for _, e in ipairs(list) do before[e.unit.id] = strength_before(e.unit) end
    for _, e in ipairs(list) do actions.use(e.unit, "cc", args.force) end
    -- Who was routing before the blows (for the record of new routs).
    local involved = { d }
    for _, e in ipairs(list) do involved[#involved + 1] = e.unit end
    local was_routing = {}
    for _, u in ipairs(involved) do was_routing[u.id] = u:has("routed") end
    -- The blows.
    local hp_d, from, from_arc = 0, nil, nil
    local blows, largest = {}, 0
    for _, e in ipairs(list) do
      local a = e.unit
      local opts = { charging = charging(a, args.charge), woods = args.woods,
        defended = args.defended, column = args.column }
      local hp, info = M.strike(ctx, a, d, e.arc, opts)
      hp_d = hp_d + hp
      largest = math.max(largest, hp)
      blows[#blows + 1] = info
      if (e.arc == "front" or formed(d)) and not from then from, from_arc = a, e.arc end
    end
    local lines = {}
    local primary = from or list[1].unit
    local recoiled, outcome = {}, {}
    local line_d
    -- Option `blows attackers_first` (AMB-12): the defender's losses come before its blow.
    local first = umpire.option("blows") == "attackers_first"
    local how_d = {}
    if #list > 1 and umpire.option("several_attackers") == "each" then how_d.test_hp = largest end
    if first then
      line_d, recoiled[d.id], outcome[d.id] = result(d, hp_d, before[d.id], primary, args.blocked, how_d)
    end
    local back, hp_back = nil, 0
    if d:has("routed") and umpire.option("routing_defender") == "no_blow" then
      lines[#lines + 1] = d.name .. " is routing: it does not strike back (AMB-49)"
    elseif not from then
      lines[#lines + 1] = d.name .. " has no enemy on its front: no return blow (6.1)"
    elseif first and util.off_table(d) then
      lines[#lines + 1] = d.name .. " is eliminated before it can strike back" .. alt("blows")
    elseif umpire.option("return_blow") == "uses_action" and actions.refusal(d, "cc") and not args.force then
      lines[#lines + 1] = actions.refusal(d, "cc") .. ": no return blow" .. alt("return_blow")
    else
      back = from
      if d:has("routed") then
        print(d.name .. " is routing but strikes back" .. alt("routing_defender"))
      end
      if umpire.option("return_blow") == "uses_action" then
        actions.use(d, "cc", args.force)
        print(d.name .. "'s return blow is its CLOSE COMBAT action" .. alt("return_blow"))
      end
      local hp, info = M.strike(ctx, d, back, "front", { woods = false, after_losses = first,
        own_arc = formed(d) and from_arc or "front" })
      hp_back = hp
      blows[#blows + 1] = info
    end
    -- The results, for every stand that took HP (AMB-12).
    local line_back
    if not first then
      line_d, recoiled[d.id], outcome[d.id] = result(d, hp_d, before[d.id], primary, args.blocked, how_d)
    end
    if back then
      line_back, recoiled[back.id], outcome[back.id] =
        result(back, hp_back, before[back.id], d, args.attacker_blocked,
          { no_recoil = umpire.option("cc_results") == "defender_only" })
    end
    lines[#lines + 1] = follow_up(line_d, recoiled[d.id], primary, recoiled)
    if back then lines[#lines + 1] = follow_up(line_back, recoiled[back.id], d, recoiled) end
    -- For programs (docs/json.md): the HP each side took, who left the contact, and how.
    local attackers = {}
    for i, e in ipairs(list) do attackers[i] = e.unit.id end
    local routed, eliminated = {}, {}
    for _, u in ipairs(involved) do
      if u.off_table == "eliminated" then eliminated[#eliminated + 1] = u.id
      elseif u:has("routed") and not was_routing[u.id] then routed[#routed + 1] = u.id end
    end
    local p = d.formation == "square" and util.partner(d)
    if p and p.off_table == "eliminated" then eliminated[#eliminated + 1] = p.id end
    umpire.record("cc", {
      defender = d.id, attackers = attackers, hp_defender = hp_d,
      struck_back = back and back.id or false, hp_back = hp_back,
      defender_leaves = recoiled[d.id] == true, back_leaves = back ~= nil and recoiled[back.id] == true,
      defender_result = outcome[d.id], back_result = back and outcome[back.id] or false,
      sp_before = before, blows = blows,
      -- present only when not empty (an empty Lua table would show as an object)
      routed = #routed > 0 and routed or nil, eliminated = #eliminated > 0 and eliminated or nil,
    })
    -- Stands still in contact are engaged (a recoil or elimination breaks contact).
    local function present(u) return not util.off_table(u) and not recoiled[u.id] end
    for _, e in ipairs(list) do
      local a = e.unit
      if present(a) and present(d) then
        if not a:has("engaged") then a:mark("engaged", "in close combat with " .. d.name .. " (6)") end
        if not d:has("engaged") then d:mark("engaged", "in close combat with " .. a.name .. " (6)") end
      end
    end
    return table.concat(lines, "\n")
  end,
}

-- 6.3: a charged stand with a range over 7" shoots at a charger that starts more than 7" away,
-- before contact. It uses the SHOOT action (AMB-21); the range is the charge's start distance.
umpire.command {
  name = "precontact",
  help = "pre-contact fire: a charged stand whose weapon reaches over 7\" shoots once at a " ..
    "charger starting more than 7\" away (6.3)\ne.g. `precontact gun1 lb1 11`",
  args = {
    { name = "defender", type = "unit", help = "the charged stand, which fires" },
    { name = "charger", type = "unit", help = "the charging stand" },
    { name = "distance", type = "distance", help = "inches between them when the charge starts" },
    arg.cover("the charger's cover (default open: it is moving in)"),
    { name = "canister", type = "flag", help = "smoothbore ART firing canister (8\" or less)" },
    arg.force("umpire's override"),
  },
  run = function(ctx, args)
    local f, ch = args.defender, args.charger
    local dist = util.rhu(args.distance)
    local w = shooting.weapon_of(f, ch, nil)
    local reach = shooting.max_range(f, w)
    if reach <= 7 then
      umpire.fail(string.format("%s %s reaches only %d\": pre-contact fire needs more than 7\" (6.3)",
        util.poss(f.name), w, reach))
    end
    if dist <= 7 then
      umpire.fail(string.format("the charge started %d\" away: pre-contact fire needs more than 7\" (6.3)",
        dist))
    end
    -- AMB-21: the SHOOT action, unless the umpire reads it as costing none (the option is
    -- declared in movement.lua, whose `charge` says the same).
    local free = umpire.option("precontact_action") == "none"
    if not free then
      actions.use(f, "shoot", args.force)
    elseif #actions.used(f) >= actions.limit(f) and not args.force then
      -- Costing no action does not lift 6.3's own condition: not after acting twice.
      local list = {}
      for i, k in ipairs(actions.used(f)) do list[i] = ({ move = "MOVE", shoot = "SHOOT", cc = "CLOSE COMBAT" })[k] end
      umpire.fail(string.format("%s has already used %d action%s this round (%s), its limit: no " ..
        "pre-contact fire (6.3, 2.1.1); add `force` to override", f.name, #list, #list == 1 and "" or "s",
        table.concat(list, ", ")))
    end
    local cover = ({ open = 0, cover = 1, double = 2 })[args.cover or "open"]
    local out = shooting.resolve(ctx, { firer = f, targets = { ch }, range = dist, weapon = w,
      arc = "front", cover = cover, canister = args.canister, force = args.force,
      title = "Pre-contact fire 6.3," })
    if free then
      out = out .. "\nno SHOOT action used (6.3; option precontact_action none)"
    end
    if util.off_table(ch) or ch:has("routed") then
      out = out .. "\n" .. ch.name .. " does not make contact (6.3, AMB-21)"
    else
      out = out .. "\n" .. ch.name .. " charges home"
    end
    return out
  end,
}

return M
