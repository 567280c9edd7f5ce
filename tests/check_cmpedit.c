/*
 * check_cmpedit.c - unit tests for the pure half of input-to-state solving
 * (mutators/cmpedit.h), driven by comparison logs written by hand: what the
 * compare hooks of a target would have logged for a given input.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "mutators/cmpedit.h"
#include "tests/check-run.h"

static fz_cmplog_t *new_log(void)
{
    fz_cmplog_t *log = calloc(1, sizeof *log); /* zero pages: cheap */
    ck_assert_ptr_nonnull(log);
    return log;
}

/* The slot's block in this run, taking the pool's next one on its first
 * call, as runtime/rt-cmp.c does; the entry this call writes in *e. */
static fz_cmp_head_t *blk(fz_cmplog_t *log, uint32_t slot, uint32_t pool, uint32_t *e)
{
    uint32_t p;
    fz_cmp_head_t *h = fz_cmplog_find(log, slot, &p);
    if (!h) {
        uint32_t b = log->used[pool]++;
        ck_assert_uint_lt(b, fz_cmplog_cap(pool));
        h = fz_cmplog_head(log, pool, b);
        h->site = (uint16_t)slot;
        h->hits = 0;
        log->slot[slot] = (uint16_t)(pool << 14 | b);
    } else {
        ck_assert_uint_eq(p, pool);
    }
    *e = h->hits++ % FZ_CMP_PAIRS;
    return h;
}

/* Appends one integer pair to site `slot`, as the runtime would. */
static void log_int(fz_cmplog_t *log, uint32_t slot, unsigned size, unsigned attr, uint64_t v0,
                    uint64_t v1)
{
    uint32_t e;
    fz_cmp_head_t *h = blk(log, slot, FZ_CMP_POOL_INT, &e);
    h->size = (uint8_t)size;
    h->attr = (uint8_t)attr;
    fz_cmp_pair_t *p = &((fz_cmp_iblock_t *)h)->p[e];
    p->v0 = v0;
    p->v1 = v1;
}

static void log_str(fz_cmplog_t *log, uint32_t slot, unsigned attr, const void *a, size_t na,
                    const void *b, size_t nb)
{
    uint32_t e;
    fz_cmp_head_t *h = blk(log, slot, FZ_CMP_POOL_STR, &e);
    h->attr = (uint8_t)attr;
    fz_cmp_str_t *p = &((fz_cmp_sblock_t *)h)->p[e];
    p->len0 = (uint8_t)(na < FZ_CMP_STR_MAX ? na : FZ_CMP_STR_MAX);
    p->len1 = (uint8_t)(nb < FZ_CMP_STR_MAX ? nb : FZ_CMP_STR_MAX);
    memcpy(p->v0, a, p->len0);
    memcpy(p->v1, b, p->len1);
}

/* Reads log into a fresh list (the caller frees it). */
static void read_log(fz_cmp_list_t *l, const fz_cmplog_t *log)
{
    ck_assert_int_eq(fz_cmp_list_init(l, 1024), 0);
    fz_cmp_list_read(l, log);
}

/* Non-zero if some edit of r on in (with no colour) yields want. */
static int solves_f(const fz_cmp_rec_t *r, const void *in, size_t len, unsigned flags,
                    const void *want, size_t want_len)
{
    fz_cmpedit_t e[64];
    uint8_t out[256];
    size_t n = fz_cmpedit_make(r, in, len, NULL, NULL, flags, e, 64);
    for (size_t i = 0; i < n; i++) {
        size_t m = fz_cmpedit_apply(in, len, &e[i], out, sizeof out);
        if (m == want_len && !memcmp(out, want, m))
            return 1;
    }
    return 0;
}

static int solves(const fz_cmp_rec_t *r, const void *in, size_t len, const void *want,
                  size_t want_len)
{
    return solves_f(r, in, len, 0, want, want_len);
}

