/*
 * libfuzzer.c - main() for libFuzzer-style harnesses (lib/fz/fz-libfuzzer.o,
 * linked by fz-cc for -fsanitize=fuzzer instead of libFuzzer).
 *
 * Under a fuzzer it runs LLVMFuzzerTestOneInput in persistent mode with
 * shared-memory test cases, forking after LLVMFuzzerInitialize (deferred
 * init).  Outside a fuzzer `./harness FILE...` runs each file once, as
 * libFuzzer's reproduce mode does (arguments starting with '-' are
 * libFuzzer flags and are ignored; a directory runs every file in it), and
 * `./harness < FILE` runs stdin once.
 *
 * Every input is copied into a heap buffer of exactly its size, so ASan
 * reports a read one byte past the end.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fz-config.h"
#include "fz-protocol.h"

/* Inputs per child before it is replaced by a fresh fork: large enough that
 * forks are rare, small enough that slow leaks in a harness cannot pile up
 * forever. */
#define FZ_DRIVER_LOOP 100000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv);

/* Runtime entry points (lib/fz/fz-rt.o; the harness macros call the same). */
int __fz_persistent_loop(unsigned int max);
void __fz_manual_init(void);
unsigned int __fz_testcase_len(void);
extern unsigned char *__afl_fuzz_ptr;

/* Asks the runtime for shared-memory test cases, as __AFL_FUZZ_INIT() does. */
__attribute__((visibility("default"))) int __afl_sharedmem_fuzzing = 1;

/* Fuzzers look for these bytes in the binary to switch on persistent mode
 * and deferred start-up (as afl-fuzz does). */
__attribute__((used)) static const char sig_persistent[] = FZ_SIG_PERSISTENT;
__attribute__((used)) static const char sig_defer[] = FZ_SIG_DEFER;

static void run_one(const uint8_t *data, size_t len)
{
    uint8_t *copy = malloc(len ? len : 1);
    if (!copy) {
        fprintf(stderr, "fz-libfuzzer: out of memory for a %zu-byte input\n", len);
        abort();
    }
    if (len)
        memcpy(copy, data, len);
    LLVMFuzzerTestOneInput(copy, len);
    free(copy);
}

/* Runs one file; returns 0, or -1 after printing why it could not. */
static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "fz-libfuzzer: cannot open '%s'; give existing input files\n", path);
        return -1;
    }
    uint8_t *buf = malloc(FZ_MAX_INPUT);
    if (!buf)
        abort();
    size_t len = fread(buf, 1, FZ_MAX_INPUT, f);
    fclose(f);
    fprintf(stderr, "Running: %s (%zu bytes)\n", path, len);
    run_one(buf, len);
    free(buf);
    return 0;
}

/* Runs a file, or every regular file in a directory (one level). */
static int run_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        if (!d)
            return run_file(path);
        int rc = 0;
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (e->d_name[0] == '.')
                continue;
            size_t n = strlen(path) + strlen(e->d_name) + 2;
            char *p = malloc(n);
            snprintf(p, n, "%s/%s", path, e->d_name);
            if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
                rc |= run_file(p);
            free(p);
        }
        closedir(d);
        return rc;
    }
    return run_file(path);
}

__attribute__((visibility("default"))) int main(int argc, char **argv)
{
    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);
    /* The fork point: everything above runs once per campaign. */
    __fz_manual_init();

    int files = 0, rc = 0;
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-')
            continue; /* a libFuzzer flag such as -runs=N */
        files++;
        rc |= run_path(argv[i]);
    }
    if (files)
        return rc ? 1 : 0;

    /* Shared memory under a fuzzer, stdin otherwise (once, then EOF). */
    while (__fz_persistent_loop(FZ_DRIVER_LOOP)) {
        unsigned int len = __fz_testcase_len();
        run_one(__afl_fuzz_ptr, len);
    }
    return 0;
}
