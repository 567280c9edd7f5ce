/*
 * check_text.c - the -a text hint (mutators/text.h): bytes a mutation made
 * unprintable mostly become printable, bytes the original already had stay,
 * and the result depends on the seed only.
 */
#include <check.h>
#include <string.h>

#include "mutators/text.h"
#include "tests/check-run.h"

const char *fz_log_prog = "check_text";

START_TEST(test_bias)
{
    fz_rng_t rng;
    fz_rng_seed(&rng, 1);
    uint8_t orig[4096], buf[4096];
    for (size_t i = 0; i < sizeof orig; i++)
        orig[i] = (uint8_t)('a' + i % 26);
    orig[100] = 0x01; /* binary the input already had */
    memcpy(buf, orig, sizeof buf);
    for (size_t i = 0; i < sizeof buf; i += 2)
        if (i != 100)
            buf[i] = (uint8_t)(i % 0x20); /* a mutation made these control bytes */
    size_t changed = fz_text_bias(&rng, buf, sizeof buf, orig, sizeof orig);
    ck_assert_uint_eq(buf[100], 0x01);
    size_t bad = 0;
    for (size_t i = 0; i < sizeof buf; i++)
        bad += !fz_text_byte_ok(buf[i]);
    /* ~1/4 of the 2048 control bytes stay (plus the original one and the
     * tabs, newlines and returns that were fine already). */
    ck_assert_msg(changed > 1200 && changed < 1800, "changed %zu", changed);
    ck_assert_msg(bad > 300 && bad < 700, "%zu unprintable bytes left", bad);
    /* Past the original's end every byte is new. */
    uint8_t tail[8] = {'x', 0x00, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07};
    fz_text_bias(&rng, tail, sizeof tail, tail, 1);
    ck_assert_uint_eq(tail[0], 'x');
    /* Same seed, same result. */
    uint8_t a[64], b[64];
    memset(a, 0x00, sizeof a);
    memset(b, 0x00, sizeof b);
    fz_rng_seed(&rng, 7);
    fz_text_bias(&rng, a, sizeof a, NULL, 0);
    fz_rng_seed(&rng, 7);
    fz_text_bias(&rng, b, sizeof b, NULL, 0);
    ck_assert_mem_eq(a, b, sizeof a);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("text");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_bias);
    suite_add_tcase(s, tc);
    return fz_check_run(s);
}
