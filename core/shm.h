/*
 * shm.h - the SysV shared memory fz-fuzz and its tools share with a target:
 * the coverage map (created at FZ_MAP_SIZE_MAX bytes), the diagnostics page
 * (fz_diag_t, include/fz-protocol.h), the direct-mode control page
 * (fz_ctl_t) and, optionally, the test-case segment
 * (FZ_SHM_FUZZ_HDR length word + FZ_MAX_INPUT bytes) and the two segments
 * of batches (include/fz-protocol.h, "Batches": the inputs, and the
 * fuzzer's virgin map, which the target reads).
 *
 * Each segment is marked for removal (IPC_RMID) right after we attach it.
 * Linux still lets the target attach it by id while we hold it, and the
 * kernel frees it when the last process detaches, so a fuzzer killed with
 * SIGKILL leaks no segment.
 */
#ifndef FZ_SHM_H
#define FZ_SHM_H

#include <stddef.h>
#include <stdint.h>

#include "fz-protocol.h"

typedef struct {
    int map_id;       /* SysV id of the coverage map, -1 if none */
    uint8_t *map;     /* FZ_MAP_SIZE_MAX bytes, 8-byte aligned */
    size_t map_alloc; /* bytes allocated for map (FZ_MAP_SIZE_MAX) */
    int fuzz_id;      /* SysV id of the test-case segment, -1 if none */
    uint8_t *fuzz;    /* u32 length then the bytes; NULL if none */
    int diag_id;      /* SysV id of the diagnostics page, -1 if none */
    fz_diag_t *diag;  /* what the runtime noticed; NULL if none */
    int ctl_id;       /* SysV id of the direct-mode control page, -1 if none */
    fz_ctl_t *ctl;    /* direct mode's per-run words; NULL if none */
    int batch_id;     /* SysV id of the batch inputs, -1 if none */
    fz_batch_t *batch; /* NULL if none */
    int virgin_id;    /* SysV id of the shared virgin map, -1 if none */
    uint8_t *virgin;  /* FZ_MAP_SIZE_MAX bytes, zero-filled when created; NULL if none */
} fz_shm_t;

/* Creates and attaches the coverage map, and the test-case segment when
 * with_fuzz is non-zero.  Returns 0, or -1 with a one-line reason in err. */
int fz_shm_create(fz_shm_t *shm, int with_fuzz, char *err, size_t errlen);

/* Creates the batch segment and the shared virgin map (zero-filled: the
 * user sets the bytes it uses to 0xff).  Returns 0 or -1 with err. */
int fz_shm_add_batch(fz_shm_t *shm, char *err, size_t errlen);

/* Detaches every segment; safe on a zeroed or half-created struct. */
void fz_shm_destroy(fz_shm_t *shm);

#endif
