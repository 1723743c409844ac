#!/bin/bash
# Instructions of each ruleset benchmark's resolution against the same dice rolled alone as
# `roll` commands, counted with callgrind (exact, and the same on a busy machine, unlike the
# criterion timings of `cargo bench --bench rulesets`). Needs valgrind. From the repository
# root:   bash benches/profile/rulesets.sh [N] [BENCH…]
# BENCH: od6_volley od6_close fld_melee ul_melee (default all). Each figure is
# (count at N - count at 0) / N; the resolution's is the command and its undo less half an
# undo and redo, so it is the command alone. Callgrind files are left in target/callgrind/.
set -euo pipefail
N=${1:-100}
shift || true
BENCHES=${*:-od6_volley od6_close fld_melee ul_melee}
cargo bench --bench rulesets --no-run >/dev/null 2>&1
BIN=$(ls -t target/release/deps/rulesets-* | grep -v '\.d$' | head -1)
OUT=target/callgrind
mkdir -p "$OUT"
total() { # BENCH WHAT N
  local f="$OUT/cg.rulesets.$1.$2.$3"
  UMPIRE_COUNT="$1:$2:$3" valgrind --tool=callgrind --callgrind-out-file="$f" "$BIN" >/dev/null 2>&1
  callgrind_annotate "$f" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}'
}
per() { # BENCH WHAT
  local zero many
  zero=$(total "$1" "$2" 0)
  many=$(total "$1" "$2" "$N")
  echo $(( (many - zero) / N ))
}
printf '%-11s %12s %10s %10s %7s\n' bench resolution undo dice ratio
for b in $BENCHES; do
  both=$(per "$b" resolution)
  undo=$(( $(per "$b" undo) / 2 ))
  dice=$(per "$b" dice)
  res=$(( both - undo ))
  awk -v b="$b" -v r="$res" -v u="$undo" -v d="$dice" \
    'BEGIN { printf "%-11s %12d %10d %10d %6.2fx\n", b, r, u, d, r / d }'
done
