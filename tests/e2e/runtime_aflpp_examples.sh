#!/bin/bash
# runtime_aflpp_examples.sh - AFL++'s own persistent-mode example harnesses
# (utils/persistent_mode/ of Debian's afl++ source, 4.04c) build unchanged
# with fz-cc and behave under fz-fuzz as under afl-fuzz:
#  - persistent_demo_new.c (__AFL_FUZZ_INIT, __AFL_INIT, shared-memory test
#    cases, __AFL_LOOP(UINT_MAX)) and persistent_demo.c (__AFL_LOOP with
#    read(0) per pass) are fuzzed to their planted abort on "foo!!!", in
#    persistent mode with many executions per child, and the saved crash
#    aborts the program again outside the fuzzer;
#  - test-instr.c (if present) takes different paths for "0", "1" and the
#    rest: fz-fuzz finds them as separate queue entries.
#
# AFL++'s code is never committed: the source is fetched at test time with
# `apt-get source afl++` (adding a bookworm deb-src entry when running as
# root and none exists) and cached unpacked in tests/out/cache/, like
# real_project.sh does; FZ_AFLPP_SRC may name an unpacked AFL++ tree to use
# instead.  Without the source the test is skipped, saying why.
# matrix: cc
. "$(dirname "$0")/../lib.sh"
[ -x "$FZ_BIN/fz-fuzz" ] && [ -e "$FZ_ROOT/lib/fz/fz-rt.o" ] || fail "build fz first (make)"

# Sets dir to the directory holding the example harnesses, fetching the
# source first if needed (FZ_AFLPP_SRC may name an unpacked AFL++ tree).
fetch_source() {
    if [ -n "${FZ_AFLPP_SRC:-}" ]; then
        dir=$FZ_AFLPP_SRC/utils/persistent_mode
        [ -d "$dir" ] || fail "FZ_AFLPP_SRC=$FZ_AFLPP_SRC has no utils/persistent_mode"
        return 0
    fi
    # Not fz_skip when apt-get source fails: the mirror CI uses may simply
    # not carry this source package (seen: 404 for
    # aflplusplus_4.04c.orig.tar.gz), which nothing on our side changes; the
    # skip stays visible in the e2e summary.
    fz_apt_source aflplusplus utils/persistent_mode/persistent_demo_new.c ||
        skip "apt-get source afl++ failed (no network, or the mirror lacks the source files): AFL++'s example harnesses not tested"
    dir=$fz_src/utils/persistent_mode
}

fetch_source
[ -e "$dir/persistent_demo_new.c" ] || fail "no persistent_demo_new.c in $dir"
echo "examples: $dir"
cd "$T" || exit 1

stat() { awk -F' *: *' -v k="$2" '$1==k{print $2}' "$1/default/fuzzer_stats"; }

# demo NAME MODE: build $dir/NAME.c unchanged, fuzz it to the "foo!!!"
# abort, check persistent reuse, the negotiated mode and the replay.
demo() {
    local name=$1 mode=$2 rc=0 crash
    [ -e "$dir/$name.c" ] || return 0
    fzcc -O2 "$dir/$name.c" -o "$name" >"$name.build" 2>&1 || { cat "$name.build"; fail "fz-cc cannot build $name.c unchanged"; }
    mkdir -p seeds && printf 'abcdefgh' >seeds/a
    "$FZ_BIN/fz-fuzz" -q -i seeds -o "o-$name" -s 1 -E 400000 -- "./$name" >"$name.log" 2>&1 || rc=$?
    [ $rc = 3 ] || { tail -n 5 "$name.log"; fail "$name: fz-fuzz exit $rc, expected 3 (the planted abort found)"; }
    crash=$(ls "o-$name"/default/crashes/id:* | head -n 1)
    [ "$(head -c 6 "$crash")" = 'foo!!!' ] || fail "$name: the crash is not the planted one: $(head -c 8 "$crash" | od -c | head -n 1)"
    "./$name" <"$crash" >/dev/null 2>&1
    [ $? = 134 ] || fail "$name: the saved crash does not abort outside the fuzzer"
    [ "$(stat "o-$name" target_mode)" = "$mode" ] || fail "$name: target_mode '$(stat "o-$name" target_mode)', expected '$mode'"
    [ "$(stat "o-$name" fsrv_protocol)" = "v1 direct" ] || fail "$name: fsrv_protocol '$(stat "o-$name" fsrv_protocol)'"
    local epf
    epf=$(stat "o-$name" execs_per_fork)
    [ "${epf%.*}" -ge 100 ] || fail "$name: only $epf executions per child"
    ok "$name.c unchanged: planted abort found and replayed; $mode, $epf execs per child"
}
demo persistent_demo_new "shmem_testcase persistent"
demo persistent_demo persistent

if [ -e "$dir/test-instr.c" ]; then
    fzcc -O2 "$dir/test-instr.c" -o test-instr >ti.build 2>&1 || { cat ti.build; fail "fz-cc cannot build test-instr.c unchanged"; }
    mkdir -p ti-seeds && printf 'x' >ti-seeds/a
    rc=0
    "$FZ_BIN/fz-fuzz" -q -i ti-seeds -o o-ti -s 1 -E 5000 -- ./test-instr >ti.log 2>&1 || rc=$?
    [ $rc = 0 ] || { tail -n 5 ti.log; fail "test-instr: fz-fuzz exit $rc"; }
    firsts=$(for f in o-ti/default/queue/id:*; do head -c 1 "$f"; echo; done | sort -u | tr -d '\n')
    case $firsts in *0*1* | *1*0*) ;; *) fail "test-instr: queue does not hold the '0' and '1' paths (first bytes: $firsts)" ;; esac
    ok "test-instr.c unchanged: the '0' and '1' paths found"
fi
