-- Knock-out fire (OLAB 8.8.2): `ko` shoots to knock out a vehicle outright, a quarter of the HP otherwise.
--
-- KO fire is its own command, so declaring it is typing `ko` instead of `shoot` before any die
-- is rolled. The shot is scored as a normal shot (olab.shooting.score, Tables 7-8, cover) but a
-- tank gun counts as the full comparable ART (no "ART less 1"). A quarter of the score (1.2
-- rounding) is then converted on the KO table: one D6 plus the modifiers against the number
-- the firer's row and the target's column need. A knock-out eliminates the target and cannot
-- be saved; otherwise the quarter is saved as usual. With a quarter of 0 there is nothing to
-- convert and no KO roll (AMB-11a).
--
-- Not covered: KO fire by AIR (aircraft attack with OLAB's `strike`, which has no KO mode), so
-- the PN's "+1 for a dive-bombing or loitering AIR firer" never arises here; the 2nd Edition's
-- wording gives that +1 for such an AIR target instead (`diving`, AMB-11g).
local arg = require "olab.args"
local shooting = require "olab.shooting"
local util = require "olab.util"
local actions = require "olab.actions"

local M = {}

-- The KO table row of each Table 6 weapon class that has one. Tank guns use the row of their
-- gun; foot anti-tank teams (`weapon=at_rifle` or `rpg`, or as their `weapon2`) the row of
-- their generation.
M.ROW_OF_WEAPON = {
  at_rifle = "at_rifle", rpg = "rpg",
  torsion_art = "torsion_ml", ml_smoothbore = "torsion_ml", ml_rifled = "torsion_ml",
  atgw = "atgw", light_beam_cannon = "atgw", aagw = "aagw",
  bl_to79 = "bl_to79", bl_80_130 = "bl_80_130", heavy_beam_cannon = "bl_80_130",
  bl_over130 = "bl_over130", ship = "ship",
}
M.ROWS = { "at_rifle", "rpg", "torsion_ml", "atgw", "aagw", "bl_to79", "bl_80_130",
  "bl_over130", "ship" }
umpire.option {
  name = "ko_plus", default = "once",
  choices = {
    { "once", "flank or rear, firing from above, a high wall, a dive-bombing or loitering AIR: +1 once for the group" },
    { "each", "+1 for each of those conditions that applies" },
  },
  doc = "the KO roll's +1 for the first group of conditions", rule = "8.8.2; AMB-11b",
}

-- Who the dive-bombing or loitering AIR of the first +1 group is. PN: the firer (and AIR do not
-- fire KO here, see above). The 2nd Edition's sentence lists it among the targets ("the target is
-- high wall, dive-bombing or loitering AIR"), so there a slow or diving aircraft shot at is +1,
-- which with flying AIR's -1 nets 0 (AMB-11g).
umpire.option {
  name = "ko_air_bonus", default = "edition",
  choices = {
    { "edition", "PN: the +1 is for a dive-bombing or loitering AIR firer; 2E: for such an AIR target" },
    { "firer", "in both editions the +1 is for the firer (never a target of `ko`)" },
    { "target", "in both editions a dive-bombing or loitering AIR target gives +1" },
  },
  doc = "whether a dive-bombing or loitering AIR target gives the KO roll +1", rule = "8.8.2; AMB-11g",
}

-- Whether the dive-bombing/loitering +1 is for a target under the edition and option in force,
-- and the words saying why.
local function air_target_bonus()
  local o = umpire.option("ko_air_bonus")
  if o == "target" then return true, " (option ko_air_bonus target)" end
  if o == "firer" then return false, " (option ko_air_bonus firer)" end
  return util.is_2e(), util.is_2e() and " (2E)" or " (PN)"
end

-- The +1 lines for the first group of conditions (AMB-11b): one line, or one per condition.
local function add_plus(k, plus)
  if #plus == 0 then return end
  if umpire.option("ko_plus") == "each" then
    for _, p in ipairs(plus) do k:add(1, p .. " (option ko_plus each)", "8.8.2, AMB-11b") end
  else
    k:add(1, table.concat(plus, ", "), "8.8.2, AMB-11b")
  end
end

-- The range bands of the foot anti-tank rows (8.8.2; AMB-11c): outside them, no KO attempt.
M.BANDS = { at_rifle = 2, rpg = 4 }

-- Guided weapons have KO rows of their own, whoever fires them: a SKI/S team with an ATGW or
-- AAGW (weapon=atgw|aagw) uses that row, not the SKI/S line of the RPG row.
M.GUIDED = { atgw = true, aagw = true }

-- Foot anti-tank classes: their row follows the weapon, whoever carries it.
M.FOOT_AT = { at_rifle = true, rpg = true }

-- The weapon a KO shot fires: the stand's own, else its `weapon2` when only that has a KO row
-- (a rifle team with a bazooka: weapon=rifle weapon2=at_rifle).
function M.ko_weapon(firer, target)
  local w = shooting.weapon_of(firer, target, nil)
  if not M.ROW_OF_WEAPON[w] and firer.type ~= "SKI/S" and M.ROW_OF_WEAPON[firer.weapon2] then
    return firer.weapon2
  end
  return w
end

-- The KO row for a firer: `as` (the umpire's choice: rocket ART's best equivalent), a guided
-- weapon's own row, a foot AT weapon's row, SKI/S at any range, else the row of the weapon fired.
function M.row(firer, weapon, as)
  if as then return as, "named with `as`" end
  if M.GUIDED[weapon] or M.FOOT_AT[weapon] then return weapon, "weapon " .. weapon end
  if firer.type == "SKI/S" then return "rpg", "SKI/S at any range" end
  local r = M.ROW_OF_WEAPON[weapon]
  if not r then
    error(firer.name .. "'s weapon `" .. weapon .. "` has no KO table row (8.8.2); name one " ..
      "with `as` (" .. table.concat(M.ROWS, ", ") .. ")", 0)
  end
  return r, "weapon " .. weapon
end

-- The KO table column for a target, or nil with the reason it cannot be knocked out. A stand
-- protected as a TNK (the Wespe, 2.2.4) takes the column of its armour.
function M.column(t)
  if util.protected_type(t) == "TNK" then
    if t.armour == "none" then return "soft" end
    return t.armour
  end
  if t.type == "AIR" then return t.armour == "none" and "soft" or "light" end
  if t.type == "TPT" then
    if t.transport == "animal" then return nil, "animal transport is not a vehicle" end
    return "soft"
  end
  return nil, t.type .. " stands are not vehicles, aircraft or constructions"
end

umpire.command {
  name = "ko",
  help = "knock-out fire (8.8.2), declared instead of `shoot`: scored as a shot with tank guns\n" ..
    "at full ART factor, a quarter of the HP converted on the KO table (D6 + modifiers);\n" ..
    "a knock-out eliminates the target with no save, else the quarter is saved as usual.\n" ..
    "e.g. `ko tiger t34 30 flank`, `ko pzf sherman 2 at_rifle`",
  args = {
    { name = "firer", type = "unit", help = "the stand firing" },
    { name = "target", type = "unit", help = "a TNK, AIR or motor TPT" },
    { name = "range", type = "distance", help = "inches (direct fire only)" },
    arg.arc("arc", "the target's arc hit (flank or rear of a ground vehicle: +1 on the KO roll)"),
    arg.facing(),
    arg.cover("the target's cover (default: its `cover` attribute)"),
    { name = "as", type = "choice", values = M.ROWS, optional = true,
      help = "the KO row: foot AT weapons (at_rifle, rpg), rocket ART's best equivalent" },
    { name = "above", type = "flag", help = "the firer fires from above (+1, 8.8.2)" },
    { name = "diving", type = "flag",
      help = "the target AIR is dive-bombing or loitering (+1 in the 2nd Edition, 8.8.2; AMB-11g)" },
    arg.force("the umpire's override of a refused shot"),
  },
  run = function(ctx, args)
    local f, t = args.firer, args.target
    shooting.eligible(f)
    local col, why = M.column(t)
    if not col then error(t.name .. " cannot be knocked out (8.8.2): " .. why, 0) end
    if t:has("engaged") then error(t.name .. " is in close combat and cannot be knocked out (8.8.2)", 0) end
    local diving
    if args.diving then
      local yes, how = air_target_bonus()
      if t.type ~= "AIR" then error("`diving` is for an AIR target that is dive-bombing or loitering (8.8.2)", 0) end
      if not yes then
        error("the +1 for dive-bombing or loitering AIR is the firer's, not the target's" .. how ..
          " (8.8.2, AMB-11g): drop `diving`", 0)
      end
      diving = how
    end
    local y = util.year()
    if y and y <= 1900 and not util.scifi() and not args.force then
      error("KO fire is for games after c.1900 or sci-fi (8.8.2); the period is " .. y ..
        "; add `force` to override", 0)
    end
    local weapon = M.ko_weapon(f, t)
    local row, from = M.row(f, weapon, args.as)
    local range = util.rhu(args.range)
    if M.BANDS[row] and f.type ~= "SKI/S" and (args.range < 0.5 or range > M.BANDS[row]) then
      error(string.format("%s fires KO only from 1/2\" to %d\" (8.8.2, AMB-11c); %s is at %g\"",
        row, M.BANDS[row], t.name, args.range), 0)
    end
    local cover = args.cover and ({ open = 0, cover = 1, double = 2 })[args.cover] or nil
    local spec = { firer = f, targets = { t }, range = range, arc = args.arc or "front",
      facing = args.facing, cover = cover, weapon = weapon, full_factor = true, force = args.force }
    shooting.prepare(spec)
    shooting.validate(spec)
    local range_text = shooting.check_range(spec)
    actions.use(f, "shoot", args.force)
    if spec.turret_turns then actions.use(f, "move", args.force) end

    local c = ctx:check(string.format("KO fire 8.8.2: %s at %s — %s", f.name, t.name, range_text))
    local pre = shooting.score(ctx, spec, t, c)
    local q = util.quarter(pre)
    if pre > 0 then c:add(q - pre, "KO fire: a quarter of " .. pre .. " HP", "8.8.2") end
    if q <= 0 then
      c:result("nothing to convert: no KO roll (AMB-11a)")
      return t.name .. ": no effect"
    end
    c:result(q .. " HP to convert")

    local need = umpire.table("knock_out"):lookup(row, col)
    local k = ctx:check(string.format("KO roll 8.8.2: row %s (%s), column %s: %d+ needed",
      row, from, col, need))
    k:roll("1d6", "KO D6", "8.8.2", f)
    local plus = {}
    if (args.arc == "flank" or args.arc == "rear") and t.type ~= "AIR" then
      plus[#plus + 1] = "vehicle hit in the " .. args.arc
    end
    if args.above then plus[#plus + 1] = "firing from above" end
    if diving then plus[#plus + 1] = "target AIR dive-bombing or loitering" .. diving end
    add_plus(k, plus)
    if weapon == "atgw" or weapon == "aagw" then k:add(1, "guided weapon", "8.8.2") end
    if t.type == "AIR" then k:add(-1, "target is flying AIR", "8.8.2") end
    k:point("ko_fire.modifiers", { firer = f, target = t, weapon = weapon, row = row, column = col,
      need = need, arc = args.arc or "front" })
    local total = k:total()
    -- For programs (docs/json.md): the KO score needed and made.
    umpire.record("ko", { target = t.id, row = row, column = col, ko_need = need, ko_roll = total,
      knocked_out = total >= need })
    if total >= need then
      k:result(string.format("%d+ needed: knocked out, no save", need))
      util.damage(t, t.sp, "knocked out by " .. f.name .. "'s KO fire, no save (8.8.2)")
      return t.name .. " is knocked out (8.8.2)"
    end
    k:result(string.format("%d+ needed: not knocked out; the quarter is saved as usual", need))
    local s = ctx:check(string.format("KO fire 8.8.2: the quarter against %s", t.name))
    s:add(q, "a quarter of the HP", "8.8.2")
    local hp = shooting.save(ctx, spec, t, s)
    return shooting.apply(ctx, spec, t, hp)
  end,
}

-- Fortification sections are not stands, so they have their own command. The shot is scored
-- from the firer alone (D6, its SP, its Table 7 row, and Table 8's -2 when the firer is SKI; a
-- fortification has no target row of Table 8), a
-- quarter is converted on the KO table's medium column (field fortifications) or super column
-- (stone and concrete). A failed KO does nothing to a section (it has no SP; AMB-11f).
local FORT_COLUMN = { field = "medium", stone = "super" }
umpire.command {
  name = "kofort",
  help = "KO fire at a fortification section (8.8.2), in any period: D6 + SP + the Table 7 row,\n" ..
    "a quarter converted on the KO table (field: medium column, stone/concrete: super);\n" ..
    "success destroys the section. e.g. `kofort gun1 field 30`, `kofort gun1 stone 20 high_wall`",
  args = {
    { name = "firer", type = "unit", help = "the stand firing" },
    { name = "kind", type = "choice", values = { "field", "stone" },
      help = "field fortifications, or stone and concrete" },
    { name = "range", type = "distance", help = "inches (direct fire only)" },
    { name = "as", type = "choice", values = M.ROWS, optional = true,
      help = "the KO row: foot AT weapons (at_rifle, rpg), rocket ART's best equivalent" },
    { name = "high_wall", type = "flag", help = "the section is a high wall (+1, 8.8.2)" },
    { name = "above", type = "flag", help = "the firer fires from above (+1, 8.8.2)" },
    arg.force("the umpire's override of the action limit or range"),
  },
  run = function(ctx, args)
    local f = args.firer
    shooting.eligible(f)
    if util.off_table(f) then error(f.name .. " is off the table (" .. f.off_table .. ")", 0) end
    local weapon = M.ko_weapon(f, nil)
    local row, from = M.row(f, weapon, args.as)
    local range = util.rhu(args.range)
    if M.BANDS[row] and f.type ~= "SKI/S" and (args.range < 0.5 or range > M.BANDS[row]) then
      error(string.format("%s fires KO only from 1/2\" to %d\" (8.8.2, AMB-11c)", row, M.BANDS[row]), 0)
    end
    local limit = shooting.max_range(f, weapon)
    if range > limit and not args.force then
      error(string.format("the section is out of range: %d\" > %d\" (Table 6); add `force` to override",
        range, limit), 0)
    end
    actions.use(f, "shoot", args.force)
    local c = ctx:check(string.format("KO fire 8.8.2: %s at a %s fortification section, %d\"",
      f.name, args.kind, range))
    c:roll("1d6", "shooting D6", "5.2.1", f)
    c:add(f.sp, "firer's current SP", "Table 7")
    local key = shooting.weapon_row(f, weapon, { type = "fort" }, {})
    if key then
      local gun = key ~= "ski_s" and key ~= "small_arms" and key ~= "guided"
      local full = gun and " (full factor)" or ""
      c:add(umpire.table("fire_additions"):lookup(key), weapon .. (key == weapon and "" or " (" .. key .. ")") .. full,
        full ~= "" and "Table 7, 8.8.2" or "Table 7")
    end
    -- Table 8's firer row still applies: a section has no target rows, but a SKI firer is -2
    if util.is_ski(f) then
      c:add(umpire.table("fire_deductions"):lookup("firer_ski"), "firer is SKI", "Table 8")
    end
    local pre = c:total()
    local q = util.quarter(pre)
    if pre > 0 then c:add(q - pre, "KO fire: a quarter of " .. pre .. " HP", "8.8.2") end
    if q <= 0 then
      c:result("nothing to convert: no KO roll (AMB-11a)")
      return "no effect on the section"
    end
    c:result(q .. " HP to convert")
    local col = FORT_COLUMN[args.kind]
    local need = umpire.table("knock_out"):lookup(row, col)
    local k = ctx:check(string.format("KO roll 8.8.2: row %s (%s), column %s: %d+ needed",
      row, from, col, need))
    k:roll("1d6", "KO D6", "8.8.2", f)
    local plus = {}
    if args.high_wall then plus[#plus + 1] = "a high wall" end
    if args.above then plus[#plus + 1] = "firing from above" end
    add_plus(k, plus)
    if weapon == "atgw" or weapon == "aagw" then k:add(1, "guided weapon", "8.8.2") end
    k:point("ko_fire.modifiers", { firer = f, fortification = args.kind, weapon = weapon, row = row,
      column = col, need = need })
    if k:total() >= need then
      k:result(need .. "+ needed: the section is destroyed")
      return "the " .. args.kind .. " fortification section is destroyed (8.8.2)"
    end
    k:result(need .. "+ needed: the section stands (AMB-11f)")
    return "the section stands"
  end,
}

return M
