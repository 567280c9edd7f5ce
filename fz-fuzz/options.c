/*
 * options.c - the option table and its parser.  Each option is one row that
 * pairs the flag with its help text and says where its value goes, so the
 * parser, the -h text and docs/options.md cannot drift apart.
 */
#include "options.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fz-config.h"
#include "fz-fuzz/schedule.h"
#include "fz-fuzz/sync-types.h"
#include "core/opts.h"

/* How a row stores its value. */
enum opt_kind {
    OPT_STR,     /* const char * */
    OPT_U32,     /* uint32_t, decimal */
    OPT_U64,     /* uint64_t, decimal */
    OPT_FLAG,    /* int set to 1, no argument */
    OPT_LIST,    /* -x: appended to dict_files */
    OPT_NAME,    /* -M/-S: instance name plus is_main */
    OPT_HELP,    /* -h */
    OPT_VERSION, /* --version: answered by main before parsing (fz-version.h); listed for -h */
    OPT_SCHED,   /* -p NAME: power schedule */
    OPT_FORMAT,  /* -a text|binary: input format hint */
    OPT_AFL,     /* an afl-fuzz option fz does not honour: noted, not an error (help: why) */
};

struct opt {
    const char *flag; /* "-i" or "--replay" */
    const char *arg;  /* argument name in the help, NULL for none */
    enum opt_kind kind;
    size_t off; /* where the value goes in fz_cfg_t */
    const char *help;
};

#define AT(field) offsetof(fz_cfg_t, field)

