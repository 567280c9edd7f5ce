/*
 * lf-run.c - runs one input in this process, as libFuzzer does, for the
 * libFuzzer command line (lf-run.h): for reproduction and the corpus run
 * (lf-corpus.c), the inputs fz-fuzz finds (their coverage for the status
 * line) and the crash that ends a fuzzing run (lf-fuzz.c), merge's and
 * cleanse's inner processes (lf-merge.c, lf-crash.c).
 *
 * Each input runs on a heap copy of exactly its size.  What ends a run
 * ends the process the way libFuzzer's does, with its lines (a client
 * such as ClusterFuzz reads them) and its artifacts when they are kept:
 *   deadly signal (one the program and the sanitizers left at its default
 *     action): "==PID== ERROR: libFuzzer: deadly signal", the stack,
 *     "SUMMARY: libFuzzer: deadly signal", crash-<sha1>, -error_exitcode;
 *   a sanitizer's report: its own report, then (death callback) crash-,
 *     and the sanitizer's exit code, whatever ASAN_OPTIONS/UBSAN_OPTIONS
 *     the caller set;
 *   -timeout: "timeout after N seconds", timeout-, -timeout_exitcode;
 *   -rss_limit_mb / -malloc_limit_mb: "out-of-memory", oom-, exit 71;
 *   a leak (LeakSanitizer builds, detect_leaks): leak-, -error_exitcode;
 *   SIGINT/SIGTERM: "run interrupted; exiting", exit 72 (SIGTERM) or 0.
 *
 * Coverage: outside a fuzzer the runtime hands modules a private map
 * (__fz_lf_local_map, rt-map.c).  After each run every non-zero counter
 * is an edge (`cov:`), and every (edge, hit-count bucket) pair a feature
 * (`ft:`), as libFuzzer counts its inline 8-bit counters.
 *
 * Functions on the path from main to the harness carry libFuzzer-style
 * symbol names (fuzzer::fz::...; the driver is built without debug
 * information, so symbolizers use them), which crash-state tools such as
 * ClusterFuzz's stack analyzer skip as they skip libFuzzer's own frames.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "fz-buckets.h"
#include "fz-config.h"
#include "runtime/lf-report.h"
#include "runtime/lf-run.h"
#include "runtime/lf-stack.h"
#include "runtime/lf-util.h"
#include "runtime/rt-map.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv);

/* Sanitizer interfaces, when a sanitizer is linked in. */
extern void __sanitizer_set_death_callback(void (*cb)(void)) __attribute__((weak));
extern int __sanitizer_install_malloc_and_free_hooks(void (*m)(const volatile void *, size_t),
                                                     void (*f)(const volatile void *))
    __attribute__((weak));
extern int __lsan_do_recoverable_leak_check(void) __attribute__((weak));

/* Asks rt-map.c for a private coverage map outside a fuzzer. */
__attribute__((visibility("hidden"))) const int __fz_lf_local_map = 1;

#define LF_OOM_EXITCODE 71
#define LF_INTERRUPT_EXITCODE 72
#define LF_DEFAULT_TIMEOUT 1200

static struct {
    const lf_opts_t *o;
    const uint8_t *unit; /* the input running now (the caller's bytes) */
    size_t unit_len;
    volatile sig_atomic_t running, dying;
    int keep;            /* write artifacts (not in reproduction) */
    int corpus_phase;    /* running the initial corpus */
    long timeout, rss_limit, malloc_limit;
    long peak_mb;        /* the process's peak RSS after the last run */
    uint64_t start_us, unit_start_us, slowest_us;
    uint64_t runs;
    uint32_t added;
    /* coverage */
    uint8_t *map;
    uint32_t used, nmods;
    uint8_t *seen;       /* per slot: buckets seen */
    size_t cov, ft;
    size_t corp_n, corp_bytes;
    /* malloc counting for leak checks */
    volatile long mallocs, frees;
    int leak_checks;
} lr;