/* An integer record of width size: v0 compared with v1. */
static fz_cmp_rec_t int_rec(unsigned size, unsigned attr, uint64_t v0, uint64_t v1)
{
    fz_cmp_rec_t r = {.type = FZ_CMP_INT, .size = (uint8_t)size, .attr = (uint8_t)attr};
    r.len0 = r.len1 = (uint8_t)size;
    for (unsigned i = 0; i < size && i < 8; i++) {
        r.b0[i] = (uint8_t)(v0 >> (8 * i));
        r.b1[i] = (uint8_t)(v1 >> (8 * i));
    }
    return r;
}

START_TEST(read_dedupes_and_validates)
{
    fz_cmplog_t *log = new_log();
    for (int i = 0; i < 1000; i++) /* a tight loop: one pair, many calls */
        log_int(log, 7, 4, FZ_CMP_A_EQ, 'x', ' ');
    log_int(log, 9, 3, FZ_CMP_A_EQ, 1, 2); /* width 3: not a valid entry */
    log_int(log, 3, 2, FZ_CMP_A_EQ, 5, 6);
    char big[100];
    memset(big, 'a', sizeof big);
    log_str(log, 4, FZ_CMP_A_STRZ, big, 200, "b", 1); /* lengths clamp to 32 */
    uint32_t pool;
    fz_cmp_head_t *h4 = fz_cmplog_find(log, 4, &pool);
    ck_assert_ptr_nonnull(h4);
    ck_assert_uint_eq(pool, FZ_CMP_POOL_STR);
    ck_assert_uint_eq(h4->hits, 1);
    ((fz_cmp_sblock_t *)h4)->p[0].len0 = 200;
    fz_cmp_list_t l;
    read_log(&l, log);
    ck_assert_uint_eq(l.n, 3);
    ck_assert_uint_eq(l.r[0].slot, 3); /* slot order */
    ck_assert_uint_eq(l.r[1].slot, 4);
    ck_assert_uint_eq(l.r[1].len0, FZ_CMP_STR_MAX);
    ck_assert_uint_eq(l.r[2].slot, 7);
    ck_assert_ptr_nonnull(fz_cmp_list_find(&l, 7, 0));
    ck_assert_ptr_null(fz_cmp_list_find(&l, 7, 1)); /* a duplicate, dropped */
    ck_assert_ptr_null(fz_cmp_list_find(&l, 9, 0));
    fz_cmp_list_free(&l);
    free(log);
}
END_TEST

/* The fuzzer empties the log by zeroing the pools' counts only: slot
 * entries of earlier runs must read as empty, even one whose block this
 * run gave to another site, and a garbled entry must not be followed. */
START_TEST(read_ignores_stale_slots)
{
    fz_cmplog_t *log = new_log();
    log_int(log, 5, 4, FZ_CMP_A_EQ, 1, 2);
    log_str(log, 8, 0, "ab", 2, "cd", 2);
    memset(log->used, 0, sizeof log->used); /* the next run */
    fz_cmp_list_t l;
    read_log(&l, log);
    ck_assert_uint_eq(l.n, 0);
    log_int(log, 6, 4, FZ_CMP_A_EQ, 3, 4); /* takes block 0 of slot 5's run */
    log->slot[9] = 3u << 14 | 0x3fffu;     /* no such pool */
    log->slot[10] = FZ_CMP_POOL_WIDE << 14 | 2000; /* past the pool */
    fz_cmp_list_clear(&l);
    fz_cmp_list_read(&l, log);
    ck_assert_uint_eq(l.n, 1);
    ck_assert_uint_eq(l.r[0].slot, 6);
    ck_assert_uint_eq(l.r[0].b1[0], 4);
    uint32_t pool;
    ck_assert_ptr_null(fz_cmplog_find(log, 5, &pool));
    ck_assert_ptr_null(fz_cmplog_find(log, 8, &pool));
    ck_assert_ptr_null(fz_cmplog_find(log, 9, &pool));
    ck_assert_ptr_null(fz_cmplog_find(log, 10, &pool));
    fz_cmp_list_free(&l);
    free(log);
}
END_TEST

