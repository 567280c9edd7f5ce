# libyaml: CMake (the autotools files need autoreconf); ctest runs the
# version and reader tests.
pkg=libyaml system=cmake lang=C
