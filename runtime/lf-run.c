/*
 * lf-run.c - runs inputs in this process, as libFuzzer does, for the
 * libFuzzer command line (lf-cli.h): reproduction (`./harness FILE...`),
 * the corpus run before fuzzing (and all of `-runs=0 DIR`), the inputs
 * fz-fuzz finds (their coverage for the status line) and the crash that
 * ends a fuzzing run, merge's and cleanse's inner processes.
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
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fz-buckets.h"
#include "fz-config.h"
#include "fz-sha1.h"
#include "runtime/lf-cli.h"
#include "runtime/rt-map.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv);

/* Sanitizer interfaces, when a sanitizer is linked in. */
extern void __sanitizer_set_death_callback(void (*cb)(void)) __attribute__((weak));
extern void __sanitizer_print_stack_trace(void) __attribute__((weak));
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

static uint64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

/* stderr without stdio: safe in a signal handler and in a malloc hook. */
__attribute__((format(printf, 1, 2))) static void say(const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n > (int)sizeof buf - 1)
        n = sizeof buf - 1;
    for (int off = 0; n > 0 && off < n;) {
        ssize_t w = write(2, buf + off, (size_t)(n - off));
        if (w <= 0)
            break;
        off += (int)w;
    }
}

long __fz_lf_rss_mb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss / 1024;
}

/* ---- Stacks and artifacts ---- */

static void print_stack(void) LF_FRAME(15, PrintStackTrace);
static void print_stack(void)
{
    if (__sanitizer_print_stack_trace) {
        __sanitizer_print_stack_trace();
        return;
    }
    void *pcs[64];
    int n = backtrace(pcs, 64);
    for (int i = 0; i < n; i++) {
        Dl_info di;
        if (dladdr(pcs[i], &di) && di.dli_fname) {
            uintptr_t off = (uintptr_t)pcs[i] - (uintptr_t)di.dli_fbase;
            if (di.dli_sname)
                say("    #%d %p in %s (%s+0x%lx)\n", i, pcs[i], di.dli_sname, di.dli_fname,
                    (unsigned long)off);
            else
                say("    #%d %p (%s+0x%lx)\n", i, pcs[i], di.dli_fname, (unsigned long)off);
        } else {
            say("    #%d %p\n", i, pcs[i]);
        }
    }
    say("\n");
}

static void base64(const uint8_t *p, size_t n)
{
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char out[4 * 64 / 3 + 8];
    say("Base64: ");
    for (size_t i = 0; i < n;) {
        size_t k = 0;
        for (; k + 4 < sizeof out && i < n; i += 3) {
            uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) |
                         (i + 2 < n ? p[i + 2] : 0);
            out[k++] = tab[v >> 18 & 63];
            out[k++] = tab[v >> 12 & 63];
            out[k++] = i + 1 < n ? tab[v >> 6 & 63] : '=';
            out[k++] = i + 2 < n ? tab[v & 63] : '=';
        }
        out[k] = 0;
        say("%s", out);
    }
    say("\n");
}

/* Writes the input as PREFIX<kind>-<sha1> (or -exact_artifact_path) with
 * libFuzzer's lines; nothing in reproduction. */
void __fz_lf_dump_unit(const char *kind)
{
    const lf_opts_t *o = lr.o;
    if (!lr.keep || !lr.unit || !o)
        return;
    const uint8_t *p = lr.unit;
    size_t n = lr.unit_len;
    say("MS: 0 ; base unit: 0000000000000000000000000000000000000000\n");
    if (n <= 256) {
        for (size_t i = 0; i < n; i++)
            say("0x%x,", p[i]);
        say("\n");
        for (size_t i = 0; i < n; i++)
            say(p[i] >= 32 && p[i] < 127 && p[i] != '\\' ? "%c" : "\\x%02x", p[i]);
        say("\n");
    }
    char hex[41], path[4096];
    fz_sha1_hex(p, n, hex);
    if (o->exact_artifact_path)
        snprintf(path, sizeof path, "%s", o->exact_artifact_path);
    else
        snprintf(path, sizeof path, "%s%s-%s", o->artifact_prefix, kind, hex);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0 || write(fd, p, n) != (ssize_t)n) {
        say("ERROR: cannot write the artifact '%s': %s; check -artifact_prefix\n", path,
            strerror(errno));
    } else {
        say("artifact_prefix='%s'; Test unit written to %s\n", o->artifact_prefix, path);
        if (n <= 256)
            base64(p, n);
    }
    if (fd >= 0)
        close(fd);
}