static const struct opt opt_table[] = {
    {"-i", "DIR", OPT_STR, AT(in_dir), "seed inputs; '-' resumes the campaign already in -o"},
    {"-o", "DIR", OPT_STR, AT(out_root), "output directory (queue, crashes, hangs, stats)"},
    {"-t", "MS", OPT_U32, AT(timeout_ms),
     "per-run timeout in ms (default: 5x the slowest seed, 100..1000)"},
    {"-m", "MB", OPT_U64, AT(mem_mb), "memory limit of the target in MiB (default: none)"},
    {"-V", "SECONDS", OPT_U64, AT(max_secs), "stop after this many seconds"},
    {"-E", "N", OPT_U64, AT(max_execs), "stop after N executions of the target"},
    {"-s", "SEED", OPT_U64, AT(seed),
     "seed of the random generator (same seed, same -E: same queue)"},
    {"-l", "N", OPT_U32, AT(max_len),
     "largest input to make, in bytes (default: the largest seed, at least 4096, growing "
     "while finds stall)"},
    {"--max-len", "N", OPT_U32, AT(max_len), "the same as -l N"},
    {"-D", NULL, OPT_FLAG, AT(det_on),
     "deterministic stages (bit flips, +-1, byte sweep) on each entry's first turn"},
    {"-d", NULL, OPT_FLAG, AT(det_off), "no deterministic stages: havoc only"},
    {"-x", "FILE", OPT_LIST, AT(dict_files),
     "dictionary in AFL's format, or a directory of token files; repeatable (merged)"},
    {"-M", "NAME", OPT_NAME, AT(name),
     "main instance NAME of a parallel run in one -o (syncs with all)"},
    {"-S", "NAME", OPT_NAME, AT(name), "secondary instance NAME (syncs from the main; havoc only)"},
    {"-j", "N", OPT_U32, AT(jobs),
     "run N instances sharing -o (a main and N-1 secondaries, one per core); 0: every free core"},
    {"-f", "FILE", OPT_STR, AT(input_file), "write each input to FILE (instead of a private file)"},
    {"-q", NULL, OPT_FLAG, AT(quiet), "no status screen: one log line every few seconds"},
    {"-n", NULL, OPT_FLAG, AT(blind), "blind mode: target not built with fz-cc / afl-cc"},
    {"-c", "BINARY", OPT_STR, AT(cmplog_bin),
     "afl-fuzz's CmpLog build: fz logs compares in the target itself, so -c 0 is all it "
     "needs; another BINARY is not run (AFL++'s CmpLog log is not read; docs/cmplog.md)"},
    {"--value-profile", NULL, OPT_FLAG, AT(value_profile),
     "comparison distances as coverage (libFuzzer's -use_value_profile=1; FZ_VALUE_PROFILE=1)"},
    {"--until-crash", NULL, OPT_FLAG, AT(until_crash),
     "stop at the first crash saved (exit 3), e.g. with -V as a CI gate"},
    {"--artifact-prefix", "P", OPT_STR, AT(artifact_prefix),
     "also write each crash as Pcrash-<sha1> (hang: Ptimeout-<sha1>): CI-safe names, no ':'"},
    {"--replay", "DIR", OPT_STR, AT(replay_dir),
     "run every file in DIR once; exit 3 if one crashes, 4 if one hangs"},
    {"-p", "SCHEDULE", OPT_SCHED, 0,
     "power schedule: fast (the default), explore, exploit, coe, lin, quad, mmopt, rare, "
     "seek (docs/options.md says what each means in fz)"},
    {"-a", "TYPE", OPT_FORMAT, 0,
     "input format: text (mutations lean to printable bytes) or binary (the default)"},
    {"-G", "N", OPT_U32, AT(max_len), "afl-fuzz's name for -l N"},
    {"-z", NULL, OPT_FLAG, AT(det_off), "afl-fuzz's name for -d (no deterministic stages)"},
    {"-Z", NULL, OPT_AFL, 0, "afl-fuzz's sequential queue: fz's walk is always sequential"},
    {"-L", "MINUTES", OPT_AFL, 0,
     "afl-fuzz's MOpt mode: not honoured; fz's havoc stage and -p schedules apply"},
    {"-P", "STRATEGY", OPT_AFL, 0, "afl-fuzz's explore/exploit switch: not honoured; see -p"},
    {"-g", "N", OPT_AFL, 0, "afl-fuzz's minimum input length: not honoured"},
    {"-F", "DIR", OPT_AFL, 0,
     "afl-fuzz's foreign sync directory: not honoured; run the other fuzzer as a -S peer in -o"},
    {"-T", "TEXT", OPT_AFL, 0, "afl-fuzz's banner: not honoured"},
    {"-I", "COMMAND", OPT_AFL, 0,
     "afl-fuzz's command on a new crash: not honoured; watch crashes/ or use --until-crash"},
    {"-C", NULL, OPT_AFL, 0, "afl-fuzz's crash exploration mode: not honoured"},
    {"-N", NULL, OPT_AFL, 0, "afl-fuzz's keep-the-input-file: not honoured"},
    {"-b", "CPU", OPT_AFL, 0,
     "afl-fuzz's CPU binding: not honoured; fz binds to a free core itself (taskset -c CPU "
     "fz-fuzz ... pins it)"},
    {"-e", "EXT", OPT_AFL, 0, "afl-fuzz's input file extension: not honoured; use -f FILE.EXT"},
    {"-O", NULL, OPT_AFL, 0, "afl-fuzz's FRIDA mode: not honoured; build the target with fz-cc"},
    {"-Q", NULL, OPT_AFL, 0, "afl-fuzz's QEMU mode: not honoured; build the target with fz-cc"},
    {"-U", NULL, OPT_AFL, 0, "afl-fuzz's Unicorn mode: not honoured"},
    {"-W", NULL, OPT_AFL, 0, "afl-fuzz's Wine mode: not honoured"},
    {"-X", NULL, OPT_AFL, 0, "afl-fuzz's Nyx mode: not honoured"},
    {"-Y", NULL, OPT_AFL, 0, "afl-fuzz's Nyx mode: not honoured"},
    {"-A", NULL, OPT_AFL, 0, "afl-fuzz's CoreSight mode: not honoured"},
    {"--version", NULL, OPT_VERSION, 0, "print fz-fuzz's version and exit"},
    {"-h", NULL, OPT_HELP, 0, "this help"},
};

#define N_OPTS (sizeof(opt_table) / sizeof(opt_table[0]))

__attribute__((format(printf, 3, 4))) static int bad(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return FZ_OPTIONS_BAD;
}

/* Why an explicit 0 is refused for an option, or NULL where 0 is fine.
 * A 0 usually comes from an empty or unset CI variable: taken as "no
 * limit" it would make a job that never ends. */
