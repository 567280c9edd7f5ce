/*
 * crash_sites.c - target of tests/e2e/fuzz_crash_sites.sh.  Reads up to
 * 255 bytes (file argument or stdin).  Three things abort:
 *
 *   bug A, shallow: an input starting "A", or one of 1-2 bytes starting "B";
 *   bug B, deeper:  an input starting "B!ok".  Cutting "ok" off it leaves
 *                   "B!", which is bug A with the same signal, so a
 *                   minimizer that keeps "any SIGABRT" turns B's reproducer
 *                   into A's;
 *   four paths into one abort(): "C" followed by '1' at [1], '2' at [2],
 *                   '4' at [3] or '8' at [4] (each one bit away from '0'),
 *                   alone or together: many coverage maps, one bug.
 *
 * An input starting "S" (x86-64 only) faults with a stack pointer that
 * points nowhere, so the runtime's crash handler faults in turn while it
 * unwinds: the run must still end, with the signal of the first fault.
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static void bug_a(void)
{
    abort();
}

__attribute__((noinline)) static void bug_b(const char *s)
{
    if (s[0] == 'o' && s[1] == 'k')
        abort();
}

/* Stores between the tests keep the compiler from folding them into one
 * range check or table: each path must be edges of its own. */
static volatile int path;

__attribute__((noinline)) static void four_paths(const char *s)
{
    int bad = 0;
    if (s[0] == '1') {
        path = 1;
        bad = 1;
    }
    if (s[1] == '2') {
        path = 2;
        bad = 1;
    }
    if (s[2] == '4') {
        path = 3;
        bad = 1;
    }
    if (s[3] == '8') {
        path = 4;
        bad = 1;
    }
    if (bad)
        abort();
}

__attribute__((noinline)) static void bad_stack(void)
{
#if defined(__x86_64__)
    __asm__ volatile("mov $64, %rsp\n\tud2");
#endif
}

int main(int argc, char **argv)
{
    char buf[256] = {0};
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : stdin;
    if (!f)
        return 1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    if (n == 0)
        return 0;
    if (buf[0] == 'A' || (buf[0] == 'B' && n <= 2))
        bug_a();
    if (buf[0] == 'B' && buf[1] == '!')
        bug_b(buf + 2);
    if (buf[0] == 'C')
        four_paths(buf + 1);
    if (buf[0] == 'S')
        bad_stack();
    return 0;
}
