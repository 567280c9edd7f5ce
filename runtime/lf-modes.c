/*
 * lf-modes.c - what a harness linked with fz's driver does when run the
 * libFuzzer way (lf-cli.h): fuzz corpus directories through fz-fuzz,
 * -merge=1 through fz-showmap, -minimize_crash=1 through fz-tmin.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fz-config.h"
#include "fz-protocol.h"
#include "fz-sha1.h"
#include "runtime/lf-cli.h"

/* How often the driver looks at fz-fuzz's output directory. */
#define LF_POLL_MS 100

static volatile sig_atomic_t lf_stop, lf_interrupted;

static void on_signal(int sig)
{
    (void)sig;
    lf_stop = 1;
    lf_interrupted = 1;
}

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* ---- Watching fz-fuzz's output ---- */

/* What the driver has seen of fz-fuzz's output directory. */
typedef struct lf_watch {
    const lf_opts_t *o;
    char *out;         /* fz-fuzz's -o */
    char *keep;        /* where new inputs go: the first corpus directory, or NULL */
    uint32_t next[64]; /* per instance directory (sorted order): next queue id */
    uint64_t execs, base, pulse, start;
    size_t corp_n, corp_bytes;
    int inited;
} lf_watch_t;

static long name_id(const char *name)
{
    if (strncmp(name, "id:", 3) != 0)
        return -1;
    return strtol(name + 3, NULL, 10);
}

static char **list(const char *dir, size_t *n)
{
    char **v;
    *n = __fz_lf_list(dir, &v);
    return v;
}

