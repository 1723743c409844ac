-- Command and control (4.1.2) and replacing a fallen General (7.4).
--
-- The umpire measures; the script decides. `incommand UNIT GAP` takes the longest gap (in
-- inches, base edge to base edge) along the best chain of friendly stands from the stand to
-- its Command's General (or the straight distance to the General). A side's communications
-- are its `comms` attribute (army files set it; `comms SIDE LEVEL` changes it) and its C-in-C
-- rating its `cinc_rating` (`cinc SIDE STAND`). Kept in the store:
--   store.attrition    = { [UNIT] = ROUND }      PN 4.1.2 loss taken this round (AMB-28)
--   store.generals_lost = { {side=, command=, id=, round=, replaced_by=}, … }   (7.4)
local arg = require "olab.args"
local util = require "olab.util"

local M = {}

-- Readings of 4.1.2, 3.3 and 7.4 the umpire may change mid-game (`option set NAME VALUE`);
-- each default is the reading README.md recommends.
umpire.option {
  name = "command_chain",
  default = "edition",
  choices = {
    { "edition", "PN: the chain ends at the stand's own Command General; 2e: at any friendly General (AMB-27)" },
    { "own_general", "in both editions, at the stand's own Command General" },
    { "any_general", "in both editions, at the nearest friendly General" },
  },
  doc = "where a stand's chain of command ends",
  rule = "4.1.2; AMB-27",
}
umpire.option {
  name = "routing_attrition",
  default = "exempt",
  choices = {
    { "exempt", "a routing stand out of command loses no SP: its move is compulsory anyway (AMB-28)" },
    { "loses", "a routing stand out of command loses 1 SP like any other" },
  },
  doc = "PN's 1 SP loss out of command for routing stands",
  rule = "PN 4.1.2; AMB-28",
}
umpire.option {
  name = "new_general_sp",
  default = "unchanged",
  choices = {
    { "unchanged", "a stand made General keeps its SP: Table 3 is applied when stands are made (AMB-45)" },
    { "plus_one", "it gains Table 3's General +1 SP (and starting SP), at most 12" },
  },
  doc = "the SP of a replacement General",
  rule = "7.4, Table 3; AMB-45",
}
umpire.option {
  name = "unnamed_cinc",
  default = "side_rating",
  choices = {
    { "side_rating", "a side with no C-in-C stand uses its `cinc_rating` as set (army file, `cinc`)" },
    { "best_general", "its best-rated General on the table serves as C-in-C for the rating" },
  },
  doc = "the C-in-C of a side whose list names none (the Rebels)",
  rule = "3.3, 7.1; AMB-45",
}

-- The C-in-C rating of a side (3.3, 7.1), as util.cinc_rating, unless the side has no stand
-- named C-in-C and option `unnamed_cinc best_general` is in force: then its best-rated General
-- on the table. Returns the modifier, a label and the stand.
function M.cinc_rating(side)
  if util.cinc(side) or umpire.option("unnamed_cinc") ~= "best_general" then
    return util.cinc_rating(side)
  end
  local best
  for _, g in ipairs(umpire.units("side:" .. side .. " general!=none off_table=no sp>0")) do
    if not best or (util.rating[g.general] or 0) > (util.rating[best.general] or 0) then best = g end
  end
  if not best then return util.cinc_rating(side) end
  local r = util.rating[best.general] or 0
  return r, "best-rated General " .. best.name .. " as C-in-C (" .. best.general ..
    ") (option unnamed_cinc best_general)", best
end

-- The C-in-C rating of a party (a team of allied sides, or a side alone; util.parties): a
-- team's is its best C-in-C's, the senior commander of the allied army (our reading: the
-- rules know one C-in-C an army). Returns the modifier and a label.
function M.party_rating(party)
  local best, best_label
  for _, side in ipairs(party.sides) do
    local r, label = M.cinc_rating(side)
    if not best or r > best then best, best_label = r, label end
  end
  if party.team and #party.sides > 1 then
    return best, best_label .. ", the best C-in-C of team " .. party.id
  end
  return best, best_label
