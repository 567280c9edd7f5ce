/*
 * rt-map.h - the coverage map in the target (rt-map.c): attaching the fuzzer's
 * map, the modules' slots, clearing and reading it between passes.
 */
#ifndef FZ_RT_MAP_H
#define FZ_RT_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "fz-protocol.h"
#include "runtime/rt.h"

/* Attaches the fuzzer's coverage map (once; safe to call again).
 * Returns 0, or an FZ_FS_ERROR_* code the forkserver reports. */
FZ_RT_HIDDEN int __fz_rt_map_attach(void);
/* errno of a failed attach (0 if none). */
FZ_RT_HIDDEN int __fz_rt_map_errno(void);

/* The libFuzzer driver outside a fuzzer (__fz_lf_local_map): its private
 * map, slots [0, *used) handed out to *nmods modules; NULL under a fuzzer
 * or without one. */
FZ_RT_HIDDEN uint8_t *__fz_rt_map_local(uint32_t *used, uint32_t *nmods);

/* Map size the program needs: sum of every registered module's slots,
 * rounded up to FZ_MAP_SIZE_MIN (never 0). */
FZ_RT_HIDDEN uint32_t __fz_rt_map_size(void);

/* Zeroes the slots handed out to modules, so a persistent iteration starts
 * from an empty map. */
FZ_RT_HIDDEN void __fz_rt_map_clear(void);

/* Batches (include/fz-protocol.h): non-zero when the map of the pass that
 * just ended holds a bucket virgin (the fuzzer's, read-only, virgin_len
 * bytes) has not seen. */
FZ_RT_HIDDEN int __fz_rt_map_any_new(const uint8_t *virgin, size_t virgin_len);

/* Points every module back at its scratch counters, so code that runs after
 * the last persistent iteration (exit handlers) leaves the map alone. */
FZ_RT_HIDDEN void __fz_rt_map_detach(void);

/* Fills the diagnostics page's module report (include/fz-protocol.h):
 * the loaded objects that registered edges, and the program's shared
 * libraries that carry no fz instrumentation.  Call before the handshake;
 * nothing without a page. */
FZ_RT_HIDDEN void __fz_rt_map_report_modules(void);

#endif
