# libxml2: autotools, without the Python bindings; make check runs runtest,
# testrecurse, testapi, testchar, testdict and friends.
pkg=libxml2 system=autotools lang=C
conf_args="--without-python"
farm_count() { awk '/^Total [0-9]+ tests, no errors/ {p += $2; t += $2}
    /^Total [0-9]+ tests, [0-9]+ errors/ {t += $2; p += $2 - $4} END {print p + 0, t + 0}'; }
