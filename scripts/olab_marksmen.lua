-- An example OLAB house rule: elite stands shoot better. It shows how a house rule adds a line
-- to a shot at the hook point `olab.shooting.modifiers` (after Tables 7 and 8) without editing
-- the ruleset. `house on olab_marksmen` switches it on.
umpire.hook("olab.shooting.modifiers", function(c, ctx)
  -- `shoot` names its firer `firer`; pre-contact fire names it `defender`.
  local firer = ctx.args.firer or ctx.args.defender
  if firer and firer.quality == "elite" then
    c:add(1, "elite marksmen", "house rule")
  end
end)
