# yaml-cpp: C++, CMake, tests against the system googletest (libgtest-dev,
# as Debian builds it); ctest runs the one gtest binary.
pkg=yaml-cpp system=cmake lang=C++
cmake_args="-DYAML_CPP_BUILD_TESTS=ON -DYAML_CPP_BUILD_TOOLS=OFF"
