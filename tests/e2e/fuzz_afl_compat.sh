#!/bin/bash
# fuzz_afl_compat.sh - what an afl-fuzz user brings along (issue 23 point 3):
#  - AFL_* variables and afl-fuzz options fz does not honour get one line
#    each naming them; misspelled AFL_* / FZ_* names get a suggestion; the
#    honoured ones and afl-cc's build variables say nothing;
#  - -p SCHEDULE: every AFL++ name is taken and runs; -p fast is the default
#    bit for bit (same queue); another schedule changes the campaign;
#  - -a text: the queue holds fewer unprintable bytes than without it;
#  - AFL_MAP_SIZE: the map read from a target that reports no map size (a
#    plain AFL forkserver, built here with the plain compiler), checked.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
fzcc -O1 -o demo "$FZ_ROOT/testcases/demo.c" || fail "cannot build demo.c"
seeds=$FZ_ROOT/testcases/demo_seeds
# A campaign's queue without the clock: names less their time: field, and
# contents.
qsig() { (cd "$1/default/queue" && for f in id:*; do echo "${f/time:[0-9]*,/} $(md5sum <"$f")"; done); }
stat() { awk -F' *: *' -v k="$2" '$1==k{print $2}' "$1/fuzzer_stats"; }
run() { # out-dir, then fz-fuzz options
    local o=$1
    shift
    fz-fuzz -q -s 1 -E 3000 "$@" -i "$seeds" -o "$o" -- ./demo @@ >"$o.log" 2>"$o.err"
    local rc=$?
    [ $rc = 3 ] && return 0 # a crash found is fine
    return $rc
}

# --- Named, one line each.
AFL_PYTHON_MODULE=mymut AFL_PRELOAD=/x.so AFL_NO_UI=1 AFL_USE_ASAN=1 AFL_SKIP_CPUFREQ=1 \
    AFL_NO_AFINITY=1 FZ_NO_AFINITY=1 run env -L 0 -Z -T banner -l 2AT
rc=$?
[ $rc = 0 ] || [ $rc = 3 ] || { cat env.err; fail "a run with AFL++ options and variables exited $rc"; }
for want in 'AFL_PYTHON_MODULE is set, but fz-fuzz does not honour it' \
    'AFL_PRELOAD is set, but fz-fuzz does not honour it: set LD_PRELOAD' \
    'AFL_NO_AFINITY is not a variable fz knows; did you mean AFL_NO_AFFINITY?' \
    'FZ_NO_AFINITY is not a variable fz knows; did you mean FZ_NO_AFFINITY?' \
    "option -L: afl-fuzz's MOpt mode: not honoured" \
    "option -T: afl-fuzz's banner: not honoured" \
    "option -l: afl-fuzz's CmpLog level"; do
    [ "$(grep -cF "$want" env.err)" = 1 ] || { cat env.err; fail "not one line '$want'"; }
done
grep -qE 'AFL_NO_UI|AFL_USE_ASAN|AFL_SKIP_CPUFREQ|option -Z' env.err && { cat env.err; fail "warned about a variable or option fz honours"; }
ok "AFL++ variables and options not honoured: one line each, with the fix"

# --- -p: every name runs; fast is the default; another changes the run.
run def || { cat def.err; fail "the default run failed"; }
for p in fast explore exploit coe lin quad mmopt rare seek; do
    run "p_$p" -p $p
    rc=$?
    [ $rc = 0 ] || [ $rc = 3 ] || { cat "p_$p.err"; fail "-p $p exited $rc"; }
    grep -q "power schedule: $p (-p)" "p_$p.err" || fail "-p $p not said"
done
[ "$(qsig def)" = "$(qsig p_fast)" ] || { diff <(qsig def) <(qsig p_fast); fail "-p fast is not the default's campaign"; }
differs=0
for p in exploit lin quad rare; do
    [ "$(qsig def)" = "$(qsig p_$p)" ] || differs=$((differs + 1))
done
[ $differs -ge 1 ] || fail "no schedule changed the campaign"
fz-fuzz -p turbo -i "$seeds" -o bad -- ./demo @@ >/dev/null 2>bad.err && fail "-p turbo accepted"
grep -q "unknown power schedule" bad.err || fail "-p turbo: no message"
ok "-p: 9 schedules run, fast = default, $differs of 4 others changed the queue"

