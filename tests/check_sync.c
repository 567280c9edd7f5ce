/*
 * check_sync.c - the pure parts of parallel fuzzing (fz-fuzz/sync.c): which
 * directory entries are peers, AFL++'s cursor file format, which of a
 * peer's queue files are due and in what order, the reset of a cursor when
 * a peer started afresh, the "sync:" names, and the sync_execs stats key.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "fz-fuzz/names.h"
#include "fz-fuzz/stats.h"
#include "fz-fuzz/sync.h"
#include "tests/check-run.h"

const char *fz_log_prog = "check_sync";

START_TEST(test_peer_ok)
{
    ck_assert_int_eq(fz_sync_peer_ok("s1", "main"), 1);
    ck_assert_int_eq(fz_sync_peer_ok("fuzzer-02.b_c", "main"), 1);
    ck_assert_int_eq(fz_sync_peer_ok("main", "main"), 0);    /* ourselves */
    ck_assert_int_eq(fz_sync_peer_ok(".synced", "main"), 0); /* hidden */
    ck_assert_int_eq(fz_sync_peer_ok("", "main"), 0);
    ck_assert_int_eq(fz_sync_peer_ok("a,b", "main"), 0); /* would break our names */
    ck_assert_int_eq(fz_sync_peer_ok("a:b", "main"), 0);
    ck_assert_int_eq(fz_sync_peer_ok("plot data", "main"), 0);
    char longname[FZ_SYNC_PEER_MAX + 2];
    memset(longname, 'a', sizeof(longname) - 1);
    longname[sizeof(longname) - 1] = 0;
    ck_assert_int_eq(fz_sync_peer_ok(longname, "main"), 0);
    longname[FZ_SYNC_PEER_MAX] = 0;
    ck_assert_int_eq(fz_sync_peer_ok(longname, "main"), 1);
}
END_TEST

START_TEST(test_cursor_format)
{
    /* AFL++ reads and writes the raw u32 (native order): the same 4 bytes. */
    uint8_t b[4];
    uint32_t v = 0x01020304, back = 7;
    fz_sync_cursor_encode(v, b);
    ck_assert_int_eq(memcmp(b, &v, 4), 0);
    ck_assert_int_eq(fz_sync_cursor_parse(b, 4, &back), 0);
    ck_assert_uint_eq(back, v);
    fz_sync_cursor_encode(0, b);
    ck_assert_int_eq(fz_sync_cursor_parse(b, 4, &back), 0);
    ck_assert_uint_eq(back, 0);
    /* Anything else means "start over" (costs runs, never loses a file). */
    back = 9;
    ck_assert_int_eq(fz_sync_cursor_parse(b, 3, &back), -1);
    ck_assert_uint_eq(back, 0);
    back = 9;
    ck_assert_int_eq(fz_sync_cursor_parse((const uint8_t *)"12\n", 0, &back), -1);
    ck_assert_uint_eq(back, 0);
    ck_assert_int_eq(fz_sync_cursor_parse((const uint8_t *)"12345", 5, &back), -1);
}
END_TEST

