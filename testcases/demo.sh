#!/bin/bash
# demo.sh - run by `make demo`: the whole main job on a bundled target.
# Builds testcases/demo.c with fz-cc, fuzzes it until the first crash (at
# most FZ_DEMO_SECONDS, default 10; the crash takes about 5000 runs, a second
# or two), then shows the crash that was found and the exact command that
# reproduces it.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$root/bin
work=${FZ_DEMO_DIR:-$root/tests/out/demo}
secs=${FZ_DEMO_SECONDS:-10}
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1

echo "== 1. build the target with fz-cc"
echo "   $bin/fz-cc -O1 -o demo $root/testcases/demo.c"
"$bin/fz-cc" -O1 -o demo "$root/testcases/demo.c" || exit 1

echo "== 2. fuzz it until the first crash, at most $secs seconds (-V, --until-crash)"
cmd=("$bin/fz-fuzz" -q -V "$secs" --until-crash -i "$root/testcases/demo_seeds" -o out -- ./demo @@)
echo "   (cd $work && ${cmd[*]})"
"${cmd[@]}"
rc=$?
echo "   fz-fuzz exit status: $rc (3 = crash found, see docs/exit-codes.md)"
[ $rc = 3 ] || { echo "demo: no crash found in $secs s (try FZ_DEMO_SECONDS=120)" >&2; exit 1; }

echo "== 3. the crash"
crash=$(ls out/default/crashes/id:* | head -n 1)
echo "   file: $work/$crash"
od -A d -t x1z "$crash" | sed 's/^/   /'
echo "   reproduce it by hand:"
echo "   (cd $work && ./demo '$crash')"
{ ./demo "$crash"; } >/dev/null 2>&1
status=$?
echo "   exit status $status ($( [ $status -gt 128 ] && kill -l $((status - 128)) ))"
[ $status -gt 128 ] || { echo "demo: the saved crash did not reproduce" >&2; exit 1; }
echo "== done: see $work/out/default/crashes/README.txt"
