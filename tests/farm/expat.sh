# expat: the Debian source is a git snapshot without configure; Debian
# generates it (buildconf.sh: autoconf, automake, libtool) and so does the
# farm.  (Its CMake build does not compile Debian's patched xmlparse.c:
# the patches test XML_DTD == 1, which only the autotools config.h defines.)
# make check runs runtests and runtestspp.
pkg=expat system=autotools lang=C subdir=expat
conf_args="--without-docbook"
farm_configure() { ./buildconf.sh && ./configure $conf_args; }
