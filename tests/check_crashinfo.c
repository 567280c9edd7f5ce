/*
 * check_crashinfo.c - the pure parts of what CI sees of a crash
 * (fz-fuzz/crashinfo.c, include/fz-sha1.h): where a sanitizer report
 * starts in a target's stderr, and the SHA-1 names of artifacts and corpus
 * files (FIPS 180-4's test vectors, and the padding edges at 55/56/64
 * bytes).
 */
#include <check.h>
#include <string.h>

#include "fz-fuzz/crashinfo.h"
#include "fz-sha1.h"
#include "tests/check-run.h"

const char *fz_log_prog = "check_crashinfo";

START_TEST(report_start)
{
    ck_assert_int_eq(fz_crashinfo_report_start("just output\nmore\n"), -1);
    const char *asan = "input of 4 bytes\n=================\n==12==ERROR: AddressSanitizer: "
                       "heap-buffer-overflow\nREAD of size 1\n";
    long at = fz_crashinfo_report_start(asan);
    ck_assert_int_ge(at, 0);
    ck_assert_int_eq(strncmp(asan + at, "==12==ERROR: AddressSanitizer", 29), 0);
    const char *ub = "x\nt.c:3:5: runtime error: signed integer overflow\n";
    at = fz_crashinfo_report_start(ub);
    ck_assert_int_eq(strncmp(ub + at, "t.c:3:5: runtime error", 22), 0);
    /* The earliest mark wins (a UBSan line before an ASan summary). */
    const char *both = "a: runtime error: x\n==1==ERROR: AddressSanitizer: y\n";
    ck_assert_int_eq(fz_crashinfo_report_start(both), 0);
    const char *lf = "==9== ERROR: libFuzzer: deadly signal\n";
    ck_assert_int_eq(fz_crashinfo_report_start(lf), 0);
}
END_TEST

static const char *sha(const char *s, size_t n)
{
    static char hex[41];
    fz_sha1_hex(s, n, hex);
    return hex;
}

START_TEST(sha1_vectors)
{
    ck_assert_str_eq(sha("", 0), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
    ck_assert_str_eq(sha("abc", 3), "a9993e364706816aba3e25717850c26c9cd0d89d");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    ck_assert_str_eq(sha(two, strlen(two)), "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
    char buf[130];
    memset(buf, 'a', sizeof buf);
    /* 55, 56 and 64 bytes: one or two padding blocks. */
    ck_assert_str_eq(sha(buf, 55), "c1c8bbdc22796e28c0e15163d20899b65621d65a");
    ck_assert_str_eq(sha(buf, 56), "c2db330f6083854c99d4b5bfb6e8f29f201be699");
    ck_assert_str_eq(sha(buf, 64), "0098ba824b5c16427bd7a1122a5a442a25ec644d");
    ck_assert_str_eq(sha(buf, 100), "7f9000257a4918d7072655ea468540cdcbd42e0c");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("crashinfo");
    TCase *tc = tcase_create("pure");
    tcase_add_test(tc, report_start);
    tcase_add_test(tc, sha1_vectors);
    suite_add_tcase(s, tc);
    return fz_check_run(s);
}
