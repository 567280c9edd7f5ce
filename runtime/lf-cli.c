/*
 * lf-cli.c - libFuzzer's command line for harnesses linked with fz's driver
 * (part of lib/fz/fz-libfuzzer.o; libfuzzer.c calls __fz_lf_main when the
 * harness is run outside a fuzzer with arguments): the flag table (each
 * flag once, with why fz does not honour the ones it does not), the checks
 * libFuzzer makes before it starts, and the dispatch to a mode:
 * reproduction and the corpus run (lf-corpus.c), fuzzing through fz-fuzz
 * (lf-fuzz.c), -merge=1 (lf-merge.c), -minimize_crash=1 and
 * -cleanse_crash=1 (lf-crash.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fz-config.h"
#include "fz-protocol.h"
#include "runtime/lf-cli.h"
#include "runtime/lf-corpus.h"
#include "runtime/lf-crash.h"
#include "runtime/lf-fuzz.h"
#include "runtime/lf-merge.h"
#include "runtime/lf-run.h"
#include "runtime/lf-util.h"

enum lf_kind {
    LF_INT,    /* -name=N, honoured */
    LF_STR,    /* -name=VALUE, honoured */
    LF_IGNORE, /* known to libFuzzer, not honoured here: named on stderr */
    LF_ENV,    /* -name=VALUE: the fz-fuzz environment variable in note, set to VALUE */
};

/* Each flag once: how it is read and, for those fz does not honour, why. */
static const struct lf_flag {
    const char *name;
    enum lf_kind kind;
    size_t off;
    const char *note;
} lf_flags[] = {
#define I(f) #f, LF_INT, offsetof(lf_opts_t, f)
#define S(f) #f, LF_STR, offsetof(lf_opts_t, f)
#define X(f, why) #f, LF_IGNORE, 0, why
    {I(runs), "fz-fuzz -E"},
    {I(max_total_time), "fz-fuzz -V"},
    {I(timeout), "fz-fuzz -t (seconds x 1000); a timeout ends the run with exit 70"},
    {I(seed), "fz-fuzz -s"},
    {I(jobs), "fz-fuzz -j: instances in parallel, no fuzz-N.log files"},
    {I(workers), "fz-fuzz -j"},
    {I(print_final_stats), NULL},
    {I(merge), NULL},
    {I(minimize_crash), NULL},
    {I(error_exitcode), NULL},
    {I(timeout_exitcode), NULL},
    {I(help), NULL},
    {I(max_len), "fz-fuzz -l; longer corpus files are cut to it, as libFuzzer does"},
    {I(rss_limit_mb), "resident memory limit in MB (default 2048; 0: none): oom-<sha1>, exit 71"},
    {I(malloc_limit_mb), "largest single malloc in MB (default: -rss_limit_mb; sanitizer builds)"},
    {I(detect_leaks), "LeakSanitizer builds: a leaking input ends the run with leak-<sha1>"},
    {I(cleanse_crash), "replace the bytes of a crash that do not matter by ' ' or 0xff"},
    {I(fork), "fz-fuzz -j, as -jobs"},
    {I(report_slow_units), "seconds; a slower input is written as slow-unit-<sha1>"},
    {S(merge_control_file), "-merge=1's progress, kept in this file"},
    {S(dict), "fz-fuzz -x"},
    {S(artifact_prefix), NULL},
    {S(exact_artifact_path), NULL},
    {X(close_fd_mask, "the harness's output is already discarded while fuzzing")},
    {X(verbosity, "fz prints one fixed level")},
    {"use_value_profile", LF_ENV, 0, "FZ_VALUE_PROFILE"}, /* fz-fuzz --value-profile */
    {X(reload, "the corpus is read once at start")},
    {X(only_ascii, "fz mutates all bytes")},
    {X(shrink, "fz minimizes new inputs always")},
    {X(reduce_inputs, "fz minimizes new inputs always")},
    {X(entropic, "fz has its own schedule")},
    {X(ignore_crashes, "the run stops at the first crash")},
    {X(ignore_timeouts, "the run stops at the first timeout (with -timeout)")},
    {X(ignore_ooms, "the run stops at the first out-of-memory input")},
    {X(len_control, "fz has its own length rules")},
    {X(mutate_depth, "fz has its own mutation chain")},
    {X(cross_over, "fz splices always")},
    {X(shuffle, "fz orders the corpus itself")},
    {X(prefer_small, "fz orders the corpus itself")},
    {X(use_cmp, "no compare tracing in fz's driver")},
    {X(use_memmem, "no compare tracing in fz's driver")},
    {X(print_pcs, "use fz-showmap")},
    {X(print_coverage, "use fz-showmap")},
    {X(print_corpus_stats, "see fuzzer_stats")},
    {X(max_number_of_runs, "use -runs")},
    {X(dump_coverage, "use fz-showmap")},
    {X(handle_segv, "signals are handled by fz-fuzz")},
    {X(handle_abrt, "signals are handled by fz-fuzz")},
    {X(handle_bus, "signals are handled by fz-fuzz")},
    {X(handle_ill, "signals are handled by fz-fuzz")},
    {X(handle_fpe, "signals are handled by fz-fuzz")},
    {X(handle_int, "signals are handled by fz-fuzz")},
    {X(handle_term, "signals are handled by fz-fuzz")},
    {X(handle_xfsz, "signals are handled by fz-fuzz")},
    {X(handle_usr1, "signals are handled by fz-fuzz")},
    {X(handle_usr2, "signals are handled by fz-fuzz")},
    {X(create_missing_dirs, "give existing directories")},
    {X(features_dir, "no feature files")},
    {X(data_flow_trace, "no data-flow traces")},
    {X(focus_function, "no focus function")},
#undef I
#undef S
#undef X
};