START_TEST(int_magic_as_is_and_swapped)
{
    fz_cmplog_t *log = new_log();
    log_int(log, 1, 4, FZ_CMP_A_EQ | FZ_CMP_A_CONST, 0x41414141, 0xdeadbeef);
    log_int(log, 2, 8, FZ_CMP_A_EQ | FZ_CMP_A_CONST, 0x4242424242424242ull, 0x0123456789abcdefull);
    log_int(log, 3, 4, FZ_CMP_A_EQ, 0x43434343, 0xcafebabe); /* a BE field (ntohl) */
    fz_cmp_list_t l;
    read_log(&l, log);
    ck_assert_uint_eq(l.n, 3);
    const char *in = "AAAABBBBBBBBCCCC";
    ck_assert(solves(&l.r[0], in, 16, "\xef\xbe\xad\xde" "BBBBBBBBCCCC", 16));
    ck_assert(solves(&l.r[1], in, 16, "AAAA\xef\xcd\xab\x89\x67\x45\x23\x01" "CCCC", 16));
    ck_assert(solves(&l.r[2], in, 16, "AAAABBBBBBBB\xca\xfe\xba\xbe", 16));
    fz_cmp_list_free(&l);
    free(log);
}
END_TEST

START_TEST(int_width_change_off_by_one_ascii)
{
    fz_cmp_rec_t r = {.type = FZ_CMP_INT, .size = 4, .attr = FZ_CMP_A_EQ, .len0 = 4, .len1 = 4};
    /* A byte promoted to int: 'A' compared with 'F' at width 4. */
    memcpy(r.b0, "\x41\0\0\0", 4);
    memcpy(r.b1, "\x46\0\0\0", 4);
    ck_assert(solves(&r, "xAx", 3, "xFx", 3));
    /* 16-bit field compared as int, and the program compared field + 1. */
    memcpy(r.b0, "\x35\x12\0\0", 4); /* input holds 0x1234 */
    memcpy(r.b1, "\xef\xbe\0\0", 4);
    ck_assert(solves(&r, "\x34\x12zz", 4, "\xee\xbezz", 4));
    /* Decimal and hex text. */
    memcpy(r.b0, "\x7b\0\0\0", 4); /* 123 */
    memcpy(r.b1, "\xd7\x11\0\0", 4); /* 4567 */
    ck_assert(solves(&r, "len=123;", 8, "len=4567;", 9));
    ck_assert(!solves(&r, "len=1234;", 9, "len=4567;", 9)); /* 123 inside 1234 is not it */
    memcpy(r.b0, "\xef\xbe\0\0", 4);
    memcpy(r.b1, "\x0d\xf0\0\0", 4);
    ck_assert(solves(&r, "id=beef", 7, "id=f00d", 7));
    /* A negative 32-bit value as text. */
    memcpy(r.b0, "\xfe\xff\xff\xff", 4); /* -2 */
    memcpy(r.b1, "\x2a\0\0\0", 4);
    ck_assert(solves(&r, "n=-2\n", 5, "n=42\n", 5));
}
END_TEST

START_TEST(ordering_tries_both_sides_of_the_bound)
{
    /* if (x > 1000): no EQ attribute, the input holds 5. */
    fz_cmp_rec_t r = {.type = FZ_CMP_INT, .size = 4, .len0 = 4, .len1 = 4};
    memcpy(r.b0, "\x05\0\0\0", 4);
    memcpy(r.b1, "\xe8\x03\0\0", 4);
    ck_assert(solves(&r, "\x05\0\0\0", 4, "\xe9\x03\0\0", 4));
    ck_assert(solves(&r, "\x05\0\0\0", 4, "\xe7\x03\0\0", 4));
}
END_TEST

