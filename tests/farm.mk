# The build farm (tests/farm/farm.sh): real Debian source packages built
# with fz-cc and fz-clang at their own default flags, their test suites run
# on the instrumented builds, and the table printed and written to
# tests/out/farm/table.md.  Not part of `make check`: it downloads sources
# and takes a while.  FARM_PROJECTS, FARM_COMPILERS, FARM_SWEEP=1,
# FARM_PLAIN, FARM_CACHE, FARM_OUT, FARM_JOBS and FARM_TIME_JOBS pass through; see
# tests/farm/README.md.
.PHONY: farm
farm: all
	@tests/farm/farm.sh
