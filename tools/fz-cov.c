/*
 * fz-cov.c - fz-cov OUT_DIR REPORT_DIR -- PROGRAM [ARGS]: replays a
 * campaign's queue and crashes (every instance; fz-fuzz or afl-fuzz
 * directories) through PROGRAM, a coverage build of the fuzzed sources,
 * and writes REPORT_DIR/index.html with the lines, branches and functions
 * the campaign reached, plus one summary line per source file on stdout.
 *
 * Speed: the inputs go through one forkserver (lib/fz/fz-cov-rt.so,
 * preloaded), one fork per input instead of one exec.  The counts come from
 * the compiler's own tools, so they are gcov's / llvm-cov's numbers:
 * gcc --coverage builds are read with `gcov --json-format`, clang
 * -fprofile-instr-generate builds with llvm-profdata + `llvm-cov export`.
 * The data files go to a private directory (GCOV_PREFIX, LLVM_PROFILE_FILE),
 * so stale counts in the build tree never mix in (docs/tools.md).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/exec.h"
#include "core/fileio.h"
#include "core/opts.h"
#include "fz-clock.h"
#include "fz-hash.h"
#include "fz-log.h"
#include "fz-version.h"
#include "report/campaign.h"
#include "report/cov.h"
#include "report/covpage.h"

const char *fz_log_prog = "fz-cov";

typedef enum { COV_GCOV, COV_LLVM } cov_kind_t;

typedef struct {
    char **paths;
    size_t n, cap;
    size_t queue, crashes, dups;
    uint64_t *seen; /* open-addressing set of content hashes (0 = empty slot):
                       a file synced into several instances replays once */
    size_t seen_cap, seen_n;
} inputs_t;

typedef struct {
    size_t ok, crashed, hung;
    int forkserver; /* 0: one exec per input (static program) */
} replay_t;

static void usage(void)
{
    fprintf(stderr,
            "usage: fz-cov [-t MS] [-m MB] OUT_DIR REPORT_DIR -- PROGRAM [ARGS, @@ = input]\n"
            "  replays OUT_DIR's queue and crashes (every instance) through PROGRAM, a coverage\n"
            "  build (gcc --coverage, or clang -fprofile-instr-generate -fcoverage-mapping),\n"
            "  and writes REPORT_DIR/index.html: lines, branches and functions reached.\n"
            "  -t MS  timeout per input (default 2000)   -m MB  memory limit\n"
            "  --version  print fz's version\n"
            "  tools: FZ_GCOV (gcov), FZ_LLVM_PROFDATA (llvm-profdata), FZ_LLVM_COV (llvm-cov)\n");
    exit(FZ_EXIT_ERROR);
}

/* 1 if a file with this content hash was added before; else records it. */
static int seen_before(inputs_t *in, uint64_t key)
{
    key = key ? key : 1;
    if (2 * (in->seen_n + 1) > in->seen_cap) { /* grow at half full */
        size_t cap = in->seen_cap ? in->seen_cap * 2 : 1024;
        uint64_t *old = in->seen, *set = calloc(cap, sizeof *set);
        if (!set)
            fz_die("out of memory");
        for (size_t i = 0; i < in->seen_cap; i++)
            for (size_t k = old[i] & (cap - 1); old[i]; k = (k + 1) & (cap - 1))
                if (!set[k]) {
                    set[k] = old[i];
                    break;
                }
        free(old);
        in->seen = set;
        in->seen_cap = cap;
    }
    size_t k = key & (in->seen_cap - 1);
    for (; in->seen[k]; k = (k + 1) & (in->seen_cap - 1))
        if (in->seen[k] == key)
            return 1;
    in->seen[k] = key;
    in->seen_n++;
    return 0;
}

static void add_input(inputs_t *in, char *path)
{
    if (in->n == in->cap) {
        in->cap = in->cap ? in->cap * 2 : 256;
        in->paths = realloc(in->paths, in->cap * sizeof *in->paths);
        if (!in->paths)
            fz_die("out of memory");
    }
    in->paths[in->n++] = path;
}

