/* cxx_comdat_b.cc - the other unit emitting cc_tree<int>'s group, and
 * main: prints how many keys each argument held and how many were 'B'. */
#include <cstdio>

#include "cxx_comdat.h"

int cc_seen;
int cc_fill(const char *s);

int main(int argc, char **argv)
{
    {
        cc_tree<int> t;
        for (int i = 1; i < argc; i++) {
            t.add(argv[i][0] == 'B' ? 0x4242 : argv[i][0]);
            std::printf("%d ", cc_fill(argv[i]));
        }
    }
    std::printf("%d\n", cc_seen);
    return 0;
}
