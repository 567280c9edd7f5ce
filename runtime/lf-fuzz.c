/*
 * lf-fuzz.c - `./harness [flags] CORPUS_DIR...`: after the corpus run in
 * this process (lf-corpus.c), fuzzing through fz-fuzz run on this same
 * binary: the driver runs `fz-fuzz -q --until-crash -i SEEDS -o TMP ... --
 * ./harness` (fz-fuzz found through FZ_FUZZ, the bin/ of the fz that built
 * the driver, or PATH), copies every new queue entry into the first corpus
 * directory under its SHA-1 (as libFuzzer names corpus files), prints
 * libFuzzer's progress lines, and runs the first crash again in this
 * process, which reports it and exits as libFuzzer does (lf-run.c).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fz-config.h"
#include "fz-protocol.h"
#include "runtime/lf-corpus.h"
#include "runtime/lf-fuzz.h"
#include "runtime/lf-run.h"
#include "runtime/lf-util.h"

/* Free memory file system space below which the work directory stays on
 * disk (a container's /dev/shm is often 64 MiB). */
#define LF_SHM_MIN_FREE (1ull << 30)

/* How often the driver looks at fz-fuzz's output directory, and how
 * often, in between, whether fz-fuzz has ended. */
#define LF_POLL_MS 100
#define LF_NAP_MS 5

static volatile sig_atomic_t lf_stop, lf_interrupted;

static void on_signal(int sig)
{
    (void)sig;
    lf_stop = 1;
    lf_interrupted = 1;
}

/* ---- Watching fz-fuzz's output ---- */

/* What the driver has seen of fz-fuzz's output directory. */
typedef struct lf_watch {
    const lf_opts_t *o;
    char *out;         /* fz-fuzz's -o */
    char *keep;        /* where new inputs go: the first corpus directory, or NULL */
    uint32_t next[64]; /* per instance directory (sorted order): next queue id */
    uint64_t execs, base, pulse, start; /* start: __fz_lf_now_us() */
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
    __fz_lf_free_names(inst, n);
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
        __fz_lf_free_names(names, n);
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
            __fz_lf_free_names(files, m);
        free(d);
    }
    __fz_lf_free_names(inst, n);
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
            __fz_lf_free_names(names, n);
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

/* Waits LF_POLL_MS, or less if fz-fuzz ends meanwhile (not reaped: the
 * watch loop reads its status), so a short -runs=N ends when it does. */
static void nap(pid_t pid)
{
    for (int i = 0; i < LF_POLL_MS / LF_NAP_MS; i++) {
        siginfo_t si = {0};
        if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == pid)
            return;
        usleep(LF_NAP_MS * 1000);
    }
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
            __fz_lf_free_names(inst, n);
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
            nap(pid);
    }
    if (!done)
        __fz_lf_wait_status(pid);
    return rc;
}

/* Removes the work directory if the driver dies without doing it (kill -9,
 * a signal it does not handle): a process of its own waits for the end of
 * a pipe only the driver holds.  fz-fuzz itself stops at the driver's
 * death (PR_SET_PDEATHSIG, lf-util.c).  Returns the pipe's write end. */
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

/* Where the work directory goes: $TMPDIR when it is set; else memory
 * (/dev/shm, when it is a tmpfs with room for a campaign), as fz-fuzz
 * writes every queue entry there and creating a file on a busy disk file
 * system can cost more than the runs that found it (ext4's inode search
 * took a sixth of a short -runs=N on bench/clients.sh); else /tmp. */
