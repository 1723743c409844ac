-- Ch1 Skill Tests [§2.6]: the open-ended roll, straight tests, opposed tests.

local U = require "opend6fm.util"

-- "test 4 8", "test 4 8 +1" or "test ice.2 marksmanship 8"
umpire.command {
  name = "test",
  help = "a straight skill test: an open-ended d6 + skill against a difficulty (Ch1 Straight Skill Tests): "
    .. "test 4 8 · test 3 6 -1 · test rangers.3 marksmanship 8",
  args = { { name = "what", type = "text", help = "SKILL DIFFICULTY [MODIFIER], or SQUAD.SOLDIER SKILL DIFFICULTY [MODIFIER]" } },
  run = function(ctx, args)
    local w = {}
    for x in args.what:gmatch("%S+") do w[#w + 1] = x end
    local skill, diff, mod, who, factors, label
    if tonumber(w[1]) then
      skill, diff, mod = tonumber(w[1]), tonumber(w[2]), tonumber(w[3] or "0")
      label = "skill " .. skill
      factors = {}
    else
      local e = umpire.element(w[1] or "")
      if not e then umpire.fail("test: `" .. tostring(w[1]) .. "` is neither a number nor a soldier (SQUAD.SOLDIER)") end
      if not w[2] then umpire.fail("test: name the skill (" .. table.concat(U.SKILLS, ", ") .. ")") end
      local base = U.base_skill(e, w[2])
      skill, factors = U.skill(e, w[2])
      diff, mod, who, label = tonumber(w[3] or ""), tonumber(w[4] or "0"), e, e.name .. " " .. w[2] .. " " .. base
      skill = base
    end
    if not diff then umpire.fail("test: give the difficulty, a number (test 4 8)") end
    if not mod then umpire.fail("test: the modifier must be a number (+1, -2)") end
    local c = ctx:check("Straight test v difficulty " .. diff .. " (Ch1 Straight Skill Tests)")
    local _, r = c:roll("1d6!", "open-ended d6", "Ch1 Critical Successes", who)
    c:add(skill, label)
    for _, f in ipairs(factors) do c:add(f[1], f[2], f[3]) end
    if mod ~= 0 then c:add(mod, "modifier") end
    local crit = r.dice[1].value == 1 and "failure" or (r.dice[1].value == 6 and "success" or nil)
    if crit == "failure" then c:add(-c:total(), "critical failure: the score is 0", "Ch1 Critical Failures") end
    local score = c:total()
    local pass = score >= diff
    c:result((pass and "success" or "failure") .. (crit and (" (critical " .. crit .. ")") or ""))
    umpire.record("score", score); umpire.record("difficulty", diff); umpire.record("success", pass)
    umpire.record("critical", crit or "none"); umpire.record("dice", r[1] and (function() local t = {} for _, d in ipairs(r.dice) do t[#t+1] = d.value end return t end)() or {})
    return score .. " v " .. diff .. ": " .. (pass and "success" or "failure") .. (crit and (" (critical " .. crit .. ")") or "")
  end,
}

umpire.command {
  name = "opposed",
  help = "an opposed test: each side rolls open-ended + its value; what a tie means depends on the test "
    .. "(Ch1 Opposed Tests): opposed 5 3 · opposed 4 4 tie=again (initiative) · tie=first (damage)",
  args = { { name = "a", type = "int", help = "the first side's value" },
           { name = "b", type = "int", help = "the second side's value" },
           { name = "tie", type = "text", optional = true, help = "tie=none (close combat, morale, rally), tie=again (initiative), tie=first (damage: DS wins)" } },
  run = function(ctx, args)
    local o = U.opts(args.tie, { tie = { "none", "again", "first", "second" } }, "opposed")
    local function side(v, n)
      return function(attempt)
        local c = ctx:check(n .. (attempt > 1 and " again" or "") .. " (Ch1 Opposed Tests)")
        U.open(c, v, "value " .. v)
        return c
      end
    end
    local r = ctx:opposed(side(args.a, "A"), side(args.b, "B"),
      { tie = o.tie or "none", names = { "A", "B" }, title = "Opposed", rule = "Ch1 Opposed Tests" })
    umpire.record("scores", r.totals); umpire.record("winner", r.name or "none"); umpire.record("margin", r.margin)
    return r.winner and (r.name .. " wins by " .. r.margin) or "tie: no effect"
  end,
}
