/*
 * check_options.c - fz-fuzz's option table: every flag lands in the right
 * field, values are checked, the target starts after "--" (or at the first
 * non-option), and the FZ_* / AFL_* environment is honoured.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fz-fuzz/options.h"
#include "fz-fuzz/schedule.h"
#include "fz-fuzz/sync.h"
#include "tests/check-run.h"

const char *fz_log_prog = "check_options";

static int parse(fz_cfg_t *cfg, char *err, const char *const *args)
{
    static char *argv[64];
    int argc = 0;
    argv[argc++] = "fz-fuzz";
    for (; *args; args++)
        argv[argc++] = (char *)*args;
    argv[argc] = NULL;
    return fz_options_parse(cfg, argc, argv, err, 256);
}

static void clear_env(void)
{
    const char *v[] = {"FZ_NO_UI",
                       "AFL_NO_UI",
                       "FZ_AUTORESUME",
                       "AFL_AUTORESUME",
                       "FZ_DEBUG_CHILD",
                       "AFL_DEBUG_CHILD",
                       "FZ_SYNC_SECS",
                       "AFL_SYNC_TIME",
                       "FZ_BENCH_UNTIL_CRASH",
                       "AFL_BENCH_UNTIL_CRASH",
                       "AFL_MAP_SIZE",
                       "AFL_MAPSIZE"};
    for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
        unsetenv(v[i]);
}

START_TEST(test_all_flags)
{
    clear_env();
    fz_cfg_t c;
    char err[256];
    const char *a[] = {"-i", "in",  "-o",   "out", "-t", "500", "-m",     "64", "-V",
                       "60", "-E",  "1000", "-s",  "7",  "-x",  "d.dict", "-S", "w2",
                       "-f", "cur", "-q",   "-n",  "--", "./t", "@@",     NULL};
    ck_assert_int_eq(parse(&c, err, a), FZ_OPTIONS_OK);
    ck_assert_str_eq(c.in_dir, "in");
    ck_assert_str_eq(c.out_root, "out");
    ck_assert_uint_eq(c.timeout_ms, 500);
    ck_assert_uint_eq(c.mem_mb, 64);
    ck_assert_uint_eq(c.max_secs, 60);
    ck_assert_uint_eq(c.max_execs, 1000);
    ck_assert_uint_eq(c.seed, 7);
    ck_assert_int_eq(c.seed_given, 1);
    ck_assert_int_eq(c.n_dicts, 1);
    ck_assert_str_eq(c.dict_files[0], "d.dict");
    ck_assert_int_eq(c.until_crash, 0);
    ck_assert_str_eq(c.name, "w2");
    ck_assert_int_eq(c.is_main, 0);
    ck_assert_str_eq(c.input_file, "cur");
    ck_assert_int_eq(c.quiet, 1);
    ck_assert_int_eq(c.blind, 1);
    ck_assert_int_eq(c.resume, 0);
    ck_assert_int_eq(c.target_argc, 2);
    ck_assert_str_eq(c.target_argv[0], "./t");
    ck_assert_str_eq(c.target_argv[1], "@@");
    ck_assert_ptr_null(c.target_argv[2]);
}
END_TEST

START_TEST(test_defaults_and_glued)
{
    clear_env();
    fz_cfg_t c;
    char err[256];
    const char *a[] = {"-iin", "-oout", "-t250", "-M", "main", "./t", "-x", NULL};
    ck_assert_int_eq(parse(&c, err, a), FZ_OPTIONS_OK);
    ck_assert_str_eq(c.in_dir, "in");
    ck_assert_uint_eq(c.timeout_ms, 250);
    ck_assert_str_eq(c.name, "main");
    ck_assert_int_eq(c.is_main, 1);
    ck_assert_int_eq(c.seed_given, 0);
    ck_assert_uint_eq(c.max_execs, 0);
    /* The target's own options are not ours. */
    ck_assert_int_eq(c.target_argc, 2);
    ck_assert_str_eq(c.target_argv[1], "-x");

    const char *b[] = {"-i", "in", "-o", "out", "--", "./t", NULL};
    ck_assert_int_eq(parse(&c, err, b), FZ_OPTIONS_OK);
    ck_assert_str_eq(c.name, "default");
    ck_assert_uint_eq(c.timeout_ms, 0);
}
END_TEST

