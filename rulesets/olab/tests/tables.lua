-- The fire tables as data (tables_fire.lua): the KO table, which no command of this part reads
-- yet (knock-out fire is an optional rule, 8.8.2), and the steps of 5.2.1.

local function lookup(s, ...)
  local out = s:run("table lookup " .. table.concat({ ... }, " "))
  return out
end

test("KO table: every cell (8.8.2)", function()
  local s = session { ruleset = "olab" }
  local cols = { "soft", "light", "medium", "heavy", "super" }
  local rows = {
    at_rifle = { 3, 4, 4, 5, 6 }, rpg = { 2, 3, 3, 4, 5 }, torsion_ml = { 2, 2, 4, 6, 6 },
    atgw = { 4, 4, 4, 5, 5 }, aagw = { 2, 2, 6, 6, 6 }, bl_to79 = { 3, 4, 5, 6, 6 },
    bl_80_130 = { 2, 2, 4, 5, 6 }, bl_over130 = { 2, 2, 3, 4, 5 }, ship = { 2, 2, 2, 5, 5 },
  }
  local n = 0
  for r, vals in pairs(rows) do
    for i, c in ipairs(cols) do
      local out = lookup(s, "knock_out", r, c)
      eq(out:match("→ (%S+)%s*$"), tostring(vals[i]))
      n = n + 1
    end
  end
  eq(n, 45)
end)

test("KO example: the Tiger's 88 mm against a T-34's side needs 4, so a natural 3 with the flank +1 (8.8.2)", function()
  local s = session { ruleset = "olab" }
  contains(lookup(s, "knock_out", "bl_80_130", "medium"), "bl_80_130 × medium → 4")
end)

test("5.2.1 steps: Indirect -4, off-table -2, cover -4 and -4 again, 2d6 save, 1 shield die", function()
  local s = session { ruleset = "olab" }
  contains(lookup(s, "fire_steps", "indirect"), "indirect → -4")
  contains(lookup(s, "fire_steps", "off_table"), "off_table → -2")
  contains(lookup(s, "fire_steps", "cover"), "cover → -4")
  contains(lookup(s, "fire_steps", "double_cover"), "double_cover → -4")
  contains(lookup(s, "fire_steps", "save_dice"), "save_dice → 2d6")
  contains(lookup(s, "fire_steps", "shield_dice"), "shield_dice → 1d6")
end)

test("every fire table is listed by `table list`", function()
  local s = session { ruleset = "olab" }
  local out = s:run("table list")
  for _, t in ipairs({ "ranges", "fire_additions", "fire_deductions", "fire_steps", "cc_additions",
    "cc_deductions", "aircraft", "knock_out" }) do
    contains(out, t)
  end
end)

test("Table 6: the foot anti-tank classes reach the KO table's bands, 2\" and 4\" (8.8.2)", function()
  local s = session { ruleset = "olab" }
  contains(lookup(s, "ranges", "at_rifle"), "→ 2")
  contains(lookup(s, "ranges", "rpg"), "→ 4")
  -- their names are the KO rows': a team's weapon is its row
  contains(lookup(s, "knock_out", "at_rifle", "medium"), "→ 4")
  contains(lookup(s, "knock_out", "rpg", "medium"), "→ 3")
end)

test("the roster's firer's-arc attributes: turret (auto by type) and fixed_arc (5.1)", function()
  local s = session { ruleset = "olab" }
  s:run("add side red Red")
  s:run("add command red r1 Reds")
  s:run("add unit r1 stug StuG type=TNK turret=no fixed_arc=true")
  eq(s:get("stug", "turret"), "no")
  eq(s:get("stug", "fixed_arc"), true)
  s:run("add unit r1 t T type=TNK")
  eq(s:get("t", "turret"), "auto")
  contains(s:fails("add unit r1 x X turret=maybe"), "turret")
end)
