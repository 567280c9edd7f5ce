/*
 * fsrv-spawn.c - starting the target's process (core/fsrv-priv.h): the
 * program lookup, its argv with the input path, the environment that
 * tells the runtime where the shared memory is, and fork + exec with the
 * protocol descriptors.
 */
#define _GNU_SOURCE
#include "core/fsrv-priv.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fz-cmplog.h"
#include "fz-protocol.h"

/* The sanitizer defaults give a report that ends in SIGABRT, which the
 * fuzzer counts as a crash, instead of an exit code it would not.  Leak
 * detection stays off: it runs at exit and costs every run.  Only used when
 * the user has not set the variable. */
static const char *const sanitizer_defaults[][2] = {
    {"ASAN_OPTIONS", "abort_on_error=1:symbolize=0:detect_leaks=0:malloc_context_size=0:"
                     "allocator_may_return_null=1:"
                     "detect_odr_violation=0:handle_abort=0:handle_sigbus=0:handle_segv=0:"
                     "handle_sigfpe=0:handle_sigill=0"},
    {"UBSAN_OPTIONS", "halt_on_error=1:abort_on_error=1:symbolize=0:print_stacktrace=0"},
    {"MSAN_OPTIONS", "exit_code=86:abort_on_error=1:symbolize=0:msan_track_origins=0"},
    {"LSAN_OPTIONS", "exitcode=23:fast_unwind_on_malloc=0:symbolize=0"},
};

int fz_fsrv_file_has(const char *path, const char *sig)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return 0;
    struct stat st;
    int found = 0;
    if (fstat(fd, &st) == 0 && st.st_size > 0) {
        void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p != MAP_FAILED) {
            found = memmem(p, (size_t)st.st_size, sig, strlen(sig)) != NULL;
            munmap(p, (size_t)st.st_size);
        }
    }
    close(fd);
    return found;
}

char *fz_fsrv_find_program(const char *name)
{
    if (strchr(name, '/'))
        return access(name, F_OK) == 0 ? strdup(name) : NULL;
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/bin:/bin";
    while (*path) {
        size_t n = strcspn(path, ":");
        char *cand = NULL;
        if (asprintf(&cand, "%.*s/%s", (int)n, n ? path : ".", name) < 0)
            return NULL;
        if (access(cand, X_OK) == 0)
            return cand;
        free(cand);
        path += n + (path[n] == ':');
    }
    return NULL;
}

char *fz_fsrv_check_program(const char *name, char *err, size_t errlen)
{
    char *path = fz_fsrv_find_program(name);
    struct stat st;
    if (!path || stat(path, &st) != 0) {
        if (strchr(name, '/'))
            snprintf(err, errlen, "target '%s' not found; check the path after --", name);
        else
            snprintf(err, errlen, "target '%s' not found in PATH; give its path (e.g. ./%s)", name,
                     name);
        free(path);
        return NULL;
    }
    if (!S_ISREG(st.st_mode) || access(path, X_OK) != 0) {
        snprintf(err, errlen,
                 "target '%s' is not an executable file; chmod +x it or check the path", path);
        free(path);
        return NULL;
    }
    return path;
}

int fz_fsrv_build_argv(fz_fsrv_t *fs, const char *prog)
{
    size_t n = 0;
    while (fs->cfg.argv[n])
        n++;
    fs->child_argv = calloc(n + 1, sizeof(char *));
    if (!fs->child_argv)
        return -1;
    fs->delivery = FZ_DELIVER_STDIN;
    fs->input_named = fs->cfg.input_path != NULL;
    for (size_t i = 0; i < n; i++) {
        const char *a = i == 0 ? prog : fs->cfg.argv[i];
        char *at = strstr(a, "@@");
        if (i > 0 && at) {
            fs->delivery = FZ_DELIVER_FILE;
            fs->input_named = 1;
            if (asprintf(&fs->child_argv[i], "%.*s%s%s", (int)(at - a), a, fs->input_path, at + 2) <
                0)
                return -1;
        } else if (!(fs->child_argv[i] = strdup(a))) {
            return -1;
        }
    }
    return 0;
}

/* Sets an environment variable to a number (for the child: it runs
 * between fork and exec, where nothing else is going on). */
static void setenv_num(const char *name, long long v)
{
    char num[32];
    snprintf(num, sizeof num, "%lld", v);
    setenv(name, num, 1);
}

