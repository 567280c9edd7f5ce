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
#define _GNU_SOURCE
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fz-config.h"
#include "fz-protocol.h"
#include "runtime/lf-cli.h"
#include "runtime/lf-mutate.h"
#include "runtime/lf-run.h"

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

/* Resource checks inside a fuzzed child (lf-fuzz.c passes the limits
 * through the environment when it runs fz-fuzz): an input over a limit,
 * or one that leaks, aborts, so the fuzzer keeps it as a crash; the
 * driver runs it again in process, where lf-run.c names what it is
 * (oom-, leak-). */
extern int __sanitizer_install_malloc_and_free_hooks(void (*m)(const volatile void *, size_t),
                                                     void (*f)(const volatile void *))
    __attribute__((weak));
extern int __lsan_do_recoverable_leak_check(void) __attribute__((weak));

static struct {
    size_t malloc_limit;
    long rss_limit_mb;
    int leaks;
    volatile int running;
    volatile long mallocs, frees;
} ck;

static void ck_malloc(const volatile void *p, size_t size)
{
    (void)p;
    if (!ck.running)
        return;
    ck.mallocs++;
    if (ck.malloc_limit && size > ck.malloc_limit)
        abort();
}

static void ck_free(const volatile void *p)
{
    (void)p;
    if (ck.running)
        ck.frees++;
}

static void *ck_rss(void *arg)
{
    (void)arg;
    for (;;) {
        usleep(100 * 1000);
        if (__fz_lf_rss_now_mb() > ck.rss_limit_mb)
            abort();
    }
    return NULL;
}

static void checks_start(void)
{
    const char *m = getenv("FZ_LF_MALLOC_LIMIT_MB"), *r = getenv("FZ_LF_RSS_LIMIT_MB"),
               *l = getenv("FZ_LF_DETECT_LEAKS");
    ck.malloc_limit = m ? (size_t)strtoul(m, NULL, 10) << 20 : 0;
    ck.rss_limit_mb = r ? strtol(r, NULL, 10) : 0;
    ck.leaks = l && *l == '1' && __lsan_do_recoverable_leak_check;
    if ((ck.malloc_limit || ck.leaks) && __sanitizer_install_malloc_and_free_hooks)
        __sanitizer_install_malloc_and_free_hooks(ck_malloc, ck_free);
    else
        ck.leaks = 0;
    if (ck.rss_limit_mb > 0)
        __fz_lf_watcher(ck_rss);
}

static void run_one(const uint8_t *data, size_t len) LF_FRAME(7, RunUnit);
static void run_one(const uint8_t *data, size_t len)
{
    uint8_t *copy = malloc(len ? len : 1);
    if (!copy) {
        fprintf(stderr, "fz-libfuzzer: out of memory for a %zu-byte input\n", len);
        abort();
    }
    if (len)
        memcpy(copy, data, len);
    ck.mallocs = ck.frees = 0;
    ck.running = 1;
    LLVMFuzzerTestOneInput(copy, len);
    ck.running = 0;
    free(copy);
    if (ck.leaks && ck.mallocs != ck.frees && __lsan_do_recoverable_leak_check())
        abort();
}

/* Under a fuzzer: each input from shared memory, or, when the fuzzer
 * writes files instead (`-- ./harness @@` with a fuzzer that offers no
 * shared-memory input), from the file named on the command line, read
 * again for every input. */
static int fuzz_loop(int argc, char **argv, int shm_input) LF_FRAME(8, FuzzLoop);
static int fuzz_loop(int argc, char **argv, int shm_input)
{
    checks_start();
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

/* LeakSanitizer asks this at exit: the driver (whose inputs lf-run.c
 * checks one by one) is not checked, nor is a fuzzed child whose inputs
 * are checked one by one (ck.leaks): what is left at its exit belongs to
 * no input.  Reproduction keeps the check at exit, as libFuzzer does. */
static int exiting;

static void mark_exit(void)
{
    exiting = 1;
}

__attribute__((visibility("default"))) int __lsan_is_turned_off(void)
{
    /* Only the check at exit: LeakSanitizer asks this before every check,
     * and the checks after each input must run. */
    return exiting && (__fz_lf_driver || ck.leaks);
}

__attribute__((visibility("default"))) int main(int argc, char **argv)
{
    int under_fuzzer = getenv(FZ_ENV_SHM_ID) != NULL;
    /* Registered after the sanitizer's own exit check, so it runs first. */
    atexit(mark_exit);
    /* Run the libFuzzer way: the command line decides (lf-cli.c). */
    if (!under_fuzzer && argc > 1)
        return __fz_lf_main(argc, argv);
    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);
    unsigned char *fallback = __afl_fuzz_ptr;
    if (under_fuzzer)
        __fz_lf_custom_init(); /* LLVMFuzzerCustomMutator, ... (lf-mutate.c) */
    /* The fork point: everything above runs once per campaign. */
    __fz_manual_init();
    if (under_fuzzer)
        return fuzz_loop(argc, argv, __afl_fuzz_ptr != fallback);
    /* No arguments: stdin, once. */
    unsigned int len = __fz_testcase_len();
    run_one(__afl_fuzz_ptr, len);
    return 0;
}
