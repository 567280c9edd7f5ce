/*
 * rt-cmp.h - the comparison log in the target (rt-cmp.c; include/fz-cmplog.h).
 */
#ifndef FZ_RT_CMP_H
#define FZ_RT_CMP_H

#include <stddef.h>
#include <stdint.h>

#include "fz-protocol.h"
#include "runtime/rt.h"

/* Non-zero when the fuzzer's log is attached and some module has
 * comparison sites: the version-1 handshake then sets
 * FZ_FS_NEW_OPT_FZ_CMPLOG. */
FZ_RT_HIDDEN int __fz_rt_cmp_ready(void);

/* A run starts: copies the log's enabled word into every module's guard
 * flag (stores only on a change).  fresh: the first pass of a persistent
 * child, whose set-up compares are dropped from the log.  Async-signal-
 * safe (loads and stores). */
FZ_RT_HIDDEN void __fz_rt_cmp_run_start(int fresh);

/* The input's run is over (after the last __AFL_LOOP pass): flags off. */
FZ_RT_HIDDEN void __fz_rt_cmp_stop(void);

#endif
