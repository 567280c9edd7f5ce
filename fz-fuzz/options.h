/*
 * options.h - fz-fuzz's configuration: the command line and the FZ_* / AFL_*
 * environment variables, parsed from one table into fz_cfg_t.  Nothing here
 * touches the file system or the target; main.c and campaign.c check what
 * the values name.
 */
#ifndef FZ_FUZZ_OPTIONS_H
#define FZ_FUZZ_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

/* The characters an instance name (-M/-S NAME) may hold: it becomes a
 * directory name and a field of other instances' file names ("sync:NAME,"),
 * so no '/', ',' or ':'. */
#define FZ_NAME_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-."

/* AFL++ options fz does not honour that one command line may carry (one
 * warning line each; more are folded into the last). */
#define FZ_MAX_AFL_NOTES 16

/* Most -x options one run takes (AFL++ allows 4; more is cheap). */
#define FZ_MAX_DICTS 16

/* Everything the user chose.  Read-only once fz_options_parse() returns. */
typedef struct fz_cfg {
    const char *in_dir;   /* -i: seed directory; "-" means resume */
    const char *out_root; /* -o: output directory (holds one dir per instance) */
    const char *name;     /* -M/-S: instance name, "default" otherwise */
    int is_main;          /* -M given */
    int is_secondary;     /* -S given (neither: a lone instance that never syncs) */
    uint32_t jobs;        /* -j N: instances of this campaign (0: one per free core) */
    int jobs_given;       /* -j given (the coordinator runs; jobs.h) */
    int unbound;          /* -j: this instance got no free core; run unbound */
    uint32_t sync_secs;   /* FZ_SYNC_SECS (or AFL_SYNC_TIME x 60): seconds between syncs */
    uint32_t timeout_ms;  /* -t: per-run timeout; 0 = from calibration */
    uint32_t hang_ms;     /* FZ_HANG_TMOUT / AFL_HANG_TMOUT: a hang is confirmed with
                             this timeout; 0 = FZ_HANG_CONFIRM_MS or the timeout */
    uint64_t mem_mb;      /* -m: target memory limit; 0 = none */
    uint64_t max_secs;    /* -V: stop after this many seconds; 0 = never */
    uint64_t max_execs;   /* -E: stop after this many executions; 0 = never */
    uint32_t max_len;     /* -l / --max-len: largest input made; 0 = from the seeds */
    int det_on;           /* -D: deterministic stages on every entry's first turn */
    int det_off;          /* -d: no deterministic stages */
    uint64_t seed;        /* -s: RNG seed */
    int seed_given;       /* -s given: the run must be reproducible */
    const char *dict_files[FZ_MAX_DICTS]; /* -x (repeatable): dictionaries, merged */
    int n_dicts;
    const char *input_file; /* -f: where the input is written for the target */
    int quiet;              /* -q (or FZ_NO_UI / AFL_NO_UI): no status screen */
    int blind;              /* -n: target has no instrumentation */
    int resume;             /* -i - or FZ_AUTORESUME / AFL_AUTORESUME */
    int debug_child;        /* FZ_DEBUG_CHILD / AFL_DEBUG_CHILD: keep target output */
    int until_crash;        /* --until-crash, FZ_BENCH_UNTIL_CRASH / AFL_BENCH_UNTIL_CRASH:
                               stop at the first crash saved */
    int no_trim;            /* FZ_DISABLE_TRIM / AFL_DISABLE_TRIM (or AFL_NO_TRIM): no
                               first-turn trim, fz's nor a custom mutator's */
    int value_profile;      /* --value-profile, FZ_VALUE_PROFILE=1: comparison distances
                               as coverage (include/fz-cmplog.h) */
    const char *replay_dir; /* --replay DIR: run each file once and report */
    const char *cmplog_bin; /* -c: afl-fuzz's CmpLog binary; "0" = the target itself, which
                               is all fz uses (fz-fuzz/i2s.c says what it does with others) */
    const char *artifact_prefix; /* --artifact-prefix P: crashes also as Pcrash-<sha1> */
    int schedule;           /* -p: FZ_SCHED_* (fz-fuzz/queue.h); 0 = fz's default */
    const char *schedule_name; /* -p as given, NULL without -p */
    int input_text;         /* -a text (or ascii): mutations lean to printable bytes */
    uint32_t afl_map_size;  /* AFL_MAP_SIZE: map of a target that reports no size; 0 = 64 KiB */
    const char *afl_flags[FZ_MAX_AFL_NOTES]; /* AFL++ options given that fz does not */
    const char *afl_notes[FZ_MAX_AFL_NOTES]; /* honour, and why: a line each for main.c */
    int n_afl_notes;
    char **target_argv;     /* the target and its arguments (NULL-terminated) */
    int target_argc;
} fz_cfg_t;

enum fz_options_result {
    FZ_OPTIONS_OK = 0,   /* cfg is filled in and checked for consistency */
    FZ_OPTIONS_HELP = 1, /* -h: the caller prints fz_options_usage() and exits 0 */
    FZ_OPTIONS_BAD = -1  /* err holds a one-line message naming the cause and the fix */
};

/* Parse argv (and the environment) into cfg.  Never exits and never prints,
 * so tests can call it repeatedly. */
int fz_options_parse(fz_cfg_t *cfg, int argc, char **argv, char *err, size_t errlen);

/* Print the usage text, generated from the option table, to f. */
void fz_options_usage(void *f, const char *prog);

#endif
