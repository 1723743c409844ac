-- Undying Lands in miniature: the integrity test, taken by each vignette of a Tactical Unit
-- against its own Integrity Points (section 23). A test ruleset for the rules API (vignettes as
-- elements with their own IP and markers, removed when they rout), not the whole game.

umpire.ruleset {
  name = "ul_integrity",
  doc = "Undying Lands in miniature: integrity tests per vignette (23)",
  schema = {
    unit = { mounted = { type = "flag", doc = "Mounted: repulsed 1d12 cm, not 1d8 (UL-D23)" } },
    element = { ip = { type = "int", min = -40, max = 60, default = 10, doc = "Integrity Points" } },
    markers = {
      disordered = "disordered (24)",
      repulsed = "previously repulsed: +5 to later integrity tests (23.2)",
    },
  },
}

umpire.command {
  name = "integrity",
  help = "an integrity test for each vignette of a TU (23): d10 + modifiers against its IP",
  args = {
    { name = "unit", type = "unit", help = "the Tactical Unit" },
    { name = "enemy_ip", type = "int", optional = true, help = "IP of the enemy vignettes in contact (UL-D31)" },
    { name = "charged", type = "flag", help = "Loose or Open Foot charged by Behemoth or Mounted" },
    { name = "unsupported", type = "flag", help = "no friendly support (23.2)" },
    { name = "flank_close", type = "flag", help = "Close order, contacted in flank or rear by equal or more IP" },
    { name = "flank_other", type = "flag", help = "contacted in flank or rear otherwise (25% of its IP)" },
  },
  run = function(ctx, args)
    if args.flank_close and args.flank_other then
      umpire.fail("flank_close and flank_other exclude each other (UL-D12)")
    end
    local vignettes = args.unit:elements()
    if #vignettes == 0 then umpire.fail(args.unit.name .. " has no vignettes") end
    local routed = 0
    for _, v in ipairs(vignettes) do
      local c = ctx:check("Integrity 23: " .. v.name)
      c:roll("1d10", "d10", "23.2")
      if args.charged then c:add(3, "Loose or Open Foot charged by Behemoth or Mounted", "23.2") end
      if args.enemy_ip and args.enemy_ip > v.ip then
        c:add(2, "melee opponents have more IP (" .. args.enemy_ip .. " > " .. v.ip .. ")", "23.2; UL-D31")
      end
      if args.unsupported then c:add(2, "unsupported", "23.2") end
      if v:has("repulsed") then c:add(5, "previously repulsed", "23.2") end
      if args.flank_close then c:add(10, "Close order contacted in flank or rear", "23.2; UL-D12") end
      if args.flank_other then c:add(5, "contacted in flank or rear", "23.2; UL-D12") end
      local score, ip = c:total(), v.ip
      if score - ip >= 10 then
        c:result("breaks and routs: " .. score .. " is 10 or more over IP " .. ip .. " (23.3)")
        v:remove("broke and routed (23.3)")
        routed = routed + 1
      elseif score > ip then
        local back = umpire.roll(args.unit.mounted and "1d12" or "1d8")
        c:result("repulsed: " .. score .. " over IP " .. ip .. "; back Tactical Move + " .. back .. " cm (23.3)")
        if not v:has("disordered") then v:mark("disordered", "repulsed (23.3)") end
        if not v:has("repulsed") then v:mark("repulsed", "repulsed (23.3)") end
      else
        c:result("passes: " .. score .. " is not over IP " .. ip)
      end
    end
    return routed .. " of " .. #vignettes .. " vignettes routed"
  end,
}