static void set_child_env(const fz_fsrv_t *fs)
{
    if (fs->handshake_version >= 0) {
        setenv_num(FZ_ENV_SHM_ID, fs->shm.map_id);
        setenv_num(FZ_ENV_MAP_SIZE, fs->shm.map_alloc);
        setenv(FZ_ENV_FSRV_VERSION, "1", 1);
        if (fs->cfg.no_direct)
            unsetenv(FZ_ENV_FSRV_DIRECT);
        else
            setenv(FZ_ENV_FSRV_DIRECT, "1", 1);
        if (fs->shm.fuzz)
            setenv_num(FZ_ENV_SHM_FUZZ_ID, fs->shm.fuzz_id);
        if (fs->shm.diag)
            setenv_num(FZ_ENV_DIAG_SHM_ID, fs->shm.diag_id);
        if (fs->cfg.cmplog)
            setenv_num(FZ_ENV_CMPLOG_SHM_ID, fs->cfg.cmplog_shm_id);
        else
            unsetenv(FZ_ENV_CMPLOG_SHM_ID);
        if (fs->shm.ctl)
            setenv_num(FZ_ENV_CTL_SHM_ID, fs->shm.ctl_id);
        if (fs->shm.batch) {
            setenv_num(FZ_ENV_BATCH_SHM_ID, fs->shm.batch_id);
            setenv_num(FZ_ENV_VIRGIN_SHM_ID, fs->shm.virgin_id);
        } else {
            unsetenv(FZ_ENV_BATCH_SHM_ID);
            unsetenv(FZ_ENV_VIRGIN_SHM_ID);
        }
        if (fs->persistent)
            setenv(FZ_ENV_PERSISTENT, "1", 1);
        if (fs->deferred)
            setenv(FZ_ENV_DEFER, "1", 1);
    }
    /* Resolving symbols at start-up means the forkserver's children do not
     * each repeat the lazy binding work. */
    setenv("LD_BIND_NOW", "1", 0);
    for (size_t i = 0; i < sizeof sanitizer_defaults / sizeof sanitizer_defaults[0]; i++)
        setenv(sanitizer_defaults[i][0], sanitizer_defaults[i][1], 0);
}

/* Runs in the child between fork and exec: descriptors, limits, exec.
 * ctl/st are the child's ends of the protocol pipes (-1 in blind mode);
 * errfd is a close-on-exec pipe that carries errno if exec fails. */
static void child_exec(const fz_fsrv_t *fs, int ctl, int st, int errfd)
{
    setsid();
    if (fs->cfg.mem_limit_mb) {
        struct rlimit rl;
        rl.rlim_cur = rl.rlim_max = (rlim_t)fs->cfg.mem_limit_mb << 20;
        setrlimit(RLIMIT_AS, &rl);
    }
    struct rlimit core = {0, 0};
    setrlimit(RLIMIT_CORE, &core); /* a core dump per crash would be slow */
    dup2(fs->input_fd, 0);
    if (!fs->cfg.debug_child) {
        dup2(fs->dev_null_fd, 1);
        dup2(fs->dev_null_fd, 2);
    }
    if (ctl >= 0) {
        if (dup2(ctl, FZ_FORKSRV_FD) < 0 || dup2(st, FZ_FORKSRV_FD + 1) < 0)
            _exit(127);
        close(ctl);
        close(st);
    }
    set_child_env(fs);
    signal(SIGPIPE, SIG_DFL);
    execv(fs->child_argv[0], fs->child_argv);
    int e = errno;
    if (write(errfd, &e, sizeof e) < 0)
        _exit(127);
    _exit(127);
}

pid_t fz_fsrv_spawn(fz_fsrv_t *fs, char *err, size_t errlen)
{
    int ctl[2] = {-1, -1}, st[2] = {-1, -1}, ep[2];
    int server = fs->handshake_version >= 0;
    if ((server && (pipe(ctl) || pipe(st))) || pipe2(ep, O_CLOEXEC)) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        return -1;
    }
    /* A new target has not claimed the diagnostics page yet, so its own
     * start-up is not mistaken for an exec.  Flags stay: they accumulate. */
    if (fs->shm.diag)
        fs->shm.diag->fsrv_pid = 0;
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "fork: %s (too many processes?)", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        close(ep[0]);
        if (server) {
            close(ctl[1]);
            close(st[0]);
        }
        child_exec(fs, ctl[0], st[1], ep[1]);
    }
    close(ep[1]);
    if (server) {
        close(ctl[0]);
        close(st[1]);
        fs->ctl_fd = ctl[1];
        fs->st_fd = st[0];
        fcntl(fs->ctl_fd, F_SETFD, FD_CLOEXEC);
        fcntl(fs->st_fd, F_SETFD, FD_CLOEXEC);
    }
    int e = 0;
    ssize_t n = read(ep[0], &e, sizeof e);
    close(ep[0]);
    if (n == (ssize_t)sizeof e) {
        waitpid(pid, NULL, 0);
        snprintf(err, errlen, "cannot execute '%s': %s", fs->child_argv[0], strerror(e));
        return -1;
    }
    return pid;
}
