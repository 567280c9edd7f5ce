/*
 * fsrv.c - the forkserver client (see fsrv.h): spawning the target with the
 * protocol descriptors and environment, the handshake (version 1 and
 * legacy), per-run delivery and timeouts, blind mode, and the diagnosis of
 * every way a target can fail to start.
 */
#define _GNU_SOURCE
#include "core/fsrv.h"

#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/futex.h>
#include <limits.h>
#include <time.h>
#include <unistd.h>

#include "fz-config.h"
#include "fz-cmplog.h"
#include "core/opts.h"
#include "fz-protocol.h"

/* Map size assumed for a target that does not report one: AFL's classic
 * MAP_SIZE, which is what such a target writes into. */
#define LEGACY_MAP_SIZE (1u << 16)

/* The handshake may take this many times the run timeout (AFL++ uses 10x
 * too), but never less than HANDSHAKE_MIN_MS: sanitizer start-up is slow. */
#define HANDSHAKE_MULT 10
#define HANDSHAKE_MIN_MS 10000

/* How long to wait for a killed child's status before giving up. */
#define KILL_WAIT_MS 5000

/* Direct mode on two CPUs: polls of the other side's word before a side
 * sleeps on it.  A poll with the pause instruction takes 30-150 cycles, so
 * this is some tens of microseconds: longer than a fast harness's run or
 * the fuzzer's work between two runs, short enough that a slow target
 * costs little spinning.  A futex wake-up across CPUs costs an
 * inter-processor interrupt, 50-60 us on the development VM. */
#define SPIN_POLLS 4096

/* Direct mode on two CPUs is checked every SPLIT_WINDOW runs: when more
 * than one run in SPLIT_GIVE_UP needed a sleep, spinning does not pay and
 * the target goes back to the fuzzer's CPU. */
#define SPLIT_WINDOW 4096
#define SPLIT_GIVE_UP 8

/* By default the target gets a CPU of its own only when this many CPUs
 * (ours included) are free: taking two of two would leave a campaign
 * started later none (afl-fuzz then refuses to start).  FZ_SPIN=1 takes a
 * second free CPU whenever there is one. */
#define SPLIT_FREE_MIN 3

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

static uint64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

void fz_fsrv_cfg_init(fz_fsrv_cfg_t *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->timeout_ms = 1000;
    cfg->no_direct = fz_env_flag("FZ_NO_DIRECT", NULL);
    cfg->no_affinity = fz_env_flag("FZ_NO_AFFINITY", "AFL_NO_AFFINITY");
    const char *spin = getenv("FZ_SPIN");
    cfg->spin = spin && *spin ? fz_env_bool("FZ_SPIN", NULL, -1) : -1;
    cfg->debug_child = fz_env_flag("FZ_DEBUG_CHILD", "AFL_DEBUG_CHILD");
}

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

/* Checks the program before any fork, so the common mistakes get a precise
 * message instead of a failed handshake. */
static char *check_program(const char *name, char *err, size_t errlen)
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

/* Builds the child's argv with every "@@" replaced by the input path and
 * argv[0] resolved; decides file vs stdin delivery. */
static int build_argv(fz_fsrv_t *fs, const char *prog)
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

/* What fz_fsrv_stop must undo even when the process exits without
 * calling it (fz_die anywhere): the target's session to kill and the input
 * file to remove.  Kept by value, since the fz_fsrv_t may live on a stack
 * that is gone by then; process-wide by nature, as atexit has no context. */
#define TRACK_MAX 8
static struct {
    pid_t sid;  /* the forkserver (session leader), 0 if none yet */
    char *path; /* an input file of ours to remove, or NULL */
} tracked[TRACK_MAX];

/* Kills every process of session sid: the forkserver's own group and the
 * per-run groups under it (fz-protocol.h), found in /proc.  A process that
 * made its own session (a daemon) is out of reach; nothing else is. */
static void kill_session(pid_t sid)
{
    if (sid <= 0)
        return;
    kill(-sid, SIGKILL);
    DIR *d = opendir("/proc");
    if (!d)
        return;
    char path[64], buf[512];
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        snprintf(path, sizeof path, "/proc/%.20s/stat", e->d_name);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            continue;
        ssize_t n = read(fd, buf, sizeof buf - 1);
        close(fd);
        buf[n > 0 ? n : 0] = 0;
        /* pid (comm) state ppid pgrp session: comm may hold anything, so
         * fields are counted from its closing parenthesis. */
        char *p = strrchr(buf, ')');
        int ppid, pgrp, session;
        if (p && sscanf(p + 1, " %*c %d %d %d", &ppid, &pgrp, &session) == 3 && session == sid)
            kill((pid_t)atoi(e->d_name), SIGKILL);
    }
    closedir(d);
}

static void stop_tracked(void)
{
    for (int i = 0; i < TRACK_MAX; i++) {
        kill_session(tracked[i].sid);
        if (tracked[i].path)
            unlink(tracked[i].path);
    }
}

static void track(fz_fsrv_t *fs)
{
    static int registered;
    if (!registered)
        registered = atexit(stop_tracked) == 0;
    fs->track_slot = -1;
    for (int i = 0; i < TRACK_MAX && fs->track_slot < 0; i++)
        if (!tracked[i].sid && !tracked[i].path)
            fs->track_slot = i;
}

static void untrack(fz_fsrv_t *fs)
{
    if (fs->track_slot < 0)
        return;
    free(tracked[fs->track_slot].path);
    tracked[fs->track_slot].path = NULL;
    tracked[fs->track_slot].sid = 0;
    fs->track_slot = -1;
}

/* Removes the private input files of fuzzers that are gone (killed with
 * SIGKILL, which no exit handler sees) from dir: ".fz-input.PID.*" of ours
 * whose PID no longer runs. */
static void remove_dead_inputs(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        int pid = 0, n = 0;
        if (sscanf(e->d_name, ".fz-input.%d.%n", &pid, &n) != 1 || !n || pid <= 0 ||
            kill(pid, 0) == 0 || errno != ESRCH)
            continue;
        struct stat st;
        if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
            st.st_uid == geteuid())
            unlinkat(dirfd(d), e->d_name, 0);
    }
    closedir(d);
}

/* The forkserver was reaped: what it left in its session (a run's child
 * that killed it, say) goes too, and its pid, free for reuse now, is no
 * longer ours to kill at exit. */
static void server_gone(fz_fsrv_t *fs)
{
    kill_session(fs->fsrv_pid);
    if (fs->track_slot >= 0)
        tracked[fs->track_slot].sid = 0;
    fs->fsrv_pid = -1;
}

/* The input file: -f FILE is created here and must not exist (writing
 * each input into whatever was there would destroy it: the target binary,
 * a seed), otherwise a private temp file.  Either is removed at stop. */
