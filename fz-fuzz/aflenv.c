/*
 * aflenv.c - the registry of AFL_* and FZ_* environment variables and the
 * start-up scan that names the ones fz-fuzz does not honour (aflenv.h).
 * docs/options.md lists the same table for people.
 */
#include "fz-fuzz/aflenv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct env_row {
    const char *name; /* the variable, or a family prefix ending in '_' */
    int status;       /* enum fz_aflenv_status */
    const char *note; /* what fz does instead (FZ_ENV_IGNORED), or where it is read */
};

/* Notes several rows share. */
#define BINARY_ONLY "binary-only instrumentation (QEMU, FRIDA, Nyx, Unicorn, Wine): fz has none; build the target with fz-cc"
#define NO_TWEAK "fz has no such switch; its own stage and scheduling rules apply (docs/mutations.md)"

/* AFL++'s variables (4.2x's include/envs.h), with what fz-fuzz does with
 * each.  Families (a name ending in '_') come after the exact names they
 * hold: the first match wins. */
static const struct env_row afl_rows[] = {
    /* Honoured: read with AFL++'s meaning (docs/options.md). */
    {"AFL_AUTORESUME", FZ_ENV_HONOURED, "FZ_AUTORESUME"},
    {"AFL_BENCH_UNTIL_CRASH", FZ_ENV_HONOURED, "FZ_BENCH_UNTIL_CRASH / --until-crash"},
    {"AFL_DEBUG_CHILD", FZ_ENV_HONOURED, "FZ_DEBUG_CHILD"},
    {"AFL_HANG_TMOUT", FZ_ENV_HONOURED, "FZ_HANG_TMOUT"},
    {"AFL_NO_AFFINITY", FZ_ENV_HONOURED, "FZ_NO_AFFINITY"},
    {"AFL_NO_UI", FZ_ENV_HONOURED, "FZ_NO_UI / -q"},
    {"AFL_SYNC_TIME", FZ_ENV_HONOURED, "FZ_SYNC_SECS (in seconds)"},
    {"AFL_MAP_SIZE", FZ_ENV_HONOURED, "map size of a target that reports none"},
    {"AFL_MAPSIZE", FZ_ENV_HONOURED, "the same as AFL_MAP_SIZE"},
    {"AFL_CUSTOM_MUTATOR_LIBRARY", FZ_ENV_HONOURED, "docs/custom-mutators.md"},
    {"AFL_CUSTOM_MUTATOR_ONLY", FZ_ENV_HONOURED, "docs/custom-mutators.md"},
    {"AFL_IGNORE_UNKNOWN_ENVS", FZ_ENV_HONOURED, "no warnings about unknown names"},
    {"AFL_DISABLE_TRIM", FZ_ENV_HONOURED, "FZ_DISABLE_TRIM"},
    {"AFL_NO_TRIM", FZ_ENV_HONOURED, "FZ_NO_TRIM"},
    /* What it asks for is what fz does anyway. */
    {"AFL_SKIP_CPUFREQ", FZ_ENV_NO_EFFECT, "fz never checks the CPU frequency governor"},
    {"AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES", FZ_ENV_NO_EFFECT, "fz never checks core_pattern"},
    {"AFL_NO_COLOR", FZ_ENV_NO_EFFECT, "fz's screen has no colours"},
    {"AFL_NO_COLOUR", FZ_ENV_NO_EFFECT, "fz's screen has no colours"},
    {"AFL_TRY_AFFINITY", FZ_ENV_NO_EFFECT, "fz never fails for want of a free core"},
    {"AFL_ALLOW_TMP", FZ_ENV_NO_EFFECT, "fz never refuses /tmp"},
    {"AFL_TESTCACHE_SIZE", FZ_ENV_NO_EFFECT, "fz keeps every queue input in memory"},
    {"AFL_TESTCACHE_ENTRIES", FZ_ENV_NO_EFFECT, "fz keeps every queue input in memory"},
    {"AFL_IMPORT_FIRST", FZ_ENV_NO_EFFECT, "fz syncs before its first queue turn"},
    {"AFL_NO_CPU_RED", FZ_ENV_NO_EFFECT, "fz's screen has no colours"},
    {"AFL_NO_SNAPSHOT", FZ_ENV_NO_EFFECT, "fz has no snapshot mode"},
    {"AFL_NO_FASTRESUME", FZ_ENV_NO_EFFECT, "fz resumes by re-running the queue"},
    {"AFL_SKIP_CRASHES", FZ_ENV_NO_EFFECT, "fz skips crashing seeds and says so"},
    {"AFL_PIZZA_MODE", FZ_ENV_NO_EFFECT, "fz's screen has no jokes"},
    /* Not honoured: one line each. */
    {"AFL_PYTHON_MODULE", FZ_ENV_IGNORED,
     "fz has no Python mutators; write the mutator in C and load it with "
     "AFL_CUSTOM_MUTATOR_LIBRARY"},
    {"AFL_CUSTOM_MUTATOR_LATE_SEND", FZ_ENV_IGNORED, "fz has no late-send hook"},
    {"AFL_CUSTOM_INFO_PROGRAM", FZ_ENV_IGNORED, "fz passes no target information to mutators"},
    {"AFL_CUSTOM_INFO_PROGRAM_ARGV", FZ_ENV_IGNORED, "fz passes no target information to mutators"},
    {"AFL_CUSTOM_INFO_PROGRAM_INPUT", FZ_ENV_IGNORED, "fz passes no target information to mutators"},
    {"AFL_CUSTOM_INFO_OUT", FZ_ENV_IGNORED, "fz passes no target information to mutators"},
    {"AFL_POST_PROCESS_KEEP_ORIGINAL", FZ_ENV_IGNORED, "fz has no post-processing hook"},
    {"AFL_PRELOAD", FZ_ENV_IGNORED,
     "set LD_PRELOAD in fz-fuzz's environment instead: the target inherits it"},
    {"AFL_LD_PRELOAD", FZ_ENV_IGNORED,
     "set LD_PRELOAD in fz-fuzz's environment instead: the target inherits it"},
    {"AFL_TARGET_ENV", FZ_ENV_IGNORED,
     "set the variables in fz-fuzz's environment instead: the target inherits them"},
    {"AFL_TMPDIR", FZ_ENV_IGNORED, "fz writes the input file in $TMPDIR, or where -f says"},
    {"AFL_INPUT_LEN_MIN", FZ_ENV_IGNORED, "fz has no minimum input length"},
    {"AFL_INPUT_LEN_MAX", FZ_ENV_IGNORED, "use -l N (or -G N)"},
    {"AFL_FAST_CAL", FZ_ENV_IGNORED, "fz's calibration runs are fixed (docs/faults.md)"},
    {"AFL_CAL_FAST", FZ_ENV_IGNORED, "fz's calibration runs are fixed (docs/faults.md)"},
    {"AFL_NO_STARTUP_CALIBRATION", FZ_ENV_IGNORED, "fz always calibrates its seeds"},
    {"AFL_FORKSRV_INIT_TMOUT", FZ_ENV_IGNORED,
     "fz waits 10 times the run timeout for the handshake; raise -t"},
    {"AFL_KILL_SIGNAL", FZ_ENV_IGNORED, "fz ends a hung run with SIGKILL"},
    {"AFL_FORK_SERVER_KILL_SIGNAL", FZ_ENV_IGNORED, "fz ends the forkserver with SIGKILL"},
    {"AFL_CRASH_EXITCODE", FZ_ENV_IGNORED,
     "only signals (and sanitizer reports) are crashes to fz; make the target abort()"},
    {"AFL_CRASHING_SEEDS_AS_NEW_CRASH", FZ_ENV_IGNORED, "fz skips crashing seeds and says so"},
    {"AFL_IGNORE_SEED_PROBLEMS", FZ_ENV_IGNORED, "fz skips crashing seeds and says so"},
    {"AFL_EXIT_ON_SEED_ISSUES", FZ_ENV_IGNORED, "fz skips crashing seeds and says so"},
    {"AFL_IGNORE_TIMEOUTS", FZ_ENV_IGNORED, "fz saves hangs to hangs/; raise -t"},
    {"AFL_KEEP_TIMEOUTS", FZ_ENV_IGNORED, "fz saves hangs to hangs/"},
    {"AFL_IGNORE_PROBLEMS", FZ_ENV_IGNORED, "fz's runtime has no such switch"},
    {"AFL_IGNORE_PROBLEMS_COVERAGE", FZ_ENV_IGNORED, "fz's runtime has no such switch"},
    {"AFL_EXIT_WHEN_DONE", FZ_ENV_IGNORED, "use -V SECONDS or -E RUNS to end a campaign"},
    {"AFL_EXIT_ON_TIME", FZ_ENV_IGNORED, "use -V SECONDS or -E RUNS to end a campaign"},
    {"AFL_FORCE_UI", FZ_ENV_IGNORED, "fz draws its screen only on a terminal"},
    {"AFL_NO_ARITH", FZ_ENV_IGNORED, NO_TWEAK},
    {"AFL_EXPAND_HAVOC_NOW", FZ_ENV_IGNORED, NO_TWEAK},
    {"AFL_SHUFFLE_QUEUE", FZ_ENV_IGNORED, NO_TWEAK},
    {"AFL_CYCLE_SCHEDULES", FZ_ENV_IGNORED, "give one schedule with -p"},
    {"AFL_MAX_DET_EXTRAS", FZ_ENV_IGNORED, NO_TWEAK},
    {"AFL_DISABLE_REDUNDANT", FZ_ENV_IGNORED, NO_TWEAK},
    {"AFL_NO_REDUNDANT", FZ_ENV_IGNORED, NO_TWEAK},
    {"AFL_NO_AUTODICT", FZ_ENV_IGNORED,
     "FZ_NO_CMPLOG=1 turns off the automatic dictionary with the input-to-state stage"},
    {"AFL_CMPLOG_ONLY_NEW", FZ_ENV_IGNORED, "fz's input-to-state stage runs on new entries only"},
    {"AFL_NO_SYNC", FZ_ENV_IGNORED, "run one instance without -M/-S/-j to sync nothing"},
    {"AFL_FINAL_SYNC", FZ_ENV_IGNORED, "fz syncs between queue turns only"},
    {"AFL_NO_CRASH_README", FZ_ENV_IGNORED, "fz always writes crashes/README.txt"},
    {"AFL_SHA1_FILENAMES", FZ_ENV_IGNORED, "use --artifact-prefix P for crash-<sha1> copies"},
    {"AFL_FUZZER_STATS_UPDATE_INTERVAL", FZ_ENV_IGNORED, "fz writes fuzzer_stats on its own clock"},
    {"AFL_STATSD", FZ_ENV_IGNORED, "fz has no StatsD output; read fuzzer_stats(.json)"},
    {"AFL_STATSD_HOST", FZ_ENV_IGNORED, "fz has no StatsD output; read fuzzer_stats(.json)"},
    {"AFL_STATSD_PORT", FZ_ENV_IGNORED, "fz has no StatsD output; read fuzzer_stats(.json)"},
    {"AFL_STATSD_TAGS_FLAVOR", FZ_ENV_IGNORED, "fz has no StatsD output; read fuzzer_stats(.json)"},
    {"AFL_PERSISTENT_RECORD", FZ_ENV_IGNORED, "fz does not record persistent runs"},
    {"AFL_PRINT_FILENAMES", FZ_ENV_IGNORED, "fz does not print each seed's name"},
    {"AFL_NO_WARN_INSTABILITY", FZ_ENV_IGNORED, "fz shows stability on its screen only"},
    {"AFL_SKIP_BIN_CHECK", FZ_ENV_IGNORED, "use -n for a target without instrumentation"},
    {"AFL_DEBUG", FZ_ENV_IGNORED, "FZ_DEBUG_CHILD=1 lets the target's output through"},
    {"AFL_DEBUG_GDB", FZ_ENV_IGNORED, "fz does not start gdb"},
    {"AFL_GDB", FZ_ENV_IGNORED, "fz does not start gdb"},
    {"AFL_DUMB_FORKSRV", FZ_ENV_IGNORED, "fz's -n runs the target with fork+exec"},
    {"AFL_NO_FORKSRV", FZ_ENV_IGNORED, "fz's -n runs the target with fork+exec"},
    {"AFL_OLD_FORKSERVER", FZ_ENV_IGNORED, "fz picks the handshake from what the target speaks"},
    {"AFL_EARLY_FORKSERVER", FZ_ENV_IGNORED, "fz's runtime starts where __AFL_INIT or main is"},
    {"AFL_DISABLE_LLVM_INSTRUMENTATION", FZ_ENV_IGNORED, "fz's runtime has no such switch"},
    {"AFL_NO_CFG_FUZZING", FZ_ENV_IGNORED, "fz has no CFG fuzzing"},
    {"AFL_PERFORMANCE_FILE", FZ_ENV_IGNORED, "fz has no performance file"},
    {"AFL_SKIP_OSSFUZZ", FZ_ENV_IGNORED, "fz has no such switch"},
    {"AFL_FUZZER_ARGS", FZ_ENV_IGNORED, "give a harness's flags on its own command line"},
    {"AFL_FUZZER_LOOPCOUNT", FZ_ENV_IGNORED, "fz's driver sizes its loop itself"},
    {"AFL_DRIVER_STDERR_DUPLICATE_FILENAME", FZ_ENV_IGNORED, "fz's driver has no such switch"},
    /* Binary-only modes. */
    {"AFL_ENTRYPOINT", FZ_ENV_IGNORED, BINARY_ONLY},
    {"AFL_INST_LIBS", FZ_ENV_IGNORED, BINARY_ONLY},
    {"AFL_CODE_START", FZ_ENV_IGNORED, BINARY_ONLY},
    {"AFL_CODE_END", FZ_ENV_IGNORED, BINARY_ONLY},
    {"AFL_COMPCOV_LEVEL", FZ_ENV_IGNORED, BINARY_ONLY},
    {"AFL_COMPCOV_BINNAME", FZ_ENV_IGNORED, BINARY_ONLY},
    {"AFL_USE_QASAN", FZ_ENV_IGNORED, BINARY_ONLY},
    {"AFL_WINE_PATH", FZ_ENV_IGNORED, BINARY_ONLY},
    {"AFL_DEBUG_UNICORN", FZ_ENV_IGNORED, BINARY_ONLY},
    {"AFL_UNTRACER_FILE", FZ_ENV_IGNORED, BINARY_ONLY},
    {"AFL_QEMU_", FZ_ENV_IGNORED, BINARY_ONLY},
    {"AFL_FRIDA_", FZ_ENV_IGNORED, BINARY_ONLY},
    {"AFL_NYX_", FZ_ENV_IGNORED, BINARY_ONLY},
    /* afl-cc's build-time variables and other AFL++ tools' own: afl-fuzz
     * does not read them either (fz-cc's own are FZ_*, docs/fz-cc.md). */
    {"AFL_LLVM_", FZ_ENV_BUILD, NULL},
    {"AFL_GCC_", FZ_ENV_BUILD, NULL},
    {"AFL_USE_", FZ_ENV_BUILD, NULL},
    {"AFL_CC", FZ_ENV_BUILD, NULL},
    {"AFL_CXX", FZ_ENV_BUILD, NULL},
    {"AFL_CC_COMPILER", FZ_ENV_BUILD, NULL},
    {"AFL_AS", FZ_ENV_BUILD, NULL},
    {"AFL_AS_FORCE_INSTRUMENT", FZ_ENV_BUILD, NULL},
    {"AFL_HARDEN", FZ_ENV_BUILD, NULL},
    {"AFL_DONT_OPTIMIZE", FZ_ENV_BUILD, NULL},
    {"AFL_INST_RATIO", FZ_ENV_BUILD, NULL},
    {"AFL_QUIET", FZ_ENV_BUILD, NULL},
    {"AFL_PATH", FZ_ENV_BUILD, NULL},
    {"AFL_NOOPT", FZ_ENV_BUILD, NULL},
    {"AFL_NO_BUILTIN", FZ_ENV_BUILD, NULL},
    {"AFL_CMPLOG", FZ_ENV_BUILD, NULL},
    {"AFL_NGRAM_SIZE", FZ_ENV_BUILD, NULL},
    {"AFL_KEEP_ASSEMBLY", FZ_ENV_BUILD, NULL},
    {"AFL_REAL_LD", FZ_ENV_BUILD, NULL},
    {"AFL_REAL_PATH", FZ_ENV_BUILD, NULL},
    {"AFL_GCJ", FZ_ENV_BUILD, NULL},
    {"AFL_TRACE_PC", FZ_ENV_BUILD, NULL},
    {"AFL_NO_X86", FZ_ENV_BUILD, NULL},
    {"AFL_DUMP_CYCLOMATIC_COMPLEXITY", FZ_ENV_BUILD, NULL},
    {"AFL_TOKEN_FILE", FZ_ENV_BUILD, NULL},
    {"AFL_PASSTHROUGH", FZ_ENV_BUILD, NULL},
    {"AFL_LD_", FZ_ENV_BUILD, NULL}, /* libdislocator */
    {"AFL_ALIGNED_ALLOC", FZ_ENV_BUILD, NULL},
    {"AFL_RANDOM_ALLOC_CANARY", FZ_ENV_BUILD, NULL},
    {"AFL_CMIN_", FZ_ENV_BUILD, NULL},
    {"AFL_TMIN_EXACT", FZ_ENV_BUILD, NULL},
    {"AFL_ANALYZE_HEX", FZ_ENV_BUILD, NULL},
    {"AFL_KEEP_TRACES", FZ_ENV_BUILD, NULL},
};

