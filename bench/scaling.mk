# bench/scaling.mk - fz-fuzz -j 1 vs -j 2, and a libFuzzer harness under fz vs libFuzzer (bench/scaling.sh).
BENCH += bench/scaling.sh