#define N_FLAGS (sizeof lf_flags / sizeof lf_flags[0])


/* ---- Command line ---- */

static int parse_long(const char *s, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (!*s || *end || errno)
        return -1;
    *out = v;
    return 0;
}

/* One "-name=value" argument; returns 0, or -1 after printing why. */
static int parse_flag(lf_opts_t *o, const char *arg)
{
    const char *eq = strchr(arg, '=');
    size_t n = eq ? (size_t)(eq - arg - 1) : strlen(arg + 1);
    for (size_t i = 0; i < N_FLAGS; i++) {
        const struct lf_flag *f = &lf_flags[i];
        if (strlen(f->name) != n || strncmp(f->name, arg + 1, n) != 0)
            continue;
        if (!eq) {
            fprintf(stderr, "ERROR: libFuzzer flags take a value: -%s=VALUE, not '%s'\n",
                    f->name, arg);
            return -1;
        }
        if (f->kind == LF_IGNORE || (f->note && strncmp(f->note, "not honoured", 12) == 0)) {
            fprintf(stderr, "WARNING: fz's driver ignores '%s': %s\n", arg,
                    f->kind == LF_IGNORE ? f->note : f->note + 14);
            return 0;
        }
        if (f->kind == LF_ENV) {
            setenv(f->note, eq + 1, 1); /* fz-fuzz, run by the driver, inherits it */
            return 0;
        }
        if (f->kind == LF_STR) {
            *(const char **)((char *)o + f->off) = eq + 1;
            return 0;
        }
        if (parse_long(eq + 1, (long *)((char *)o + f->off)) != 0) {
            fprintf(stderr, "ERROR: -%s expects a whole number, not '%s'\n", f->name, eq + 1);
            return -1;
        }
        return 0;
    }
    fprintf(stderr, "WARNING: unrecognized flag '%s'; ignored (fz's driver takes libFuzzer's "
                    "flags; see docs/libfuzzer.md)\n", arg);
    return 0;
}

/* Returns 0, or an exit status after printing why. */
int __fz_lf_parse_args(lf_opts_t *o, int argc, char **argv)
{
    memset(o, 0, sizeof *o);
    o->runs = -1;
    o->rss_limit_mb = 2048;
    o->detect_leaks = 1;
    o->report_slow_units = 10;
    o->error_exitcode = 77;   /* libFuzzer's defaults */
    o->timeout_exitcode = 70;
    o->artifact_prefix = "./";
    o->dirs = calloc((size_t)argc, sizeof *o->dirs);
    o->files = calloc((size_t)argc, sizeof *o->files);
    if (!o->dirs || !o->files)
        return 1;
    int dashdash = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] == '-' && a[1] == '-') { /* as libFuzzer: "--" and "--x" are no flags */
            if (!dashdash++)
                fprintf(stderr, "INFO: libFuzzer ignores flags that start with '--'\n");
        } else if (a[0] == '-' && a[1]) {
            if (parse_flag(o, a) != 0)
                return 1;
        } else if (__fz_lf_is_dir(a) || a[strlen(a) - 1] == '/') {
            /* "corpus/" names a directory even before it exists: say so */
            o->dirs[o->n_dirs++] = argv[i];
        } else {
            o->files[o->n_files++] = argv[i];
        }
    }
    /* Numbers libFuzzer takes as sizes or counts: a negative one is a
     * mistake, not a request (-max_len=-1 would ask for 2^64 bytes). */
    static const struct {
        const char *name;
        size_t off;
        long min;
    } checks[] = {
        {"max_len", offsetof(lf_opts_t, max_len), 0},
        {"runs", offsetof(lf_opts_t, runs), -1},
        {"max_total_time", offsetof(lf_opts_t, max_total_time), 0},
        {"timeout", offsetof(lf_opts_t, timeout), 0},
        {"rss_limit_mb", offsetof(lf_opts_t, rss_limit_mb), 0},
        {"malloc_limit_mb", offsetof(lf_opts_t, malloc_limit_mb), 0},
        {"jobs", offsetof(lf_opts_t, jobs), 0},
        {"workers", offsetof(lf_opts_t, workers), 0},
        {"fork", offsetof(lf_opts_t, fork), 0},
    };
    for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++) {
        long v = *(long *)((char *)o + checks[i].off);
        if (v < checks[i].min) {
            fprintf(stderr, "ERROR: -%s=%ld: give a number of %ld or more\n", checks[i].name, v,
                    checks[i].min);
            return 1;
        }
    }
    if (o->max_len > FZ_MAX_INPUT) {
        fprintf(stderr, "ERROR: -max_len=%ld: fz's inputs are at most %u bytes\n", o->max_len,
                FZ_MAX_INPUT);
        return 1;
    }
    return 0;
}

