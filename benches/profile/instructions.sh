#!/bin/bash
# Instructions per parse+roll of each issue-2 expression, counted with callgrind (load-free,
# unlike timings on a shared machine). Needs valgrind. From the repository root:
#   bash benches/profile/instructions.sh
# prints, per expression: iterations, total/iter (incl. dropping the result), parse/iter,
# roll/iter. Callgrind files are left in target/callgrind/ for callgrind_annotate.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
cargo bench --bench dice --no-run >/dev/null 2>&1
BIN=$(ls -t target/release/deps/dice-* | grep -v '\.d$' | head -1)
OUT=target/callgrind
mkdir -p "$OUT"
for e in '1d6' '3d6+2' '4d6kh3' '10d6!' '20d10>=8' '2d20kl1+5'; do
  re=$(printf '%s' "$e" | sed 's/[+!]/\\&/g')
  f="$OUT/cg.$(printf '%s' "$e" | tr -c 'a-z0-9' '_')"
  valgrind --tool=callgrind --callgrind-out-file="$f" "$BIN" --bench --profile-time 1 "^parse_and_roll/$re\$" >/dev/null 2>&1
  # Annotated from outside the repository, callgrind names files by absolute path, which
  # keeps the bench loop's and the parser's entries apart.
  echo "$e $(cd "$OUT" && python3 "$HERE/count.py" "$(basename "$f")")"
done
