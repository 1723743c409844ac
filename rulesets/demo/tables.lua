-- Tables of the demo ruleset, pulled in with `require "demo.tables"`.
return {
  morale = {
    doc = "2d6 morale test",
    dice = "2d6",
    rows = { { "2-6", "falls back" }, { "7-12", "holds" } },
  },
  quality = {
    doc = "to-hit modifier by quality",
    entries = { { "green", -1 }, { "trained", 0 }, { "veteran", 1 } },
  },
}
