-- With every house rule switched on and then off again, OLAB behaves exactly as before: the same
-- commands with the same seed print the same, change the same and leave the same store.

local HOUSE = { "ambushes", "heroes", "ko_fire", "magic", "suppressive_fire" }

local SETUP = {
  "add side red Red", "add side blue Blue",
  "add command red r1 Reds", "add command blue b1 Blues",
  "add unit r1 tiger Tiger type=TNK sp=9 sp_start=9 armour=heavy speed=slow weapon=bl_80_130",
  "add unit r1 mg MG type=SKI/S sp=6 sp_start=6",
  "add unit r1 leg Legio type=INF/A sp=6 sp_start=6 hero=true",
  "add unit b1 t34 T-34 type=TNK sp=8 sp_start=8 armour=medium speed=medium weapon=bl_to79",
  "add unit b1 rifles Rifles type=INF/U sp=5 sp_start=5 weapon=rifle",
  "add unit b1 wbd Warband type=WBD sp=5 sp_start=5 main_character=true",
  "add unit b1 mage Mage type=INF/U sp=4 sp_start=4 magic_user=true",
}

local PLAY = {
  "next", "next", "move wbd 6", "move rifles 3 woods 3", "next",
  "shoot tiger t34 40 flank", "shoot mg rifles 20", "shoot t34 leg 30",
  "next", "cc leg wbd charge", "next", "morale all", "dispute test leg", "sp all", "pcp all",
  "next", "next", "next", "initiative", "move wbd 6", "shoot rifles mg 10",
  "status", "actions all",
}

local function play(with_house)
  local s = session { ruleset = "olab", seed = 1234 }
  if with_house then
    for _, h in ipairs(HOUSE) do s:run("house on " .. h) end
    for _, h in ipairs(HOUSE) do s:run("house off " .. h) end
  end
  local out = {}
  for _, line in ipairs(SETUP) do s:run(line) end
  for _, line in ipairs(PLAY) do
    local ok, text = pcall(s.run, s, line)
    if not ok then text = "failed: " .. tostring(text):match("^[^\n]*") end
    out[#out + 1] = "> " .. line .. "\n" .. text
  end
  return s, table.concat(out, "\n")
end

test("every house rule on then off: OLAB plays exactly as if none had been", function()
  local plain, a = play(false)
  local housed, b = play(true)
  if a ~= b then
    local la, lb = {}, {}
    for l in (a .. "\n"):gmatch("(.-)\n") do la[#la + 1] = l end
    for l in (b .. "\n"):gmatch("(.-)\n") do lb[#lb + 1] = l end
    for i = 1, math.max(#la, #lb) do
      if la[i] ~= lb[i] then error("first difference at line " .. i .. ":\n  plain: " ..
        tostring(la[i]) .. "\n  house on/off: " .. tostring(lb[i]), 0) end
    end
  end
  for _, id in ipairs({ "tiger", "mg", "leg", "t34", "rifles", "wbd", "mage" }) do
    eq(housed:get(id, "sp"), plain:get(id, "sp"))
    eq(table.concat(housed:markers(id), ","), table.concat(plain:markers(id), ","))
  end
  ok(#a > 2000)

end)