/* Adds the regular files of dir (not dot files, not README.txt). */
static void add_dir(inputs_t *in, const char *dir, size_t *counter)
{
    struct dirent **ents;
    int n = scandir(dir, &ents, NULL, alphasort);
    for (int i = 0; i < n; i++) {
        const char *nm = ents[i]->d_name;
        char *p = NULL;
        struct stat st;
        size_t len;
        uint8_t *buf = NULL;
        if (nm[0] != '.' && strcmp(nm, "README.txt") != 0) {
            p = fz_path_join(dir, nm, NULL);
            if (lstat(p, &st) == 0 && S_ISREG(st.st_mode))
                buf = fz_file_read(p, 0, FZ_FILE_REGULAR, &len);
        }
        if (buf && seen_before(in, fz_hash_bytes(buf, len)))
            in->dups++;
        else if (buf) {
            add_input(in, p);
            (*counter)++;
            p = NULL;
        }
        free(buf);
        free(p);
        free(ents[i]);
    }
    free(n > 0 ? ents : NULL);
}

static cov_kind_t build_kind(const char *prog)
{
    char *path = fz_fsrv_find_program(prog);
    if (!path)
        fz_die("'%s' not found; give the path of the coverage build after --", prog);
    /* clang's profile sections, or the .gcda paths gcc compiles in. */
    int llvm = fz_fsrv_file_has(path, "__llvm_prf_cnts");
    int gcov = fz_fsrv_file_has(path, ".gcda");
    free(path);
    if (llvm)
        return COV_LLVM;
    if (gcov)
        return COV_GCOV;
    fz_die("'%s' is not a coverage build; build the fuzzed sources again with gcc --coverage "
           "(or clang -fprofile-instr-generate -fcoverage-mapping), see docs/tools.md",
           prog);
}

/* lib/fz next to bin/, as fz-cc finds it. */
static char *preload_path(void)
{
    char exe[PATH_MAX], *p = NULL;
    if (!realpath("/proc/self/exe", exe))
        return NULL;
    char *slash = strrchr(exe, '/');
    if (slash)
        *slash = 0;
    if (asprintf(&p, "%s/../lib/fz/fz-cov-rt.so", exe) < 0 || access(p, R_OK)) {
        free(p);
        return NULL;
    }
    return p;
}

/* The forkserver through the preloaded shim; a static program (where a
 * preload cannot work) falls back to one exec per input. */
static int rm_entry(const char *p, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st, (void)type, (void)ftw;
    return remove(p);
}

/* Empties the data directory: a program that ran without the forkserver
 * during the failed start wrote counts of no input. */
