-- The Forces of Light and Darkness in miniature: formed troops shooting a bucket of d6 to hit,
-- the hits rolled again to penetrate natural then additive armour, the sixes of the last roll
-- counting double (25.2-25.4, 27). Ranks are elements with their figures. A test ruleset for
-- the rules API, not the whole game.

umpire.ruleset {
  name = "fld_bucket",
  doc = "FLD in miniature: shooting buckets, penetration, integrity (25, 27)",
  schema = {
    unit = {
      shooting = { type = "int", min = 1, max = 6, default = 3, doc = "shooting factor (25.3)" },
      weapon = { type = "choice", values = { "sb", "lb", "xb" }, default = "lb", doc = "25.6" },
      natural = { type = "int", min = 0, max = 6, default = 0, doc = "natural armour" },
      additive = { type = "int", min = 0, max = 6, default = 0, doc = "additive armour" },
      integrity = { type = "int", min = -200, max = 200, default = 20, doc = "falls by hit points" },
    },
    element = { figures = { type = "int", min = 0, max = 40, default = 0, doc = "figures in the rank" } },
  },
}

local WEAPONS = { sb = { strength = 2, to_hit = 1 }, lb = { strength = 4, to_hit = 0 }, xb = { strength = 3, to_hit = 0 } }
-- 27: CombatTable(own strength, opponent's armour) = GRID[own][armour] (FLD-D01).
local GRID = { { 4, 5, 5, 6, 6, 6 }, { 4, 4, 5, 5, 6, 6 }, { 3, 4, 4, 5, 5, 6 },
               { 3, 3, 4, 4, 5, 5 }, { 2, 3, 3, 4, 4, 5 }, { 2, 3, 3, 3, 4, 4 } }
local function clamp(n) return math.max(1, math.min(6, n)) end

umpire.option {
  name = "figure_loss", default = "none",
  choices = { { "none", "hit points come off integrity only; figures stay (FLD-D33)" },
              { "rear_first", "each hit point also takes a figure from the rearmost rank" } },
  doc = "whether hits remove figures", rule = "25.4; FLD-D33",
}

umpire.command {
  name = "shoot",
  help = "formed troops shoot a bucket of d6: to hit, then penetrate natural and additive armour",
  args = { { name = "shooter", type = "unit" }, { name = "target", type = "unit" },
           { name = "cover", type = "flag", help = "target in cover (+2)" } },
  run = function(ctx, args)
    local s, t = args.shooter, args.target
    local w = WEAPONS[s.weapon]
    local ranks = s:elements("figures>0")
    local front, second = ranks[1], ranks[2]
    if not front then umpire.fail(s.name .. " has no figures to shoot") end
    local need = 7 - s.shooting - w.to_hit + (args.cover and 2 or 0)        -- 25.3, FLD-D08
    local hit = ctx:check("Shooting 25.3: " .. s.name .. " at " .. t.name)
    local _, r1 = hit:roll(front.figures .. "d6>=" .. need, "front rank", "25.2")
    local last, hits = { r1 }, r1.successes
    if second and second.figures >= 2 then                                    -- FLD-D30
      local _, r2 = hit:roll(second.figures // 2 .. "d6>=" .. need + 2, "second rank, +2", "25.2-25.3")
      last[2], hits = r2, hits + r2.successes
    end
    hit:result(hits .. " hits")
    for _, armour in ipairs({ "natural", "additive" }) do                    -- 25.4, FLD-D05/D06
      if hits > 0 and t[armour] > 0 then
        local p = ctx:check("Penetration 25.4: " .. armour .. " armour " .. t[armour])
        local _, r = p:roll(hits .. "d6>=" .. GRID[clamp(w.strength)][clamp(t[armour])], "the hits again", "27")
        last, hits = { r }, r.successes
        p:result(hits .. " penetrate")
      end
    end
    local sixes = 0
    for _, r in ipairs(last) do sixes = sixes + r:count(function(d) return d.success and d.value == 6 end) end
    local hp = ctx:check("Hit points 25.4")
    hp:add(hits, "hits that got through")
    hp:add(sixes, "sixes of the last roll", "FLD-D07")
    t:add("integrity", -hp:total(), "hit by " .. s.name .. " (25.4)")
    if umpire.option("figure_loss") == "rear_first" then
      local left = hp:total()
      local tr = t:elements("figures>0")
      for i = #tr, 1, -1 do
        local take = math.min(left, tr[i].figures)
        if take > 0 then tr[i]:add("figures", -take, "casualties, rear rank first (option figure_loss)") end
        left = left - take
        if tr[i].figures == 0 then tr[i]:remove("rank emptied") end
      end
    end
    return hp:total() .. " hit points"
  end,
}