void __fz_lf_final_stats(void)
{
    if (!lr.o || !lr.o->print_final_stats)
        return;
    uint64_t secs = (now_us() - lr.start_us) / 1000000;
    say("stat::number_of_executed_units: %llu\nstat::average_exec_per_sec:     %llu\n"
        "stat::new_units_added:          %u\nstat::slowest_unit_time_sec:    %llu\n"
        "stat::peak_rss_mb:              %ld\n",
        (unsigned long long)lr.runs, (unsigned long long)(secs ? lr.runs / secs : lr.runs),
        lr.added, (unsigned long long)(lr.slowest_us / 1000000), __fz_lf_rss_mb());
}

/* ---- What ends a run ---- */

static void on_deadly(int sig) LF_FRAME(13, CrashCallback);
static void on_deadly(int sig)
{
    if (lr.dying++)
        _exit((int)lr.o->error_exitcode);
    (void)sig;
    say("==%d== ERROR: libFuzzer: deadly signal\n", (int)getpid());
    print_stack();
    say("NOTE: libFuzzer has rudimentary signal handlers.\n"
        "      Combine libFuzzer with AddressSanitizer or similar for better crash reports.\n");
    say("SUMMARY: libFuzzer: deadly signal\n");
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
    uint64_t secs = (now_us() - lr.unit_start_us) / 1000000;
    if ((long)secs < lr.timeout)
        return;
    lr.dying = 1;
    say("ALARM: working on the last Unit for %llu seconds\n"
        "       and the timeout value is %ld (use -timeout=N to change)\n",
        (unsigned long long)secs, lr.timeout);
    __fz_lf_dump_unit("timeout");
    say("==%d== ERROR: libFuzzer: timeout after %llu seconds\n", (int)getpid(),
        (unsigned long long)secs);
    print_stack();
    say("SUMMARY: libFuzzer: timeout\n");
    __fz_lf_final_stats();
    _exit((int)lr.o->timeout_exitcode);
}

static void on_interrupt(int sig)
{
    if (lr.dying)
        return;
    lr.dying = 1;
    say("==%d== libFuzzer: run interrupted; exiting\n", (int)getpid());
    __fz_lf_final_stats();
    (void)sig;
    _exit(LF_INTERRUPT_EXITCODE);
}

static void oom(const char *what) LF_FRAME(16, RssLimitCallback);
static void oom(const char *what)
{
    if (lr.dying++)
        return;
    say("==%d== ERROR: libFuzzer: out-of-memory (%s)\n", (int)getpid(), what);
    say("   To change the out-of-memory limit use -rss_limit_mb=<N>\n\n");
    print_stack();
    say("SUMMARY: libFuzzer: out-of-memory\n");
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
        oom(what);
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
            oom(what);
        }
    }
    return NULL;
}

static void handle(int sig, void (*fn)(int), int only_default)
{
    struct sigaction old, sa;
    if (sigaction(sig, NULL, &old) != 0)
        return;
    /* A handler already there (a sanitizer's, the program's) reports it. */
    if (only_default && ((old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL))
        return;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = fn;
    sa.sa_flags = SA_RESTART | SA_ONSTACK;
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
    lr.start_us = now_us();
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
        handle(deadly[i], on_deadly, 1);
    handle(SIGALRM, on_alarm, 0);
    handle(SIGINT, on_interrupt, 1);
    handle(SIGTERM, on_interrupt, 1);
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
    fprintf(stderr, "INFO: Seed: %ld\n", o->seed > 0 ? o->seed : (long)(now_us() & 0x7fffffff));
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
        oom(what);
    }
}

