/*
 * lf-util.c - files and processes for fz's libFuzzer driver (lf-util.h).
 * Runs only in the driver's own process (never in a fuzzed child), so it
 * may use stdio and malloc freely.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fz-config.h"
#include "fz-sha1.h"
#include "runtime/lf-util.h"

uint64_t __fz_lf_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

int __fz_lf_is_dir(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0 && S_ISDIR(sb.st_mode);
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted non-hidden names in dir (malloc'ed); how many (0 if the
 * directory cannot be read). */
size_t __fz_lf_list(const char *dir, char ***names)
{
    size_t n = 0;
    *names = NULL;
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char **t = realloc(*names, (n + 1) * sizeof **names);
        if (!t)
            break;
        *names = t;
        if (((*names)[n] = strdup(e->d_name)))
            n++;
    }
    closedir(d);
    if (n)
        qsort(*names, n, sizeof **names, cmp_name);
    return n;
}
void __fz_lf_free_names(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

char *__fz_lf_path_join(const char *a, const char *b)
{
    char *p;
    if (asprintf(&p, "%s/%s", a, b) < 0)
        return NULL;
    return p;
}

/* Reads at most FZ_MAX_INPUT bytes of a regular file; NULL if it is not one. */
uint8_t *__fz_lf_read_file(const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    struct stat sb;
    if (fd < 0)
        return NULL;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size > FZ_MAX_INPUT) {
        close(fd);
        return NULL;
    }
    uint8_t *buf = malloc((size_t)sb.st_size + 1);
    ssize_t r = buf ? read(fd, buf, (size_t)sb.st_size) : -1;
    close(fd);
    if (r != sb.st_size) {
        free(buf);
        return NULL;
    }
    *len = (size_t)r;
    return buf;
}

/* Writes path atomically (temp file + rename), so two harnesses sharing a
 * corpus directory never see half a file.  Returns 0 or -1. */
int __fz_lf_write_atomic(const char *path, const uint8_t *buf, size_t len)
{
    char *tmp;
    if (asprintf(&tmp, "%s.fz-tmp.%d", path, (int)getpid()) < 0)
        return -1;
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    int ok = fd >= 0 && write(fd, buf, len) == (ssize_t)len;
    if (fd >= 0)
        ok &= close(fd) == 0;
    ok = ok && rename(tmp, path) == 0;
    if (!ok)
        unlink(tmp);
    free(tmp);
    return ok ? 0 : -1;
}

/* Copies buf into dir as its SHA-1; returns 1 if new, 0 if there, -1. */
int __fz_lf_save_by_hash(const char *dir, const uint8_t *buf, size_t len, char hex[41])
{
    fz_sha1_hex(buf, len, hex);
    char *p = __fz_lf_path_join(dir, hex);
    int r = !p ? -1 : access(p, F_OK) == 0 ? 0 : __fz_lf_write_atomic(p, buf, len) == 0 ? 1 : -1;
    free(p);
    return r;
}

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(p);
}

void __fz_lf_rm_tree(const char *dir)
{
    nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

char *__fz_lf_find_tool(const char *name)
{
    const char *env = getenv("FZ_FUZZ");
    char *p = NULL;
    if (env && *env) { /* FZ_FUZZ names fz-fuzz; the other tools sit beside it */
        const char *slash = strrchr(env, '/');
        if (strcmp(name, "fz-fuzz") == 0)
            p = strdup(env);
        else if (slash && asprintf(&p, "%.*s/%s", (int)(slash - env), env, name) < 0)
            p = NULL;
        return p;
    }
#ifdef FZ_BINDIR
    if (asprintf(&p, "%s/%s", FZ_BINDIR, name) >= 0 && access(p, X_OK) == 0)
        return p;
    free(p);
#endif
    const char *path = getenv("PATH");
    char *copy = strdup(path ? path : "/usr/local/bin:/usr/bin:/bin");
    for (char *save = NULL, *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        if (asprintf(&p, "%s/%s", *d ? d : ".", name) >= 0 && access(p, X_OK) == 0)
            break;
        free(p);
        p = NULL;
    }
    free(copy);
    return p;
}

char *__fz_lf_self_path(void)
{
    char buf[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0)
        return NULL;
    buf[n] = 0;
    return strdup(buf);
}

/* Starts argv with stdout to out_fd (-1: inherited) and stdin from in_path
 * (NULL: inherited); returns the pid. */
pid_t __fz_lf_spawn(char **argv, int out_fd, const char *in_path)
{
    fflush(NULL);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    /* The tool stops (SIGINT: it keeps what it found) when the driver
     * dies, however it dies: no orphan fuzzing on with no limit. */
    prctl(PR_SET_PDEATHSIG, SIGINT);
    if (getppid() != parent)
        _exit(127);
    if (out_fd >= 0)
        dup2(out_fd, 1);
    if (in_path) {
        int fd = open(in_path, O_RDONLY);
        if (fd >= 0)
            dup2(fd, 0);
    }
    execv(argv[0], argv);
    fprintf(stderr, "ERROR: cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
}

int __fz_lf_wait_status(pid_t pid)
{
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    return status;
}
