# cJSON: CMake, with its own -Werror warning set; ctest runs the unity tests.
pkg=cjson system=cmake lang=C