/* fz's own names (every program's, fz-cc's and the test and bench
 * scripts'): an FZ_* name close to one of these but not one is a
 * misspelling. */
static const char *const fz_names[] = {
    "FZ_AUTORESUME", "FZ_BENCH_UNTIL_CRASH", "FZ_DEBUG_CHILD", "FZ_HANG_TMOUT", "FZ_NO_AFFINITY",
    "FZ_NO_UI", "FZ_SYNC_SECS", "FZ_NO_CMPLOG", "FZ_NO_DIRECT", "FZ_NO_BATCH", "FZ_SPIN",
    "FZ_CC", "FZ_CXX", "FZ_QUIET", "FZ_NO_CMP", "FZ_CMP_SITES", "FZ_NO_PRUNE", "FZ_DENYLIST",
    "FZ_COV_FSRV", "FZ_GCOV", "FZ_LLVM_COV", "FZ_LLVM_PROFDATA", "FZ_FUZZ", "FZ_SECRETKEY",
    "FZ_TEST_CC", "FZ_TEST_STRICT", "FZ_DEMO_SECONDS", "FZ_DEMO_DIR", "FZ_AFLPP_SRC",
    "FZ_RUNNER", "FZ_ROOT", "FZ_BIN", "FZ_PLUGIN", "FZ_BINDIR", "FZ_CC_FALLBACK_LOG",
    "FZ_CC_NO_FALLBACK", "FZ_TEST_CRASH", "FZ_TEST_MUT_LOG", "FZ_CUSTOM_MUTATOR",
    "FZ_CUSTOM_MUTATOR_LIBRARY", "FZ_CUSTOM_MUTATOR_ONLY", "FZ_NO_CUSTOM", "FZ_VALUE_PROFILE",
    "FZ_DISABLE_TRIM", "FZ_NO_TRIM",
    "FZ_LF_DETECT_LEAKS", "FZ_LF_MALLOC_LIMIT_MB", "FZ_LF_RSS_LIMIT_MB",
};

