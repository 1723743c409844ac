-- A test ruleset for roll objects and opposed checks (tests/rolls.rs runs tests/rolls.lua
-- beside it): an FLD-style fire bucket and OpenD6-style opposed tests with a Wild Die.

umpire.ruleset {
  name = "rolls",
  doc = "buckets of dice and opposed Wild Die tests (a test of rolls as objects)",
  schema = {
    unit = {
      skill = { type = "int", min = 1, max = 12, default = 2, doc = "skill dice besides the Wild Die" },
      hp = { type = "int", min = 0, max = 30, default = 3, doc = "hit points" },
    },
    status = { strength = "hp" },
  },
}

-- FLD-style fire (4.1-4.3): a bucket of d6 hits on 4+, the hits are rolled again and
-- penetrate on 5+, and each six of that last roll is one more hit.
umpire.command {
  name = "fire",
  help = "a bucket of N d6: hits on 4+, penetration on 5+, sixes of the penetration roll add a hit",
  args = { { name = "dice", type = "int", help = "how many d6 in the bucket" } },
  run = function(ctx, args)
    local hit = ctx:check("Fire 4.1: to hit")
    local _, h = hit:roll(args.dice .. "d6>=4", "to hit", "4.1")
    hit:result(h.successes .. " hits")
    local pen = ctx:check("Fire 4.2: penetration")
    local _, p = pen:roll(h:again("d6>=5"), "penetration", "4.2")   -- the hits rolled again
    local sixes = p:count(6)
    pen:add(sixes, "sixes of the penetration roll", "4.3")
    pen:result(pen:total() .. " hits")
    store.fire = {
      hits = h.successes, penetrating = p.successes, sixes = sixes, total = pen:total(),
      bucket = #h.dice, again = #p.dice, expr = p.expr,
      high = p:count(function(d) return d.success and d.value >= 5 end),
    }
  end,
}

-- One soldier's OpenD6 roll: skill dice and an open-ended Wild Die (a 6 adds and rolls
-- again); a first Wild Die of 1 is a critical failure that scores 0.
local function soldier(ctx, u, attempt)
  return function(n)
    local c = ctx:check(u.name .. (n > 1 and (", roll " .. n) or ""))
    c:roll(u.skill .. "d6", "skill dice", "2.1", u)
    local _, w = c:roll("1d6!", "Wild Die", "2.2", u)
    if w.dice[1].value == 1 then
      c:add(-c:total(), "critical failure: the Wild Die's first roll is 1", "2.3")
    end
    attempt[u.id] = n
    return c
  end
end

umpire.command {
  name = "oppose",
  help = "an opposed OpenD6 test between two soldiers; TIE says what a tie means",
  args = {
    { name = "a", type = "unit" },
    { name = "b", type = "unit" },
    { name = "tie", type = "choice", values = { "again", "none", "both", "first", "second" } },
  },
  run = function(ctx, args)
    local attempts = {}
    local o = ctx:opposed(soldier(ctx, args.a, attempts), soldier(ctx, args.b, attempts), {
      tie = args.tie, names = { args.a.id, args.b.id }, title = "Opposed test 2.4", rule = "2.4",
    })
    local winners = {}
    for i, w in ipairs(o.winners) do winners[i] = w end
    store.oppose = {
      winner = o.name or "none", margin = o.margin, tie = o.tie, ties = o.ties,
      a = o.totals[1], b = o.totals[2], winners = #winners, attempts = attempts[args.a.id],
    }
  end,
}

-- Opposed checks made first, then compared (no rolling again).
umpire.command {
  name = "compare",
  help = "two fixed checks compared",
  args = { { name = "x", type = "int" }, { name = "y", type = "int" } },
  run = function(ctx, args)
    local a = ctx:check("Red")
    a:add(args.x, "strength")
    local b = ctx:check("Blue")
    b:add(args.y, "strength")
    local o = ctx:opposed(a, b, { tie = "second" })
    store.compare = { winner = o.winner, name = o.name, margin = o.margin }
  end,
}

-- Misuses, for their error messages.
umpire.command {
  name = "misuse",
  args = { { name = "how", type = "choice", values = { "notie", "again", "count", "again_die" } } },
  run = function(ctx, args)
    local a, b = ctx:check("A"), ctx:check("B")
    if args.how == "notie" then ctx:opposed(a, b, {}) end
    if args.how == "again" then ctx:opposed(a, b, { tie = "again" }) end
    local _, r = umpire.roll("2d6")
    if args.how == "count" then r:count("six") end
    if args.how == "again_die" then r:again(6) end
  end,
}

-- A tie that never ends.
umpire.command {
  name = "stuck",
  run = function(ctx)
    local function side(name) return function() local c = ctx:check(name) c:add(1, "one") return c end end
    ctx:opposed(side("A"), side("B"), { tie = "again", max = 3 })
  end,
}
