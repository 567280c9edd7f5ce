#!/bin/bash
# plot_multi.sh - fz-plot on a -j campaign (issue 23 point 5): the total
# corpus counts each instance's own finds (synced entries once, seeds
# once), so it equals the -j summary line's corpus and is less than the
# sum of the instances' queues; a plot_data of a single row is drawn as a
# visible dot; the edges axis starts near the data, not at 0.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
fzcc -O1 -o demo "$FZ_ROOT/testcases/demo.c" || fail "cannot build demo.c"
export FZ_NO_AFFINITY=1
fz-fuzz -q -j 2 -s 1 -E 30000 -i "$FZ_ROOT/testcases/demo_seeds" -o out -- ./demo @@ >j.log 2>j.err
rc=$?
[ $rc = 0 ] || [ $rc = 3 ] || { cat j.err; fail "-j 2 exited $rc"; }
nsync=$(ls out/main/queue out/sec1/queue | grep -c ',sync:')
[ "$nsync" -gt 0 ] || fail "no entry was synced: nothing to check"
said=$(sed -n 's/^fz-fuzz: done\. .* corpus \([0-9]*\) (own finds).*/\1/p' j.log)
[ -n "$said" ] || { cat j.log; fail "no corpus in the -j summary line"; }

fz-plot out plot >plot.log 2>&1 || { cat plot.log; fail "fz-plot failed"; }
series() { awk '/<svg class="chart"/ { match($0, /data-title="[^"]*"/); t = substr($0, RSTART + 12, RLENGTH - 13) }
    /<polyline/ { match($0, /data-name="[^"]*"/); n = substr($0, RSTART + 11, RLENGTH - 12)
                  match($0, /data-y="[^"]*"/); print t "|" n "|" substr($0, RSTART + 8, RLENGTH - 9) }' "$1"; }
last() { series plot/index.html | awk -F'|' -v t="$1" -v n="$2" '$1 == t && $2 == n { k = split($3, v, " "); print v[k] }'; }
total=$(last "corpus size" "total (own finds)")
sum=$(($(last "corpus size" main) + $(last "corpus size" sec1)))
[ "$total" = "$said" ] || fail "fz-plot's total corpus is $total, the -j summary says $said"
[ "$total" -lt "$sum" ] || fail "the total ($total) counts synced entries: the instances' queues add up to $sum"
ok "total corpus $total = the -j summary's $said (the queues add up to $sum, $nsync synced)"

# One plot_data row: a dot, and the edges axis from near the value.
mkdir one && cp -r out/main one/main
{ head -1 out/main/plot_data; tail -1 out/main/plot_data; } >one/main/plot_data
fz-plot one/main oneplot >plot.log 2>&1 || { cat plot.log; fail "fz-plot failed on a one-row plot_data"; }
[ "$(grep -c '<circle class="point"' oneplot/index.html)" = 5 ] || fail "a one-row plot_data draws no dots"
edges=$(tail -1 out/main/plot_data | awk -F', *' '{ print $13 }')
first_tick=$(awk '/data-title="edges found"/ { on = 1 } on && /text-anchor="end"/ { sub(/.*font-size="11">/, ""); sub(/<.*/, ""); print; exit }' oneplot/index.html)
[ "$first_tick" -gt 0 ] && [ "$first_tick" -le "$edges" ] ||
    fail "the edges axis starts at '$first_tick', want above 0 and at most $edges"
ok "one row: dots drawn; the edges axis starts at $first_tick for $edges edges"
