/*
 * campaign.c - one campaign (one fz-fuzz instance) from start to end
 * (campaign.h): seeds, dictionary and custom mutators, the target, the
 * output directory, the seeds' calibration, the first files, the loop,
 * the report and the exit status; and what must still happen when an
 * error ends it.  The work happens in the modules; this file only
 * sequences them.
 */
#define _GNU_SOURCE
#include "fz-fuzz/campaign.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fz-cmplog.h"
#include "fz-config.h"
#include "fz-fuzz/calibrate.h"
#include "fz-fuzz/cmdline.h"
#include "fz-fuzz/crashinfo.h"
#include "fz-fuzz/custom.h"
#include "fz-fuzz/dictfile.h"
#include "fz-fuzz/fuzz.h"
#include "fz-fuzz/lfmut.h"
#include "fz-fuzz/resume.h"
#include "fz-fuzz/run.h"
#include "fz-fuzz/state.h"
#include "fz-fuzz/status.h"
#include "fz-fuzz/triage.h"
#include "fz-log.h"

/* Crashes whose report's first lines the end of a run prints. */
#define FZ_REPORT_CRASHES 10

/* 3 when this run saved a crash, or a resumed campaign's saved crashes
 * still crash: CI reads the status, whatever ended the run. */
static int crash_status(const fz_state_t *st)
{
    return st->stats.saved_crashes > st->stats.crashes_at_start || st->crashes_still > 0;
}

/* fz_die can end a run from any module; what must still happen then
 * (fz_campaign_run registers this with the state as ctx, fz_log_on_die). */
static void on_die(void *ctx)
{
    fz_state_t *st = ctx;
    fz_status_restore(st); /* the cursor comes back even on an error */
    if (st->ui.files_ready && fz_stats_try_write(st) == 0)
        fz_stats_try_plot(st);
    if (st->calib.first)         /* the target was started */
        fz_exec_stop(&st->exec); /* its processes and temp file */
    if (!crash_status(st))
        return;
    fprintf(stderr,
            "fz-fuzz: %llu crash(es) in %s/crashes (exit status 3; see README.txt there to "
            "reproduce)\n",
            (unsigned long long)(st->stats.saved_crashes - st->stats.crashes_at_start +
                                 st->crashes_still),
            st->out.dir);
    fflush(stdout);
    exit(FZ_EXIT_CRASH);
}

void fz_campaign_fsrv_config(const fz_cfg_t *cfg, fz_fsrv_cfg_t *f)
{
    fz_fsrv_cfg_init(f);
    f->argv = cfg->target_argv;
    f->input_path = cfg->input_file;
    f->timeout_ms = cfg->timeout_ms ? cfg->timeout_ms : FZ_TIMEOUT_CALIB_MS;
    f->mem_limit_mb = (uint32_t)cfg->mem_mb;
    f->blind = cfg->blind;
    f->debug_child = cfg->debug_child;
    if (cfg->unbound)
        f->no_affinity = 1;
    f->legacy_map_size = cfg->afl_map_size;
}

static uint8_t *xalloc_map(size_t n)
{
    /* Coverage functions read 64-bit words: keep maps 8-byte aligned. */
    uint8_t *p = NULL;
    if (posix_memalign((void **)&p, 64, n ? n : 64) != 0)
        fz_die("out of memory (%zu bytes for a coverage map)", n);
    memset(p, 0, n ? n : 64);
    return p;
}

static void setup_exec(fz_state_t *st)
{
    fz_fsrv_cfg_t fcfg;
    fz_campaign_fsrv_config(&st->cfg, &fcfg);
    fz_i2s_setup(&st->i2s, &st->cfg, &fcfg);
    /* Value profile: the target's runtime reads this (include/fz-cmplog.h). */
    if (st->cfg.value_profile && !st->cfg.blind) {
        setenv(FZ_ENV_VALUE_PROFILE, "1", 1);
        fz_info("value profile: on (comparison distances count as coverage)");
    } else {
        unsetenv(FZ_ENV_VALUE_PROFILE);
    }
    char err[512];
    if (fz_exec_start(&st->exec, &fcfg, FZ_EXEC_VIRGIN, err, sizeof(err)) != 0)
        fz_die("%s", err);
    fz_i2s_started(&st->i2s, fz_exec_info(&st->exec).cmplog);
    fz_diag_modules(st); /* uninstrumented shared libraries: said once, at start-up */
    size_t m = st->exec.map_size;
    st->calib.first = xalloc_map(m);
    st->calib.var_map = xalloc_map(m);
    st->calib.edges = malloc((m ? m : 1) * sizeof(uint32_t));
    st->min_buf = malloc(FZ_MAX_INPUT);
    st->batch.origin = malloc(FZ_BATCH_MAX * sizeof(fz_origin_t));
    st->batch.size = 1; /* grows once a batch has been timed (fuzz.c) */
    if (!st->calib.edges || !st->min_buf || !st->batch.origin)
        fz_die("out of memory");
}

