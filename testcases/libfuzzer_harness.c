/*
 * libfuzzer_harness.c - a libFuzzer-style harness (build with
 * `fz-cc -fsanitize=fuzzer`).  The planted bug: an input starting with
 * "LF!" crashes (abort).
 *
 * For tests: when RT_INIT_LOG names a file, LLVMFuzzerInitialize appends a
 * line to it (it must run once per campaign, before the fork point); every
 * input's size is printed on stdout so reproduce mode can be checked.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *log = getenv("RT_INIT_LOG");
    if (log) {
        int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0600);
        if (fd >= 0) {
            if (write(fd, "init\n", 5) != 5)
                perror("RT_INIT_LOG");
            close(fd);
        }
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    printf("input of %zu bytes\n", size);
    if (size >= 3 && data[0] == 'L') {
        if (data[1] == 'F') {
            if (data[2] == '!')
                abort();
        }
    }
    return 0;
}
