/*
 * proc.c - process-group tracking and session killing (see proc.h).
 */
#include "core/proc.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What fz_fsrv_stop must undo even when the process exits without
 * calling it (fz_die anywhere): the target's session to kill and the input
 * file to remove.  Kept by value, since the fz_fsrv_t may live on a stack
 * that is gone by then; process-wide by nature, as atexit has no context. */
#define TRACK_MAX 8
static struct {
    pid_t sid;  /* the forkserver (session leader), 0 if none yet */
    char *path; /* an input file of ours to remove, or NULL */
} tracked[TRACK_MAX];

/* The session's processes are found in /proc.  A process that made its
 * own session (a daemon) is out of reach; nothing else is. */
void fz_proc_kill_session(pid_t sid)
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
        fz_proc_kill_session(tracked[i].sid);
        if (tracked[i].path)
            unlink(tracked[i].path);
    }
}

int fz_proc_track(void)
{
    static int registered;
    if (!registered)
        registered = atexit(stop_tracked) == 0;
    for (int i = 0; i < TRACK_MAX; i++)
        if (!tracked[i].sid && !tracked[i].path)
            return i;
    return -1;
}

void fz_proc_track_session(int slot, pid_t sid)
{
    if (slot >= 0)
        tracked[slot].sid = sid;
}

void fz_proc_track_path(int slot, const char *path)
{
    if (slot >= 0)
        tracked[slot].path = strdup(path);
}

void fz_proc_untrack(int slot)
{
    if (slot < 0)
        return;
    free(tracked[slot].path);
    tracked[slot].path = NULL;
    tracked[slot].sid = 0;
}
