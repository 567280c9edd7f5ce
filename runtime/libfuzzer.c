/*
 * libfuzzer.c - main() for libFuzzer-style harnesses (lib/fz/fz-libfuzzer.o,
 * linked by fz-cc for -fsanitize=fuzzer instead of libFuzzer).
 *
 * Under a fuzzer it runs LLVMFuzzerTestOneInput in persistent mode with
 * shared-memory test cases (or the file named by @@ when the fuzzer offers
 * none), forking after LLVMFuzzerInitialize (deferred init).  Outside a
 * fuzzer it takes libFuzzer's command line (lf-cli.h): corpus directories
 * are fuzzed through fz-fuzz, `./harness FILE...` runs each file once, as
 * libFuzzer's reproduce mode does, and `./harness < FILE` runs stdin
 * once.
 *
 * Every input is copied into a heap buffer of exactly its size, so ASan
 * reports a read one byte past the end.
 */
#include <dirent.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fz-config.h"
#include "fz-protocol.h"
#include "runtime/lf-cli.h"

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
    fprintf(stderr, "Executed %s\n", path);
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

/* Under a fuzzer: each input from shared memory, or, when the fuzzer
 * writes files instead (`-- ./harness @@` with a fuzzer that offers no
 * shared-memory input), from the file named on the command line, read
 * again for every input. */
static int fuzz_loop(int argc, char **argv, int shm_input)
{
    const char *file = NULL;
    for (int i = 1; i < argc && !file && !shm_input; i++)
        if (argv[i][0] != '-')
            file = argv[i];
    uint8_t *buf = file ? malloc(FZ_MAX_INPUT) : NULL;
    /* A harness that mallocs and frees a few hundred KiB per input (zlib's
     * deflate state) would otherwise grow and trim the heap with brk() on
     * every run, a dozen system calls and their page faults each time; a
     * long-lived libFuzzer process seldom trims.  Keep freed memory. */
    mallopt(M_TRIM_THRESHOLD, 64 << 20);
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    while (__fz_persistent_loop(FZ_DRIVER_LOOP)) {
        if (!buf) {
            __fz_lf_custom_apply(); /* a request for the harness's own mutator */
            unsigned int len = __fz_testcase_len();
            run_one(__afl_fuzz_ptr, len);
            continue;
        }
        FILE *f = fopen(file, "rb");
        size_t len = f ? fread(buf, 1, FZ_MAX_INPUT, f) : 0;
        if (f)
            fclose(f);
        run_one(buf, len);
    }
    free(buf);
    return 0;
}

/* LeakSanitizer asks this at exit: the process that only drives fz-fuzz
 * is not checked (its bookkeeping is no leak of the harness); the
 * harness's own runs are. */
__attribute__((visibility("default"))) int __lsan_is_turned_off(void)
{
    return __fz_lf_driver;
}

__attribute__((visibility("default"))) int main(int argc, char **argv)
{
    int under_fuzzer = getenv(FZ_ENV_SHM_ID) != NULL;
    /* Run the libFuzzer way (corpus directories, -merge=1, ...): the
     * command line decides, nothing runs in this process (lf-modes.c). */
    long repeat = 1;
    if (!under_fuzzer && argc > 1) {
        int rc = __fz_lf_main(argc, argv, &repeat);
        if (rc >= 0)
            return rc;
    }
    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);
    unsigned char *fallback = __afl_fuzz_ptr;
    if (under_fuzzer)
        __fz_lf_custom_init(); /* LLVMFuzzerCustomMutator, ... (lf-mutate.c) */
    /* The fork point: everything above runs once per campaign. */
    __fz_manual_init();
    if (under_fuzzer)
        return fuzz_loop(argc, argv, __afl_fuzz_ptr != fallback);

    int files = 0, rc = 0;
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-')
            continue; /* a libFuzzer flag such as -runs=N (checked by __fz_lf_main) */
        files++;
        for (long k = 0; k < repeat; k++)
            rc |= run_path(argv[i]);
    }
    if (files) {
        fprintf(stderr, "***\n*** NOTE: fuzzing was not performed, you have only\n"
                        "***       executed the target code on a fixed set of inputs.\n***\n");
        return rc ? 1 : 0;
    }

    /* No arguments: stdin, once. */
    unsigned int len = __fz_testcase_len();
    run_one(__afl_fuzz_ptr, len);
    return 0;
}