static int open_input(fz_fsrv_t *fs, char *err, size_t errlen)
{
    if (fs->cfg.input_path) {
        fs->input_path = strdup(fs->cfg.input_path);
        fs->input_fd = fs->input_path ? open(fs->input_path,
                                             O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, 0600)
                                      : -1;
        if (fs->input_fd < 0 && errno == EEXIST) {
            snprintf(err, errlen,
                     "-f '%s' already exists; fz writes every input to that file and would "
                     "destroy what is there: give a path that does not exist yet (it is created "
                     "and removed again), or remove the file if an earlier run left it",
                     fs->input_path);
            return -1;
        }
    } else {
        const char *tmp = getenv("TMPDIR");
        if (asprintf(&fs->input_path, "%s/.fz-input.%d.XXXXXX", tmp && *tmp ? tmp : "/tmp",
                     (int)getpid()) < 0)
            fs->input_path = NULL;
        fs->input_fd = fs->input_path ? mkstemp(fs->input_path) : -1;
        remove_dead_inputs(tmp && *tmp ? tmp : "/tmp");
    }
    fs->owns_input_path = fs->input_fd >= 0;
    if (fs->input_fd < 0) {
        snprintf(err, errlen, "cannot create the input file '%s': %s; use -f with a writable path",
                 fs->input_path ? fs->input_path : "(temp)", strerror(errno));
        return -1;
    }
    if (fs->track_slot >= 0)
        tracked[fs->track_slot].path = strdup(fs->input_path);
    fcntl(fs->input_fd, F_SETFD, FD_CLOEXEC);
    struct stat sb;
    if (fstat(fs->input_fd, &sb) == 0) {
        fs->input_dev = sb.st_dev;
        fs->input_ino = sb.st_ino;
    }
    return 0;
}

/* The target deleted, moved or replaced its input file (a program that
 * consumes its input: unlink(argv[1]) after reading it).  AFL++ writes a
 * new file for every run; here the path is checked before each run (one
 * stat) and the file made again only when it no longer names ours: what
 * is at the path now is removed, never followed (a link planted there
 * included), and a new file takes the old descriptor's number. */
static int renew_input(fz_fsrv_t *fs)
{
    struct stat sb;
    if (stat(fs->input_path, &sb) == 0 && sb.st_ino == fs->input_ino && sb.st_dev == fs->input_dev)
        return 0;
    for (int tries = 0;; tries++) {
        if (unlink(fs->input_path) != 0) {
            if (errno == EISDIR) {
                if (rmdir(fs->input_path))
                    return -1;
            } else if (errno != ENOENT) {
                return -1;
            }
        }
        int fd = open(fs->input_path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0 && errno == EEXIST && tries < 3)
            continue; /* the target made it again meanwhile */
        if (fd < 0)
            return -1;
        if (dup3(fd, fs->input_fd, O_CLOEXEC) < 0) {
            close(fd);
            return -1;
        }
        close(fd);
        if (fstat(fs->input_fd, &sb))
            return -1;
        fs->input_dev = sb.st_dev;
        fs->input_ino = sb.st_ino;
        return 0;
    }
}

