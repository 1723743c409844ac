-- Each option's alternatives (§37 readings), each with a result that differs from the default.
local h = require "_helpers"

local ARC = "l1 x Bowmen figures=4 files=4 order=loose shooting=3 missile=lb height=6"
local TGT = "d1 t Targets figures=16 files=8 discipline=irregular height=6"

local function both(setup, alt_line, run)
  local a = setup()
  local b = setup()
  b:run(alt_line)
  return run(a), run(b), a, b
end

test("impossible_score: 7+ needs no d6 by default; six_always lets sixes hit (FLD-D03)", function()
  local d, o = both(function() return h.game({ ARC:gsub("shooting=3", "shooting=1"), TGT }) end,
    "option set impossible_score six_always", function(s)
      s:dice(6, 6, 1, 1); return s:run("shoot x t 10\" cover")
    end)
  contains(d, "0 hits from 4 dice"); contains(o, "2 hits from 4 dice")
end)

test("penetration_order additive_first changes which score the first roll needs (FLD-D06)", function()
  local d, o = both(function() return h.game({ ARC, TGT .. " natural=1 armour=plate_sh" }) end,
    "option set penetration_order additive_first", function(s)
      s:dice(4, 4, 4, 4); s:dice(3, 3, 3, 3); s:dice(4, 4, 4, 4); return s:run("shoot x t 10\"")
    end)
  contains(d, "=   4  4 hit points"); contains(o, "=   0  0 hit points")
end)

test("sixes_bonus to_hit_roll counts the to-hit sixes, not the last roll's (FLD-D07)", function()
  local d, o = both(function() return h.game({ ARC, TGT .. " natural=1" }) end,
    "option set sixes_bonus to_hit_roll", function(s)
      s:dice(6, 6, 4, 1); s:dice(3, 3, 3); return s:run("shoot x t 10\"")
    end)
  contains(d, "=   3  3 hit points"); contains(o, "=   5  5 hit points")
end)

test("weapon_to_hit as_factor makes the short bow harder, not easier (FLD-D08)", function()
  local d, o = both(function() return h.game({ ARC:gsub("missile=lb", "missile=sb"), TGT }) end,
    "option set weapon_to_hit as_factor", function(s)
      s:dice(1, 1, 1, 1); return s:run("shoot x t 10\"")
    end)
  contains(d, "needs 3+"); contains(o, "needs 5+")
end)

test("loss_brackets cumulative: +3 for a shooter at half integrity, -1-2-3 in morale (FLD-D09)", function()
  local d, o = both(function() local s = h.game({ ARC, TGT }); s:run("set x integrity 1.5"); return s end,
    "option set loss_brackets cumulative", function(s)
      s:dice(1, 1, 1, 1); return s:run("shoot x t 10\"")
    end)
  contains(d, "needs 6+"); contains(o, "needs 7+")
  local md, mo = both(function() local s = h.game({ "l1 a A figures=8 files=8 morale=6" }); s:run("set a integrity 1"); return s end,
    "option set loss_brackets cumulative", function(s) s:dice(6); return s:run("morale a") end)
  contains(md, "=   3  pass"); contains(mo, "=   0  fragment")
end)

test("mass_factors cumulative: +3 against over twice the Mass (FLD-D10)", function()
  local d, o = both(function() return h.game({ "l1 a A figures=8 files=8 height=3", "d1 g Giants type=leviathan figures=8 files=4 height=8" }) end,
    "option set mass_factors cumulative", function(s)
      s:dice(table.unpack(h.rep(1, 16))); return s:run("melee a g")
    end)
  contains(d, "needs 6+"); contains(o, "needs 7+")
end)

test("fanatic_factors fanatic_only: -1 instead of -2 (FLD-D11)", function()
  local d, o = both(function()
      local s = h.game({ h.war, h.pk }); s:run("mark war fanatic"); s:run("mark war charging"); return s end,
    "option set fanatic_factors fanatic_only", function(s)
      s:dice(table.unpack(h.rep(1, 12 + 16))); return s:run("melee war pk")
    end)
  contains(d, "needs 2+ with 12 dice"); contains(o, "needs 3+ with 12 dice")
end)

