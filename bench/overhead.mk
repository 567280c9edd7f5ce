# bench/overhead.mk - run-time cost of fz-cc instrumentation vs plain -O2 and AFL++.
BENCH += bench/overhead
