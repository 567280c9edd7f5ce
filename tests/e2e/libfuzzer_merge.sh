#!/bin/bash
# libfuzzer_merge.sh - an interrupted -merge=1 with -merge_control_file
# resumes as libFuzzer's does: the merge (outer and inner process) is
# killed on one file; run again with the same control file it says
# "control file ok", skips the file it stumbled on as "unlucky", does not
# run again the files it had done (only the kept ones, silently, for their
# coverage), and ends with the same corpus as a merge that was never
# interrupted; a control file written for other files is started afresh,
# and a finished merge run again with its control file runs nothing new.
# matrix: cc
. "$(dirname "$0")/../lib.sh"
[ -e "$FZ_ROOT/lib/fz/fz-libfuzzer.o" ] || fail "build fz first (make)"
cd "$T" || exit 1
fzcc -O1 -fsanitize=fuzzer "$FZ_ROOT/testcases/lf_merge.c" -o h || fail "cannot build lf_merge.c"
unset ASAN_OPTIONS UBSAN_OPTIONS
# Merge order is smallest first: a, bb, aaa, KILL, ccccc, dddddd, eeeeeee.
mkdir in out ref
printf a >in/1; printf bb >in/2; printf aaa >in/3; printf KILL >in/4
printf ccccc >in/5; printf dddddd >in/6; printf eeeeeee >in/7

(LF_MERGE_LOG=log1 exec ./h -merge=1 -merge_control_file=mcf out in >/dev/null 2>err1) 2>/dev/null
rc=$?
[ $rc = 0 ] && fail "the merge was not killed on KILL"
[ "$(tr '\n' ' ' <log1)" = "a bb aaa KILL " ] || fail "first run ran '$(tr '\n' ' ' <log1)'"
grep -q '^STARTED 3$' mcf || { cat mcf; fail "the control file does not say KILL was started"; }
[ "$(grep -c '^DONE ' mcf)" = 3 ] || { cat mcf; fail "the control file does not hold the 3 files done"; }
ok "killed mid-merge: the control file holds the 3 files done and the one started"

LF_MERGE_LOG=log2 ./h -merge=1 -merge_control_file=mcf out in >/dev/null 2>err2 ||
    { cat err2; fail "the resumed merge failed"; }
grep -q "^MERGE-OUTER: control file ok, 7 files total, first not processed file 3$" err2 ||
    { cat err2; fail "no 'control file ok' line"; }
grep -q "^MERGE-OUTER: 'in/4' will be skipped as unlucky" err2 || { cat err2; fail "KILL not skipped as unlucky"; }
grep -q "^MERGE-OUTER: 7 files, 0 in the initial corpus, 4 processed earlier$" err2 ||
    { cat err2; fail "no '4 processed earlier' line"; }
# Run again: the kept files a and bb (silently, for their coverage), then
# the rest; not aaa (done, not kept) or KILL.
[ "$(tr '\n' ' ' <log2)" = "a bb ccccc dddddd eeeeeee " ] || fail "the resumed merge ran '$(tr '\n' ' ' <log2)'"
grep -q '^MERGE-OUTER: 5 new files with [0-9]* new features added; [0-9]* new coverage edges$' err2 ||
    { cat err2; fail "resumed: want 5 new files (a, bb, ccccc, dddddd, eeeeeee)"; }
# The same corpus as an uninterrupted merge of the same files but KILL.
mkdir in2 && cp in/1 in/2 in/3 in/5 in/6 in/7 in2/
./h -merge=1 ref in2 >/dev/null 2>&1 || fail "the reference merge failed"
[ "$(ls out | sort)" = "$(ls ref | sort)" ] || fail "resumed merge kept $(ls out | tr '\n' ' '), uninterrupted $(ls ref | tr '\n' ' ')"
ok "resumed: unlucky file skipped, finished files not run again, same corpus as without the kill"

# A control file for other files: started afresh.
mkdir out3 in3 && printf b >in3/1 && printf c >in3/2
./h -merge=1 -merge_control_file=mcf out3 in3 >/dev/null 2>err3 || { cat err3; fail "merge over another control file failed"; }
grep -q '^MERGE-OUTER: the control file mcf is for other files; starting afresh$' err3 || { cat err3; fail "no 'starting afresh' line"; }
[ "$(ls out3 | wc -l)" = 2 ] || fail "fresh merge: want 2 files in out3"
[ "$(sed -n 1p mcf)" = 2 ] || fail "the control file was not rewritten for the new files"
ok "a control file for other files is started afresh"

# A finished merge run again with its control file: nothing to run again.
mkdir o4 i4 && printf a >o4/x && printf aa >i4/y
./h -merge=1 -merge_control_file=mcf4 o4 i4 >/dev/null 2>&1 || fail "merge into o4 failed"
LF_MERGE_LOG=log4 ./h -merge=1 -merge_control_file=mcf4 o4 i4 >/dev/null 2>err4 || { cat err4; fail "rerun failed"; }
grep -q '^MERGE-OUTER: nothing to do, merge has been completed before$' err4 || { cat err4; fail "no 'nothing to do' line"; }
[ "$(tr '\n' ' ' <log4)" = "a " ] || fail "the rerun of a finished merge ran '$(tr '\n' ' ' <log4)' (want only the initial a)"
ok "a finished merge run again runs nothing new"