START_TEST(switch_cases_each_become_edits)
{
    fz_cmplog_t *log = new_log();
    static const uint16_t cases[] = {0x1111, 0x2222, 0xbeef};
    for (int i = 0; i < 3; i++)
        log_int(log, 5, 2, FZ_CMP_A_SWITCH | FZ_CMP_A_CONST, 0x4141, cases[i]);
    fz_cmp_list_t l;
    read_log(&l, log);
    ck_assert_uint_eq(l.n, 3);
    ck_assert(solves(&l.r[2], "zAAz", 4, "z\xef\xbez", 4));
    fz_cmp_list_free(&l);
    free(log);
}
END_TEST

START_TEST(strings_replace_overwrite_find)
{
    fz_cmp_rec_t r = {.type = FZ_CMP_STR, .attr = FZ_CMP_A_STRZ};
    /* strcmp(token, "keyword"): the token is replaced, the input grows. */
    r.len0 = 4;
    memcpy(r.b0, "abc", 4);
    r.len1 = 8;
    memcpy(r.b1, "keyword", 8);
    ck_assert(solves(&r, "cmd=abc\n", 8, "cmd=keyword\n", 12));
    /* strcmp("keyword", token): the other direction. */
    fz_cmp_rec_t s = r;
    memcpy(s.b0, r.b1, 8);
    s.len0 = 8;
    memcpy(s.b1, "abc", 4);
    s.len1 = 4;
    ck_assert(solves(&s, "cmd=abc\n", 8, "cmd=keyword\n", 12));
    /* memcmp(buf + 2, "KEY12345", 8) on a 5-byte input: the logged operand
     * runs past the input; its prefix is found and overwritten. */
    fz_cmp_rec_t m = {.type = FZ_CMP_STR, .len0 = 8, .len1 = 8};
    memcpy(m.b0, "KEY\0\0\0\0\0", 8);
    memcpy(m.b1, "KEY12345", 8);
    ck_assert(solves(&m, "xxKEY", 5, "xxKEY12345", 10));
    /* strcasecmp: found whatever the case. */
    fz_cmp_rec_t c = {.type = FZ_CMP_STR, .attr = FZ_CMP_A_STRZ | FZ_CMP_A_NOCASE, .len0 = 3,
                      .len1 = 3};
    memcpy(c.b0, "GeX", 3);
    memcpy(c.b1, "get", 3);
    ck_assert(solves(&c, "gex /", 5, "get /", 5));
    /* strstr(haystack, "needle"): inserted. */
    fz_cmp_rec_t f = {.type = FZ_CMP_STR, .attr = FZ_CMP_A_STRZ | FZ_CMP_A_FIND, .len0 = 5,
                      .len1 = 6};
    memcpy(f.b0, "hello", 5);
    memcpy(f.b1, "needle", 6);
    ck_assert(solves(&f, "hello", 5, "helloneedle", 11));
    ck_assert(solves(&f, "hello", 5, "needlehello", 11));
    /* Already equal: nothing to do. */
    memcpy(m.b0, m.b1, 8);
    fz_cmpedit_t e[8];
    ck_assert_uint_eq(fz_cmpedit_make(&m, (const uint8_t *)"KEY12345", 8, NULL, NULL, 0, e, 8), 0);
}
END_TEST

