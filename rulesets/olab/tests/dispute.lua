-- Disputes (PN 1.3).

local function game(opts)
  local s = session(opts or { ruleset = "olab" })
  s:run("add side red Red")
  s:run("add side blue Blue")
  s:run("add command red rc R")
  s:run("add command blue bc B")
  s:run("add unit rc hero Sharpe type=SKI/M hero=true")
  s:run("add unit bc foe Foe type=INF/U")
  return s
end

test("opposed: the higher D6 wins, ties roll again (1.3, AMB-33)", function()
  local s = game()
  s:dice(4, 4, 2, 5)
  local out = s:run("dispute")
  contains(out, "tie at 4")
  contains(out, "blue wins the dispute")
end)

test("a test succeeds on 4+, a Hero adds 1 (1.3, 8.8.4)", function()
  local s = game()
  s:dice(4, 3, 3)
  contains(s:run("dispute test"), "yes")
  contains(s:run("dispute test foe"), "no")
  local out = s:run("dispute test hero")
  contains(out, "+1  Hero (1.3, 8.8.4)")
  contains(out, "yes")
end)

test("2E has no dispute rule", function()
  local s = game({ ruleset = "olab", variant = "2e" })
  contains(s:fails("dispute"), "no dispute rule")
end)
