/*
 * check-run.h - what every check suite's main() ends with: run the suite,
 * print check's normal report, and exit non-zero if any test failed (the
 * exit status is what tests/run-unit.sh and make look at).
 */
#ifndef FZ_CHECK_RUN_H
#define FZ_CHECK_RUN_H

#include <check.h>
#include <stdlib.h>

static inline int fz_check_run(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
