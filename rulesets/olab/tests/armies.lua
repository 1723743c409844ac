-- Every sample army list (APP.2) loads, with the printed stands, SP and Generals.

-- file, side id, stands, SP total, C-in-C id, Generals, the period of the battle
local lists = {
  { "romans", "romans", 20, 121, "suetonius", 2, "61" },
  { "britons", "britons", 20, 86, "boudica", 2, "61" },
  { "french", "french", 20, 111, "napoleon", 3, "1815" },
  { "british", "british", 20, 106, "wellington", 3, "1815" },
  { "imperial", "imperial", 20, 93, "bournemouth", 3, "1879" },
  { "zulus", "zulus", 20, 102, "hetzawayo", 4, "1879" },
  { "afrikakorps", "dak", 20, 134, "rommel", 1, "1942" },
  { "desertrats", "rats", 20, 114, "monty", 1, "1942" },
  { "imperials", "empire", 20, 125, "vader", 2, "3000 scifi" },
  { "rebels", "rebels", 20, 116, "han", 2, "3000 scifi" },
}

for _, l in ipairs(lists) do
  local file, side, stands, total, cinc, generals, period = table.unpack(l)
  test("army " .. file .. ".toml loads: " .. stands .. " stands, " .. total .. " SP", function()
    local s = session { ruleset = "olab" }
    contains(s:run("army load examples/olab/" .. file .. ".toml"), stands .. " units")
    s:run("period " .. period)
    -- `sp` on the whole side: every stand's Table 2/3 reading agrees with the printed SP.
    local out = s:run("sp side:" .. side)
    ok(not out:find("by the tables, roster"), file .. ": a stand disagrees with its SP:\n" .. out)
    local pcp = s:run("pcp side:" .. side)
    contains(pcp, side .. ": ")
    eq(s:get(cinc, "cinc"), true)
    ok(s:get(cinc, "general") ~= "none", cinc .. " is a General")
    -- Totals come from the status board's strength line for the side.
    local st = s:run("status")
    contains(st, tostring(total) .. "/" .. tostring(total))
    contains(st, tostring(stands))
    -- The army was built within the Appendix list's printed min-max ranges.
    contains(s:run("roster check " .. side), side .. " is within the Appendix list's printed ranges")
  end)
end

test("roster check names each entry out of the printed ranges, by count and by SP (Appendix)", function()
  local s = session { ruleset = "olab" }
  s:run("army load examples/olab/britons.toml")
  s:run("add unit chief_cmd war10 Warriors10 type=WBD sp=5 sp_start=5 entry=warriors")
  contains(s:run("roster check britons"), "within")          -- 10 warriors: the most printed
  s:run("add unit chief_cmd war11 Warriors11 type=WBD sp=6 sp_start=6 entry=warriors")
  s:run("add unit chief_cmd wiz Wizard type=SKI/F entry=wizards")
  local out = s:run("roster check britons")
  contains(out, "warriors: 11 stands, the list allows 8-10")
  contains(out, "warriors: SP 5 printed, but war11 6")
  contains(out, "wiz (entry `wizards`): no such entry in the list")
  contains(out, "OUT OF RANGE")
  s:run("set britons appendix \"warriors 8 to 10\"")
  contains(s:fails("roster check britons"), "should read KEY COUNT x SP")
end)

test("roster check needs the side's appendix ranges, and says where they go", function()
  local s = session { ruleset = "olab" }
  s:run("add side red Red")
  s:run("add command red c1 C")
  s:run("add unit c1 a A type=INF/U")
  contains(s:fails("roster check red"), "set its `appendix` attribute")
end)

test("the armies load under the 2E variant too; their `comms` and `cinc_rating` are read", function()
  local s = session { ruleset = "olab", variant = "2e" }
  s:run("army load examples/olab/afrikakorps.toml")
  s:run("army load examples/olab/desertrats.toml")
  contains(s:run("comms dak"), "dak: radio (the side's comms), command distance 18\"")
  contains(s:run("incommand pgr1 18"), "in command")
  contains(s:run("incommand rats_lorried1 18"), "in command")
  contains(s:run("comms rats telephone"), "command distance 8\"")
  contains(s:run("incommand rats_lorried1 9"), "out of command")
  contains(s:run("cinc dak"), "C-in-C Rommel [rommel] (superior), +1")
end)

test("the sample armies' SKI/F and SKI/S take the post-1906 +2 from the game's period (Table 3)", function()
  local s = session { ruleset = "olab" }
  s:run("army load examples/olab/afrikakorps.toml")
  contains(s:run("sp side:dak brief"), "by the tables")   -- no period: the +2 is missing
  s:run("period 1942")
  local out = s:run("sp side:dak")
  contains(out, "after c.1906 (period 1942) (Table 3)")
  ok(not out:find("by the tables, roster"), out)
end)

-- The two armies of each era play each other: their ids must not clash.
local pairs_of = { { "romans", "britons" }, { "french", "british" }, { "imperial", "zulus" },
  { "afrikakorps", "desertrats" }, { "imperials", "rebels" } }
for _, p in ipairs(pairs_of) do
  test(p[1] .. " and " .. p[2] .. " load into one game and can start it", function()
    local s = session { ruleset = "olab" }
    s:run("army load examples/olab/" .. p[1] .. ".toml")
    s:run("army load examples/olab/" .. p[2] .. ".toml")
    s:dice(6, 1)
    contains(s:run("deploy"), "wins the background initiative")
  end)
end

-- The Romans' WBD auxilia: PN's list leaves them Irregular, 2e's calls every Roman Regular. An
-- Elite auxiliary routing, no General near, rolling 4: PN 4 + 1 (Elite, 7.3) = 5, rallies; 2e
-- 4 + 1 (Regular and Elite, 2e 7.3) = 5, rallies; a 2e stand marked neither would stay at 4.
test("the Roman WBD auxilia are Regular in 2e only: the 2e rally's +1 (2e 7.3, Appendix)", function()
  for _, v in ipairs({ "pn", "2e" }) do
    local s = session(v == "2e" and { ruleset = "olab", variant = "2e" } or { ruleset = "olab" })
    s:run("army load examples/olab/romans.toml")
    s:run("period 61")
    eq(s:get("auxwbd1", "regular"), false)
    s:run("mark auxwbd1 routed")
    s:dice(4)
    local out = s:run("rally auxwbd1")
    if v == "2e" then
      contains(out, "+1  Regular and elite (7.3, AMB-07)")
    else
      contains(out, "+1  elite (7.3, AMB-07)")
    end
    contains(out, "=   5  rallies")
  end
  local s = session { ruleset = "olab", variant = "2e" }
  s:run("add side red Red")
  s:run("add command red c1 C")
  s:run("add unit c1 w W type=WBD sp=6 sp_start=6 quality=elite")
  s:run("mark w routed")
  s:dice(4)
  contains(s:run("rally w"), "=   4  still routing")
end)
