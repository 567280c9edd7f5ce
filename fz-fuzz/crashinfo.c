/*
 * crashinfo.c - one more run of a crash, to print its report (crashinfo.h).
 */
#define _GNU_SOURCE
#include "fz-fuzz/crashinfo.h"

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/fileio.h"
#include "core/fsrv.h"
#include "fz-config.h"
#include "fz-fuzz/outdir.h"
#include "fz-log.h"
#include "fz-sha1.h"
#include "fz-fuzz/names.h"
#include "fz-fuzz/stats.h"

#define REPORT_MAX (64u << 10) /* bytes of the target's stderr kept */

long fz_crashinfo_report_start(const char *report)
{
    static const char *const marks[] = {"Sanitizer:", "runtime error:", "ERROR: libFuzzer"};
    const char *best = NULL;
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++) {
        const char *p = strstr(report, marks[i]);
        if (p && (!best || p < best))
            best = p;
    }
    if (!best)
        return -1;
    while (best > report && best[-1] != '\n')
        best--;
    return best - report;
}

/* What the crashing run left: its stderr, its end, where it faulted. */
typedef struct run_info {
    char *err;
    size_t err_len;
    int status; /* waitpid's; -1 if it did not end in time */
    int sig;    /* the first fatal signal ptrace saw, 0 none */
    unsigned long long pc;
    char where[512]; /* "FUNCTION at FILE:LINE" or "MODULE+0xOFF", "" unknown */
    char caller[512]; /* the same for the program's frame below a library fault */
} run_info_t;

/* The child: input on stdin unless the command names it (@@ or -f),
 * output to the pipe, sanitizers set to report, traced by the parent. */
static void child(const fz_cfg_t *cfg, char **argv, const char *path, int errfd)
{
    int in = open(cfg->input_file || !path ? "/dev/null" : path, O_RDONLY);
    int null = open("/dev/null", O_WRONLY);
    if (in >= 0)
        dup2(in, 0);
    if (null >= 0)
        dup2(null, 1);
    dup2(errfd, 2);
    setenv("ASAN_OPTIONS", "abort_on_error=1:detect_leaks=0:symbolize=1", 0);
    setenv("UBSAN_OPTIONS", "halt_on_error=1:abort_on_error=1:print_stacktrace=1", 0);
    setenv("MSAN_OPTIONS", "abort_on_error=1:symbolize=1", 0);
    setpgid(0, 0); /* its own group: whatever it forks goes when it is done */
    ptrace(PTRACE_TRACEME, 0, NULL, NULL); /* no frame if refused; the report still comes */
    execvp(argv[0], argv);
    _exit(127);
}

/* The target's argv with @@ replaced by path (malloc'ed). */
static char **make_argv(const fz_cfg_t *cfg, const char *path, int *named)
{
    char **v = calloc((size_t)cfg->target_argc + 1, sizeof *v);
    *named = cfg->input_file != NULL;
    for (int i = 0; v && i < cfg->target_argc; i++) {
        const char *a = cfg->target_argv[i], *at = strstr(a, "@@");
        if (!at) {
            v[i] = strdup(a);
            continue;
        }
        *named = 1;
        if (asprintf(&v[i], "%.*s%s%s", (int)(at - a), a, path, at + 2) < 0)
            v[i] = NULL;
    }
    return v;
}

/* Names the code at pc in pid: the module from /proc/PID/maps, then
 * FUNCTION at FILE:LINE from addr2line when it knows. */
