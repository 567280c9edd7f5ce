/*
 * cmplog.h - the fuzzer's side of the comparison log (include/fz-cmplog.h):
 * the SysV segment the target's compare hooks write into, and the two
 * calls that bracket a logging run.
 *
 * Who does what: fz-fuzz creates the segment (fz_cmplog_create) and hands
 * its id to the forkserver client (fz_fsrv_cfg_t.cmplog / cmplog_shm_id),
 * which puts it in the target's environment and records whether the
 * target's handshake carried FZ_FS_NEW_OPT_FZ_CMPLOG (fz_fsrv_t.cmplog).
 * Around exactly one run the caller does
 *     fz_cmplog_begin(&c); fz_fsrv_run(...); fz_cmplog_end(&c);
 * and then reads c.log.  Every other run leaves the log alone, so it stays
 * readable until the next fz_cmplog_begin.
 */
#ifndef FZ_CORE_CMPLOG_H
#define FZ_CORE_CMPLOG_H

#include <stddef.h>

#include "fz-cmplog.h"

typedef struct {
    int id;           /* SysV id of the segment, -1 if none */
    fz_cmplog_t *log; /* the attached segment, NULL if none */
} fz_cmplog_shm_t;

/* Creates and attaches the segment (about 18 MiB, zero pages until the
 * target touches them) and marks it for removal at once, as shm.c does
 * for the map.  Returns 0, or -1 with a one-line reason in err. */
int fz_cmplog_create(fz_cmplog_shm_t *c, char *err, size_t errlen);

/* Detaches; safe on a zeroed or failed struct. */
void fz_cmplog_destroy(fz_cmplog_shm_t *c);

/* Before a logging run: empties the log (zeroes the pools' counts; the
 * blocks and the slot table stay, read as stale) and turns logging on. */
void fz_cmplog_begin(fz_cmplog_shm_t *c);

/* After it: turns logging off again. */
void fz_cmplog_end(fz_cmplog_shm_t *c);

#endif