static void free_list(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

/* fz-fuzz's executions, summed over the instances. */
static void read_stats(lf_watch_t *w)
{
    size_t n;
    char **inst = list(w->out, &n);
    uint64_t execs = 0;
    for (size_t i = 0; i < n; i++) {
        char *p;
        if (asprintf(&p, "%s/%s/fuzzer_stats", w->out, inst[i]) < 0)
            continue;
        FILE *f = fopen(p, "r");
        free(p);
        char line[512];
        while (f && fgets(line, sizeof line, f)) {
            char key[64];
            double v;
            if (sscanf(line, "%63s : %lf", key, &v) == 2 && !strcmp(key, "execs_done"))
                execs += (uint64_t)v;
        }
        if (f)
            fclose(f);
    }
    free_list(inst, n);
    if (execs > w->execs)
        w->execs = execs;
}

static void progress(lf_watch_t *w, const char *what)
{
    __fz_lf_status(what, w->corp_n, w->corp_bytes, w->base + w->execs);
}

/* New queue entries found by fuzzing (not seeds, not imports between -j
 * instances): run once here, which counts their coverage for the status
 * line, and kept in the first corpus directory under their SHA-1. */
static void take_queue(lf_watch_t *w, const char *inst, uint32_t *next)
{
    char *q = __fz_lf_path_join(w->out, inst), *qd = q ? __fz_lf_path_join(q, "queue") : NULL;
    size_t n;
    char **names = qd ? list(qd, &n) : NULL;
    for (size_t i = 0; names && i < n; i++) {
        long id = name_id(names[i]);
        if (id < (long)*next)
            continue;
        *next = (uint32_t)id + 1;
        if (strstr(names[i], ",orig:") || strstr(names[i], ",sync:"))
            continue;
        char *p = __fz_lf_path_join(qd, names[i]), hex[41];
        size_t len;
        uint8_t *buf = p ? __fz_lf_read_file(p, &len) : NULL;
        if (buf && (!w->keep || __fz_lf_save_by_hash(w->keep, buf, len, hex) == 1)) {
            const char *e = strstr(names[i], ",execs:");
            uint64_t at = e ? strtoull(e + 7, NULL, 10) : 0;
            if (at > w->execs)
                w->execs = at;
            __fz_lf_execute(buf, len, NULL);
            __fz_lf_note_added();
            w->corp_n++;
            w->corp_bytes += len;
            progress(w, "NEW");
        }
        free(buf);
        free(p);
    }
    if (names)
        free_list(names, n);
    free(qd);
    free(q);
}

/* The first file in some instance's SUB (crashes or hangs), malloc'ed path. */
static char *first_find(lf_watch_t *w, const char *sub)
{
    size_t n;
    char **inst = list(w->out, &n);
    char *found = NULL;
    for (size_t i = 0; i < n && !found; i++) {
        char *d;
        size_t m;
        if (asprintf(&d, "%s/%s/%s", w->out, inst[i], sub) < 0)
            continue;
        char **files = list(d, &m);
        for (size_t j = 0; j < m && !found; j++)
            if (name_id(files[j]) >= 0)
                found = __fz_lf_path_join(d, files[j]);
        if (files)
            free_list(files, m);
        free(d);
    }
    free_list(inst, n);
    return found;
}

/* ---- Fuzzing ---- */

/* Copies every corpus file into seeds (cut to max_len, as libFuzzer reads
 * them); one byte if there is none (fz needs a non-empty seed). */
static int make_seeds(const lf_opts_t *o, const char *seeds, long max_len)
{
    size_t count = 0;
    for (int d = 0; d < o->n_dirs; d++) {
        size_t n;
        char **names = list(o->dirs[d], &n);
        for (size_t i = 0; names && i < n; i++) {
            char *p = __fz_lf_path_join(o->dirs[d], names[i]), hex[41];
            size_t len;
            uint8_t *buf = p ? __fz_lf_read_file(p, &len) : NULL;
            if (buf && max_len > 0 && len > (size_t)max_len)
                len = (size_t)max_len;
            if (buf && len)
                count += __fz_lf_save_by_hash(seeds, buf, len, hex) >= 0;
            free(buf);
            free(p);
        }
        if (names)
            free_list(names, n);
    }
    if (count)
        return 0;
    char hex[41];
    return __fz_lf_save_by_hash(seeds, (const uint8_t *)"\n", 1, hex) < 0 ? -1 : 0;
}

static int check_corpus(const lf_opts_t *o)
{
    for (int d = 0; d < o->n_dirs; d++)
        if (!__fz_lf_is_dir(o->dirs[d])) {
            fprintf(stderr, "ERROR: The required directory \"%s\" does not exist\n", o->dirs[d]);
            return 1;
        }
    if (o->n_dirs && access(o->dirs[0], W_OK | X_OK) != 0) {
        fprintf(stderr, "ERROR: the corpus directory \"%s\" is not writable (%s); new inputs "
                        "are written to the first directory given\n",
                o->dirs[0], strerror(errno));
        return 1;
    }
    return 0;
}

/* fz-fuzz's command line for the options. */
static char **fuzz_argv(const lf_opts_t *o, char *tool, char *self, const char *seeds,
                        const char *out, long runs, long max_len, long secs)
{
    static char num[8][32];
    char **v = calloc(40, sizeof *v);
    int n = 0, k = 0;
    if (!v)
        return NULL;
#define NUM(flag, val)                                                                             \
    do {                                                                                           \
        v[n++] = flag;                                                                             \
        snprintf(num[k], sizeof num[k], "%lld", (long long)(val));                                 \
        v[n++] = num[k++];                                                                         \
    } while (0)
    v[n++] = tool;
    v[n++] = "-q";
    v[n++] = "--until-crash";
    v[n++] = "-i";
    v[n++] = (char *)seeds;
    v[n++] = "-o";
    v[n++] = (char *)out;
    if (runs >= 0)
        NUM("-E", runs ? runs : 1);
    if (secs > 0)
        NUM("-V", secs);
    if (o->timeout > 0)
        NUM("-t", o->timeout * 1000);
    if (o->seed > 0)
        NUM("-s", o->seed);
    if (max_len > 0)
        NUM("-l", max_len);
    long j = o->workers > 0 ? o->workers : o->jobs > 0 ? o->jobs : o->fork;
    if (j > 1)
        NUM("-j", j);
    if (o->dict) {
        v[n++] = "-x";
        v[n++] = (char *)o->dict;
    }
    v[n++] = "--";
    v[n++] = self;
    v[n] = NULL;
#undef NUM
    return v;
}

/* Watches fz-fuzz until it ends or a crash (or, with -timeout, a hang)
 * decides the run.  Returns the exit status; *find the find that decides
 * it (malloc'ed; *hang set for a hang). */
static int watch(lf_watch_t *w, pid_t pid, char **find, int *hang)
{
    int rc = -1, status = 0, done = 0;
    const lf_opts_t *o = w->o;
    *find = NULL;
    while (rc < 0) {
        done = waitpid(pid, &status, WNOHANG) == pid;
        read_stats(w);
        size_t n;
        char **inst = list(w->out, &n);
        for (size_t i = 0; inst && i < n && i < 64; i++)
            take_queue(w, inst[i], &w->next[i]);
        if (inst)
            free_list(inst, n);
        if (w->base + w->execs >= w->pulse) { /* at powers of two, as libFuzzer */
            progress(w, "pulse");
            while (w->pulse <= w->base + w->execs)
                w->pulse *= 2;
        }
        char *c = first_find(w, "crashes"), *h = c || o->timeout <= 0 ? NULL : first_find(w, "hangs");
        if (c || h) {
            kill(pid, SIGINT);
            __fz_lf_wait_status(pid);
            read_stats(w); /* its last word on executions */
            done = 1;
            *find = c ? c : h;
            *hang = !c;
            rc = 0;
            continue;
        } else if (done) {
            if (!WIFEXITED(status) || WEXITSTATUS(status) == FZ_EXIT_ERROR) {
                fprintf(stderr, "ERROR: fz-fuzz failed (%s %d); its message is above\n",
                        WIFEXITED(status) ? "exit" : "signal",
                        WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
                rc = 1;
            } else {
                rc = 0;
            }
        } else if (lf_stop) {
            kill(pid, SIGINT);
            lf_stop = 0;
        }
        if (rc < 0)
            usleep(LF_POLL_MS * 1000);
    }
    if (!done)
        __fz_lf_wait_status(pid);
    return rc;
}

/* Removes the work directory if the driver dies without doing it (kill -9,
 * a signal it does not handle): a process of its own waits for the end of
 * a pipe only the driver holds.  fz-fuzz itself stops at the driver's
 * death (PR_SET_PDEATHSIG, lf-cli.c).  Returns the pipe's write end. */
static int start_janitor(const char *dir, pid_t fuzzer)
{
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0)
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(p[0]);
        close(p[1]);
        return -1;
    }
    if (pid > 0) {
        close(p[0]);
        return p[1];
    }
    close(p[1]);
    signal(SIGINT, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    char c;
    ssize_t r;
    while ((r = read(p[0], &c, 1)) < 0 && errno == EINTR)
        ;
    if (r == 1) /* the driver cleaned up itself */
        _exit(0);
    kill(fuzzer, SIGINT);
    for (int i = 0; i < 200 && kill(fuzzer, 0) == 0; i++)
        usleep(50 * 1000);
    if (kill(fuzzer, 0) == 0)
        kill(fuzzer, SIGKILL);
    __fz_lf_rm_tree(dir);
    _exit(0);
}

int __fz_lf_fuzz(const lf_opts_t *o)
{
    if (check_corpus(o))
        return 1;
    if (o->dict && __fz_lf_check_dict(o->dict))
        return 1;
    char *tool = __fz_lf_find_tool("fz-fuzz"), *self = __fz_lf_self_path();
    if (!tool || access(tool, X_OK) != 0) {
        fprintf(stderr, "ERROR: this harness fuzzes with fz-fuzz and cannot find it; set "
                        "FZ_FUZZ=/path/to/fz-fuzz or put fz's bin/ on PATH\n");
        return 1;
    }
    lf_watch_t w = {.o = o, .pulse = 1024, .start = now_ms(), .keep = o->n_dirs ? o->dirs[0] : NULL};
    /* The corpus first, in this process, as libFuzzer does: a crashing
     * file ends the run here with its crash-<sha1>. */
    long max_len = __fz_lf_run_corpus(o, &w.corp_n, &w.corp_bytes);
    if (!__fz_lf_cov()) {
        fprintf(stderr, "ERROR: no interesting inputs were found. Is the code instrumented for "
                        "coverage? Exiting.\n(fz: build the harness with fz-cc/fz-clang "
                        "-fsanitize=fuzzer; libraries with -fsanitize=fuzzer-no-link)\n");
        return 1;
    }
    w.base = __fz_lf_runs();
    long left = o->runs < 0 ? -1 : o->runs - (long)w.base;
    /* -max_total_time counts the corpus run too, as libFuzzer's does. */
    long secs_left = o->max_total_time > 0
                         ? o->max_total_time - (long)((now_ms() - w.start) / 1000) : 0;
    if ((o->runs >= 0 && left <= 0) || (o->max_total_time > 0 && secs_left <= 0)) {
        progress(&w, "DONE");
        fprintf(stderr, "Done %llu runs in %llu second(s)\n", (unsigned long long)w.base,
                (unsigned long long)((now_ms() - w.start) / 1000));
        __fz_lf_final_stats();
        return 0;
    }
    char tmpl[4096];
    const char *tmp = getenv("TMPDIR");
    snprintf(tmpl, sizeof tmpl, "%s/fz-libfuzzer.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!self || !mkdtemp(tmpl)) {
        fprintf(stderr, "ERROR: cannot create a work directory in %s: %s; set TMPDIR\n",
                tmp && *tmp ? tmp : "/tmp", strerror(errno));
        return 1;
    }
    char *seeds = __fz_lf_path_join(tmpl, "seeds"), *out = __fz_lf_path_join(tmpl, "out");
    if (!seeds || !out || mkdir(seeds, 0700) != 0 || make_seeds(o, seeds, max_len) != 0) {
        fprintf(stderr, "ERROR: cannot copy the corpus into %s\n", tmpl);
        __fz_lf_rm_tree(tmpl);
        return 1;
    }
    if (!o->n_dirs)
        fprintf(stderr, "INFO: no corpus directory given: new inputs are not kept\n");
    fprintf(stderr, "INFO: fuzzing with fz's engine: %s (work directory %s)\n", tool, tmpl);
    struct sigaction sa = {0};
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    /* The fuzzed children check what lf-run.c checks here (libfuzzer.c). */
    char num[32];
    snprintf(num, sizeof num, "%ld", o->malloc_limit_mb > 0 ? o->malloc_limit_mb : o->rss_limit_mb);
    setenv("FZ_LF_MALLOC_LIMIT_MB", num, 1);
    snprintf(num, sizeof num, "%ld", o->rss_limit_mb);
    setenv("FZ_LF_RSS_LIMIT_MB", num, 1);
    setenv("FZ_LF_DETECT_LEAKS", o->detect_leaks ? "1" : "0", 1);
    char *log = __fz_lf_path_join(tmpl, "fz-fuzz.log");
    int log_fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    char **argv = fuzz_argv(o, tool, self, seeds, out, left, max_len, secs_left);
    w.out = out;
    pid_t pid = __fz_lf_spawn(argv, log_fd, NULL);
    int janitor = start_janitor(tmpl, pid);
    char *find = NULL;
    int hang = 0;
    int rc = watch(&w, pid, &find, &hang);
    __fz_lf_add_runs(w.execs);
    uint8_t *fbuf = NULL;
    size_t flen = 0;
    if (find) /* read before the work directory goes */
        fbuf = __fz_lf_read_file(find, &flen);
    if (log_fd >= 0)
        close(log_fd);
    __fz_lf_rm_tree(tmpl);
    if (janitor >= 0) {
        if (write(janitor, "x", 1) != 1)
            perror("fz-libfuzzer: janitor");
        close(janitor);
    }
    if (find) {
        /* Run the find in this process: lf-run.c reports it and exits
         * (crash-, timeout-, oom-, leak-).  Still here: it did not end the
         * process, and its artifact is written all the same. */
        rc = 1;
        if (fbuf) {
            __fz_lf_execute(fbuf, flen, NULL);
            if (hang) {
                fprintf(stderr, "==%d== ERROR: libFuzzer: timeout after %ld seconds\n"
                                "SUMMARY: libFuzzer: timeout\n", (int)getpid(), o->timeout);
                __fz_lf_dump_bytes("timeout", fbuf, flen);
                rc = (int)o->timeout_exitcode;
            } else {
                fprintf(stderr, "==%d== ERROR: libFuzzer: deadly signal\nNOTE: fz-fuzz saw this "
                                "input crash; run again in this process it did not (a flaky "
                                "crash, or one that needs a fresh process)\n"
                                "SUMMARY: libFuzzer: deadly signal\n", (int)getpid());
                __fz_lf_dump_bytes("crash", fbuf, flen);
                rc = (int)o->error_exitcode;
            }
            __fz_lf_final_stats();
        }
    } else if (lf_interrupted) {
        /* SIGINT, SIGTERM, SIGHUP: fz-fuzz was stopped; end as libFuzzer
         * does when interrupted. */
        fprintf(stderr, "==%d== libFuzzer: run interrupted; exiting\n", (int)getpid());
        __fz_lf_final_stats();
        rc = 72;
    } else if (rc == 0) {
        /* fz-fuzz stops at -E N, give or take a calibration run: -runs=N
         * ends "Done N runs", as libFuzzer's does. */
        uint64_t done = w.base + w.execs;
        if (o->runs >= 0 && done > (uint64_t)o->runs)
            done = (uint64_t)o->runs;
        fprintf(stderr, "Done %llu runs in %llu second(s)\n", (unsigned long long)done,
                (unsigned long long)((now_ms() - w.start) / 1000));
        __fz_lf_final_stats();
    }
    free(fbuf);
    free(find);
    free(argv);
    free(log);
    free(seeds);
    free(out);
    free(tool);
    free(self);
    return rc;
}

/* ---- -merge=1 ---- */

/* The inner process: runs the files from `from` on, each after telling
 * the outer one it started it ("S i"), then reports what it added ("R i
 * features edges"); the files before `from` that were kept (initial ones
 * and mark[i] & 1) run silently first, so the coverage seen so far is the
 * outer one's.  A file that kills the process is the last one started. */
static void merge_inner(lf_file_t *v, size_t n, size_t initial, const uint8_t *mark, size_t from,
                        int fd) LF_FRAME(10, MergeInner);
static void merge_inner(lf_file_t *v, size_t n, size_t initial, const uint8_t *mark, size_t from,
                        int fd)
{
    FILE *out = fdopen(fd, "w");
    if (!out)
        _exit(1);
    setvbuf(out, NULL, _IOLBF, 0);
    __fz_lf_rss_thread();
    for (size_t i = 0; i < n; i++) {
        if (i < from && !(i < initial || (mark[i] & 1)))
            continue;
        size_t len = 0, edges = 0;
        uint8_t *buf = __fz_lf_read_file(v[i].path, &len);
        if (!buf)
            len = 0;
        if (i >= from)
            fprintf(out, "S %zu\n", i);
        size_t f = __fz_lf_execute(buf ? buf : (const uint8_t *)"", len, &edges);
        if (i >= from)
            fprintf(out, "R %zu %zu %zu\n", i, f, edges);
        free(buf);
    }
    fprintf(out, "D %zu %zu\n", __fz_lf_cov(), __fz_lf_ft());
    fclose(out);
    exit(0); /* a normal exit: a coverage build writes its profile */
}

/* -merge_control_file: the files, then one line per file done. */
static void mcf_write(const char *path, lf_file_t *v, size_t n, size_t initial,
                      const uint8_t *mark)
{
    if (!path)
        return;
    char *tmp;
    if (asprintf(&tmp, "%s.tmp", path) < 0)
        return;
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "WARNING: cannot write -merge_control_file=%s: %s\n", path,
                strerror(errno));
        free(tmp);
        return;
    }
    fprintf(f, "%zu\n%zu\n", n, initial);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s\n", v[i].path);
    for (size_t i = 0; i < n; i++)
        if (mark[i] & 2)
            fprintf(f, "DONE %zu %s\n", i, (mark[i] & 1) ? "kept" : "-");
    if (fclose(f) == 0)
        rename(tmp, path);
    free(tmp);
}

