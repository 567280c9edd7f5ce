/*
 * fz-tmin.c - fz-tmin: minimize one input file, keeping its crash (same
 * signal) or, when it does not crash, every coverage bit it reaches.  The
 * work is done by minimize.c; this file parses options and reports.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fz-config.h"
#include "core/coverage.h"
#include "core/exec.h"
#include "core/fileio.h"
#include "core/minimize.h"
#include "core/opts.h"
#include "fz-log.h"
#include "fz-version.h"

const char *fz_log_prog = "fz-tmin";

static void usage(void)
{
    fprintf(
        stderr,
        "usage: fz-tmin -i IN -o OUT [-F] [-t MS] [-m MB] [-x] [-E N] [-q] -- ./target [args, @@]\n"
        "  shrinks IN keeping its crash (same signal; -x: any crash) or, if it does not\n"
        "  crash, its coverage; writes the result to OUT, which must not exist\n"
        "  (-F: overwrite it, even when it is IN; a symlink is always refused)\n"
        "  -t MS  per-run timeout (1000)   -m MB  memory limit   -E N  at most N runs\n"
        "exit: 0 done, 1 error\n");
    exit(FZ_EXIT_ERROR);
}

/* Dies with a message for a forkserver failure, after cleaning up. */
static void die_exec(fz_exec_t *x)
{
    char msg[FZ_FSRV_ERRLEN];
    memcpy(msg, fz_exec_errmsg(x), sizeof msg);
    fz_exec_stop(x);
    fz_die("%s", msg);
}

/* A candidate keeps the crash only if it crashes at the same site (the
 * same bug), when the first run had one. */
static int same_site(void *ctx, const fz_exec_rec_t *rec)
{
    return rec->site == *(const uint64_t *)ctx;
}

/* Decides what to keep from one run of the original input; site receives
 * the crash site to keep (0: none known). */
static void choose_mode(fz_exec_t *x, fz_min_cfg_t *mc, uint8_t *want, const char *in,
                        const uint8_t *buf, size_t len, int any_crash, uint64_t *site)
{
    fz_exec_rec_t rec;
    fz_run_result_t r = fz_exec_run(x, buf, len, 0, &rec);
    if (r == FZ_RUN_ERROR)
        die_exec(x);
    if (r == FZ_RUN_HANG) {
        fz_exec_stop(x);
        fz_die("'%s' makes the target time out; raise -t or minimize a crash instead", in);
    }
    if (r == FZ_RUN_CRASH) {
        mc->mode = FZ_MIN_CRASH;
        mc->crash_signal = any_crash ? 0 : rec.signal;
        if (!any_crash && rec.site) {
            *site = rec.site;
            mc->accept = same_site;
            mc->accept_ctx = site;
        }
        return;
    }
    mc->mode = FZ_MIN_COVERAGE;
    memcpy(want, rec.map, rec.map_size);
    mc->want_bits = want;
}

typedef struct {
    const char *in, *out;
    int any_crash, quiet, force;
    uint64_t max_execs;
} tmin_opts_t;

static int tmin_opt(int c, const char *arg, void *ctx)
{
    tmin_opts_t *o = ctx;
    switch (c) {
    case 'i':
        o->in = arg;
        break;
    case 'o':
        o->out = arg;
        break;
    case 'x':
        o->any_crash = 1;
        break;
    case 'E':
        o->max_execs = fz_opt_u32(arg, "-E", 1, 4000000000u);
        break;
    case 'q':
        o->quiet = 1;
        break;
    case 'F':
        o->force = 1;
        break;
    default:
        return 0;
    }
    return 1;
}

int main(int argc, char **argv)
{
    fz_version_check(argc, argv, "fz-tmin");
    fz_fsrv_cfg_t cfg;
    fz_fsrv_cfg_init(&cfg);
    tmin_opts_t o = {0};
    int at = fz_opt_parse(argc, argv, "+i:o:t:m:xE:qFh", &cfg, tmin_opt, &o);
    if (at < 0 || !o.in || !o.out)
        usage();
    cfg.argv = argv + at;
    const char *in = o.in, *out = o.out;
    int any_crash = o.any_crash, quiet = o.quiet, force = o.force;
    uint64_t max_execs = o.max_execs;
    char err[512] = "";
    if (fz_file_out_check(out, in, force, err, sizeof err))
        fz_die("%s", err);

    size_t len;
    uint8_t *buf = fz_file_read(in, 0, 0, &len);
    if (!buf)
        fz_die("cannot read '%s': %m", in);
    if (len == 0)
        fz_die("'%s' is empty: there is nothing to minimize", in);
    if (len > FZ_MAX_INPUT)
        fz_die("'%s' is %zu bytes, over the %u-byte input limit; cut it down first", in, len,
               FZ_MAX_INPUT);

    fz_exec_t x;
    if (fz_exec_start(&x, &cfg, 0, err, sizeof err))
        fz_die("%s", err);
    uint8_t *want = calloc(1, x.map_size ? x.map_size : 1);
    uint8_t *res = malloc(len);
    if (!want || !res)
        fz_die("out of memory");
    fz_min_cfg_t mc = {.max_execs = max_execs};
    uint64_t site = 0;
    choose_mode(&x, &mc, want, in, buf, len, any_crash, &site);

    size_t res_len;
    fz_min_stats_t st;
    fz_min_result_t mr = fz_minimize(&x, &mc, buf, len, res, &res_len, &st);
    if (mr == FZ_MIN_ERROR)
        die_exec(&x);
    if (mr == FZ_MIN_NOT_REPRODUCED) {
        fz_exec_stop(&x);
        fz_die("'%s' %s on the first run but not on the second: the target is flaky (it "
               "depends on time, randomness or state); make it deterministic first",
               in, mc.mode == FZ_MIN_CRASH ? "crashed" : "gave some coverage");
    }
    if (fz_file_write_atomic(out, res, res_len, 0644))
        fz_die("cannot write '%s': %m", out);
    if (!quiet)
        fz_info("%s: %zu -> %zu bytes in %llu executions (kept %s%s)", out, len, res_len,
                (unsigned long long)st.execs + 1, mc.mode == FZ_MIN_COVERAGE ? "coverage" : "crash",
                mc.mode != FZ_MIN_CRASH ? ""
                : site                  ? ", same crash site"
                : mc.crash_signal       ? ", same signal"
                                        : "");
    if (st.flaky && !quiet)
        fz_warn("the target did not reproduce every time; the result may not be minimal");
    fz_exec_stop(&x);
    free(buf);
    free(res);
    free(want);
    return 0;
}