START_TEST(test_errors)
{
    clear_env();
    fz_cfg_t c;
    char err[256];
    const char *unknown[] = {"-i", "in", "-o", "out", "-y", "--", "./t", NULL};
    ck_assert_int_eq(parse(&c, err, unknown), FZ_OPTIONS_BAD);
    ck_assert_ptr_nonnull(strstr(err, "-y"));
    const char *notnum[] = {"-i", "in", "-o", "out", "-t", "fast", "--", "./t", NULL};
    ck_assert_int_eq(parse(&c, err, notnum), FZ_OPTIONS_BAD);
    ck_assert_ptr_nonnull(strstr(err, "fast"));
    const char *neg[] = {"-i", "in", "-o", "out", "-E", "-5", "--", "./t", NULL};
    ck_assert_int_eq(parse(&c, err, neg), FZ_OPTIONS_BAD);
    const char *missing[] = {"-i", "in", "-o", NULL};
    ck_assert_int_eq(parse(&c, err, missing), FZ_OPTIONS_BAD);
    ck_assert_ptr_nonnull(strstr(err, "-o"));
    const char *notarget[] = {"-i", "in", "-o", "out", NULL};
    ck_assert_int_eq(parse(&c, err, notarget), FZ_OPTIONS_BAD);
    ck_assert_ptr_nonnull(strstr(err, "target"));
    const char *noin[] = {"-o", "out", "--", "./t", NULL};
    ck_assert_int_eq(parse(&c, err, noin), FZ_OPTIONS_BAD);
    ck_assert_ptr_nonnull(strstr(err, "-i"));
    const char *badname[] = {"-i", "in", "-o", "out", "-M", "a/b", "--", "./t", NULL};
    ck_assert_int_eq(parse(&c, err, badname), FZ_OPTIONS_BAD);
    const char *toobig[] = {"-i", "in", "-o", "out", "-t", "99999999999", "--", "./t", NULL};
    ck_assert_int_eq(parse(&c, err, toobig), FZ_OPTIONS_BAD);
}
END_TEST

START_TEST(test_help_replay_resume)
{
    clear_env();
    fz_cfg_t c;
    char err[256];
    const char *h[] = {"-h", NULL};
    ck_assert_int_eq(parse(&c, err, h), FZ_OPTIONS_HELP);
    const char *r[] = {"--replay", "crashes", "--", "./t", "@@", NULL};
    ck_assert_int_eq(parse(&c, err, r), FZ_OPTIONS_OK);
    ck_assert_str_eq(c.replay_dir, "crashes");
    const char *dash[] = {"-i", "-", "-o", "out", "./t", NULL};
    ck_assert_int_eq(parse(&c, err, dash), FZ_OPTIONS_OK);
    ck_assert_int_eq(c.resume, 1);

    /* The usage text lists every flag. */
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    fz_options_usage(f, "fz-fuzz");
    fclose(f);
    const char *flags[] = {"-i DIR",  "-o DIR",  "-t MS",   "-m MB",        "-V SECONDS",
                           "-E N",    "-s SEED", "-x FILE", "-M NAME",      "-S NAME",
                           "-f FILE", "-q",      "-n",      "--replay DIR", "-h"};
    for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
        ck_assert_msg(strstr(text, flags[i]), "usage lacks %s", flags[i]);
    free(text);
}
END_TEST

START_TEST(test_environment)
{
    clear_env();
    fz_cfg_t c;
    char err[256];
    const char *a[] = {"-i", "in", "-o", "out", "--", "./t", NULL};
    setenv("AFL_AUTORESUME", "1", 1);
    setenv("FZ_NO_UI", "1", 1);
    setenv("AFL_DEBUG_CHILD", "1", 1);
    ck_assert_int_eq(parse(&c, err, a), FZ_OPTIONS_OK);
    ck_assert_int_eq(c.resume, 1);
    ck_assert_int_eq(c.quiet, 1);
    ck_assert_int_eq(c.debug_child, 1);
    clear_env();
    setenv("FZ_AUTORESUME", "0", 1); /* "0" means off */
    ck_assert_int_eq(parse(&c, err, a), FZ_OPTIONS_OK);
    ck_assert_int_eq(c.resume, 0);
    ck_assert_int_eq(c.quiet, 0);
    clear_env();
}
END_TEST

