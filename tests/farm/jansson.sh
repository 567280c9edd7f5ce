# jansson: CMake only in this tarball; ctest runs the API tests and the
# valid/invalid JSON suites.
pkg=jansson system=cmake lang=C
cmake_args="-DJANSSON_BUILD_DOCS=OFF"
