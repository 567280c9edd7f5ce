/*
 * cmp_kinds.c - one comparison of each kind the back ends hook, on bytes
 * of the input (stdin), for tests/e2e/cmplog_hooks.sh.  Each check is
 * written the way real parsers write it; the test feeds an input that
 * matches none of them and looks for each constant in the log.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define _GNU_SOURCE_MEMMEM
void *memmem(const void *h, size_t hl, const void *n, size_t nl);

static int hits;

/* noinline: the compiler must not fold the compare against the test's
 * fixed input. */
__attribute__((noinline)) static void ints(const uint8_t *b)
{
    uint8_t c8 = b[0];
    uint16_t c16;
    uint32_t c32;
    uint64_t c64;
    memcpy(&c16, b + 1, 2);
    memcpy(&c32, b + 3, 4);
    memcpy(&c64, b + 7, 8);
    if (c8 == 0x5a)
        hits++;
    if (0xbeef == c16) /* constant on the left */
        hits++;
    if (c32 == 0xdeadbeefu)
        hits++;
    if (c64 == 0x1122334455667788ull)
        hits++;
    if ((int32_t)c32 < -12345) /* an order, signed */
        hits++;
    if (c32 == c16 + 7u) /* neither side constant */
        hits++;
#ifdef __SIZEOF_INT128__
    unsigned __int128 c128;
    memcpy(&c128, b + 15, 16);
    if (c128 == (((unsigned __int128)0x0102030405060708ull << 64) | 0x090a0b0c0d0e0f10ull))
        hits++;
#endif
}

__attribute__((noinline)) static void tag16(const uint8_t *b)
{
    uint16_t tag;
    memcpy(&tag, b + 31, 2);
    switch (tag) {
    case 0x1001: hits += 1; break;
    case 0x2002: hits += 2; break;
    case 0x3003: hits += 3; break;
    case 0x4004: hits += 5; break;
    case 0x7777: hits += 7; break;
    }
}

__attribute__((noinline)) static void strings(const char *s, size_t n)
{
    if (memcmp(s, "MEMCMP-KEY-0123456789", 21) == 0) /* a call at -O2 too */
        hits++;
    if (memcmp(s, "INLN", 4) == 0) /* folded into a 32-bit compare at -O2 */
        hits++;
    if (bcmp(s, "BCMPKEY!", 8) == 0)
        hits++;
    if (strcmp(s, "strcmp-keyword") == 0)
        hits++;
    if (strcmp(s, "ab") == 0) /* expanded inline by GCC at -O2 */
        hits++;
    if (strncmp(s, "strncmp-key", 11) == 0)
        hits++;
    if (strcasecmp(s, "CaseKey") == 0)
        hits++;
    if (strncasecmp(s, "NCaseKey", 8) == 0)
        hits++;
    if (strstr(s, "needle-strstr"))
        hits++;
    if (memmem(s, n, "needle-memmem", 13))
        hits++;
}

int main(void)
{
    char buf[256] = {0};
    size_t n = fread(buf, 1, sizeof(buf) - 1, stdin);
    ints((const uint8_t *)buf);
    tag16((const uint8_t *)buf);
    strings(buf, n);
    printf("%d\n", hits);
    return 0;
}
