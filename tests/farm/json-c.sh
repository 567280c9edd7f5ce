# json-c: CMake; ctest runs its test programs against their expected output.
# Without valgrind (USE_VALGRIND=0): Debian 12's valgrind 3.19 cannot read
# clang 14's DWARF 5 and fails every test of a plain clang build as well.
pkg=json-c system=cmake lang=C
farm_test() { (cd _fzb && USE_VALGRIND=0 ctest -j"$FARM_JOBS" --output-on-failure); }
