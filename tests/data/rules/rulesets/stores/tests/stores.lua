test("a table read from the store writes through at any depth; undo takes it back", function()
  local s = session { ruleset = "stores" }
  eq(s:run("reserve red"), "1 in reserve")
  eq(s:run("reserve red"), "2 in reserve")
  eq(s:run("reserve blue"), "3 in reserve")
  local r = s:stored("stores", "reserves")
  eq(r.red[2], "r2")
  eq(r.blue[1], "r1")
  s:run("undo")
  eq(s:stored("stores", "reserves").blue, nil)
end)

test("read, change, assign back still works", function()
  local s = session { ruleset = "stores" }
  eq(s:run("oldway"), "1")
  eq(s:run("oldway"), "2")
end)

test("a view stored elsewhere is stored as its data, not as a link", function()
  local s = session { ruleset = "stores" }
  eq(s:run("nest"), "1 9")
end)

test("writing into a table no longer in the store is an error", function()
  local s = session { ruleset = "stores" }
  contains(s:fails("gone"), "store.c: this table is no longer in the store")
end)