#define N_ROWS (sizeof afl_rows / sizeof afl_rows[0])
#define N_FZ (sizeof fz_names / sizeof fz_names[0])

static const struct env_row *afl_row(const char *name)
{
    for (size_t i = 0; i < N_ROWS; i++) {
        const char *r = afl_rows[i].name;
        size_t n = strlen(r);
        if (r[n - 1] == '_' ? strncmp(name, r, n) == 0 : strcmp(name, r) == 0)
            return &afl_rows[i];
    }
    return NULL;
}

/* Edit distance (insert, delete, substitute), capped at 3: all a
 * misspelling test needs. */
static unsigned distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64)
        return 3;
    unsigned row[65];
    for (size_t j = 0; j <= lb; j++)
        row[j] = (unsigned)j;
    for (size_t i = 1; i <= la; i++) {
        unsigned diag = row[0];
        row[0] = (unsigned)i;
        for (size_t j = 1; j <= lb; j++) {
            unsigned up = row[j];
            unsigned best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb] > 3 ? 3 : row[lb];
}

/* The known name closest to name (distance <= 2), or NULL. */
static const char *closest(const char *name)
{
    const char *best = NULL;
    unsigned d_best = 3;
    int fz = strncmp(name, "FZ_", 3) == 0;
    size_t n = fz ? N_FZ : N_ROWS;
    for (size_t i = 0; i < n; i++) {
        const char *k = fz ? fz_names[i] : afl_rows[i].name;
        if (!fz && k[strlen(k) - 1] == '_')
            continue; /* a family, not a name */
        unsigned d = distance(name, k);
        if (d < d_best) {
            d_best = d;
            best = k;
        }
    }
    return d_best <= 2 ? best : NULL;
}

