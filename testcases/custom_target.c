/*
 * custom_target.c - the target of the AFL++ custom mutator tests
 * (tests/e2e/custom_aflpp.sh).  Every input it is given must have passed
 * through a post_process: it starts with "AFL++" (AFL++'s
 * custom_mutators/examples/example.c and tests/custom_mutator_min.c add
 * it) or "GIF89a" (examples/post_library_gif.so.c); any other input is a
 * run that skipped post_process and dies of SIGSEGV.  The planted bug,
 * an abort, is the command "DEL" right after "AFL++", which example.c's
 * afl_custom_fuzz writes at the start of its mutations.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    static unsigned char buf[1 << 16];
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : stdin;
    if (!f)
        return 1;
    size_t n = fread(buf, 1, sizeof buf, f);
    if (n >= 6 && memcmp(buf, "GIF89a", 6) == 0)
        return 0;
    if (n < 5 || memcmp(buf, "AFL++", 5) != 0)
        raise(SIGSEGV); /* not post-processed */
    if (n >= 8 && buf[5] == 'D' && buf[6] == 'E' && buf[7] == 'L')
        abort();
    return 0;
}