static const char *zero_refused(size_t off)
{
    if (off == AT(max_secs))
        return "a time limit of 0 would be no limit at all; give a positive number of seconds, "
               "or leave -V out to run until stopped";
    if (off == AT(max_len))
        return "no input could be made; give the largest input length in bytes, or leave -l "
               "out to derive it from the seeds";
    if (off == AT(max_execs))
        return "a budget of 0 runs would be no limit at all; give a positive number, or leave "
               "-E out to run until stopped";
    if (off == AT(timeout_ms))
        return "a run needs some time; give at least 5 ms, or leave -t out for the default";
    return NULL;
}

static int parse_u64(const char *s, uint64_t max, uint64_t *out)
{
    char *end;
    if (!s[0] || s[0] == '-')
        return -1;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v > max)
        return -1;
    *out = v;
    return 0;
}

static const struct opt *find_opt(const char *arg)
{
    for (size_t i = 0; i < N_OPTS; i++) {
        size_t n = strlen(opt_table[i].flag);
        if (strncmp(arg, opt_table[i].flag, n) != 0)
            continue;
        /* Short options take their value glued on ("-t500") as getopt does. */
        if (arg[n] == 0 || (n == 2 && opt_table[i].arg))
            return &opt_table[i];
    }
    return NULL;
}

/* -p names, in FZ_SCHED_* order (fz-fuzz/queue.h). */
static const char *const sched_names[FZ_SCHED_COUNT] = {
    [FZ_SCHED_FAST] = "fast",   [FZ_SCHED_EXPLORE] = "explore", [FZ_SCHED_EXPLOIT] = "exploit",
    [FZ_SCHED_COE] = "coe",     [FZ_SCHED_LIN] = "lin",         [FZ_SCHED_QUAD] = "quad",
    [FZ_SCHED_MMOPT] = "mmopt", [FZ_SCHED_RARE] = "rare",       [FZ_SCHED_SEEK] = "seek",
};

static void note_afl(fz_cfg_t *cfg, const char *flag, const char *line)
{
    if (cfg->n_afl_notes == FZ_MAX_AFL_NOTES)
        return;
    cfg->afl_flags[cfg->n_afl_notes] = flag;
    cfg->afl_notes[cfg->n_afl_notes++] = line;
}

