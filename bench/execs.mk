# bench/execs.mk - executions per second, fz-fuzz vs afl-fuzz (bench/execs.sh).
BENCH += bench/execs.sh
