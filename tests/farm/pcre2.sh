# PCRE2: autotools; make check runs RunTest and RunGrepTest (no JIT: the
# default).
pkg=pcre2 system=autotools lang=C