/* Store one option's value; returns FZ_OPTIONS_OK, _HELP or _BAD. */
static int apply(fz_cfg_t *cfg, const struct opt *o, const char *val, char *err, size_t errlen)
{
    char *base = (char *)cfg;
    uint64_t v;
    switch (o->kind) {
    case OPT_STR:
        if (!val[0])
            return bad(err, errlen, "%s needs a non-empty %s", o->flag, o->arg);
        *(const char **)(base + o->off) = val;
        return FZ_OPTIONS_OK;
    case OPT_U32:
    case OPT_U64:
        if (o->off == AT(max_len) && strcmp(o->flag, "-l") == 0 && strpbrk(val, "ATXR") &&
            strspn(val, "123ATXR") == strlen(val)) {
            /* afl-fuzz's -l is CmpLog's level ("2AT"); fz's is the length. */
            note_afl(cfg, "-l", "afl-fuzz's CmpLog level (-l 2AT): not honoured; fz's "
                                "input-to-state stage has no levels, and fz's -l N is the "
                                "largest input length");
            return FZ_OPTIONS_OK;
        }
        if (parse_u64(val, o->kind == OPT_U32 ? UINT32_MAX : UINT64_MAX, &v) != 0)
            return bad(err, errlen, "%s expects a whole number (%s), not '%s'", o->flag, o->arg,
                       val);
        if (v == 0 && zero_refused(o->off))
            return bad(err, errlen, "%s 0: %s", o->flag, zero_refused(o->off));
        if (o->kind == OPT_U32)
            *(uint32_t *)(base + o->off) = (uint32_t)v;
        else
            *(uint64_t *)(base + o->off) = v;
        if (o->off == AT(seed))
            cfg->seed_given = 1;
        if (o->off == AT(jobs))
            cfg->jobs_given = 1;
        return FZ_OPTIONS_OK;
    case OPT_FLAG:
        *(int *)(base + o->off) = 1;
        return FZ_OPTIONS_OK;
    case OPT_LIST:
        if (!val[0])
            return bad(err, errlen, "%s needs a non-empty %s", o->flag, o->arg);
        if (cfg->n_dicts == FZ_MAX_DICTS)
            return bad(err, errlen, "more than %d %s options; merge some dictionaries",
                       FZ_MAX_DICTS, o->flag);
        cfg->dict_files[cfg->n_dicts++] = val;
        return FZ_OPTIONS_OK;
    case OPT_NAME:
        if (strspn(val, FZ_NAME_CHARS) != strlen(val) || val[0] == '.' || !val[0])
            return bad(err, errlen,
                       "%s NAME may hold only letters, digits, '_', '-' and '.', and may not "
                       "start with '.' (a hidden directory): '%s'",
                       o->flag, val);
        if (strlen(val) > FZ_SYNC_PEER_MAX)
            return bad(err, errlen, "%s NAME is longer than %d characters; use a shorter one",
                       o->flag, FZ_SYNC_PEER_MAX);
        if (cfg->is_main || cfg->is_secondary)
            return bad(err, errlen, "%s %s: give only one of -M NAME / -S NAME per instance",
                       o->flag, val);
        cfg->name = val;
        cfg->is_main = strcmp(o->flag, "-M") == 0;
        cfg->is_secondary = !cfg->is_main;
        return FZ_OPTIONS_OK;
    case OPT_SCHED:
        for (int k = 0; k < FZ_SCHED_COUNT; k++)
            if (sched_names[k] && strcmp(val, sched_names[k]) == 0) {
                cfg->schedule = k;
                cfg->schedule_name = sched_names[k];
                return FZ_OPTIONS_OK;
            }
        return bad(err, errlen,
                   "-p %s: unknown power schedule; use one of fast, explore, exploit, coe, lin, "
                   "quad, mmopt, rare, seek",
                   val);
    case OPT_FORMAT:
        if (strcmp(val, "text") == 0 || strcmp(val, "ascii") == 0)
            cfg->input_text = 1;
        else if (strcmp(val, "binary") == 0 || strcmp(val, "bin") == 0 ||
                 strcmp(val, "default") == 0 || strcmp(val, "generic") == 0)
            cfg->input_text = 0;
        else
            return bad(err, errlen, "-a %s: unknown input format; use text or binary", val);
        return FZ_OPTIONS_OK;
    case OPT_AFL:
        if (strcmp(o->flag, "-Z") != 0) /* -Z is what fz does anyway */
            note_afl(cfg, o->flag, o->help);
        return FZ_OPTIONS_OK;
    case OPT_HELP:
        return FZ_OPTIONS_HELP;
    case OPT_VERSION:
        return FZ_OPTIONS_OK;
    }
    return bad(err, errlen, "internal error: option %s", o->flag);
}

/* Checks that need the whole command line. */
static int check_cfg(fz_cfg_t *cfg, char *err, size_t errlen)
{
    if (!cfg->target_argc)
        return bad(err, errlen, "no target given; usage: fz-fuzz -i seeds -o out -- ./target @@");
    if (cfg->jobs_given && (cfg->is_main || cfg->is_secondary))
        return bad(err, errlen,
                   "-j starts its own main and secondaries (main, sec1, ...); drop -M/-S, or "
                   "start each instance with -M/-S yourself instead of -j");
    if (cfg->replay_dir)
        return FZ_OPTIONS_OK;
    if (!cfg->in_dir)
        return bad(err, errlen, "no seed directory; pass -i DIR (or -i - to resume)");
    if (!cfg->out_root)
        return bad(err, errlen, "no output directory; pass -o DIR");
    if (strcmp(cfg->in_dir, "-") == 0)
        cfg->resume = 1;
    if (cfg->det_on && cfg->det_off)
        return bad(err, errlen, "-D and -d contradict each other; give one of them");
    if (cfg->max_len > FZ_MAX_INPUT)
        return bad(err, errlen, "-l %u is over fz-fuzz's input limit of %u bytes; use a smaller -l",
                   cfg->max_len, FZ_MAX_INPUT);
    if (cfg->timeout_ms && cfg->timeout_ms < 5)
        return bad(err, errlen, "-t %u is too short to run anything; use at least 5 ms",
                   cfg->timeout_ms);
    return FZ_OPTIONS_OK;
}

