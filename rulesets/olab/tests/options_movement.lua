-- The readings of 4.2-4.4 and 6.2-6.3 the umpire may switch (issue 16), and the smaller
-- movement items: the woods cap in `move … plan`, evades, a refused charge's distance.

local h = require "_helpers"

test("option minimum_move before_terrain: the 2\" floor comes before terrain (4.3; AMB-31)", function()
  local s = h.game({ "r1 gun Gun type=ART" })
  -- Manhandled ART 3" less 2" for a wall leaves 1"; by default 2" may always be moved.
  contains(s:run("move gun 2 woods obstacle plan"), "2\" allowed (the 2\" minimum, 4.3)")
  s:run("option set minimum_move before_terrain")
  local out = s:fails("move gun 2 woods obstacle plan")
  contains(out, "costs 4\" of an allowance of 2\"")
  contains(out, "option minimum_move before_terrain")
  contains(s:run("move gun woods obstacle plan"), "1\" all in woods")
  s:run("undo")
  contains(s:run("move gun 2 woods obstacle plan"), "2\" allowed")
end)

test("option road_bonus move_doubled: a TNK's whole move doubles on a road (Table 5; AMB-32)", function()
  local s = h.game({ "r1 tk Tk type=TNK armour=medium speed=medium", "r1 inf Inf type=INF/U" })
  contains(s:run("move tk road plan"), "may move up to 18\"")      -- 10 + 8
  s:run("option set road_bonus move_doubled")
  local out = s:run("move tk road plan")
  contains(out, "+10  whole move along a road, doubled for TNK/motor (option road_bonus move_doubled)")
  contains(out, "may move up to 20\"")
  contains(s:run("move inf road plan"), "may move up to 10\"")     -- foot: +4 either way
end)

test("option evade_outcome charge_stops: an evaded charge makes no contact (4.4; AMB-18)", function()
  local s = h.game({ "r1 cav Cav type=CAV/U", "r1 cav2 Cav2 type=CAV/U", "b1 sk Sk type=SKI/F",
    "b1 sk2 Sk2 type=SKI/M" })
  s:run("charge cav sk 5")
  -- 5" + 6" = 11" is within the CAV/U charge of 12": contact, with the bonus.
  local out = s:run("evade sk")
  contains(out, "=  11  11\" within the charge move of 12\": contact")
  contains(out, "Cav [cav] still reaches it (11\" of its 12\" charge move): close combat follows, " ..
    "with the charge bonus")
  s:run("undo")
  s:run("option set evade_outcome charge_stops")
  out = s:run("evade sk")
  contains(out, "no contact this round (4.4; option evade_outcome charge_stops)")
  -- From farther, the charger falls short whatever the reading.
  s:run("option set evade_outcome charge_goes_on")
  s:run("charge cav2 sk2 8")
  contains(s:run("evade sk2"), "Cav2 [cav2] falls 2\" short: no contact this round")
end)

test("evade: refused when nobody has charged the stand, saying how to fix it (4.4)", function()
  local s = h.game({ "r1 cav Cav type=CAV/U", "b1 sk Sk type=SKI/F" })
  local out = s:fails("evade sk")
  contains(out, "nobody has charged Sk [sk] this round")
  contains(out, "`charge CHARGER sk DIST`")
  contains(s:run("evade sk force"), "no charge declared against it")
end)

test("option charge_bonus_contact any_round: a charge going on keeps its bonus (6.2; AMB-19)", function()
  local s = h.game({ "r1 cav Cav type=CAV/U", "r1 cav2 Cav2 type=CAV/U", "b1 foe Foe type=INF/U" })
  s:run("charge cav foe 10")
  ok(s:has("cav", "charge_bonus"))
  h.next_round(s)
  ok(not s:has("cav", "charge_bonus"), "the default: no bonus for contact in a later round")
  s:run("option set charge_bonus_contact any_round")
  s:run("charge cav2 foe 10")
  h.next_round(s)
  ok(s:has("cav2", "charge_bonus"), "the charge goes on with its bonus")
  ok(not s:has("cav", "charge_bonus"), "a charge of an earlier round under the default is over")
end)

test("option charge_bonus_contact any_round: contact ends the charge (6.2; AMB-19)", function()
  local s = h.game({ "r1 cav Cav type=CAV/U", "b1 foe Foe type=INF/U" })
  s:run("option set charge_bonus_contact any_round")
  s:run("charge cav foe 10")
  s:dice(6, 1)
  s:run("cc cav foe")
  h.next_round(s)
  ok(not s:has("cav", "charge_bonus"), "it made contact: the charge is over")
end)

test("option precontact_action none: a stand that has shot may still fire at a charger (6.3; AMB-21)", function()
  local s = h.game({ "r1 cav Cav type=CAV/U", "b1 gun Gun type=ART weapon=ml_smoothbore" })
  s:run("mark gun shot")
  contains(s:run("charge cav gun 10 plan"), "Gun [gun] cannot fire before contact: Gun [gun] has " ..
    "already used its SHOOT action this round (2.1.1) and pre-contact fire is its SHOOT action")
  s:run("option set precontact_action none")
  contains(s:run("charge cav gun 10 plan"), "it costs no action (6.3; option precontact_action none)")
end)

test("move … plan in woods shows the allowance after Table 5's 2\" cap (Table 5)", function()
  local s = h.game({ "r1 cav Cav type=CAV/U", "r1 tk Tk type=TNK armour=medium speed=medium",
    "r1 inf Inf type=INF/U" })
  contains(s:run("move cav woods plan"), "10\" in the open; 2\" all in woods (at most 2\" inside " ..
    "woods for CAV/U, Table 5)")
  contains(s:run("move tk woods plan"), "2\" all in woods (at most 2\"")
  contains(s:run("move inf woods plan"), "3\" all in woods")
end)

test("a refused charge under 2\" says the distance as rounded (4.4, 1.2)", function()
  local s = h.game({ "r1 cav Cav type=CAV/U", "b1 foe Foe type=INF/U" })
  contains(s:fails("charge cav foe 1.4"), "1.4\" rounds to 1\" (1.2)")
  contains(s:fails("charge cav foe 1"), "1\" is less")
  contains(s:fails("charge cav foe 1"), "`move cav`")
  contains(s:run("charge cav foe 1.5 plan"), "charges Foe")
end)

test("option charge_bonus_targets no_elephants: war elephants do not deny the charge bonus (4.4; AMB-22)", function()
  local s = h.game({ "r1 cav Cav type=CAV/U", "b1 ele Elephants type=PKE elephant=true",
    "b1 pke Pikes type=PKE" })
  contains(s:run("charge cav ele 6 plan"), "no charge bonus against the front of PKE")
  s:run("option set charge_bonus_targets no_elephants")
  local out = s:run("charge cav ele 6")
  contains(out, "war elephants do not deny the charge bonus (4.4; option charge_bonus_targets no_elephants)")
  contains(out, "charge bonus if contact is made this turn")
  ok(s:has("cav", "charge_bonus"))
  s:run("undo")
  contains(s:run("charge cav pke 6 plan"), "no charge bonus against the front of PKE")
end)
