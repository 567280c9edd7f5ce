/*
 * sync-types.h - the sync settings and state of one instance (sync.h),
 * apart from the functions that take the state, so state.h (and options.c,
 * for the default interval) can use them without importing sync.
 */
#ifndef FZ_FUZZ_SYNC_TYPES_H
#define FZ_FUZZ_SYNC_TYPES_H

#include <stdint.h>

/* Seconds between two syncs of a secondary when FZ_SYNC_SECS (and AFL's
 * AFL_SYNC_TIME, in minutes) is not set; the main syncs twice as often.
 * AFL++ waits 30 minutes, sized for fleets of long-running instances; a
 * sync where nothing is new costs fz one directory listing per peer, so a
 * minute spreads finds much sooner at no measurable cost, and the runs a
 * sync does are the same however they are spaced. */
#define FZ_SYNC_SECS_DEFAULT 60

/* Longest peer directory name we sync from: it becomes part of our file
 * names ("sync:PEER,"), which must stay well under NAME_MAX. */
#define FZ_SYNC_PEER_MAX 100

/* Sync state of one instance (st->sync). */
typedef struct fz_sync {
    int enabled;          /* -M or -S was given (and not -n) */
    uint64_t interval_ms; /* between the end of one sync and the next */
    uint64_t last_ms;     /* when the last sync ended; 0 = never (sync at once) */
    uint64_t execs;       /* target runs spent on peers' files (judging + keeping) */
} fz_sync_t;

#endif
