/*
 * check_queue.c - the corpus: AFL-style names, the round-robin walk and its
 * cycle count, and the favored subset (smallest x fastest entry per slot).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "fz-fuzz/names.h"
#include "fz-fuzz/queue.h"
#include "fz-fuzz/schedule.h"
#include "tests/check-run.h"

const char *fz_log_prog = "check_queue";

static fz_entry_t *add(fz_queue_t *q, uint32_t len, uint64_t us, const uint32_t *edges, uint32_t n)
{
    uint8_t data[64] = {0};
    return fz_queue_add(q, strdup("x"), data, len, us, edges, n, 1);
}

START_TEST(test_names)
{
    char b[256];
    fz_origin_t o = {.op = "havoc", .src = 7};
    fz_name_find(b, sizeof(b), 42, 0, &o, 1234, 5678, 1);
    ck_assert_str_eq(b, "id:000042,src:000007,time:1234,execs:5678,op:havoc,+cov");
    o = (fz_origin_t){.op = "splice", .src = 1};
    fz_name_find(b, sizeof(b), 3, 0, &o, 5, 6, 0);
    ck_assert_str_eq(b, "id:000003,src:000001,time:5,execs:6,op:splice");
    o = (fz_origin_t){.op = "havoc", .src = 2};
    fz_name_find(b, sizeof(b), 0, 11, &o, 10, 20, 0);
    ck_assert_str_eq(b, "id:000000,sig:11,src:000002,time:10,execs:20,op:havoc");
    o = (fz_origin_t){.op = "empty", .no_parent = 1};
    fz_name_find(b, sizeof(b), 5, 0, &o, 9, 31, 1);
    ck_assert_str_eq(b, "id:000005,time:9,execs:31,op:empty,+cov");
    fz_name_find(b, sizeof(b), 0, 6, &o, 9, 31, 0);
    ck_assert_str_eq(b, "id:000000,sig:06,time:9,execs:31,op:empty");
    fz_name_seed(b, sizeof(b), 0, "seeds/a,b.txt");
    ck_assert_str_eq(b, "id:000000,time:0,execs:0,orig:a_b.txt");
    ck_assert_int_eq(fz_name_id("id:000042,src:000007"), 42);
    ck_assert_int_eq(fz_name_id("id:000009"), 9);
    ck_assert_int_eq(fz_name_id("README.txt"), -1);
    ck_assert_int_eq(fz_name_id("id:x"), -1);
}
END_TEST

START_TEST(test_round_robin)
{
    fz_queue_t q;
    fz_queue_init(&q, 16);
    ck_assert_ptr_null(fz_queue_next(&q));
    /* Every entry reaches a slot of its own: all favored, all walked. */
    for (uint32_t i = 0; i < 3; i++) {
        uint32_t e = i;
        add(&q, 4, 10, &e, 1);
    }
    uint32_t want[] = {0, 1, 2, 0, 1, 2, 0};
    uint64_t cycles[] = {0, 0, 0, 1, 1, 1, 2};
    for (int i = 0; i < 7; i++) {
        fz_entry_t *e = fz_queue_next(&q);
        ck_assert_uint_eq(e->id, want[i]);
        ck_assert_uint_eq(q.cycles, cycles[i]);
        e->was_fuzzed = 1;
    }
    ck_assert_uint_eq(q.n_favored, 3);
    /* An entry added mid-cycle is walked in the same cycle. */
    uint32_t s = 5;
    add(&q, 4, 10, &s, 1);
    ck_assert_uint_eq(fz_queue_next(&q)->id, 1);
    ck_assert_uint_eq(fz_queue_next(&q)->id, 2);
    ck_assert_uint_eq(fz_queue_next(&q)->id, 3);
    ck_assert_uint_eq(fz_queue_next(&q)->id, 0);
    ck_assert_uint_eq(q.cycles, 3);
    fz_queue_free(&q);
}
END_TEST

