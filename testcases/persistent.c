/*
 * persistent.c - a persistent-mode harness in the shape of AFL++'s
 * utils/persistent_mode/persistent_demo_new.c: deferred init, shared-memory
 * test cases, __AFL_LOOP.  It builds unchanged with fz-cc, afl-clang-fast
 * or a plain compiler (then it reads stdin, one input per loop pass).
 *
 * The planted bug: an input starting with "FZ!" crashes (abort).
 *
 * For tests: when RT_FORK_LOG names a file, each process appends one line
 * at its first loop pass, so a test can count processes against executions.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef __AFL_FUZZ_TESTCASE_LEN
/* Built without a fuzzer's compiler: read stdin until it is empty. */
ssize_t fuzz_len;
unsigned char fuzz_buf[1024000];
#define __AFL_FUZZ_TESTCASE_LEN fuzz_len
#define __AFL_FUZZ_TESTCASE_BUF fuzz_buf
#define __AFL_FUZZ_INIT() void sync(void)
#define __AFL_LOOP(x) ((fuzz_len = read(0, fuzz_buf, sizeof(fuzz_buf))) > 0 ? 1 : 0)
#define __AFL_INIT() sync()
#endif

__AFL_FUZZ_INIT();

static void note_process(void)
{
    const char *log = getenv("RT_FORK_LOG");
    if (!log)
        return;
    int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0600);
    if (fd >= 0) {
        if (write(fd, "p\n", 2) != 2)
            perror("RT_FORK_LOG");
        close(fd);
    }
}

static int check(const unsigned char *buf, int len)
{
    if (len < 3)
        return 0;
    if (buf[0] == 'F') {
        if (buf[1] == 'Z') {
            if (buf[2] == '!')
                abort();
            return 2;
        }
        return 1;
    }
    return 0;
}

int main(void)
{
#ifdef __AFL_HAVE_MANUAL_CONTROL
    __AFL_INIT();
#endif
    /* Read the buffer pointer after __AFL_INIT() and before the loop, as
     * AFL++'s example says: only then does it point at the shared memory. */
    unsigned char *buf = __AFL_FUZZ_TESTCASE_BUF;
    int first = 1;
    while (__AFL_LOOP(10000)) {
        if (first) {
            note_process();
            first = 0;
        }
        int len = __AFL_FUZZ_TESTCASE_LEN;
        printf("len %d level %d\n", len, check(buf, len));
    }
    return 0;
}
