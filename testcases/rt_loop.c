/*
 * rt_loop.c - a hand-instrumented persistent, shared-memory harness for the
 * runtime's protocol tests (tests/check_runtime.c).  Built with a plain
 * compiler: gcc -include testcases/rt_afl_macros.h rt_loop.c lib/fz/fz-rt.o
 *
 * Slot k of its 8 counters is bumped when the input starts with byte 'a'+k;
 * input "!" aborts, input "x" calls exit(0) inside the loop, input "f"
 * forks a process that carries on with the loop (its __AFL_LOOP must
 * return 0 at once) and waits for it, input "h" hangs (pause()).  With
 * RT_CLOSE_FDS set it closes fds 198/199 before __AFL_INIT(), as a daemon
 * that closes every descriptor would.
 */
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define N_EDGES 8
static uint8_t counters[N_EDGES];
static uint8_t *area = counters;

void __fz_register(uint8_t **area, uint32_t n) __attribute__((weak));

__attribute__((constructor(101))) static void reg(void)
{
    if (__fz_register)
        __fz_register(&area, N_EDGES);
}

__AFL_FUZZ_INIT();

int main(void)
{
    if (getenv("RT_CLOSE_FDS")) {
        close(198);
        close(199);
    }
    __AFL_INIT();
    unsigned char *buf = __AFL_FUZZ_TESTCASE_BUF;
    while (__AFL_LOOP(4)) {
        unsigned int len = __AFL_FUZZ_TESTCASE_LEN;
        if (len == 0)
            continue;
        if (buf[0] == '!')
            abort();
        if (buf[0] == 'x')
            exit(0);
        if (buf[0] == 'h')
            for (;;)
                pause();
        if (buf[0] == 'f') {
            pid_t p = fork();
            if (p == 0)
                continue; /* not the fuzzer's child: the loop must end here */
            if (p > 0)
                waitpid(p, NULL, 0);
        }
        if (buf[0] >= 'a' && buf[0] < 'a' + N_EDGES)
            area[buf[0] - 'a']++;
    }
    return 0;
}
