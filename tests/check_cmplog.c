/*
 * check_cmplog.c - the fuzzer's side of the comparison log (core/cmplog.h):
 * the segment is created with the contract's version, attachable by id (as
 * the target attaches it), and a logging run's brackets empty the pools
 * (their counts only) and switch `enabled` on and off.
 */
#include <check.h>
#include <sys/shm.h>

#include "core/cmplog.h"
#include "tests/check-run.h"

START_TEST(create_begin_end)
{
    fz_cmplog_shm_t c;
    char err[256];
    ck_assert_int_eq(fz_cmplog_create(&c, err, sizeof err), 0);
    ck_assert_int_ge(c.id, 0);
    ck_assert_uint_eq(c.log->version, FZ_CMPLOG_VERSION);
    ck_assert_uint_eq(c.log->enabled, 0);
    /* What the target does: attach by id and see the same memory. */
    fz_cmplog_t *t = shmat(c.id, NULL, 0);
    ck_assert_ptr_ne(t, (void *)-1);
    t->used[FZ_CMP_POOL_INT] = 1;
    t->slot[5] = FZ_CMP_POOL_INT << 14 | 0;
    t->ib[0].h.site = 5;
    t->ib[0].h.hits = 3;
    t->ib[0].p[0].v1 = 42;
    uint32_t pool;
    ck_assert_ptr_eq(fz_cmplog_find(c.log, 5, &pool), &c.log->ib[0].h);
    fz_cmplog_begin(&c);
    ck_assert_uint_eq(t->enabled, 1);
    ck_assert_uint_eq(t->used[FZ_CMP_POOL_INT], 0); /* emptied ... */
    ck_assert_ptr_null(fz_cmplog_find(c.log, 5, &pool));
    ck_assert_uint_eq(t->ib[0].p[0].v1, 42); /* ... the blocks left alone */
    fz_cmplog_end(&c);
    ck_assert_uint_eq(t->enabled, 0);
    shmdt(t);
    fz_cmplog_destroy(&c);
    ck_assert_ptr_null(c.log);
    fz_cmplog_destroy(&c); /* twice is fine */
}
END_TEST

static Suite *cmplog_suite(void)
{
    Suite *s = suite_create("cmplog");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, create_begin_end);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return fz_check_run(cmplog_suite());
}
