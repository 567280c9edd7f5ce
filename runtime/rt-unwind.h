/*
 * rt-unwind.h - the crash handler's stack walk (rt-unwind.c).
 */
#ifndef FZ_RT_UNWIND_H
#define FZ_RT_UNWIND_H

#include "runtime/rt.h"

/* Fills pcs (at most max) with the addresses of the frames from the signal
 * handler's up, the faulting pc (ucv: the handler's context) among them
 * when the walk gets through the signal frame.  Returns how many.
 * Async-signal-safe once __fz_rt_unwind_prepare has run. */
FZ_RT_HIDDEN int __fz_rt_unwind(void **pcs, int max, const void *ucv);

/* In the forkserver, before any fork: whatever the walk must load. */
FZ_RT_HIDDEN void __fz_rt_unwind_prepare(void);

#endif
