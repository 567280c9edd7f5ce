/*
 * fallback.c - run a build step with fz's plugin loaded, and if the
 * compiler crashes there, build the file anyway (fallback.h).
 *
 * The compiler's stderr goes to an anonymous file, not to the terminal:
 * when it crashed, its report (a backtrace, "Please submit a full bug
 * report") is not what the user should see before a successful retry, so
 * it is printed only when the step fails for good.  Otherwise the captured
 * text is copied to our stderr unchanged once the compiler exits.  Colour
 * survives: when our stderr is a terminal, -fdiagnostics-color=always goes
 * in front of the user's arguments (so their own colour option still wins).
 *
 * The ladder, each rung tried only when the one before crashed:
 *   1. the command as fz-cc made it;
 *   2. the same with FZ_NO_CMP=1: no comparison hooks (edges still counted);
 *   3. the command without the plugin flag: the file is not instrumented.
 * A rung that builds ends it with one warning line; when none builds, the
 * plain compiler fails too, so it is not fz's to hide: the first run's
 * messages and status are what the user gets.
 */
#define _GNU_SOURCE
#include "fz-cc/fallback.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fz-log.h"

/* What a run left behind: its wait status and its stderr, NUL-terminated. */
typedef struct {
    int status;
    char *err;
    size_t len;
} run_t;

static bool env_set(const char *name)
{
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0") != 0;
}

/* An anonymous file for the child's stderr. */
static int capture_fd(void)
{
    int fd = memfd_create("fz-cc-stderr", MFD_CLOEXEC);
    if (fd >= 0)
        return fd;
    FILE *f = tmpfile();
    if (!f)
        fz_die("cannot create a temporary file for the compiler's messages: %s; set TMPDIR to "
               "a writable directory",
               strerror(errno));
    return dup(fileno(f)); /* the FILE may leak: one per run, and we exit soon */
}

