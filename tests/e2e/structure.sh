#!/bin/bash
# structure.sh - the tree keeps the shape docs/internals.md ("Rooms")
# promises: no .c file over 600 lines in core/, fz-fuzz/, runtime/; no
# import circle between modules; calls between rooms only the allowed ways;
# nothing outside core/ reads fz_fsrv_t's fields.  The check itself is scripts/structure.sh (it reads build/, so
# this runs after make); work under way is allowed in scripts/structure.allow.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1

# --- The check sees each kind of violation, in a small tree made for it.
t=$T/tree
mkdir -p "$t"/core "$t"/fz-fuzz "$t"/runtime "$t"/scripts
printf '#include "b.h"\n' >"$t"/core/a.c
printf '#include "a.h"\n' >"$t"/core/b.c
: >"$t"/core/a.h
: >"$t"/core/b.h
printf '#include "y.h"\n' >"$t"/runtime/x.h
printf '#include "z.h"\n' >"$t"/runtime/y.c
printf '#include "x.h"\n' >"$t"/runtime/z.c
: >"$t"/runtime/y.h
: >"$t"/runtime/z.h
seq 601 | sed 's/^/int v/; s/$/;/' >"$t"/fz-fuzz/big.c
printf 'int f(void) { return st->exec.fs.pid; }\n' >"$t"/fz-fuzz/peek.c
mkdir -p "$t"/mutators
printf '#include "fz-fuzz/peek.h"\n' >"$t"/mutators/up.c
: >"$t"/fz-fuzz/peek.h
"$FZ_ROOT/scripts/structure.sh" "$t" >out.log 2>&1 && { cat out.log; fail "a tree with violations passed"; }
grep -q '^FAIL size fz-fuzz/big.c: 601 lines' out.log || { cat out.log; fail "the 601-line file was not named"; }
grep -q '^FAIL fsrv fz-fuzz/peek.c' out.log || { cat out.log; fail "exec.fs. outside core/ was not named"; }
grep -q '^FAIL cycle core/a core/b:' out.log || { cat out.log; fail "a.c <-> b.c was not named"; }
grep -q '^FAIL cycle runtime/x runtime/y runtime/z:' out.log || { cat out.log; fail "the ring x -> y -> z -> x was not named"; }
grep -q '^FAIL room mutators/up: includes fz-fuzz/peek: mutators/ may not use fz-fuzz/' out.log ||
    { cat out.log; fail "mutators/ including fz-fuzz/ was not named"; }
printf 'size fz-fuzz/big.c\nfsrv fz-fuzz/*\ncycle core/*\ncycle runtime/*\nroom mutators/up\nsize gone.c\n' >"$t"/scripts/structure.allow
"$FZ_ROOT/scripts/structure.sh" "$t" >out.log 2>&1 || { cat out.log; fail "allowed violations failed the check"; }
grep -q '^stale allowance.*size gone.c' out.log || { cat out.log; fail "a stale allowance was not reported"; }
ok "the check names each kind of violation and honours allowances"

# --- fz's own tree.
"$FZ_ROOT/scripts/structure.sh" "$FZ_ROOT" || fail "the tree's structure broke a rule above"
ok "structure"
