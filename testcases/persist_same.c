/*
 * persist_same.c - one parser, two harnesses (tests/e2e/fuzz_persistent_same.sh):
 * built plain it reads one input from the file named by argv[1]; built with
 * -DPERSIST it runs __AFL_LOOP(40) over shared-memory test cases.  A
 * campaign with the same -s and -E must keep the same queue from both.
 *
 * The parser has no loops, so every new entry lights a new edge and the
 * favored set is every entry however long runs take.  The persistent
 * harness has code after its loop, in main, whose counters are reached
 * through the map pointer main loaded on entry: if the runtime let those
 * writes reach the fuzzer's map, the last pass of every child would show
 * coverage no input has (the "leak" docs/persistent-mode.md describes).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Stores between the byte tests keep clang from merging them into one
 * wide compare that the fuzzer could not solve byte by byte. */
static volatile int depth;

__attribute__((noinline)) static void parse(const unsigned char *b, long n)
{
    if (n < 6)
        return;
    if (b[0] == 'p') {
        depth = 1;
        if (b[1] == 'e') {
            depth = 2;
            if (b[2] == 'r') {
                depth = 3;
                if (b[3] == 's') {
                    depth = 4;
                    if (b[4] == 'i')
                        depth = 5;
                }
            }
        }
    }
    if (b[5] == 'x')
        depth = 6;
    else if (b[5] == 'y')
        depth = 7;
}

#ifdef PERSIST
__AFL_FUZZ_INIT();

int main(int argc, char **argv)
{
    (void)argv;
    __AFL_INIT();
    unsigned char *buf = __AFL_FUZZ_TESTCASE_BUF;
    while (__AFL_LOOP(40))
        parse(buf, __AFL_FUZZ_TESTCASE_LEN);
    /* After the loop: edges no input reaches. */
    if (argc > 3)
        depth = 10;
    else if (depth == 99)
        depth = 11;
    else
        depth = 12;
    return depth == 10;
}
#else
int main(int argc, char **argv)
{
    unsigned char buf[64];
    int fd = argc > 1 ? open(argv[1], O_RDONLY) : 0;
    if (fd < 0)
        return 1;
    long n = read(fd, buf, sizeof buf);
    parse(buf, n);
    return 0;
}
#endif