static void reset_data(const char *data)
{
    nftw(data, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    if (mkdir(data, 0700))
        fz_die("cannot make '%s' again: %m", data);
}

static void start(fz_exec_t *x, fz_fsrv_cfg_t *cfg, replay_t *rp, const char *data)
{
    char err[512] = "";
    char *so = preload_path();
    if (so) {
        setenv("LD_PRELOAD", so, 1);
        setenv("FZ_COV_FSRV", "1", 1);
        int rc = fz_exec_start(x, cfg, FZ_EXEC_RAW, err, sizeof err);
        unsetenv("LD_PRELOAD");
        unsetenv("FZ_COV_FSRV");
        free(so);
        if (rc == 0) {
            rp->forkserver = 1;
            return;
        }
        fz_warn("'%s' did not start the preloaded forkserver (statically linked? a static "
                "program cannot take a preload); replaying with one process per input, which is "
                "slower",
                cfg->argv[0]);
        reset_data(data);
    } else {
        fz_warn("lib/fz/fz-cov-rt.so not found next to fz-cov; replaying with one process per "
                "input, which is slower (reinstall fz)");
    }
    cfg->blind = 1;
    if (fz_exec_start(x, cfg, FZ_EXEC_RAW, err, sizeof err))
        fz_die("%s", err);
}

/* A long replay says how far it is, a plain line every REPLAY_NOTE_MS. */
#define REPLAY_NOTE_MS 5000

static void replay(const inputs_t *in, fz_fsrv_cfg_t *cfg, replay_t *rp, const char *data)
{
    fz_exec_t x;
    start(&x, cfg, rp, data);
    uint64_t t0 = fz_clock_us() / 1000, next = t0 + REPLAY_NOTE_MS;
    for (size_t i = 0; i < in->n; i++) {
        if (i % 64 == 0 && fz_clock_us() / 1000 >= next) {
            fz_info("%zu of %zu inputs replayed (%.0f/s)", i, in->n,
                    i * 1000.0 / (double)(fz_clock_us() / 1000 - t0));
            next += REPLAY_NOTE_MS;
        }
        size_t len;
        uint8_t *buf = fz_file_read(in->paths[i], 0, FZ_FILE_REGULAR, &len);
        if (!buf) {
            fz_warn("cannot read '%s': %m; skipped", in->paths[i]);
            continue;
        }
        fz_exec_rec_t rec; /* no map wanted: FZ_EXEC_RAW leaves it as it is */
        fz_run_result_t r = fz_exec_run(&x, buf, len, 0, &rec);
        free(buf);
        if (r == FZ_RUN_ERROR) {
            char msg[FZ_FSRV_ERRLEN];
            memcpy(msg, fz_exec_errmsg(&x), sizeof msg);
            fz_exec_stop(&x);
            fz_die("replaying '%s': %s", in->paths[i], msg);
        }
        rp->ok += r == FZ_RUN_OK;
        rp->crashed += r == FZ_RUN_CRASH;
        rp->hung += r == FZ_RUN_HANG;
    }
    fz_exec_stop(&x);
}

/* Runs argv (cwd: dir, or ours) and returns its stdout, NUL-terminated;
 * NULL if it cannot run or exits non-zero. */
static char *capture(char *const *argv, const char *dir)
{
    int pfd[2];
    if (pipe(pfd))
        return NULL;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(pfd[1], 1);
        close(pfd[0]);
        close(pfd[1]);
        if (dir && chdir(dir))
            _exit(127);
        execvp(argv[0], argv);
        fprintf(stderr, "fz-cov: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(pfd[1]);
    size_t len = 0, cap = 1 << 16;
    char *text = pid > 0 ? malloc(cap + 1) : NULL;
    for (ssize_t r; text; len += (size_t)r) {
        if (len == cap && !(text = realloc(text, (cap *= 2) + 1)))
            break;
        while ((r = read(pfd[0], text + len, cap - len)) < 0 && errno == EINTR)
            ;
        if (r <= 0)
            break;
    }
    close(pfd[0]);
    int st = 0;
    if (pid > 0)
        waitpid(pid, &st, 0);
    if (text)
        text[len] = 0;
    if (!text || !WIFEXITED(st) || WEXITSTATUS(st)) {
        free(text);
        return NULL;
    }
    return text;
}

/* The compiler's major version as the program's .comment records it
 * ("GCC: (Debian 12.2.0-14) 12.2.0", "Debian clang version 14.0.6"), found
 * after marker; 0 if absent. */
static int compiler_major(const char *prog, const char *marker)
{
    char *path = fz_fsrv_find_program(prog);
    size_t len;
    uint8_t *bin = path ? fz_file_read(path, 0, FZ_FILE_REGULAR, &len) : NULL;
    int major = 0;
    size_t ml = strlen(marker);
    for (size_t i = 0; bin && !major && i + ml + 40 < len; i++)
        if (bin[i] == (uint8_t)marker[0] && memcmp(bin + i, marker, ml) == 0) {
            const char *v = (const char *)bin + i + ml;
            if (marker[0] == 'G') /* "GCC: (vendor text) 12.2.0": the version follows ") " */
                v = memchr(v, ')', 40) ? (const char *)memchr(v, ')', 40) + 2 : v;
            major = atoi(v);
        }
    free(bin);
    free(path);
    return major;
}

/* The tool to run: env's value, else NAME-MAJOR of the compiler that built
 * prog when that is installed (Debian installs llvm-cov-14, and llvm-cov
 * only with the llvm package), else NAME.  Returned malloc'ed. */
static char *tool(const char *env, const char *name, const char *prog, const char *marker)
{
    const char *v = getenv(env);
    if (v && *v)
        return strdup(v);
    int major = compiler_major(prog, marker);
    char *versioned = NULL, *found = NULL;
    if (major > 0 && asprintf(&versioned, "%s-%d", name, major) >= 0 &&
        (found = fz_fsrv_find_program(versioned))) {
        free(found);
        return versioned;
    }
    free(versioned);
    return strdup(name);
}

typedef struct {
    char **v;
    size_t n, cap;
} strv_t;

static void strv_add(strv_t *s, char *p)
{
    if (s->n + 1 >= s->cap) {
        s->cap = s->cap ? s->cap * 2 : 64;
        s->v = realloc(s->v, s->cap * sizeof *s->v);
        if (!s->v)
            fz_die("out of memory");
    }
    s->v[s->n++] = p;
    s->v[s->n] = NULL;
}

static void strv_free(strv_t *s, size_t from)
{
    for (size_t i = from; i < s->n; i++)
        free(s->v[i]);
    free(s->v);
}

/* Adds every *.gcda under dir (not following symlinks) to out. */
static void find_gcda(const char *dir, strv_t *out)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char *p = fz_path_join(dir, e->d_name, NULL);
        struct stat st;
        size_t n = strlen(p);
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
            find_gcda(p, out);
        else if (S_ISREG(st.st_mode) && n > 5 && strcmp(p + n - 5, ".gcda") == 0) {
            strv_add(out, p);
            continue;
        }
        free(p);
    }
    if (d)
        closedir(d);
}