void __fz_lf_usage(void)
{
    fprintf(stderr, "Usage: ./harness [-flag=val ...] [CORPUS_DIR ...] [FILE ...]\n"
                    "fz's libFuzzer-compatible driver: directories are fuzzed with fz-fuzz (new "
                    "inputs go to the first),\nfiles are run once.  Flags:\n");
    for (size_t i = 0; i < N_FLAGS; i++)
        if (lf_flags[i].kind != LF_IGNORE)
            fprintf(stderr, "  -%-20s %s\n", lf_flags[i].name,
                    lf_flags[i].note ? lf_flags[i].note : "as libFuzzer");
    fprintf(stderr, "Other libFuzzer flags are named on stderr and ignored.\n");
}

int __fz_lf_driver;

/* The directory part of an artifact path ("" for none) must exist, as
 * libFuzzer requires; returns 0 or 1 after saying so. */
static int check_artifact_dir(const char *path)
{
    const char *slash = path ? strrchr(path, '/') : NULL;
    if (!slash || slash == path)
        return 0;
    char *dir = strndup(path, (size_t)(slash - path + 1));
    int ok = dir && __fz_lf_is_dir(dir);
    if (!ok)
        fprintf(stderr, "ERROR: The required directory \"%s\" does not exist\n", dir ? dir : path);
    free(dir);
    return !ok;
}

static int dispatch(lf_opts_t *o, int *argc, char ***argv) LF_FRAME(8, Dispatch);
static int dispatch(lf_opts_t *o, int *argc, char ***argv)
{
    if (o->help) {
        __fz_lf_usage();
        return 0;
    }
    if (check_artifact_dir(o->artifact_prefix) || check_artifact_dir(o->exact_artifact_path))
        return 1;
    if (o->merge) {
        /* Every path names a directory: a missing one is named as such. */
        for (int i = 0; i < o->n_files; i++) {
            if (access(o->files[i], F_OK) == 0)
                fprintf(stderr, "ERROR: -merge=1 takes directories, and '%s' is a file: "
                                "-merge=1 OUT_DIR IN_DIR...\n", o->files[i]);
            else
                fprintf(stderr, "No such file or directory: %s; exiting (-merge=1 takes "
                                "directories: -merge=1 OUT_DIR IN_DIR...)\n", o->files[i]);
            return 1;
        }
    }
    if (o->minimize_crash) {
        __fz_lf_driver = 1; /* fz-tmin runs the harness, not this process */
        return __fz_lf_minimize_crash(o);
    }
    if (!o->n_dirs && o->n_files && !o->merge) {
        /* Reproduce mode (or -cleanse_crash=1): the fuzzing flags do not
         * apply, and say so. */
        if (o->max_total_time || o->jobs || o->workers || o->fork || o->dict)
            fprintf(stderr, "INFO: running the given files only: -max_total_time, -jobs, "
                            "-workers, -fork and -dict do not apply\n");
        __fz_lf_init(argc, argv);
        __fz_lf_setup(o, o->cleanse_crash != 0);
        if (o->cleanse_crash)
            return __fz_lf_cleanse_crash(o);
        return __fz_lf_reproduce(o, (*argv)[0]);
    }
    /* The process's own leak check at exit would report the driver's
     * bookkeeping: inputs are checked one by one instead (lf-run.c). */
    __fz_lf_driver = 1;
    __fz_lf_init(argc, argv);
    __fz_lf_setup(o, 1);
    if (o->merge)
        return __fz_lf_merge(o);
    if (o->n_files)
        fprintf(stderr, "WARNING: fuzzing the directories; the files given (%s, ...) are not "
                        "run (give them alone to reproduce)\n", o->files[0]);
    return __fz_lf_fuzz(o);
}

int __fz_lf_main(int argc, char **argv)
{
    lf_opts_t o;
    int rc = __fz_lf_parse_args(&o, argc, argv);
    if (!rc)
        rc = dispatch(&o, &argc, &argv);
    free(o.dirs);
    free(o.files);
    return rc;
}
