-- Setting up (FLD 14-15, UL 8): the table in squares with a d8 of terrain each, the roll-off to
-- remove or swap pieces, and the deployment roll with its flank march.
--
-- Kept in the store: store.terrain = { size = "6x4", sq = 12, cols = N, rows = N,
--   cells = { A1 = "wood", … }, rolloff = SIDE, removed = N, swapped = bool },
--   store.deploy = { winner = SIDE, loser = SIDE, margin = N, flank_march = bool }.
local util = require "fld_common.util"
local distance = require "fld_common.distance"

local M = {}

local LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

-- The terrain kinds: the d8 table's results, with a map letter.
M.KINDS = {
  open = { map = ".", text = "no terrain (open)" },
  gentle_hill = { map = "g", text = "Gentle Hill *" },
  steep_hill = { map = "S", text = "Steep Hill **" },
  wood = { map = "W", text = "Wood **" },
  built_up = { map = "B", text = "Built-up area" },
  impassable = { map = "X", text = "Impassable (mountain, highland, swamp, bog, lake, sea, major river)" },
}
M.KIND_WORDS = { "open", "gentle_hill", "steep_hill", "wood", "built_up", "impassable" }

-- A ruleset may relabel kinds (UL: a built-up area is `**`): cfg.terrain.labels = { built_up = "…" }.
local function label(cfg, kind)
  local l = cfg.terrain.labels and cfg.terrain.labels[kind]
  return l or M.KINDS[kind].text
end

local function square_name(c, r) return LETTERS:sub(c, c) .. r end

local function parse_square(t, word)
  local col, row = tostring(word or ""):upper():match("^(%u)(%d+)$")
  local c = col and LETTERS:find(col, 1, true)
  row = tonumber(row)
  if not c or c > t.cols or not row or row < 1 or row > t.rows then
    umpire.fail("terrain: `" .. tostring(word) .. "` is not a square of this table: columns A-" ..
      LETTERS:sub(t.cols, t.cols) .. ", rows 1-" .. t.rows .. " (e.g. B2)")
  end
  return square_name(c, row)
end

