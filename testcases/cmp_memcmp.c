/*
 * cmp_memcmp.c - a crash behind a 12-byte key compared with memcmp after a
 * 4-byte prefix.
 */
#include "cmp_common.h"

static const char key[] = "FZ_SECRETKEY";

int main(int argc, char **argv)
{
    unsigned char buf[256];
    size_t n = cmp_read_input(argc, argv, buf, sizeof buf);
    if (n >= 4 + sizeof key - 1 && memcmp(buf + 4, key, sizeof key - 1) == 0)
        abort();
    return 0;
}
