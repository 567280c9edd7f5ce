/*
 * cmp_tailcall.c - calls GCC makes tail calls, ending in a return block
 * they share with an early return: set_bits returns -2 for a bad width or
 * the result of keep_state (a tail call), and GCC's tailc pass marks that
 * call before fz's edge pass adds the return block's counter.  A logging
 * copy (-O0 options, no sibling calls) comes back from the call through
 * that block; the plain code jumps to keep_state and never does, so the
 * edge pass must leave such calls returning as calls for a logging run to
 * light the slots a plain run lights (tests/e2e/cmplog_same_map.sh).
 */
#include "cmp_common.h"

struct state {
    int bits, wrap, keep;
};

__attribute__((noinline)) static int keep_state(struct state *s, const unsigned char *in, size_t n)
{
    s->keep = n > 4 && in[4] == 'K';
    return s->keep ? 1 : 0;
}

__attribute__((noinline)) static int set_bits(struct state *s, int bits, const unsigned char *in,
                                              size_t n)
{
    if (bits < 0) {
        if (bits < -15)
            return -2;
        s->wrap = 0;
        bits = -bits;
    } else {
        s->wrap = (bits >> 4) + 1;
        if (bits < 48)
            bits &= 15;
    }
    if (bits && (bits < 8 || bits > 15))
        return -2;
    s->bits = bits;
    return keep_state(s, in, n);
}

int main(int argc, char **argv)
{
    static unsigned char buf[256];
    size_t n = cmp_read_input(argc, argv, buf, sizeof buf);
    struct state s = {0, 0, 0};
    int bits = n ? (signed char)(buf[0] ^ 0x60) : 15; /* "h...": 8 */
    int r = set_bits(&s, bits, buf, n);
    if (r == 1 && n > 3 && memcmp(buf + 1, "TC", 2) == 0)
        abort();
    return r < 0;
}