START_TEST(test_select)
{
    fz_sync_item_t it[] = {
        {"id:000003,src:000001,time:5,execs:6,op:havoc", 0},
        {"README.txt", 0},
        {"id:000000,time:0,execs:0,orig:a", 0},
        {".id:000009,src:000001.tmp", 0}, /* a temp file being written */
        {"id:000002,sync:other,src:000004", 0},
        {"id:x", 0},
        {"id:000001,time:0,execs:0,orig:b", 0},
        {"id:1000000,src:000001,op:havoc", 0}, /* past 6 digits */
        {"garbage", 0},
    };
    uint32_t n = sizeof(it) / sizeof(it[0]), next = 0;
    uint32_t due = fz_sync_select(it, n, 0, &next);
    ck_assert_uint_eq(due, 5);
    ck_assert_uint_eq(next, 1000001);
    uint32_t want[] = {0, 1, 2, 3, 1000000};
    for (uint32_t i = 0; i < due; i++)
        ck_assert_uint_eq(it[i].id, want[i]);
    ck_assert_str_eq(it[0].name, "id:000000,time:0,execs:0,orig:a");

    /* From a cursor: only ids at or above it, still in id order. */
    due = fz_sync_select(it, n, 2, &next);
    ck_assert_uint_eq(due, 3);
    ck_assert_uint_eq(it[0].id, 2);
    ck_assert_uint_eq(it[1].id, 3);
    ck_assert_uint_eq(it[2].id, 1000000);
    ck_assert_uint_eq(next, 1000001);
    due = fz_sync_select(it, n, 1000001, &next);
    ck_assert_uint_eq(due, 0);

    /* Nothing usable at all. */
    fz_sync_item_t junk[] = {{"a", 0}, {"id:", 0}, {".x", 0}};
    ck_assert_uint_eq(fz_sync_select(junk, 3, 0, &next), 0);
    ck_assert_uint_eq(next, 0);
    ck_assert_uint_eq(fz_sync_select(junk, 0, 0, &next), 0);
}
END_TEST

START_TEST(test_cursor_check)
{
    ck_assert_uint_eq(fz_sync_cursor_check(0, 0), 0);
    ck_assert_uint_eq(fz_sync_cursor_check(5, 5), 5);  /* all examined */
    ck_assert_uint_eq(fz_sync_cursor_check(5, 9), 5);  /* 4 new */
    ck_assert_uint_eq(fz_sync_cursor_check(50, 3), 0); /* peer started afresh */
}
END_TEST

START_TEST(test_from_self)
{
    ck_assert_int_eq(fz_sync_from_self("id:000002,sync:main,src:000004", "main"), 1);
    ck_assert_int_eq(fz_sync_from_self("id:000002,sync:main,src:000004,+cov", "main"), 1);
    ck_assert_int_eq(fz_sync_from_self("id:000002,sync:main2,src:000004", "main"), 0);
    ck_assert_int_eq(fz_sync_from_self("id:000002,sync:mai,src:000004", "main"), 0);
    ck_assert_int_eq(fz_sync_from_self("id:000002,src:000004,op:havoc", "main"), 0);
    ck_assert_int_eq(fz_sync_from_self("id:000002,orig:x,sync:main", "main"), 1);
    ck_assert_int_eq(fz_sync_from_self("id:000002,orig:sync:main_x", "main"), 0);
}
END_TEST

START_TEST(test_names)
{
    char b[256];
    fz_origin_t o = {.op = "sync", .peer = "main", .peer_id = 17};
    fz_name_find(b, sizeof(b), 42, 0, &o, 1, 2, 0);
    ck_assert_str_eq(b, "id:000042,sync:main,src:000017");
    o = (fz_origin_t){.op = "sync", .peer = "s1", .peer_id = 3};
    fz_name_find(b, sizeof(b), 7, 0, &o, 1, 2, 1);
    ck_assert_str_eq(b, "id:000007,sync:s1,src:000003,+cov");
    fz_name_find(b, sizeof(b), 0, 11, &o, 1, 2, 0);
    ck_assert_str_eq(b, "id:000000,sig:11,sync:s1,src:000003");
}
END_TEST

START_TEST(test_stats_key)
{
    fz_stats_report_t r;
    memset(&r, 0, sizeof(r));
    r.sync_execs = 1234;
    r.corpus_imported = 5;
    char buf[8192];
    fz_stats_format(buf, sizeof(buf), &r);
    ck_assert_ptr_nonnull(strstr(buf, "\ncorpus_imported   : 5\n"));
    ck_assert_ptr_nonnull(strstr(buf, "\nsync_execs        : 1234\n"));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sync");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_peer_ok);
    tcase_add_test(tc, test_cursor_format);
    tcase_add_test(tc, test_select);
    tcase_add_test(tc, test_cursor_check);
    tcase_add_test(tc, test_from_self);
    tcase_add_test(tc, test_names);
    tcase_add_test(tc, test_stats_key);
    suite_add_tcase(s, tc);
    return fz_check_run(s);
}
