# giflib: a plain Makefile (-O2, no -g).  Its `all` also builds the manual
# pages with xmlto, which the farm does not need, so the build names the
# libraries and utilities; the tests render and re-encode the pictures in
# pic/ and compare them with the expected files (tests/makefile).
pkg=giflib system=make lang=C
farm_build() {
    local utils
    utils=$(printf 'fz-print-utils:\n\t@echo $(UTILS)\n' | make -s -f Makefile -f - fz-print-utils) || return 1
    make -j"$FARM_JOBS" ${FARM_FLAGS:+OFLAGS="$FARM_FLAGS"} libgif.so libgif.a libutil.so libutil.a $utils
}
farm_test() { make -C tests; }
farm_count() { awk '/^Testing |^gif[a-z]*: / {t++} /differ|EOF on|rror/ {f++} END {print t - f, t + 0}'; }