static void locate(pid_t pid, unsigned long long pc, char *out, size_t n)
{
    char path[64], line[1024], mod[800] = "";
    unsigned long long base = 0;
    snprintf(path, sizeof path, "/proc/%d/maps", (int)pid);
    FILE *f = fopen(path, "r");
    while (f && fgets(line, sizeof line, f)) {
        unsigned long long lo, hi, off;
        char file[800] = "";
        if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %799s", &lo, &hi, &off, file) < 3)
            continue;
        if (!mod[0] && pc >= lo && pc < hi && file[0] == '/') {
            snprintf(mod, sizeof mod, "%s", file);
            base = lo - off;
        }
    }
    if (f)
        fclose(f);
    if (!mod[0]) {
        snprintf(out, n, "pc 0x%llx", pc);
        return;
    }
    /* A position-dependent executable is linked at its run-time address. */
    int fd = open(mod, O_RDONLY);
    Elf64_Ehdr eh;
    if (fd >= 0 && read(fd, &eh, sizeof eh) == (ssize_t)sizeof eh && eh.e_type == ET_EXEC)
        base = 0;
    if (fd >= 0)
        close(fd);
    const char *slash = strrchr(mod, '/');
    snprintf(out, n, "%s+0x%llx", slash ? slash + 1 : mod, pc - base);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "addr2line -f -C -s -e '%s' 0x%llx 2>/dev/null", mod, pc - base);
    if (strchr(mod, '\''))
        return;
    FILE *p = popen(cmd, "r");
    char fn[256] = "", loc[256] = "";
    if (p && fgets(fn, sizeof fn, p) && fgets(loc, sizeof loc, p)) {
        fn[strcspn(fn, "\n")] = 0;
        loc[strcspn(loc, "\n")] = 0;
        if (strcmp(fn, "??") != 0)
            snprintf(out, n, "%s at %s (%s+0x%llx)", fn, strncmp(loc, "??", 2) ? loc : "?",
                     slash ? slash + 1 : mod, pc - base);
    }
    if (p)
        pclose(p);
}

/* The executable ranges of pid's own program (not its libraries), at most
 * max; returns how many. */
static int exe_text(pid_t pid, unsigned long long (*r)[2], int max)
{
    char path[64], exe[800], line[1024];
    snprintf(path, sizeof path, "/proc/%d/exe", (int)pid);
    ssize_t k = readlink(path, exe, sizeof exe - 1);
    if (k <= 0)
        return 0;
    exe[k] = 0;
    snprintf(path, sizeof path, "/proc/%d/maps", (int)pid);
    FILE *f = fopen(path, "r");
    int n = 0;
    while (f && n < max && fgets(line, sizeof line, f)) {
        unsigned long long lo, hi;
        char perm[8], file[800] = "";
        if (sscanf(line, "%llx-%llx %7s %*s %*s %*s %799s", &lo, &hi, perm, file) >= 3 &&
            perm[2] == 'x' && strcmp(file, exe) == 0) {
            r[n][0] = lo;
            r[n++][1] = hi;
        }
    }
    if (f)
        fclose(f);
    return n;
}

/* When the fault is inside a library (abort() in libc, strlen on a bad
 * pointer), the program's own frame is what a reader wants: the first
 * return address into the program's code found on the stack (a heuristic
 * that needs no frame pointers; it can name a stale frame). */
static void caller_in_program(pid_t pid, unsigned long long pc, unsigned long long sp,
                              char *out, size_t n)
{
    unsigned long long text[8][2];
    int nt = exe_text(pid, text, 8);
    for (int i = 0; i < nt; i++)
        if (pc >= text[i][0] && pc < text[i][1])
            return; /* the fault is in the program itself */
    for (int k = 0; k < 2048 && nt; k++) {
        errno = 0;
        unsigned long long w =
            (unsigned long long)ptrace(PTRACE_PEEKDATA, pid, (void *)(sp + 8ull * k), NULL);
        if (errno)
            return;
        for (int i = 0; i < nt; i++)
            if (w > text[i][0] && w < text[i][1]) {
                char where[512];
                locate(pid, w - 1, where, sizeof where);
                snprintf(out, n, "%s", where);
                return;
            }
    }
}

