/*
 * rt-crash.h - crash sites from the crash handler (rt-crash.c; include/fz-protocol.h,
 * "Crash sites").
 */
#ifndef FZ_RT_CRASH_H
#define FZ_RT_CRASH_H

#include <stddef.h>
#include <stdint.h>

#include "fz-protocol.h"
#include "runtime/rt.h"

/* Forkserver, before its first fork: installs the crash handler where the
 * program left the default action, and the sanitizers' report hooks. */
FZ_RT_HIDDEN void __fz_rt_crash_install(void);

#endif
