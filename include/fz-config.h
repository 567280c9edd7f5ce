/*
 * fz-config.h - tunable constants, each with its unit and the reason for its
 * value.  Shared by every part of fz; the runtime and plugins include it too,
 * so keep it free of declarations that need linking.
 */
#ifndef FZ_CONFIG_H
#define FZ_CONFIG_H

/* Largest coverage map fz-fuzz offers a target, in bytes (one byte per edge
 * slot).  The SysV segment is created at this size but only the size the
 * target reports in the handshake is cleared and scanned per run, so a large
 * cap costs address space, not time.  8 MiB is the most AFL++'s legacy
 * handshake can express. */
#define FZ_MAP_SIZE_MAX (8u << 20)

/* Smallest map size a target reports, in bytes; classification works on
 * 64-byte granules, so sizes are rounded up to this. */
#define FZ_MAP_SIZE_MIN 64u

/* Largest test case, in bytes; also the size of the test-case shared memory
 * (plus FZ_SHM_FUZZ_HDR).  1 MiB matches AFL++'s MAX_FILE, so harnesses
 * written for AFL++ size their buffers the same way. */
#define FZ_MAX_INPUT (1u << 20)

/* Priority of the constructor each instrumented module uses to register its
 * edge slots with the runtime.  Low numbers run first; registering before
 * any user constructor means no instrumented code runs with an unregistered
 * map pointer for long (and even then it only counts into the module's own
 * scratch counters). */
#define FZ_CTOR_PRIORITY_REGISTER 1

/* Exit statuses of fz-fuzz (documented in docs/exit-codes.md). */
#define FZ_EXIT_OK 0    /* clean stop, no crash found */
#define FZ_EXIT_ERROR 1 /* usage or set-up error */
#define FZ_EXIT_CRASH 3 /* at least one crash found (or replayed) */
#define FZ_EXIT_HANG 4  /* --replay only: no crash, but a hang */
#define FZ_EXIT_JOB_LOST 5 /* -j: no crash, but an instance died while the others ran on */

#endif
