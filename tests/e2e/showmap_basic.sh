#!/bin/bash
# showmap_basic.sh - fz-showmap on small instrumented programs: two inputs
# give two maps, the same input the stdin delivery works,
# -r / -e formats, the crash exit code, and the same map as afl-showmap (with
# -r / -e; its default file is a subset, docs/tools.md) on
# the same binary.  Also the persistent + shared-memory harness.
# matrix: cc
. "$(dirname "$0")/../lib.sh"
[ -x "$FZ_BIN/fz-cc" ] && [ -e "$FZ_ROOT/lib/fz/fz-rt.o" ] || fail "build fz first (make)"
[ -x "$FZ_BIN/fz-showmap" ] || fail "build fz first (make)"
cd "$T" || exit 1

fzcc -O1 "$FZ_ROOT/testcases/exec_branches.c" -o branches || fail "fz-cc cannot build exec_branches.c"
fzcc -O1 "$FZ_ROOT/testcases/tmin_magic.c" -o magic || fail "fz-cc cannot build tmin_magic.c"

printf 'abc' >in1
printf 'X12;' >in2
fz-showmap -q -o m1 -- ./branches @@ <in1 || fail "fz-showmap failed on in1"
fz-showmap -q -o m1b -- ./branches @@ <in1 || fail "fz-showmap failed on in1 (2nd)"
fz-showmap -q -o m2 -- ./branches @@ <in2 || fail "fz-showmap failed on in2"
[ -s m1 ] && [ -s m2 ] || fail "empty map"
grep -qvE '^[0-9]{6}:[1-8]$' m1 && fail "bad line format: $(head -3 m1)"
cmp -s m1 m1b || fail "the same input gave two maps"
cmp -s m1 m2 && fail "two different inputs gave the same map"
ok "two inputs: $(wc -l <m1) and $(wc -l <m2) tuples, maps differ; same input, same map"

# Without @@ the target reads stdin (its own code path, so compare among
# stdin runs only).
fz-showmap -q -o m1s -- ./branches <in1 || fail "fz-showmap failed with stdin input"
fz-showmap -q -o m2s -- ./branches <in2 || fail "fz-showmap failed with stdin input"
cmp -s m1s m2s && fail "stdin delivery: two inputs gave the same map"
fz-showmap -q -o - -- ./branches <in1 >m1o || fail "-o - failed"
cmp -s m1s m1o || fail "-o - differs from -o FILE"
fz-showmap -q -r -o raw -- ./branches <in1 || fail "-r failed"
fz-showmap -q -e -o edges -- ./branches <in1 || fail "-e failed"
[ "$(cut -d: -f1 raw)" = "$(cut -d: -f1 m1s)" ] || fail "-r lists different slots"
grep -qv ':1$' edges && fail "-e printed a count"
ok "stdin delivery, -o -, -r, -e"

# -o naming a device or FIFO is written in place: a FIFO (or /dev/null)
# stays what it is.  A symlink is refused (issue 26: a tool never writes
# through a link, which may point anywhere; faults_tools.sh).
mkfifo fifo
timeout 60 cat fifo >from_fifo &  # bounded: a replaced FIFO never gets a writer
fz-showmap -q -o fifo -- ./branches <in1 || fail "-o FIFO failed"
[ -p fifo ] || fail "-o FIFO replaced the FIFO with $(stat -c %F fifo)"
wait
cmp -s from_fifo m1s || fail "-o FIFO: the reader did not get the map"
: >real && ln -s real link
fz-showmap -q -o link -- ./branches <in1 2>/dev/null && fail "-o symlink was accepted"
[ -L link ] && [ ! -s real ] || fail "-o symlink: the link or its file changed"
ok "-o FIFO written in place, -o symlink refused"

printf 'xxBUG!xx' >crash
fz-showmap -q -o mc -- ./magic @@ <crash
rc=$?
[ $rc = 3 ] || fail "crashing input: exit $rc, expected 3"
[ -s mc ] || fail "no map written for a crashing run"
ok "crash: exit 3, map written"

if command -v afl-showmap >/dev/null; then
    # Equal files with -r and -e; afl-showmap's default file leaves out
    # slots whose raw count is not the lowest of its bucket (docs/tools.md),
    # so there it is a subset of ours.
    for m in -r -e; do
        afl-showmap -q $m -o "am$m" -- ./branches <in2 >/dev/null 2>&1
        fz-showmap -q $m -o "fm$m" -- ./branches <in2
        cmp -s "am$m" "fm$m" || fail "afl-showmap $m disagrees: $(diff "am$m" "fm$m" | head -5)"
    done
    afl-showmap -q -o am -- ./branches <in2 >/dev/null 2>&1
    [ -z "$(comm -23 am m2s)" ] || fail "afl-showmap's default file has tuples fz-showmap's lacks: $(comm -23 am m2s | head -3)"
    ok "same map as afl-showmap with -r and -e; its default file a subset of ours"
    # What docs/tools.md says afl-showmap's default file keeps: a slot whose
    # raw count is the lowest of its bucket (1 2 3 4 8 16 32 128).
    fzcc -O1 "$FZ_ROOT/testcases/nz_loop.c" -o nzloop 2>/dev/null || fail "fz-cc cannot build nz_loop.c"
    kept=""
    for n in 2 3 4 5 6 8 9 10 17 21 33 34 101 129 201; do
        afl-showmap -q -r -o raw -- ./nzloop "$n" </dev/null >/dev/null 2>&1
        afl-showmap -q -o def -- ./nzloop "$n" </dev/null >/dev/null 2>&1
        fz-showmap -q -o fzdef -- ./nzloop "$n" </dev/null
        # The loop's busiest slot and its raw count.
        read -r slot c < <(tr ':' ' ' <raw | sort -k2,2n | tail -1)
        grep -q "^$slot:" fzdef || fail "fz-showmap dropped slot $slot (count $c)"
        grep -q "^$slot:" def && kept="$kept $c"
    done
    [ "$kept" = " 1 2 3 4 8 16 32 128" ] || fail "afl-showmap's default kept counts$kept; docs/tools.md says 1 2 3 4 8 16 32 128"
    ok "afl-showmap's default file keeps only counts$kept (docs/tools.md)"
else
    fz_skip_part "afl-showmap is not installed (apt-get install afl++); comparison skipped"
fi

if [ -e "$FZ_ROOT/testcases/persistent.c" ]; then
    fzcc -O1 "$FZ_ROOT/testcases/persistent.c" -o persistent || fail "fz-cc cannot build persistent.c"
    fz-showmap -q -o mp -- ./persistent <in2
    rc=$?
    [ $rc = 0 ] || [ $rc = 3 ] || fail "persistent harness: exit $rc"
    [ -s mp ] || fail "persistent harness: empty map"
    ok "persistent harness: $(wc -l <mp) tuples"
else
    fz_skip_part "testcases/persistent.c is missing; persistent harness part skipped"
fi