static void free_exec(fz_state_t *st)
{
    fz_exec_stop(&st->exec);
    free(st->calib.first);
    free(st->calib.var_map);
    free(st->calib.edges);
    free(st->min_buf);
    free(st->batch.origin);
}

/* -f inside queue/, crashes/ or hangs/ of the campaign: fz-fuzz reads
 * those, and a leftover input file (kill -9) would come back as a queue
 * entry or a crash.  (Elsewhere in -o, as AFL++'s .cur_input, is fine.) */
static void check_input_file(const fz_state_t *st)
{
    const char *f = st->cfg.input_file;
    if (!f)
        return;
    char dir[4096], *real_dir, *real_out = realpath(st->out.dir, NULL);
    snprintf(dir, sizeof dir, "%s", f);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else
        slash[slash == dir] = 0;
    real_dir = realpath(dir, NULL);
    static const char *const sub[] = {"queue", "crashes", "hangs"};
    for (size_t i = 0; real_dir && real_out && i < sizeof sub / sizeof sub[0]; i++) {
        char in[4200];
        int n = snprintf(in, sizeof in, "%s/%s", real_out, sub[i]);
        if (!strncmp(real_dir, in, (size_t)n) && (!real_dir[n] || real_dir[n] == '/'))
            fz_die("-f '%s' is inside the campaign's %s/, which fz-fuzz reads: a leftover input "
                   "would come back as an entry; put it outside %s/%s (e.g. in /tmp)",
                   f, sub[i], st->out.dir, sub[i]);
    }
    free(real_dir);
    free(real_out);
}

/* The other instances in -o (directories with a queue/: a -j or -M / -S
 * campaign), listed in out; 0 when there is none. */
static int other_instances(const fz_state_t *st, char *out, size_t n)
{
    DIR *d = opendir(st->cfg.out_root);
    int found = 0;
    size_t used = 0;
    out[0] = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        if (e->d_name[0] == '.' || !strcmp(e->d_name, st->cfg.name))
            continue;
        char q[4096];
        struct stat sb;
        snprintf(q, sizeof q, "%s/queue", e->d_name);
        if (fstatat(dirfd(d), q, &sb, AT_SYMLINK_NOFOLLOW) || !S_ISDIR(sb.st_mode))
            continue;
        if (used + strlen(e->d_name) + 8 < n)
            used += (size_t)snprintf(out + used, n - used, "%s'%s'", found ? ", " : "", e->d_name);
        found++;
    }
    if (d)
        closedir(d);
    return found;
}

/* Open the output directory; when resuming, replace the seeds (already
 * read from -i, if given) with the earlier campaign's queue. */