int __fz_lf_merge(const lf_opts_t *o)
{
    if (o->n_dirs < 2) {
        fprintf(stderr, "ERROR: -merge=1 needs the corpus to merge into and at least one "
                        "directory to merge from: -merge=1 CORPUS NEW_DIR...\n");
        return 1;
    }
    for (int d = 0; d < o->n_dirs; d++)
        if (!__fz_lf_is_dir(o->dirs[d])) {
            fprintf(stderr, "No such file or directory: %s; exiting\n", o->dirs[d]);
            return 1;
        }
    if (access(o->dirs[0], W_OK | X_OK) != 0) {
        fprintf(stderr, "ERROR: the corpus directory \"%s\" is not writable (%s)\n", o->dirs[0],
                strerror(errno));
        return 1;
    }
    size_t initial, rest;
    lf_file_t *a = __fz_lf_collect(o->dirs, 1, &initial, 0);
    lf_file_t *b = __fz_lf_collect(o->dirs + 1, o->n_dirs - 1, &rest, 0);
    size_t n = initial + rest;
    lf_file_t *v = malloc((n ? n : 1) * sizeof *v);
    uint8_t *mark = calloc(n ? n : 1, 1); /* 1: kept, 2: done */
    if (!v || !mark)
        return 1;
    if (initial)
        memcpy(v, a, initial * sizeof *v);
    if (rest)
        memcpy(v + initial, b, rest * sizeof *v); /* smallest first, as libFuzzer prefers */
    free(a);
    free(b);
    fprintf(stderr, "MERGE-OUTER: %zu files, %zu in the initial corpus, 0 processed earlier\n", n,
            initial);
    size_t from = 0, new_files = 0, new_ft = 0, new_cov = 0, cov = 0, ft = 0;
    int attempt = 0, ok = 0;
    while (!ok) {
        fprintf(stderr, "MERGE-OUTER: attempt %d\n", ++attempt);
        int p[2];
        if (pipe(p) != 0)
            return 1;
        fflush(NULL);
        pid_t pid = fork();
        if (pid == 0) {
            close(p[0]);
            fprintf(stderr, "MERGE-INNER: %zu total files; %zu processed earlier; will process "
                            "%zu files now\n", n, from, n - from);
            merge_inner(v, n, initial, mark, from, p[1]);
        }
        close(p[1]);
        FILE *in = fdopen(p[0], "r");
        char line[128];
        long started = -1;
        while (in && fgets(line, sizeof line, in)) {
            size_t i, f, e;
            if (sscanf(line, "S %zu", &i) == 1) {
                started = (long)i;
            } else if (sscanf(line, "R %zu %zu %zu", &i, &f, &e) == 3 && i < n) {
                mark[i] |= 2;
                started = -1;
                if (i >= initial && f > 0) {
                    mark[i] |= 1;
                    new_files++;
                    new_ft += f;
                    new_cov += e;
                }
            } else if (sscanf(line, "D %zu %zu", &f, &e) == 2) {
                cov = f;
                ft = e;
            }
        }
        if (in)
            fclose(in);
        int status = __fz_lf_wait_status(pid);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && started < 0) {
            ok = 1;
        } else if (started >= 0) {
            fprintf(stderr, "MERGE-OUTER: '%s' ends the inner process; skipping it\n",
                    v[started].path);
            mark[started] |= 2;
            from = (size_t)started + 1;
        } else {
            fprintf(stderr, "ERROR: the merge's inner process failed (status %d)\n", status);
            return 1;
        }
        mcf_write(o->merge_control_file, v, n, initial, mark);
    }
    fprintf(stderr, "MERGE-OUTER: successful in %d attempt(s)\n", attempt);
    fprintf(stderr, "#%zu\tDONE   cov: %zu ft: %zu corp: %zu exec/s: 0 rss: %ldMb\n", n, cov, ft,
            new_files, __fz_lf_rss_mb());
    for (size_t i = initial; i < n; i++) {
        if (!(mark[i] & 1))
            continue;
        size_t len;
        uint8_t *buf = __fz_lf_read_file(v[i].path, &len);
        char hex[41];
        if (!buf || __fz_lf_save_by_hash(o->dirs[0], buf, len, hex) < 0)
            fprintf(stderr, "WARNING: cannot copy '%s' into %s\n", v[i].path, o->dirs[0]);
        free(buf);
    }
    fprintf(stderr, "MERGE-OUTER: %zu new files with %zu new features added; %zu new coverage "
                    "edges\n", new_files, new_ft, new_cov);
    __fz_lf_free_files(v, n);
    free(mark);
    return 0;
}

