-- Veterans: veteran firers add +1 to hit (a house rule for the demo ruleset).
-- Switch it on with `house on veterans`; it hooks into the demo's shooting check.

umpire.hook("shooting.modifiers", function(c, ctx)
  local firer = ctx.args and ctx.args.firer
  if firer and firer.quality == "veteran" then
    c:add(1, "veteran firer", "house rule")
  end
end)
