/*
 * lf_env.c - a libFuzzer-style harness for tests/e2e/libfuzzer_env.sh:
 * at start-up (in the driver's own process and, under fz-fuzz, in the
 * forkserver) it appends to $LF_ENV_OUT which process it is and the
 * sanitizer variables it was given, "unset" for one that is not set.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *out = getenv("LF_ENV_OUT");
    FILE *f = out ? fopen(out, "a") : NULL;
    if (!f)
        return 0;
    static const char *const names[] = {"LSAN_OPTIONS", "ASAN_OPTIONS", "UBSAN_OPTIONS"};
    fprintf(f, "%s", getenv("__AFL_SHM_ID") ? "fuzzed" : "driver");
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *v = getenv(names[i]);
        fprintf(f, " %s=%s", names[i], v ? v : "unset");
    }
    fprintf(f, "\n");
    fclose(f);
    return 0;
}

static volatile int sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size && data[0] == 'x') /* some coverage to fuzz for */
        sink = 1;
    return 0;
}
