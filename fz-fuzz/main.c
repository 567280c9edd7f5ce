/*
 * main.c - fz-fuzz's entry point: parse the options, set up the output
 * directory and the target, calibrate the seeds, run the loop, report.
 * The work happens in the modules; this file only sequences them.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fz-config.h"
#include "fz-fuzz/calibrate.h"
#include "fz-fuzz/crashinfo.h"
#include "fz-fuzz/jobs.h"
#include "core/coverage.h"
#include "fz-fuzz/dictfile.h"
#include "fz-fuzz/fuzz.h"
#include "fz-fuzz/replay.h"
#include "fz-fuzz/state.h"
#include "fz-fuzz/status.h"
#include "fz-fuzz/resume.h"
#include "fz-fuzz/sync.h"
#include "fz-log.h"
#include "fz-version.h"

const char *fz_log_prog = "fz-fuzz";

/* Crashes whose report's first lines the end of a run prints. */
#define FZ_REPORT_CRASHES 10

/* Set by SIGINT/SIGTERM/SIGHUP; the loop polls it between runs. */
static volatile sig_atomic_t stop_requested;

static void on_stop_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

static void install_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_stop_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, NULL);
}

/* Fail early, with the fix, when the target cannot even be started. */
static void check_target(const fz_cfg_t *cfg)
{
    const char *t = cfg->target_argv[0];
    char *path = fz_fsrv_find_program(t);
    if (!path)
        fz_die("target '%s' not found; check the path%s", t,
               strchr(t, '/') ? "" : " (a program in the current directory needs ./)");
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || access(path, X_OK) != 0)
        fz_die("target '%s' is not an executable file; build it (with fz-cc) or chmod +x it", path);
    free(path);
}

static void fsrv_config(const fz_cfg_t *cfg, fz_fsrv_cfg_t *f)
{
    fz_fsrv_cfg_init(f);
    f->argv = cfg->target_argv;
    f->input_path = cfg->input_file;
    f->timeout_ms = cfg->timeout_ms ? cfg->timeout_ms : FZ_TIMEOUT_CALIB_MS;
    f->mem_limit_mb = (uint32_t)cfg->mem_mb;
    f->blind = cfg->blind;
    f->debug_child = cfg->debug_child;
}

/* argv joined with spaces, single-quoting words that need it. */
static char *join_command(int argc, char **argv)
{
    size_t n = 1;
    for (int i = 0; i < argc; i++)
        n += strlen(argv[i]) * 4 + 3;
    char *s = malloc(n), *p = s;
    if (!s)
        fz_die("out of memory");
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int quote = !a[0] || strpbrk(a, " \t\n'\"\\$`*?;&|<>(){}") != NULL;
        if (i)
            *p++ = ' ';
        if (quote)
            *p++ = '\'';
        for (; *a; a++) {
            if (quote && *a == '\'') {
                memcpy(p, "'\\''", 4);
                p += 4;
            } else {
                *p++ = *a;
            }
        }
        if (quote)
            *p++ = '\'';
    }
    *p = 0;
    return s;
}

extern char **environ;

/* cmdline (the target command, one word per line, as AFL++ writes it) and
 * fuzzer_setup (our FZ_ / AFL_ environment and the whole command line). */
