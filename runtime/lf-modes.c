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

static volatile sig_atomic_t lf_stop;

static void on_signal(int sig)
{
    (void)sig;
    lf_stop = 1;
}

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static long rss_mb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_CHILDREN, &ru);
    return ru.ru_maxrss / 1024;
}

/* ---- Watching fz-fuzz's output ---- */

/* What the driver has seen of fz-fuzz's output directory. */
typedef struct lf_watch {
    const lf_opts_t *o;
    char *out;         /* fz-fuzz's -o */
    uint32_t next[64]; /* per instance directory (sorted order): next queue id */
    uint64_t execs, pulse, start;
    uint32_t corpus, edges, added;
    double eps;
    int inited;
} lf_watch_t;

static long name_id(const char *name)
{
    if (strncmp(name, "id:", 3) != 0)
        return -1;
    return strtol(name + 3, NULL, 10);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted non-hidden names in dir; *n of them (NULL if unreadable). */
static char **list(const char *dir, size_t *n)
{
    *n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    char **v = NULL;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char **t = realloc(v, (*n + 1) * sizeof *v);
        if (!t)
            break;
        v = t;
        if ((v[*n] = strdup(e->d_name)))
            (*n)++;
    }
    closedir(d);
    if (v)
        qsort(v, *n, sizeof *v, cmp_str);
    return v;
}

static void free_list(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

/* Sums a fuzzer_stats key over the instances. */
static void read_stats(lf_watch_t *w)
{
    size_t n;
    char **inst = list(w->out, &n);
    uint64_t execs = 0;
    uint32_t corpus = 0, edges = 0;
    double eps = 0;
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
            if (sscanf(line, "%63s : %lf", key, &v) != 2)
                continue;
            if (!strcmp(key, "execs_done"))
                execs += (uint64_t)v;
            else if (!strcmp(key, "execs_per_sec"))
                eps += v;
            else if (!strcmp(key, "corpus_count") && v > corpus)
                corpus = (uint32_t)v;
            else if (!strcmp(key, "edges_found") && v > edges)
                edges = (uint32_t)v;
        }
        if (f)
            fclose(f);
    }
    free_list(inst, n);
    if (execs > w->execs)
        w->execs = execs;
    if (corpus > w->corpus) /* the file lags the queue; never count backwards */
        w->corpus = corpus;
    if (edges > w->edges)
        w->edges = edges;
    w->eps = eps;
}

static void progress(lf_watch_t *w, const char *what)
{
    fprintf(stderr, "#%llu\t%-6s cov: %u ft: %u corp: %u exec/s: %.0f rss: %ldMb\n",
            (unsigned long long)w->execs, what, w->edges, w->edges, w->corpus, w->eps, rss_mb());
}

