#!/bin/bash
# Instructions per parse+roll of each issue-2 expression, counted with callgrind (load-free,
# unlike timings on a shared machine). Needs valgrind. From the repository root:
#   bash benches/profile/instructions.sh [N]
# prints, per expression, the exact cost of one: parse+roll+drop, parse (and drop the tree),
# roll (of a tree parsed once, and drop the roll). Each is (count at N - count at 0) / N from
# benches/count.rs, so it does not depend on how many iterations ran. Callgrind files are left
# in target/callgrind/ for callgrind_annotate (the N runs).
set -euo pipefail
N=${1:-20000}
cargo bench --bench count --no-run >/dev/null 2>&1
BIN=$(ls -t target/release/deps/count-* | grep -v '\.d$' | head -1)
OUT=target/callgrind
mkdir -p "$OUT"
total() { # MODE EXPR N FILE
  valgrind --tool=callgrind --callgrind-out-file="$4" "$BIN" "$1" "$2" "$3" >/dev/null 2>&1
  callgrind_annotate "$4" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}'
}
for e in '1d6' '3d6+2' '4d6kh3' '10d6!' '20d10>=8' '2d20kl1+5'; do
  name=$(printf '%s' "$e" | tr -c 'a-z0-9' '_')
  line="$e"
  for mode in all parse roll; do
    zero=$(total "$mode" "$e" 0 "$OUT/cg0.$mode.$name")
    many=$(total "$mode" "$e" "$N" "$OUT/cg.$mode.$name")
    line="$line $mode=$(( (many - zero) / N ))"
  done
  echo "$line"
done