static void read_all(int fd, run_t *r)
{
    off_t size = lseek(fd, 0, SEEK_END);
    r->len = size > 0 ? (size_t)size : 0;
    r->err = malloc(r->len + 1);
    if (!r->err)
        fz_die("out of memory reading the compiler's messages (%zu bytes)", r->len);
    size_t got = 0;
    while (got < r->len) {
        ssize_t n = pread(fd, r->err + got, r->len - got, (off_t)got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    r->len = got;
    r->err[got] = '\0';
}

/* Runs path with argv; no_cmp adds FZ_NO_CMP=1 to its environment. */
static void run(const char *path, char **argv, bool no_cmp, run_t *r)
{
    int fd = capture_fd();
    pid_t pid = fork();
    if (pid < 0)
        fz_die("cannot fork to run %s: %s", path, strerror(errno));
    if (pid == 0) {
        dup2(fd, 2);
        if (no_cmp)
            setenv("FZ_NO_CMP", "1", 1);
        execv(path, argv);
        fprintf(stderr, "%s: error: cannot run %s: %s\n", fz_log_prog, path, strerror(errno));
        _exit(FZ_EXIT_ERROR);
    }
    while (waitpid(pid, &r->status, 0) < 0)
        if (errno != EINTR)
            fz_die("waiting for %s: %s", path, strerror(errno));
    read_all(fd, r);
    close(fd);
}

static void put_err(const run_t *r)
{
    fflush(stderr);
    for (size_t done = 0; done < r->len;) {
        ssize_t n = write(2, r->err + done, r->len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        done += (size_t)n;
    }
}

/* The status fz-cc exits with for a run; a compiler killed by a signal
 * kills us the same way, so make reports it alike. */
static int exit_status(const run_t *r)
{
    if (WIFSIGNALED(r->status)) {
        signal(WTERMSIG(r->status), SIG_DFL);
        raise(WTERMSIG(r->status));
        return 128 + WTERMSIG(r->status);
    }
    return WEXITSTATUS(r->status);
}

bool fz_fallback_crashed(int wait_status, const char *err)
{
    if (WIFSIGNALED(wait_status)) {
        int s = WTERMSIG(wait_status);
        return s == SIGSEGV || s == SIGABRT || s == SIGBUS || s == SIGILL || s == SIGFPE ||
               s == SIGTRAP;
    }
    if (!WIFEXITED(wait_status) || WEXITSTATUS(wait_status) == 0)
        return false;
    return strstr(err, "internal compiler error") || strstr(err, "PLEASE submit a bug report") ||
           strstr(err, "LLVM ERROR:");
}

/* The line of the crash report worth keeping in the log, or "". */
static void crash_line(const char *err, char *buf, size_t size)
{
    static const char *const marks[] = {"internal compiler error", "LLVM ERROR:",
                                        "frontend command failed", "PLEASE submit", NULL};
    buf[0] = '\0';
    for (int i = 0; marks[i]; i++) {
        const char *at = strstr(err, marks[i]);
        if (!at)
            continue;
        const char *start = at;
        while (start > err && start[-1] != '\n')
            start--;
        size_t n = strcspn(start, "\n");
        snprintf(buf, size, "%.*s", (int)n, start);
        for (char *p = buf; *p; p++)
            if (*p == '\t')
                *p = ' ';
        return;
    }
}

/* Appends one line to FZ_CC_FALLBACK_LOG, if set: one write() of a line
 * shorter than PIPE_BUF on an O_APPEND file, so parallel make jobs do not
 * mix their lines. */
static void log_line(const fz_fallback_cfg_t *cfg, const char *what, const run_t *crash)
{
    const char *path = getenv("FZ_CC_FALLBACK_LOG");
    if (!path || !*path)
        return;
    char cwd[1024], why[512], line[4000];
    if (!getcwd(cwd, sizeof(cwd)))
        snprintf(cwd, sizeof(cwd), "?");
    crash_line(crash->err, why, sizeof(why));
    int n = snprintf(line, sizeof(line), "%ld\t%s\t%s\t%s\t%s\t%s\n", (long)time(NULL), what,
                     cfg->source ? cfg->source : "(link)", cfg->name, cwd, why);
    if (n >= (int)sizeof(line)) {
        n = sizeof(line) - 1;
        line[n - 1] = '\n';
    }
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0 || write(fd, line, (size_t)n) != n)
        fz_warn("cannot append to FZ_CC_FALLBACK_LOG=%s: %s", path, strerror(errno));
    if (fd >= 0)
        close(fd);
}

/* "inffast.c", "a.c (and 2 more)", or "the link" */
static void describe(const fz_fallback_cfg_t *cfg, char *buf, size_t size)
{
    if (!cfg->source)
        snprintf(buf, size, "the link");
    else if (cfg->n_sources > 1)
        snprintf(buf, size, "%s (and %d more)", cfg->source, cfg->n_sources - 1);
    else
        snprintf(buf, size, "%s", cfg->source);
}

/* argv with -fdiagnostics-color=always after the plugin flag when stderr
 * is a terminal (the compiler sees a file, so would not colour by itself),
 * and with the plugin flag left out when drop_plugin. */
static char **command(const fz_fallback_cfg_t *cfg, bool drop_plugin)
{
    int n = 0;
    while (cfg->argv[n])
        n++;
    char **v = malloc(sizeof(char *) * (n + 2));
    if (!v)
        fz_die("out of memory building the compiler's command line");
    const char *term = getenv("TERM");
    bool color = isatty(2) && term && strcmp(term, "dumb") != 0;
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (i != cfg->plugin_at || !drop_plugin)
            v[k++] = cfg->argv[i];
        if (i == cfg->plugin_at && color)
            v[k++] = "-fdiagnostics-color=always";
    }
    v[k] = NULL;
    return v;
}

int fz_fallback_run(const fz_fallback_cfg_t *cfg)
{
    char **full = command(cfg, false);
    run_t first = {0};
    run(cfg->path, full, false, &first);
    if (!fz_fallback_crashed(first.status, first.err)) {
        put_err(&first);
        return exit_status(&first);
    }
    char what[512];
    describe(cfg, what, sizeof(what));
    if (env_set("FZ_CC_NO_FALLBACK") || cfg->out_stdout) {
        put_err(&first);
        log_line(cfg, "crash", &first);
        fprintf(stderr,
                "%s: error: %s crashed on %s with fz's instrumentation loaded; %s, see "
                "docs/fz-cc.md (\"When the compiler crashes\") and please report it to fz\n",
                fz_log_prog, cfg->name, what,
                cfg->out_stdout ? "its output goes to stdout, so fz-cc cannot retry it"
                                : "FZ_CC_NO_FALLBACK is set, so fz-cc does not retry without it");
        return exit_status(&first);
    }
    /* Rung 2 (unless comparisons were off already), then rung 3. */
    static const struct {
        bool no_cmp, drop_plugin;
        const char *tag, *dropped;
    } rungs[] = {
        {true, false, "fallback-cmp", "without comparison hooks (edges still instrumented)"},
        {true, true, "fallback-plain", "without fz's instrumentation (no edges, no hooks)"},
    };
    for (size_t i = 0; i < sizeof(rungs) / sizeof(rungs[0]); i++) {
        if (i == 0 && env_set("FZ_NO_CMP"))
            continue;
        char **argv = rungs[i].drop_plugin ? command(cfg, true) : full;
        run_t again = {0};
        run(cfg->path, argv, rungs[i].no_cmp, &again);
        if (WIFEXITED(again.status) && WEXITSTATUS(again.status) == 0) {
            put_err(&again);
            log_line(cfg, rungs[i].tag, &first);
            if (!cfg->quiet)
                fz_warn("%s crashed on %s with fz's %s; built it again %s; set "
                        "FZ_CC_NO_FALLBACK=1 to make this an error (docs/fz-cc.md)",
                        cfg->name, what, i == 0 ? "comparison pass (fz-cmp)" : "instrumentation",
                        rungs[i].dropped);
            return 0;
        }
        free(again.err);
    }
    /* The plain compiler fails too: not fz's doing, so nothing to hide. */
    put_err(&first);
    return exit_status(&first);
}