# --- -a text: fewer unprintable bytes in what the campaign kept.  The
# target has an edge for each byte class (top 3 bits) at each of its first
# 16 offsets, so havoc keeps many entries either way.
cat >classes.c <<'C'
#include <stdio.h>
int main(int argc, char **argv)
{
    unsigned char b[16] = {0};
    FILE *f = fopen(argv[1], "rb");
    size_t n = f ? fread(b, 1, sizeof b, f) : 0;
    int score = 0;
    for (size_t i = 0; i < n; i++)
        switch (b[i] >> 5) {
        case 0: score += 1; break;
        case 1: score += 2; break;
        case 2: score += 3; break;
        case 3: score += 5; break;
        case 4: score += 7; break;
        case 5: score += 11; break;
        case 6: score += 13; break;
        default: score += 17; break;
        }
    printf("%d\n", score);
    return 0;
}
C
fzcc -O1 -o classes classes.c || fail "cannot build classes.c"
mkdir ts && printf 'hello world' >ts/a
unprintable() { cat "$1"/default/queue/id:* | LC_ALL=C tr -d '\040-\176\t\n\r' | wc -c; }
total() { cat "$1"/default/queue/id:* | wc -c; }
for m in txt bin; do
    a=""
    [ $m = txt ] && a="-a text"
    FZ_NO_CMPLOG=1 fz-fuzz -q -s 1 -E 6000 $a -i ts -o $m -- ./classes @@ >$m.log 2>$m.err || { cat $m.err; fail "-a: $m run failed"; }
done
u_txt=$(unprintable txt) u_bin=$(unprintable bin)
share() { echo $(($1 * 1000 / ($2 + 1))); }
[ "$(share "$u_txt" "$(total txt)")" -lt "$(share "$u_bin" "$(total bin)")" ] ||
    fail "-a text kept $u_txt of $(total txt) unprintable bytes, without it $u_bin of $(total bin)"
ok "-a text: $u_txt of $(total txt) queue bytes unprintable, without it $u_bin of $(total bin)"

# --- AFL_MAP_SIZE: a plain AFL forkserver (no map size in its handshake)
# writing slot 100000 for inputs starting with 'B'.
cat >legacy.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <sys/shm.h>
#include <sys/wait.h>
#include <unistd.h>
int main(int argc, char **argv)
{
    unsigned char *map = NULL;
    const char *id = getenv("__AFL_SHM_ID");
    if (id) {
        map = shmat(atoi(id), NULL, 0);
        if (map == (void *)-1)
            map = NULL;
    }
    unsigned int hello = 0;
    if (map && write(199, &hello, 4) == 4) {
        for (;;) {
            unsigned int req;
            int st;
            if (read(198, &req, 4) != 4)
                _exit(0);
            pid_t pid = fork();
            if (pid == 0) {
                close(198);
                close(199);
                break;
            }
            if (write(199, &pid, 4) != 4 || waitpid(pid, &st, 0) < 0 || write(199, &st, 4) != 4)
                _exit(1);
        }
    }
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
    int c = f ? fgetc(f) : 0;
    if (map) {
        map[1]++;
        if (c == 'B')
            map[100000]++;
        else
            map[2]++;
    }
    return 0;
}
C
plaincc -O1 legacy.c -o legacy || fail "cannot build legacy.c"
mkdir ls && echo A >ls/a && echo B >ls/b
fz-fuzz -q -s 1 -E 200 -i ls -o m64 -- ./legacy @@ >m64.log 2>m64.err || { cat m64.err; fail "legacy target failed"; }
AFL_MAP_SIZE=131072 fz-fuzz -q -s 1 -E 200 -i ls -o m128 -- ./legacy @@ >m128.log 2>m128.err || { cat m128.err; fail "legacy target with AFL_MAP_SIZE failed"; }
[ "$(stat m64/default total_edges)" = 65536 ] || fail "no AFL_MAP_SIZE: map $(stat m64/default total_edges), want 65536"
[ "$(stat m128/default total_edges)" = 131072 ] || fail "AFL_MAP_SIZE=131072: map $(stat m128/default total_edges)"
[ "$(stat m128/default edges_found)" -gt "$(stat m64/default edges_found)" ] ||
    fail "AFL_MAP_SIZE=131072 did not see slot 100000 ($(stat m128/default edges_found) vs $(stat m64/default edges_found) edges)"
AFL_MAP_SIZE=lots fz-fuzz -i ls -o mbad -- ./legacy @@ >/dev/null 2>mbad.err && fail "AFL_MAP_SIZE=lots accepted"
grep -q "AFL_MAP_SIZE must be a positive number" mbad.err || { cat mbad.err; fail "AFL_MAP_SIZE=lots: no message"; }
# A target that reports its size keeps it.
AFL_MAP_SIZE=131072 run fzmap || true
[ "$(stat fzmap/default total_edges)" = "$(stat def/default total_edges)" ] || fail "AFL_MAP_SIZE changed an fz-cc target's map"
ok "AFL_MAP_SIZE: legacy target map 65536 -> 131072 ($(stat m64/default edges_found) -> $(stat m128/default edges_found) edges); fz-cc target keeps its own"