size_t __fz_lf_execute(const uint8_t *data, size_t len, size_t *new_edges)
{
    uint8_t *copy = malloc(len ? len : 1);
    if (!copy) {
        say("==%d== ERROR: libFuzzer: out-of-memory (malloc(%zu))\n", (int)getpid(), len);
        _exit(LF_OOM_EXITCODE);
    }
    if (len)
        memcpy(copy, data, len);
    lr.unit = data;
    lr.unit_len = len;
    lr.mallocs = lr.frees = 0;
    lr.unit_start_us = now_us();
    lr.running = 1;
    LLVMFuzzerTestOneInput(copy, len);
    lr.running = 0;
    uint64_t took = now_us() - lr.unit_start_us;
    lr.runs++;
    if (len && memcmp(copy, data, len) != 0) {
        say("==%d== ERROR: libFuzzer: fuzz target overwrites its const input\n", (int)getpid());
        __fz_lf_dump_unit("crash");
        __fz_lf_final_stats();
        _exit((int)lr.o->error_exitcode);
    }
    free(copy);
    if (lr.leak_checks && lr.mallocs != lr.frees && __lsan_do_recoverable_leak_check()) {
        if (lr.corpus_phase || !lr.keep)
            say("\nINFO: a leak has been found in the initial corpus.\n\n");
        say("INFO: to ignore leaks on libFuzzer side use -detect_leaks=0.\n\n");
        __fz_lf_dump_unit("leak");
        __fz_lf_final_stats();
        _exit((int)lr.o->error_exitcode);
    }
    if (lr.keep && lr.o->report_slow_units > 0 && took > lr.slowest_us &&
        took >= (uint64_t)lr.o->report_slow_units * 1000000) {
        say("Slowest unit: %llu s:\n", (unsigned long long)(took / 1000000));
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
    uint64_t secs = (now_us() - lr.start_us) / 1000000;
    fprintf(stderr, "#%llu\t%-6s cov: %zu ft: %zu corp: %zu/%zub exec/s: %llu rss: %ldMb\n",
            (unsigned long long)runs, what, lr.cov, lr.ft, corp_n, corp_bytes,
            (unsigned long long)(secs ? runs / secs : 0), __fz_lf_rss_now_mb());
}

/* ---- Reproduction: ./harness FILE... ---- */

int __fz_lf_reproduce(const lf_opts_t *o, const char *argv0)
{
    for (int i = 0; i < o->n_files; i++) {
        struct stat sb;
        if (stat(o->files[i], &sb) != 0) {
            fprintf(stderr, "ERROR: The required directory \"%s\" does not exist\n", o->files[i]);
            return 1;
        }
    }
    long runs = o->runs >= 0 ? o->runs : 1;
    fprintf(stderr, "%s: Running %d inputs %ld time(s) each.\n", argv0, o->n_files, runs);
    for (int i = 0; i < o->n_files; i++) {
        size_t len;
        uint8_t *buf = __fz_lf_read_file(o->files[i], &len);
        if (!buf) {
            fprintf(stderr, "ERROR: cannot read '%s': %s\n", o->files[i], strerror(errno));
            return 1;
        }
        if (o->max_len > 0 && len > (size_t)o->max_len)
            len = (size_t)o->max_len;
        fprintf(stderr, "Running: %s\n", o->files[i]);
        uint64_t t0 = now_us();
        for (long k = 0; k < runs; k++)
            __fz_lf_execute(buf, len, NULL);
        fprintf(stderr, "Executed %s in %llu ms\n", o->files[i],
                (unsigned long long)((now_us() - t0) / 1000));
        free(buf);
    }
    fprintf(stderr, "***\n*** NOTE: fuzzing was not performed, you have only\n"
                    "***       executed the target code on a fixed set of inputs.\n***\n");
    __fz_lf_final_stats();
    return 0;
}

/* ---- The corpus run ---- */

static int by_size(const void *a, const void *b)
{
    const lf_file_t *x = a, *y = b;
    return x->size != y->size ? (x->size < y->size ? -1 : 1) : strcmp(x->path, y->path);
}

/* The regular files of the directories (one level, as libFuzzer without
 * recursion into hidden names), sorted by size; *n of them. */
lf_file_t *__fz_lf_collect(char **dirs, int n_dirs, size_t *n, int say_counts)
{
    lf_file_t *v = NULL;
    size_t cap = 0;
    *n = 0;
    for (int d = 0; d < n_dirs; d++) {
        size_t before = *n;
        char **names = NULL;
        size_t m = __fz_lf_list(dirs[d], &names);
        for (size_t i = 0; i < m; i++) {
            char *p = __fz_lf_path_join(dirs[d], names[i]);
            struct stat sb;
            if (p && stat(p, &sb) == 0 && S_ISREG(sb.st_mode)) {
                if (*n == cap) {
                    cap = cap ? cap * 2 : 64;
                    lf_file_t *t = realloc(v, cap * sizeof *v);
                    if (!t)
                        abort();
                    v = t;
                }
                v[(*n)++] = (lf_file_t){p, (size_t)sb.st_size};
            } else {
                free(p);
            }
            free(names[i]);
        }
        free(names);
        if (say_counts)
            fprintf(stderr, "INFO: %8zu files found in %s\n", *n - before, dirs[d]);
    }
    qsort(v, *n, sizeof *v, by_size);
    return v;
}

void __fz_lf_free_files(lf_file_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i].path);
    free(v);
}

