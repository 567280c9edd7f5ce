/*
 * lf_ladder.c - a libFuzzer-style harness that never crashes (build with
 * `fz-cc -fsanitize=fuzzer`): the first byte picks one of three branches
 * and a ladder of byte compares rewards each further correct byte, so a
 * fuzzer keeps finding new inputs for a while.  Used by the -j and
 * libFuzzer command-line tests and bench/scaling.sh, where a crash would
 * end the run early.
 */
#include <stddef.h>
#include <stdint.h>

static volatile unsigned sink;

/* Separate functions (not values), so no compiler folds the branches into
 * one table lookup: each first byte and each rung is its own edge. */
__attribute__((noinline)) static void on_a(void) { sink += 1; }
__attribute__((noinline)) static void on_b(void) { sink ^= 2; }
__attribute__((noinline)) static void on_c(void) { sink *= 3; }
__attribute__((noinline)) static void rung(unsigned i) { sink += i; }

#define RUNG(i, ch, next)                                                                          \
    if (n > (i) && d[i] == (ch)) {                                                                 \
        rung(i);                                                                                   \
        next                                                                                       \
    }

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 1)
        return 0;
    if (d[0] == 'a')
        on_a();
    else if (d[0] == 'b')
        on_b();
    else if (d[0] == 'c')
        on_c();
    RUNG(1, 's', RUNG(2, 'c', RUNG(3, 'a', RUNG(4, 'l', RUNG(5, 'e', RUNG(6, 's', RUNG(7, '-',
        RUNG(8, 'u', RUNG(9, 'p', RUNG(10, '!', RUNG(11, '!', RUNG(12, '!', ;))))))))))))
    return 0;
}