START_TEST(colour_confirms_the_position)
{
    /* 'AAAA' appears twice; the coloured run says the compared bytes were
     * at offset 4 (where the coloured input holds 0x05060708). */
    fz_cmp_rec_t r = {.type = FZ_CMP_INT, .size = 4, .attr = FZ_CMP_A_EQ, .len0 = 4, .len1 = 4};
    memcpy(r.b0, "AAAA", 4);
    memcpy(r.b1, "MAGC", 4);
    fz_cmp_rec_t c = r;
    memcpy(c.b0, "\x05\x06\x07\x08", 4);
    const uint8_t cin[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    fz_cmpedit_t e[16];
    size_t n = fz_cmpedit_make(&r, (const uint8_t *)"AAAAAAAA", 8, &c, cin, 0, e, 16);
    ck_assert_uint_ge(n, 2);
    ck_assert_uint_eq(e[0].pos, 4);
    ck_assert(e[0].confirmed);
    ck_assert(!memcmp(e[0].ins, "MAGC", 4));
}
END_TEST

START_TEST(broken_checks_and_taint)
{
    fz_cmplog_t *a = new_log(), *b = new_log();
    /* Parent: magic ok, checksum ok, ordering test, switch. */
    log_int(a, 1, 2, FZ_CMP_A_EQ | FZ_CMP_A_CONST, 0x5a46, 0x5a46);
    log_int(a, 2, 2, FZ_CMP_A_EQ, 0x0123, 0x0123);
    log_int(a, 3, 4, 0, 3, 10);
    log_int(a, 4, 2, FZ_CMP_A_SWITCH, 7, 7);
    /* Child: the checksum broke, the ordering and the switch changed. */
    log_int(b, 1, 2, FZ_CMP_A_EQ | FZ_CMP_A_CONST, 0x5a46, 0x5a46);
    log_int(b, 2, 2, FZ_CMP_A_EQ, 0x0123, 0x0456);
    log_int(b, 3, 4, 0, 30, 10);
    log_int(b, 4, 2, FZ_CMP_A_SWITCH, 8, 7);
    fz_cmp_list_t pa, pb;
    read_log(&pa, a);
    read_log(&pb, b);
    uint32_t out[8];
    ck_assert_uint_eq(fz_cmp_broken(&pa, &pb, out, 8), 1);
    ck_assert_uint_eq(pb.r[out[0]].slot, 2);
    /* The magic kept its operands between the two runs; the checksum's
     * changed; a site only one run reached has no counterpart. */
    ck_assert_int_eq(fz_cmp_taint_rank(&pa.r[0], &pb), 2);
    ck_assert_int_eq(fz_cmp_taint_rank(&pa.r[1], &pb), 0);
    fz_cmp_rec_t lone = pa.r[0];
    lone.slot = 99;
    ck_assert_int_eq(fz_cmp_taint_rank(&lone, &pb), 1);
    fz_cmp_list_free(&pa);
    fz_cmp_list_free(&pb);
    free(a);
    free(b);
}
END_TEST

START_TEST(tokens_filter)
{
    uint8_t tok[FZ_CMP_STR_MAX];
    fz_cmp_rec_t r = {.type = FZ_CMP_INT, .size = 4, .attr = FZ_CMP_A_CONST, .len0 = 4, .len1 = 4};
    memcpy(r.b1, "\xef\xbe\xad\xde", 4);
    ck_assert_uint_eq(fz_cmpedit_token(&r, 1, (const uint8_t *)"abc", 3, tok), 4);
    ck_assert(!memcmp(tok, "\xef\xbe\xad\xde", 4));
    memcpy(r.b1, "\xef\xbe\0\0", 4); /* a 16-bit tag in an int */
    ck_assert_uint_eq(fz_cmpedit_token(&r, 1, NULL, 0, tok), 2);
    ck_assert_uint_eq(fz_cmpedit_token(&r, 0, NULL, 0, tok), 0); /* not the variable side */
    fz_cmp_rec_t p = r; /* two variables (pointers?): no token */
    p.attr = FZ_CMP_A_EQ;
    p.size = p.len0 = p.len1 = 8;
    memcpy(p.b1, "\x10\x32\x54\x76\xfe\x7f\0\0", 8);
    ck_assert_uint_eq(fz_cmpedit_token(&p, 1, NULL, 0, tok), 0);
    static const char *trivial[] = {"\0\0\0\0", "\1\0\0\0", "\xff\xff\xff\xff", "\0\1\0\0",
                                    "\x41\x41\0\0"};
    for (int i = 0; i < 5; i++) {
        memcpy(r.b1, trivial[i], 4);
        ck_assert_uint_eq(fz_cmpedit_token(&r, 1, NULL, 0, tok), 0);
    }
    fz_cmp_rec_t s = {.type = FZ_CMP_STR, .attr = FZ_CMP_A_STRZ, .len0 = 4, .len1 = 8};
    memcpy(s.b0, "abc", 4);
    memcpy(s.b1, "keyword", 8);
    ck_assert_uint_eq(fz_cmpedit_token(&s, 1, (const uint8_t *)"abc", 3, tok), 7);
    ck_assert(!memcmp(tok, "keyword", 7));
    ck_assert_uint_eq(fz_cmpedit_token(&s, 0, (const uint8_t *)"xabcx", 5, tok), 0); /* input's */
}
END_TEST

START_TEST(transform_sum_with_constant)
{
    /* size + 8 == n: the input holds size (u32 LE at 2), the program
     * compared size + 8 = 0x41414149 with the length, 12. */
    const char *in = "ZcAAAAq7wxyz";
    fz_cmp_rec_t r = int_rec(8, FZ_CMP_A_EQ, 0x41414141ull + 8, 12);
    ck_assert(solves(&r, in, 12, "Zc\x04\0\0\0q7wxyz", 12));
    /* b too far from 0 to be a header's size. */
    r = int_rec(8, FZ_CMP_A_EQ, 0x41414141ull + 1000, 12);
    ck_assert(!solves(&r, in, 12, "Zc\xa4\xfc\xff\xffq7wxyz", 12));
    /* A difference with no length involved, field - 3 == 0x120: a guess
     * without the coloured run, believed with it. */
    r = int_rec(4, FZ_CMP_A_EQ, 0x4141 - 3, 0x120);
    ck_assert(!solves(&r, "xxAAyy", 6, "xx\x23\x01yy", 6));
    fz_cmp_rec_t c = int_rec(4, FZ_CMP_A_EQ, 0x0201 - 3, 0x120);
    const uint8_t cin[6] = {9, 9, 1, 2, 9, 9};
    fz_cmpedit_t e[24];
    size_t n = fz_cmpedit_make(&r, (const uint8_t *)"xxAAyy", 6, &c, cin, 0, e, 24);
    int hit = 0;
    for (size_t i = 0; i < n; i++)
        hit |= e[i].pos == 2 && e[i].del == 2 && !memcmp(e[i].ins, "\x23\x01", 2) && e[i].confirmed;
    ck_assert(hit);
}
END_TEST

START_TEST(transform_multiplied_and_resized)
{
    /* words * 4 + 10 == n, words a big-endian u16 at 4: 20 bytes cannot
     * be 4 * w + 10, so the input is cut to 18 (w = 2) or grown to 22
     * (w = 3), the field written to match. */
    uint8_t in[20];
    memset(in, 'A', sizeof in);
    fz_cmp_rec_t r = int_rec(8, FZ_CMP_A_EQ, 0x4141ull * 4 + 10, 20);
    uint8_t want[22];
    memcpy(want, in, 20);
    want[4] = 0;
    want[5] = 2;
    ck_assert(solves(&r, in, 20, want, 18));
    want[5] = 3;
    want[20] = want[21] = 0;
    ck_assert(solves(&r, in, 20, want, 22));
    /* Divisible: the field alone changes (n = 18, words * 2 + 2). */
    r = int_rec(8, FZ_CMP_A_EQ, 0x4141ull * 2 + 2, 18);
    memcpy(want, in, 18);
    want[4] = 0;
    want[5] = 8;
    ck_assert(solves(&r, in, 18, want, 18));
}
END_TEST

START_TEST(transform_confirmed_by_colour)
{
    /* A byte field times 3 plus 7 == 100: no bound on b with the coloured
     * run, which compared 3 * 0x10 + 7 for the coloured byte 0x10. */
    fz_cmp_rec_t r = int_rec(4, FZ_CMP_A_EQ | FZ_CMP_A_CONST, 3 * 0x41 + 7, 100);
    fz_cmp_rec_t c = int_rec(4, FZ_CMP_A_EQ | FZ_CMP_A_CONST, 3 * 0x10 + 7, 100);
    const uint8_t cin[4] = {0x55, 0x10, 0x66, 0x77};
    fz_cmpedit_t e[24];
    size_t n = fz_cmpedit_make(&r, (const uint8_t *)"zAzz", 4, &c, cin, 0, e, 24);
    int hit = 0;
    for (size_t i = 0; i < n; i++)
        hit |= e[i].pos == 1 && e[i].del == 1 && e[i].ins[0] == 31 && e[i].confirmed;
    ck_assert(hit);
    /* The same without colour: a 1-byte field is not guessed. */
    ck_assert(!solves(&r, "zAzz", 4, "z\x1fzz", 4));
}
END_TEST

START_TEST(length_checks_resize)
{
    /* if (n < 8): the 2-byte input is padded with zeros to 8 (and 7, 9). */
    fz_cmp_rec_t r = int_rec(8, FZ_CMP_A_CONST, 2, 8);
    ck_assert(solves(&r, "hi", 2, "hi\0\0\0\0\0\0", 8));
    ck_assert(solves(&r, "hi", 2, "hi\0\0\0\0\0\0\0", 9));
    /* n != 7: cut to 7. */
    r = int_rec(8, FZ_CMP_A_CONST | FZ_CMP_A_EQ, 16, 7);
    ck_assert(solves(&r, "0123456789abcdef", 16, "0123456", 7));
    /* n - 4 != 3 is no length check (only the length itself is). */
    r = int_rec(8, FZ_CMP_A_CONST | FZ_CMP_A_EQ, 16 - 4, 3);
    ck_assert(!solves(&r, "0123456789abcdef", 16, "0123456", 7));
    /* A constant far from the length is no length check. */
    r = int_rec(8, FZ_CMP_A_CONST, 200, 8);
    ck_assert(!solves(&r, "hi", 2, "hi\0\0\0\0\0\0", 8));
}
END_TEST

START_TEST(checksum_adjusted_when_driven)
{
    /* The bytes add up to 0xe9 and must add up to 0xa5 (a byte sum
     * widened to int): the last byte that can take the difference mod
     * 256 gets it, only for a record known to follow the input. */
    fz_cmp_rec_t r = int_rec(4, FZ_CMP_A_EQ | FZ_CMP_A_CONST, 0xe9, 0xa5);
    ck_assert(solves_f(&r, "ZcAA", 4, FZ_CMPEDIT_DRIVEN, "ZcA\xfd", 4));
    ck_assert(!solves(&r, "ZcAA", 4, "ZcA\xfd", 4));
    /* An xor over the bytes: the last byte xored with the difference. */
    r = int_rec(1, FZ_CMP_A_EQ, 0x13, 0x37);
    ck_assert(solves_f(&r, "abcd", 4, FZ_CMPEDIT_DRIVEN, "abc\x40", 4));
    /* A 16-bit sum: the difference added to one byte that does not wrap. */
    r = int_rec(2, FZ_CMP_A_EQ | FZ_CMP_A_CONST, 0x1000, 0x1010);
    ck_assert(solves_f(&r, "\x01\x02\xf8\x03", 4, FZ_CMPEDIT_DRIVEN, "\x01\x02\xf8\x13", 4));
}
END_TEST

START_TEST(byte_order_and_width_of_a_transform)
{
    /* A 16-bit count compared as 8 bytes after * 8 with the length (32):
     * found at width 2 in either byte order. */
    uint8_t in[32], want[32];
    memset(in, 'z', sizeof in);
    in[0] = 2;
    in[1] = 3;
    memcpy(want, in, sizeof in);
    fz_cmp_rec_t r = int_rec(8, FZ_CMP_A_EQ, 0x0302ull * 8, 32);
    want[0] = 4;
    want[1] = 0;
    ck_assert(solves(&r, in, 32, want, 32));
    r = int_rec(8, FZ_CMP_A_EQ, 0x0203ull * 8, 32);
    want[0] = 0;
    want[1] = 4;
    ck_assert(solves(&r, in, 32, want, 32));
}
END_TEST

START_TEST(last_of_many_equal_bytes)
{
    /* buf[n-1] == xor of the rest on a seed of 20 'A's: the trailer byte
     * is the last of 20 equal bytes, past the first 16. */
    uint8_t in[20], want[20];
    memset(in, 'A', sizeof in);
    memcpy(want, in, sizeof in);
    want[19] = 0x5a;
    fz_cmp_rec_t r = int_rec(1, FZ_CMP_A_EQ, 'A', 0x5a);
    ck_assert(solves(&r, in, 20, want, 20));
}
END_TEST

START_TEST(apply_bounds)
{
    fz_cmpedit_t e = {.pos = 2, .del = 1, .ins_len = 3};
    memcpy(e.ins, "XYZ", 3);
    uint8_t out[16];
    ck_assert_uint_eq(fz_cmpedit_apply((const uint8_t *)"abcd", 4, &e, out, sizeof out), 6);
    ck_assert(!memcmp(out, "abXYZd", 6));
    ck_assert_uint_eq(fz_cmpedit_apply((const uint8_t *)"abcd", 4, &e, out, 4), 4);
    ck_assert(!memcmp(out, "abXY", 4));
    e.pos = 100; /* past the end: appended */
    e.del = 9;
    ck_assert_uint_eq(fz_cmpedit_apply((const uint8_t *)"ab", 2, &e, out, sizeof out), 5);
    ck_assert(!memcmp(out, "abXYZ", 5));
    /* Resized: cut, or padded with zeros, and never past max. */
    fz_cmpedit_t g = {.pos = 0, .del = 1, .ins_len = 1, .resize = 3, .ins = {'X'}};
    ck_assert_uint_eq(fz_cmpedit_apply((const uint8_t *)"abcdef", 6, &g, out, sizeof out), 3);
    ck_assert(!memcmp(out, "Xbc", 3));
    g.resize = 9;
    ck_assert_uint_eq(fz_cmpedit_apply((const uint8_t *)"abcdef", 6, &g, out, sizeof out), 9);
    ck_assert(!memcmp(out, "Xbcdef\0\0\0", 9));
    g.resize = 100;
    ck_assert_uint_eq(fz_cmpedit_apply((const uint8_t *)"abcdef", 6, &g, out, sizeof out), 16);
}
END_TEST

static Suite *cmpedit_suite(void)
{
    Suite *s = suite_create("cmpedit");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, read_dedupes_and_validates);
    tcase_add_test(tc, read_ignores_stale_slots);
    tcase_add_test(tc, int_magic_as_is_and_swapped);
    tcase_add_test(tc, int_width_change_off_by_one_ascii);
    tcase_add_test(tc, ordering_tries_both_sides_of_the_bound);
    tcase_add_test(tc, switch_cases_each_become_edits);
    tcase_add_test(tc, strings_replace_overwrite_find);
    tcase_add_test(tc, colour_confirms_the_position);
    tcase_add_test(tc, broken_checks_and_taint);
    tcase_add_test(tc, transform_sum_with_constant);
    tcase_add_test(tc, transform_multiplied_and_resized);
    tcase_add_test(tc, transform_confirmed_by_colour);
    tcase_add_test(tc, length_checks_resize);
    tcase_add_test(tc, checksum_adjusted_when_driven);
    tcase_add_test(tc, byte_order_and_width_of_a_transform);
    tcase_add_test(tc, last_of_many_equal_bytes);
    tcase_add_test(tc, tokens_filter);
    tcase_add_test(tc, apply_bounds);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return fz_check_run(cmpedit_suite());
}