local function map(t)
  local lines = { "     " }
  for c = 1, t.cols do lines[1] = lines[1] .. LETTERS:sub(c, c) .. " " end
  for r = t.rows, 1, -1 do
    local line = string.format("%3d  ", r)
    for c = 1, t.cols do line = line .. M.KINDS[t.cells[square_name(c, r)]].map .. " " end
    lines[#lines + 1] = line
  end
  lines[#lines + 1] = "key: . open  g Gentle Hill*  S Steep Hill**  W Wood**  B Built-up  X Impassable" ..
    "  (row 1 is the first side's baseline; squares " .. t.sq .. "\")"
  return table.concat(lines, "\n")
end

local function need_table()
  local t = store.terrain
  if not t then umpire.fail("terrain: no table yet; `terrain generate 6x4 12` first") end
  return t
end

-- Two sides roll a d6 each, ties rolling again; returns winner, loser, margin.
local function rolloff(ctx, title, rule)
  local sides = umpire.sides()
  if #sides < 2 then umpire.fail(title .. ": needs two sides (`add side ID NAME`)") end
  local makers = {}
  for i = 1, 2 do
    local side = sides[i]
    makers[i] = function(attempt)
      local c = ctx:check(title .. ": " .. side .. (attempt > 1 and (", roll " .. attempt .. " after a tie") or ""))
      c:roll("1d6", "d6", rule, umpire.side(side))
      return c
    end
  end
  local o = ctx:opposed(makers[1], makers[2], { tie = "again", names = { sides[1], sides[2] }, title = title, rule = rule .. ", ties roll again" })
  local w = sides[o.winner]
  local l = w == sides[1] and sides[2] or sides[1]
  return w, l, o.margin
end

function M.register(cfg)
  local R = cfg.rules
  local T = cfg.terrain
  umpire.table { name = "terrain", dice = "1d8", rows = {
    { "1-4", "open" }, { "5", "gentle_hill" }, { "6", "steep_hill" }, { "7", "wood" },
    { "8", "built_up" }, { "9+", "impassable" } } }

  umpire.command {
    name = "terrain",
    help = "the table's terrain (" .. R.terrain .. "):\n" ..
      "  terrain generate SIZE SQUARE   a d8 per square, +" .. T.edge .. " on the table edge (sizes " .. table.concat(T.sizes, ", ") ..
      " feet; squares " .. table.concat(T.squares, " or ") .. "\")\n" ..
      "  terrain rolloff                each side a d6 (ties again): the higher may remove two pieces or swap two\n" ..
      "  terrain remove SQ [SQ]  ·  terrain swap SQ SQ  ·  terrain set SQ KIND  ·  terrain show\n" ..
      "e.g. `terrain generate 6x4 12`, `terrain swap B2 C3`",
    args = {
      { name = "action", type = "choice", values = { "generate", "show", "rolloff", "remove", "swap", "set" } },
      { name = "rest", type = "text", optional = true, help = "what the action needs" },
    },
    run = function(ctx, args)
      local w = util.words(args.rest)
      local a = args.action
      if a == "generate" then
        local size = (w[1] or ""):lower():gsub("[' ]", "")
        local ok_size = false
        for _, s in ipairs(T.sizes) do if s == size then ok_size = true end end
        if not ok_size then
          umpire.fail("terrain generate: the table is " .. table.concat(T.sizes, ", ") .. " (feet), not `" .. tostring(w[1]) ..
            "`; e.g. `terrain generate 6x4 12`")
        end
        local sq = w[2] and distance.parse(w[2], "in")
        local ok_sq = false
        for _, s in ipairs(T.squares) do if s == sq then ok_sq = true end end
        if not ok_sq then
          umpire.fail("terrain generate: squares are " .. table.concat(T.squares, "\" or ") .. "\" a side, not `" .. tostring(w[2]) .. "`")
        end
        if store.terrain and not (w[3] == "again") then
          umpire.fail("terrain generate: the table is already generated; add `again` to throw it afresh")
        end
        local fw, fh = size:match("^(%d+)x(%d+)$")
        local cols = math.ceil(tonumber(fw) * 12 / sq)
        local rows = math.ceil(tonumber(fh) * 12 / sq)
        local t = { size = size, sq = sq, cols = cols, rows = rows, cells = {}, removed = 0, swapped = false }
        local tbl = umpire.table("terrain")
        local counts = {}
        for r = 1, rows do
          for c = 1, cols do
            local name = square_name(c, r)
            local edge = r == 1 or r == rows or c == 1 or c == cols
            local chk = ctx:check("Terrain " .. R.terrain .. ": square " .. name .. (edge and " (table edge)" or ""))
            chk:roll("1d8", "terrain d8", R.terrain)
            if edge then chk:add(T.edge, "borders the table edge", R.terrain) end
            local kind = tbl:lookup(chk:total())
            chk:result(label(cfg, kind))
            t.cells[name] = kind
            counts[kind] = (counts[kind] or 0) + 1
          end
        end
        store.terrain = t
        umpire.record("terrain", t.cells)
        local part = ""
        if cols * sq ~= tonumber(fw) * 12 or rows * sq ~= tonumber(fh) * 12 then
          part = "\n(the last column or row is a part square: no piece may be larger than its square)"
        end
        return map(t) .. part .. "\nno piece may be larger than its square (" .. R.terrain .. "); next: `terrain rolloff`"
      elseif a == "show" then
        local t = need_table()
        local extra = t.rolloff and ("\nroll-off won by " .. t.rolloff .. "; removed " .. t.removed .. ", swapped " .. tostring(t.swapped)) or ""
        return map(t) .. extra
      elseif a == "rolloff" then
        local t = need_table()
        if t.rolloff then umpire.fail("terrain rolloff: already won by " .. t.rolloff .. "; `undo` it to roll again") end
        local winner = rolloff(ctx, "Terrain roll-off " .. R.terrain, R.terrain)
        t.rolloff = winner
        return winner .. " may take away up to two pieces (`terrain remove SQ [SQ]`) or swap two " ..
          "(`terrain swap SQ SQ`) (" .. R.terrain .. ")"
      elseif a == "remove" or a == "swap" then
        local t = need_table()
        if not t.rolloff then umpire.fail("terrain " .. a .. ": `terrain rolloff` first: its winner changes the table (" .. R.terrain .. ")") end
        if a == "remove" then
          if t.swapped then umpire.fail("terrain remove: " .. t.rolloff .. " swapped two pieces already: it is remove OR swap (" .. R.terrain .. ")") end
          if #w == 0 then umpire.fail("terrain remove: name the squares, e.g. `terrain remove B2`") end
          if t.removed + #w > 2 then umpire.fail("terrain remove: at most two pieces in all (" .. t.removed .. " taken already) (" .. R.terrain .. ")") end
          local out = {}
          for _, word in ipairs(w) do
            local sqn = parse_square(t, word)
            if t.cells[sqn] == "open" then umpire.fail("terrain remove: " .. sqn .. " is open: nothing to take away") end
            out[#out + 1] = sqn .. " (" .. label(cfg, t.cells[sqn]) .. ")"
            t.cells[sqn] = "open"
            t.removed = t.removed + 1
          end
          return t.rolloff .. " takes away " .. table.concat(out, ", ") .. " (" .. R.terrain .. ")\n" .. map(t)
        else
          if t.removed > 0 or t.swapped then umpire.fail("terrain swap: " .. t.rolloff .. " has already changed the table: remove OR swap (" .. R.terrain .. ")") end
          if #w ~= 2 then umpire.fail("terrain swap: name two squares, e.g. `terrain swap B2 C3`") end
          local s1, s2 = parse_square(t, w[1]), parse_square(t, w[2])
          t.cells[s1], t.cells[s2] = t.cells[s2], t.cells[s1]
          t.swapped = true
          return t.rolloff .. " swaps " .. s1 .. " and " .. s2 .. " (" .. R.terrain .. ")\n" .. map(t)
        end
      else -- set
        local t = need_table()
        local sqn = parse_square(t, w[1])
        local kind = (w[2] or ""):lower()
        if not M.KINDS[kind] then umpire.fail("terrain set: the kinds are " .. table.concat(M.KIND_WORDS, ", ")) end
        t.cells[sqn] = kind
        return sqn .. " set to " .. label(cfg, kind) .. " by the umpire\n" .. map(t)
      end
    end,
  }

  umpire.command {
    name = "diagram",
    help = "a side's deployment diagram, or a flank-marching side's order of march, written in\n" ..
      "secret before deployment (" .. R.deploy .. "): kept for the umpire's eyes (`diagrams` shows them)\n" ..
      "e.g. `diagram red pikes centre, bows on the hill at B2, knights left`",
    args = {
      { name = "side", type = "side", help = "the side that wrote it" },
      { name = "text", type = "text", secret = true, help = "the diagram, in words" },
    },
    run = function(ctx, args)
      secret.diagrams = secret.diagrams or {}
      secret.diagrams[args.side.id] = args.text
      return args.side.id .. "'s diagram is recorded (secret until `diagrams`) (" .. R.deploy .. ")"
    end,
  }
  umpire.command {
    name = "diagrams",
    secret = true,
    help = "the deployment diagrams and orders of march written so far, for the umpire (" .. R.deploy .. ")\n" ..
      "e.g. `diagrams`",
    args = {},
    run = function(ctx)
      local lines = {}
      for _, side in ipairs(umpire.sides()) do
        local d = (secret.diagrams or {})[side]
        lines[#lines + 1] = side .. ": " .. (d or "(none written)")
      end
      return table.concat(lines, "\n")
    end,
  }

  local D = cfg.deploy
  umpire.command {
    name = "deploy",
    help = "deployment (" .. R.deploy .. "): both sides have drawn their diagrams; each rolls a d6 (ties again).\n" ..
      "The higher deploys first or makes the other do so; winning by " .. D.flank_margin .. " or more, the loser\n" ..
      "makes a flank march\n" ..
      "e.g. `deploy`",
    args = {},
    run = function(ctx)
      if store.deploy then umpire.fail("deploy: already rolled (" .. store.deploy.winner .. " won); `undo` it to roll again") end
      local winner, loser, margin = rolloff(ctx, "Deployment " .. R.deploy, R.deploy)
      local flank = margin >= D.flank_margin
      store.deploy = { winner = winner, loser = loser, margin = margin, flank_march = flank }
      umpire.record("deploy", store.deploy)
      local lines = {
        winner .. " wins by " .. margin .. ": it deploys all its units first, or makes " .. loser .. " do so (" .. R.deploy .. ")",
        "deployment zone: within " .. D.baseline .. " of your own baseline and within " .. D.edge ..
          " of the left or right table edge (as printed) (" .. R.deploy .. ")",
      }
      if flank then
        lines[#lines + 1] = "won by " .. D.flank_margin .. " or more: " .. loser .. " writes an order of march and enters " ..
          "from a corner of its choice, marching toward the opposite corner; " .. winner .. " may place its " ..
          "troops anywhere within " .. D.flank .. " of the enemy, whenever it likes (" .. R.deploy .. ")"
      end
      return table.concat(lines, "\n")
    end,
  }
end

return M
