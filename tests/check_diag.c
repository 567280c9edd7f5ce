/*
 * check_diag.c - the words fz-fuzz uses for what the runtime reported
 * (fz-fuzz/diag.c): the short form in fuzzer_stats must stay a safe shell
 * assignment for afl-whatsup whatever the exec'd program is called, and
 * each warning names the cause and the fix.
 */
#include <check.h>
#include <signal.h>
#include <string.h>

#include "fz-fuzz/diag.h"
#include "tests/check-run.h"

const char *fz_log_prog = "check_diag";

START_TEST(summary_words)
{
    char buf[160];
    fz_diag_summary(0, 0, "", buf, sizeof buf);
    ck_assert_str_eq(buf, "");
    fz_diag_summary(FZ_DIAG_FORK, 0, "", buf, sizeof buf);
    ck_assert_str_eq(buf, "fork");
    fz_diag_summary(FZ_DIAG_EXEC, 0, "true", buf, sizeof buf);
    ck_assert_str_eq(buf, "exec:true");
    fz_diag_summary(FZ_DIAG_EXEC | FZ_DIAG_EXEC_INSTR, 0, "t", buf, sizeof buf);
    ck_assert_str_eq(buf, "exec_instrumented:t");
    uint32_t sigs = (1u << SIGSEGV) | (1u << SIGABRT);
    fz_diag_summary(FZ_DIAG_HANDLER | FZ_DIAG_FORK | FZ_DIAG_EXIT_IN_LOOP, sigs, "", buf,
                    sizeof buf);
    ck_assert_str_eq(buf, "fork handler:SIGABRT,SIGSEGV exit_in_loop");
    fz_diag_summary(0x40u | FZ_DIAG_EXIT_IN_LOOP, 0, "", buf, sizeof buf);
    ck_assert_str_eq(buf, "exit_in_loop"); /* 0x40, no longer used, says nothing */
}
END_TEST

START_TEST(summary_is_shell_safe)
{
    char buf[160];
    fz_diag_summary(FZ_DIAG_EXEC, 0, "a\"$(rm)`b'", buf, sizeof buf);
    ck_assert_str_eq(buf, "exec:a___rm__b_");
    fz_diag_summary(FZ_DIAG_EXEC, 0, "", buf, sizeof buf);
    ck_assert_str_eq(buf, "exec:?");
    /* Too small a buffer truncates, never overflows. */
    char tiny[6];
    fz_diag_summary(FZ_DIAG_FORK | FZ_DIAG_EXEC, 0, "program", tiny, sizeof tiny);
    ck_assert_uint_lt(strlen(tiny), sizeof tiny);
}
END_TEST

START_TEST(messages_name_cause_and_fix)
{
    char buf[512];
    fz_diag_message(FZ_DIAG_HANDLER, FZ_DIAG_HANDLER, (1u << SIGSEGV) | (1u << SIGBUS), "", 1,
                    buf, sizeof buf);
    ck_assert_ptr_nonnull(strstr(buf, "SIGBUS, SIGSEGV"));
    ck_assert_ptr_nonnull(strstr(buf, "re-raise"));
    fz_diag_message(FZ_DIAG_EXEC, FZ_DIAG_EXEC, 0, "sh", 1, buf, sizeof buf);
    ck_assert_ptr_nonnull(strstr(buf, "'sh'"));
    fz_diag_message(FZ_DIAG_EXEC, FZ_DIAG_EXEC | FZ_DIAG_EXEC_INSTR, 0, "helper", 1, buf,
                    sizeof buf);
    ck_assert_ptr_nonnull(strstr(buf, "instrumented program 'helper'"));
    fz_diag_message(FZ_DIAG_EXIT_IN_LOOP, FZ_DIAG_EXIT_IN_LOOP, 0, "", 1.25, buf, sizeof buf);
    ck_assert_ptr_nonnull(strstr(buf, "1.25 runs per process"));
    ck_assert_ptr_nonnull(strstr(buf, "_exit()"));
    fz_diag_message(FZ_DIAG_FORK, FZ_DIAG_FORK, 0, "", 1, buf, sizeof buf);
    ck_assert_ptr_nonnull(strstr(buf, "forks"));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("diag");
    TCase *tc = tcase_create("words");
    tcase_add_test(tc, summary_words);
    tcase_add_test(tc, summary_is_shell_safe);
    tcase_add_test(tc, messages_name_cause_and_fix);
    suite_add_tcase(s, tc);
    return fz_check_run(s);
}
