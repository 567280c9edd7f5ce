/*
 * cmp_bulk.c - the comparison log's bad inputs, for
 * tests/e2e/cmplog_bulk.sh: three million compares at one site in a tight
 * loop (the log keeps the last FZ_CMP_PAIRS and counts them all), a
 * strcmp of two 4 MiB strings (FZ_CMP_STR_MAX bytes copied), and a
 * persistent loop (__AFL_LOOP, when built with fz-cc) whose own compares
 * are logged per pass.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BIG (4u << 20)

static uint32_t table[256];

/* A compare of loaded values (so it is not a loop counter's, which the
 * back ends leave alone), three million times. */
__attribute__((noinline)) static unsigned spin(uint8_t seed)
{
    unsigned found = 0;
    for (uint32_t i = 0; i < 256; i++)
        table[i] = i * 2654435761u;
    for (uint32_t i = 0; i < 3000000u; i++)
        if (table[i & 255] == 0x12345600u + seed)
            found++;
    return found;
}

__attribute__((noinline)) static int big_strcmp(void)
{
    char *a = malloc(BIG), *b = malloc(BIG);
    if (!a || !b)
        abort();
    memset(a, 'A', BIG - 1), a[BIG - 1] = 0;
    memset(b, 'A', BIG - 1), b[BIG - 1] = 0;
    b[BIG - 2] = 'B';
    int r = strcmp(a, b);
    free(a), free(b);
    return r;
}

int main(void)
{
    char buf[64];
    unsigned total = 0;
    while (__AFL_LOOP(1000)) {
        ssize_t n = read(0, buf, sizeof(buf) - 1);
        buf[n > 0 ? n : 0] = 0;
        total += strcmp(buf, "persist-key") == 0;
        total += spin((uint8_t)buf[0]);
        total += big_strcmp() < 0;
    }
    printf("%u\n", total);
    return 0;
}
