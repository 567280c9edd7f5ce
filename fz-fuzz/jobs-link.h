/*
 * jobs-link.h - an instance's side of a -j campaign (jobs.h): the link
 * (st->jobs, jobs-types.h) to the segment the coordinator shares.  Below
 * the status screen and run.c, which publish counters and share finds;
 * taking the others' finds is sync.c's (it judges them).
 */
#ifndef FZ_FUZZ_JOBS_LINK_H
#define FZ_FUZZ_JOBS_LINK_H

#include <stdint.h>

#include "fz-fuzz/jobs-types.h"

struct fz_state;

/* fz_jobs_publish copies the counters into this instance's slot (called
 * with the status clock, cheap: at most every JOBS_PUBLISH_MS unless
 * force, as for the final counters); fz_jobs_share puts a new queue entry
 * into the ring, where sync.c's take of the other instances finds it
 * (between queue turns). */
void fz_jobs_publish(struct fz_state *st, int force);
void fz_jobs_share(struct fz_state *st, const char *name, uint32_t id, const uint8_t *buf,
                   uint32_t len);

/* 1 if another instance published a find this one has not taken yet
 * (one shared load; the havoc stage ends its turn early for it). */
int fz_jobs_pending(const struct fz_state *st);

#endif
