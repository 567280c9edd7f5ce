/*
 * lf-stack.c - the stack of a deadly signal, timeout or out-of-memory in a
 * harness built without a sanitizer (lf-stack.h).  A sanitizer's printer
 * is used when one is linked in.  Otherwise the frames come from
 * backtrace() and are symbolized the way the sanitizers do it: module and
 * offset go to an external llvm-symbolizer ($LLVM_SYMBOLIZER_PATH, else
 * on PATH), whose answers give the frames libFuzzer prints,
 *     #7 0x55d0... in parse_header /src/h.c:8:9
 *     #9 0x55d0... in fuzzer::fz::ExecuteCallback() (/out/h+0x7a53)
 * so crash-state tools (ClusterFuzz's stack analyzer) see the function
 * names.  Without a symbolizer, the names dladdr() knows and the module
 * and offset, which such tools can symbolize later.
 *
 * Runs in a signal handler, perhaps after a crash inside malloc: no
 * malloc and no stdio, static buffers, and a bounded wait for the
 * symbolizer.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <link.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/lf-report.h"
#include "runtime/lf-stack.h"
#include "runtime/lf-util.h"

extern void __sanitizer_print_stack_trace(void) __attribute__((weak));

#define LF_STACK_MAX 64
/* How long the symbolizer may take for the whole stack, in ms. */
#define LF_SYMBOLIZE_MS 10000

typedef struct {
    void *pc;
    char module[512];
    uintptr_t off;    /* pc - the module's load bias, as llvm-symbolizer wants it */
    const char *sym;  /* dladdr's name, if any */
} lf_frame_t;

static lf_frame_t frames[LF_STACK_MAX];
static char answer[64 << 10];

/* The module of each frame; the main program by its real path (dladdr
 * names it as it was started, "./harness"), so a symbolizer run from
 * elsewhere still finds it. */
static void locate(lf_frame_t *f)
{
    Dl_info di;
    struct link_map *lm = NULL;
    f->module[0] = 0;
    f->sym = NULL;
    if (!dladdr1(f->pc, &di, (void **)&lm, RTLD_DL_LINKMAP) || !di.dli_fname)
        return;
    f->sym = di.dli_sname;
    f->off = (uintptr_t)f->pc - (lm ? (uintptr_t)lm->l_addr : (uintptr_t)di.dli_fbase);
    if (lm && (!lm->l_name || !lm->l_name[0])) { /* the main program */
        ssize_t n = readlink("/proc/self/exe", f->module, sizeof f->module - 1);
        f->module[n > 0 ? n : 0] = 0;
    }
    if (!f->module[0]) {
        size_t n = strlen(di.dli_fname);
        if (n >= sizeof f->module)
            n = sizeof f->module - 1;
        memcpy(f->module, di.dli_fname, n);
        f->module[n] = 0;
    }
}

/* The symbolizer to run: $LLVM_SYMBOLIZER_PATH, else llvm-symbolizer on
 * PATH (into buf); NULL if there is none. */
static const char *symbolizer(char *buf, size_t cap)
{
    const char *env = getenv("LLVM_SYMBOLIZER_PATH");
    if (env && *env)
        return access(env, X_OK) == 0 ? env : NULL;
    const char *path = getenv("PATH");
    for (const char *d = path; d && *d;) {
        const char *end = strchr(d, ':');
        size_t n = end ? (size_t)(end - d) : strlen(d);
        if (n && n + sizeof "/llvm-symbolizer" < cap) {
            memcpy(buf, d, n);
            memcpy(buf + n, "/llvm-symbolizer", sizeof "/llvm-symbolizer");
            if (access(buf, X_OK) == 0)
                return buf;
        }
        d = end ? end + 1 : NULL;
    }
    return NULL;
}

/* Runs the symbolizer over the frames; its whole answer in `answer`
 * (NUL-terminated): per frame, pairs of "function" and "file:line:col"
 * lines (more than one pair for inlined calls), then an empty line.
 * Returns 0, or -1 (no symbolizer, or it failed). */
