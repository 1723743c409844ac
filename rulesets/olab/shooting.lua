-- Shooting (5.0-5.2, 8.2, 8.4): `shoot` and `observe`, and the shot itself as functions that
-- pre-contact fire (combat.lua), aircraft (special.lua) and house rules reuse.
--
-- A shot follows 5.2.1 in order: one D6, the firer's current SP, one Table 7 weapon row, flank or
-- rear, the Table 8 rows; then Indirect, the off-table penalty, cover; then the defender's save.
-- Dice are drawn in that order: the shot's D6, then each target's save (no save is rolled when
-- the total before it is 0 or less), then, for gas, each target's extra D6.
local arg = require "olab.args"
local util = require "olab.util"
local actions = require "olab.actions"
local fire = require "olab.tables_fire"

local M = {}

-- Weapon classes (the keys of Table 6), in the table's order, for argument choices.
M.weapons = {}
for i, e in ipairs(fire.ranges.entries) do M.weapons[i] = e[1] end

-- Table 6 rows marked * (horse artillery shoots 6" less with these).
local HORSE_ROWS = { ml_smoothbore = true, atgw = true, light_beam_cannon = true, ml_rifled = true,
  beam_cannon = true, bl_to79 = true, heavy_beam_cannon = true }
-- Weapons whose own Table 7 row is the ART row of the same name.
local ART_ROWS = { ml_smoothbore = true, ml_rifled = true, bl_to79 = true, light_beam_cannon = true,
  bl_80_130 = true, beam_cannon = true, bl_over130 = true, heavy_beam_cannon = true, ship = true }
-- Non-gunpowder weapons: INF/A targets take Table 8's -2 from them (AMB-52).
local SOFT = { pre1700 = true, bow = true, crossbow = true, longbow = true, torsion_art = true,
  beam_rifle = true, support_beam = true, light_beam_cannon = true, beam_cannon = true,
  heavy_beam_cannon = true }
-- Weapons that cannot hurt armour (5.2.1 special cases): refused against TNK unless forced.
local NO_VS_ARMOUR = { pre1700 = true, pistol = true, matchlock = true, bow = true,
  flintlock = true, crossbow = true, longbow = true }
-- Foot anti-tank weapons (8.8.2's first two KO rows): Table 7 has no row of their own, so a
-- SKI/F or MSK team fires them with its small-arms +2 (they are "superior generation" small
-- arms) and a SKI/S team with its +3.
local FOOT_AT = { at_rifle = true, rpg = true }
-- Small arms of a later generation (Table 7's +2 for SKI/F and MSK).
local SMALL_ARMS = { rifle = true, beam_rifle = true, at_rifle = true, rpg = true }
-- Muscle-powered missile weapons: the `missiles_only` reading of AMB-52.
local MISSILES = { pre1700 = true, bow = true, crossbow = true, longbow = true, torsion_art = true }
-- Weapons that may shoot: the stand types of 5.1 (AIR use `strike`, special.lua).
local SHOOTERS = { ARC = true, MSK = true, ART = true, SKI = true, TNK = true }
-- A stand's weapon when its `weapon` attribute is empty.
local DEFAULT_WEAPON = { ARC = "bow", MSK = "flintlock", ["SKI/S"] = "ski_s" }

local function row(t, key) return umpire.lookup(t, key) end

local function is_tnk(u) return u.type == "TNK" end

-- The weapon class `u` fires at `target`: the `weapon` argument, else `weapon_vs_tnk` against
-- TNK (the Firefly, 2.2.4), else its `weapon`, else the default for its type.
function M.weapon_of(u, target, chosen)
  if chosen then return chosen end
  if target and util.protected_type(target) == "TNK" and u.weapon_vs_tnk ~= "" then return u.weapon_vs_tnk end
  local w = u.weapon
  if w == "" then w = DEFAULT_WEAPON[u.type] or DEFAULT_WEAPON[util.main_type(u.type)] end
  if not w then
    umpire.fail(u.name .. " has no weapon class: set one, e.g. `set " .. u.id ..
      " weapon bl_to79` (keys: `table show ranges`)")
  end
  if not M.known(w) then
    umpire.fail(util.poss(u.name) .. " weapon `" .. w .. "` is not a Table 6 class (see `table show ranges`)")
  end
  return w
end

function M.known(w)
  for _, k in ipairs(M.weapons) do if k == w then return true end end
  return false
end

-- The maximum range of `u` firing `w` (Table 6 and 5.1), with the reasons for any change.
function M.max_range(u, w, icv)
  local r = row("ranges", w)
  local notes = {}
  if w == "heavy_beam_cannon" and umpire.option("heavy_beam") == "as_80_130" then
    r = row("ranges", "bl_80_130"); notes[#notes + 1] = "as 80-130 mm (option heavy_beam as_80_130)"
  end
  if u.horse_artillery and HORSE_ROWS[w] and #notes == 0 then
    r = r - 6; notes[#notes + 1] = "horse artillery -6\" (2.2.4)"
  end
  if is_tnk(u) and not icv then
    r = r - 18; notes[#notes + 1] = "TNK -18\" (5.1)"
  end
  return r, notes
end

-- The altitude allowance (5.1): +16" when firing to or from AIR, +6" if that AIR loiters or is
-- a flying creature. With AIR on both ends the larger allowance is used once.
function M.altitude(firer, target)
  local best = 0
  for _, u in ipairs({ firer, target }) do
    if u and u.type == "AIR" then
      local a = (u.loiter or u.air == "creature") and 6 or 16
      if a > best then best = a end
    end
  end
  return best
end

-- Table 7 lists canister at +2 and the smoothbore gun at +1. Read as one row per shot, canister
-- takes the gun's place (AMB-14); the other reading adds both.
umpire.option {
  name = "canister",
  default = "replaces",
  choices = {
    { "replaces", "canister +2 in place of the smoothbore +1 (AMB-14)" },
    { "adds", "canister +2 and the smoothbore +1: +3 in all" },
  },
  doc = "smoothbore ART firing canister at 8\" or less",
  rule = "Table 7; AMB-14",
}

-- The readings of the shooting rules that the umpire may switch mid-game (README, AMB-nn).
umpire.option {
  name = "offtable_penalty", default = "indirect_and_extra",
  choices = {
    { "indirect_and_extra", "off-table ART is Indirect (-4) and a further -2 unless observed" },
    { "extra_only", "off-table ART takes only the -2 (not also Indirect -4)" },
  },
  doc = "what off-table ART fire deducts", rule = "8.2; AMB-09",
}
umpire.option {
  name = "indirect_fire", default = "listed",
  choices = {
    { "listed", "guided weapons (ATGW, AAGW) fire only directly, heavy mortars only indirectly" },
    { "any", "any weapon may fire directly or indirectly, as the umpire allows" },
  },
  doc = "which weapons may fire Indirect", rule = "5.1, 5.2.1; AMB-13",
}
umpire.option {
  name = "weapon_rows", default = "one",
  choices = {
    { "one", "one Table 7 weapon row per shot: the weapon fired" },
    { "every", "every Table 7 firer/weapon row that applies is added (SKI/S +3 and guided +4)" },
  },
  doc = "how many Table 7 weapon rows a shot adds", rule = "Table 7; AMB-15",
}
umpire.option {
  name = "mg_vehicle", default = "as_rifles",
  choices = {
    { "as_rifles", "a TNK with no gun fires its machine guns as MSK with rifles: 20\", +2" },
    { "as_ski_s", "as SKI/S support weapons: 24\", +3 and Table 8's firer-is-SKI -2" },
  },
  doc = "how an armoured vehicle armed only with machine guns (no `weapon`) shoots",
  rule = "5.2.1; AMB-16",
}
umpire.option {
  name = "indirect_dice", default = "one",
  choices = {
    { "one", "one D6 for an Indirect shot at two stands" },
    { "each", "each of the two stands gets a D6 of its own" },
  },
  doc = "the shot's D6 when Indirect fire hits two stands", rule = "5.2.1; AMB-17",
}
umpire.option {
  name = "air_armour", default = "as_set",
  choices = {
    { "as_set", "armoured AIR take the Table 8 row of their `armour`, as a TNK would" },
    { "light", "any armoured AIR takes -2, the light-armour row (the KO table's grouping)" },
  },
  doc = "Table 8 against armoured AIR", rule = "Table 8; AMB-38",
}
umpire.option {
  name = "heavy_beam", default = "literal",
  choices = {
    { "literal", "heavy beam cannon as each table prints it: 60\" (Table 6), +5 (Table 7)" },
    { "as_80_130", "one class throughout, as the 80-130 mm gun of the KO table: 70\", +4" },
  },
  doc = "range and factor of heavy beam cannon", rule = "Tables 6-7; AMB-39",
}
umpire.option {
  name = "firefly_range", default = "as_88",
  choices = {
    { "as_88", "against TNK the `weapon_vs_tnk` gives the range as well as the factor (52\")" },
    { "as_75", "it gives the factor only; the range stays that of `weapon` (42\")" },
  },
  doc = "the range of a gun that fires as a heavier one against TNK (the Firefly)",
  rule = "2.2.4; AMB-42",
}
umpire.option {
  name = "gas_hit", default = "one_hp",
  choices = {
    { "one_hp", "the extra 1D6-2 only for a stand the gas shot did 1 HP or more to" },
    { "every_target", "every stand the gas was aimed at takes the extra 1D6-2" },
  },
  doc = "which stands a gas shot has \"hit\"", rule = "8.4; AMB-47",
}
umpire.option {
  name = "flank_fire", default = "by_ground",
  choices = {
    { "by_ground", "Table 7's flank/rear +2/+3 for fire by ground stands; AIR never get it" },
    { "at_ground", "for fire at ground targets, whoever fires; fire at AIR never gets it" },
  },
  doc = "what Table 7's \"ground fire\" into a flank or rear means", rule = "Table 7; AMB-51",
}
umpire.option {
  name = "infa_soft", default = "listed",
  choices = {
    { "listed", "INF/A -2 against pre-1700 weapons, bows, crossbows, torsion ART and beam weapons" },
    { "missiles_only", "only against muscle-powered missiles; beam weapons need `superior_tech`" },
  },
  doc = "which weapons INF/A take Table 8's -2 from", rule = "Table 8; AMB-52",
}

-- The Table 7 weapon row for one shot (AMB-15: one row, the weapon actually fired), or nil.
function M.weapon_row(firer, w, target, spec)
  if w == "atgw" and util.protected_type(target) == "TNK" then return "guided" end
  if w == "aagw" and target.type == "AIR" then return "guided" end
  if w == "ml_smoothbore" and spec.canister then return "canister" end
  if ART_ROWS[w] then return w end
  if firer.type == "SKI/S" then return "ski_s" end
  if (firer.type == "SKI/F" or firer.type == "MSK") and SMALL_ARMS[w] then
    return "small_arms"
  end
  return nil
end

-- Every Table 7 firer/weapon row that applies to a shot (the `every` reading of AMB-15): the
-- weapon's own row, SKI/S +3 for a SKI/S firer, and +2 for SKI/F or MSK carrying later small
-- arms (its `weapon` or `weapon2`).
function M.weapon_rows(firer, w, target, spec)
  local keys, seen = {}, {}
  local function put(k) if k and not seen[k] then seen[k] = true; keys[#keys + 1] = k end end
  put(M.weapon_row(firer, w, target, spec))
  if firer.type == "SKI/S" then put("ski_s") end
  if (firer.type == "SKI/F" or firer.type == "MSK") and (SMALL_ARMS[firer.weapon] or SMALL_ARMS[firer.weapon2]) then
    put("small_arms")
  end
  return keys
end

-- Fails unless `f` is a kind of stand that shoots (5.1, 6.6).
function M.eligible(f)
  if f.sp <= 0 then umpire.fail(f.name .. " has no SP left") end
  if f.formation == "testudo" then umpire.fail(f.name .. " is in testudo and never shoots (6.6)") end
  if not SHOOTERS[util.main_type(f.type)] and f.formation ~= "square" then
    if f.type == "AIR" then umpire.fail("AIR attack with `strike` (5.1, 8.3)") end
    umpire.fail(f.type .. " stands may not shoot (5.1): only ARC, MSK, ART, SKI and TNK")
  end
end

-- Whether `u` may turn its weapon into its flank or rear arcs (5.1): the roster's `turret`
-- (`auto`: a TNK has a turret, nothing else does); a fixed-arc weapon never turns.
function M.has_turret(u)
  if u.fixed_arc then return false end
  if u.turret == "auto" then return u.type == "TNK" end
  return u.turret == "yes"
end

local FACING_TEXT = { oblique = "front arc, off its base front", beside = "flank arc",
  behind = "rear arc" }

-- 5.1 (and 8.4 for gas): may the firer fire at a target lying `spec.facing` of it? Returns a
-- note for the breakdown; sets `spec.turret_turns` when a turret turns (a MOVE). `refuse` is
-- validate's (a refusal `force` overrides).
function M.check_facing(spec, refuse)
  local f, facing = spec.firer, spec.facing or "ahead"
  if facing == "ahead" or spec.offtable or spec.air then return nil end
  local t = spec.targets[1]
  local where = (t and t.name or "the target") .. " lies in " .. util.poss(f.name) .. " " .. FACING_TEXT[facing]
  if f.formation == "square" then return "a square faces every way (6.6)" end
  if spec.chemical and f.type == "SKI/S" and facing ~= "oblique" then
    refuse(where .. ": SKI/S project gas only to their front (8.4)")
    return nil
  end
  if facing == "oblique" then
    if f.fixed_arc then
      refuse(where .. ": a fixed-arc weapon fires only straight ahead across its base front (5.1)")
    end
    return nil
  end
  if M.has_turret(f) then
    spec.turret_turns = true
    return "target " .. facing .. " it: the turret turns, which uses MOVE (5.1)"
  end
  refuse(where .. ": a stand fires only into its front arc, and only a turret turns to the " ..
    "flank or rear (5.1); turn it to face first (`move " .. f.id .. " turn`, 4.3), or if it " ..
    "has a turret `set " .. f.id .. " turret yes`")
  return nil
end

-- Checks whether the shot may be made at all; fails with what is wrong and how to fix it.
function M.validate(spec)
  local f, force = spec.firer, spec.force
  local function refuse(msg)
    if not force then umpire.fail(msg .. "; add `force` to override") end
    print("(umpire override) " .. msg)
  end
  if not spec.offtable and util.off_table(f) then
    umpire.fail(f.name .. " is off the table (" .. f.off_table .. ")")
  end
  M.eligible(f)
  if f:has("routed") then refuse(f.name .. " is routing and cannot shoot (AMB-49)") end
  if f:has("observing") then refuse(f.name .. " is observing: MOVE only this round (8.2)") end
  if util.is_2e() and (store.paradropped or {})[f.id] and f:has("out_of_command") then
    refuse(f.name .. " landed outside its General's command distance and may not shoot until " ..
      "back within it (2e 8.5)")
  end
  if f:has("clearing") then refuse(f.name .. " is clearing mines and may not shoot (8.1)") end
  if f:has("disengaged") then
    refuse(f.name .. " disengaged this round and may not shoot (4.3)")
  end
  for _, t in ipairs(spec.targets) do
    if t.side == f.side then refuse(t.name .. " is on " .. util.poss(f.name) .. " own side") end
    if util.off_table(t) then umpire.fail(t.name .. " is not on the table (" .. t.off_table .. ")") end
    if NO_VS_ARMOUR[spec.weapon] and util.protected_type(t) == "TNK" then
      refuse(spec.weapon .. " cannot hurt armour like " .. t.name .. " (5.2.1)")
    end
  end
  if #spec.targets > 1 and not spec.indirect then
    umpire.fail("only Indirect fire hits a second stand (5.2.1): add `indirect`")
  end
  local any = umpire.option("indirect_fire") == "any"
  if spec.indirect and (spec.weapon == "atgw" or spec.weapon == "aagw") then
    if not any then
      umpire.fail("guided weapons fire only directly (AMB-13; option indirect_fire any allows it)")
    end
    print("(option indirect_fire any) a guided weapon fires Indirect")
  end
  if f.mortar and not spec.indirect then
    if not any then
      umpire.fail(f.name .. " is a heavy mortar: it fires only indirectly (5.1); add `indirect`")
    end
    print("(option indirect_fire any) a heavy mortar fires directly")
  end
  spec.facing_note = M.check_facing(spec, refuse)
  if spec.canister and (spec.weapon ~= "ml_smoothbore" or spec.range > 8) then
    umpire.fail("canister is for smoothbore ART at 8\" or less (Table 7)")
  end
  if spec.superior_tech and util.is_2e() then
    umpire.fail("the 2nd Edition's Table 8 has no superior-tech row")
  end
end

-- Checks the range (Table 6, 5.1, 8.2, 8.4); prints how the limit was reached.
function M.check_range(spec)
  local f, t, w = spec.firer, spec.targets[1], spec.weapon
  local limit, notes
  if spec.offtable then
    limit, notes = 70, { "off-table ART, from its base line (8.2)" }
  elseif spec.chemical and f.type == "SKI/S" then
    limit, notes = 8, { "SKI/S projecting gas (8.4)" }
  else
    limit, notes = M.max_range(f, w, spec.icv or spec.mg)
    if spec.mg then notes[#notes + 1] = spec.mg end
    if umpire.option("firefly_range") == "as_75" and f.weapon_vs_tnk ~= "" and w == f.weapon_vs_tnk
        and f.weapon ~= "" and f.weapon ~= w then
      limit, notes = M.max_range(f, f.weapon, spec.icv)
      notes[#notes + 1] = "the range of its " .. f.weapon .. " (option firefly_range as_75)"
    end
  end
  local alt = spec.offtable and 0 or M.altitude(f, t)
  local eff = spec.range + alt
  local text = string.format("range %d\"", spec.range)
  if alt > 0 then text = text .. string.format(" + %d\" altitude (5.1) = %d\"", alt, eff) end
  text = text .. string.format("; %s reaches %d\"", spec.offtable and "off-table fire" or w, limit)
  if #notes > 0 then text = text .. " (" .. table.concat(notes, ", ") .. ")" end
  if spec.facing_note then text = text .. "; " .. spec.facing_note end
  if eff > limit then
    local msg = string.format("%s is out of range: %d\" > %d\"", t.name, eff, limit)
    if not spec.force then umpire.fail(msg .. " (Table 6); add `force` to override") end
    print("(umpire override) " .. msg)
  end
  if not util.is_2e() and (f.mortar or w == "atgw" or w == "aagw") and eff < 6 then
    local msg = string.format("%s is inside the 6\" minimum range of mortars, ATGW and AAGW (PN 5.1)",
      t.name)
    if not spec.force then umpire.fail(msg .. "; add `force` to override") end
    print("(umpire override) " .. msg)
  end
  return text
end

-- Table 8 rows for shooting at `t` (all that apply are summed).
local function table8(c, f, t, w, spec)
  if util.is_ski(t) then c:add(row("fire_deductions", "target_ski"), "target is SKI", "Table 8") end
  if util.is_ski(f) or spec.as_ski then
    c:add(row("fire_deductions", "firer_ski"), spec.as_ski and "firer shoots as " .. spec.as_ski or
      "firer is SKI", "Table 8")
  end
  local tt = util.protected_type(t)
  if (tt == "TNK" or tt == "AIR") and t.armour ~= "none" then
    if tt == "AIR" and umpire.option("air_armour") == "light" then
      c:add(row("fire_deductions", "light"), "target armoured AIR, as light armour (option air_armour light)",
        "Table 8, AMB-38")
    elseif tt ~= t.type then
      c:add(row("fire_deductions", t.armour), "target " .. t.type .. " protected as a " ..
        t.armour .. "-armour " .. tt, "Table 8, 2.2.4")
    else
      c:add(row("fire_deductions", t.armour), "target " .. t.armour .. "-armour " .. t.type,
        t.type == "AIR" and "Table 8, AMB-38" or "Table 8")
    end
  end
  local soft = SOFT[w]
  local missiles = umpire.option("infa_soft") == "missiles_only"
  if missiles then soft = MISSILES[w] end
  if t.type == "INF/A" and (soft or spec.superior_tech) then
    c:add(row("fire_deductions", "infa_soft_weapon"),
      "INF/A against " .. (soft and "non-gunpowder" or "superior-tech") .. " weapons" ..
      (missiles and " (option infa_soft missiles_only)" or ""), "Table 8, AMB-52")
  elseif t.type == "INF/A" and missiles and SOFT[w] then
    c:add(0, "INF/A: " .. w .. " is not a muscle-powered missile (option infa_soft missiles_only)",
      "Table 8, AMB-52")
  end
end

-- Fills in a spec's defaults: front arc, the firer's weapon, how cover is read, a square's
-- partner. `score` and `resolve` call it; callers may too.
function M.prepare(spec)
  if spec.prepared then return spec end
  spec.prepared = true
  spec.arc = spec.arc or "front"
  spec.targets = spec.targets or {}
  spec.weapon = spec.weapon or M.weapon_of(spec.firer, spec.targets[1], nil)
  -- The cover level of a target and why: the `cover` field for the first target, else the
  -- stand's own `cover` attribute; a suppressed stand counts as in cover (8.8.1).
  spec.cover_for = spec.cover_for or function(t)
    local lvl = (t == spec.targets[1] and spec.cover) or t.cover
    if lvl == 0 and t:has("suppressed") then return 1, "suppressed: counts as in cover" end
    return lvl, "target in cover"
  end
  if spec.firer.formation == "square" then
    spec.partner = util.partner(spec.firer)
  end
  return spec
end

-- The situation the shooting hook points hand to house rules (read-only for them): who shoots
-- whom, with what. One per shot and target, made once and kept with the spec.
function M.situation(spec, t)
  M.prepare(spec)
  local seen = spec.situations
  if not seen then
    seen = {}
    spec.situations = seen
  end
  local s = seen[t.id]
  if not s then
    s = { firer = spec.firer, target = t, weapon = spec.weapon, arc = spec.arc,
      range = spec.range, spec = spec }
    seen[t.id] = s
  end
  return s
end

-- The score before the save against one target (5.2.1 up to the save), in check `c`. `d6` is
-- the shot's die (rolled here when nil). Returns the total and the die.
function M.score(ctx, spec, t, c, d6)
  M.prepare(spec)
  local f, w = spec.firer, spec.weapon
  local situation = M.situation(spec, t)
  if d6 then
    c:add(d6, "the shot's D6 (one die for both targets, AMB-17)", "5.2.1")
  else
    d6 = c:roll("1d6", "shooting D6", "5.2.1", f)
  end
  if f.formation == "square" and spec.partner then
    c:add(util.quarter(f.sp + spec.partner.sp), "square: 1/4 of " .. f.name .. " + " ..
      spec.partner.name .. " SP", "6.6")
  else
    c:add(f.sp, "firer's current SP", "Table 7")
  end
  local key = not spec.weapon_row and M.weapon_row(f, w, t, spec)
  if spec.weapon_row then
    -- a row chosen by the caller (aircraft ordnance, special.lua)
    local r = spec.weapon_row(t)
    if r then c:add(row("fire_additions", r.key), r.label, r.rule or "Table 7") end
  elseif key then
    local v = row("fire_additions", key)
    local label = w .. (key == w and "" or " (" .. key .. ")")
    if key == "heavy_beam_cannon" and umpire.option("heavy_beam") == "as_80_130" then
      v = row("fire_additions", "bl_80_130")
      label = label .. " as 80-130 mm (option heavy_beam as_80_130)"
    end
    if is_tnk(f) and ART_ROWS[w] and not spec.full_factor then
      v = math.max(0, v - 1)
      label = label .. ", TNK fire as ART less 1"
    end
    c:add(v, label, "Table 7")
    if key == "canister" and umpire.option("canister") == "adds" then
      c:add(row("fire_additions", "ml_smoothbore"), "ml_smoothbore, with canister (option canister adds)", "Table 7")
    end
  end
  if not spec.weapon_row and umpire.option("weapon_rows") == "every" then
    for _, k in ipairs(M.weapon_rows(f, w, t, spec)) do
      if k ~= key then
        c:add(row("fire_additions", k), k .. " as well (option weapon_rows every)", "Table 7, AMB-15")
      end
    end
  end
  if spec.arc ~= "front" and t.formation ~= "square" and t.formation ~= "testudo" then
    local ground_fire
    if umpire.option("flank_fire") == "at_ground" then
      ground_fire = t.type ~= "AIR"
      if ground_fire and spec.air then spec.flank_note = " (option flank_fire at_ground)" end
    else
      ground_fire = not spec.air
    end
    if ground_fire then
      c:add(row("fire_additions", spec.arc), "fire into the target's " .. spec.arc .. (spec.flank_note or ""),
        "Table 7")
    end
  end
  table8(c, f, t, w, spec)
  c:point("olab.shooting.modifiers", situation)
  if spec.indirect then
    if spec.offtable and umpire.option("offtable_penalty") == "extra_only" then
      c:add(0, "off-table fire: no Indirect -4, the -2 only (option offtable_penalty extra_only)",
        "8.2, AMB-09")
    else
      c:add(row("fire_steps", "indirect"), spec.chemical and "Indirect (gas always is)" or "Indirect fire", "5.2.1")
    end
  end
  if spec.offtable then
    local seen = (store.observed or {})[t.id]
    if seen and seen.round == umpire.clock().round then
      c:add(0, "forward observer " .. seen.by .. " cancels the off-table -2", "8.2")
    else
      c:add(row("fire_steps", "off_table"), "off-table ART, no observer", "8.2, AMB-09")
    end
  end
  local cover, why = spec.cover_for(t)
  if cover >= 1 then c:add(row("fire_steps", "cover"), why, why == "target in cover" and "5.2.1" or "8.8.1") end
  if cover >= 2 then c:add(row("fire_steps", "double_cover"), "double-strength cover", "5.2.1, 8.1") end
  c:point("olab.shooting.cover", situation)
  return c:total(), d6
end

-- The save and its result for one target: returns the HP it takes (nothing is changed here).
function M.save(ctx, spec, t, c)
  local pre = c:total()
  if pre <= 0 then
    c:result("no HP (nothing to save)")
    return 0
  end
  local dice = t.shields and "3d6" or "2d6"
  local save, rolled = umpire.roll(dice, { label = "save", by = t })
  c:add(-save, string.format("%s save: %s [%s]%s", util.poss(t.name), dice, table.concat(rolled, " "),
    t.shields and " with a shield die" or ""), t.shields and "5.2.1, 8.7.2" or "5.2.1")
  -- the save point also says what was to save and the roll
  local situation = M.situation(spec, t)
  situation.score, situation.save = pre, save
  c:point("olab.shooting.save", situation)
  local hp = math.max(0, c:total())
  c:result(hp == 1 and "1 HP" or hp .. " HP")
  return hp
end

-- Applies a shot's HP to `t` and, for gas, the extra 1D6-2 (8.4). Returns a summary line.
function M.apply(ctx, spec, t, hp)
  local before = t.sp
  util.damage(t, hp, string.format("%d HP from %s fire (5.2.1)", hp, util.poss(spec.firer.name)))
  local every = umpire.option("gas_hit") == "every_target"
  if spec.chemical and (hp >= 1 or every) and t.sp > 0 then
    local c = ctx:check("Gas 8.4: " .. t.name .. (hp < 1 and " (option gas_hit every_target)" or ""))
    local d = c:roll("1d6", "extra gas loss", "8.4", t)
    c:add(-2, "gas", "8.4")
    if t.nbc then c:add(-2, "NBC kit", "8.4") end
    local extra = math.max(0, c:total())
    c:result(extra .. " more SP lost (no save)")
    util.damage(t, extra, string.format("%d SP to gas (8.4)", extra))
    spec.gas = spec.gas or {}
    spec.gas[#spec.gas + 1] = { target = t.id, hp = hp, gas_roll = d, nbc = t.nbc, extra = extra }
  elseif spec.chemical then
    spec.gas = spec.gas or {}
    spec.gas[#spec.gas + 1] = { target = t.id, hp = hp, extra = 0 }
  end
  return string.format("%s: %d HP, SP %d → %d", t.name, hp, before, t.sp)
end

-- Resolves a whole shot: validation, range, and each target (5.2.1). `spec` fields: firer,
-- targets, range, weapon, arc, cover (nil: each target's own), indirect, offtable, canister,
-- chemical, superior_tech, force, air (no flank bonus), full_factor (no TNK -1), weapon_row and
-- as_ski (a caller's own Table 7 row), skip_checks, range_text, title.
function M.resolve(ctx, spec)
  M.prepare(spec)
  local range_text = spec.range_text
  if not spec.skip_checks then
    M.validate(spec)
    range_text = M.check_range(spec)
  end
  local lines, d6, shots = {}, nil, {}
  for i, t in ipairs(spec.targets) do
    local c = ctx:check(string.format("%s %s: %s at %s%s", spec.title or "Shooting", "5.2.1",
      spec.firer.name, t.name, range_text and " — " .. range_text or ""))
    if i > 1 and umpire.option("indirect_dice") == "each" then
      d6 = nil
      c:add(0, "a D6 of its own for the second stand (option indirect_dice each)", "5.2.1, AMB-17")
    end
    d6 = select(2, M.score(ctx, spec, t, c, d6))
    local pre_save = c:total()
    local hp = M.save(ctx, spec, t, c)
    shots[i] = { target = t.id, d6 = d6, pre_save = pre_save, save = pre_save - c:total(), hp = hp }
    lines[i] = M.apply(ctx, spec, t, hp)
  end
  -- For programs (docs/json.md): each target's score before the save, the save and the HP.
  umpire.record("shots", shots)
  -- Gas (8.4): each target's HP and its extra loss (`gas_roll`, the D6 before the -2).
  if spec.gas then umpire.record("gas", spec.gas) end
  return table.concat(lines, "\n")
end

local function cover_level(word)
  if word == nil then return nil end
  return ({ open = 0, cover = 1, double = 2 })[word]
end

-- A TNK with no gun (no `weapon`, AMB-16) fires its machine guns: the `mg_vehicle` option says
-- as what. Fills in `spec` and returns true, or returns false for any other stand.
function M.vehicle_guns(spec, chosen)
  local f, t = spec.firer, spec.targets[1]
  if f.type ~= "TNK" or f.weapon ~= "" or chosen then return false end
  if t and util.protected_type(t) == "TNK" and f.weapon_vs_tnk ~= "" then return false end
  if umpire.option("mg_vehicle") == "as_ski_s" then
    spec.weapon, spec.as_ski = "ski_s", "SKI/S"
    spec.mg = "machine guns as SKI/S, no TNK -18\" (option mg_vehicle as_ski_s)"
    spec.weapon_row = function()
      return { key = "ski_s", label = "machine guns as SKI/S (option mg_vehicle as_ski_s)", rule = "Table 7, AMB-16" }
    end
  else
    spec.weapon = "rifle"
    spec.mg = "machine guns as MSK with rifles, no TNK -18\" (AMB-16)"
    spec.weapon_row = function()
      return { key = "small_arms", label = "machine guns as MSK with rifles", rule = "Table 7, AMB-16" }
    end
  end
  return true
end

-- The shot `shoot` (or `reach`) describes, from its arguments, checked for what the arguments
-- alone decide (ICV, gas, off-table); the rules' own checks are `validate` and `check_range`.
local function shot_spec(args)
  local f = args.firer
  M.eligible(f)
  local targets = { args.target }
  if args.target2 then targets[2] = args.target2 end
  local facing = args.facing or "ahead"
  if args.turret and facing == "ahead" then facing = "beside" end
  local spec = {
    firer = f, targets = targets, range = util.rhu(args.range), arc = args.arc or "front",
    facing = facing, cover = cover_level(args.cover),
    indirect = args.indirect or args.offtable or args.chemical,
    offtable = args.offtable, canister = args.canister, chemical = args.chemical,
    superior_tech = args.superior_tech, force = args.force,
  }
  if args.icv and f.type ~= "TNK" then umpire.fail("`icv` is for TNK carrying mounted SKI (5.1)") end
  if args.icv then
    spec.icv, spec.weapon, spec.as_ski = true, "ski_s", "SKI/S"
    spec.weapon_row = function()
      return { key = "ski_s", label = "mounted passengers fire as SKI/S", rule = "Table 7, 5.1" }
    end
  elseif not M.vehicle_guns(spec, args.weapon) then
    spec.weapon = M.weapon_of(f, args.target, args.weapon)
  end
  if args.chemical and not args.offtable and f.type ~= "SKI/S" then
    umpire.fail("gas is delivered by off-table ART (`offtable`), AIR (`strike`) or SKI/S (8.4)")
  end
  if args.offtable then
    if f.type ~= "ART" then umpire.fail("only ART fire from off the table (8.2)") end
    local heavy = { bl_80_130 = true, bl_over130 = true, ship = true }
    if not heavy[spec.weapon] then
      umpire.fail("off-table ART must be heavy: guns over 100 mm or heavy rockets (8.2)")
    end
  end
  return spec
end

umpire.command {
  name = "shoot",
  help = "a stand shoots at one target, or two with Indirect fire (5.2.1, Tables 6-8)\n" ..
    "e.g. `shoot tiger sherman 40 flank`, `shoot tiger sherman 40 flank beside` (the turret\n" ..
    "turns: MOVE), `shoot guns tgt 60 offtable`, `shoot mortars tgt 7 chemical`,\n" ..
    "`shoot art a 40 b indirect`",
  args = {
    { name = "firer", type = "unit", help = "the stand shooting" },
    { name = "target", type = "unit", help = "the stand shot at" },
    { name = "range", type = "distance",
      help = "ground distance in inches (off-table: from the base line); rounded by 1.2" },
    arg.arc("arc", "the target's arc the fire strikes (default front)"),
    arg.facing(),
    arg.cover("the first target's cover (default: its `cover` attribute)"),
    { name = "weapon", type = "choice", values = M.weapons, optional = true,
      help = "fire this weapon class instead (e.g. its weapon2)" },
    -- Last of the positional arguments: an optional unit takes any word (API note in README).
    { name = "target2", type = "unit", optional = true,
      help = "Indirect fire only: a second stand within 4\" of the first (5.2.1)" },
    { name = "indirect", type = "flag", help = "Indirect fire, -4 (5.2.1)" },
    { name = "offtable", type = "flag", help = "off-table heavy ART: 70\", Indirect, -2 unless observed (8.2)" },
    { name = "canister", type = "flag", help = "smoothbore ART firing canister at 8\" or less (Table 7)" },
    { name = "chemical", type = "flag", help = "gas: Indirect, extra 1D6-2 SP to each stand hit (8.4)" },
    { name = "superior_tech", type = "flag", help = "PN: the umpire rules the weapon superior tech (Table 8)" },
    { name = "turret", type = "flag",
      help = "the turret turns to a target outside the front arc (as `beside`): also uses MOVE (5.1)" },
    { name = "icv", type = "flag", help = "an infantry combat vehicle's mounted SKI fire as SKI/S (5.1)" },
    arg.force("umpire's override of a refused shot or the action limit"),
  },
  run = function(ctx, args)
    local spec = shot_spec(args)
    M.prepare(spec)
    M.validate(spec)
    spec.range_text = M.check_range(spec)
    spec.skip_checks = true
    actions.use(spec.firer, "shoot", args.force)
    if spec.turret_turns then actions.use(spec.firer, "move", args.force) end
    return M.resolve(ctx, spec)
  end,
}

-- 5.1, Table 6, 8.2-8.4: may this stand shoot at that one from here? Nothing is rolled or used.
umpire.command {
  name = "reach",
  help = "whether a stand may shoot at a target at a range, and why not (5.1, Table 6, 8.2-8.4);\n" ..
    "rolls nothing and uses no action. Takes `shoot`'s words; an AIR names its ordnance\n" ..
    "e.g. `reach tiger sherman 55`, `reach aa jet 10 behind`, `reach guns t34 65 offtable`,\n" ..
    "`reach mortar a 8 chemical`, `reach typhoon tiger 6 rocket`",
  args = {
    { name = "firer", type = "unit", help = "the stand that would shoot" },
    { name = "target", type = "unit", help = "the stand it would shoot at" },
    { name = "range", type = "distance", help = "ground distance in inches (0 for a stand flown over)" },
    arg.arc("arc", "the target's arc the fire would strike"),
    arg.facing(),
    { name = "weapon", type = "choice", values = M.weapons, optional = true,
      help = "this weapon class instead of its own" },
    { name = "ordnance", type = "choice", optional = true,
      values = { "guns", "bomb", "dive_bomb", "guided_bomb", "rocket", "gas" },
      help = "an AIR's ordnance (8.3, Table 11); atgw and aagw are weapon words" },
    { name = "indirect", type = "flag", help = "Indirect fire (a heavy mortar always is)" },
    { name = "offtable", type = "flag", help = "off-table heavy ART (8.2)" },
    { name = "chemical", type = "flag", help = "gas from SKI/S or off-table ART (8.4)" },
    { name = "turret", type = "flag", help = "as `beside`: the turret would turn (5.1)" },
    { name = "icv", type = "flag", help = "an ICV's mounted SKI as SKI/S (5.1)" },
  },
  run = function(ctx, args)
    local f = args.firer
    local ok, err = pcall(function()
      if f.type == "AIR" then
        return require("olab.special").air_reach(f, args.target, args.ordnance or args.weapon,
          args.range, args.arc)
      end
      if args.ordnance then umpire.fail("ordnance is for AIR (8.3); " .. f.name .. " is " .. f.type) end
      local spec = shot_spec(args)
      if f.mortar then spec.indirect = true end
      M.prepare(spec)
      M.validate(spec)
      return M.check_range(spec)
    end)
    -- a refusal caught by pcall carries a traceback after its first line
    local why = tostring(err):match("^[^\n]*"):gsub("; add `force` to override", "")
    if ok then return "yes: " .. why end
    return "no: " .. why
  end,
}

-- 8.2: a forward observer spots a target for off-table ART this round.
umpire.command {
  name = "observe",
  help = "a forward observer within 12\" of a target it can see cancels the off-table -2 " ..
    "against it this round; the observer may only MOVE this round (8.2)\ne.g. `observe fo t34 9`",
  args = {
    { name = "observer", type = "unit", help = "a stand with the `observer` flag" },
    { name = "target", type = "unit", help = "the enemy stand it sees" },
    { name = "distance", type = "distance", help = "inches from the observer to the target" },
    arg.force("umpire's override"),
  },
  run = function(ctx, args)
    local o, t = args.observer, args.target
    if not o.observer then
      umpire.fail(o.name .. " is not a forward observer: `set " .. o.id .. " observer true` (8.2)")
    end
    if util.rhu(args.distance) > 12 then
      umpire.fail(string.format("%s is %d\" from %s: an observer must be within 12\" (8.2)", o.name,
        util.rhu(args.distance), t.name))
    end
    if (o:has("shot") or o:has("fought")) and not args.force then
      umpire.fail(o.name .. " has shot or fought this round; an observer may only MOVE (8.2)")
    end
    local seen = store.observed or {}
    seen[t.id] = { by = o.name, round = umpire.clock().round }
    store.observed = seen
    if not o:has("observing") then o:mark("observing", "spotting " .. t.name .. " (8.2)") end
    return o.name .. " observes " .. t.name .. ": off-table fire at it this round has no -2 (8.2)"
  end,
}

return M
