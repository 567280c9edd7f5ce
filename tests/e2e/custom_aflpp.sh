#!/bin/bash
# custom_aflpp.sh - AFL++'s custom mutator API in fz-fuzz
# (fz-fuzz/custom.c).  With fz's own small mutator (tests/custom_mutator_min.c,
# always): every run the target sees went through post_process (the
# target dies of SIGSEGV otherwise), the custom stage's find is named by
# afl_custom_describe and kept as the mutator made it (before
# post_process, as AFL++ keeps it), each documented function is called,
# AFL_CUSTOM_MUTATOR_ONLY leaves no other stage, FZ_CUSTOM_MUTATOR is the
# same variable, a bad library is one error with nothing written.  With
# AFL++'s own examples built from its source (FZ_AFLPP_SRC=path of an
# AFL++ source tree; that part is skipped without it): example.c,
# simple_example.c and post_library_gif.so.c load and run the same way.
# matrix: cc
. "$(dirname "$0")/../lib.sh"
cd "$T"

fzcc -O1 -o ct "$FZ_ROOT/testcases/custom_target.c" || fail "cannot build custom_target.c"
plaincc -shared -fPIC -O2 -o min.so "$FZ_ROOT/tests/custom_mutator_min.c" || fail "cannot build the mutator"
mkdir seeds && printf 'GET /index.html' >seeds/a

