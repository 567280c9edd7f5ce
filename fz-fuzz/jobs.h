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

#endif