/* An empty entry (the empty input's) backs its slots but gets no turn,
 * is favored for none and is not pending while an entry has bytes; with
 * only empty entries they are walked, so the loop never runs dry. */
START_TEST(test_empty_entries)
{
    fz_queue_t q;
    fz_queue_init(&q, 16);
    uint32_t a[] = {1, 2}, b[] = {1, 3};
    add(&q, 0, 5, a, 2); /* id 0: empty, the only one reaching slot 2 */
    ck_assert_uint_eq(fz_queue_next(&q)->id, 0);
    ck_assert_uint_eq(fz_queue_pending(&q, 0), 1);
    add(&q, 0, 5, a, 2); /* id 1: empty too */
    add(&q, 8, 10, b, 2); /* id 2 */
    for (int i = 0; i < 5; i++) {
        fz_entry_t *e = fz_queue_next(&q);
        ck_assert_uint_eq(e->id, 2);
        e->was_fuzzed = 1;
    }
    ck_assert_int_eq(q.e[0]->favored, 0);
    ck_assert_int_eq(q.e[1]->favored, 0);
    ck_assert_int_eq(q.e[2]->favored, 1);
    ck_assert_uint_eq(q.n_empty, 2);
    ck_assert_uint_eq(fz_queue_pending(&q, 0), 0);
    /* An entry trimmed down to nothing leaves the walk too. */
    add(&q, 4, 10, b, 2); /* id 3 */
    fz_queue_shrink(&q, q.e[3], (const uint8_t *)"", 0, 1);
    ck_assert_uint_eq(q.n_empty, 3);
    for (int i = 0; i < 4; i++)
        ck_assert_uint_eq(fz_queue_next(&q)->id, 2);
    fz_queue_free(&q);
}
END_TEST

START_TEST(test_favored)
{
    fz_queue_t q;
    fz_queue_init(&q, 16);
    uint32_t big[] = {1, 2, 3};
    uint32_t small[] = {1, 2};
    uint32_t other[] = {3};
    add(&q, 40, 100, big, 3); /* id 0: reaches 1,2,3 but costly */
    add(&q, 4, 10, small, 2); /* id 1: cheapest for 1,2 */
    add(&q, 8, 10, other, 1); /* id 2: cheapest for 3 */
    fz_queue_cull(&q);
    ck_assert_int_eq(q.e[0]->favored, 0);
    ck_assert_int_eq(q.e[1]->favored, 1);
    ck_assert_int_eq(q.e[2]->favored, 1);
    ck_assert_uint_eq(q.n_favored, 2);
    ck_assert_uint_eq(fz_queue_pending(&q, 1), 2);
    ck_assert_uint_eq(fz_queue_pending(&q, 0), 3);

    /* First cycle: everything is fresh, so everything gets a turn. */
    for (uint32_t i = 0; i < 3; i++) {
        fz_entry_t *e = fz_queue_next(&q);
        ck_assert_uint_eq(e->id, i);
        e->was_fuzzed = 1;
    }
    /* Cycles 1..3 skip the fuzzed, non-favored entry 0; cycle 4 visits it. */
    for (int c = 1; c < FZ_QUEUE_NONFAV_PERIOD; c++) {
        ck_assert_uint_eq(fz_queue_next(&q)->id, 1);
        ck_assert_uint_eq(q.cycles, (uint64_t)c);
        ck_assert_uint_eq(fz_queue_next(&q)->id, 2);
    }
    ck_assert_uint_eq(fz_queue_next(&q)->id, 0);
    ck_assert_uint_eq(q.cycles, FZ_QUEUE_NONFAV_PERIOD);
    fz_queue_free(&q);
}
END_TEST

START_TEST(test_no_coverage_walks_all)
{
    /* Blind mode: no slots, no favored entries: the walk takes them all. */
    fz_queue_t q;
    fz_queue_init(&q, 0);
    add(&q, 1, 1, NULL, 0);
    add(&q, 1, 1, NULL, 0);
    for (int i = 0; i < 6; i++) {
        fz_entry_t *e = fz_queue_next(&q);
        ck_assert_uint_eq(e->id, (uint32_t)(i % 2));
        e->was_fuzzed = 1;
    }
    fz_queue_free(&q);
}
END_TEST