/* gcov reads the notes (.gcno) next to the data: copy each build notes file
 * beside its data file in our directory.  A build tree moved since the
 * build has them beside the program instead. */
static void copy_notes(const char *data_dir, const char *gcda, const char *prog_dir)
{
    char *orig = strdup(gcda + strlen(data_dir)), *dst = strdup(gcda), *moved = NULL;
    strcpy(orig + strlen(orig) - 5, ".gcno");
    strcpy(dst + strlen(dst) - 5, ".gcno");
    size_t len;
    uint8_t *buf = fz_file_read(orig, 0, FZ_FILE_REGULAR, &len);
    if (!buf && prog_dir && asprintf(&moved, "%s/%s", prog_dir, strrchr(orig, '/') + 1) >= 0)
        buf = fz_file_read(moved, 0, FZ_FILE_REGULAR, &len);
    if (!buf)
        fz_warn("the build's notes file '%s' is gone (rebuilt or moved since the build?); gcov "
                "will skip that unit",
                orig);
    else if (fz_file_write_atomic(dst, buf, len, 0644))
        fz_die("cannot write '%s': %m", dst);
    free(buf);
    free(orig);
    free(dst);
    free(moved);
}

static void collect_gcov(fz_cov_t *c, const char *data_dir, const char *prog)
{
    char *gcov = tool("FZ_GCOV", "gcov", prog, "GCC: (");
    char *prog_dir = fz_fsrv_find_program(prog), *real = prog_dir ? realpath(prog_dir, NULL) : NULL;
    if (real && strrchr(real, '/'))
        *strrchr(real, '/') = 0;
    strv_t files = {0};
    find_gcda(data_dir, &files);
    if (!files.n)
        fz_die("the program wrote no .gcda data: was it built with --coverage, and does it end "
               "with exit() or a return from main (not _exit)?");
    for (size_t i = 0; i < files.n; i++)
        copy_notes(data_dir, files.v[i], real);
    /* A few hundred units per gcov run keep the command line short. */
    for (size_t i = 0; i < files.n; i += 200) {
        strv_t argv = {0};
        strv_add(&argv, gcov);
        strv_add(&argv, "--json-format");
        strv_add(&argv, "--branch-probabilities");
        strv_add(&argv, "--stdout");
        for (size_t k = i; k < files.n && k < i + 200; k++)
            strv_add(&argv, files.v[k]);
        char *json = capture(argv.v, data_dir), err[256];
        if (!json)
            fz_die("%s --json-format failed on the data (see above); use the gcov of the GCC "
                   "that built the program (FZ_GCOV=gcov-12), GCC 9 or newer",
                   argv.v[0]);
        if (fz_cov_read_gcov_json(c, json, err, sizeof err))
            fz_die("%s", err);
        free(json);
        free(argv.v);
    }
    strv_free(&files, 0);
    free(gcov);
    free(prog_dir);
    free(real);
}

