/*
 * main.c - fz-fuzz's entry point: parse the options, check the target,
 * catch the stop signals, and call in: --replay (replay.c), -j (jobs.c)
 * or one campaign (campaign.c), which sequences the modules.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fz-config.h"
#include "fz-fuzz/aflenv.h"
#include "fz-fuzz/campaign.h"
#include "fz-fuzz/jobs.h"
#include "fz-fuzz/replay.h"
#include "fz-fuzz/state.h"
#include "fz-log.h"
#include "fz-version.h"

const char *fz_log_prog = "fz-fuzz";

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

extern char **environ;

static void warn_line(void *ctx, const char *line)
{
    (void)ctx;
    fz_warn("%s", line);
}

/* One line for each AFL++ option and AFL_* variable given that fz does not
 * honour, and each misspelled name (aflenv.h); once, before -j forks. */
static void say_not_honoured(const fz_cfg_t *cfg)
{
    for (int i = 0; i < cfg->n_afl_notes; i++)
        fz_warn("option %s: %s", cfg->afl_flags[i], cfg->afl_notes[i]);
    fz_aflenv_scan(environ, warn_line, NULL);
    if (cfg->schedule_name)
        fz_info("power schedule: %s (-p)", cfg->schedule_name);
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
    say_not_honoured(&st.cfg);
    install_signals();
    if (st.cfg.replay_dir) {
        fz_fsrv_cfg_t fcfg;
        fz_campaign_fsrv_config(&st.cfg, &fcfg);
        return fz_replay(&st.cfg, &fcfg);
    }
    st.stop = &stop_requested;
    if (st.cfg.jobs_given)
        return fz_jobs_run(&st, argc, argv, fz_campaign_run);
    return fz_campaign_run(&st, argc, argv);
}