START_TEST(test_energy)
{
    /* Entry 0 alone reaches slot 9; entries 1..20 all reach slots 1, 2. */
    fz_queue_t q;
    fz_queue_init(&q, 16);
    uint32_t rare[] = {1, 9};
    uint32_t common[] = {1, 2};
    add(&q, 4, 10, rare, 2);
    for (int i = 0; i < 20; i++)
        add(&q, 4, 10, common, 2);
    fz_queue_cull(&q);
    fz_entry_t *r = q.e[0], *c = q.e[1];
    ck_assert_int_eq(r->favored, 1);
    /* New: twice the base for the only entry on an edge. */
    ck_assert_uint_eq(fz_queue_energy(&q, r), 2 * FZ_ENERGY_BASE);
    r->was_fuzzed = 1;
    ck_assert_uint_eq(fz_queue_energy(&q, r), FZ_ENERGY_BASE);
    r->turns = 17;
    ck_assert_uint_eq(fz_queue_energy(&q, r), FZ_ENERGY_BASE / 2);
    /* Every edge of a common entry is reached by 21 entries: a quarter,
     * halved again when it is not favored, never below the floor. */
    c->was_fuzzed = 1;
    uint32_t ce = fz_queue_energy(&q, c);
    ck_assert_uint_lt(ce, FZ_ENERGY_BASE / 2);
    ck_assert_uint_ge(ce, FZ_ENERGY_MIN);
    /* The same queue gives the same answer: no clock, no RNG. */
    ck_assert_uint_eq(fz_queue_energy(&q, c), ce);
    /* A trim makes an entry cheaper and keeps its slots. */
    uint8_t small[2] = {0};
    fz_queue_shrink(&q, c, small, 2, 5);
    ck_assert_uint_eq(c->len, 2);
    ck_assert_uint_eq(c->work, 5);
    fz_queue_free(&q);
}
END_TEST

/* Deep entries (finds of finds) get more: x2 from depth 4, x3 from 8, x4
 * from 14, for the default schedule and those built on it; exploit stays
 * flat.  The deepest entry's first turn is the ceiling. */
START_TEST(test_energy_depth)
{
    fz_queue_t q;
    fz_queue_init(&q, 16);
    uint32_t rare[] = {1, 9};
    add(&q, 4, 10, rare, 2);
    fz_queue_cull(&q);
    fz_entry_t *r = q.e[0];
    r->was_fuzzed = 1;
    static const struct {
        uint32_t depth, factor;
    } steps[] = {{1, 1}, {3, 1}, {4, 2}, {7, 2}, {8, 3}, {13, 3}, {14, 4}, {200, 4}};
    for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
        r->depth = steps[i].depth;
        q.schedule = FZ_SCHED_FAST;
        ck_assert_uint_eq(fz_queue_energy(&q, r), steps[i].factor * FZ_ENERGY_BASE);
        q.schedule = FZ_SCHED_EXPLORE;
        ck_assert_uint_eq(fz_queue_energy(&q, r), steps[i].factor * FZ_ENERGY_BASE);
        q.schedule = FZ_SCHED_EXPLOIT;
        ck_assert_uint_eq(fz_queue_energy(&q, r), FZ_ENERGY_BASE);
    }
    r->was_fuzzed = 0;
    q.schedule = FZ_SCHED_FAST;
    ck_assert_uint_eq(fz_queue_energy(&q, r), FZ_ENERGY_MAX);
    fz_queue_free(&q);
}
END_TEST

/* -p schedules (queue.h): each moves the energy the way its comment says;
 * the default (0, fast) is what test_energy checks. */