/* New queue entries found by fuzzing (not seeds, not imports between -j
 * instances) go to the first corpus directory. */
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
        if (buf && __fz_lf_save_by_hash(w->o->dirs[0], buf, len, hex) == 1) {
            const char *e = strstr(names[i], ",execs:");
            uint64_t at = e ? strtoull(e + 7, NULL, 10) : 0;
            if (at > w->execs)
                w->execs = at;
            w->added++;
            w->corpus++;
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

/* Writes the artifact for the find at path; returns its path. */
static char *write_artifact(const lf_opts_t *o, const char *path, const char *kind)
{
    size_t len = 0;
    uint8_t *buf = __fz_lf_read_file(path, &len);
    char hex[41], *art;
    fz_sha1_hex(buf ? buf : (const uint8_t *)"", len, hex);
    if (o->exact_artifact_path)
        art = strdup(o->exact_artifact_path);
    else if (asprintf(&art, "%s%s-%s", o->artifact_prefix, kind, hex) < 0)
        art = NULL;
    if (art && (!buf || __fz_lf_write_atomic(art, buf, len) != 0)) {
        fprintf(stderr, "ERROR: cannot write the artifact '%s': %s; check -artifact_prefix\n",
                art, strerror(errno));
        free(art);
        art = NULL;
    }
    free(buf);
    return art;
}

/* The crash, run once more by this binary in reproduce mode, so its report
 * shows as libFuzzer's would; returns the exit status libFuzzer gives. */
static int show_crash(const lf_opts_t *o, const char *self, const char *art)
{
    fprintf(stderr, "==%d== ERROR: fz found a crashing input; its report:\n", (int)getpid());
    char *argv[] = {(char *)self, (char *)art, NULL};
    setenv("ASAN_OPTIONS", "detect_leaks=0", 0);
    int status = __fz_lf_wait_status(__fz_lf_spawn(argv, 2, NULL)), rc = (int)o->error_exitcode;
    if (WIFEXITED(status) && WEXITSTATUS(status))
        rc = WEXITSTATUS(status); /* a sanitizer's exit code, as under libFuzzer */
    else if (WIFSIGNALED(status))
        fprintf(stderr, "==%d== ERROR: libFuzzer: deadly signal (%s)\n", (int)getpid(),
                strsignal(WTERMSIG(status)));
    else
        fprintf(stderr, "NOTE: the input did not crash when run again (a flaky crash)\n");
    fprintf(stderr, "artifact_prefix='%s'; Test unit written to %s\n", o->artifact_prefix, art);
    return rc;
}

/* ---- Fuzzing ---- */

/* Copies every corpus file into seeds; writes one byte if there is none
 * (libFuzzer starts from an empty input; fz needs a non-empty seed). */
static int make_seeds(const lf_opts_t *o, const char *seeds)
{
    size_t count = 0;
    for (int d = 0; d < o->n_dirs; d++) {
        size_t n;
        char **names = list(o->dirs[d], &n);
        for (size_t i = 0; names && i < n; i++) {
            char *p = __fz_lf_path_join(o->dirs[d], names[i]), hex[41];
            size_t len;
            uint8_t *buf = p ? __fz_lf_read_file(p, &len) : NULL;
            if (buf && o->max_len > 0 && len > (size_t)o->max_len)
                len = (size_t)o->max_len; /* libFuzzer reads at most -max_len bytes too */
            if (buf && len)
                count += __fz_lf_save_by_hash(seeds, buf, len, hex) >= 0;
            free(buf);
            free(p);
        }
        if (names)
            free_list(names, n);
    }
    fprintf(stderr, "INFO: %zu file(s) found in the corpus director%s\n", count,
            o->n_dirs == 1 ? "y" : "ies");
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
                        const char *out)
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
    if (o->runs >= 0)
        NUM("-E", o->runs ? o->runs : 1);
    if (o->max_total_time > 0)
        NUM("-V", o->max_total_time);
    if (o->timeout > 0)
        NUM("-t", o->timeout * 1000);
    if (o->seed > 0)
        NUM("-s", o->seed);
    if (o->max_len > 0)
        NUM("-l", o->max_len);
    long j = o->workers > 0 ? o->workers : o->jobs;
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
 * decides the run; returns the exit status. */
static int watch(lf_watch_t *w, pid_t pid, const char *self)
{
    int rc = -1, status = 0, done = 0;
    const lf_opts_t *o = w->o;
    while (rc < 0) {
        done = waitpid(pid, &status, WNOHANG) == pid;
        read_stats(w);
        if (!w->inited && w->execs) {
            w->inited = 1;
            progress(w, "INITED");
        }
        size_t n;
        char **inst = list(w->out, &n);
        for (size_t i = 0; inst && i < n && i < 64; i++)
            take_queue(w, inst[i], &w->next[i]);
        if (inst)
            free_list(inst, n);
        if (w->inited && w->execs >= w->pulse) { /* at powers of two, as libFuzzer */
            progress(w, "pulse");
            while (w->pulse <= w->execs)
                w->pulse *= 2;
        }
        char *c = first_find(w, "crashes"), *h = c || o->timeout <= 0 ? NULL : first_find(w, "hangs");
        if (c || h) {
            kill(pid, SIGINT);
            __fz_lf_wait_status(pid);
            done = 1;
            if (h)
                fprintf(stderr, "==%d== ERROR: libFuzzer: timeout after %ld seconds\n",
                        (int)getpid(), o->timeout);
            char *art = write_artifact(o, c ? c : h, c ? "crash" : "timeout");
            rc = !art ? 1 : c ? show_crash(o, self, art) : (int)o->timeout_exitcode;
            if (art && h)
                fprintf(stderr, "artifact_prefix='%s'; Test unit written to %s\n",
                        o->artifact_prefix, art);
            free(art);
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
        free(c);
        free(h);
        if (rc < 0)
            usleep(LF_POLL_MS * 1000);
    }
    if (!done)
        __fz_lf_wait_status(pid);
    return rc;
}

static void final_lines(const lf_watch_t *w)
{
    uint64_t secs = (now_ms() - w->start) / 1000;
    fprintf(stderr, "Done %llu runs in %llu second(s)\n", (unsigned long long)w->execs,
            (unsigned long long)secs);
    if (!w->o->print_final_stats)
        return;
    fprintf(stderr,
            "stat::number_of_executed_units: %llu\nstat::average_exec_per_sec:     %llu\n"
            "stat::new_units_added:          %u\nstat::slowest_unit_time_sec:    0\n"
            "stat::peak_rss_mb:              %ld\n",
            (unsigned long long)w->execs, (unsigned long long)(secs ? w->execs / secs : w->execs),
            w->added, rss_mb());
}

int __fz_lf_fuzz(const lf_opts_t *o)
{
    if (check_corpus(o))
        return 1;
    char *tool = __fz_lf_find_tool("fz-fuzz"), *self = __fz_lf_self_path();
    if (!tool || access(tool, X_OK) != 0) {
        fprintf(stderr, "ERROR: this harness fuzzes with fz-fuzz and cannot find it; set "
                        "FZ_FUZZ=/path/to/fz-fuzz or put fz's bin/ on PATH\n");
        return 1;
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
    if (!seeds || !out || mkdir(seeds, 0700) != 0 || make_seeds(o, seeds) != 0) {
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
    char *log = __fz_lf_path_join(tmpl, "fz-fuzz.log");
    int log_fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    char **argv = fuzz_argv(o, tool, self, seeds, out);
    lf_watch_t w = {.o = o, .out = out, .pulse = 1024, .start = now_ms()};
    /* A corpus-less run keeps its finds in the work directory only. */
    static char *none[1];
    lf_opts_t nod = *o;
    if (!o->n_dirs) {
        none[0] = tmpl;
        nod.dirs = none;
        w.o = &nod;
    }
    int rc = watch(&w, __fz_lf_spawn(argv, log_fd, NULL), self);
    if (rc == 0 || lf_stop)
        final_lines(&w);
    if (log_fd >= 0)
        close(log_fd);
    __fz_lf_rm_tree(tmpl);
    free(argv);
    free(log);
    free(seeds);
    free(out);
    free(tool);
    free(self);
    return rc;
}

/* ---- -merge=1 ---- */

/* The (slot, bucket) pairs a file reaches, as fz-showmap prints them;
 * counts those not in seen (and adds them).  -1 if it could not run. */
static long features(const char *showmap, const char *self, const char *file, uint8_t **seen,
                     size_t *cap)
{
    int pfd[2];
    if (pipe(pfd) != 0)
        return -1;
    char *argv[] = {(char *)showmap, "-q", "-o", "-", "--", (char *)self, NULL};
    pid_t pid = __fz_lf_spawn(argv, pfd[1], file);
    close(pfd[1]);
    FILE *f = fdopen(pfd[0], "r");
    long fresh = 0;
    unsigned long slot, val;
    while (f && fscanf(f, "%lu:%lu", &slot, &val) == 2) {
        if (slot >= *cap) {
            size_t ncap = (slot + 1) * 2;
            uint8_t *t = realloc(*seen, ncap);
            if (!t)
                break;
            memset(t + *cap, 0, ncap - *cap);
            *seen = t;
            *cap = ncap;
        }
        uint8_t bit = (uint8_t)(1u << ((val ? val - 1 : 0) & 7));
        if (!((*seen)[slot] & bit)) {
            (*seen)[slot] |= bit;
            fresh++;
        }
    }
    if (f)
        fclose(f);
    int status = __fz_lf_wait_status(pid);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 3)
        return -2; /* crashes */
    return fresh;
}

typedef struct sized {
    char *path;
    off_t size;
} sized_t;

static int cmp_size(const void *a, const void *b)
{
    const sized_t *x = a, *y = b;
    return x->size != y->size ? (x->size < y->size ? -1 : 1) : strcmp(x->path, y->path);
}

int __fz_lf_merge(const lf_opts_t *o)
{
    if (o->n_dirs < 2) {
        fprintf(stderr, "ERROR: -merge=1 needs the corpus to merge into and at least one "
                        "directory to merge from: -merge=1 CORPUS NEW_DIR...\n");
        return 1;
    }
    if (check_corpus(o))
        return 1;
    char *showmap = __fz_lf_find_tool("fz-showmap"), *self = __fz_lf_self_path();
    if (!showmap || access(showmap, X_OK) != 0) {
        fprintf(stderr, "ERROR: -merge=1 measures coverage with fz-showmap and cannot find it; "
                        "set FZ_FUZZ=/path/to/fz-fuzz (fz-showmap beside it) or put fz's bin/ "
                        "on PATH\n");
        return 1;
    }
    uint8_t *seen = NULL;
    size_t cap = 0, initial = 0, total = 0, added = 0;
    long new_features = 0;
    sized_t *v = NULL;
    for (int d = 0; d < o->n_dirs; d++) {
        size_t n;
        char **names = list(o->dirs[d], &n);
        for (size_t i = 0; names && i < n; i++) {
            char *p = __fz_lf_path_join(o->dirs[d], names[i]);
            struct stat sb;
            if (!p || stat(p, &sb) != 0 || !S_ISREG(sb.st_mode)) {
                free(p);
                continue;
            }
            total++;
            if (d == 0) { /* the corpus's own coverage comes first */
                initial++;
                features(showmap, self, p, &seen, &cap);
                free(p);
                continue;
            }
            sized_t *t = realloc(v, (total - initial) * sizeof *v);
            if (!t)
                break;
            v = t;
            v[total - initial - 1] = (sized_t){p, sb.st_size};
        }
        if (names)
            free_list(names, n);
    }
    fprintf(stderr, "MERGE-OUTER: %zu files, %zu in the initial corpus\n", total, initial);
    size_t cand = total - initial;
    qsort(v, cand, sizeof *v, cmp_size); /* smallest first, as libFuzzer prefers */
    for (size_t i = 0; i < cand; i++) {
        long f = features(showmap, self, v[i].path, &seen, &cap);
        size_t len;
        uint8_t *buf = f > 0 ? __fz_lf_read_file(v[i].path, &len) : NULL;
        char hex[41];
        if (f == -2)
            fprintf(stderr, "MERGE-OUTER: skipping '%s': it crashes\n", v[i].path);
        if (buf && __fz_lf_save_by_hash(o->dirs[0], buf, len, hex) >= 0) {
            added++;
            new_features += f;
        }
        free(buf);
        free(v[i].path);
    }
    fprintf(stderr, "MERGE-OUTER: %zu new files with %ld new features added\n", added,
            new_features);
    free(v);
    free(seen);
    free(showmap);
    free(self);
    return 0;
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
    if (ok && __fz_lf_read_file(out, &len))
        fprintf(stderr, "CRASH_MIN: minimized input written to %s (%zu bytes)\n", out, len);
    else
        fprintf(stderr, "ERROR: fz-tmin could not minimize '%s'\n", o->files[0]);
    free(out);
    free(tmin);
    free(self);
    return ok ? 0 : 1;
}