static void load_inputs(fz_state_t *st, fz_files_t *seeds)
{
    int from_queue = strcmp(st->cfg.in_dir, "-") == 0;
    fz_outdir_open(&st->out, st->cfg.out_root, st->cfg.name, st->cfg.resume);
    if (from_queue && !st->out.resumed) {
        char others[512];
        if (other_instances(st, others, sizeof others))
            fz_die("nothing to resume in '%s' (no queue entries), but '%s' holds the instances "
                   "%s: resume them with the -j N (or -M / -S names) they ran with",
                   st->out.dir, st->cfg.out_root, others);
        fz_die("nothing to resume in '%s' (no queue entries); start a campaign with -i DIR",
               st->out.dir);
    }
    check_input_file(st);
    if (st->out.resumed) {
        fz_cmdline_check_resume(st);
        if (!from_queue) {
            fz_warn("resuming (FZ_AUTORESUME): the %u seed(s) in '%s' are not used; the "
                    "campaign goes on from its own queue (to add them, run a -S instance on "
                    "them, or copy them into %s/queue first)",
                    seeds->n, st->cfg.in_dir, st->out.dir);
            fz_files_free(seeds);
        }
        char *q = malloc(strlen(st->out.dir) + 8);
        if (!q)
            fz_die("out of memory");
        sprintf(q, "%s/queue", st->out.dir);
        fz_files_load(seeds, q, "queue of the resumed campaign", FZ_MAX_INPUT,
                      FZ_FILES_KEEP_EMPTY | FZ_FILES_NO_LINKS);
        free(q);
        fz_info("resuming the campaign in '%s' (%u queue entries)", st->out.dir, seeds->n);
        fz_resume_load_stats(st);
    }
    st->next_queue_id = fz_outdir_next_id(&st->out, "queue");
    st->next_crash_id = fz_outdir_next_id(&st->out, "crashes");
    st->next_hang_id = fz_outdir_next_id(&st->out, "hangs");
    st->stats.saved_crashes = st->next_crash_id;
    st->stats.saved_hangs = st->next_hang_id;
    st->stats.crashes_at_start = st->stats.crashes_written = st->stats.saved_crashes;
}

/* The campaign's first files: the seeds, cmdline, fuzzer_setup, the first
 * fuzzer_stats and plot_data.  A fresh campaign is all or nothing: if one
 * write fails (a full disk), what was written is removed again, so no
 * campaign with only part of the seeds is left for a resume to go on
 * without the rest; the same command works once there is space. */
static void save_start_files(fz_state_t *st)
{
    const char *failed = "queue";
    int rc = fz_calibrate_save_seeds(st);
    if (!rc)
        rc = fz_cmdline_write(st, &failed);
    if (!rc) {
        failed = "fuzzer_stats";
        rc = fz_stats_try_write(st);
    }
    if (!rc) {
        failed = "plot_data";
        rc = fz_stats_try_plot(st);
    }
    if (!rc)
        return;
    char msg[1024];
    if (st->out.resumed) {
        fz_outdir_describe(&st->out, "", failed, rc, msg, sizeof msg);
        fz_die("%s", msg);
    }
    fz_calibrate_unsave_seeds(st);
    static const char *const top[] = {"cmdline", "fuzzer_setup", "fuzzer_stats", "plot_data"};
    for (size_t i = 0; i < sizeof top / sizeof top[0]; i++)
        fz_outdir_remove(&st->out, "", top[i]);
    fz_outdir_describe(&st->out, strcmp(failed, "queue") ? "" : "queue",
                       strcmp(failed, "queue") ? failed : "", rc, msg, sizeof msg);
    if (rc == -ENOSPC || rc == -EDQUOT)
        fz_die("disk full while saving the campaign's first files in '%s' (%s); nothing of it "
               "was kept (the seeds written were removed again): free some space and run the "
               "same command again",
               st->out.dir, failed);
    fz_die("%s (nothing of the campaign was kept)", msg);
}

static uint64_t pick_seed(void)
{
    uint64_t s = 0;
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0 || read(fd, &s, sizeof(s)) != (ssize_t)sizeof(s))
        s = (uint64_t)fz_now_ms() ^ ((uint64_t)getpid() << 32);
    if (fd >= 0)
        close(fd);
    return s;
}

/* The first lines of each new crash's report, for the log of a CI run
 * (the coordinator of -j prints those of all its instances instead): with
 * its site's line and command for a crash with a site, on its own for
 * the others (no fz runtime, the program's own handler). */
static void report_crashes(fz_state_t *st, uint32_t from_id)
{
    fz_triage_t t;
    fz_run_triage(st, &t);
    if (st->jobs.shared) {
        fz_triage_summary(&t, 0);
        return;
    }
    fz_triage_summary(&t, FZ_REPORT_CRASHES);
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/crashes", st->out.dir);
    fz_crashinfo_dir(&st->cfg, dir, from_id, FZ_REPORT_CRASHES, fz_triage_summarized, &t);
}