test("charge_effects whole_melee keeps the charge factor and the lance's double dice after the first round (FLD-D12)", function()
  local function setup()
    local s = h.game({ "l1 kn Knights type=mounted legs=quadruped figures=8 files=8 base_move=8 weapon=l", "d1 f Foot figures=8 files=8" })
    s:run("charge kn f 5\" stand")
    return s
  end
  local d, o = both(setup, "option set charge_effects whole_melee", function(s)
    s:run("next")
    s:dice(table.unpack(h.rep(1, 16 + 8))); return s:run("melee kn f")
  end)
  contains(d, "lance: 8 x 1"); contains(o, "lance at first contact: 2 x 8 x 1")
  contains(o, "-1  charging")
end)

test("uphill_fragmented uphill_only: Fragmented adds nothing to hit (FLD-D13)", function()
  local d, o = both(function() local s = h.game({ "l1 a A figures=8 files=8", "d1 b B figures=8 files=8" }); s:run("mark a fragmented"); return s end,
    "option set uphill_fragmented uphill_only", function(s)
      s:dice(table.unpack(h.rep(1, 16))); return s:run("melee a b")
    end)
  contains(d, "needs 5+ with 8 dice"); contains(o, "needs 4+ with 8 dice")
end)

test("cinc_with_unit plus2: the C-in-C steadies instead (FLD-D14)", function()
  local d, o = both(function() local s = h.game({ "l1 a A figures=8 files=8 morale=3 commander=cinc" }); return s end,
    "option set cinc_with_unit plus2", function(s) s:dice(3); return s:run("morale a") end)
  contains(d, "=   1  fragment"); contains(o, "=   5  pass")
end)

test("irregular_response subtract: high morale counter-charges (FLD-D15)", function()
  local d, o = both(function() return h.game({ "l1 kn Knights type=mounted legs=quadruped figures=8 files=8 base_move=8",
      "d1 w Warriors figures=16 files=8 discipline=irregular morale=5" }) end,
    "option set irregular_response subtract", function(s) s:dice(1, 3); return s:run("charge kn w 5\"") end)
  contains(d, "breaks"); contains(o, "counter-charges")
end)

test("halves per_rank_floor: each half-rate rank rounded down (FLD-D16)", function()
  local d, o = both(function() return h.game({ "l1 p P figures=28 files=7 weapon=p", h.war }) end,
    "option set halves per_rank_floor", function(s)
      s:dice(table.unpack(h.rep(1, 14 + 12))); return s:run("melee p war")
    end)
  contains(d, "with 14 dice"); contains(o, "with 13 dice")
end)

test("spear_bonus front_rank: half the front rank's attacks only (FLD-D17)", function()
  local d, o = both(function() return h.game({ "l1 sp Spears figures=16 files=8 weapon=s", "d1 kn K type=mounted legs=quadruped figures=8 files=8" }) end,
    "option set spear_bonus front_rank", function(s)
      s:dice(table.unpack(h.rep(1, 24 + 8))); return s:run("melee sp kn")
    end)
  contains(d, "+ 8 v Mounted"); contains(o, "+ 4 v Mounted")
end)

test("fanatic_test apply_band: a failed test's Fragment band also applies (23)", function()
  local d, o, a, b = both(function() return h.game({ h.war, h.pk }) end,
    "option set fanatic_test apply_band", function(s) s:dice(2); return s:run("fanatic war pk 5\"") end)
  ok(not a:has("war", "fragmented")); ok(b:has("war", "fragmented"))
end)

test("rally_zero min_one: a roll of 0 still takes one phase (FLD-D22)", function()
  local d, o = both(function() local s = h.game({ "l1 a A figures=8 files=8" }); s:run("mark a disordered"); return s end,
    "option set rally_zero min_one", function(s) s:dice(1); return s:run("rally a") end)
  contains(d, "good order at the end of this phase"); contains(o, "1 phase(s)")
end)

test("disorder_loss at_least_25: exactly a quarter disorders (FLD-D23)", function()
  local _, _, a, b = both(function() return h.game({ ARC, TGT }) end,
    "option set disorder_loss at_least_25", function(s) s:dice(6, 6, 1, 1); return s:run("shoot x t 10\"") end)
  ok(not a:has("t", "disordered")); ok(b:has("t", "disordered"))
end)

