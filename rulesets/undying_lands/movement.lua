-- TA5 movement (20): what each TU may do and how far; break off and pursuit (20.v); march
-- column (20.i); interpenetration (25).
local U = require "undying_lands.util"
local I = require "undying_lands.integrity"
local C = require "undying_lands.charge"

local M = {}

umpire.command {
  name = "moves",
  help = "a TU's movement allowances (5, 20): move, wheel, march, charge and fanatic charge reach,\n" ..
    "break-off eligibility; `moves war 25cm` also says whether wheels are allowed with the nearest\n" ..
    "enemy that far away.",
  args = { { name = "unit", type = "unit" }, { name = "enemy", type = "distance", optional = true, help = "nearest enemy vignette" } },
  run = function(ctx, args)
    local u = args.unit
    local mv = U.move(u)
    local reg = u.discipline == "regular"
    local wheel = ({ close = "up to 30 degrees (none with an enemy within 30 cm)",
      loose = reg and "up to 90 degrees, then a full move" or "up to 45 degrees, then a full move",
      open = reg and "up to 180 degrees, then a full move" or "up to 90 degrees, then a full move" })[u.order]
    local lines = {
      u.id .. ": Tactical Move " .. U.move_text(u) .. " (5)",
      "(every distance below includes the defence Move column" .. require("undying_lands.placeholders").label("") .. ")",
      "march move " .. 2 * mv .. " cm in column, never within 30 cm of an enemy; cannot fight (20.i)",
      "move: " .. wheel .. " (20.ii)",
      "wheel: the outer corner up to " .. U.cm(reg and mv or mv / 2) .. " cm; not with an enemy within 20 cm (20.iii)",
      "charge reach " .. mv .. " cm (17); fanatic charge " .. U.fanatic_reach(u) .. " cm (16)",
      "break off or evade: " .. (C.may_evade(u) and ("full move + " .. (u.type == "mounted" and "1d12" or "1d8") .. " cm (20.v)") or "not allowed (20.v)"),
      "interpenetrate friends: " .. ((u.type == "foot" and u.order == "open") and "yes (25)" or "no, only Open order Foot may (25)"),
    }
    if args.enemy then
      if u.order == "close" and args.enemy <= 30 then lines[#lines + 1] = "enemy at " .. args.enemy .. " cm: no wheel while moving (20.ii)" end
      if args.enemy <= 20 then lines[#lines + 1] = "enemy at " .. args.enemy .. " cm: no wheel manoeuvre (20.iii)" end
      if args.enemy <= 30 then lines[#lines + 1] = "enemy at " .. args.enemy .. " cm: no march move this close (20.i)" end
    end
    umpire.record("moves", { move = mv, march = 2 * mv, charge = mv, fanatic = U.fanatic_reach(u), placeholder = true,
      note = "every distance here includes the defence class's Move column, a PLACEHOLDER" })
    return table.concat(lines, "\n")
  end,
}

umpire.command {
  name = "march",
  help = "forms a TU into march column (20.i), or back into line with `march UNIT off`",
  args = { { name = "unit", type = "unit" }, { name = "off", type = "flag" } },
  run = function(ctx, args)
    local u = args.unit
    if args.off then
      if u:has("march") then u:unmark("march", "back into line (20.i)") end
      return u.id .. " is in line"
    end
    if u:has("in_melee") then umpire.fail("march: " .. u.id .. " is in melee") end
    if not u:has("march") then u:mark("march", "march column, one vignette wide (20.i)") end
    return u.id .. " is in march column: " .. 2 * U.move(u) .. " cm a move " ..
      require("undying_lands.placeholders").label("with the defence Move column") .. "; it cannot fight (20.i)"
  end,
}

umpire.command {
  name = "breakoff",
  help = "break formation and move (20.v): a Loose or Open order TU in melee (or Regular Close order\n" ..
    "Foot from enemy Foot) moves its full move + 1d8 (Mounted 1d12) to the rear; the enemy may\n" ..
    "pursue (Irregular must): Tactical Move + 1d6 (Mounted 1d8).   breakoff war from kn",
  args = { { name = "unit", type = "unit" }, { name = "from", type = "text", optional = true, help = "`from ENEMY`: the TU it breaks off from" } },
  run = function(ctx, args)
    local u = args.unit
    if not C.may_evade(u) then umpire.fail("breakoff: " .. u.id .. " is Close order and not Regular Foot: it may not break off (20.v)") end
    if not u:has("in_melee") then
      umpire.fail("breakoff: " .. u.id .. " is not in melee; breaking off is for TUs already in melee (20.v); " ..
        "a charged TU evades with `charge … evade`")
    end
    local enemy
    if args.from then
      local id = args.from:gsub("^%s*from%s+", ""):match("%S+")
      enemy = umpire.unit(id)
      if u.order == "close" and enemy.type ~= "foot" then umpire.fail("breakoff: Regular Close order Foot break off only from enemy Foot (20.v)") end
    end
    local back = C.breakoff_move(ctx, u, "breaks off")
    local lines = { u.id .. " moves " .. back .. " cm to the rear (20.v)" }
    for _, e in ipairs(u:elements()) do I.untouch(e.id) end
    if u:has("in_melee") then u:unmark("in_melee", "broke off (20.v)") end
    local rec = { back = back, placeholder = true }
    if enemy then
      local c = ctx:check("Pursuit 20.v: " .. enemy.id)
      U.move_factor(c, enemy, nil)
      c:roll(enemy.type == "mounted" and "1d8" or "1d6", "pursuit", "20.v")
      c:result(c:total() .. " cm" .. (c:total() >= back and ": catches them, the melee goes on next phase" or ": does not catch them"))
      rec.pursuit = c:total()
      lines[#lines + 1] = enemy.id .. (enemy.discipline == "irregular" and " must pursue " or " may pursue ") .. c:total() .. " cm (20.v)"
    end
    umpire.record("breakoff", rec)
    return table.concat(lines, "\n")
  end,
}

umpire.command {
  name = "interpenetrate",
  help = "may a TU pass through a friendly TU (25)? Only Open order Foot; break-off and evade moves\n" ..
    "may pass Loose or Open order troops or Regular Close order Foot, else the evaders are\n" ..
    "scattered and removed (20.v). `evading` for such a move.   interpenetrate skirm pikes",
  args = { { name = "unit", type = "unit" }, { name = "through", type = "unit" }, { name = "evading", type = "flag" } },
  run = function(ctx, args)
    local u, f = args.unit, args.through
    if u.side ~= f.side then umpire.fail("interpenetrate: " .. f.id .. " is an enemy") end
    if args.evading then
      if f.order ~= "close" or (f.discipline == "regular" and f.type == "foot") then
        return u.id .. " may pass through " .. f.id .. " while breaking off or evading (20.v)"
      end
      for _, e in ipairs(u:elements()) do I.untouch(e.id); e:remove("scattered running into " .. f.id .. " (20.v)") end
      U.sync(u, "scattered (20.v)")
      return u.id .. " runs into " .. f.id .. " and is scattered: removed from the table (20.v)"
    end
    if u.type == "foot" and u.order == "open" then return u.id .. " (Open order Foot) may pass through " .. f.id .. " (25)" end
    umpire.fail("interpenetrate: only Open order Foot may pass through friends (25); " .. u.id .. " is " .. U.class_text(u))
  end,
}

return M
