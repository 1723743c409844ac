-- The six lost tables (placeholders.lua): every breakdown line and every record that uses one
-- of their values says PLACEHOLDER, and no line using only the rulebook's numbers does.
local h = require "_helpers"

local PATTERNS = { "BIV", "physique", "defence class", "command control table", "Tactical Move",
  "base numbers", "at first contact", " vs Foot", " vs Other", "defence Move" }

local function check_lines(out)
  local n = 0
  for line in out:gmatch("[^\n]+") do
    local uses = false
    for _, p in ipairs(PATTERNS) do if line:find(p, 1, true) then uses = true end end
    -- weapon-class cells the examples give are the rulebook's, and say where they come from
    if line:find("value from the", 1, true) then uses = false end
    -- lines that only name a rule (help texts, orders) carry no value
    if line:find("^%s*[%-%+]?%d+%s") or line:find("[PLACEHOLDER", 1, true) or line:find("needs %d+") then
      if uses then
        n = n + 1
        ok(line:find("PLACEHOLDER", 1, true), "a placeholder value without the word PLACEHOLDER: " .. line)
      end
    end
  end
  return n
end

local function check_factors(list)
  for _, f in ipairs(list or {}) do
    eq(f.placeholder, f.label:find("PLACEHOLDER", 1, true) ~= nil)
  end
end

test("every line and record using a lost table's value says PLACEHOLDER (3, 2.7, 7, 19, 28)", function()
  local s = h.game({ h.rom, h.gal, h.pike, "bw kn Knights type=mounted weapon=lance vignettes=1" })
  local n = 0
  local out = s:run("muster rom")
  n = n + check_lines(out)
  check_factors(s:record("muster").rom.factors)
  n = n + check_lines(s:run("stats gal"))
  eq(s:record("stats").base_numbers_placeholder, true)
  eq(s:record("stats").move_placeholder, true)
  n = n + check_lines(s:run("moves kn"))
  eq(s:record("moves").placeholder, true)
  -- melee: weapon cells, placeholder or from the text
  s:dice(3, 3, 3, 4)
  out = s:run("melee kn pk first pairs 1-1")
  n = n + check_lines(out)
  for _, b in ipairs(s:record("melee").blows) do check_factors(b.factors) end
  contains(out, "LANCE at first contact [PLACEHOLDER")
  contains(out, "PIKE vs Other (value from the pike example (19))")
  -- repulse and follow-up distances include the defence Move column
  s:run("set gal_v1 ip 2")
  s:dice(9, 3, 9)
  out = s:run("integrity gal f")
  n = n + check_lines(out)
  eq(s:record("integrity")[1].placeholder, true)
  -- activation on the placeholder table
  s:run("sc rw 3")
  s:run("next"); s:run("next")
  s:dice(6, 6)
  out = s:run("activate rw rom pk")
  n = n + check_lines(out)
  for _, r in ipairs(s:record("unit_activation")) do eq(r.placeholder, true) end
  s:run("orders bw attack")
  s:dice(1, 4)
  out = s:run("charge kn pk 12cm evade")
  n = n + check_lines(out)
  eq(s:record("charge").placeholder, true)
  ok(n >= 12, "only " .. n .. " placeholder lines seen")
end)

test("the placeholder tables are data a club edits (placeholders.lua) and show with `table show`", function()
  local s = h.game({})
  contains(s:run("table show biv_placeholder"), "22")
  contains(s:run("table show defence_placeholder"), "lsh")
  contains(s:run("table show weapon_class_placeholder"), "spear")
  contains(s:run("table show command_control_placeholder_irregular"), "no")
  contains(s:run("table show base_numbers_placeholder"), "1920")
  contains(s:run("table show physique_size_placeholder"), "-15")
end)

test("the surviving tables: morale classes, move, size (2.5, 5, 28)", function()
  local s = h.game({})
  contains(s:run("table show morale_class"), "-10")
  contains(s:run("table show size"), "12 ft")
  contains(s:run("table show melee_dice"), "1d20")
end)
