/*
 * check_aflenv.c - the registry of AFL_* / FZ_* variables (fz-fuzz/aflenv.h):
 * one line for each AFL_* variable fz does not honour, none for those it
 * honours or that are afl-cc's build-time ones, and a suggestion for a
 * misspelled AFL_* or FZ_* name (issue 23 point 3).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "fz-fuzz/aflenv.h"
#include "tests/check-run.h"

const char *fz_log_prog = "check_aflenv";

struct lines {
    int n;
    char text[16][512];
};

static void collect(void *ctx, const char *line)
{
    struct lines *l = ctx;
    if (l->n < 16)
        strcpy(l->text[l->n], line);
    l->n++;
}

static int scan(struct lines *l, char **env)
{
    memset(l, 0, sizeof *l);
    return fz_aflenv_scan(env, collect, l);
}

START_TEST(test_status)
{
    const char *note;
    unsetenv("AFL_IGNORE_UNKNOWN_ENVS");
    ck_assert_int_eq(fz_aflenv_status("AFL_NO_UI", NULL), FZ_ENV_HONOURED);
    ck_assert_int_eq(fz_aflenv_status("AFL_MAP_SIZE", NULL), FZ_ENV_HONOURED);
    ck_assert_int_eq(fz_aflenv_status("AFL_CUSTOM_MUTATOR_LIBRARY", NULL), FZ_ENV_HONOURED);
    ck_assert_int_eq(fz_aflenv_status("AFL_CUSTOM_MUTATOR_ONLY", NULL), FZ_ENV_HONOURED);
    ck_assert_int_eq(fz_aflenv_status("FZ_CC_NO_FALLBACK", NULL), FZ_ENV_HONOURED);
    ck_assert_int_eq(fz_aflenv_status("AFL_PYTHON_MODULE", &note), FZ_ENV_IGNORED);
    ck_assert_ptr_nonnull(note);
    ck_assert_int_eq(fz_aflenv_status("AFL_QEMU_PERSISTENT_ADDR", &note), FZ_ENV_IGNORED);
    ck_assert_msg(strstr(note, "binary-only"), "%s", note);
    ck_assert_int_eq(fz_aflenv_status("AFL_LLVM_LAF_ALL", NULL), FZ_ENV_BUILD);
    ck_assert_int_eq(fz_aflenv_status("AFL_USE_ASAN", NULL), FZ_ENV_BUILD);
    ck_assert_int_eq(fz_aflenv_status("AFL_SKIP_CPUFREQ", NULL), FZ_ENV_NO_EFFECT);
    ck_assert_int_eq(fz_aflenv_status("AFL_NO_UIX", NULL), FZ_ENV_UNKNOWN);
    ck_assert_int_eq(fz_aflenv_status("FZ_NO_AFFINITY", NULL), FZ_ENV_HONOURED);
    ck_assert_int_eq(fz_aflenv_status("FZ_NO_AFINITY", NULL), FZ_ENV_UNKNOWN);
    ck_assert_int_eq(fz_aflenv_status("PATH", NULL), FZ_ENV_UNKNOWN);
}
END_TEST

START_TEST(test_scan)
{
    struct lines l;
    unsetenv("AFL_IGNORE_UNKNOWN_ENVS");
    char *env[] = {"PATH=/bin",
                   "AFL_NO_UI=1",                  /* honoured: silent */
                   "AFL_SKIP_CPUFREQ=1",           /* what fz does anyway: silent */
                   "AFL_USE_ASAN=1",               /* afl-cc's: silent */
                   "AFL_PYTHON_MODULE=mut",        /* not honoured */
                   "AFL_CUSTOM_MUTATOR_LATE_SEND=1", /* not honoured */
                   "AFL_FRIDA_INST_RANGES=x",      /* binary-only */
                   "AFL_NO_AFINITY=1",             /* misspelled AFL_ */
                   "AFL_SOMETHING_ELSE_ENTIRELY=1", /* unknown AFL_ */
                   "FZ_NO_AFINITY=1",              /* misspelled FZ_ */
                   "FZ_OTHER_TOOLS_SETTING=1",     /* another tool's: silent */
                   "FZ_TEST_CC=gcc",               /* the tests': silent */
                   NULL};
    ck_assert_int_eq(scan(&l, env), 6);
    ck_assert_msg(strstr(l.text[0], "AFL_PYTHON_MODULE") && strstr(l.text[0], "does not honour"),
                  "%s", l.text[0]);
    ck_assert_msg(strstr(l.text[1], "AFL_CUSTOM_MUTATOR_LATE_SEND"), "%s", l.text[1]);
    ck_assert_msg(strstr(l.text[2], "AFL_FRIDA_INST_RANGES") && strstr(l.text[2], "fz-cc"), "%s",
                  l.text[2]);
    ck_assert_msg(strstr(l.text[3], "did you mean AFL_NO_AFFINITY?"), "%s", l.text[3]);
    ck_assert_msg(strstr(l.text[4], "AFL_SOMETHING_ELSE_ENTIRELY") && strstr(l.text[4], "ignored"),
                  "%s", l.text[4]);
    ck_assert_msg(strstr(l.text[5], "did you mean FZ_NO_AFFINITY?"), "%s", l.text[5]);

    /* As in afl-fuzz, AFL_IGNORE_UNKNOWN_ENVS silences the unknown names,
     * not the ones fz knows it does not honour. */
    setenv("AFL_IGNORE_UNKNOWN_ENVS", "1", 1);
    ck_assert_int_eq(scan(&l, env), 3);
    unsetenv("AFL_IGNORE_UNKNOWN_ENVS");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("aflenv");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_status);
    tcase_add_test(tc, test_scan);
    suite_add_tcase(s, tc);
    return fz_check_run(s);
}
