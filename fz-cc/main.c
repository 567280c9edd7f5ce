/*
 * main.c - fz-cc, fz-c++, fz-clang, fz-clang++: run the real compiler with
 * fz's instrumentation added.  This file only picks the compiler (by argv[0]
 * and FZ_CC / FZ_CXX), finds lib/fz next to the program, checks the files
 * the rewritten command line needs, and runs it; fz-cc/args.c decides what
 * the command line becomes.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fz-cc/args.h"
#include "fz-cc/fallback.h"
#include "fz-log.h"
#include "fz-version.h"

const char *fz_log_prog = "fz-cc";

/* The compiler to run and how to drive it. */
typedef struct {
    const char *var;  /* environment variable that chose it, or NULL */
    const char *name; /* as given (FZ_CC value or default) */
    char path[PATH_MAX];
    fz_cc_kind_t kind;
} compiler_t;

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcmp(s + n - m, suffix);
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static bool is_executable(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* Resolves name as execvp() would; false if nothing runnable is found. */
static bool find_program(const char *name, char *path, size_t size)
{
    if (strchr(name, '/')) {
        snprintf(path, size, "%s", name);
        return is_executable(path);
    }
    const char *dirs = getenv("PATH");
    if (!dirs || !*dirs)
        dirs = "/usr/local/bin:/usr/bin:/bin";
    for (const char *p = dirs;; p = strchr(p, ':') + 1) {
        size_t len = strcspn(p, ":");
        snprintf(path, size, "%.*s/%s", (int)(len ? len : 1), len ? p : ".", name);
        if (is_executable(path))
            return true;
        if (!p[len])
            return false;
    }
}

/* Picks the compiler: FZ_CXX / FZ_CC when set, else g++/gcc, or clang++ /
 * clang under the fz-clang names.  Any compiler whose name (or the file it
 * resolves to) contains "clang" is driven as clang. */
static void pick_compiler(const char *argv0, compiler_t *cc)
{
    const char *me = base_name(argv0);
    bool cxx = ends_with(me, "++");
    bool clang = strstr(me, "clang") != NULL;
    cc->var = cxx ? "FZ_CXX" : "FZ_CC";
    cc->name = getenv(cc->var);
    if (!cc->name || !*cc->name) {
        cc->name = clang ? (cxx ? "clang++" : "clang") : (cxx ? "g++" : "gcc");
        cc->var = NULL;
    }
    if (!find_program(cc->name, cc->path, sizeof(cc->path))) {
        if (cc->var && strchr(cc->name, '/'))
            fz_die("%s=%s: compiler not found (looked at %s); set %s to an installed compiler "
                   "or unset it",
                   cc->var, cc->name, cc->name, cc->var);
        if (cc->var)
            fz_die("%s=%s: compiler not found (looked for '%s' in PATH); set %s to an installed "
                   "compiler or unset it",
                   cc->var, cc->name, cc->name, cc->var);
        fz_die("%s not found in PATH; install it (apt-get install %s) or name another "
               "compiler with %s",
               cc->name, clang ? "clang" : (cxx ? "g++" : "gcc"), cxx ? "FZ_CXX" : "FZ_CC");
    }
    char real[PATH_MAX], self[PATH_MAX];
    /* FZ_CC=fz-cc (easy to get from a build script that sets both CC and
     * FZ_CC) would exec itself forever. */
    if (realpath(cc->path, real) && realpath("/proc/self/exe", self) && !strcmp(real, self))
        fz_die("%s=%s names fz-cc itself (%s), which would run itself forever; set %s to the "
               "real compiler (e.g. %s)",
               cc->var ? cc->var : "the compiler", cc->name, real, cc->var ? cc->var : "FZ_CC",
               cxx ? "g++ or clang++" : "gcc or clang");
    bool clang_kind = strstr(base_name(cc->name), "clang") != NULL;
    if (realpath(cc->path, real) && strstr(base_name(real), "clang"))
        clang_kind = true;
    cc->kind = clang_kind ? FZ_CC_KIND_CLANG : FZ_CC_KIND_GCC;
}

/* lib/fz next to bin/: found from /proc/self/exe, so it works wherever the
 * tree is built or installed, whatever name or symlink ran us. */
static void find_lib_dir(char *dir, size_t size)
{
    char exe[PATH_MAX];
    if (!realpath("/proc/self/exe", exe))
        fz_die("cannot resolve /proc/self/exe (%s); is /proc mounted?", strerror(errno));
    char *slash = strrchr(exe, '/');
    *slash = '\0';
    if ((size_t)snprintf(dir, size, "%s/../lib/fz", exe) >= size)
        fz_die("path of %s is too long", exe);
    char real[PATH_MAX];
    if (realpath(dir, real))
        snprintf(dir, size, "%s", real);
}

/* Reads the first line of a file (without its newline); false if there is
 * none. */
static bool read_line_file(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    bool ok = fgets(buf, (int)size, f) != NULL;
    fclose(f);
    buf[strcspn(buf, "\n")] = '\0';
    return ok && buf[0];
}

/* Runs "path arg" and keeps the first line it prints (the compiler's
 * -dumpversion); false if it printed nothing. */
static bool first_output_line(const char *path, const char *arg, char *buf, size_t size)
{
    int fds[2];
    if (pipe(fds) < 0)
        return false;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        close(fds[1]);
        /* Only the version line matters; the real run reports errors. */
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0)
            dup2(null, 2);
        execl(path, path, arg, (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    ssize_t n = pid > 0 ? read(fds[0], buf, size - 1) : -1;
    close(fds[0]);
    if (pid > 0)
        waitpid(pid, NULL, 0);
    buf[n > 0 ? n : 0] = '\0';
    buf[strcspn(buf, "\n")] = '\0';
    return buf[0] != '\0';
}

/* An error line that does not exit: the compiler's status is ours. */
__attribute__((format(printf, 1, 2))) static void report_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fz_vlog("error", fmt, ap);
    va_end(ap);
}

/* After a failed clang compile: if the pass was built for another LLVM,
 * that is the likely cause, so say so and how to fix it. */
static void explain_clang_failure(const compiler_t *cc, const char *lib_dir)
{
    char vfile[PATH_MAX + 32], built[64], running[64];
    snprintf(vfile, sizeof(vfile), "%s/fz-llvm-pass.version", lib_dir);
    if (!read_line_file(vfile, built, sizeof(built)) ||
        !first_output_line(cc->path, "-dumpversion", running, sizeof(running)))
        return;
    int b = atoi(built), r = atoi(running); /* majors: "14.0.6" -> 14 */
    if (b != r)
        report_error("%s/fz-llvm-pass.so was built for LLVM %d but %s is LLVM %d; rebuild fz "
                     "with 'make clean && make' (with clang %d's llvm-dev installed), or set %s "
                     "to clang-%d",
                     lib_dir, b, cc->name, r, r, cc->var ? cc->var : "FZ_CC", b);
}

/* The other driver of the same GCC, for the rebuild hint: gcc-13 <->
 * g++-13, x86_64-linux-gnu-gcc <-> x86_64-linux-gnu-g++, cc <-> c++ (only
 * the file name changes).  False when the name follows none of these. */
static bool partner_driver(const char *name, bool is_cxx, char *out, size_t size)
{
    const char *base = base_name(name);
    const char *from = is_cxx ? "g++" : "gcc", *to = is_cxx ? "gcc" : "g++";
    const char *at = strstr(base, from);
    if (!at && !strcmp(base, is_cxx ? "c++" : "cc")) {
        at = base;
        from = is_cxx ? "c++" : "cc";
        to = is_cxx ? "cc" : "c++";
    }
    if (!at)
        return false;
    snprintf(out, size, "%.*s%s%s", (int)(at - name), name, to, at + strlen(from));
    return true;
}

/* Before a GCC compile: a plugin built for another GCC fails in ways that
 * do not say why ("cannot load plugin ... undefined symbol" across majors),
 * so compare the version it was built for (plugin/gcc.mk wrote it) with the
 * compiler's and stop with the fix.  Equal versions pass: a GCC that
 * differs only in how it was configured is left to plugin_init's own check,
 * which can see that.  Costs one "gcc -dumpfullversion" per compile step. */
static void check_gcc_version(const compiler_t *cc, const char *lib_dir)
{
    char vfile[PATH_MAX + 32], built[64], running[64];
    snprintf(vfile, sizeof(vfile), "%s/fz-gcc-plugin.version", lib_dir);
    if (!read_line_file(vfile, built, sizeof(built)) ||
        !first_output_line(cc->path, "-dumpfullversion", running, sizeof(running)) ||
        !strcmp(built, running))
        return;
    bool is_cxx = cc->var ? !strcmp(cc->var, "FZ_CXX") : ends_with(cc->name, "++");
    char other[PATH_MAX], hint[2 * PATH_MAX + 64];
    if (partner_driver(cc->name, is_cxx, other, sizeof(other)))
        snprintf(hint, sizeof(hint), "make clean && make CC=%s CXX=%s", is_cxx ? other : cc->name,
                 is_cxx ? cc->name : other);
    else
        snprintf(hint, sizeof(hint), "make clean && make CC=<%s's gcc> CXX=<its g++>", cc->name);
    fz_die("%s/fz-gcc-plugin.so was built for GCC %s but %s is GCC %s; rebuild fz for it with "
           "'%s'",
           lib_dir, built, cc->name, running, hint);
}

/* Runs the compiler and returns its status as our exit status; a compiler
 * killed by a signal kills us the same way, so make reports it alike. */
static int run_and_wait(const compiler_t *cc, char **argv)
{
    pid_t pid = fork();
    if (pid < 0)
        fz_die("cannot fork to run %s: %s", cc->path, strerror(errno));
    if (pid == 0) {
        execv(cc->path, argv);
        fz_die("cannot run %s: %s", cc->path, strerror(errno));
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            fz_die("waiting for %s: %s", cc->path, strerror(errno));
    if (WIFSIGNALED(status)) {
        signal(WTERMSIG(status), SIG_DFL);
        raise(WTERMSIG(status));
        return 128 + WTERMSIG(status);
    }
    return WEXITSTATUS(status);
}

/* Set in the compiler's environment: a wrapper that FZ_CC names and that
 * calls fz-cc again (a script, a ccache configured with fz-cc) shows up as
 * fz-cc started under its own compiler, a loop that would never end. */
#define FZ_CC_GUARD "__FZ_CC_ACTIVE"

int main(int argc, char **argv)
{
    fz_log_prog = base_name(argv[0]);
    const char *outer = getenv(FZ_CC_GUARD);
    if (outer && *outer)
        fz_die("fz-cc was started by the compiler fz-cc itself runs (%s): %s names a program "
               "that calls fz-cc again, a loop; set it to the real compiler (gcc, clang)",
               outer, getenv("FZ_CXX") && ends_with(argv[0], "++") ? "FZ_CXX" : "FZ_CC");
    compiler_t cc;
    pick_compiler(argv[0], &cc);
    setenv(FZ_CC_GUARD, cc.path, 1);

    char lib_dir[PATH_MAX];
    find_lib_dir(lib_dir, sizeof(lib_dir));
    /* argv[0] stays the name the user gave: the compiler prints it in
     * messages and -v output, which must match a plain run. */
    fz_args_cfg_t cfg = {.kind = cc.kind, .compiler = cc.name, .lib_dir = lib_dir};
    fz_args_t args;
    fz_args_rewrite(&cfg, argc, argv, &args);

    for (int i = 0; args.needs[i]; i++) {
        /* Clang support is optional (plugin/llvm.mk builds it only where
         * llvm-dev is installed), so its absence is not a broken install. */
        if (access(args.needs[i], R_OK) != 0 && ends_with(args.needs[i], "/fz-llvm-pass.so"))
            fz_die("clang support is not built: %s is missing; install clang and llvm-dev "
                   "(apt-get install clang llvm-dev) and run 'make' in the fz tree again, or "
                   "build with gcc (fz-cc, FZ_CC=gcc)",
                   args.needs[i]);
        if (access(args.needs[i], R_OK) != 0)
            fz_die("%s is missing (%s): fz is not fully built or installed; run 'make' in the "
                   "fz tree (or 'make install' again)",
                   args.needs[i], strerror(errno));
    }

    /* configure compares probe output with plain runs: keep the plugins'
     * report line out of it. */
    if (args.probe)
        setenv("FZ_QUIET", "1", 1);

    /* A link step loads the plugin only when it generates code (-flto). */
    if (cc.kind == FZ_CC_KIND_GCC && (args.compiles || (args.plugin_at_link && args.lto)))
        check_gcc_version(&cc, lib_dir);

    /* --version: the compiler's answer unchanged (build systems read it),
     * then one line that says fz is in between. */
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--version") == 0) {
            fflush(stdout);
            int rc = run_and_wait(&cc, args.argv);
            if (rc == 0)
                printf("%s (fz) %s: %s with fz's instrumentation (lib/fz: %s)\n", fz_log_prog,
                       FZ_VERSION, cc.name, lib_dir);
            return rc;
        }

    /* A step that loads the plugin is watched, so that a compiler crash
     * there does not break the build (fallback.c); a clang compile's
     * failure may also be explained. */
    if (args.plugin_at > 0) {
        fz_fallback_cfg_t fb = {.path = cc.path,
                                .name = cc.name,
                                .argv = args.argv,
                                .plugin_at = args.plugin_at,
                                .source = args.source,
                                .n_sources = args.n_sources,
                                .quiet = args.probe,
                                .out_stdout = args.out_stdout};
        int rc = fz_fallback_run(&fb);
        if (rc != 0 && cc.kind == FZ_CC_KIND_CLANG && args.compiles)
            explain_clang_failure(&cc, lib_dir);
        return rc;
    }
    execv(cc.path, args.argv);
    fz_die("cannot run %s: %s", cc.path, strerror(errno));
}
