#!/bin/bash
# custom_value_profile.sh - value profile (include/fz-cmplog.h): on
# testcases/vp_chain.c (two 32-bit checks of bit-permuted input words,
# which comparison feedback cannot copy into the input), with comparison
# feedback off so distances alone must lead, fz-fuzz --value-profile
# (and FZ_VALUE_PROFILE=1) reaches the crash within -E and plain edge
# coverage does not; the harness's -use_value_profile=1 turns it on in
# the fz-fuzz it runs; it is off by default.
# matrix: cc
. "$(dirname "$0")/../lib.sh"
cd "$T"

fzcc -O1 -fsanitize=fuzzer -DVP_STAGES=2 -o vp "$FZ_ROOT/testcases/vp_chain.c" || fail "cannot build vp_chain.c"
mkdir seeds && head -c 8 /dev/zero >seeds/zero
budget=300000

FZ_NO_CMPLOG=1 fz-fuzz -q -s 1 -E $budget --until-crash --value-profile -i seeds -o on -- ./vp >on.log 2>&1
rc=$?
grep -q 'value profile: on' on.log || fail "no 'value profile: on' line"
[ $rc = 3 ] || { cat on.log; fail "--value-profile: exit $rc, want 3 (crash found)"; }
ok "[$FZ_TEST_CC] --value-profile: crash in $(sed -n 's/^execs_done *: //p' on/default/fuzzer_stats) runs"

FZ_NO_CMPLOG=1 FZ_VALUE_PROFILE=1 fz-fuzz -q -s 1 -E $budget --until-crash -i seeds -o env -- ./vp \
    >env.log 2>&1
[ $? = 3 ] || { cat env.log; fail "FZ_VALUE_PROFILE=1: no crash"; }

FZ_NO_CMPLOG=1 fz-fuzz -q -s 1 -E $budget --until-crash -i seeds -o off -- ./vp >off.log 2>&1
rc=$?
grep -q 'value profile' off.log && fail "value profile is on by default"
[ $rc = 0 ] || { cat off.log; fail "edges only: exit $rc, want 0 (no crash in $budget runs)"; }
ok "[$FZ_TEST_CC] without it: no crash in $budget runs"

mkdir corpus && cp seeds/zero corpus/
FZ_NO_CMPLOG=1 ./vp -seed=1 -runs=$budget -use_value_profile=1 corpus/ >lf.log 2>&1
grep -q "ignores '-use_value_profile" lf.log && fail "-use_value_profile=1 reported as ignored"
ls crash-* >/dev/null 2>&1 || { tail -20 lf.log; fail "./harness -use_value_profile=1 corpus/: no crash-* file"; }
ok "[$FZ_TEST_CC] ./harness -use_value_profile=1 corpus/ finds it"
