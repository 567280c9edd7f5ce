/*
 * rt-san.c - crash sites from sanitizer reports.
 *
 * Sanitizer builds report before they abort, and by then the stack is the
 * sanitizer's own: ASan hands its report to a callback (its first stack
 * starts at the faulting frame of the program), UBSan calls a hook while
 * its report is current (source file, line, column, kind).  Those give
 * the site instead, kept (pending) until the abort that follows, which
 * the crash handler (rt-crash.c) or the sanitizer's death callback
 * publishes.  A sanitizer's exit after its report is turned into that
 * abort, so a report is a crash whatever the sanitizer's options say.
 */
#define _GNU_SOURCE
#include <link.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fz-hash.h"
#include "runtime/rt-san.h"
#include "runtime/rt-site.h"

static struct {
    fz_diag_t *page;     /* NULL: not under fz-fuzz */
    fz_rt_site_t pending; /* a sanitizer's site, waiting for its abort */
    pid_t pending_pid;   /* the process pending belongs to; 0 = none */
} sn;

/* base_name of the first n bytes of path. */
static const char *base_name_n(const char *path, size_t n)
{
    const char *b = path;
    for (size_t i = 0; i < n; i++)
        if (path[i] == '/')
            b = path + i + 1;
    return b;
}

/* dl_iterate_phdr's search for a loaded library by file name. */
struct lib_query {
    const char *name;
    size_t len;
    const void *inside; /* out: an address inside it */
};

static int lib_match(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    struct lib_query *q = data;
    const char *b = __fz_rt_base_name(info->dlpi_name ? info->dlpi_name : "");
    if (!*b || strlen(b) != q->len || memcmp(b, q->name, q->len) != 0)
        return 0;
    for (int i = 0; i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_LOAD) {
            q->inside = (const void *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
            return 1;
        }
    return 0;
}

/* Non-zero for a frame ASan names by a loaded library that holds no
 * instrumented code (libc under main, the sanitizer's own library): as in
 * the handler's unwind, such frames are not the program's.  The program
 * itself (which the loader names "") and anything not found are kept.
 * Not a signal handler: dl_iterate_phdr is fine here. */
static int library_uninstrumented(const char *name, size_t len)
{
    struct lib_query q = {name, len, NULL};
    uintptr_t start, bias;
    const char *n;
    if (!dl_iterate_phdr(lib_match, &q) || !q.inside ||
        __fz_rt_site_object(q.inside, &start, &bias, &n) != 0)
        return 0;
    return __fz_rt_site_foreign(start);
}

/* ASan calls this with its whole report before it aborts.  The first
 * stack is the fault's: "#N 0xADDR (module+0xOFF)" without symbols,
 * "#N 0xADDR in func file:line" with them.  Either way the part after the
 * address is what ASLR leaves alone. */
static void asan_report(const char *text)
{
    if (!sn.page)
        return;
    fz_rt_site_t s;
    __fz_rt_site_start(&s, FZ_SITE_FROM_ASAN);
    const char *p = strstr(text, "#0 ");
    while (p && s.n < FZ_SITE_FRAMES) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        const char *rest = memchr(p, ' ', len); /* after "#N" */
        rest = rest ? memchr(rest + 1, ' ', len - (size_t)(rest + 1 - p)) : NULL; /* after 0xADDR */
        if (!rest)
            break;
        size_t rlen = len - (size_t)(rest - p);
        const char *open = memchr(rest, '(', rlen);
        const char *plus = open ? memchr(open, '+', rlen - (size_t)(open - rest)) : NULL;
        if (open && plus) {
            const char *mod = base_name_n(open + 1, (size_t)(plus - open - 1));
            if (!library_uninstrumented(mod, (size_t)(plus - mod)))
                __fz_rt_site_add(&s, mod, (size_t)(plus - mod), strtoull(plus + 1, NULL, 16));
        } else {
            __fz_rt_site_add(&s, rest, rlen, 0);
        }
        if (!eol)
            break;
        p = eol + 1;
        while (*p == ' ')
            p++;
        if (p[0] != '#' || p[1] < '1' || p[1] > '9')
            break; /* the first stack ended */
    }
    if (s.n) {
        sn.pending = s;
        sn.pending_pid = getpid();
    }
}

/* UBSan's debugger hook: called once per report, while the report's data
 * can be asked for.  The source location is the site (the stack here is
 * UBSan's own).  A recoverable report that does not end the run is
 * forgotten at the next persistent pass (__fz_rt_san_new_run). */
extern void __ubsan_get_current_report_data(const char **kind, const char **msg,
                                            const char **file, unsigned *line, unsigned *col,
                                            char **addr) __attribute__((weak));

__attribute__((visibility("default"))) void __ubsan_on_report(void)
{
    if (!sn.page || !__ubsan_get_current_report_data)
        return;
    const char *kind = NULL, *msg = NULL, *file = NULL;
    unsigned line = 0, col = 0;
    char *addr = NULL;
    __ubsan_get_current_report_data(&kind, &msg, &file, &line, &col, &addr);
    if (!file || !kind)
        return;
    fz_rt_site_t s;
    __fz_rt_site_start(&s, FZ_SITE_FROM_UBSAN);
    s.hash = fz_hash_mix(s.hash, kind, strlen(kind));
    const char *b = __fz_rt_base_name(file);
    __fz_rt_site_add(&s, b, strlen(b), line);
    s.off[1] = col;
    s.hash = fz_hash_mix(s.hash, &col, sizeof col);
    sn.pending = s;
    sn.pending_pid = getpid();
}

extern void __asan_set_error_report_callback(void (*cb)(const char *)) __attribute__((weak));
extern void __sanitizer_set_death_callback(void (*cb)(void)) __attribute__((weak));

/* A sanitizer's report ends in exit(exitcode) unless the caller's options
 * say abort_on_error=1, and OSS-Fuzz's, for one, do not: the fuzzer would
 * count a normal exit.  The sanitizer calls this just before that exit:
 * die of SIGABRT instead (with the report's site), so a report is a crash
 * whatever ASAN_OPTIONS/UBSAN_OPTIONS say. */
static void on_sanitizer_death(void)
{
    if (sn.page && sn.pending_pid == getpid())
        __fz_rt_site_publish(sn.page, &sn.pending, SIGABRT);
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigaction(SIGABRT, &dfl, NULL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGABRT);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(SIGABRT);
}

int __fz_rt_san_pending(fz_rt_site_t *s)
{
    if (sn.pending_pid != getpid())
        return 0;
    *s = sn.pending;
    return 1;
}

void __fz_rt_san_new_run(void)
{
    sn.pending_pid = 0;
}

void __fz_rt_san_install(fz_diag_t *page)
{
    if (__sanitizer_set_death_callback)
        __sanitizer_set_death_callback(on_sanitizer_death);
    sn.page = page;
    if (page && __asan_set_error_report_callback)
        __asan_set_error_report_callback(asan_report);
}