/* -M / -S roles and the sync interval (FZ_SYNC_SECS, AFL_SYNC_TIME). */
START_TEST(test_parallel)
{
    clear_env();
    fz_cfg_t c;
    char err[256];
    const char *m[] = {"-i", "in", "-o", "out", "-M", "main", "--", "./t", NULL};
    ck_assert_int_eq(parse(&c, err, m), FZ_OPTIONS_OK);
    ck_assert_int_eq(c.is_main, 1);
    ck_assert_int_eq(c.is_secondary, 0);
    ck_assert_uint_eq(c.sync_secs, FZ_SYNC_SECS_DEFAULT);
    const char *s[] = {"-i", "in", "-o", "out", "-S", "s1", "--", "./t", NULL};
    ck_assert_int_eq(parse(&c, err, s), FZ_OPTIONS_OK);
    ck_assert_int_eq(c.is_main, 0);
    ck_assert_int_eq(c.is_secondary, 1);
    ck_assert_str_eq(c.name, "s1");
    const char *none[] = {"-i", "in", "-o", "out", "--", "./t", NULL};
    ck_assert_int_eq(parse(&c, err, none), FZ_OPTIONS_OK);
    ck_assert_int_eq(c.is_main + c.is_secondary, 0);
    /* One role, one name per instance, as afl-fuzz requires. */
    const char *two[] = {"-i", "in", "-o", "out", "-M", "a", "-S", "b", "--", "./t", NULL};
    ck_assert_int_eq(parse(&c, err, two), FZ_OPTIONS_BAD);
    ck_assert_ptr_nonnull(strstr(err, "only one"));
    const char *comma[] = {"-i", "in", "-o", "out", "-S", "a,b", "--", "./t", NULL};
    ck_assert_int_eq(parse(&c, err, comma), FZ_OPTIONS_BAD);

    setenv("FZ_SYNC_SECS", "5", 1);
    setenv("AFL_SYNC_TIME", "2", 1); /* FZ_ wins */
    ck_assert_int_eq(parse(&c, err, s), FZ_OPTIONS_OK);
    ck_assert_uint_eq(c.sync_secs, 5);
    unsetenv("FZ_SYNC_SECS");
    ck_assert_int_eq(parse(&c, err, s), FZ_OPTIONS_OK);
    ck_assert_uint_eq(c.sync_secs, 120); /* AFL_SYNC_TIME is in minutes */
    setenv("FZ_SYNC_SECS", "0", 1);      /* every turn */
    ck_assert_int_eq(parse(&c, err, s), FZ_OPTIONS_OK);
    ck_assert_uint_eq(c.sync_secs, 0);
    setenv("FZ_SYNC_SECS", "soon", 1);
    ck_assert_int_eq(parse(&c, err, s), FZ_OPTIONS_BAD);
    ck_assert_ptr_nonnull(strstr(err, "FZ_SYNC_SECS"));
    unsetenv("FZ_SYNC_SECS");
    setenv("AFL_SYNC_TIME", "-1", 1);
    ck_assert_int_eq(parse(&c, err, s), FZ_OPTIONS_BAD);
    ck_assert_ptr_nonnull(strstr(err, "minutes"));
    clear_env();
}
END_TEST

