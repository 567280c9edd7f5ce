# JsonCpp: C++, Meson; meson test runs the unit tests and the JSON
# conformance runner (python3).
pkg=libjsoncpp system=meson lang=C++