/* Which of an fz variable and its AFL++ alias is set (non-empty): 0 or 1,
 * or -1 for neither; fz's own name wins.  *val gets the text. */
static int env_pair(const char *const names[2], const char **val)
{
    for (int i = 0; i < 2; i++) {
        const char *v = getenv(names[i]);
        if (v && v[0]) {
            *val = v;
            return i;
        }
    }
    return -1;
}

/* FZ_SYNC_SECS (seconds), else AFL++'s AFL_SYNC_TIME (minutes), else the
 * default. */
static int sync_interval(fz_cfg_t *cfg, char *err, size_t errlen)
{
    static const char *const names[2] = {"FZ_SYNC_SECS", "AFL_SYNC_TIME"};
    const char *v;
    uint64_t n;
    int i = env_pair(names, &v);
    cfg->sync_secs = FZ_SYNC_SECS_DEFAULT;
    if (i < 0)
        return FZ_OPTIONS_OK;
    if (parse_u64(v, UINT32_MAX / 60, &n) != 0)
        return bad(err, errlen, "%s must be a whole number of %s, not '%s'", names[i],
                   i ? "minutes" : "seconds", v);
    cfg->sync_secs = (uint32_t)(i ? n * 60 : n);
    return FZ_OPTIONS_OK;
}

/* FZ_HANG_TMOUT, else AFL++'s AFL_HANG_TMOUT (both milliseconds). */
static int hang_timeout(fz_cfg_t *cfg, char *err, size_t errlen)
{
    static const char *const names[2] = {"FZ_HANG_TMOUT", "AFL_HANG_TMOUT"};
    const char *v;
    uint64_t n;
    int i = env_pair(names, &v);
    if (i < 0)
        return FZ_OPTIONS_OK;
    if (parse_u64(v, UINT32_MAX, &n) != 0 || n == 0)
        return bad(err, errlen, "%s must be a positive number of milliseconds, not '%s'",
                   names[i], v);
    cfg->hang_ms = (uint32_t)n;
    return FZ_OPTIONS_OK;
}

/* AFL_MAP_SIZE (or AFL++'s alias AFL_MAPSIZE): bytes of map to read from a
 * target that does not report its size (a plain AFL forkserver), rounded up
 * to FZ_MAP_SIZE_MIN as afl-fuzz does.  A target that reports its size
 * (fz-cc's, afl-cc's) gets the map it asks for whatever this says. */
static int afl_map_size(fz_cfg_t *cfg, char *err, size_t errlen)
{
    static const char *const names[2] = {"AFL_MAP_SIZE", "AFL_MAPSIZE"};
    const char *v;
    uint64_t n;
    int i = env_pair(names, &v);
    if (i < 0)
        return FZ_OPTIONS_OK;
    if (parse_u64(v, UINT32_MAX, &n) != 0 || n == 0)
        return bad(err, errlen, "%s must be a positive number of bytes, not '%s'", names[i], v);
    if (n > FZ_MAP_SIZE_MAX)
        return bad(err, errlen, "%s=%s is over fz's map limit of %u bytes; use at most that",
                   names[i], v, FZ_MAP_SIZE_MAX);
    if (n < FZ_MAP_SIZE_MIN)
        n = FZ_MAP_SIZE_MIN;
    cfg->afl_map_size = (uint32_t)((n + FZ_MAP_SIZE_MIN - 1) & ~(uint64_t)(FZ_MAP_SIZE_MIN - 1));
    return FZ_OPTIONS_OK;
}

