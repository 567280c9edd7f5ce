/*
 * rt-input.h - the test case in shared memory (rt-input.c).
 */
#ifndef FZ_RT_INPUT_H
#define FZ_RT_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "fz-protocol.h"
#include "runtime/rt.h"

/* Non-zero when the harness defined __afl_sharedmem_fuzzing. */
FZ_RT_HIDDEN int __fz_rt_wants_shm_input(void);

/* Maps the test-case shared memory named by __AFL_SHM_FUZZ_ID.  Returns 0,
 * or an FZ_FS_ERROR_* code.  Async-signal-safe (getenv, shmat). */
FZ_RT_HIDDEN int __fz_rt_input_attach(void);

/* Batches: puts n bytes at p into the test-case shared memory, length word
 * and bytes, as the fuzzer does for a single run (n is cut to
 * FZ_MAX_INPUT; an FZ_BATCH_CUSTOM flag in n is kept in the length word).
 * Nothing without that memory. */
FZ_RT_HIDDEN void __fz_rt_input_set(const uint8_t *p, uint32_t n);

#endif