/* -j N (0: every free core) and --artifact-prefix; -j with -M/-S refused. */
START_TEST(test_jobs)
{
    clear_env();
    fz_cfg_t c;
    char err[256];
    const char *j[] = {"-i", "in", "-o", "out", "-j", "4", "--artifact-prefix", "a/", "--", "./t",
                       NULL};
    ck_assert_int_eq(parse(&c, err, j), FZ_OPTIONS_OK);
    ck_assert_int_eq(c.jobs_given, 1);
    ck_assert_uint_eq(c.jobs, 4);
    ck_assert_str_eq(c.artifact_prefix, "a/");
    const char *j0[] = {"-i", "in", "-o", "out", "-j0", "--", "./t", NULL};
    ck_assert_int_eq(parse(&c, err, j0), FZ_OPTIONS_OK);
    ck_assert_int_eq(c.jobs_given, 1);
    ck_assert_uint_eq(c.jobs, 0);
    const char *none[] = {"-i", "in", "-o", "out", "--", "./t", NULL};
    ck_assert_int_eq(parse(&c, err, none), FZ_OPTIONS_OK);
    ck_assert_int_eq(c.jobs_given, 0);
    const char *jm[] = {"-i", "in", "-o", "out", "-j", "2", "-S", "s", "--", "./t", NULL};
    ck_assert_int_eq(parse(&c, err, jm), FZ_OPTIONS_BAD);
    ck_assert_ptr_nonnull(strstr(err, "-j starts its own"));
    const char *bad[] = {"-i", "in", "-o", "out", "-j", "two", "--", "./t", NULL};
    ck_assert_int_eq(parse(&c, err, bad), FZ_OPTIONS_BAD);
}
END_TEST

/* -x repeats (in order, up to FZ_MAX_DICTS); --until-crash and its
 * environment spellings. */
START_TEST(test_dicts_and_until_crash)
{
    clear_env();
    fz_cfg_t c;
    char err[256];
    const char *a[] = {"-i", "in",  "-x", "a.dict", "-xb", "-x", "dir", "--until-crash",
                       "-o", "out", "--", "./t",    NULL};
    ck_assert_int_eq(parse(&c, err, a), FZ_OPTIONS_OK);
    ck_assert_int_eq(c.n_dicts, 3);
    ck_assert_str_eq(c.dict_files[0], "a.dict");
    ck_assert_str_eq(c.dict_files[1], "b");
    ck_assert_str_eq(c.dict_files[2], "dir");
    ck_assert_int_eq(c.until_crash, 1);

    const char *many[2 * FZ_MAX_DICTS + 8];
    int n = 0;
    many[n++] = "-i", many[n++] = "in", many[n++] = "-o", many[n++] = "out";
    for (int i = 0; i <= FZ_MAX_DICTS; i++)
        many[n++] = "-x", many[n++] = "d";
    many[n++] = "./t", many[n] = NULL;
    ck_assert_int_eq(parse(&c, err, many), FZ_OPTIONS_BAD);
    ck_assert_msg(strstr(err, "more than 16 -x"), "%s", err);

    const char *plain[] = {"-i", "in", "-o", "out", "./t", NULL};
    setenv("AFL_BENCH_UNTIL_CRASH", "1", 1);
    ck_assert_int_eq(parse(&c, err, plain), FZ_OPTIONS_OK);
    ck_assert_int_eq(c.until_crash, 1);
    clear_env();
    setenv("FZ_BENCH_UNTIL_CRASH", "1", 1);
    ck_assert_int_eq(parse(&c, err, plain), FZ_OPTIONS_OK);
    ck_assert_int_eq(c.until_crash, 1);
    clear_env();
}
END_TEST

/* Issue 23: afl-fuzz's -p, -a, -G, -z are honoured; its options fz does
 * not honour are accepted with a note each (never an error, never silent);
 * AFL_MAP_SIZE is read and checked. */
