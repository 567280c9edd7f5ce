/*
 * rt-direct.h - direct mode and batches (rt-direct.c).
 */
#ifndef FZ_RT_DIRECT_H
#define FZ_RT_DIRECT_H

#include "runtime/rt.h"

/* Version-1 handshake: non-zero when direct mode can be offered (the
 * fuzzer asked, named a control page that attaches, and the kernel has
 * pidfds). */
FZ_RT_HIDDEN int __fz_rt_direct_attach(void);

/* After __fz_rt_direct_attach: non-zero when batches can be offered (both
 * segments the fuzzer named attach). */
FZ_RT_HIDDEN int __fz_rt_direct_batch_attach(void);

/* Direct mode's forkserver loop.  Returns only in a new child. */
FZ_RT_HIDDEN void __fz_rt_direct_serve(void);

/* In the child, between two passes of __AFL_LOOP: the next input of the
 * batch, or reports the run and waits for the next request.  Keeps errno. */
FZ_RT_HIDDEN void __fz_rt_direct_next(void);

/* In the child, after the last pass of __AFL_LOOP: reports the run and
 * marks the child idle. */
FZ_RT_HIDDEN void __fz_rt_direct_done(void);

#endif
