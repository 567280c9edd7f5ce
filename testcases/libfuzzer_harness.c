/*
 * libfuzzer_harness.c - a libFuzzer-style harness (build with
 * `fz-cc -fsanitize=fuzzer`).  The planted bug: an input starting with
 * "LF!" crashes (abort).
 *
 * For tests: when RT_INIT_LOG names a file, LLVMFuzzerInitialize appends a
 * line to it (it must run once per campaign, before the fork point); when
 * RT_FORK_LOG names a file, each process appends a line at its first input,
 * so a test can count processes against executions; every input's size is
 * printed on stdout so reproduce mode can be checked.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void log_line(const char *var, const char *line)
{
    const char *log = getenv(var);
    if (!log)
        return;
    int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0600);
    if (fd >= 0) {
        if (write(fd, line, 2) != 2)
            perror(var);
        close(fd);
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    log_line("RT_INIT_LOG", "i\n");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* Each fuzzed child is forked from the forkserver before its first
     * input, so this flag starts at 0 in every child. */
    static int seen;
    if (!seen) {
        seen = 1;
        log_line("RT_FORK_LOG", "p\n");
    }
    printf("input of %zu bytes\n", size);
    if (size >= 3 && data[0] == 'L') {
        if (data[1] == 'F') {
            if (data[2] == '!')
                abort();
        }
    }
    return 0;
}