int fz_options_parse(fz_cfg_t *cfg, int argc, char **argv, char *err, size_t errlen)
{
    memset(cfg, 0, sizeof(*cfg));
    cfg->name = "default";
    cfg->quiet = fz_env_flag("FZ_NO_UI", "AFL_NO_UI");
    cfg->resume = fz_env_flag("FZ_AUTORESUME", "AFL_AUTORESUME");
    cfg->debug_child = fz_env_flag("FZ_DEBUG_CHILD", "AFL_DEBUG_CHILD");
    cfg->until_crash = fz_env_flag("FZ_BENCH_UNTIL_CRASH", "AFL_BENCH_UNTIL_CRASH");
    cfg->value_profile = fz_env_flag("FZ_VALUE_PROFILE", NULL);
    cfg->no_trim = fz_env_flag("FZ_DISABLE_TRIM", "AFL_DISABLE_TRIM") ||
                   fz_env_flag("FZ_NO_TRIM", "AFL_NO_TRIM");
    err[0] = 0;
    if (sync_interval(cfg, err, errlen) != FZ_OPTIONS_OK ||
        hang_timeout(cfg, err, errlen) != FZ_OPTIONS_OK ||
        afl_map_size(cfg, err, errlen) != FZ_OPTIONS_OK)
        return FZ_OPTIONS_BAD;

    int i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        if (a[0] != '-' || !a[1])
            break; /* the target starts here, as with getopt's "+" mode */
        if (strcmp(a, "--help") == 0)
            return FZ_OPTIONS_HELP;
        const struct opt *o = find_opt(a);
        if (!o)
            return bad(err, errlen, "unknown option '%s'; see fz-fuzz -h", a);
        const char *val = NULL;
        if (o->arg) {
            size_t n = strlen(o->flag);
            if (a[n])
                val = a + n;
            else if (i + 1 < argc)
                val = argv[++i];
            else
                return bad(err, errlen, "%s needs an argument (%s)", o->flag, o->arg);
        }
        int r = apply(cfg, o, val, err, errlen);
        if (r != FZ_OPTIONS_OK)
            return r;
    }
    cfg->target_argv = argv + i;
    cfg->target_argc = argc - i;
    return check_cfg(cfg, err, errlen);
}

void fz_options_usage(void *fp, const char *prog)
{
    FILE *f = fp;
    fprintf(f, "usage: %s -i DIR -o DIR [options] -- ./target [args] [@@]\n\n", prog);
    fprintf(f, "@@ in the target's arguments stands for the input file; without it the\n"
               "input is fed on stdin.\n\noptions:\n");
    for (size_t i = 0; i < N_OPTS; i++) {
        char left[32];
        snprintf(left, sizeof(left), "%s%s%s", opt_table[i].flag, opt_table[i].arg ? " " : "",
                 opt_table[i].arg ? opt_table[i].arg : "");
        fprintf(f, "  %-14s %s\n", left, opt_table[i].help);
    }
    fprintf(f,
            "\nenvironment (AFL_* equivalents are honoured too):\n"
            "  FZ_AUTORESUME=1   resume a campaign found in -o instead of refusing it\n"
            "  FZ_NO_UI=1        same as -q\n"
            "  FZ_DEBUG_CHILD=1  let the target's stdout and stderr through\n"
            "  FZ_BENCH_UNTIL_CRASH=1\n"
            "                    same as --until-crash\n"
            "  FZ_NO_AFFINITY=1  do not bind fz-fuzz and the target to a free CPU\n"
            "  FZ_NO_CMPLOG=1    no comparison feedback (input-to-state stage and the\n"
            "                    automatic dictionary; fz's own: no AFL_ form)\n"
            "  FZ_NO_DIRECT=1    persistent targets built with fz-cc: use AFL++'s\n"
            "                    SIGSTOP protocol instead of the faster direct mode\n"
            "                    (fz's own: no AFL_ form)\n"
            "  FZ_DISABLE_TRIM=1 keep each new queue entry as it was found: no\n"
            "                    first-turn trim (FZ_NO_TRIM too)\n"
            "  FZ_HANG_TMOUT=MS  timeout of the run that confirms a hang before it is\n"
            "                    saved (default 1000, or -t when that is longer)\n"
            "  FZ_SYNC_SECS=N    -M/-S: seconds between syncs (default %d; the main\n"
            "                    halves it; AFL_SYNC_TIME is in minutes)\n"
            "  AFL_MAP_SIZE=N    map bytes of a target that reports no map size\n"
            "                    (default 65536)\n"
            "AFL_* variables fz-fuzz does not honour are named at start-up, one line\n"
            "each (docs/options.md lists them all).\n"
            "\nexit status: 0 no crash, 1 usage or set-up error, 3 crashes found,\n"
            "4 (--replay) a hang but no crash.\n",
            FZ_SYNC_SECS_DEFAULT);
}