/* ---- -cleanse_crash=1 ---- */

/* Non-zero when buf still crashes, run in a child process (its report
 * silenced). */
static int crashes(const uint8_t *buf, size_t len)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        __fz_lf_execute(buf, len, NULL);
        _exit(0);
    }
    int status = __fz_lf_wait_status(pid);
    return !WIFEXITED(status) || WEXITSTATUS(status) != 0;
}

/* Every byte that can become ' ' or 0xff (whichever it is not) with the
 * crash kept, does; written to -exact_artifact_path. */
int __fz_lf_cleanse_crash(const lf_opts_t *o)
{
    if (o->n_files != 1 || !o->exact_artifact_path) {
        fprintf(stderr, "ERROR: -cleanse_crash=1 takes one crashing file and "
                        "-exact_artifact_path=OUT\n");
        return 1;
    }
    size_t len;
    uint8_t *buf = __fz_lf_read_file(o->files[0], &len);
    if (!buf) {
        fprintf(stderr, "ERROR: cannot read '%s'\n", o->files[0]);
        return 1;
    }
    fprintf(stderr, "CLEANSE_CRASH: cleansing '%s' (%zu bytes)\n", o->files[0], len);
    if (!crashes(buf, len)) {
        fprintf(stderr, "ERROR: the input '%s' does not crash; nothing to cleanse\n", o->files[0]);
        free(buf);
        return 1;
    }
    size_t changed = 0;
    static const uint8_t repl[] = {' ', 0xff};
    for (size_t i = 0; i < len; i++) {
        uint8_t old = buf[i];
        if (old == repl[0] || old == repl[1])
            continue;
        for (int r = 0; r < 2; r++) {
            buf[i] = repl[r];
            if (crashes(buf, len)) {
                fprintf(stderr, "CLEANSE: Replaced byte %zu with 0x%x\n", i, repl[r]);
                changed++;
                break;
            }
            buf[i] = old;
        }
    }
    int rc = __fz_lf_write_atomic(o->exact_artifact_path, buf, len);
    if (rc == 0)
        fprintf(stderr, "CLEANSE: %zu of %zu bytes replaced; written to %s\n", changed, len,
                o->exact_artifact_path);
    else
        fprintf(stderr, "ERROR: cannot write %s: %s\n", o->exact_artifact_path, strerror(errno));
    free(buf);
    return rc ? 1 : 0;
}

