"""Instructions per iteration of one criterion bench run under callgrind (see instructions.sh).

The iteration count is read from callgrind's call tree (`Bencher::iter (Nx)` calls of the
parser); totals are the inclusive counts of the bench loop, of `parse` and of `roll`.
"""
import re
import subprocess
import sys

f = sys.argv[1]
tree = subprocess.run(["callgrind_annotate", "--tree=caller", f],
                      capture_output=True, text=True).stdout.splitlines()
iters = 0
for i, line in enumerate(tree):
    if re.search(r"\*\s+\S*umpire::dice::parser::parse \[", line):
        for p in tree[max(0, i - 5):i]:
            m = re.search(r"Bencher<M>::iter \(([\d,]+)x\)", p)
            if m:
                iters += int(m.group(1).replace(",", ""))
inc = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", f],
                     capture_output=True, text=True).stdout.splitlines()


def get(pat):
    for line in inc:
        if re.search(pat, line):
            return int(line.split()[0].replace(",", ""))
    return 0


tot = get(r"benches/dice.rs:criterion::bencher::Bencher<M>::iter$")
parse = get(r"umpire::dice::parser::parse \[")
roll = get(r"umpire::dice::roll::roll \[")
if iters == 0:
    sys.exit("no iterations found: is this a callgrind file of the dice bench?")
print(f"iters={iters} total/iter={tot/iters:.0f} parse/iter={parse/iters:.0f} roll/iter={roll/iters:.0f}")
