-- Ambushes (8.8.3): at most five stands, a secret note, placed by the owner's set or sprung by
-- an enemy entering the terrain.

local function game()
  local s = session { ruleset = "olab", house = { "ambushes" } }
  s:run("add side zulus Zulus")
  s:run("add side british British")
  s:run("add command zulus z1 Horns")
  s:run("add command british b1 Column")
  for i = 1, 6 do s:run("add unit z1 wbd" .. i .. " Warband" .. i .. " type=WBD sp=5 sp_start=5") end
  for i = 1, 5 do s:run("add unit b1 inf" .. i .. " Line" .. i .. " type=INF/U sp=4 sp_start=4") end
  return s
end

test("up to five stands wait off the table; the terrain note is kept secret", function()
  local s = game()
  local out = s:run("ambush wbd1,wbd2,wbd3 the donga below the hill")
  contains(out, "3 of zulus's stands wait in ambush (3 of 5); the note is kept secret")
  eq(s:get("wbd1", "off_table"), "ambush")
  ok(not out:find("donga", 1, true))
  ok(not s:run("status"):find("donga", 1, true))
  -- The journal keeps the typed line and the note as the umpire's record; what `log` and
  -- `undo` show of them is masked (`log 1 all`: the store lines too).
  local log = s:run("log 1 all")
  contains(log, "ambush wbd1,wbd2,wbd3 ‹secret›")
  contains(log, "secret ambushes.notes set (‹secret›)")
  ok(not log:find("donga", 1, true))
  contains(s:run("ambushes"), "wbd1 (zulus) waits in the donga below the hill")
  contains(s:fails("ambush wbd4,wbd5,wbd6 the mealie field"), "zulus would have 6 stands in ambush: at most 5")
  contains(s:fails("ambush inf1 the kraal"), "only the first deployer lays ambushes (8.8.3)")
end)

test("an enemy entering the terrain springs the ambush at once", function()
  local s = game()
  s:run("ambush wbd1,wbd2 the donga")
  s:run("ambush wbd3 the mealie field")
  contains(s:run("enter inf1 the kraal"), "Line1 [inf1] enters the kraal")
  eq(s:get("wbd1", "off_table"), "ambush")
  local out = s:run("enter inf1 The  Donga")
  contains(out, "Warband1 [wbd1] appears from ambush in the donga")
  contains(out, "Warband2 [wbd2] appears from ambush in the donga")
  contains(out, "sprung: an enemy stand (Line1 [inf1]) entered its hiding place (8.8.3)")
  eq(s:get("wbd1", "off_table"), "no")
  eq(s:get("wbd3", "off_table"), "ambush")
  -- a friendly stand entering springs nothing
  contains(s:run("enter wbd4 the mealie field"), "Warband4 [wbd4] enters the mealie field")
  eq(s:get("wbd3", "off_table"), "ambush")
  contains(s:run("ambushes"), "wbd3 (zulus) waits in the mealie field")
end)

test("the owner places an ambushing stand by activating it in a manoeuvre phase", function()
  local s = game()
  s:run("ambush wbd1 the donga")
  s:run("next")                                   -- command phase
  local no = s:run("activate wbd1,wbd2,wbd3,wbd4,wbd5")
  contains(no, "placed only when activated in a manoeuvre phase")
  eq(s:get("wbd1", "off_table"), "ambush")
  s:run("next")                                   -- manoeuvre phase
  local out = s:run("activate wbd1,wbd2,wbd3,wbd4,wbd5")
  contains(out, "Warband1 [wbd1] appears from ambush in the donga")
  contains(out, "zulus set 1 (manoeuvre, 3.3)")
  eq(s:get("wbd1", "off_table"), "no")
  ok(s:has("wbd1", "activated"))
  eq(s:run("ambushes"), "no stands in ambush")
end)

test("2E: the ambush is the initiative winner's, and the refusal says so (8.8.3)", function()
  local s = session { ruleset = "olab", variant = "2e", house = { "ambushes" } }
  s:run("add side zulus Zulus")
  s:run("add side british British")
  s:run("add command zulus z1 Horns")
  s:run("add command british b1 Column")
  s:run("add unit z1 wbd1 Warband1 type=WBD sp=5 sp_start=5")
  s:run("add unit b1 inf1 Line1 type=INF/U sp=4 sp_start=4")
  s:run("ambush wbd1 the donga")
  contains(s:fails("ambush inf1 the kraal"), "only the initiative winner (2E) lays ambushes (8.8.3)")
end)
