-- The readings of 3.2-3.4 and PN 1.3 the umpire may switch (issue 16), and the off-day roll.

local h = require "_helpers"
local game, to_phase = h.cinc_game, h.to_phase

local next_round = h.next_round

test("option initiative_ties holder_keeps: last round's holder keeps a tie (3.3; AMB-33 rolls again)", function()
  local s = game()
  s:dice(3, 5, 6, 1)                 -- round 1: red 3+1 v blue 5-1, a tie; then red 7 v 0
  contains(s:run("initiative"), "tie at 4")
  eq(s:stored("olab", "initiative").side, "red")
  next_round(s)
  s:dice(1, 3)                       -- red 2 v blue 2: a tie
  s:dice(1, 6)                       -- the default rolls again: blue
  contains(s:run("initiative"), "blue has the initiative in round 2")
  s:run("undo")
  s:run("option set initiative_ties holder_keeps")
  s:dice(1, 3)
  local out = s:run("initiative")
  contains(out, "tie: red held the initiative in the round before and keeps it")
  contains(out, "red has the initiative in round 2")
end)

test("option initiative_ties holder_keeps: a tied dispute goes to this round's holder (PN 1.3; AMB-33)", function()
  local s = game()
  s:dice(6, 1)
  s:run("initiative")                -- red holds it
  s:dice(4, 4, 2, 5)
  contains(s:run("dispute"), "blue wins the dispute")
  s:run("option set initiative_ties holder_keeps")
  s:dice(4, 4)
  contains(s:run("dispute"), "red wins the dispute: a tie, and it holds the initiative this round")
  -- Background initiative has no holder before it: ties roll again whatever the option.
  s:dice(4, 6, 6, 1)                 -- red 5 v blue 5, a tie rolled again: 7 v 0
  contains(s:run("deploy"), "red wins the background initiative")
end)

test("option leftover_sets in_turn: a side's last small set goes in its turn (3.3; AMB-34 waits)", function()
  local s = game()
  s:run("add unit bc b6 B6 type=WBD")
  s:run("add unit bc b7 B7 type=WBD")
  s:run("add unit bc b8 B8 type=WBD")
  s:run("add unit bc b9 B9 type=WBD")      -- blue: 10 stands, red 7
  to_phase(s, "manoeuvre")
  s:run("activate r1,r2,r3,r4,r5")
  s:run("activate b1,b2,b3,b4,b5")
  contains(s:fails("activate r6,rgen"), "blue still has full sets")
  s:run("option set leftover_sets in_turn")
  contains(s:run("activate r6,rgen"), "red set 2")
end)

test("option reserves_from round_1: reserves may roll in the first round (3.2; AMB-34)", function()
  local s = game()
  s:run("set r6 off_table reserve")
  contains(s:fails("reserves"), "option set reserves_from round_1")
  s:run("option set reserves_from round_1")
  s:dice(4)
  local out = s:run("reserves")
  contains(out, "option reserves_from round_1")
  contains(out, "r6 enters")
end)

test("option pcp_lost with_sp_lost: SP lost by surviving stands count too (3.4; AMB-10)", function()
  local s = session { ruleset = "olab" }
  s:run("army load examples/olab/romans.toml")
  s:run("army load examples/olab/britons.toml")
  s:run("set war1 sp 0")
  s:run("set war2 sp 0")                       -- britons: 10 lost
  s:run("set leg1 sp 0")                       -- romans: 7 lost
  s:run("set leg2 sp 2")                       -- 7 SP at the start: 5 lost, still in the game
  local out = s:run("score")
  contains(out, "on time, romans wins")
  s:run("option set pcp_lost with_sp_lost")
  out = s:run("score")
  contains(out, "+5  leg2 SP lost (option pcp_lost with_sp_lost)")
  contains(out, "=  12  12 PCP lost")
  contains(out, "on time, britons wins")
end)

test("option round_structure set_major: a set plays all its phases, once a round (3.3; AMB-01)", function()
  local s = game()
  to_phase(s, "manoeuvre")
  s:run("activate r1,r2,r3,r4,r5")
  s:run("activate b1,b2,b3,b4,b5")
  s:run("next")                                 -- shooting: phase-major sets start afresh
  contains(s:run("activate r1,r2,r3,r4,r5"), "red set 1 (shooting, 3.3)")
  s:run("undo")
  s:run("option set round_structure set_major")
  s:run("activate r6,rgen,r1,r2,r3 force")      -- a stand is in one set a round
  contains(s:fails("activate r1,r2,r3,r4,r5"), "has played its set this round")
  next_round(s)
  to_phase(s, "command")
  local out = s:run("activate r1,r2,r3,r4,r5")
  contains(out, "red set 1 (all phases, set-major, 3.3)")
  ok(s:has("r1", "set_done"))
  s:run("next")                                 -- manoeuvre: the set is still played out
  contains(s:fails("activate r1,r2,r3,r4,r5"), "has played its set this round")
  contains(s:run("activate b1,b2,b3,b4,b5"), "blue set 1 (all phases, set-major, 3.3)")
end)

test("the off-day roll before play: a 5-6 makes Napoleon merely Competent (Appendix)", function()
  local s = session { ruleset = "olab" }
  s:run("army load examples/olab/french.toml")
  s:dice(4)
  contains(s:run("offday napoleon"), "is on form: still superior")
  contains(s:fails("offday napoleon"), "has had his off-day roll")
  s:run("undo")
  s:dice(5)
  local out = s:run("offday napoleon")
  contains(out, "off-day D6 (5-6: an off day)")
  contains(out, "an off day: competent instead of superior")
  eq(s:get("napoleon", "general"), "competent")
  eq(s:get("french", "cinc_rating"), 0)
  contains(s:fails("offday fr_line1"), "not a General")
  s:run("undo")
  s:run("next"); s:run("next"); s:run("next")
  contains(s:fails("offday napoleon"), "before play")
end)
