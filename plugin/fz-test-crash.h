/*
 * fz-test-crash.h - a TEST-ONLY fault switch for both plugins, so the
 * tests can check what fz-cc does when the compiler crashes with fz's
 * plugin or pass loaded (its fallback, docs/fz-cc.md "When the compiler
 * crashes").  Not for users: it makes the compiler crash on purpose.
 *
 *     FZ_TEST_CRASH=PART:FUNCTION
 *
 * PART is "cmp" (the comparison pass) or "edge" (the edge pass);
 * FUNCTION is a function's symbol name (exact, no globs).  When that part
 * reaches that function, the GCC plugin raises an internal compiler error
 * and the LLVM pass aborts, exactly like a real bug there would.  Unset
 * (always, outside tests): nothing happens.
 */
#ifndef FZ_TEST_CRASH_H
#define FZ_TEST_CRASH_H

#include <stdlib.h>
#include <string.h>

/* Whether FZ_TEST_CRASH names part and function fn. */
static inline bool fz_test_crash_wanted(const char *part, const char *fn)
{
    const char *v = getenv("FZ_TEST_CRASH");
    if (!v || !fn)
        return false;
    size_t n = strlen(part);
    return strncmp(v, part, n) == 0 && v[n] == ':' && strcmp(v + n + 1, fn) == 0;
}

/* Not a test switch: FZ_CMP_NO_COPY (anything but "" or "0") asks both
 * plugins for a guard at each comparison site instead of whole-function
 * logging copies: cheaper to compile, a little slower to run (docs/fz-cc.md,
 * "Compile time").  Here because both plugins include this header. */
static inline bool fz_cmp_copy_wanted(void)
{
    const char *v = getenv("FZ_CMP_NO_COPY");
    return !(v && *v && strcmp(v, "0") != 0);
}

#endif
