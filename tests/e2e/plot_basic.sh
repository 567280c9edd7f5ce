#!/bin/bash
# plot_basic.sh - fz-plot draws plot_data as SVG charts in one standalone
# index.html: every chart's numbers are plot_data's (an fz-fuzz and an
# afl-fuzz output directory), a two-instance directory gets a total line,
# and bad plot_data (empty, truncated, AFL 2.x format) is reported, not
# fatal.  Also --version.
. "$(dirname "$0")/../lib.sh"
[ -x "$FZ_BIN/fz-plot" ] || fail "build fz first (make)"
cd "$T" || exit 1

fz-plot --version | grep -Eq '^fz-plot \(fz\) [0-9]' || fail "fz-plot --version: $(fz-plot --version)"

fzcc -O1 -o demo "$FZ_ROOT/testcases/demo.c" 2>/dev/null || fail "fz-cc could not build testcases/demo.c"
fz-fuzz -q -s 1 -E 20000 -i "$FZ_ROOT/testcases/demo_seeds" -o out -- ./demo @@ >log 2>&1
[ $? = 3 ] || { cat log; fail "fuzzing the demo did not find its crash"; }

# "TITLE|NAME|Y values" for each polyline of a page.
series() { awk '/<svg class="chart"/ { match($0, /data-title="[^"]*"/); t = substr($0, RSTART + 12, RLENGTH - 13) }
    /<polyline/ { match($0, /data-name="[^"]*"/); n = substr($0, RSTART + 11, RLENGTH - 12)
                  match($0, /data-y="[^"]*"/); print t "|" n "|" substr($0, RSTART + 8, RLENGTH - 9) }' "$1"; }
# plot_data's column N (1-based) as the page prints numbers.
column() { awk -F', *' -v c="$2" '/^#/ { next } { v = $c; sub(/%$/, "", v); v += 0
    printf "%s%s", (NR > 2 ? " " : ""), (v == int(v) ? sprintf("%d", v) : sprintf("%.2f", v)) } END { print "" }' "$1"; }

check_page() { # DIR INSTANCE PAGE
    local pd=$1/plot_data
    for spec in "executions per second:11" "corpus size:4" "edges found:13" "crashes saved:8" "hangs saved:9"; do
        local title=${spec%:*} col=${spec##*:}
        local want got
        want=$(column "$pd" "$col")
        got=$(series "$3" | awk -F'|' -v t="$title" -v n="$2" '$1 == t && $2 == n { print $3 }')
        [ -n "$got" ] || fail "$3: no '$title' line for $2"
        [ "$got" = "$want" ] || fail "$3: '$title' of $2 is '$got', plot_data says '$want'"
    done
}

# fuzzer_stats.json: the same keys and values as fuzzer_stats.
j=out/default/fuzzer_stats.json
[ -s "$j" ] || fail "no fuzzer_stats.json"
while IFS= read -r line; do
    k=$(echo "${line%%:*}" | sed 's/ *$//'); v=${line#*: }
    grep -Fq "\"$k\": $v," "$j" || grep -Fq "\"$k\": $v"$'\n' "$j" || grep -Fq "\"$k\": \"$v\"" "$j" ||
        fail "fuzzer_stats.json lacks $k = $v"
done <out/default/fuzzer_stats
[ "$(grep -c '": ' "$j")" = "$(wc -l <out/default/fuzzer_stats)" ] || fail "fuzzer_stats.json has other keys"
if command -v python3 >/dev/null; then python3 -m json.tool "$j" >/dev/null || fail "fuzzer_stats.json is not JSON"; fi
ok "fuzzer_stats.json: same keys and values as fuzzer_stats"

fz-plot out plot >plot.log 2>&1 || { cat plot.log; fail "fz-plot failed on fz-fuzz's output"; }
[ "$(grep -c '<svg class="chart"' plot/index.html)" = 5 ] || fail "want 5 SVG charts"
grep -qiE '<script|https?://[^"]*\.(js|css)' plot/index.html && fail "the page loads scripts or remote files"
check_page out/default default plot/index.html
ok "fz-fuzz's plot_data: 5 charts, numbers equal plot_data's"

if command -v afl-fuzz >/dev/null; then
    AFL_SKIP_CPUFREQ=1 AFL_NO_UI=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1 \
        afl-fuzz -i "$FZ_ROOT/testcases/demo_seeds" -o aout -E 3000 -- ./demo @@ >alog 2>&1 ||
        { tail -5 alog; fail "afl-fuzz -E 3000 failed"; }
    head -1 aout/default/plot_data | grep -q edges_found || fail "afl-fuzz's plot_data has no edges_found"
    fz-plot aout aplot >plot.log 2>&1 || { cat plot.log; fail "fz-plot failed on afl-fuzz's output"; }
    check_page aout/default default aplot/index.html
    ok "afl-fuzz's plot_data: numbers equal plot_data's"
else
    fz_skip_part "afl-fuzz is not installed (apt-get install afl++): afl-fuzz directory not checked"
fi

# Two instances (as -M/-S or -j leave them): each instance plus a total.
mkdir multi && cp -r out/default multi/main && cp -r out/default multi/s1
fz-plot multi mplot >plot.log 2>&1 || { cat plot.log; fail "fz-plot failed on two instances"; }
series mplot/index.html | grep -q '^corpus size|total (own finds)|' || fail "no total line for two instances"
# Two copies hold the same seeds: the total counts them once (both
# instances' own finds, plus the seeds; plot_multi.sh checks imports).
seeds=$(ls out/default/queue | grep -c ',orig:')
last=$(tail -1 out/default/plot_data | awk -F', *' -v s="$seeds" '{ print $4 * 2 - s }')
series mplot/index.html | awk -F'|' '$1 == "corpus size" && $2 == "total (own finds)" { n = split($3, v, " "); print v[n] }' |
    grep -qx "$last" || fail "the total corpus is not both instances' own finds plus the seeds once ($last)"
ok "two instances: both lines and their total"

# Bad plot_data: empty, a truncated last line, AFL 2.x's older format.
: >multi/s1/plot_data
fz-plot multi bad1 >plot.log 2>&1 || { cat plot.log; fail "an empty plot_data of one instance was fatal"; }
grep -q 's1: plot_data: empty file' plot.log || { cat plot.log; fail "the empty plot_data is not reported"; }
printf '# unix_time, cycles_done, cur_path, paths_total, pending_total, pending_favs, map_size, unique_crashes, unique_hangs, max_depth, execs_per_sec\n1500000000, 0, 0, 2, 2, 0, 1.00%%, 0, 0, 1, 100.00\n1500000005, 1, 1, 3, 1, 0, 2.00%%, 1, 0, 2, 200.00\n1500000010, 1, 1, 3' >multi/s1/plot_data
fz-plot multi/s1 old >plot.log 2>&1 || { cat plot.log; fail "AFL 2.x plot_data was fatal"; }
grep -q '1 line(s) of plot_data skipped' plot.log || { cat plot.log; fail "the truncated line is not reported"; }
series old/index.html | grep -qx 'corpus size|s1|2 3' || fail "AFL 2.x corpus: $(series old/index.html)"
grep -q 'edges found: not in this plot_data' old/index.html || fail "the missing edges column is not explained"
: >multi/main/plot_data; : >multi/s1/plot_data
fz-plot multi bad2 >plot.log 2>&1 && fail "fz-plot succeeded with no plot_data at all"
fz-plot nonexistent bad3 >plot.log 2>&1 && fail "fz-plot succeeded on a missing directory"
grep -q "cannot read 'nonexistent'" plot.log || { cat plot.log; fail "unclear message for a missing directory"; }
ok "empty, truncated and AFL 2.x plot_data reported; missing directory refused"
