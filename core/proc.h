/*
 * proc.h - the processes a forkserver leaves behind: killing a target's
 * whole session, and an exit-time list (an atexit handler) of the
 * sessions to kill and the input files to remove when a program exits
 * without stopping its forkserver (fz_die anywhere).
 */
#ifndef FZ_CORE_PROC_H
#define FZ_CORE_PROC_H

#include <sys/types.h>

/* Takes a slot in the exit-time list (registering the handler the first
 * time); returns it, or -1 when the list is full (nothing is then cleaned
 * up at exit).  Every function below accepts -1 and does nothing. */
int fz_proc_track(void);

/* The session to kill at exit (the forkserver, its leader); 0 = none any
 * more (it was reaped and its pid is free for reuse). */
void fz_proc_track_session(int slot, pid_t sid);

/* An input file of ours to remove at exit (copied). */
void fz_proc_track_path(int slot, const char *path);

/* Gives the slot back (the caller cleaned up itself). */
void fz_proc_untrack(int slot);

/* Kills every process of session sid: the forkserver's own group and the
 * per-run groups under it (include/fz-protocol.h).  sid <= 0: nothing. */
void fz_proc_kill_session(pid_t sid);

#endif
