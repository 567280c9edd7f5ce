/*
 * replay.c - run each file of a directory once through the forkserver and
 * report every crash and hang by file name (stdout, one line each), then a
 * summary.  Files are run in name order so the report is stable.
 */
#include "replay.h"

#include <stdio.h>

#include "fz-config.h"
#include "fz-fuzz/crashinfo.h"
#include "fz-fuzz/outdir.h"
#include "fz-fuzz/run-again.h"
#include "fz-log.h"

/* Crashes whose report's first lines are printed (each costs a run
 * outside the forkserver). */
#define FZ_REPLAY_REPORTS 20

/* An error ends --replay with the target's processes stopped. */
static void stop_target(void *x)
{
    fz_exec_stop(x);
}

int fz_replay(const fz_cfg_t *cfg, const fz_fsrv_cfg_t *fcfg)
{
    fz_files_t files;
    fz_files_load(&files, cfg->replay_dir, "replay directory", FZ_MAX_INPUT,
                  FZ_FILES_MAY_BE_EMPTY | FZ_FILES_KEEP_EMPTY);
    /* Nothing to replay is a wrong path far more often than a fixed
     * program: a CI job must not pass on it. */
    if (!files.n)
        fz_die("--replay: '%s' holds no input files; check the path (crashes are in "
               "OUT/default/crashes)",
               cfg->replay_dir);
    fz_exec_t x;
    char err[512];
    if (fz_exec_start(&x, fcfg, 0, err, sizeof(err)) != 0)
        fz_die("%s", err);
    fz_log_on_die(stop_target, &x);
    uint32_t crashes = 0, hangs = 0;
    for (uint32_t i = 0; i < files.n; i++) {
        const fz_file_t *f = &files.f[i];
        fz_exec_rec_t rec;
        fz_run_result_t r = fz_run_kept(&x, f->data, f->len, 0, &rec);
        if (r == FZ_RUN_ERROR && rec.signal) {
            /* It made the target kill its forkserver (run-again.h): a crash that
             * still reproduces (fz-fuzz saved it as sig:NN); the others run
             * on the new forkserver. */
            crashes++;
            printf("crash: %s/%s (it made the target kill its forkserver, signal %d)\n",
                   cfg->replay_dir, f->name, rec.signal);
            continue;
        }
        if (r == FZ_RUN_ERROR)
            fz_die("the target stopped answering on '%s/%s': %s", cfg->replay_dir, f->name,
                   fz_exec_errmsg(&x));
        if (r == FZ_RUN_CRASH) {
            crashes++;
            printf("crash: %s/%s (signal %d)\n", cfg->replay_dir, f->name, rec.signal);
            if (crashes <= FZ_REPLAY_REPORTS) {
                char path[8192];
                snprintf(path, sizeof path, "%s/%s", cfg->replay_dir, f->name);
                fz_crashinfo_print(cfg, path);
            }
        } else if (r == FZ_RUN_HANG) {
            hangs++;
            printf("hang: %s/%s (no exit within %u ms)\n", cfg->replay_dir, f->name,
                   rec.timeout_ms);
        }
    }
    printf("replayed %u files: %u crashed, %u hung, %u ok\n", files.n, crashes, hangs,
           files.n - crashes - hangs);
    fflush(stdout);
    fz_log_on_die(NULL, NULL);
    fz_exec_stop(&x);
    fz_files_free(&files);
    return crashes ? FZ_EXIT_CRASH : hangs ? FZ_EXIT_HANG : FZ_EXIT_OK;
}