test("recoil_big two_dice: a Behemoth recoils 2d6 (FLD-D25)", function()
  local d, o = both(function() return h.game({ "l1 a A figures=16 files=8 melee=6 attacks=2", "d1 be Beast type=behemoth legs=quadruped figures=3 files=3 melee=1" }) end,
    "option set recoil_big two_dice", function(s)
      s:dice(table.unpack(h.rep(6, 16))); s:dice(1, 1, 1); s:dice(3, 4); return s:run("melee a be")
    end)
  contains(d, "recoils 3\""); contains(o, "recoils 7\"")
end)

test("integrity_floor floor_zero: integrity stops at 0 (FLD-D33)", function()
  local _, _, a, b = both(function() return h.game({ ARC:gsub("shooting=3", "shooting=6"), "d1 t T figures=8 files=8 order=open height=3" }) end,
    "option set integrity_floor floor_zero", function(s) s:dice(6, 6, 6, 6); return s:run("shoot x t 10\"") end)
  eq(a:get("t", "integrity"), -6); eq(b:get("t", "integrity"), 0)
end)

test("mass_who charger_only: a unit not charging ignores the Mass factor (FLD-D35)", function()
  local d, o = both(function() return h.game({ "l1 a A figures=8 files=8 height=5", "d1 b B figures=8 files=8 height=6" }) end,
    "option set mass_who charger_only", function(s)
      s:dice(table.unpack(h.rep(1, 16))); return s:run("melee a b")
    end)
  contains(d, "needs 5+ with 8 dice"); contains(o, "needs 4+ with 8 dice")
end)

test("shooting_penetration one_roll: natural armour is not rolled against when shooting (FLD-D37)", function()
  local d, o = both(function() return h.game({ ARC, TGT .. " natural=2 armour=partial" }) end,
    "option set shooting_penetration one_roll", function(s)
      s:dice(4, 4, 4, 4); s:dice(1, 1, 1, 1); s:dice(1, 1, 1, 1); return s:run("shoot x t 10\"")
    end)
  contains(d, "penetrate natural armour 2"); ok(not o:find("penetrate natural", 1, true))
end)

test("figure_loss none: integrity falls but every figure stays (our reading)", function()
  local _, _, a, b = both(function() return h.game({ ARC, TGT }) end,
    "option set figure_loss none", function(s) s:dice(6, 6, 1, 1); return s:run("shoot x t 10\"") end)
  eq(a:get("t_r2", "figures"), 4); eq(b:get("t_r2", "figures"), 8)
end)

test("armour_points shooting prices the additive armour's shooting column (36, 10; FLD-D32)", function()
  -- 3/4 plate + shield is 3 in melee, 4 against shooting. Per figure: move 4" x 5 = 20, melee 3 = 30,
  -- Mass 3 (6') = 30, strength 3 = 30, morale 3 = 30, additive 3 = 30 (melee) or 4 = 50 (shooting).
  local d, o = both(function() return h.game({ "l1 pl Plate figures=8 files=4 armour=plate_sh" }) end,
    "option set armour_points shooting", function(s) return s:run("points pl") end)
  contains(d, "+30  additive armour 3 (36)")
  contains(d, "170 pts a figure x 8 = 1360 pts")
  contains(o, "+50  additive armour (shooting column) 4 (36)")
  contains(o, "190 pts a figure x 8 = 1520 pts")
end)

test("disorder_armour close_both: disordered Close order loses 2 from natural armour too (10, 32)", function()
  -- 4 long bows hit on 4+ (4 hits). Natural 3: strength 4 v 3 needs 4+, so 3s stop every die;
  -- with close_both the disordered Close order target has natural 1: 4 v 1 needs 3+, all through.
  local d, o = both(function()
    local s = h.game({ ARC, TGT .. " natural=3" })
    s:run("disorder t marched through a wood")
    return s
  end, "option set disorder_armour close_both", function(s)
    s:dice(4, 4, 4, 4); s:dice(3, 3, 3, 3); return s:run("shoot x t 10\"")
  end)
  contains(d, "strength 4 v armour 3 on the Combat Table: 4+")
  contains(d, "=   0  0 hit points")
  contains(o, "strength 4 v armour 1 on the Combat Table: 3+")
  contains(o, "armour: 3 - 2 disordered Close order (10; option disorder_armour)")
  contains(o, "=   4  4 hit points")
end)