static void write_setup_files(fz_state_t *st)
{
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    if (!buf)
        fz_die("out of memory");
    for (int i = 0; i < st->cfg.target_argc; i++) {
        size_t need = strlen(st->cfg.target_argv[i]) + 2;
        if (len + need > cap && !(buf = realloc(buf, cap = (len + need) * 2)))
            fz_die("out of memory");
        len += (size_t)sprintf(buf + len, "%s\n", st->cfg.target_argv[i]);
    }
    fz_outdir_save(&st->out, "", "cmdline", buf, len);
    len = 0;
    const char *head = "# environment variables:\n";
    len += (size_t)snprintf(buf, cap, "%s", head);
    for (char **e = environ; *e; e++) {
        if (strncmp(*e, "FZ_", 3) != 0 && strncmp(*e, "AFL_", 4) != 0)
            continue;
        size_t need = strlen(*e) + 2;
        if (len + need > cap && !(buf = realloc(buf, cap = (len + need) * 2)))
            fz_die("out of memory");
        len += (size_t)sprintf(buf + len, "%s\n", *e);
    }
    size_t need = strlen(st->command_line) + 32;
    if (len + need > cap && !(buf = realloc(buf, cap = (len + need) * 2)))
        fz_die("out of memory");
    len += (size_t)sprintf(buf + len, "# command line:\n%s\n", st->command_line);
    fz_outdir_save(&st->out, "", "fuzzer_setup", buf, len);
    free(buf);
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
    fsrv_config(&st->cfg, &fcfg);
    char err[512];
    if (fz_exec_start(&st->exec, &fcfg, FZ_EXEC_VIRGIN, err, sizeof(err)) != 0)
        fz_die("%s", err);
    size_t m = st->exec.map_size;
    st->calib.first = xalloc_map(m);
    st->calib.var_map = xalloc_map(m);
    st->calib.edges = malloc((m ? m : 1) * sizeof(uint32_t));
    st->min_buf = malloc(FZ_MAX_INPUT);
    if (!st->calib.edges || !st->min_buf)
        fz_die("out of memory");
}

static void free_exec(fz_state_t *st)
{
    fz_exec_stop(&st->exec);
    free(st->calib.first);
    free(st->calib.var_map);
    free(st->calib.edges);
    free(st->min_buf);
}

/* Open the output directory; when resuming, replace the seeds (already
 * read from -i, if given) with the earlier campaign's queue. */