/* One ptrace stop: record the first fatal signal's pc, pass the signal on. */
static void on_stop(pid_t pid, int status, run_info_t *ri)
{
    int sig = WSTOPSIG(status);
    if (sig == SIGTRAP) { /* the exec stop */
        ptrace(PTRACE_CONT, pid, NULL, NULL);
        return;
    }
    if (!ri->sig && (sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE ||
                     sig == SIGABRT || sig == SIGTRAP)) {
        struct user_regs_struct regs;
        ri->sig = sig;
#if defined(__x86_64__)
        if (ptrace(PTRACE_GETREGS, pid, NULL, &regs) == 0) {
            ri->pc = regs.rip;
            locate(pid, ri->pc, ri->where, sizeof ri->where);
            caller_in_program(pid, regs.rip, regs.rsp, ri->caller, sizeof ri->caller);
        }
#endif
    }
    ptrace(PTRACE_CONT, pid, NULL, (void *)(long)sig);
}

/* -f FILE: the target reads that file, so the crash goes there. */
static int place_input(const fz_cfg_t *cfg, const char *path)
{
    if (!cfg->input_file)
        return 0;
    size_t len;
    uint8_t *data = fz_file_read(path, FZ_MAX_INPUT, FZ_FILE_REGULAR, &len);
    int bad = !data || fz_file_write_atomic(cfg->input_file, data, len, 0600) != 0;
    free(data);
    return bad ? -1 : 0;
}

/* Follows the traced child to its end (or the deadline), keeping its
 * stderr from fd in ri->err. */
static void collect(pid_t pid, int fd, run_info_t *ri)
{
    uint64_t deadline = fz_now_ms() + FZ_CRASHINFO_TIMEOUT_MS;
    int open_pipe = 1;
    for (;;) {
        int status;
        pid_t r = waitpid(pid, &status, WNOHANG | __WALL);
        if (r == pid && WIFSTOPPED(status)) {
            on_stop(pid, status, ri);
            continue;
        }
        if (r == pid) {
            ri->status = status;
            return;
        }
        if (fz_now_ms() > deadline) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, __WALL);
            return;
        }
        struct pollfd p = {fd, POLLIN, 0};
        if (open_pipe && poll(&p, 1, 5) > 0) {
            char tmp[4096];
            ssize_t k = read(fd, tmp, sizeof tmp);
            size_t room = REPORT_MAX - ri->err_len, take = k > 0 ? (size_t)k : 0;
            open_pipe = k > 0;
            take = take < room ? take : room;
            memcpy(ri->err + ri->err_len, tmp, take);
            ri->err_len += take;
        } else if (!open_pipe) {
            usleep(2000);
        }
    }
}

/* Runs the target on the file and fills ri. */
static void run_crash(const fz_cfg_t *cfg, const char *path, run_info_t *ri)
{
    memset(ri, 0, sizeof *ri);
    ri->status = -1;
    int named, pfd[2];
    if (place_input(cfg, path) != 0 || !(ri->err = malloc(REPORT_MAX + 1)))
        return;
    char **argv = make_argv(cfg, path, &named);
    if (argv && pipe2(pfd, O_CLOEXEC) == 0) {
        fflush(NULL);
        pid_t pid = fork();
        if (pid == 0)
            child(cfg, argv, named ? NULL : path, pfd[1]);
        close(pfd[1]);
        if (pid > 0) {
            collect(pid, pfd[0], ri);
            kill(-pid, SIGKILL); /* processes the crashing run left behind */
        }
        close(pfd[0]);
    }
    ri->err[ri->err_len] = 0;
    for (int i = 0; argv && i < cfg->target_argc; i++)
        free(argv[i]);
    free(argv);
}

