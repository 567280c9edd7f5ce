/*
 * sites.h - the crash sites a campaign has seen (include/fz-protocol.h,
 * "Crash sites"): one record per site with the crash file that reproduces
 * it.  A crash is saved when its site is new, whatever its coverage, and
 * never again for a site already here.  Pure bookkeeping: no I/O, so the
 * rules can be unit tested (tests/check_sites.c).
 */
#ifndef FZ_FUZZ_SITES_H
#define FZ_FUZZ_SITES_H

#include <stddef.h>
#include <stdint.h>

#include "core/fsrv.h"

typedef struct fz_site_rec {
    fz_site_t where;   /* hash and frames, as the runtime reported them */
    int signal;        /* what the crash died of */
    char *file;        /* crash file name (in crashes/) that reproduces it */
    int this_run;      /* found by this session, not a resumed one */
    int flaky;         /* the input moved between sites when rerun */
    uint32_t alias_of; /* flaky: index + 1 of the site it was saved under, else 0 */
} fz_site_rec_t;

typedef struct fz_sites {
    fz_site_rec_t *v;
    uint32_t n, cap;
    uint32_t flaky;    /* crashes saved under a flaky site */
} fz_sites_t;

/* The record of hash, or NULL. */
fz_site_rec_t *fz_sites_find(const fz_sites_t *s, uint64_t hash);

/* Adds a site (hash must not be 0 or already there) with its file (copied;
 * NULL for none yet).  Returns the new record, valid until the next add. */
fz_site_rec_t *fz_sites_add(fz_sites_t *s, const fz_site_t *where, int signal, const char *file,
                            int this_run);

/* Sites found by this session (aliases of flaky sites not counted). */
uint32_t fz_sites_new(const fz_sites_t *s);

/* All distinct sites (aliases not counted). */
uint32_t fz_sites_count(const fz_sites_t *s);

/* "SIGABRT at exe+0x25cf < exe+0x2894 < exe+0x24a1" (or, for UBSan,
 * "SIGABRT at file.c:26:24 (UBSan)") into buf. */
void fz_sites_describe(const fz_site_rec_t *r, char *buf, size_t n);

void fz_sites_free(fz_sites_t *s);

#endif