static void load_inputs(fz_state_t *st, fz_files_t *seeds)
{
    int from_queue = strcmp(st->cfg.in_dir, "-") == 0;
    fz_outdir_open(&st->out, st->cfg.out_root, st->cfg.name, st->cfg.resume);
    if (from_queue && !st->out.resumed)
        fz_die("nothing to resume in '%s' (no queue entries); start a campaign with -i DIR",
               st->out.dir);
    if (st->out.resumed) {
        if (!from_queue)
            fz_files_free(seeds);
        char *q = malloc(strlen(st->out.dir) + 8);
        if (!q)
            fz_die("out of memory");
        sprintf(q, "%s/queue", st->out.dir);
        fz_files_load(seeds, q, "queue of the resumed campaign", FZ_MAX_INPUT, FZ_FILES_KEEP_EMPTY);
        free(q);
        fz_info("resuming the campaign in '%s' (%u queue entries)", st->out.dir, seeds->n);
        fz_resume_load_stats(st);
    }
    st->next_queue_id = fz_outdir_next_id(&st->out, "queue");
    st->next_crash_id = fz_outdir_next_id(&st->out, "crashes");
    st->next_hang_id = fz_outdir_next_id(&st->out, "hangs");
    st->stats.saved_crashes = st->next_crash_id;
    st->stats.saved_hangs = st->next_hang_id;
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
 * (the coordinator of -j prints those of all its instances instead). */
static void report_crashes(fz_state_t *st, uint32_t from_id)
{
    if (st->jobs.shared)
        return;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/crashes", st->out.dir);
    fz_crashinfo_dir(&st->cfg, dir, from_id, FZ_REPORT_CRASHES);
}

static int run_campaign(fz_state_t *st, int argc, char **argv)
{
    fz_files_t seeds;
    memset(&seeds, 0, sizeof(seeds));
    st->command_line = join_command(argc, argv);
    st->stop = &stop_requested;
    /* Seeds and the target are checked before the output directory is
     * touched, so a mistake there leaves nothing behind. */
    if (strcmp(st->cfg.in_dir, "-") != 0)
        fz_files_load(&seeds, st->cfg.in_dir, "seed directory", FZ_MAX_INPUT, FZ_FILES_SKIP_BIG);
    fz_dict_init(&st->dict);
    char err[512];
    for (int i = 0; i < st->cfg.n_dicts; i++)
        if (fz_dictfile_load(&st->dict, st->cfg.dict_files[i], err, sizeof(err)) < 0)
            fz_die("%s", err);
    if (st->cfg.n_dicts)
        fz_info("dictionary: %zu tokens from %d -x option(s)", st->dict.count, st->cfg.n_dicts);
    setup_exec(st);
    load_inputs(st, &seeds);
    st->stats.start_ms = fz_now_ms();
    if (!st->cfg.seed_given)
        st->cfg.seed = pick_seed();
    fz_rng_seed(&st->rng, st->cfg.seed);
    fz_queue_init(&st->queue, st->exec.map_size);
    fz_status_init(st);
    /* Nothing is written until every seed has passed: a seed that hangs
     * (or all crashing) must not leave a campaign that a rerun with the
     * same -o is refused for. */
    if (fz_calibrate_seeds(st, &seeds) < 0) {
        fz_status_restore(st);
        printf("fz-fuzz: stopped by a signal while checking the seeds; nothing was written to "
               "%s\n",
               st->out.dir);
        return FZ_EXIT_OK;
    }
    fz_calibrate_save_seeds(st);
    write_setup_files(st);
    if (st->out.resumed)
        fz_stats_plot_resume(st);
    st->ui.files_ready = 1;
    uint32_t still = st->out.resumed ? fz_resume_known_crashes(st) : 0;
    fz_files_free(&seeds);
    uint64_t crashes_before = st->stats.saved_crashes;
    st->stats.crashes_at_start = crashes_before;
    fz_stats_write(st);
    fz_stats_plot(st);
    fz_sync_init(st); /* -M / -S only; the first sync is the loop's first step */

    fz_fuzz_loop(st);

    fz_status_final(st, stop_requested            ? "stopped by a signal"
                        : fz_fuzz_found_crash(st) ? "stopped at the first crash (--until-crash)"
                                                  : "done");
    st->jobs.last_pub = 0;
    fz_jobs_publish(st); /* -j: the final counters */
    int found = st->stats.saved_crashes > crashes_before;
    if (found) {
        printf("fz-fuzz: %llu crash(es) saved in %s/crashes (see README.txt there to "
               "reproduce)\n",
               (unsigned long long)(st->stats.saved_crashes - crashes_before), st->out.dir);
        report_crashes(st, (uint32_t)crashes_before);
    }
    if (still)
        printf("fz-fuzz: %u crash(es) saved by the earlier run still crash (exit 3 until they "
               "are fixed; fz-fuzz --replay %s/crashes lists them)\n",
               still, st->out.dir);
    found |= still > 0;
    free_exec(st);
    fz_sync_free(&st->sync);
    fz_queue_free(&st->queue);
    fz_dict_free(&st->dict);
    fz_stats_free(&st->stats);
    fz_outdir_close(&st->out);
    free((char *)st->command_line);
    return found ? FZ_EXIT_CRASH : FZ_EXIT_OK;
}

int main(int argc, char **argv)
{
    static fz_state_t st; /* large; static only to keep it off the stack */
    char err[512];
    fz_version_check(argc, argv, "fz-fuzz");
    switch (fz_options_parse(&st.cfg, argc, argv, err, sizeof(err))) {
    case FZ_OPTIONS_HELP:
        fz_options_usage(stdout, "fz-fuzz");
        return FZ_EXIT_OK;
    case FZ_OPTIONS_BAD:
        fz_die("%s", err);
    default:
        break;
    }
    check_target(&st.cfg);
    install_signals();
    if (st.cfg.replay_dir) {
        fz_fsrv_cfg_t fcfg;
        fsrv_config(&st.cfg, &fcfg);
        return fz_replay(&st.cfg, &fcfg);
    }
    st.stop = &stop_requested;
    if (st.cfg.jobs_given)
        return fz_jobs_run(&st, argc, argv, run_campaign);
    return run_campaign(&st, argc, argv);
}