end

-- Where the chain of command ends for side `side` (AMB-27): "own" or "any".
local function chain()
  local o = umpire.option("command_chain")
  if o == "own_general" then return "own" end
  if o == "any_general" then return "any" end
  return util.is_2e() and "any" or "own"
end

-- A side's communications: its `comms` attribute; a sci-fi side left at "none" has radio
-- (8.7.2).
function M.comms(side)
  local c = umpire.side(side).comms
  if c ~= "none" then return c, "the side's comms" end
  if umpire.count("side:" .. side .. " scifi=true") > 0 then return "radio", "sci-fi (8.7.2)" end
  return "none", "the side's comms"
end

function M.distance(side)
  local comms, why = M.comms(side)
  return util.ed(umpire.lookup("command_distance", comms)), comms, why
end

local function alive(g)
  return g ~= nil and g.sp > 0 and g.off_table ~= "eliminated" and g.general ~= "none"
end

-- The General a stand's chain of command ends at (4.1.2): its Command's `general` attribute
-- (army files set it), else a stand of its Command with a General rating, else (a Command
-- without a General of its own, like the Afrika Korps' Schützen) the side's C-in-C.
function M.general_of(u)
  local id = umpire.group(u.command).general
  if id ~= "" then
    local ok, g = pcall(umpire.unit, id)
    if ok and alive(g) then return g end
  end
  local g = umpire.units("command:" .. u.command .. " general!=none sp>0 off_table!=eliminated")[1]
  if g then return g end
  local c = util.cinc(u.side)
  if alive(c) then return c end
  return nil
end

umpire.command {
  name = "comms",
  help = "set a side's communications for the command distance (4.1.2):\n" ..
    "none 6\" (2E 4\"), telephone 12\" (8\"), radio 24\" (18\"); without LEVEL, shows it",
  args = {
    { name = "side", type = "side", help = "the side" },
    { name = "level", type = "choice", optional = true, values = { "none", "telephone", "radio" } },
  },
  run = function(ctx, args)
    local side = args.side
    if args.level and args.level ~= side.comms then
      side:set("comms", args.level, "communications set by the umpire (4.1.2)")
    end
    local d, comms, why = M.distance(side.id)
    return side.id .. ": " .. comms .. " (" .. why .. "), command distance " .. d .. "\" (4.1.2)"
  end,
}

umpire.command {
  name = "cinc",
  help = "name a side's C-in-C: flags the stand `cinc` and gives the side its General rating\n" ..
    "as the C-in-C rating (3.3, 7.1); without STAND, shows the side's C-in-C\n" ..
    "e.g. `cinc romans suetonius`",
  args = {
    { name = "side", type = "side", help = "the side" },
    { name = "stand", type = "unit", optional = true, help = "a General of that side" },
  },
  run = function(ctx, args)
    local side, g = args.side, args.stand
    if g then
      if g.side ~= side.id then umpire.fail(g.id .. " is not on " .. side.id .. "'s side") end
      if g.general == "none" then
        umpire.fail(g.id .. " is not a General: `set " .. g.id .. " general competent` first (2.1)")
      end
      for _, u in ipairs(umpire.units("side:" .. side.id .. " cinc=true")) do
        if u.id ~= g.id then u:set("cinc", false, g.name .. " is the C-in-C now") end
      end
      if not g.cinc then g:set("cinc", true, "named C-in-C by the umpire (3.3)") end
      local r = util.rating[g.general]
      if side.cinc_rating ~= r then
        side:set("cinc_rating", r, "the C-in-C " .. g.name .. " is " .. g.general .. " (3.3)")
      end
    end
    local r, label = M.cinc_rating(side.id)
    return side.id .. ": " .. label .. ", " .. string.format("%+d", r) ..
      " to initiative and morale (3.3, 7.1)"
  end,
}

umpire.command {
  name = "incommand",
  help = "is a stand within command distance of its Command's General (4.1.2)? GAP is the\n" ..
    "longest gap along the best chain of friendly stands (or the distance to the General).\n" ..
    "`after` at the end of its manoeuvre: PN, still out and not pinned, it loses 1 SP",
  args = {
    { name = "unit", type = "unit" },
    { name = "gap", type = "distance", optional = true, help = "inches, measured by the umpire" },
    { name = "pinned", type = "flag", help = "pinned in close combat (also: the engaged marker)" },
    { name = "after", type = "flag", help = "the end of its manoeuvre activation" },
  },
  run = function(ctx, args)
    local u = args.unit
    if u.type == "AIR" then return u.name .. ": AIR are never checked (4.1.2)" end
    if u.off_table ~= "no" then
      if u.off_table == "reserve" and not util.is_2e() then
        return u.name .. ": off-table reserves count as in command (PN 8.2)"
      end
      return u.name .. " is off the table (" .. u.off_table .. "): not checked"
    end
    local d, comms = M.distance(u.side)
    local c = ctx:check("Command distance 4.1.2: " .. u.name)
    local general = M.general_of(u)
    local ends = chain()
    local target = general and general.name or "a General"
    if ends == "any" then
      target = "the nearest friendly General"
      if umpire.option("command_chain") ~= "edition" then target = target .. " (option command_chain any_general)" end
    elseif util.is_2e() then
      target = target .. ", its own Command's (option command_chain own_general)"
    end
    local inside
    if u.general ~= "none" then
      c:result("a General: in command")
      inside = true
    else
      if args.gap == nil then
        umpire.fail("give GAP: the longest gap in inches from " .. u.id .. " along friendly stands " ..
          "to " .. (ends == "any" and "the nearest friendly General" or (general and general.id or
          "its General")) .. ", e.g. `incommand " .. u.id .. " 5`")
      end
      if args.gap < 0 then umpire.fail("GAP is a distance: 0 or more inches") end
      local gap = util.rhu(args.gap)
      c:add(gap, "longest gap to " .. target ..
        (gap ~= args.gap and " (rounded, 1.2)" or ""), "4.1.2; AMB-27")
      c:add(-d, "command distance, " .. comms, "4.1.2")
      inside = gap <= d
      c:result(inside and "in command" or "out of command")
      if not general and ends == "own" then
        print("note: " .. u.command .. " has no General left; `newgeneral` appoints one (7.4)")
      end
    end
    -- For programs (docs/json.md); `sp_lost` becomes 1 when PN attrition takes its SP.
    local rec = { unit = u.id, gap = args.gap and util.rhu(args.gap) or false, distance = d,
      in_command = inside, sp_lost = 0,
      general = ends == "own" and general and general.id or false }
    umpire.record("incommand", rec)
    if inside then
      if u:has("out_of_command") then u:unmark("out_of_command", "back within " .. d .. "\" (4.1.2)") end
      return u.name .. " is in command"
    end
    if not u:has("out_of_command") then
      u:mark("out_of_command", "more than " .. d .. "\" from its chain of command (4.1.2)")
    end
    local pinned = args.pinned or u:has("engaged")
    if pinned then
      return u.name .. " is out of command but pinned in close combat: no compulsory move (4.1.2)"
    end
    if not args.after then
      return u.name .. " is out of command: its move must bring it back within " .. d ..
        "\" before any shooting or close combat (4.1.2)"
    end
    if util.is_2e() then
      return u.name .. " is still out of command (2E: no SP loss)"
    end
    local routing = u:has("routed")
    if routing and umpire.option("routing_attrition") == "exempt" then
      return u.name .. " is still out of command; it is routing, so no loss (AMB-28)"
    end
    local round = umpire.clock().round
    local done = store.attrition or {}
    if done[u.id] == round then
      return u.name .. " already lost 1 SP for being out of command this round (AMB-28)"
    end
    done[u.id] = round
    store.attrition = done
    u:add("sp", -1, "still out of command after its move (PN 4.1.2; AMB-28)" ..
      (routing and ", routing as it is (option routing_attrition loses)" or ""))
    rec.sp_lost = 1
    umpire.record("incommand", rec)
    return u.name .. " stays out of command and loses 1 SP (PN 4.1.2)" ..
      (routing and " (option routing_attrition loses)" or "")
  end,
}

-- Whether a General has fallen: no SP left or eliminated.
local function fallen(g)
  return g.sp <= 0 or g.off_table == "eliminated"
end

umpire.command {
  name = "newgeneral",
  help = "replace a fallen General with another stand, rated Inferior (7.4); PN: from the\n" ..
    "same Command, for each Command; 2E: only when the army's last General has fallen",
  args = {
    { name = "old", type = "unit", help = "the fallen General" },
    { name = "new", type = "unit", help = "the stand that takes command" },
    arg.force("the umpire overrides the checks"),
  },
  run = function(ctx, args)
    local old, new = args.old, args.new
    local problems = {}
    if old.general == "none" then umpire.fail(old.id .. " is not a General") end
    if new.general ~= "none" then umpire.fail(new.id .. " is already a General") end
    if new.side ~= old.side then umpire.fail(new.id .. " is not on " .. old.side .. "'s side") end
    if not fallen(old) then problems[#problems + 1] = old.id .. " has not fallen (SP " .. old.sp .. ")" end
    if fallen(new) then problems[#problems + 1] = new.id .. " has been eliminated itself" end
    if util.is_2e() then
      for _, g in ipairs(umpire.units("side:" .. old.side .. " general!=none")) do
        if g ~= old and not fallen(g) then
          problems[#problems + 1] = "2E 7.4: " .. g.id .. " is still a General; a new one is " ..
            "named only when the last falls"
          break
        end
      end
    elseif new.command ~= old.command then
      problems[#problems + 1] = "PN 7.4: the new General comes from " .. old.command
    end
    if #problems > 0 then
      if not args.force then umpire.fail(table.concat(problems, "; ") .. "; add `force` to override") end
      print("umpire's override: " .. table.concat(problems, "; "))
    end
    local reason = "replaces " .. old.name .. " (7.4)"
    new:set("general", "inferior", reason)
    local sp_note = "SP unchanged (AMB-45)"
    if umpire.option("new_general_sp") == "plus_one" then
      local why = "a General +1 (Table 3; option new_general_sp plus_one)"
      if new.sp < 12 then new:add("sp", 1, why) end
      if new.sp_start < 12 then new:add("sp_start", 1, why) end
      sp_note = "SP +1 to " .. new.sp .. " (option new_general_sp plus_one)"
    end
    local was_cinc = old.cinc
    if was_cinc then
      new:set("cinc", true, reason .. "; the new C-in-C is Inferior (AMB-45)")
      old:set("cinc", false, "replaced as C-in-C (7.4)")
      local side = umpire.side(old.side)
      if side.cinc_rating ~= -1 then
        side:set("cinc_rating", -1, "the new C-in-C " .. new.name .. " is Inferior (7.4; AMB-45)")
      end
    end
    old:set("general", "none", "fallen; replaced by " .. new.name .. " (7.4)")
    local grp = umpire.group(new.command)
    if grp.general ~= new.id then
      grp:set("general", new.id, new.name .. " replaces " .. old.name .. " (7.4)")
    end
    local lost = store.generals_lost or {}
    lost[#lost + 1] = { side = old.side, command = old.command, id = old.id,
      round = umpire.clock().round, replaced_by = new.id }
    store.generals_lost = lost
    umpire.record("new_general", { old = old.id, new = new.id, command = new.command,
      cinc = was_cinc == true, rating = -1, sp = new.sp })
    return new.name .. " commands " .. old.command .. " as an Inferior General" ..
      (was_cinc and ", and is the C-in-C" or "") .. "; " .. sp_note
  end,
}

return M