START_TEST(test_schedules)
{
    fz_queue_t q;
    fz_queue_init(&q, 16);
    uint32_t rare[] = {1, 9};
    uint32_t common[] = {1, 2};
    add(&q, 4, 10, rare, 2);
    for (int i = 0; i < 20; i++)
        add(&q, 4, 10, common, 2);
    fz_queue_cull(&q);
    fz_entry_t *r = q.e[0], *c = q.e[1], *newest = q.e[20];
    r->was_fuzzed = c->was_fuzzed = newest->was_fuzzed = 1;
    r->turns = 17;
    q.schedule = FZ_SCHED_FAST;
    uint32_t fast_r = fz_queue_energy(&q, r), fast_c = fz_queue_energy(&q, c);
    ck_assert_uint_eq(fast_r, FZ_ENERGY_BASE / 2);
    /* explore: no cut for the turns. */
    q.schedule = FZ_SCHED_EXPLORE;
    ck_assert_uint_eq(fz_queue_energy(&q, r), FZ_ENERGY_BASE);
    /* exploit: the same for everyone. */
    q.schedule = FZ_SCHED_EXPLOIT;
    ck_assert_uint_eq(fz_queue_energy(&q, r), FZ_ENERGY_BASE);
    ck_assert_uint_eq(fz_queue_energy(&q, c), FZ_ENERGY_BASE);
    /* coe: above the mean reach -> the minimum; the rare entry as fast. */
    q.schedule = FZ_SCHED_COE;
    ck_assert_uint_eq(fz_queue_energy(&q, c), FZ_ENERGY_MIN);
    ck_assert_uint_eq(fz_queue_energy(&q, r), fast_r);
    /* lin / quad grow with the turns (18 turns, rarity 1). */
    q.schedule = FZ_SCHED_LIN;
    ck_assert_uint_eq(fz_queue_energy(&q, r), FZ_ENERGY_MAX);
    r->turns = 0;
    ck_assert_uint_eq(fz_queue_energy(&q, r), FZ_ENERGY_BASE);
    r->turns = 1;
    ck_assert_uint_eq(fz_queue_energy(&q, r), 2 * FZ_ENERGY_BASE);
    q.schedule = FZ_SCHED_QUAD;
    ck_assert_uint_eq(fz_queue_energy(&q, r), 4 * FZ_ENERGY_BASE); /* 4x the base */
    ck_assert_uint_eq(fz_queue_energy(&q, c), FZ_ENERGY_MIN);  /* 4 / 21 of it */
    /* mmopt: the newest entry gets the most. */
    q.schedule = FZ_SCHED_MMOPT;
    ck_assert_uint_eq(fz_queue_energy(&q, newest), FZ_ENERGY_MAX);
    ck_assert_uint_eq(fz_queue_energy(&q, c), fast_c);
    /* rare: the only entry on an edge gets the most, common ones the least. */
    q.schedule = FZ_SCHED_RARE;
    ck_assert_uint_eq(fz_queue_energy(&q, r), FZ_ENERGY_MAX);
    ck_assert_uint_eq(fz_queue_energy(&q, c), FZ_ENERGY_MIN);
    /* seek: no boost for a new entry. */
    r->was_fuzzed = 0;
    r->turns = 0;
    q.schedule = FZ_SCHED_FAST;
    ck_assert_uint_eq(fz_queue_energy(&q, r), 2 * FZ_ENERGY_BASE);
    q.schedule = FZ_SCHED_SEEK;
    ck_assert_uint_eq(fz_queue_energy(&q, r), FZ_ENERGY_BASE);
    fz_queue_free(&q);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("queue");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_names);
    tcase_add_test(tc, test_round_robin);
    tcase_add_test(tc, test_empty_entries);
    tcase_add_test(tc, test_favored);
    tcase_add_test(tc, test_no_coverage_walks_all);
    tcase_add_test(tc, test_energy);
    tcase_add_test(tc, test_energy_depth);
    tcase_add_test(tc, test_schedules);
    suite_add_tcase(s, tc);
    return fz_check_run(s);
}
