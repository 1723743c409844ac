-- A ruleset with markers for the umpire only (`spotted`), markers that hide a unit from the
-- players (`lurking`), a secret argument and a command for the umpire alone: the live board's
-- and the reports' tests of what stays secret.
umpire.ruleset {
  name = "sec", doc = "secrets under test",
  schema = {
    unit = { sp = { type = "int", min = 0, max = 6, default = 4 } },
    markers = {
      lurking = { doc = "off the players' board", hides = true },
      spotted = { doc = "the umpire knows where it is", secret = true },
      shaken = "plain to see",
    },
    status = { strength = "sp", max = 6 },
  },
}
umpire.command {
  name = "hide",
  args = { { name = "unit", type = "unit" }, { name = "place", type = "text", secret = true } },
  run = function(ctx, args)
    secret.place = args.place
    store.hides = (store.hides or 0) + 1
    return "hidden; the place is kept secret"
  end,
}
umpire.command {
  name = "scout", secret = true,
  run = function(ctx)
    local r = umpire.roll("1d6")
    store.scouted = r
    return "umpire only: the scouts saw the ford at the old mill"
  end,
}
