/*
 * rt_bigmap.c - a hand-instrumented target that needs a bigger coverage
 * map than any fuzzer offers: one module of RT_BIGMAP_SLOTS slots (9 MiB,
 * over fz's FZ_MAP_SIZE_MAX and the legacy handshake's limit).  Built with
 * a plain compiler and lib/fz/fz-rt.o (tests/e2e/runtime_faults.sh).
 *
 * With RT_LEGACY set it drops __FZ_FSRV_VERSION before the forkserver
 * starts, so the runtime speaks the legacy handshake as it would under an
 * AFL++ before 4.20: the fuzzer's side of that path is reachable too.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define RT_BIGMAP_SLOTS (9u << 20)
static uint8_t counters[RT_BIGMAP_SLOTS];
static uint8_t *area = counters;

void __fz_register(uint8_t **area, uint32_t n) __attribute__((weak));

__attribute__((constructor(101))) static void reg(void)
{
    if (__fz_register)
        __fz_register(&area, RT_BIGMAP_SLOTS);
}

/* Default priority: runs before the runtime's forkserver constructor,
 * which is linked after this file. */
__attribute__((constructor)) static void legacy(void)
{
    if (getenv("RT_LEGACY"))
        unsetenv("__FZ_FSRV_VERSION");
}

int main(void)
{
    int c = getchar();
    area[c < 0 ? 0 : (unsigned)c % RT_BIGMAP_SLOTS]++;
    return 0;
}
