/* cxx_comdat_a.cc - one of two units emitting cc_tree<int>'s group. */
#include "cxx_comdat.h"

int cc_fill(const char *s)
{
    cc_tree<int> t;
    int n = 0;
    for (; *s; s++, n++)
        t.add(*s == 'B' ? 0x4242 : *s);
    return n;
}
