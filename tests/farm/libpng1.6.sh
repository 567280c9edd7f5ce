# libpng: autotools (./configure's -g -O2); make check runs pngtest, the
# pngvalid and pngstest suites against zlib.
pkg=libpng1.6 system=autotools lang=C