static const char *work_root(void)
{
    const char *t = getenv("TMPDIR");
    struct statfs fs;
    if (t && *t)
        return t;
    if (statfs("/dev/shm", &fs) == 0 && fs.f_type == TMPFS_MAGIC &&
        (uint64_t)fs.f_bavail * (uint64_t)fs.f_bsize >= LF_SHM_MIN_FREE &&
        access("/dev/shm", W_OK | X_OK) == 0)
        return "/dev/shm";
    return "/tmp";
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
    lf_watch_t w = {.o = o, .pulse = 1024, .start = __fz_lf_now_us(),
                    .keep = o->n_dirs ? o->dirs[0] : NULL};
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
                         ? o->max_total_time - (long)((__fz_lf_now_us() - w.start) / 1000000) : 0;
    if ((o->runs >= 0 && left <= 0) || (o->max_total_time > 0 && secs_left <= 0)) {
        progress(&w, "DONE");
        fprintf(stderr, "Done %llu runs in %llu second(s)\n", (unsigned long long)w.base,
                (unsigned long long)((__fz_lf_now_us() - w.start) / 1000000));
        __fz_lf_final_stats();
        return 0;
    }
    char tmpl[4096];
    const char *tmp = work_root();
    snprintf(tmpl, sizeof tmpl, "%s/fz-libfuzzer.XXXXXX", tmp);
    if (!self || !mkdtemp(tmpl)) {
        fprintf(stderr, "ERROR: cannot create a work directory in %s: %s; set TMPDIR\n", tmp,
                strerror(errno));
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
    /* The harness runs with the caller's sanitizer options, as under
     * libFuzzer.  fz-fuzz fills in its own where the caller set none, and
     * its LSAN_OPTIONS default (fast_unwind_on_malloc=0) makes ASan take
     * every malloc's and free's stack with the slow unwinder whenever the
     * caller's ASAN_OPTIONS keep malloc stacks (OSS-Fuzz's do): over half
     * the harness's time on bench/clients.sh's zlib harness.  An empty
     * variable is an unset one to the sanitizer, and fz-fuzz leaves it. */
    if (!getenv("LSAN_OPTIONS"))
        setenv("LSAN_OPTIONS", "", 1);
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
                (unsigned long long)((__fz_lf_now_us() - w.start) / 1000000));
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

/* ---- -dict ---- */

/* libFuzzer's dictionary format: `name="value"` or `"value"` per line,
 * \\ \" and \xNN escapes, '#' comments, blank lines.  Returns 0, or 1
 * after naming the bad line as libFuzzer does. */
int __fz_lf_check_dict(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "ERROR: cannot read the dictionary '%s': %s\n", path, strerror(errno));
        return 1;
    }
    char line[8192];
    int no = 0, entries = 0, bad = 0;
    while (!bad && fgets(line, sizeof line, f)) {
        no++;
        line[strcspn(line, "\r\n")] = 0;
        char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p || *p == '#')
            continue;
        char *q = strchr(p, '"');
        char *end = p + strlen(p);
        while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
            end--;
        bad = !q || end - q < 2 || end[-1] != '"';
        for (char *c = p; !bad && c < q; c++) /* the name: letters, digits, _ and = at its end */
            bad = !(c[0] == '=' && c + 1 == q) && !(c[0] == '_' || c[0] == '@' || c[0] == '.' ||
                                                     (c[0] >= '0' && c[0] <= '9') ||
                                                     ((c[0] | 32) >= 'a' && (c[0] | 32) <= 'z'));
        for (char *c = q ? q + 1 : NULL; !bad && c < end - 1; c++) {
            if (*c == '\\') {
                if (c[1] == '\\' || c[1] == '"')
                    c++;
                else if (c[1] == 'x' && c + 3 < end - 1 && isxdigit((unsigned char)c[2]) &&
                         isxdigit((unsigned char)c[3]))
                    c += 3;
                else
                    bad = 1;
            } else if (*c == '"' || (unsigned char)*c < 32 || (unsigned char)*c >= 127) {
                bad = 1;
            }
        }
        entries += !bad;
    }
    fclose(f);
    if (bad) {
        fprintf(stderr, "ParseDictionaryFile: error in line %d\n\t\t%s\n", no, line);
        return 1;
    }
    fprintf(stderr, "Dictionary: %d entries\n", entries);
    return 0;
}