/* Runs the empty input and every corpus file once (smallest first), as
 * libFuzzer does before it mutates; a crash there ends the process with
 * its artifact.  Returns the max_len that applies. */
long __fz_lf_run_corpus(const lf_opts_t *o, size_t *corp_n, size_t *corp_bytes)
{
    size_t n;
    lf_file_t *v = __fz_lf_collect(o->dirs, o->n_dirs, &n, 1);
    size_t total = 0, maxs = 0, mins = n ? v[0].size : 0;
    for (size_t i = 0; i < n; i++) {
        total += v[i].size;
        if (v[i].size > maxs)
            maxs = v[i].size;
    }
    long max_len = o->max_len;
    if (max_len <= 0) {
        max_len = maxs > 4096 ? (long)maxs : 4096;
        if (max_len > FZ_MAX_INPUT)
            max_len = FZ_MAX_INPUT;
        fprintf(stderr, "INFO: -max_len is not provided; libFuzzer will not generate inputs "
                        "larger than %ld bytes\n", max_len);
    }
    fprintf(stderr, "INFO: seed corpus: files: %zu min: %zub max: %zub total: %zub rss: %ldMb\n", n,
            mins, maxs, total, __fz_lf_rss_now_mb());
    lr.corpus_phase = 1;
    __fz_lf_execute((const uint8_t *)"", 0, NULL);
    for (size_t i = 0; i < n; i++) {
        size_t len;
        uint8_t *buf = __fz_lf_read_file(v[i].path, &len);
        if (!buf)
            continue;
        if (len > (size_t)max_len)
            len = (size_t)max_len;
        if (__fz_lf_execute(buf, len, NULL) > 0 || !lr.map) {
            (*corp_n)++;
            *corp_bytes += len;
        }
        free(buf);
        if (lr.runs && (lr.runs & (lr.runs - 1)) == 0 && lr.runs >= 1024)
            __fz_lf_status("pulse", *corp_n, *corp_bytes, lr.runs);
    }
    lr.corpus_phase = 0;
    __fz_lf_free_files(v, n);
    if (!*corp_n && n == 0) {
        *corp_n = 1; /* the empty input */
    }
    __fz_lf_status("INITED", *corp_n, *corp_bytes, lr.runs);
    return max_len;
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
