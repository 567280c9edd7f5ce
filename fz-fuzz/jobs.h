/*
 * jobs.h - `fz-fuzz -j N`: one command runs a campaign of N instances over
 * one -o directory.
 *
 * The process the user started becomes the coordinator: it forks one
 * instance per job (a -M "main" and -S "sec1".."secN-1", so the directory
 * keeps AFL++'s layout and afl-whatsup / afl-fuzz peers work on it), binds
 * each to its own free CPU, draws one status screen for all of them, passes
 * SIGINT/SIGTERM on, and turns their exit statuses into the campaign's.
 *
 * Finds travel directly: the coordinator maps one shared segment before
 * forking, holding a slot per instance (its counters, for the screen) and a
 * ring of recent finds (queue name and bytes).  An instance adds each queue
 * entry it saves to the ring; the others take it from there between two
 * queue turns, well within a second, instead of waiting for the next
 * directory sync.  The queue files are still written and the .synced
 * cursors still kept, so a restart, a ring overrun or an afl-fuzz peer falls
 * back on the directory sync and nothing is lost or run twice.
 */
#ifndef FZ_FUZZ_JOBS_H
#define FZ_FUZZ_JOBS_H

#include <stdint.h>

#include "fz-fuzz/jobs-types.h"

struct fz_state;

/* The campaign function: what one instance runs (campaign.h's
 * fz_campaign_run). */
typedef int (*fz_jobs_campaign_fn)(struct fz_state *st, int argc, char **argv);

/* Runs the -j campaign in st->cfg and returns its exit status: FZ_EXIT_CRASH
 * if an instance saved a crash, FZ_EXIT_JOB_LOST if one died while others
 * ran on, FZ_EXIT_ERROR if all of them failed, FZ_EXIT_OK otherwise. */
int fz_jobs_run(struct fz_state *st, int argc, char **argv, fz_jobs_campaign_fn campaign);

/* Instance side.  fz_jobs_publish copies the counters into this instance's
 * slot (called with the status clock, cheap: at most every
 * JOBS_PUBLISH_MS unless force, as for the final counters); fz_jobs_share puts a new
 * queue entry into the ring; fz_jobs_take runs the finds of the others
 * that this instance has not seen (called between queue turns by sync). */
void fz_jobs_publish(struct fz_state *st, int force);
void fz_jobs_share(struct fz_state *st, const char *name, uint32_t id, const uint8_t *buf,
                   uint32_t len);
void fz_jobs_take(struct fz_state *st);

/* 1 if another instance published a find this one has not taken yet
 * (one shared load; the havoc stage ends its turn early for it). */
int fz_jobs_pending(const struct fz_state *st);

#endif