int fz_aflenv_status(const char *name, const char **note)
{
    if (note)
        *note = NULL;
    if (strncmp(name, "AFL_", 4) == 0) {
        const struct env_row *r = afl_row(name);
        if (!r)
            return FZ_ENV_UNKNOWN;
        if (note)
            *note = r->note;
        return r->status;
    }
    if (strncmp(name, "FZ_", 3) == 0)
        for (size_t i = 0; i < N_FZ; i++)
            if (strcmp(name, fz_names[i]) == 0)
                return FZ_ENV_HONOURED;
    return FZ_ENV_UNKNOWN;
}

int fz_aflenv_scan(char *const *env, void (*say)(void *ctx, const char *line), void *ctx)
{
    const char *quiet = getenv("AFL_IGNORE_UNKNOWN_ENVS");
    int unknown_ok = quiet && *quiet && strcmp(quiet, "0") != 0;
    int lines = 0;
    for (; env && *env; env++) {
        char name[128], line[512];
        size_t n = strcspn(*env, "=");
        int afl = strncmp(*env, "AFL_", 4) == 0;
        if (n >= sizeof name || (!afl && strncmp(*env, "FZ_", 3) != 0))
            continue;
        memcpy(name, *env, n);
        name[n] = 0;
        const char *note;
        int status = fz_aflenv_status(name, &note);
        if (status == FZ_ENV_IGNORED) {
            snprintf(line, sizeof line, "%s is set, but fz-fuzz does not honour it: %s", name,
                     note);
        } else if (status == FZ_ENV_UNKNOWN && !unknown_ok) {
            const char *near = closest(name);
            if (near)
                snprintf(line, sizeof line, "%s is not a variable fz knows; did you mean %s?",
                         name, near);
            else if (afl)
                snprintf(line, sizeof line,
                         "%s is not an AFL++ variable fz knows (misspelled?); it is ignored",
                         name);
            else
                continue; /* another tool's FZ_ name, far from fz's own */
        } else {
            continue;
        }
        say(ctx, line);
        lines++;
    }
    return lines;
}
