-- Deployment, reserves, initiative and sets of five (3.2, 3.3).

-- Red: a Superior C-in-C and 6 more stands; blue: an Inferior C-in-C and 5 more.
local function game(opts)
  local s = session(opts or { ruleset = "olab" })
  s:run("add side red Red")
  s:run("add side blue Blue")
  s:run("add command red rc R")
  s:run("add command blue bc B")
  s:run("add unit rc rgen RedGen type=SKI/M general=superior cinc=true")
  for i = 1, 6 do s:run("add unit rc r" .. i .. " R" .. i .. " type=INF/U") end
  s:run("add unit bc bgen BlueGen type=SKI/M general=inferior cinc=true")
  for i = 1, 5 do s:run("add unit bc b" .. i .. " B" .. i .. " type=WBD") end
  s:run("cinc red rgen")
  s:run("cinc blue bgen")
  return s
end

-- Moves the clock to the named phase of round 1.
local function to_phase(s, phase)
  for _ = 1, 8 do
    if s:run("clock"):find(phase) then return end
    s:run("next")
  end
end

test("background initiative: D6 + C-in-C rating, winner chooses (3.2)", function()
  local s = game()
  s:dice(3, 4)                       -- red 3 + 1 = 4, blue 4 - 1 = 3
  local out = s:run("deploy")
  contains(out, "+1  C-in-C RedGen [rgen] (superior) (3.2)")
  contains(out, "-1  C-in-C BlueGen [bgen] (inferior) (3.2)")
  contains(out, "red wins the background initiative")
  eq(s:stored("olab", "deploy").winner, "red")
end)

test("ties roll again (AMB-33)", function()
  local s = game()
  s:dice(3, 5, 2, 1)                 -- 4 v 4, then 3 v 0
  local out = s:run("initiative")
  contains(out, "tie at 4")
  contains(out, "red has the initiative in round 1")
  eq(s:stored("olab", "initiative").side, "red")
  contains(s:fails("initiative"), "already red's")
  s:dice(1, 6)
  contains(s:run("initiative again"), "blue has the initiative")
end)

test("sets: exactly five, alternating, leftovers last (3.3, AMB-34)", function()
  local s = game()
  s:dice(6, 1)
  s:run("initiative")
  to_phase(s, "manoeuvre")
  contains(s:fails("activate r1,r2,r3,r4"), "exactly five")
  contains(s:run("activate r1,r2,r3,r4,r5"), "red set 1 (manoeuvre)")
  ok(s:has("r1", "activated"))
  contains(s:fails("activate r6,rgen"), "blue still has full sets")
  contains(s:fails("activate b1,b2,b3,b4,b5,bgen"), "five stands, not 6")
  s:run("activate b1,b2,b3,b4,b5")
  contains(s:fails("activate r6"), "all of red's 2")
  contains(s:run("activate r6,rgen"), "red set 2")
  contains(s:run("activate bgen"), "blue set 2")
  contains(s:fails("activate r1,r2,r3,r4,r5"), "already activated")
  contains(s:run("sets"), "red: 0 to activate")
  -- The next phase starts afresh: the marker lasts a phase.
  contains(s:run("next"), "shooting")
  ok(not s:has("r1", "activated"))
end)

test("a side may not activate twice running while the other has a full set (3.3)", function()
  local s = game()
  for i = 7, 10 do s:run("add unit rc r" .. i .. " R" .. i .. " type=INF/U") end
  to_phase(s, "shooting")
  s:run("activate r1,r2,r3,r4,r5")
  contains(s:fails("activate r6,r7,r8,r9,r10"), "blue's turn")
  contains(s:run("activate r6,r7,r8,r9,r10 force"), "umpire's override")
end)

test("PN: routing and out-of-command stands are activated first in the manoeuvre phase", function()
  local s = game()
  s:run("mark r6 routed")
  to_phase(s, "manoeuvre")
  contains(s:fails("activate r1,r2,r3,r4,r5"), "r6 must be in this set")
  s:run("activate r6,r1,r2,r3,r4")
end)

test("2E: no compulsory-first rule", function()
  local s = game({ ruleset = "olab", variant = "2e" })
  s:run("mark r6 routed")
  to_phase(s, "manoeuvre")
  s:run("activate r1,r2,r3,r4,r5")
end)

test("sets need a phase: not in the initiative step", function()
  local s = game()
  contains(s:fails("activate r1,r2,r3,r4,r5"), "`next`")
end)

test("reserves: 2-6 enters, 1 waits a round; not in round 1 (3.2)", function()
  local s = game()
  s:run("set r5,r6 off_table reserve")
  contains(s:fails("reserves"), "later round")
  s:dice(1, 2)
  local out = s:run("reserves force")
  contains(out, "r5 is delayed")
  contains(out, "r6 enters")
  eq(s:get("r5", "off_table"), "reserve")
  eq(s:get("r6", "off_table"), "no")
  s:dice(6)
  contains(s:run("reserves r5 force"), "r5 enters")
  contains(s:fails("reserves r1 force"), "not in reserve")
end)

test("stands off the table are not counted in sets", function()
  local s = game()
  s:run("set r6 off_table reserve")
  to_phase(s, "command")
  s:run("activate r1,r2,r3,r4,r5")
  s:run("activate b1,b2,b3,b4,b5")
  contains(s:run("activate rgen"), "red set 2")
end)

test("leaving a phase with stands not activated gives a warning (AMB-34)", function()
  local s = game()
  to_phase(s, "command")
  s:run("activate r1,r2,r3,r4,r5")
  contains(s:run("next"), "not activated in the command phase: red 2, blue 6")
end)

test("score: PCP lost by each side, eliminated and routed off; fewer lost wins on time (3.4, AMB-10)", function()
  local s = session { ruleset = "olab" }
  s:run("army load examples/olab/romans.toml")
  s:run("army load examples/olab/britons.toml")
  s:run("set war1 sp 0")                         -- 5 PCP: SP 5 by the tables
  s:run("set war2 off_table routed_off")
  s:run("set war3 off_table retreated")          -- not lost
  s:run("set leg1 sp 0")
  local out = s:run("score")
  contains(out, "5  war1 eliminated (3.4; AMB-10)")
  contains(out, "+5  war2 routed off the table (3.4; AMB-10)")
  ok(not out:find("war3", 1, true), "retreated stands are not lost")
  contains(out, "=  10  10 PCP lost")
  contains(out, "=   7  7 PCP lost")
  contains(out, "on time, romans wins")
  eq(s:get("britons", "pcp_lost"), 10)
end)

test("option score_on_time more_lost: the side that lost more wins, as 3.4 is printed", function()
  local s = session { ruleset = "olab" }
  s:run("army load examples/olab/romans.toml")
  s:run("army load examples/olab/britons.toml")
  s:run("set war1 sp 0")
  s:run("set leg1 sp 0")
  contains(s:run("option list"), "score_on_time = fewer_lost  (recommended)")
  contains(s:run("option set score_on_time more_lost"), "(was fewer_lost)")
  contains(s:run("option list"), "score_on_time = more_lost  (recommended: fewer_lost)")
  contains(s:run("score"), "on time, romans wins: it lost the most PCP")
  s:run("undo")                                   -- the score
  s:run("undo")                                   -- the option
  contains(s:run("score"), "on time, britons wins: it lost the fewest PCP")
  contains(s:fails("option set score_on_time most"), "option `score_on_time` has no reading `most`")
  contains(s:fails("option set score_on_tim more_lost"), "did you mean `score_on_time`?")
end)
