/*
 * campaign.h - one campaign (one fz-fuzz instance) from start to end, as
 * main.c (or, with -j, each instance jobs.c forks) calls it.
 */
#ifndef FZ_FUZZ_CAMPAIGN_H
#define FZ_FUZZ_CAMPAIGN_H

#include "core/fsrv.h"
#include "fz-fuzz/options.h"

struct fz_state;

/* Runs the campaign st->cfg describes (st->stop: the stop signals' flag):
 * seeds, target, output directory, calibration, the loop, the report.
 * Returns the exit status, FZ_EXIT_CRASH when this run saved a crash or a
 * resumed campaign's saved crashes still crash, else FZ_EXIT_OK; an error
 * ends in fz_die, which still flushes the stats, stops the target and
 * exits 3 when crashes were saved (fz_log_on_die).  argv: the whole
 * command line, for fuzzer_setup. */
int fz_campaign_run(struct fz_state *st, int argc, char **argv);

/* The forkserver's configuration from the options (the campaign's, and
 * --replay's). */
void fz_campaign_fsrv_config(const fz_cfg_t *cfg, fz_fsrv_cfg_t *f);

#endif
