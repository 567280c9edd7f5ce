/*
 * check_sites.c - unit suite of fz-fuzz/sites.c: the set of crash sites,
 * its counts (aliases of a flaky site are not sites of their own) and the
 * one-line description the end-of-run summary and README.txt print.
 */
#include <check.h>
#include <signal.h>
#include <string.h>

#include "fz-fuzz/sites.h"
#include "tests/check-run.h"

const char *fz_log_prog = "check_sites";

static fz_site_t site(uint64_t hash, uint64_t off0, uint64_t off1)
{
    fz_site_t s;
    memset(&s, 0, sizeof(s));
    s.hash = hash;
    s.from = FZ_SITE_FROM_HANDLER;
    s.nframes = 2;
    s.off[0] = off0;
    s.off[1] = off1;
    strcpy(s.module[0], "exe");
    strcpy(s.module[1], "libfoo.so");
    return s;
}

START_TEST(test_add_find_count)
{
    fz_sites_t s = {0};
    fz_site_t a = site(0x11, 0x10, 0x20), b = site(0x22, 0x30, 0x40);
    ck_assert_ptr_null(fz_sites_find(&s, 0x11));
    fz_sites_add(&s, &a, SIGABRT, "id:000000", 0); /* resumed */
    for (int i = 0; i < 40; i++) {                  /* grows past its first block */
        fz_site_t c = site(0x100 + (uint64_t)i, (uint64_t)i, 0);
        fz_sites_add(&s, &c, SIGSEGV, "id:000001", 1);
    }
    fz_site_rec_t *r = fz_sites_add(&s, &b, SIGSEGV, "id:000002", 1);
    r->alias_of = 1; /* b is a's flaky twin */
    ck_assert_ptr_nonnull(fz_sites_find(&s, 0x11));
    ck_assert_str_eq(fz_sites_find(&s, 0x22)->file, "id:000002");
    ck_assert_int_eq(fz_sites_find(&s, 0x105)->signal, SIGSEGV);
    ck_assert_uint_eq(fz_sites_count(&s), 41); /* the alias is not a site */
    ck_assert_uint_eq(fz_sites_new(&s), 40);   /* nor is the resumed one new */
    fz_sites_free(&s);
    ck_assert_uint_eq(s.n, 0);
}
END_TEST

START_TEST(test_describe)
{
    fz_site_rec_t r;
    memset(&r, 0, sizeof(r));
    r.where = site(1, 0x25cf, 0x2894);
    r.signal = SIGABRT;
    char buf[256];
    fz_sites_describe(&r, buf, sizeof(buf));
    ck_assert_str_eq(buf, "SIGABRT at exe+0x25cf < libfoo.so+0x2894");
    r.where.from = FZ_SITE_FROM_ASAN;
    r.signal = 42;
    fz_sites_describe(&r, buf, sizeof(buf));
    ck_assert_str_eq(buf, "signal 42 at exe+0x25cf < libfoo.so+0x2894 (ASan)");
    r.where.from = FZ_SITE_FROM_UBSAN;
    r.signal = SIGABRT;
    strcpy(r.where.module[0], "parse.c");
    r.where.off[0] = 26;
    r.where.off[1] = 24;
    fz_sites_describe(&r, buf, sizeof(buf));
    ck_assert_str_eq(buf, "SIGABRT at parse.c:26:24 (UBSan)");
    fz_sites_describe(&r, buf, 8); /* truncated, still terminated */
    ck_assert_uint_eq(strlen(buf), 7);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sites");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_add_find_count);
    tcase_add_test(tc, test_describe);
    suite_add_tcase(s, tc);
    return fz_check_run(s);
}