int fz_campaign_run(fz_state_t *st, int argc, char **argv)
{
    fz_files_t seeds;
    memset(&seeds, 0, sizeof(seeds));
    st->command_line = fz_cmdline_join(argc, argv);
    fz_log_on_die(on_die, st);
    /* Seeds and the target are checked before the output directory is
     * touched, so a mistake there leaves nothing behind. */
    if (strcmp(st->cfg.in_dir, "-") != 0)
        fz_files_load(&seeds, st->cfg.in_dir, "seed directory", FZ_MAX_INPUT, FZ_FILES_SKIP_BIG);
    fz_dict_init(&st->dict);
    char err[4400];
    if (fz_crashinfo_artifact_check(&st->cfg, err, sizeof err))
        fz_die("%s", err);
    for (int i = 0; i < st->cfg.n_dicts; i++)
        if (fz_dictfile_load(&st->dict, st->cfg.dict_files[i], err, sizeof(err)) < 0)
            fz_die("%s", err);
    if (st->cfg.n_dicts)
        fz_info("dictionary: %zu tokens from %d -x option(s)", st->dict.count, st->cfg.n_dicts);
    if (!st->cfg.seed_given)
        st->cfg.seed = pick_seed();
    fz_rng_seed(&st->rng, st->cfg.seed);
    fz_custom_load(st); /* AFL_CUSTOM_MUTATOR_LIBRARY: before anything is started or written */
    setup_exec(st);
    fz_custom_started(st);
    fz_lfmut_setup(st);
    load_inputs(st, &seeds);
    st->stats.start_ms = fz_now_ms();
    fz_queue_init(&st->queue, st->exec.map_size);
    st->queue.schedule = st->cfg.schedule; /* -p */
    fz_status_init(st);
    /* Nothing is written until every seed has passed: a seed that hangs
     * (or all crashing) must not leave a campaign that a rerun with the
     * same -o is refused for. */
    if (fz_calibrate_seeds(st, &seeds) < 0) {
        fz_log_on_die(NULL, NULL);
        fz_status_restore(st);
        printf("fz-fuzz: stopped by a signal while checking the seeds; nothing was written to "
               "%s\n",
               st->out.dir);
        free_exec(st); /* the target and its temp file go too */
        fz_outdir_close(&st->out);
        return FZ_EXIT_OK;
    }
    if (st->out.resumed)
        fz_stats_plot_resume(st);
    /* Saved crashes are re-run before anything is written: on a disk
     * still full, the run ends with the exit status they give (3). */
    if (st->out.resumed)
        fz_resume_known_crashes(st);
    save_start_files(st);
    st->ui.files_ready = 1;
    fz_files_free(&seeds);
    fz_sync_init(st); /* -M / -S only; the first sync is the loop's first step */

    fz_fuzz_loop(st);

    fz_status_final(st, *st->stop                ? "stopped by a signal"
                        : fz_run_found_crash(st) ? "stopped at the first crash (--until-crash)"
                                                 : "done");
    fz_jobs_publish(st, 1); /* -j: the final counters */
    int found = crash_status(st);
    uint64_t before = st->stats.crashes_at_start;
    if (st->stats.saved_crashes > before) {
        printf("fz-fuzz: %llu crash(es) saved in %s/crashes (see README.txt there to "
               "reproduce)\n",
               (unsigned long long)(st->stats.saved_crashes - before), st->out.dir);
        report_crashes(st, (uint32_t)before);
    }
    if (st->crashes_still)
        printf("fz-fuzz: %u crash(es) saved by the earlier run still crash (exit 3 until they "
               "are fixed; fz-fuzz --replay %s/crashes lists them)\n",
               st->crashes_still, st->out.dir);
    fz_log_on_die(NULL, NULL);
    fz_custom_unload(st);
    free_exec(st);
    fz_i2s_free(&st->i2s);
    free(st->diag.libs_warning);
    fz_sync_free(&st->sync);
    fz_queue_free(&st->queue);
    fz_sites_free(&st->sites);
    fz_dict_free(&st->dict);
    fz_stats_free(&st->stats);
    fz_outdir_close(&st->out);
    free((char *)st->command_line);
    return found ? FZ_EXIT_CRASH : FZ_EXIT_OK;
}
