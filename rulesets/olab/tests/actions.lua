-- The action limit (2.1.1).
test("a new stand has two actions left", function()
  local s = session { ruleset = "olab" }
  s:run("add side red Red")
  s:run("add command red c1 First")
  s:run("add unit c1 s1 Legionaries type=INF/A sp=7 sp_start=7")
  contains(s:run("actions s1"), "used: none")
  contains(s:run("actions s1"), "2 left")
end)