void fz_crashinfo_print(const fz_cfg_t *cfg, const char *path)
{
    run_info_t ri;
    run_crash(cfg, path, &ri);
    long at = ri.err ? fz_crashinfo_report_start(ri.err) : -1;
    if (at >= 0) {
        const char *p = ri.err + at;
        for (int i = 0; i < FZ_CRASHINFO_LINES && *p; i++) {
            const char *e = strchr(p, '\n');
            int len = e ? (int)(e - p) : (int)strlen(p);
            if (len || i)
                printf("    %.*s\n", len, p);
            p = e ? e + 1 : p + len;
        }
    }
    int sig = ri.status >= 0 && WIFSIGNALED(ri.status) ? WTERMSIG(ri.status) : ri.sig;
    if (sig && (at < 0 || ri.sig != SIGABRT))
        printf("    signal %d (%s)%s%s%s%s\n", sig, strsignal(sig), ri.where[0] ? " at " : "",
               ri.where, ri.caller[0] ? ", called from " : "", ri.caller);
    else if (at < 0 && ri.status == -1)
        printf("    (no report: it ran past %d ms outside the fuzzer)\n", FZ_CRASHINFO_TIMEOUT_MS);
    else if (at < 0)
        printf("    (no report: it exited %d outside the fuzzer; a flaky crash?)\n",
               WIFEXITED(ri.status) ? WEXITSTATUS(ri.status) : -1);
    fflush(stdout);
    free(ri.err);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void fz_crashinfo_dir(const fz_cfg_t *cfg, const char *dir, uint32_t from_id, uint32_t max,
                      int (*skip)(void *ctx, const char *name), void *ctx)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    char **names = NULL;
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        long id = strncmp(e->d_name, "id:", 3) ? -1 : fz_name_id(e->d_name);
        if (id < (long)from_id || (skip && skip(ctx, e->d_name)))
            continue;
        char **t = realloc(names, (n + 1) * sizeof *names);
        if (!t)
            break;
        names = t;
        if ((names[n] = strdup(e->d_name)))
            n++;
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, cmp_str); /* names is NULL when n is 0 */
    for (size_t i = 0; i < n; i++) {
        if (i < max && names[i]) {
            char path[8192];
            snprintf(path, sizeof path, "%s/%s", dir, names[i]);
            printf("crash: %s\n", path);
            fz_crashinfo_print(cfg, path);
        }
        free(names[i]);
    }
    if (n > max)
        printf("(%zu more crash(es) in %s)\n", n - max, dir);
    free(names);
}

int fz_crashinfo_artifact_check(const fz_cfg_t *cfg, char *err, size_t n)
{
    if (!cfg->artifact_prefix)
        return 0;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", cfg->artifact_prefix);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else
        slash[slash == dir] = 0; /* "/x" keeps "/" */
    struct stat sb;
    if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode) || access(dir, W_OK | X_OK) != 0) {
        snprintf(err, n,
                 "--artifact-prefix %s: '%s' is not a writable directory (%s); create "
                 "it first, since every crash is to be copied there",
                 cfg->artifact_prefix, dir,
                 stat(dir, &sb) != 0    ? strerror(errno)
                 : !S_ISDIR(sb.st_mode) ? "not a directory"
                                        : "not writable");
        return -1;
    }
    return 0;
}

void fz_crashinfo_artifact(const fz_cfg_t *cfg, const char *kind, const uint8_t *buf,
                           uint32_t len)
{
    if (!cfg->artifact_prefix)
        return;
    char hex[41], full[4096];
    fz_sha1_hex(buf, len, hex);
    snprintf(full, sizeof full, "%s%s-%s", cfg->artifact_prefix, kind, hex);
    char *slash = strrchr(full, '/');
    const char *dir = ".", *name = full;
    if (slash) {
        *slash = 0;
        dir = slash == full ? "/" : full;
        name = slash + 1;
    }
    int r = fz_write_atomic(dir, name, buf, len);
    if (r != 0)
        fz_warn("--artifact-prefix: cannot write '%s/%s': %s; check that the directory exists "
                "and is writable",
                dir, name, strerror(-r));
}
