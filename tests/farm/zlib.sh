# zlib: hand-written ./configure (-O3 by default) and a plain Makefile;
# `make test` runs the static and shared example and minigzip checks.
pkg=zlib system=make lang=C
farm_configure() { ./configure; }
farm_test() { make test; }
farm_count() { awk '/test OK/ {p++; t++} /FAILED/ {t++} END {print p + 0, t + 0}'; }