static void collect_llvm(fz_cov_t *c, const char *data_dir, const char *prog)
{
    char *pat, *out;
    glob_t g;
    if (asprintf(&pat, "%s/*.profraw", data_dir) < 0 ||
        asprintf(&out, "%s/all.profdata", data_dir) < 0)
        fz_die("out of memory");
    if (glob(pat, 0, NULL, &g) || !g.gl_pathc)
        fz_die("the program wrote no .profraw data: was it built with -fprofile-instr-generate, "
               "and does it end with exit() or a return from main (not _exit)?");
    strv_t argv = {0};
    char *profdata = tool("FZ_LLVM_PROFDATA", "llvm-profdata", prog, "clang version ");
    char *llvm_cov = tool("FZ_LLVM_COV", "llvm-cov", prog, "clang version ");
    strv_add(&argv, profdata);
    strv_add(&argv, "merge");
    strv_add(&argv, "-sparse");
    strv_add(&argv, "-o");
    strv_add(&argv, out);
    for (size_t i = 0; i < g.gl_pathc; i++)
        strv_add(&argv, g.gl_pathv[i]);
    char *merged = capture(argv.v, NULL);
    if (!merged)
        fz_die("%s merge failed (see above); use the one of the clang that built the program "
               "(FZ_LLVM_PROFDATA=llvm-profdata-14)",
               argv.v[0]);
    free(merged);
    free(argv.v);
    globfree(&g);
    char *ip, *path = fz_fsrv_find_program(prog);
    if (asprintf(&ip, "-instr-profile=%s", out) < 0)
        fz_die("out of memory");
    char *exp[] = {llvm_cov, "export", "-format=lcov", ip, path, NULL};
    char *lcov = capture(exp, NULL), err[256];
    if (!lcov)
        fz_die("%s export failed (see above); use the one of the clang that built the program "
               "(FZ_LLVM_COV=llvm-cov-14)",
               exp[0]);
    if (fz_cov_read_lcov(c, lcov, err, sizeof err))
        fz_die("%s", err);
    free(lcov);
    free(ip);
    free(path);
    free(pat);
    free(profdata);
    free(llvm_cov);
    free(out);
}

/* "NAME\n" for each source file the linker recorded in prog (its STT_FILE
 * symbols: one per compiled file, kept unless the program is stripped),
 * or NULL when there is none. */
static char *source_symbols(const char *prog)
{
    char *argv[] = {"readelf", "-sW", (char *)prog, NULL};
    char *text = capture(argv, NULL), *save = NULL, *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    for (char *l = text ? strtok_r(text, "\n", &save) : NULL; f && l;
         l = strtok_r(NULL, "\n", &save)) {
        char type[16], name[512];
        if (sscanf(l, "%*s %*s %*s %15s %*s %*s %*s %511s", type, name) == 2 &&
            strcmp(type, "FILE") == 0)
            fprintf(f, "\n%s\n", name);
    }
    free(text);
    if (f)
        fclose(f);
    if (out && !*out) {
        free(out);
        out = NULL;
    }
    return out;
}

