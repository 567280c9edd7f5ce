/*
 * fsrv-input.c - the input the target reads (core/fsrv-priv.h): the file
 * (-f FILE or a private temp file), made again when the target removed
 * it, and each run's delivery to the file, stdin or shared memory.
 */
#define _GNU_SOURCE
#include "core/fsrv-priv.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/proc.h"
#include "fz-config.h"
#include "fz-protocol.h"

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

/* The input file: -f FILE is created here and must not exist (writing
 * each input into whatever was there would destroy it: the target binary,
 * a seed), otherwise a private temp file.  Either is removed at stop. */
int fz_fsrv_open_input(fz_fsrv_t *fs, char *err, size_t errlen)
{
    if (fs->cfg.input_path) {
        fs->input_path = strdup(fs->cfg.input_path);
        fs->input_fd = fs->input_path
                           ? open(fs->input_path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, 0600)
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
    fz_proc_track_path(fs->track_slot, fs->input_path);
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

int fz_fsrv_deliver(fz_fsrv_t *fs, const uint8_t *buf, size_t len)
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