# no_segv OUT: no crash of the "not post-processed" kind.
no_segv() {
    if ls "$1"/default/crashes/*sig:11* >/dev/null 2>&1; then
        ls "$1"/default/crashes
        fail "$1: a run reached the target without post_process (SIGSEGV crash)"
    fi
}

# 1. The mutator finds the DEL bug (comparison feedback off: the custom
#    stage, not input-to-state, must find it).
FZ_NO_CMPLOG=1 AFL_CUSTOM_MUTATOR_LIBRARY="$PWD/min.so" FZ_TEST_MUT_LOG="$PWD/m1.log" \
    fz-fuzz -q -s 1 -E 5000 --until-crash -i seeds -o o1 -- ./ct @@ >o1.log 2>&1
rc=$?
[ $rc = 3 ] || { cat o1.log; fail "own mutator: exit $rc, want 3"; }
no_segv o1
crash=$(ls o1/default/crashes/id:*op:min_DEL* 2>/dev/null | head -1)
[ -n "$crash" ] || { ls o1/default/crashes; fail "the crash is not named by afl_custom_describe"; }
[ "$(head -c 3 "$crash")" = DEL ] || fail "the crash file is not the mutator's output before post_process"
grep -q 'init=1 ' m1.log || fail "afl_custom_init not called once / deinit not called: $(cat m1.log)"
for k in fuzz post describe trim get count; do
    grep -Eq "$k=[1-9]" m1.log || fail "afl_custom_$k never called: $(cat m1.log)"
done
ok "[$FZ_TEST_CC] own mutator: post_process on every run, describe, trim, queue hooks"

# 2. Without --until-crash: havoc stacks the mutator's havoc_mutation,
#    and each new queue file is announced.
FZ_CUSTOM_MUTATOR="$PWD/min.so" FZ_TEST_MUT_LOG="$PWD/m2.log" \
    fz-fuzz -q -s 2 -E 8000 -i seeds -o o2 -- ./ct @@ >o2.log 2>&1
no_segv o2
for k in havoc new_entry; do
    grep -Eq "$k=[1-9]" m2.log || fail "FZ_CUSTOM_MUTATOR: afl_custom_$k never called: $(cat m2.log)"
done

# 3. AFL_CUSTOM_MUTATOR_ONLY: nothing but the custom stage makes inputs.
AFL_CUSTOM_MUTATOR_ONLY=1 AFL_CUSTOM_MUTATOR_LIBRARY="$PWD/min.so" FZ_TEST_MUT_LOG="$PWD/m3.log" \
    fz-fuzz -q -s 1 -E 5000 -i seeds -o o3 -- ./ct @@ >o3.log 2>&1
grep -q 'AFL_CUSTOM_MUTATOR_ONLY' o3.log || fail "AFL_CUSTOM_MUTATOR_ONLY not reported"
no_segv o3
for f in o3/default/queue/id:* o3/default/crashes/id:*; do
    case $f in *orig:* | *op:min_*) ;; *) fail "AFL_CUSTOM_MUTATOR_ONLY: $f came from another stage" ;; esac
done
grep -Eq 'havoc=0 ' m3.log || fail "AFL_CUSTOM_MUTATOR_ONLY: havoc ran: $(cat m3.log)"
ok "[$FZ_TEST_CC] AFL_CUSTOM_MUTATOR_ONLY honoured"

# 4. A library that does not load: one error, nothing written.
AFL_CUSTOM_MUTATOR_LIBRARY="$PWD/min.so;$PWD/nope.so" fz-fuzz -q -s 1 -E 100 -i seeds -o o4 -- ./ct @@ \
    >o4.log 2>&1
rc=$?
[ $rc = 1 ] || { cat o4.log; fail "a missing library: exit $rc, want 1"; }
grep -q "cannot load the custom mutator '$PWD/nope.so'" o4.log || { cat o4.log; fail "no message naming it"; }
[ -e o4 ] && fail "a missing library left an output directory"
ok "[$FZ_TEST_CC] a bad library is refused before anything is written"

# 5. AFL++'s own example mutators, built from its source.
if [ -z "${FZ_AFLPP_SRC:-}" ]; then
    echo "note: FZ_AFLPP_SRC not set: AFL++'s custom_mutators/examples not tried"
    exit 0
fi
[ -f "$FZ_AFLPP_SRC/custom_mutators/examples/example.c" ] ||
    fail "FZ_AFLPP_SRC=$FZ_AFLPP_SRC has no custom_mutators/examples/example.c"
mkdir afl && cp -r "$FZ_AFLPP_SRC/include" "$FZ_AFLPP_SRC/custom_mutators/examples" afl/
for m in example simple_example post_library_gif.so; do
    plaincc -shared -fPIC -O2 -I afl/include -o "$m.so" "afl/examples/$m.c" ||
        fail "cannot build AFL++'s examples/$m.c"
done
AFL_CUSTOM_MUTATOR_LIBRARY="$PWD/example.so" FZ_NO_CMPLOG=1 \
    fz-fuzz -q -s 1 -E 5000 --until-crash -i seeds -o a1 -- ./ct @@ >a1.log 2>&1
rc=$?
[ $rc = 3 ] || { cat a1.log; fail "AFL++ example.c: exit $rc, want 3"; }
no_segv a1
ls a1/default/crashes/*op:custom* >/dev/null 2>&1 || fail "AFL++ example.c: the crash is not the custom stage's"
# example.c's post_process on simple_example.c's outputs, custom stage only.
AFL_CUSTOM_MUTATOR_ONLY=1 AFL_CUSTOM_MUTATOR_LIBRARY="$PWD/simple_example.so;$PWD/example.so" \
    fz-fuzz -q -s 1 -E 3000 -i seeds -o a2 -- ./ct @@ >a2.log 2>&1
no_segv a2
for f in a2/default/queue/id:* a2/default/crashes/id:*; do
    [ -e "$f" ] || continue
    case $f in *orig:* | *op:custom*) ;; *) fail "AFL++ examples, ONLY: $f came from another stage" ;; esac
done
# post_library_gif: a GIF header on every run, inputs under 6 bytes refused.
printf 'GIF89a-seed-bytes' >seeds/a
AFL_CUSTOM_MUTATOR_LIBRARY="$PWD/post_library_gif.so.so" \
    fz-fuzz -q -s 1 -E 3000 -i seeds -o a3 -- ./ct @@ >a3.log 2>&1
rc=$?
[ $rc = 0 ] || { cat a3.log; ls a3/default/crashes; fail "AFL++ post_library_gif: exit $rc, want 0 (no run without its header)"; }
ok "[$FZ_TEST_CC] AFL++'s example.c, simple_example.c, post_library_gif.so.c"