static void set_child_env(const fz_fsrv_t *fs)
{
    char num[32];
    if (fs->handshake_version >= 0) {
        snprintf(num, sizeof num, "%d", fs->shm.map_id);
        setenv(FZ_ENV_SHM_ID, num, 1);
        snprintf(num, sizeof num, "%u", (unsigned)fs->shm.map_alloc);
        setenv(FZ_ENV_MAP_SIZE, num, 1);
        setenv(FZ_ENV_FSRV_VERSION, "1", 1);
        if (fs->cfg.no_direct)
            unsetenv(FZ_ENV_FSRV_DIRECT);
        else
            setenv(FZ_ENV_FSRV_DIRECT, "1", 1);
        if (fs->shm.fuzz) {
            snprintf(num, sizeof num, "%d", fs->shm.fuzz_id);
            setenv(FZ_ENV_SHM_FUZZ_ID, num, 1);
        }
        if (fs->shm.diag) {
            snprintf(num, sizeof num, "%d", fs->shm.diag_id);
            setenv(FZ_ENV_DIAG_SHM_ID, num, 1);
        }
        if (fs->cfg.cmplog) {
            snprintf(num, sizeof num, "%d", fs->cfg.cmplog_shm_id);
            setenv(FZ_ENV_CMPLOG_SHM_ID, num, 1);
        } else {
            unsetenv(FZ_ENV_CMPLOG_SHM_ID);
        }
        if (fs->shm.ctl) {
            snprintf(num, sizeof num, "%d", fs->shm.ctl_id);
            setenv(FZ_ENV_CTL_SHM_ID, num, 1);
        }
        if (fs->shm.batch) {
            snprintf(num, sizeof num, "%d", fs->shm.batch_id);
            setenv(FZ_ENV_BATCH_SHM_ID, num, 1);
            snprintf(num, sizeof num, "%d", fs->shm.virgin_id);
            setenv(FZ_ENV_VIRGIN_SHM_ID, num, 1);
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

/* A wait longer than this is cut into slices of it, and between two the
 * caller's interrupt test runs (fz_fsrv_t.interrupt): a long timeout never
 * keeps -V or Ctrl-C waiting.  Shorter waits, every ordinary run's, pay
 * nothing. */
#define INTERRUPT_SLICE_MS 200

/* Non-zero when the wait of the run in progress is to be cut short. */
static int interrupted(fz_fsrv_t *fs)
{
    if (!fs || !fs->interrupt || fs->last_cut || !fs->interrupt(fs->interrupt_ctx))
        return 0;
    fs->last_cut = 1;
    return 1;
}

/* Reads exactly 4 bytes within timeout_ms.  Returns 0, 1 on timeout (or
 * when fs's interrupt test cut it short), -1 on EOF or error. */
static int read_u32(fz_fsrv_t *fs, int fd, uint32_t *out, uint64_t timeout_ms)
{
    uint8_t *p = (uint8_t *)out;
    size_t got = 0;
    uint64_t deadline = now_us() + timeout_ms * 1000u;
    while (got < 4) {
        struct pollfd pfd = {fd, POLLIN, 0};
        int64_t left = (int64_t)(deadline - now_us()) / 1000;
        int cut = fs && fs->interrupt && !fs->last_cut && left > INTERRUPT_SLICE_MS;
        if (left > INT_MAX || cut)
            left = cut ? INTERRUPT_SLICE_MS : INT_MAX;
        int r = poll(&pfd, 1, left > 0 ? (int)left : 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0 && (now_us() < deadline)) {
            if (interrupted(fs))
                return 1;
            continue;
        }
        if (r == 0)
            return 1;
        if (r < 0)
            return -1;
        ssize_t n = read(fd, p + got, 4 - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        got += (size_t)n;
    }
    return 0;
}

static int write_u32(int fd, uint32_t v)
{
    return write(fd, &v, 4) == 4 ? 0 : -1;
}

/* Waits up to ms for pid to end; returns 1 with *status, 0 if still alive. */
static int wait_pid_for(pid_t pid, int *status, int ms)
{
    for (int waited = 0;; waited++) {
        pid_t r = waitpid(pid, status, WNOHANG);
        if (r == pid)
            return 1;
        if (r < 0 || waited >= ms)
            return 0;
        usleep(1000);
    }
}

/* Marks in taken every CPU that some other user process is bound to alone
 * (its Cpus_allowed_list is a single number): another fuzzer or target.
 * Kernel threads (no VmSize line) are bound per CPU and do not count. */
static void cpus_taken(cpu_set_t *taken)
{
    CPU_ZERO(taken);
    DIR *d = opendir("/proc");
    if (!d)
        return;
    struct dirent *e;
    char path[300], line[256];
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9' || atoi(e->d_name) == (int)getpid())
            continue;
        snprintf(path, sizeof path, "/proc/%s/status", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        int user = 0;
        while (fgets(line, sizeof line, f)) {
            char *end;
            if (strncmp(line, "VmSize:", 7) == 0)
                user = 1;
            if (strncmp(line, "Cpus_allowed_list:", 18) != 0)
                continue;
            long cpu = strtol(line + 18, &end, 10);
            if (user && end != line + 18 && (*end == '\n' || *end == 0) && cpu >= 0 &&
                cpu < CPU_SETSIZE)
                CPU_SET((int)cpu, taken);
            break;
        }
        fclose(f);
    }
    closedir(d);
}

int fz_fsrv_free_cpus(int *cpus, int max)
{
    cpu_set_t mine, taken;
    if (sched_getaffinity(0, sizeof mine, &mine))
        return 0;
    cpus_taken(&taken);
    int n = 0;
    for (int c = 0; c < CPU_SETSIZE && n < max; c++)
        if (CPU_ISSET(c, &mine) && !CPU_ISSET(c, &taken))
            cpus[n++] = c;
    return n;
}

/* Binds this process (and so the target) to one free CPU; see fsrv.h. */
static void bind_cpu(fz_fsrv_t *fs)
{
    cpu_set_t cur, taken, one;
    _Static_assert(sizeof fs->saved_cpus >= sizeof cur, "saved_cpus too small");
    if (fs->cfg.no_affinity || sched_getaffinity(0, sizeof cur, &cur) || CPU_COUNT(&cur) <= 1)
        return;
    cpus_taken(&taken);
    int pick = sched_getcpu();
    if (pick < 0 || !CPU_ISSET(pick, &cur) || CPU_ISSET(pick, &taken)) {
        pick = -1;
        for (int c = 0; c < CPU_SETSIZE && pick < 0; c++)
            if (CPU_ISSET(c, &cur) && !CPU_ISSET(c, &taken))
                pick = c;
    }
    if (pick < 0)
        return; /* every CPU has its fuzzer: sharing one would be worse */
    CPU_ZERO(&one);
    CPU_SET(pick, &one);
    if (sched_setaffinity(0, sizeof one, &one) == 0) {
        memcpy(fs->saved_cpus, &cur, sizeof cur);
        fs->bound_cpu = pick;
    }
}

/* Direct mode: gives the forkserver (and so every child it forks) a free
 * CPU other than ours and lets both sides spin; see fsrv.h. */
static void split_cpus(fz_fsrv_t *fs)
{
    cpu_set_t allowed, taken, one;
    /* With batches the two sides take turns (one fills a batch, the other
     * runs it) and a hand-over is rare: a second CPU would only idle and
     * move the inputs and the map between caches (1.2M against 1.4M runs/s
     * on bench/'s persistent harness).  Only FZ_SPIN=1 asks for it then. */
    if (fs->cfg.spin == 0 || fs->bound_cpu < 0 || (fs->batch && fs->cfg.spin < 0))
        return;
    memcpy(&allowed, fs->saved_cpus, sizeof allowed);
    cpus_taken(&taken);
    int pick = -1, free_cpus = 1; /* ours */
    for (int c = 0; c < CPU_SETSIZE; c++) {
        if (c == fs->bound_cpu || !CPU_ISSET(c, &allowed) || CPU_ISSET(c, &taken))
            continue;
        free_cpus++;
        if (pick < 0)
            pick = c;
    }
    if (pick < 0 || (fs->cfg.spin < 0 && free_cpus < (int)SPLIT_FREE_MIN))
        return;
    CPU_ZERO(&one);
    CPU_SET(pick, &one);
    if (sched_setaffinity(fs->fsrv_pid, sizeof one, &one) != 0)
        return;
    fs->target_cpu = pick;
    fs->spin = SPIN_POLLS;
    __atomic_store_n(&fs->shm.ctl->spin, SPIN_POLLS, __ATOMIC_SEQ_CST);
}

/* Spinning did not pay: the target joins our CPU and nobody spins.  The
 * live child is moved too; later children inherit the forkserver's CPU. */
static void join_cpus(fz_fsrv_t *fs)
{
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(fs->bound_cpu, &one);
    __atomic_store_n(&fs->shm.ctl->spin, 0, __ATOMIC_SEQ_CST);
    fs->spin = 0;
    fs->target_cpu = -1;
    sched_setaffinity(fs->fsrv_pid, sizeof one, &one);
    pid_t child = (pid_t)__atomic_load_n(&fs->shm.ctl->pid, __ATOMIC_SEQ_CST);
    if (child > 0)
        sched_setaffinity(child, sizeof one, &one);
}

/* Explains why the handshake did not happen. */
static void diagnose_no_handshake(fz_fsrv_t *fs, int why, char *err, size_t errlen)
{
    const char *prog = fs->child_argv[0];
    int status = 0;
    if (why < 0 && wait_pid_for(fs->fsrv_pid, &status, 1000)) {
        server_gone(fs);
        why = -2; /* exited: status holds how */
    }
    /* The runtime flags this before it exits: the program's own stderr
     * (where it also says so) usually goes to /dev/null. */
    if (fs->shm.diag && (fs->shm.diag->flags & FZ_DIAG_FDS_EARLY)) {
        snprintf(err, errlen,
                 "'%s' closed or replaced fds %d/%d (the forkserver's pipes) before the "
                 "forkserver started; leave them open in fuzzing builds (#ifdef __AFL_COMPILER), "
                 "or call __AFL_INIT() before the code that closes them",
                 prog, FZ_FORKSRV_FD, FZ_FORKSRV_FD + 1);
        return;
    }
    if (why > 0) {
        snprintf(err, errlen,
                 "no forkserver handshake from '%s' within %u ms: it is not instrumented (build "
                 "it with fz-cc or afl-cc, or run with -n for blind mode) or its start-up is "
                 "very slow (raise -t)",
                 prog,
                 HANDSHAKE_MULT * fs->cfg.timeout_ms > HANDSHAKE_MIN_MS
                     ? HANDSHAKE_MULT * fs->cfg.timeout_ms
                     : HANDSHAKE_MIN_MS);
        return;
    }
    if (why != -2) {
        snprintf(err, errlen,
                 "'%s' closed the forkserver descriptors %d/%d without a handshake; the program "
                 "must not close or reuse fds %d and %d (or run with -n)",
                 prog, FZ_FORKSRV_FD, FZ_FORKSRV_FD + 1, FZ_FORKSRV_FD, FZ_FORKSRV_FD + 1);
        return;
    }
    if (WIFSIGNALED(status)) {
        snprintf(err, errlen,
                 "'%s' crashed at start-up with signal %d (%s) before the forkserver handshake "
                 "(in a constructor or early initialisation?); run it by hand to see why",
                 prog, WTERMSIG(status), strsignal(WTERMSIG(status)));
    } else {
        snprintf(err, errlen,
                 "'%s' exited (code %d) without a forkserver handshake: it is not instrumented; "
                 "build it with fz-cc (or afl-cc), or use -n for blind mode without coverage",
                 prog, WEXITSTATUS(status));
    }
}

static void handshake_error_word(fz_fsrv_t *fs, uint32_t code, char *err, size_t errlen)
{
    const char *why = "an unknown set-up error";
    char map_why[256];
    if (code & FZ_FS_ERROR_MAP_SIZE) {
        /* We always offer the whole of FZ_MAP_SIZE_MAX (and so does the
         * AFL_MAP_SIZE we set), so the map is bigger than fz can give. */
        snprintf(map_why, sizeof map_why,
                 "its coverage map is bigger than the %u bytes fz offers; instrument fewer files "
                 "(FZ_DENYLIST) or rebuild fz with a larger FZ_MAP_SIZE_MAX",
                 (unsigned)fs->shm.map_alloc);
        why = map_why;
    } else if (code & FZ_FS_ERROR_MAP_ADDR)
        why = "it was built for a fixed map address it could not map";
    else if (code & FZ_FS_ERROR_SHM_OPEN)
        why = "it could not open the shared memory";
    else if (code & FZ_FS_ERROR_SHMAT)
        why = "it could not attach the shared memory (shmat failed)";
    else if (code & FZ_FS_ERROR_MMAP)
        why = "it could not mmap the shared memory";
    snprintf(err, errlen, "'%s' reported a forkserver set-up error %u: %s", fs->child_argv[0], code,
             why);
}

/* Accepts a map size the target reported, rounded up to FZ_MAP_SIZE_MIN. */
static int take_map_size(fz_fsrv_t *fs, uint32_t size, char *err, size_t errlen)
{
    if (size > FZ_MAP_SIZE_MAX) {
        snprintf(err, errlen,
                 "'%s' needs a %u-byte coverage map, more than fz's limit of %u; instrument fewer "
                 "files (FZ_DENYLIST) or rebuild fz with a larger FZ_MAP_SIZE_MAX",
                 fs->child_argv[0], size, FZ_MAP_SIZE_MAX);
        return -1;
    }
    if (size < FZ_MAP_SIZE_MIN)
        size = FZ_MAP_SIZE_MIN;
    fs->map_size = (size + FZ_MAP_SIZE_MIN - 1) & ~(FZ_MAP_SIZE_MIN - 1);
    return 0;
}

static int handshake_v1(fz_fsrv_t *fs, uint64_t wait_ms, char *err, size_t errlen)
{
    uint32_t opts, v;
    fs->handshake_version = 1;
    if (write_u32(fs->ctl_fd, FZ_FS_NEW_VERSION ^ 0xffffffffu) ||
        read_u32(NULL, fs->st_fd, &opts, wait_ms))
        goto broken;
    if ((opts & 0xffff0000u) == FZ_FS_NEW_ERROR) {
        handshake_error_word(fs, opts & 0xffffu, err, errlen);
        return -1;
    }
    fs->map_size = fs->cfg.legacy_map_size ? fs->cfg.legacy_map_size : LEGACY_MAP_SIZE;
    if (opts & FZ_FS_NEW_OPT_MAPSIZE) {
        if (read_u32(NULL, fs->st_fd, &v, wait_ms))
            goto broken;
        if (take_map_size(fs, v, err, errlen))
            return -1;
    }
    if ((opts & FZ_FS_NEW_OPT_SHDMEM_FUZZ) && fs->shm.fuzz)
        fs->delivery = FZ_DELIVER_SHM;
    /* The runtime offers this only when we asked, and is committed to it
     * once offered (the handshake has no answer to options). */
    fs->direct = (opts & FZ_FS_NEW_OPT_FZ_DIRECT) != 0;
    /* Likewise only when we offered a log: its hooks will fill it. */
    fs->cmplog = fs->cfg.cmplog && (opts & FZ_FS_NEW_OPT_FZ_CMPLOG) != 0;
    /* Offered only when the runtime attached the segments we named. */
    fs->batch = fs->direct && fs->shm.batch && fs->delivery == FZ_DELIVER_SHM &&
                (opts & FZ_FS_NEW_OPT_FZ_BATCH) != 0;
    /* A harness's own mutator, reachable through batch requests. */
    fs->custom = opts & (FZ_FS_NEW_OPT_FZ_CUSTOM | FZ_FS_NEW_OPT_FZ_XOVER);
    if (opts & FZ_FS_NEW_OPT_AUTODICT) {
        /* We do not use the dictionary yet, but must drain it. */
        if (read_u32(NULL, fs->st_fd, &v, wait_ms))
            goto broken;
        uint8_t buf[4096];
        while (v > 0) {
            ssize_t n = read(fs->st_fd, buf, v < sizeof buf ? v : sizeof buf);
            if (n <= 0)
                goto broken;
            v -= (uint32_t)n;
        }
    }
    if (read_u32(NULL, fs->st_fd, &v, wait_ms) || v != FZ_FS_NEW_VERSION)
        goto broken;
    return 0;
broken:
    snprintf(err, errlen,
             "'%s' broke off the version-1 forkserver handshake; rebuild it with this "
             "fz-cc, or check that it does not touch fds 198/199",
             fs->child_argv[0]);
    return -1;
}

static int handshake_legacy(fz_fsrv_t *fs, uint32_t word, char *err, size_t errlen)
{
    fs->handshake_version = 0;
    fs->map_size = fs->cfg.legacy_map_size ? fs->cfg.legacy_map_size : LEGACY_MAP_SIZE;
    if ((word & FZ_FS_OPT_ERROR) == FZ_FS_OPT_ERROR) {
        handshake_error_word(fs, FZ_FS_OPT_GET_ERROR(word), err, errlen);
        return -1;
    }
    if ((word & FZ_FS_OPT_ENABLED) != FZ_FS_OPT_ENABLED)
        return 0; /* a plain AFL forkserver: no options */
    if ((word & FZ_FS_OPT_MAPSIZE) && take_map_size(fs, FZ_FS_OPT_GET_MAPSIZE(word), err, errlen))
        return -1;
    if (word & (FZ_FS_OPT_SHDMEM_FUZZ | FZ_FS_OPT_AUTODICT)) {
        /* The target waits for our options; we never ask for its
         * dictionary, so it will not send one. */
        uint32_t reply = FZ_FS_OPT_ENABLED;
        if ((word & FZ_FS_OPT_SHDMEM_FUZZ) && fs->shm.fuzz) {
            reply |= FZ_FS_OPT_SHDMEM_FUZZ;
            fs->delivery = FZ_DELIVER_SHM;
        }
        if (write_u32(fs->ctl_fd, reply)) {
            snprintf(err, errlen, "'%s' closed the forkserver pipe during the handshake",
                     fs->child_argv[0]);
            return -1;
        }
    }
    return 0;
}

/* Forks the target; in forkserver mode wires up the protocol pipes.
 * Returns the pid or -1 with err. */
static pid_t spawn(fz_fsrv_t *fs, char *err, size_t errlen)
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

static int start_server(fz_fsrv_t *fs, char *err, size_t errlen)
{
    uint64_t wait_ms = (uint64_t)HANDSHAKE_MULT * fs->cfg.timeout_ms;
    if (wait_ms < HANDSHAKE_MIN_MS)
        wait_ms = HANDSHAKE_MIN_MS;
    fs->fsrv_pid = spawn(fs, err, errlen);
    if (fs->fsrv_pid < 0)
        return -1;
    if (fs->track_slot >= 0)
        tracked[fs->track_slot].sid = fs->fsrv_pid;
    uint32_t word;
    int r = read_u32(NULL, fs->st_fd, &word, wait_ms);
    if (r) {
        diagnose_no_handshake(fs, r, err, errlen);
        return -1;
    }
    /* AFL++ 4.20+ sends its error word instead of the version word when
     * set-up fails.  A legacy options word could only look like it with
     * the snapshot bit (0x20000000, a kernel-module feature AFL++ dropped)
     * set, so the error word is recognised first. */
    if ((word & 0xffff0000u) == FZ_FS_NEW_ERROR) {
        fs->handshake_version = 1;
        handshake_error_word(fs, word & 0xffffu, err, errlen);
        return -1;
    }
    if (word == FZ_FS_NEW_VERSION)
        return handshake_v1(fs, wait_ms, err, errlen);
    if (word > FZ_FS_NEW_VERSION - 1 && word <= (FZ_FS_NEW_VERSION | 0xffu)) {
        snprintf(err, errlen,
                 "'%s' speaks forkserver version %u, which fz does not know; "
                 "rebuild it with fz-cc",
                 fs->child_argv[0], word - (FZ_FS_NEW_VERSION - 1));
        return -1;
    }
    return handshake_legacy(fs, word, err, errlen);
}

/* Ends a forkserver that failed to start, so another attempt can run. */
static void stop_server(fz_fsrv_t *fs)
{
    if (fs->fsrv_pid > 0) {
        kill_session(fs->fsrv_pid);
        waitpid(fs->fsrv_pid, NULL, 0);
    }
    fs->fsrv_pid = -1;
    if (fs->ctl_fd >= 0)
        close(fs->ctl_fd);
    if (fs->st_fd >= 0)
        close(fs->st_fd);
    fs->ctl_fd = fs->st_fd = -1;
    fs->handshake_version = 0;
}

/* A start that failed under -m: the dynamic loader, the runtime's shared
 * memory, a constructor's malloc or a sanitizer's shadow memory may not fit
 * in the address-space limit, and each of those shows as a different
 * failure above (no handshake, a set-up error word, a crash at start-up).
 * The runtime flags ENOMEM where it can; otherwise the start is tried once
 * more without the limit, and when that one works the limit was the cause.
 * Only on this error path: a good start pays nothing. */
static void explain_mem_limit(fz_fsrv_t *fs, char *err, size_t errlen)
{
    uint32_t mb = fs->cfg.mem_limit_mb;
    int nomem = fs->shm.diag && (fs->shm.diag->flags & FZ_DIAG_NOMEM);
    stop_server(fs);
    if (!nomem) {
        char again[512];
        fs->cfg.mem_limit_mb = 0;
        int ok = start_server(fs, again, sizeof again) == 0;
        fs->cfg.mem_limit_mb = mb;
        stop_server(fs);
        if (!ok)
            return; /* it fails without the limit too: the first diagnosis stands */
    }
    const char *prog = fs->child_argv[0];
    if (fz_fsrv_file_has(prog, "__asan_init"))
        snprintf(err, errlen,
                 "'%s' cannot start under the -m %u MiB memory limit: it is an AddressSanitizer "
                 "build, which reserves terabytes of address space at start-up; leave -m out for "
                 "sanitizer builds (ASan limits memory itself: ASAN_OPTIONS=hard_rss_limit_mb=N)",
                 prog, mb);
    else
        snprintf(err, errlen,
                 "'%s' cannot start under the -m %u MiB memory limit (%s); raise -m (the limit "
                 "is on address space, which shared libraries and the %u MiB coverage map count "
                 "against) or leave it out",
                 prog, mb,
                 nomem ? "it could not map the fuzzer's shared memory"
                       : "without the limit it starts",
                 (unsigned)(fs->shm.map_alloc >> 20));
}

int fz_fsrv_start(fz_fsrv_t *fs, const fz_fsrv_cfg_t *cfg, char *err, size_t errlen)
{
    memset(fs, 0, sizeof *fs);
    fs->cfg = *cfg;
    if (!fs->cfg.timeout_ms)
        fs->cfg.timeout_ms = 1000;
    fs->fsrv_pid = fs->child_pid = -1;
    fs->ctl_fd = fs->st_fd = fs->input_fd = fs->dev_null_fd = -1;
    fs->shm.map_id = fs->shm.fuzz_id = -1;
    fs->handshake_version = cfg->blind ? -1 : 0;
    fs->bound_cpu = fs->target_cpu = -1;
    track(fs);
    if (!cfg->argv || !cfg->argv[0]) {
        snprintf(err, errlen, "no target program given; put it after --, e.g. -- ./target @@");
        return -1;
    }
    /* A target that dies mid-write must give us EPIPE, not kill us. */
    signal(SIGPIPE, SIG_IGN);
    char *prog = check_program(cfg->argv[0], err, errlen);
    if (!prog)
        return -1;
    fs->persistent = fz_fsrv_file_has(prog, FZ_SIG_PERSISTENT);
    fs->deferred = fz_fsrv_file_has(prog, FZ_SIG_DEFER);
    int bad = open_input(fs, err, errlen) || build_argv(fs, prog);
    free(prog);
    if (bad) {
        if (!err[0])
            snprintf(err, errlen, "out of memory");
        goto fail;
    }
    fs->dev_null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (fz_shm_create(&fs->shm, !cfg->blind && !cfg->no_shm_input, err, errlen))
        goto fail;
    fs->trace_bits = fs->shm.map;
    /* Batches need direct mode (a persistent fz target) and shared-memory
     * input; without their segments the target is simply not offered them. */
    if (cfg->batch && fs->persistent && !cfg->no_direct && fs->shm.fuzz &&
        !fz_env_flag("FZ_NO_BATCH", NULL) && fz_shm_add_batch(&fs->shm, err, errlen))
        err[0] = 0;
    bind_cpu(fs);
    if (cfg->blind) {
        fs->map_size = FZ_MAP_SIZE_MIN; /* stays all zero: no coverage */
        return 0;
    }
    if (start_server(fs, err, errlen)) {
        if (fs->cfg.mem_limit_mb)
            explain_mem_limit(fs, err, errlen);
        goto fail;
    }
    if (fs->direct)
        split_cpus(fs);
    return 0;
fail:
    fz_fsrv_stop(fs);
    return -1;
}

static int deliver(fz_fsrv_t *fs, const uint8_t *buf, size_t len)
{
    if (len > FZ_MAX_INPUT)
        len = FZ_MAX_INPUT;
    if (fs->delivery == FZ_DELIVER_SHM) {
        uint32_t l = (uint32_t)len;
        memcpy(fs->shm.fuzz, &l, sizeof l);
        memcpy(fs->shm.fuzz + FZ_SHM_FUZZ_HDR, buf, len);
        return 0;
    }
    /* Same file for every run, written in place with pwrite (the file
     * offset stays put: on ext4 that is a third of the cost of lseek,
     * write, ftruncate, lseek) and always truncated, since the target may
     * have changed the file.  It is every child's stdin too, and a child
     * reading stdin moves the offset they share: rewound. */
    if (fs->input_named && renew_input(fs))
        return -1;
    for (size_t off = 0; off < len;) {
        ssize_t n = pwrite(fs->input_fd, buf + off, len - off, (off_t)off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        off += (size_t)n;
    }
    if (ftruncate(fs->input_fd, (off_t)len))
        return -1;
    /* With @@ the target opens the path itself: the offset is the stdin
     * of nobody who reads it, and the stat above took this call's place. */
    if (fs->delivery != FZ_DELIVER_FILE && lseek(fs->input_fd, 0, SEEK_SET) < 0)
        return -1;
    return 0;
}

/* The crash site the runtime left on the diagnostics page for the child
 * pid (include/fz-protocol.h, "Crash sites"), consumed so that a later
 * crash without one is never given a stale site. */
static void read_site(fz_fsrv_t *fs, pid_t pid)
{
    fz_diag_t *d = fs->shm.diag;
    memset(&fs->last_site, 0, sizeof fs->last_site);
    if (!d || pid <= 0)
        return;
    uint32_t who = __atomic_load_n(&d->site_pid, __ATOMIC_ACQUIRE);
    if (!who)
        return;
    if (who == (uint32_t)pid && d->site) {
        fs->last_site.hash = d->site;
        fs->last_site.from = d->site_from;
        fs->last_site.nframes = d->site_nframes < FZ_SITE_FRAMES ? d->site_nframes : FZ_SITE_FRAMES;
        memcpy(fs->last_site.off, d->site_off, sizeof fs->last_site.off);
        memcpy(fs->last_site.module, d->site_module, sizeof fs->last_site.module);
        for (int i = 0; i < FZ_SITE_FRAMES; i++)
            fs->last_site.module[i][sizeof fs->last_site.module[i] - 1] = 0;
    }
    d->site_pid = 0;
}

/* After a run's child ended: under an fz runtime the child led its own
 * process group (fz-protocol.h), so whatever it forked and left running is
 * killed with the group.  Only when the run forked (the runtime's count
 * moved) or was killed: the common run pays one read of the diagnostics
 * page, no system call. */
static void reap_group(fz_fsrv_t *fs, pid_t pgid, int force)
{
    if (pgid <= 0)
        return;
    uint32_t forks = fs->shm.diag ? fs->shm.diag->forks : 0;
    if (!force && forks == fs->seen_forks)
        return;
    fs->seen_forks = forks;
    kill(-pgid, SIGKILL);
}

/* pid: the child the status belongs to (for its crash site). */
static fz_run_result_t judge(fz_fsrv_t *fs, int status, int timed_out, pid_t pid)
{
    fs->last_status = status;
    fs->last_site.hash = 0;
    fs->last_signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    fs->last_exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (timed_out) {
        fs->total_hangs++;
        return FZ_RUN_HANG;
    }
    if (fs->last_signal) {
        read_site(fs, pid);
        fs->total_crashes++;
        return FZ_RUN_CRASH;
    }
    return FZ_RUN_OK;
}

static fz_run_result_t run_error(fz_fsrv_t *fs, const char *what)
{
    int status = 0;
    const char *prog = fs->child_argv ? fs->child_argv[0] : "target";
    fs->broke_signal = 0;
    if (fs->fsrv_pid > 0 && wait_pid_for(fs->fsrv_pid, &status, 200)) {
        server_gone(fs);
        if (WIFSIGNALED(status)) {
            int sig = WTERMSIG(status);
            /* Nothing but the run can kill the forkserver between two
             * words of the protocol: the input made the target kill its
             * parent or its process group (or, under -m, starve it). */
            fs->broke_signal = sig;
            char limit[96] = "";
            if (fs->cfg.mem_limit_mb)
                snprintf(limit, sizeof limit, ", or the -m %u MiB memory limit starved it",
                         fs->cfg.mem_limit_mb);
            snprintf(fs->errmsg, sizeof fs->errmsg,
                     "the forkserver of '%s' was killed by signal %d (%s) while %s: the input "
                     "made the target kill its own forkserver (kill(getppid(), ...), kill(0, "
                     "...) or killpg)%s",
                     prog, sig, strsignal(sig), what, limit);
        } else {
            snprintf(fs->errmsg, sizeof fs->errmsg,
                     "the forkserver of '%s' exited (code %d) while %s; does the program call "
                     "exit() itself before main, or close fds 198/199?",
                     prog, WIFEXITED(status) ? WEXITSTATUS(status) : -1, what);
        }
    } else {
        snprintf(fs->errmsg, sizeof fs->errmsg,
                 "the forkserver of '%s' stopped answering while %s; the target must not close "
                 "or reuse fds 198/199",
                 prog, what);
    }
    return FZ_RUN_ERROR;
}

static fz_run_result_t run_blind(fz_fsrv_t *fs)
{
    char err[256] = "";
    uint64_t t0 = now_us();
    pid_t pid = spawn(fs, err, sizeof err);
    if (pid < 0) {
        snprintf(fs->errmsg, sizeof fs->errmsg, "%s", err);
        return FZ_RUN_ERROR;
    }
    fs->total_forks++;
    int status = 0, timed_out = 0;
    /* Poll with a growing sleep: blind mode pays a fork+exec per run
     * anyway, so a few hundred microseconds of latency do not matter. */
    uint64_t deadline = t0 + (uint64_t)fs->run_timeout_ms * 1000u;
    useconds_t nap = 50;
    uint64_t next_check = t0 + INTERRUPT_SLICE_MS * 1000u;
    while (waitpid(pid, &status, WNOHANG) == 0) {
        uint64_t now = now_us();
        int cut = now >= next_check && interrupted(fs);
        if (now >= next_check)
            next_check = now + INTERRUPT_SLICE_MS * 1000u;
        if (now >= deadline || cut) {
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            timed_out = 1;
            break;
        }
        usleep(nap);
        if (nap < 2000)
            nap *= 2;
    }
    /* The target led its own session and group (child_exec): whatever it
     * left running goes with it.  One kill per fork+exec costs nothing. */
    kill(-pid, SIGKILL);
    fs->last_exec_us = now_us() - t0;
    return judge(fs, status, timed_out, pid);
}

static uint32_t ld(volatile uint32_t *w)
{
    return __atomic_load_n(w, __ATOMIC_SEQ_CST);
}

/* Direct mode: waits until the control page's answer is for run seq, or
 * until deadline (now_us() clock).  Spins first when the target has its
 * own CPU, then sleeps on the word; the flag beside it tells the target
 * to wake us (the protocol in include/fz-protocol.h).  Returns the answer,
 * or 0 at the deadline.  *slept says whether it had to sleep. */
static uint32_t wait_ans(fz_fsrv_t *fs, uint32_t seq, uint64_t deadline, int *slept)
{
    fz_ctl_t *c = fs->shm.ctl;
    uint32_t v;
    for (uint32_t i = 0; i < fs->spin; i++) {
        if (((v = ld(&c->ans)) & FZ_FS_DIRECT_SEQ) == seq)
            return v;
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    }
    *slept = 1;
    for (;;) {
        __atomic_store_n(&c->ans_sleeping, 1, __ATOMIC_SEQ_CST);
        if (((v = ld(&c->ans)) & FZ_FS_DIRECT_SEQ) == seq)
            break;
        uint64_t now = now_us();
        if (now >= deadline) {
            v = 0;
            break;
        }
        uint64_t left = deadline - now;
        int cut = fs->interrupt && !fs->last_cut && left > INTERRUPT_SLICE_MS * 1000u;
        if (cut)
            left = INTERRUPT_SLICE_MS * 1000u;
        struct timespec ts = {(time_t)(left / 1000000u), (long)(left % 1000000u) * 1000};
        syscall(SYS_futex, &c->ans, FUTEX_WAIT, v, &ts, NULL, 0);
        if (cut && ((v = ld(&c->ans)) & FZ_FS_DIRECT_SEQ) != seq && interrupted(fs)) {
            v = 0;
            break;
        }
    }
    __atomic_store_n(&c->ans_sleeping, 0, __ATOMIC_SEQ_CST);
    return v;
}

/* Direct mode: the answer w for the current run becomes its result.  A
 * death reports the child's status; a new pid in an OK is a new child. */
static fz_run_result_t direct_result(fz_fsrv_t *fs, uint32_t w, int timed_out, uint64_t t0)
{
    fz_ctl_t *c = fs->shm.ctl;
    fs->last_exec_us = now_us() - t0;
    int status = 0;
    pid_t pid;
    if ((w & FZ_FS_DIRECT_TAG_MASK) == FZ_FS_DIRECT_DIED) {
        pid = (pid_t)ld(&c->dead_pid);
        status = (int)ld(&c->dead_status);
        if (pid <= 0)
            return run_error(fs, "starting a child (fork failed in the target)");
        reap_group(fs, pid, timed_out);
    } else {
        pid = (pid_t)ld(&c->pid);
    }
    if (pid > 0 && pid != fs->child_pid)
        fs->total_forks++;
    fs->child_pid = (w & FZ_FS_DIRECT_TAG_MASK) == FZ_FS_DIRECT_DIED ? -1 : pid;
    return judge(fs, status, timed_out, pid);
}

/* Direct mode: the run's time is up.  Kills the child serving it and waits
 * for the forkserver's report of that death (or an OK that raced with the
 * kill).  With no child yet, the fork itself is slow: it gets KILL_WAIT_MS
 * more, as the classic protocol allows for the pid word. */
static fz_run_result_t direct_timeout(fz_fsrv_t *fs, uint32_t seq, uint64_t t0)
{
    int slept;
    /* A forkserver that is gone (the input made the target kill it; its
     * child died with it) answers nothing: no use waiting for it. */
    siginfo_t si = {0};
    if (fs->fsrv_pid > 0 &&
        waitid(P_PID, (id_t)fs->fsrv_pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid)
        return run_error(fs, "waiting for a child's status");
    pid_t pid = (pid_t)ld(&fs->shm.ctl->pid);
    if (pid <= 0) {
        uint32_t w = wait_ans(fs, seq, now_us() + KILL_WAIT_MS * 1000u, &slept);
        if (w)
            return direct_result(fs, w, 0, t0);
        if ((pid = (pid_t)ld(&fs->shm.ctl->pid)) <= 0)
            return run_error(fs, "starting a child");
    }
    kill(pid, SIGKILL);
    uint32_t w = wait_ans(fs, seq, now_us() + KILL_WAIT_MS * 1000u, &slept);
    if (!w)
        return run_error(fs, "waiting for a killed child's status");
    return direct_result(fs, w, 1, t0);
}

/* Direct mode (include/fz-protocol.h): post the next sequence number and
 * wait for its answer.  n == 0 is one run of the test-case segment; n > 0
 * runs batch inputs from .. from + n - 1, and *at says which one the
 * answer is for.  A batch's timeout is per run: the wait is renewed each
 * time the child has moved on to another input (bcur).  The child clears
 * the map itself. */
static fz_run_result_t run_direct(fz_fsrv_t *fs, uint64_t t0, uint32_t from, uint32_t n,
                                  uint32_t *at)
{
    fz_ctl_t *c = fs->shm.ctl;
    fs->direct_seq = fs->direct_seq >= FZ_FS_DIRECT_SEQ ? 1 : fs->direct_seq + 1;
    uint32_t seq = fs->direct_seq;
    c->req_from = from;
    c->req_n = n;
    __atomic_store_n(&c->req, seq, __ATOMIC_SEQ_CST);
    if (ld(&c->req_sleeping))
        syscall(SYS_futex, &c->req, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
    int slept = 0;
    uint64_t start = t0, timeout_us = (uint64_t)fs->run_timeout_ms * 1000u;
    uint32_t seen = from, w;
    for (;;) {
        w = wait_ans(fs, seq, start + timeout_us, &slept);
        if (w || !n)
            break;
        uint32_t b = ld(&c->bcur);
        if (b == seen)
            break; /* no progress for a whole timeout: run b hangs */
        seen = b;
        start = now_us();
    }
    if (fs->target_cpu >= 0) {
        fs->split_sleeps += slept;
        if (++fs->split_runs == SPLIT_WINDOW) {
            if (fs->split_sleeps > SPLIT_WINDOW / SPLIT_GIVE_UP)
                join_cpus(fs);
            fs->split_runs = fs->split_sleeps = 0;
        }
    }
    fz_run_result_t r = w ? direct_result(fs, w, 0, t0) : direct_timeout(fs, seq, t0);
    *at = from;
    if (n) {
        /* The target's word: never trusted outside the request. */
        uint32_t b = ld(&c->bcur);
        *at = b >= from && b - from < n ? b : from + n - 1;
    }
    return r;
}

fz_run_result_t fz_fsrv_run_batch(fz_fsrv_t *fs, uint32_t from, uint32_t n, uint32_t timeout_ms,
                                  uint32_t *at)
{
    fs->run_timeout_ms = timeout_ms ? timeout_ms : fs->cfg.timeout_ms;
    fs->last_runs = 0;
    fs->last_cut = 0;
    *at = from;
    if (!fs->batch || n == 0 || from >= FZ_BATCH_MAX || n > FZ_BATCH_MAX - from) {
        snprintf(fs->errmsg, sizeof fs->errmsg, "a batch of inputs %u..%u was asked of a target "
                 "that takes no batches", from, from + n);
        return FZ_RUN_ERROR;
    }
    if (fs->fsrv_pid <= 0)
        return FZ_RUN_ERROR;
    fs->total_handovers++;
    fz_run_result_t r = run_direct(fs, now_us(), from, n, at);
    fs->last_runs = *at - from + 1;
    fs->total_execs += fs->last_runs;
    fs->last_exec_us /= fs->last_runs;
    return r;
}

fz_run_result_t fz_fsrv_run(fz_fsrv_t *fs, const uint8_t *buf, size_t len, uint32_t timeout_ms)
{
    fs->run_timeout_ms = timeout_ms ? timeout_ms : fs->cfg.timeout_ms;
    fs->last_cut = 0;
    /* A direct-mode child clears the slots it uses before each pass. */
    if (!fs->direct)
        memset(fs->trace_bits, 0, fs->map_size);
    if (deliver(fs, buf, len)) {
        snprintf(fs->errmsg, sizeof fs->errmsg, "cannot write the input to '%s': %s",
                 fs->input_path, strerror(errno));
        return FZ_RUN_ERROR;
    }
    fs->total_execs++;
    fs->total_handovers++;
    fs->last_runs = 1;
    if (fs->handshake_version < 0)
        return run_blind(fs);
    if (fs->fsrv_pid <= 0)
        return FZ_RUN_ERROR;

    uint64_t t0 = now_us();
    if (fs->direct) {
        uint32_t at;
        return run_direct(fs, t0, 0, 0, &at);
    }
    uint32_t pid, status;
    if (write_u32(fs->ctl_fd, (uint32_t)fs->last_killed))
        return run_error(fs, "asked to run");
    fs->last_killed = 0;
    if (read_u32(fs, fs->st_fd, &pid, (uint64_t)fs->run_timeout_ms + KILL_WAIT_MS))
        return run_error(fs, "starting a child");
    if ((pid_t)pid <= 0)
        return run_error(fs, "starting a child (fork failed in the target)");
    if ((pid_t)pid != fs->child_pid)
        fs->total_forks++;
    fs->child_pid = (pid_t)pid;

    int64_t left = (int64_t)fs->run_timeout_ms - (int64_t)(now_us() - t0) / 1000;
    int r = read_u32(fs, fs->st_fd, &status, left > 0 ? (uint64_t)left : 0);
    int timed_out = 0;
    if (r == 1) {
        /* The forkserver reports the killed child's status like any other. */
        kill(fs->child_pid, SIGKILL);
        fs->last_killed = 1;
        timed_out = 1;
        r = read_u32(NULL, fs->st_fd, &status, KILL_WAIT_MS);
    }
    fs->last_exec_us = now_us() - t0;
    if (r)
        return run_error(fs, "waiting for a child's status");
    fs->child_stopped = WIFSTOPPED(status);
    if (!fs->child_stopped) {
        reap_group(fs, fs->child_pid, timed_out);
        fs->child_pid = -1;
    }
    if (fs->child_stopped && !timed_out)
        return judge(fs, 0, 0, -1); /* a persistent iteration that finished */
    return judge(fs, (int)status, timed_out, (pid_t)pid);
}

int fz_fsrv_restart(fz_fsrv_t *fs, char *err, size_t errlen)
{
    if (fs->handshake_version < 0)
        return 0; /* blind mode: a fresh process every run anyway */
    uint32_t map_size = fs->map_size;
    pid_t live = fs->direct && fs->shm.ctl ? (pid_t)ld(&fs->shm.ctl->pid) : 0;
    if (live > 0)
        kill(-live, SIGKILL);
    if (fs->child_pid > 0)
        kill(-fs->child_pid, SIGKILL);
    stop_server(fs);
    fs->child_pid = -1;
    fs->child_stopped = fs->last_killed = 0;
    fs->broke_signal = 0;
    if (fs->shm.ctl) {
        /* The new forkserver must not take the last request, which the
         * old one may have left untaken, as a new one. */
        fz_ctl_t *c = fs->shm.ctl;
        c->taken = c->req;
        c->cur = c->pid = 0;
    }
    if (start_server(fs, err, errlen)) {
        stop_server(fs);
        return -1;
    }
    if (fs->map_size != map_size) {
        snprintf(err, errlen, "'%s' reported another map size when restarted (%u, was %u)",
                 fs->child_argv[0], fs->map_size, map_size);
        stop_server(fs);
        return -1;
    }
    return 0;
}

void fz_fsrv_stop(fz_fsrv_t *fs)
{
    if (fs->child_pid > 0) {
        kill(-fs->child_pid, SIGKILL);
        kill(fs->child_pid, SIGKILL);
    }
    pid_t live = fs->direct && fs->shm.ctl ? (pid_t)ld(&fs->shm.ctl->pid) : 0;
    if (live > 0) {
        kill(-live, SIGKILL);
        kill(live, SIGKILL);
    }
    if (fs->fsrv_pid > 0) {
        kill_session(fs->fsrv_pid);
        waitpid(fs->fsrv_pid, NULL, 0);
    }
    fs->child_pid = fs->fsrv_pid = -1;
    if (fs->ctl_fd >= 0)
        close(fs->ctl_fd);
    if (fs->st_fd >= 0)
        close(fs->st_fd);
    if (fs->input_fd >= 0)
        close(fs->input_fd);
    if (fs->dev_null_fd >= 0)
        close(fs->dev_null_fd);
    fs->ctl_fd = fs->st_fd = fs->input_fd = fs->dev_null_fd = -1;
    if (fs->owns_input_path && fs->input_path)
        unlink(fs->input_path);
    fs->owns_input_path = 0;
    free(fs->input_path);
    fs->input_path = NULL;
    untrack(fs);
    if (fs->child_argv) {
        for (size_t i = 0; fs->child_argv[i]; i++)
            free(fs->child_argv[i]);
        free(fs->child_argv);
        fs->child_argv = NULL;
    }
    fz_shm_destroy(&fs->shm);
    fs->trace_bits = NULL;
    if (fs->bound_cpu >= 0) {
        cpu_set_t cur;
        memcpy(&cur, fs->saved_cpus, sizeof cur);
        sched_setaffinity(0, sizeof cur, &cur);
        fs->bound_cpu = -1;
    }
}
