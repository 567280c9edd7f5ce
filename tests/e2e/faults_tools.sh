#!/bin/bash
# faults_tools.sh - the tools' -o (issue 26 pt 6, docs/faults.md): fz-tmin
# and fz-showmap never write through a symlink given as -o; fz-tmin never
# replaces an existing -o or its own -i unless -F says so.
. "$(dirname "$0")/../lib.sh"
. "$FZ_ROOT/tests/faults-lib.sh"
printf 'Cxxxxxxxxxxxxxxx' >crash.in
cp crash.in keep.in
printf precious >precious
ln -s precious link

expect "tmin -i X -o X" 1 "is the input file itself" fz-tmin -q -i crash.in -o crash.in -- ./ft crash @@
cmp -s crash.in keep.in || fail "fz-tmin changed its own -i"
printf old >old.out
expect "tmin onto an existing -o" 1 "already exists" fz-tmin -q -i crash.in -o old.out -- ./ft crash @@
[ "$(cat old.out)" = old ] || fail "fz-tmin overwrote an existing -o"
expect "tmin -o symlink" 1 "is a symlink" fz-tmin -q -i crash.in -o link -- ./ft crash @@
expect "tmin -F -o symlink" 1 "is a symlink" fz-tmin -q -F -i crash.in -o link -- ./ft crash @@
expect "showmap -o symlink" 1 "is a symlink" sh -c 'fz-showmap -q -o link -- ./ft crash <crash.in'
[ "$(cat precious)" = precious ] && [ -L link ] || fail "a tool wrote through the link"
ok "nothing was written through the link"

# -F: overwrite on purpose, the input itself included.
fz-tmin -q -F -i crash.in -o old.out -- ./ft crash @@ || fail "fz-tmin -F onto an existing -o failed"
[ "$(cat old.out)" = C ] || fail "fz-tmin -F did not write the result ('$(cat old.out)')"
fz-tmin -q -F -i crash.in -o crash.in -- ./ft crash @@ || fail "fz-tmin -F -i X -o X failed"
[ "$(cat crash.in)" = C ] || fail "fz-tmin -F -i X -o X did not replace X"
ok "fz-tmin -F overwrites -o, and its own -i"
# A device is fine, as before.
fz-showmap -q -o /dev/null -- ./ft crash <keep.in
[ $? = 3 ] || fail "fz-showmap -o /dev/null no longer works"
ok "fz-showmap -o /dev/null still works"
