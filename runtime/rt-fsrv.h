/*
 * rt-fsrv.h - what the forkserver (rt-fsrv.c) takes from others.
 */
#ifndef FZ_RT_FSRV_H
#define FZ_RT_FSRV_H

#include <stddef.h>
#include <stdint.h>

#include "fz-protocol.h"
#include "runtime/rt.h"

/* fz's libFuzzer driver, before the fork point, asks for
 * harness-side mutation (FZ_FS_NEW_OPT_FZ_CUSTOM / _XOVER, offered only
 * with batches; include/fz-protocol.h).  Declared, unhidden, in
 * runtime/lf-mutate.c too. */
FZ_RT_HIDDEN void __fz_rt_set_custom(uint32_t opts);

#endif