static int is_header(const char *path)
{
    const char *dot = strrchr(path, '.');
    return dot && (strcmp(dot, ".h") == 0 || strcmp(dot, ".hh") == 0 || strcmp(dot, ".hpp") == 0 ||
                   strcmp(dot, ".hxx") == 0 || strcmp(dot, ".inc") == 0);
}

/* The queue was made by the program named in the instance's cmdline file.
 * If that binary is still there and not stripped, it names the source
 * files it was compiled from; most of the coverage build's own files
 * (headers aside) should be among them.  (Function names cannot tell: an
 * optimised build inlines static functions away.)  Returns a note for the
 * report, or NULL. */
static char *mismatch(const fz_instance_t *inst, const fz_cov_t *c)
{
    size_t len;
    char *cmd = fz_campaign_read(inst->dir, "cmdline", &len), *note = NULL;
    if (!cmd)
        return NULL;
    cmd[strcspn(cmd, "\n")] = 0;
    char *files = cmd[0] ? source_symbols(cmd) : NULL;
    size_t total = 0, found = 0;
    for (size_t i = 0; files && i < c->n; i++) {
        if (is_header(c->files[i].path))
            continue;
        const char *base = strrchr(c->files[i].path, '/');
        char key[600];
        snprintf(key, sizeof key, "\n%s\n", base ? base + 1 : c->files[i].path);
        total++;
        found += strstr(files, key) != NULL;
    }
    if (total && found * 2 < total &&
        asprintf(&note,
                 "The coverage build does not look like a build of the fuzzed target '%s': only "
                 "%zu of its %zu source files went into that target.  Coverage of inputs made "
                 "for another program means little; build the fuzzed sources with --coverage.",
                 cmd, found, total) < 0)
        note = NULL;
    free(files);
    free(cmd);
    return note;
}

/* The campaign's inputs: every instance's queue, then its crashes. */
static void gather(const char *out, inputs_t *in, fz_instance_t **list, int *n)
{
    *n = fz_campaign_instances(out, list);
    if (*n < 0)
        fz_die("cannot read '%s': %m; give the -o directory of fz-fuzz or afl-fuzz", out);
    if (*n == 0)
        fz_die("'%s' holds no fuzzer instance (no queue/ in it or its subdirectories); give the "
               "-o directory of fz-fuzz or afl-fuzz",
               out);
    for (int i = 0; i < *n; i++) {
        char *q, *c;
        if (asprintf(&q, "%s/queue", (*list)[i].dir) < 0 ||
            asprintf(&c, "%s/crashes", (*list)[i].dir) < 0)
            fz_die("out of memory");
        add_dir(in, q, &in->queue);
        add_dir(in, c, &in->crashes);
        free(q);
        free(c);
    }
    if (!in->n)
        fz_die("no inputs in the queue/ or crashes/ of '%s'", out);
}

static void print_summary(const fz_cov_t *c)
{
    fz_cov_sum_t all = {0};
    for (size_t i = 0; i < c->n; i++) {
        fz_cov_sum_t s = fz_cov_file_sum(&c->files[i]);
        printf("%s: lines %u/%u (%.1f%%), branches %u/%u, functions %u/%u\n", c->files[i].path,
               s.lines_hit, s.lines, s.lines ? 100.0 * s.lines_hit / s.lines : 0.0, s.br_taken,
               s.br, s.funcs_hit, s.funcs);
        all.lines += s.lines, all.lines_hit += s.lines_hit, all.br += s.br;
        all.br_taken += s.br_taken, all.funcs += s.funcs, all.funcs_hit += s.funcs_hit;
    }
    printf("total: lines %u/%u (%.1f%%), branches %u/%u, functions %u/%u\n", all.lines_hit,
           all.lines, all.lines ? 100.0 * all.lines_hit / all.lines : 0.0, all.br_taken, all.br,
           all.funcs_hit, all.funcs);
}

