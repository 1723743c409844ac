-- The integrity test of Undying Lands (23), vignette by vignette, with queued dice.

local function tu(mounted)
  local s = session { ruleset = "ul_integrity" }
  s:run("add side red Red")
  s:run("add command red w1 Wing")
  s:run("add unit w1 gal Galatians" .. (mounted and " mounted=true" or ""))
  s:run("add element gal v1 First ip=12")
  s:run("add element gal v2 Second ip=6")
  s:run("add element gal v3 Third ip=3")
  return s
end

test("each vignette tests against its own IP: pass, repulsed, breaks (23.2, 23.3)", function()
  local s = tu()
  -- v1: 7 + 2 (unsupported) = 9 <= 12 passes; v2: 6 + 2 + 2 (enemy 8 > 6) = 10 > 6 repulsed,
  -- back 1d8 = 5; v3: 10 + 2 + 2 = 14, 11 over IP 3: breaks and routs.
  s:dice(7, 6, 5, 10)
  local out = s:run("integrity gal 8 unsupported")
  contains(out, "=   9  passes: 9 is not over IP 12")
  contains(out, "+2  melee opponents have more IP (8 > 6) (23.2; UL-D31)")
  contains(out, "=  10  repulsed: 10 over IP 6; back Tactical Move + 5 cm (23.3)")
  contains(out, "=  14  breaks and routs: 14 is 10 or more over IP 3 (23.3)")
  ok(not s:has("v1", "disordered"))
  ok(s:has("v2", "disordered") and s:has("v2", "repulsed"))
  contains(out, "1 of 3 vignettes routed")
  s:dice(1, 1)                                   -- the routed vignette has left play
  contains(s:run("integrity gal"), "0 of 2 vignettes routed")
end)

test("a vignette repulsed before adds 5; Mounted go back 1d12; undo brings a routed vignette back", function()
  local s = tu(true)
  s:dice(1, 1, 1)
  s:run("integrity gal")                         -- all pass: 1 <= IP
  s:run("mark v2 repulsed")
  s:dice(2, 2, 11, 1)
  local out = s:run("integrity gal flank_other")
  -- v2: 2 + 5 (repulsed) + 5 (flank) = 12 > 6, 6 over: repulsed, back 1d12 = 11
  contains(out, "+5  previously repulsed (23.2)")
  contains(out, "=  12  repulsed: 12 over IP 6; back Tactical Move + 11 cm (23.3)")
  -- v3: 1 + 5 = 6 > 3
  contains(out, "=   6  repulsed")
  -- v1: 10 + 10 = 20, 8 over IP 12: repulsed (back 4); v2 and v3 break.
  s:dice(10, 4, 10, 10)
  out = s:run("integrity gal flank_close")
  contains(out, "=  20  repulsed: 20 over IP 12; back Tactical Move + 4 cm (23.3)")
  contains(out, "2 of 3 vignettes routed")
  s:run("undo")
  eq(s:get("v3", "ip"), 3)
end)

test("the two flank lines exclude each other (UL-D12)", function()
  local s = tu()
  contains(s:fails("integrity gal flank_close flank_other"), "exclude each other (UL-D12)")
end)