long __fz_lf_rss_mb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss / 1024;
}


/* ---- Artifacts ---- */

/* The input running now as PREFIX<kind>-<sha1>; nothing in reproduction. */
void __fz_lf_dump_unit(const char *kind)
{
    if (lr.keep && lr.unit && lr.o)
        __fz_lf_write_artifact(lr.o, kind, lr.unit, lr.unit_len);
}

void __fz_lf_final_stats(void)
{
    if (!lr.o || !lr.o->print_final_stats)
        return;
    uint64_t secs = (__fz_lf_now_us() - lr.start_us) / 1000000;
    __fz_lf_say("stat::number_of_executed_units: %llu\nstat::average_exec_per_sec:     %llu\n"
        "stat::new_units_added:          %u\nstat::slowest_unit_time_sec:    %llu\n"
        "stat::peak_rss_mb:              %ld\n",
        (unsigned long long)lr.runs, (unsigned long long)(secs ? lr.runs / secs : lr.runs),
        lr.added, (unsigned long long)(lr.slowest_us / 1000000), __fz_lf_rss_mb());
}

/* ---- What ends a run ---- */

static void on_deadly(int sig, siginfo_t *si, void *uc) LF_FRAME(13, CrashCallback);
static void on_deadly(int sig, siginfo_t *si, void *uc)
{
    if (lr.dying++)
        _exit((int)lr.o->error_exitcode);
    (void)sig;
    __fz_lf_say("==%d== ERROR: libFuzzer: deadly signal\n", (int)getpid());
    /* A fault (SEGV, BUS, ILL, FPE: si_code > 0) is shown from the
     * faulting instruction on, as the sanitizers show it; a signal that
     * was sent (abort()) with the handler's frames, as libFuzzer does. */
    void *pc = NULL;
#if defined(__x86_64__)
    if (si && si->si_code > 0 && uc)
        pc = (void *)((ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
    if (si && si->si_code > 0 && uc)
        pc = (void *)((ucontext_t *)uc)->uc_mcontext.pc;
#endif
    __fz_lf_print_stack_from(pc);
    __fz_lf_say("NOTE: libFuzzer has rudimentary signal handlers.\n"
                "      Combine libFuzzer with AddressSanitizer or similar for better crash "
                "reports.\n");
    __fz_lf_say("SUMMARY: libFuzzer: deadly signal\n");
    __fz_lf_dump_unit("crash");
    __fz_lf_final_stats();
    _exit((int)lr.o->error_exitcode);
}

/* A sanitizer's report ends the process: keep the input first. */
static void on_sanitizer_death(void) LF_FRAME(13, DeathCallback);
static void on_sanitizer_death(void)
{
    if (lr.dying++)
        return;
    __fz_lf_dump_unit("crash");
    __fz_lf_final_stats();
}

static void on_alarm(int sig) LF_FRAME(13, AlarmCallback);
static void on_alarm(int sig)
{
    (void)sig;
    if (!lr.running || lr.dying)
        return;
    uint64_t secs = (__fz_lf_now_us() - lr.unit_start_us) / 1000000;
    if ((long)secs < lr.timeout)
        return;
    lr.dying = 1;
    __fz_lf_say("ALARM: working on the last Unit for %llu seconds\n"
        "       and the timeout value is %ld (use -timeout=N to change)\n",
        (unsigned long long)secs, lr.timeout);
    __fz_lf_dump_unit("timeout");
    __fz_lf_say("==%d== ERROR: libFuzzer: timeout after %llu seconds\n", (int)getpid(),
        (unsigned long long)secs);
    __fz_lf_print_stack();
    __fz_lf_say("SUMMARY: libFuzzer: timeout\n");
    __fz_lf_final_stats();
    _exit((int)lr.o->timeout_exitcode);
}

static void on_interrupt(int sig)
{
    if (lr.dying)
        return;
    lr.dying = 1;
    __fz_lf_say("==%d== libFuzzer: run interrupted; exiting\n", (int)getpid());
    __fz_lf_final_stats();
    (void)sig;
    _exit(LF_INTERRUPT_EXITCODE);
}

/* with_stack: the stack of a malloc over the limit, as libFuzzer prints
 * it; an RSS over the limit has none (it is seen by the watcher thread, or
 * after the run), as in libFuzzer. */
static void oom(const char *what, int with_stack) LF_FRAME(16, RssLimitCallback);
static void oom(const char *what, int with_stack)
{
    if (lr.dying++)
        return;
    __fz_lf_say("==%d== ERROR: libFuzzer: out-of-memory (%s)\n", (int)getpid(), what);
    __fz_lf_say("   To change the out-of-memory limit use -rss_limit_mb=<N>\n\n");
    if (with_stack)
        __fz_lf_print_stack();
    __fz_lf_say("SUMMARY: libFuzzer: out-of-memory\n");
    __fz_lf_dump_unit("oom");
    __fz_lf_final_stats();
    _exit(LF_OOM_EXITCODE);
}

static void on_malloc(const volatile void *p, size_t size) LF_FRAME(10, MallocHook);
static void on_malloc(const volatile void *p, size_t size)
{
    (void)p;
    if (!lr.running)
        return;
    __atomic_add_fetch(&lr.mallocs, 1, __ATOMIC_RELAXED);
    if (lr.malloc_limit > 0 && size > (size_t)lr.malloc_limit << 20) {
        char what[64];
        snprintf(what, sizeof what, "malloc(%zu)", size);
        oom(what, 1);
    }
}

static void on_free(const volatile void *p)
{
    (void)p;
    if (lr.running)
        __atomic_add_fetch(&lr.frees, 1, __ATOMIC_RELAXED);
}

long __fz_lf_rss_now_mb(void)
{
    int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
    char buf[128];
    ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;
    if (fd >= 0)
        close(fd);
    if (n <= 0)
        return 0;
    buf[n] = 0;
    unsigned long size, res;
    if (sscanf(buf, "%lu %lu", &size, &res) != 2)
        return 0;
    return (long)(res * (unsigned long)sysconf(_SC_PAGESIZE) >> 20);
}

static void *rss_watch(void *arg) LF_FRAME(9, RssThread);
static void *rss_watch(void *arg)
{
    (void)arg;
    for (;;) {
        usleep(250 * 1000);
        long mb = __fz_lf_rss_now_mb();
        if (lr.running && mb > lr.rss_limit) {
            char what[96];
            snprintf(what, sizeof what, "used: %ldMb; limit: %ldMb", mb, lr.rss_limit);
            oom(what, 0);
        }
    }
    return NULL;
}

/* Installs fn (or, given, the SA_SIGINFO handler info) for sig. */
static void handle(int sig, void (*fn)(int), void (*info)(int, siginfo_t *, void *),
                   int only_default)
{
    struct sigaction old, sa;
    if (sigaction(sig, NULL, &old) != 0)
        return;
    /* A handler already there (a sanitizer's, the program's) reports it. */
    if (only_default && ((old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL))
        return;
    memset(&sa, 0, sizeof sa);
    sa.sa_flags = SA_RESTART | SA_ONSTACK;
    if (info) {
        sa.sa_sigaction = info;
        sa.sa_flags |= SA_SIGINFO;
    } else {
        sa.sa_handler = fn;
    }
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
}

/* ---- Set-up ---- */

/* The -rss_limit_mb watcher (again in a forked child: threads do not
 * survive fork). */
void __fz_lf_rss_thread(void)
{
    if (lr.rss_limit <= 0)
        return;
    __fz_lf_watcher(rss_watch);
}

void __fz_lf_watcher(void *(*fn)(void *))
{
    /* A watcher takes no signal: they all go to the runs' thread. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    pthread_t t;
    if (pthread_create(&t, NULL, fn, NULL) == 0)
        pthread_detach(t);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

void __fz_lf_init(int *argc, char ***argv)
{
    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(argc, argv);
}

void __fz_lf_setup(const lf_opts_t *o, int keep)
{
    lr.o = o;
    lr.keep = keep;
    lr.start_us = __fz_lf_now_us();
    lr.timeout = o->timeout > 0 ? o->timeout : LF_DEFAULT_TIMEOUT;
    lr.rss_limit = o->rss_limit_mb;
    lr.malloc_limit = o->malloc_limit_mb > 0 ? o->malloc_limit_mb : o->rss_limit_mb;
    lr.peak_mb = __fz_lf_rss_mb();
    lr.map = __fz_rt_map_local(&lr.used, &lr.nmods);
    if (lr.map) {
        lr.seen = calloc(lr.used ? lr.used : 1, 1);
        memset(lr.map, 0, lr.used);
    }
    static const int deadly[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
    for (size_t i = 0; i < sizeof deadly / sizeof deadly[0]; i++)
        handle(deadly[i], NULL, on_deadly, 1);
    handle(SIGALRM, on_alarm, NULL, 0);
    handle(SIGINT, on_interrupt, NULL, 1);
    handle(SIGTERM, on_interrupt, NULL, 1);
    if (__sanitizer_set_death_callback)
        __sanitizer_set_death_callback(on_sanitizer_death);
    if (__sanitizer_install_malloc_and_free_hooks)
        __sanitizer_install_malloc_and_free_hooks(on_malloc, on_free);
    lr.leak_checks = o->detect_leaks && __lsan_do_recoverable_leak_check &&
                     __sanitizer_install_malloc_and_free_hooks;
    long tick = lr.timeout / 2 + 1;
    struct itimerval it = {{tick, 0}, {tick, 0}};
    setitimer(ITIMER_REAL, &it, NULL);
    __fz_lf_rss_thread();
    fprintf(stderr, "INFO: Seed: %ld\n", o->seed > 0 ? o->seed : (long)(__fz_lf_now_us() & 0x7fffffff));
    if (lr.map)
        fprintf(stderr, "INFO: Loaded %u modules   (%u inline 8-bit counters): %u [%p, %p), \n",
                lr.nmods ? lr.nmods : 1, lr.used ? lr.used - 1 : 0, lr.used ? lr.used - 1 : 0,
                (void *)(lr.map + 1), (void *)(lr.map + lr.used));
}

/* ---- Runs ---- */

static size_t count_features(size_t *new_edges)
{
    size_t fresh = 0, edges = 0;
    uint8_t *m = lr.map;
    for (uint32_t i = 0; i + 8 <= lr.used + 7; i += 8) {
        uint64_t w;
        if (i + 8 <= lr.used) {
            memcpy(&w, m + i, 8);
            if (!w)
                continue;
        }
        for (uint32_t k = i; k < i + 8 && k < lr.used; k++) {
            if (!m[k])
                continue;
            uint8_t b = fz_bucket_of[m[k]];
            if (!(lr.seen[k] & b)) {
                if (!lr.seen[k])
                    edges++;
                lr.seen[k] |= b;
                fresh++;
            }
            m[k] = 0;
        }
    }
    lr.cov += edges;
    lr.ft += fresh;
    if (new_edges)
        *new_edges = edges;
    return fresh;
}

/* Runs one input; returns how many features it added. */
/* The watcher thread samples the resident size four times a second, so a
 * run that touches a lot of memory and frees it within a sample is missed
 * (more often on a loaded machine).  The peak never goes down, so one look
 * at it after each run catches every run that raised it past the limit;
 * only a rise during this run counts, so memory the harness took before the
 * first run is not blamed on an input. */
static void check_peak_rss(void)
{
    if (lr.rss_limit <= 0)
        return;
    long peak = __fz_lf_rss_mb();
    if (peak <= lr.peak_mb)
        return;
    lr.peak_mb = peak;
    if (peak > lr.rss_limit) {
        char what[96];
        snprintf(what, sizeof what, "used: %ldMb; limit: %ldMb", peak, lr.rss_limit);
        oom(what, 0);
    }
}

size_t __fz_lf_execute(const uint8_t *data, size_t len, size_t *new_edges)
{
    uint8_t *copy = malloc(len ? len : 1);
    if (!copy) {
        __fz_lf_say("==%d== ERROR: libFuzzer: out-of-memory (malloc(%zu))\n", (int)getpid(), len);
        _exit(LF_OOM_EXITCODE);
    }
    if (len)
        memcpy(copy, data, len);
    lr.unit = data;
    lr.unit_len = len;
    lr.mallocs = lr.frees = 0;
    lr.unit_start_us = __fz_lf_now_us();
    lr.running = 1;
    LLVMFuzzerTestOneInput(copy, len);
    lr.running = 0;
    uint64_t took = __fz_lf_now_us() - lr.unit_start_us;
    lr.runs++;
    if (len && memcmp(copy, data, len) != 0) {
        __fz_lf_say("==%d== ERROR: libFuzzer: fuzz target overwrites its const input\n", (int)getpid());
        __fz_lf_dump_unit("crash");
        __fz_lf_final_stats();
        _exit((int)lr.o->error_exitcode);
    }
    free(copy);
    if (lr.leak_checks && lr.mallocs != lr.frees && __lsan_do_recoverable_leak_check()) {
        if (lr.corpus_phase || !lr.keep)
            __fz_lf_say("\nINFO: a leak has been found in the initial corpus.\n\n");
        __fz_lf_say("INFO: to ignore leaks on libFuzzer side use -detect_leaks=0.\n\n");
        __fz_lf_dump_unit("leak");
        __fz_lf_final_stats();
        _exit((int)lr.o->error_exitcode);
    }
    if (lr.keep && lr.o->report_slow_units > 0 && took > lr.slowest_us &&
        took >= (uint64_t)lr.o->report_slow_units * 1000000) {
        __fz_lf_say("Slowest unit: %llu s:\n", (unsigned long long)(took / 1000000));
        __fz_lf_dump_unit("slow-unit");
    }
    if (took > lr.slowest_us)
        lr.slowest_us = took;
    check_peak_rss();
    lr.unit = NULL;
    size_t e = 0, f = lr.map ? count_features(&e) : 0;
    if (new_edges)
        *new_edges = e;
    return f;
}

size_t __fz_lf_cov(void)
{
    return lr.cov;
}

size_t __fz_lf_ft(void)
{
    return lr.ft;
}

uint64_t __fz_lf_runs(void)
{
    return lr.runs;
}

void __fz_lf_note_added(void)
{
    lr.added++;
}

void __fz_lf_status(const char *what, size_t corp_n, size_t corp_bytes, uint64_t runs)
{
    uint64_t secs = (__fz_lf_now_us() - lr.start_us) / 1000000;
    fprintf(stderr, "#%llu\t%-6s cov: %zu ft: %zu corp: %zu/%zub exec/s: %llu rss: %ldMb\n",
            (unsigned long long)runs, what, lr.cov, lr.ft, corp_n, corp_bytes,
            (unsigned long long)(secs ? runs / secs : 0), __fz_lf_rss_now_mb());
}

void __fz_lf_corpus_phase(int on)
{
    lr.corpus_phase = on;
}

int __fz_lf_has_map(void)
{
    return lr.map != NULL;
}

/* An input the fuzzer found: its artifact without running it (a crash
 * that did not come back in this process). */
void __fz_lf_dump_bytes(const char *kind, const uint8_t *p, size_t n)
{
    lr.unit = p;
    lr.unit_len = n;
    __fz_lf_dump_unit(kind);
    lr.unit = NULL;
}

void __fz_lf_add_runs(uint64_t n)
{
    lr.runs += n;
}