/* ---- -minimize_crash=1 ---- */

int __fz_lf_minimize_crash(const lf_opts_t *o)
{
    if (o->n_files != 1) {
        fprintf(stderr, "ERROR: -minimize_crash=1 takes one crashing file: -minimize_crash=1 "
                        "[-runs=N] [-exact_artifact_path=OUT] CRASH_FILE\n");
        return 1;
    }
    char *tmin = __fz_lf_find_tool("fz-tmin"), *self = __fz_lf_self_path(), *out = NULL;
    if (!tmin || access(tmin, X_OK) != 0) {
        fprintf(stderr, "ERROR: -minimize_crash=1 uses fz-tmin and cannot find it; set "
                        "FZ_FUZZ=/path/to/fz-fuzz (fz-tmin beside it) or put fz's bin/ on PATH\n");
        return 1;
    }
    size_t len;
    uint8_t *buf = __fz_lf_read_file(o->files[0], &len);
    if (!buf) {
        fprintf(stderr, "ERROR: cannot read '%s'\n", o->files[0]);
        return 1;
    }
    char hex[41], runs[32];
    fz_sha1_hex(buf, len, hex);
    free(buf);
    if (o->exact_artifact_path)
        out = strdup(o->exact_artifact_path);
    else if (asprintf(&out, "%sminimized-from-%s", o->artifact_prefix, hex) < 0)
        out = NULL;
    snprintf(runs, sizeof runs, "%ld", o->runs > 0 ? o->runs : 100000);
    char *argv[] = {tmin, "-q", "-E", runs, "-i", o->files[0], "-o", out, "--", self, NULL};
    int status = __fz_lf_wait_status(__fz_lf_spawn(argv, 2, NULL));
    int ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    uint8_t *got = ok ? __fz_lf_read_file(out, &len) : NULL;
    if (got)
        fprintf(stderr, "CRASH_MIN: minimized input written to %s (%zu bytes)\n", out, len);
    else
        fprintf(stderr, "ERROR: fz-tmin could not minimize '%s'\n", o->files[0]);
    free(got);
    free(out);
    free(tmin);
    free(self);
    return ok ? 0 : 1;
}
