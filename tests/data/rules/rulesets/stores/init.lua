-- A test ruleset for the store (tests/stores.rs runs tests/stores.lua beside it): tables read
-- from the store are views that write through, at any depth.

umpire.ruleset { name = "stores", doc = "store writes at any depth (a test of the store)" }

umpire.command {
  name = "reserve",
  help = "puts a unit id into a side's reserves",
  args = { { name = "side", type = "text" } },
  run = function(ctx, args)
    store.reserves = store.reserves or {}
    store.reserves[args.side] = store.reserves[args.side] or {}
    table.insert(store.reserves[args.side], "r" .. #store.reserves[args.side] + 1)
    local n = 0
    for side, list in pairs(store.reserves) do n = n + #list end
    return n .. " in reserve"
  end,
}

umpire.command {
  name = "oldway",
  help = "the old way still works: read, change, assign back",
  run = function()
    local t = store.counts or {}
    t.n = (t.n or 0) + 1
    store.counts = t
    return tostring(store.counts.n)
  end,
}

umpire.command {
  name = "nest",
  help = "a view put inside a new table is stored as the data it stands for",
  run = function()
    store.a = { x = { 1, 2 } }
    store.b = { copy = store.a.x }
    store.a.x[1] = 9
    return store.b.copy[1] .. " " .. store.a.x[1]
  end,
}

umpire.command {
  name = "gone",
  run = function()
    store.c = { d = { e = 1 } }
    local d = store.c.d
    store.c = 5
    d.e = 2
  end,
}
