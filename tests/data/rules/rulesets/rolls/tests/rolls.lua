-- Rolls as objects and opposed checks (rulesets/README.md: Dice, Checks, Opposed checks).

local function game()
  local s = session { ruleset = "rolls" }
  s:run("add side red Red")
  s:run("add command red rc R")
  s:run("add unit rc a Anna skill=2")
  s:run("add unit rc b Boris skill=2")
  return s
end

-- n dice showing v each, for s:dice.
local function times(n, v, list)
  list = list or {}
  for _ = 1, n do list[#list + 1] = v end
  return list
end

test("an FLD bucket: 36d6>=4, the hits again on 5+, sixes of the last roll add hits", function()
  local s = game()
  -- to hit: six 6s, five 5s, four 4s (15 hits) and 21 misses
  local q = times(6, 6)
  times(5, 5, q)
  times(4, 4, q)
  times(21, 1, q)
  -- penetration: four 6s, three 5s (7 through) and eight 2s
  times(4, 6, q)
  times(3, 5, q)
  times(8, 2, q)
  s:dice(table.unpack(q))
  local out = s:run("fire 36")
  local f = s:stored("rolls", "fire")
  eq(f.bucket, 36)
  eq(f.hits, 15)
  eq(f.expr, "15d6>=5")
  eq(f.again, 15)
  eq(f.penetrating, 7)
  eq(f.sixes, 4)
  eq(f.high, 7)
  eq(f.total, 11)
  -- big buckets are summed up on their line
  contains(out, "to hit: 36d6>=4 [15 successes, 6 sixes] (4.1)")
  contains(out, "penetration: 15d6>=5 [7 successes, 4 sixes] (4.2)")
end)

test("an FLD bucket without hits rolls nothing again", function()
  local s = game()
  s:dice(table.unpack(times(12, 3)))
  local out = s:run("fire 12")
  local f = s:stored("rolls", "fire")
  eq(f.hits, 0)
  eq(f.expr, "0")
  eq(f.total, 0)
  contains(out, "to hit: 12d6>=4 [3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3] (4.1)")
end)

test("OpenD6: a tie rolls again; a first Wild Die of 1 scores 0", function()
  local s = game()
  -- Anna 3 + 4 + Wild 6 then 2 = 15; Boris 5 + 5 + Wild 5 = 15: a tie, rolled again.
  -- Anna 6 + 6 + Wild 1: a critical failure, 0; Boris 2 + 2 + Wild 3 = 7.
  s:dice(3, 4, 6, 2, 5, 5, 5, 6, 6, 1, 2, 2, 3)
  local out = s:run("oppose a b again")
  local o = s:stored("rolls", "oppose")
  eq(o.winner, "b")
  eq(o.a, 0)
  eq(o.b, 7)
  eq(o.margin, 7)
  eq(o.ties, 1)
  eq(o.tie, false)
  eq(o.attempts, 2)
  contains(out, "Wild Die: 1d6! [6!, 2] (2.2)")
  contains(out, "Opposed test 2.4: a 15 v b 15 → tie at 15: roll again (2.4)")
  contains(out, "Opposed test 2.4: a 0 v b 7 → b by 7 (2.4)")
  contains(out, "critical failure")
end)

test("OpenD6: what a tie means, per test", function()
  local s = game()
  local tie = { 3, 3, 4, 3, 3, 4 }   -- 10 v 10
  s:dice(table.unpack(tie))
  s:run("oppose a b none")
  local o = s:stored("rolls", "oppose")
  eq(o.winner, "none")
  eq(o.winners, 0)
  eq(o.tie, true)
  eq(o.margin, 0)
  s:dice(table.unpack(tie))
  contains(s:run("oppose a b both"), "tie at 10: both win")
  eq(s:stored("rolls", "oppose").winners, 2)
  s:dice(table.unpack(tie))
  s:run("oppose a b first")
  eq(s:stored("rolls", "oppose").winner, "a")
  s:dice(table.unpack(tie))
  s:run("oppose a b second")
  eq(s:stored("rolls", "oppose").winner, "b")
  -- no tie: the higher total wins by the difference
  s:dice(6, 5, 4, 1, 2, 3)
  s:run("oppose a b none")
  o = s:stored("rolls", "oppose")
  eq(o.winner, "a")
  eq(o.margin, 9)
end)

test("checks made first are compared as they are", function()
  local s = game()
  local out = s:run("compare 3 5")
  eq(s:stored("rolls", "compare").winner, 2)
  eq(s:stored("rolls", "compare").margin, 2)
  contains(out, "Opposed: Red 3 v Blue 5 → Blue by 2")
  s:run("compare 4 4")
  eq(s:stored("rolls", "compare").name, "Blue")
end)

test("misuse is an error that says what to write", function()
  local s = game()
  contains(s:fails("misuse notie"), "the tie rule is missing")
  contains(s:fails("misuse again"), "function(attempt)")
  s:dice(1, 2)
  contains(s:fails("misuse count"), "r:count(6)")
  s:dice(1, 2)
  contains(s:fails("misuse again_die"), "r:again(die)")
  contains(s:fails("stuck"), "still tied after 3 rolls")
end)
