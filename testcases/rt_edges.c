/*
 * rt_edges.c - a target "instrumented by hand" for testing the runtime
 * without fz-cc: it declares its own counters and registers them with
 * __fz_register exactly as the plugins' modules do (docs/internals.md), and
 * bumps one counter per branch taken.  Reads the input from the file named
 * by argv[1], or stdin.  Input "FUZ!" crashes (SIGSEGV-free abort).
 *
 * Build:  gcc -O1 testcases/rt_edges.c lib/fz/fz-rt.o -o rt_edges
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_EDGES 16
static uint8_t counters[N_EDGES];
static uint8_t *area = counters;
#define EDGE(k) (area[(k)] = (uint8_t)(area[(k)] + 1 + (area[(k)] == 255)))

void __fz_register(uint8_t **area, uint32_t n) __attribute__((weak));

__attribute__((constructor(101))) static void reg(void)
{
    if (__fz_register)
        __fz_register(&area, N_EDGES);
}

int main(int argc, char **argv)
{
    char buf[256] = {0};
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : stdin;
    if (!f)
        return 2;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    EDGE(0);
    if (n > 0 && buf[0] == 'F') {
        EDGE(1);
        if (n > 1 && buf[1] == 'U') {
            EDGE(2);
            if (n > 2 && buf[2] == 'Z') {
                EDGE(3);
                if (n > 3 && buf[3] == '!') {
                    EDGE(4);
                    abort();
                }
            }
        }
    } else {
        EDGE(5);
    }
    for (size_t i = 0; i < n; i++)
        if (buf[i] == 'x')
            EDGE(6);
    printf("read %zu bytes\n", n);
    return 0;
}