static int symbolize(int n)
{
    char path[4096];
    const char *tool = symbolizer(path, sizeof path);
    int in[2], out[2];
    if (!tool || pipe2(in, O_CLOEXEC) != 0)
        return -1;
    if (pipe2(out, O_CLOEXEC) != 0) {
        close(in[0]);
        close(in[1]);
        return -1;
    }
    pid_t pid = fork();
    if (pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0)
            dup2(null, 2);
        char *argv[] = {(char *)tool, "--demangle", "--inlines", "--functions=linkage", NULL};
        execv(tool, argv);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    /* A symbolizer that dies early must not take this process with it
     * (SIGPIPE) before the report and the artifact are out. */
    struct sigaction ign = {.sa_handler = SIG_IGN}, old_pipe;
    sigaction(SIGPIPE, &ign, &old_pipe);
    if (pid > 0) {
        char q[700];
        for (int i = 0; i < n; i++) {
            if (!frames[i].module[0])
                continue;
            /* Quoted: a module path may hold spaces. */
            int len = snprintf(q, sizeof q, "\"%s\" 0x%lx\n", frames[i].module,
                               (unsigned long)frames[i].off);
            if (len <= 0 || len >= (int)sizeof q || write(in[1], q, (size_t)len) != len)
                break;
        }
    }
    close(in[1]);
    sigaction(SIGPIPE, &old_pipe, NULL);
    size_t got = 0;
    struct pollfd p = {.fd = out[0], .events = POLLIN};
    uint64_t end = __fz_lf_now_us() + LF_SYMBOLIZE_MS * 1000ull;
    for (uint64_t now; pid > 0 && got < sizeof answer - 1 && (now = __fz_lf_now_us()) < end;) {
        int ready = poll(&p, 1, (int)((end - now) / 1000) + 1);
        if (ready < 0 && errno == EINTR) /* the -timeout alarm, say */
            continue;
        if (ready <= 0)
            break;
        ssize_t r = read(out[0], answer + got, sizeof answer - 1 - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    answer[got] = 0;
    close(out[0]);
    int status = 0;
    if (pid > 0) {
        kill(pid, SIGKILL);
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
    }
    return pid > 0 && got > 0 ? 0 : -1;
}

/* The next line of the answer at *at (cut at its '\n'); NULL at the end. */
static char *next_line(char **at)
{
    char *s = *at;
    if (!s || !*s)
        return NULL;
    char *nl = strchr(s, '\n');
    if (nl) {
        *nl = 0;
        *at = nl + 1;
    } else {
        *at = s + strlen(s);
    }
    return s;
}

/* One frame as the sanitizers print it; fn/loc from the symbolizer or NULL. */
static void print_frame(int no, const lf_frame_t *f, const char *fn, const char *loc)
{
    /* "??:0:0", or "file.c:0:0" from a symbol table without lines. */
    size_t ll = loc ? strlen(loc) : 0;
    int known = loc && strncmp(loc, "??", 2) != 0 && !(ll > 4 && !strcmp(loc + ll - 4, ":0:0"));
    if (fn && strcmp(fn, "??") != 0) {
        if (known)
            __fz_lf_say("    #%d %p in %s %s\n", no, f->pc, fn, loc);
        else
            __fz_lf_say("    #%d %p in %s (%s+0x%lx)\n", no, f->pc, fn, f->module,
                        (unsigned long)f->off);
    } else if (f->module[0]) {
        __fz_lf_say("    #%d %p%s%s (%s+0x%lx)\n", no, f->pc, f->sym ? " in " : "",
                    f->sym ? f->sym : "", f->module, (unsigned long)f->off);
    } else {
        __fz_lf_say("    #%d %p\n", no, f->pc);
    }
}

void __fz_lf_print_stack(void)
{
    __fz_lf_print_stack_from(NULL);
}

void __fz_lf_print_stack_from(void *fault_pc)
{
    if (__sanitizer_print_stack_trace) {
        __sanitizer_print_stack_trace();
        return;
    }
    void *pcs[LF_STACK_MAX];
    int total = backtrace(pcs, LF_STACK_MAX), first = 0;
    for (int i = 0; fault_pc && i < total; i++)
        if (pcs[i] == fault_pc) {
            first = i;
            break;
        }
    /* Return addresses stand for the call before them, so they are shown
     * less one, as the sanitizers show them; a fault's own pc is exact. */
    int n = total - first;
    for (int i = 0; i < n; i++) {
        uintptr_t pc = (uintptr_t)pcs[first + i];
        frames[i].pc = (void *)(pc - (i > 0));
        locate(&frames[i]);
    }
    char *at = symbolize(n) == 0 ? answer : NULL;
    int no = 0;
    for (int i = 0; i < n; i++) {
        const lf_frame_t *f = &frames[i];
        if (!at || !f->module[0]) {
            print_frame(no++, f, NULL, NULL);
            continue;
        }
        /* This frame's block: function/location pairs up to an empty line. */
        int printed = 0;
        for (char *fn; (fn = next_line(&at)) && *fn;) {
            char *loc = next_line(&at);
            print_frame(no++, f, fn, loc);
            printed = 1;
        }
        if (!printed)
            print_frame(no++, f, NULL, NULL);
    }
    __fz_lf_say("\n");
}