START_TEST(test_afl_options)
{
    clear_env();
    fz_cfg_t c;
    char err[256];
    const char *sched[] = {"-i", "in", "-o", "out", "-p", "quad", "-a", "text", "./t", NULL};
    ck_assert_int_eq(parse(&c, err, sched), FZ_OPTIONS_OK);
    ck_assert_int_eq(c.schedule, FZ_SCHED_QUAD);
    ck_assert_str_eq(c.schedule_name, "quad");
    ck_assert_int_eq(c.input_text, 1);
    ck_assert_int_eq(c.n_afl_notes, 0);
    const char *names[] = {"fast", "explore", "exploit", "coe", "lin", "quad", "mmopt", "rare",
                           "seek"};
    for (int k = 0; k < 9; k++) {
        const char *a[] = {"-i", "in", "-o", "out", "-p", names[k], "./t", NULL};
        ck_assert_int_eq(parse(&c, err, a), FZ_OPTIONS_OK);
        ck_assert_str_eq(c.schedule_name, names[k]);
    }
    const char *dflt[] = {"-i", "in", "-o", "out", "./t", NULL};
    ck_assert_int_eq(parse(&c, err, dflt), FZ_OPTIONS_OK);
    ck_assert_int_eq(c.schedule, FZ_SCHED_FAST);
    ck_assert_ptr_null(c.schedule_name);
    ck_assert_int_eq(c.input_text, 0);
    ck_assert_uint_eq(c.afl_map_size, 0);
    const char *badp[] = {"-i", "in", "-o", "out", "-p", "turbo", "./t", NULL};
    ck_assert_int_eq(parse(&c, err, badp), FZ_OPTIONS_BAD);
    ck_assert_msg(strstr(err, "turbo") && strstr(err, "explore"), "%s", err);
    const char *bada[] = {"-i", "in", "-o", "out", "-a", "json", "./t", NULL};
    ck_assert_int_eq(parse(&c, err, bada), FZ_OPTIONS_BAD);
    const char *bin[] = {"-i", "in", "-o", "out", "-a", "binary", "-G", "100", "-z", "./t", NULL};
    ck_assert_int_eq(parse(&c, err, bin), FZ_OPTIONS_OK);
    ck_assert_int_eq(c.input_text, 0);
    ck_assert_uint_eq(c.max_len, 100);
    ck_assert_int_eq(c.det_off, 1);

    const char *afl[] = {"-i", "in", "-o", "out", "-L", "0", "-Z", "-P", "exploit", "-l", "2AT",
                         "-Q", "-b", "1", "-T", "banner", "--", "./t", "@@", NULL};
    ck_assert_int_eq(parse(&c, err, afl), FZ_OPTIONS_OK);
    ck_assert_int_eq(c.target_argc, 2);
    ck_assert_int_eq(c.n_afl_notes, 6); /* -Z is fz's walk anyway: no note */
    const char *want[] = {"-L", "-P", "-l", "-Q", "-b", "-T"};
    for (int k = 0; k < 6; k++) {
        ck_assert_str_eq(c.afl_flags[k], want[k]);
        ck_assert_msg(strstr(c.afl_notes[k], "not honoured"), "%s", c.afl_notes[k]);
    }
    ck_assert_uint_eq(c.max_len, 0); /* -l 2AT is not a length */

    setenv("AFL_MAP_SIZE", "100000", 1);
    ck_assert_int_eq(parse(&c, err, dflt), FZ_OPTIONS_OK);
    ck_assert_uint_eq(c.afl_map_size, 100032); /* rounded up to 64 */
    setenv("AFL_MAP_SIZE", "lots", 1);
    ck_assert_int_eq(parse(&c, err, dflt), FZ_OPTIONS_BAD);
    ck_assert_msg(strstr(err, "AFL_MAP_SIZE"), "%s", err);
    setenv("AFL_MAP_SIZE", "999999999", 1);
    ck_assert_int_eq(parse(&c, err, dflt), FZ_OPTIONS_BAD);
    ck_assert_msg(strstr(err, "limit"), "%s", err);
    clear_env();
}
END_TEST

int main(void)
{
    Suite *s = suite_create("options");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_all_flags);
    tcase_add_test(tc, test_defaults_and_glued);
    tcase_add_test(tc, test_errors);
    tcase_add_test(tc, test_help_replay_resume);
    tcase_add_test(tc, test_environment);
    tcase_add_test(tc, test_parallel);
    tcase_add_test(tc, test_jobs);
    tcase_add_test(tc, test_dicts_and_until_crash);
    tcase_add_test(tc, test_afl_options);
    suite_add_tcase(s, tc);
    return fz_check_run(s);
}