static char *make_data_dir(const char *report, cov_kind_t kind)
{
    if (mkdir(report, 0755) && errno != EEXIST)
        fz_die("cannot create '%s': %m; check the path", report);
    char *dir, abs[PATH_MAX];
    if (!realpath(report, abs) || asprintf(&dir, "%s/.fz-cov-data.XXXXXX", abs) < 0 ||
        !mkdtemp(dir))
        fz_die("cannot make a data directory in '%s': %m", report);
    if (kind == COV_GCOV) {
        /* Every .gcda goes to DIR/<its absolute path>, away from the build's. */
        setenv("GCOV_PREFIX", dir, 1);
        setenv("GCOV_PREFIX_STRIP", "0", 1);
    } else {
        char *pf;
        if (asprintf(&pf, "%s/fz-%%m.profraw", dir) < 0)
            fz_die("out of memory");
        setenv("LLVM_PROFILE_FILE", pf, 1); /* %m: one file per binary, merged by each run */
        free(pf);
    }
    return dir;
}

int main(int argc, char **argv)
{
    fz_version_check(argc, argv, "fz-cov");
    fz_fsrv_cfg_t cfg;
    fz_fsrv_cfg_init(&cfg);
    cfg.timeout_ms = 2000;
    int at = fz_opt_parse(argc, argv, "+t:m:h", &cfg, NULL, NULL);
    if (at < 0 || argc - at < 4 || strcmp(argv[at + 2], "--") != 0)
        usage();
    const char *out = argv[at], *report = argv[at + 1];
    cfg.argv = argv + at + 3;
    cov_kind_t kind = build_kind(cfg.argv[0]);

    inputs_t in = {0};
    fz_instance_t *list;
    int n_inst;
    gather(out, &in, &list, &n_inst);
    char *data = make_data_dir(report, kind);
    replay_t rp = {0};
    replay(&in, &cfg, &rp, data);
    fz_cov_t cov = {0};
    if (kind == COV_GCOV)
        collect_gcov(&cov, data, cfg.argv[0]);
    else
        collect_llvm(&cov, data, cfg.argv[0]);
    nftw(data, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    fz_cov_finish(&cov);

    char *note = NULL, *replayed, *title;
    for (int i = 0; i < n_inst && !note; i++)
        note = mismatch(&list[i], &cov);
    if (note)
        fz_warn("%s", note);
    if (asprintf(&replayed,
                 "%zu inputs (%zu queue, %zu crashes; %zu duplicates skipped) from %d "
                 "instance(s), %s; %zu timed out (not counted)%s",
                 in.n, in.queue, in.crashes, in.dups, n_inst,
                 rp.forkserver ? "one forkserver" : "one process per input", rp.hung,
                 rp.forkserver || !rp.crashed ? "" : ", crashes died before writing counts") < 0 ||
        asprintf(&title, "fz-cov: %s", out) < 0)
        fz_die("out of memory");
    fz_covpage_info_t info = {title, cfg.argv[0], replayed,
                              kind == COV_GCOV ? "gcov --json-format" : "llvm-cov export", note};
    int missing = 0;
    if (fz_covpage_write(&cov, report, &info, &missing))
        fz_die("cannot write the report in '%s': %m", report);
    if (missing)
        fz_warn("%d source file(s) are not where the build put them (moved since the build?); "
                "their counts are reported by line number",
                missing);
    print_summary(&cov);
    fprintf(stderr, "fz-cov: %s; report in %s/index.html\n", replayed, report);
    fz_cov_free(&cov);
    for (size_t i = 0; i < in.n; i++)
        free(in.paths[i]);
    free(in.paths);
    free(in.seen);
    fz_campaign_free(list, n_inst);
    free(data);
    free(note);
    free(replayed);
    free(title);
    return 0;
}
