/*
 * lf_merge.c - a libFuzzer-style harness for tests/e2e/libfuzzer_merge.sh:
 * each first letter a..h takes a branch of its own (a new feature per
 * letter), an input "KILL" kills the process that started this one and
 * then this one (a merge killed mid-way, outer and inner process), and
 * with LF_MERGE_LOG set every input is appended to that file as a line,
 * so the test sees which inputs ran.
 */
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile int sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *log = getenv("LF_MERGE_LOG");
    if (log) {
        FILE *f = fopen(log, "a");
        if (f) {
            fprintf(f, "%.*s\n", (int)size, (const char *)data);
            fclose(f);
        }
    }
    if (size == 4 && !memcmp(data, "KILL", 4)) {
        kill(getppid(), SIGKILL);
        raise(SIGKILL);
    }
    switch (size ? data[0] : 0) {
    case 'a':
        sink = 1;
        __asm__ volatile("" ::: "memory"); /* a block of its own, no table */
        break;
    case 'b':
        sink = 2;
        __asm__ volatile("" ::: "memory"); /* a block of its own, no table */
        break;
    case 'c':
        sink = 3;
        __asm__ volatile("" ::: "memory"); /* a block of its own, no table */
        break;
    case 'd':
        sink = 4;
        __asm__ volatile("" ::: "memory"); /* a block of its own, no table */
        break;
    case 'e':
        sink = 5;
        __asm__ volatile("" ::: "memory"); /* a block of its own, no table */
        break;
    case 'f':
        sink = 6;
        __asm__ volatile("" ::: "memory"); /* a block of its own, no table */
        break;
    case 'g':
        sink = 7;
        __asm__ volatile("" ::: "memory"); /* a block of its own, no table */
        break;
    case 'h':
        sink = 8;
        __asm__ volatile("" ::: "memory"); /* a block of its own, no table */
        break;
    default: sink = 0; break;
    }
    return 0;
}
