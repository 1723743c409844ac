-- A test ruleset for questions to the umpire (tests/asking.rs runs tests/asking.lua beside it):
-- a charge whose General may join, asked in the middle of the resolution.

umpire.ruleset {
  name = "asking",
  doc = "a charge that asks whether the General joins (a test of umpire.ask)",
  schema = {
    unit = { sp = { type = "int", min = 0, max = 12, default = 4, doc = "strength points" } },
  },
}

umpire.command {
  name = "charge",
  help = "a charge: the General may join it (+2), which the umpire decides",
  args = { { name = "unit", type = "unit" } },
  run = function(ctx, args)
    local c = ctx:check("Charge Q.1")
    c:roll("1d6", "charge die", "Q.1")
    c:add(args.unit.sp, "strength points")
    local join = umpire.ask {
      question = "Does the General join the charge?",
      choices = { "yes", "no" },
      default = "no",
      context = "charge · " .. args.unit.name,
    }
    if join == "yes" then c:add(2, "the General joins", "Q.2") end
    -- A second question with a choice of three, no default.
    local where = umpire.ask { question = "Which flank?", choices = { "left", "right", "centre" } }
    c:result("on the " .. where)
    return c:total()
  end,
}

umpire.command {
  name = "badask",
  args = { { name = "kind", type = "choice", values = { "nochoices", "baddefault", "nottable", "key" } } },
  run = function(ctx, args)
    if args.kind == "nochoices" then return umpire.ask { question = "?", choices = { "one" } } end
    if args.kind == "baddefault" then
      return umpire.ask { question = "?", choices = { "a", "b" }, default = "c" }
    end
    if args.kind == "nottable" then return umpire.ask("yes or no?") end
    return umpire.ask { question = "?", choices = { "a", "b" }, dflt = "a" }
  end,
}
