#!/usr/bin/env python3
"""search-lines.py - which source lines one fuzzer's final corpora reach
and the other's do not, from the gcov files bench/search.sh keeps
(SEARCH_KEEP=DIR: DIR/TARGET-FUZZER-SEED.gcov/*.gcov) or bench/coverage.sh
keeps (BENCH_KEEP=DIR: DIR/TARGET-FUZZER-TRIAL.gcov/*.gcov).

    bench/search-lines.py DIR/zlib-lf-fz-{1,2,3}.gcov DIR/zlib-lf-libfuzzer-{1,2,3}.gcov

Arguments: the runs of side A, then "--" or, as above, as many runs of
side B (the list is split in half when there is no "--").  Prints every
line (file, line number, A's runs reaching it, B's, the source) that at
least MIN (default 2) more runs of one side reach than of the other (the
shares scaled to the larger side when the sides differ in size); the
harness files are left out, as search.sh's counts leave them out.
BRANCHES=1 compares branches instead (gcov's "branch N taken" lines: a
branch counts when it was taken at least once, as coverage.sh counts
them), printed as line.N with the source of their line.
"""
import os
import re
import sys

# The harnesses (bench/real/*.c), as the counts of coverage.sh leave them out.
SKIP = tuple(sorted(f for f in os.listdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "real"))
                    if f.endswith(".c")))


def load(d, branches):
    lines = {}
    for f in sorted(os.listdir(d)):
        if not f.endswith(".gcov") or f.startswith(SKIP):
            continue
        with open(os.path.join(d, f), errors="replace") as fh:
            line = None
            for l in fh:
                m = re.match(r"\s*([^:]+):\s*(\d+):(.*)", l)
                if m:
                    line = (int(m.group(2)), m.group(3).strip())
                    if branches or m.group(1).strip() == "-":
                        continue
                    c = m.group(1).strip()
                    hit = not c.startswith(("#", "="))
                    lines[(f[:-5], line[0], -1)] = (hit, line[1])
                    continue
                b = re.match(r"branch\s+(\d+)\s+(taken\s+(\d+)|never executed)", l)
                if branches and b and line:
                    hit = b.group(3) is not None and int(b.group(3)) > 0
                    key = (f[:-5], line[0], int(b.group(1)))
                    lines[key] = (hit or lines.get(key, (False,))[0], line[1])
    return lines


def main(argv):
    least = int(os.environ.get("MIN", "2"))
    if "--" in argv:
        k = argv.index("--")
        a, b = argv[:k], argv[k + 1:]
    else:
        a, b = argv[: len(argv) // 2], argv[len(argv) // 2:]
    if not a or not b:
        sys.exit("usage: search-lines.py A-RUN.gcov... [--] B-RUN.gcov...")
    branches = os.environ.get("BRANCHES", "0") != "0"
    A, B = [load(d, branches) for d in a], [load(d, branches) for d in b]
    keys = sorted(set().union(*[x.keys() for x in A + B]))
    for k in keys:
        na = sum(1 for x in A if x.get(k, (False,))[0])
        nb = sum(1 for x in B if x.get(k, (False,))[0])
        # Shares scaled to the larger side: with equal sides, the
        # difference in runs.
        if abs(na / len(A) - nb / len(B)) * max(len(A), len(B)) >= least:
            src = next(x[k][1] for x in A + B if k in x)
            where = f"{k[1]}.{k[2]}" if k[2] >= 0 else str(k[1])
            print(f"{k[0]:14s}{where:>6s}  A {na}/{len(A)}  B {nb}/{len(B)}  {src[:70]}")


if __name__ == "__main__":
    main(sys.argv[1:])
