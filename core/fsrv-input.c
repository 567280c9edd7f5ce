/*
 * fsrv-input.c - creating the input file the target reads
 * (core/fsrv-priv.h): -f FILE or a private temp file, and the removal of
 * the temp files of fuzzers killed without cleaning up.  fsrv.c writes
 * each run's input into it and makes it again when the target removed it.
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
