-- Veterans (the demo's house rule): a veteran firer adds +1 to hit; no one else does.

local function game()
  local s = session { ruleset = "demo", house = { "veterans" } }
  s:run("add side red Red")
  s:run("add side blue Blue")
  s:run("add command red r1 R")
  s:run("add command blue b1 B")
  s:run("add unit r1 vets Vets quality=veteran")
  s:run("add unit r1 raw Raw quality=green")
  s:run("add unit b1 spears Spears sp=3")
  return s
end

test("a veteran's 3 becomes 4 and hits; a green unit's 3 misses (4+ to hit)", function()
  local s = game()
  s:dice(3)
  local out = s:run("shoot vets spears")
  contains(out, "3  to hit: 1d6 [3] (5.2.1)")
  contains(out, "+1  veteran firer (house rule)")
  contains(out, "Vets [vets] hits (4)")
  eq(s:get("spears", "sp"), 2)
  s:dice(3)
  local miss = s:run("shoot raw spears")
  ok(not miss:find("veteran firer", 1, true))
  contains(miss, "Raw [raw] misses (3)")
  eq(s:get("spears", "sp"), 2)
end)

test("house off veterans: the veteran's 3 misses again", function()
  local s = game()
  s:run("house off veterans")
  s:dice(3)
  local out = s:run("shoot vets spears")
  ok(not out:find("veteran firer", 1, true))
  contains(out, "Vets [vets] misses (3)")
end)
