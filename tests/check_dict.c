/*
 * check_dict.c - unit tests for dictionaries: the token set and the
 * AFL-format parser (mutators/dict.h, on buffers), including every error a
 * user can cause (each must name the file and line and never abort), and
 * reading -x files and directories (fz-fuzz/dictfile.h).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fz-fuzz/dictfile.h"
#include "mutators/dict.h"
#include "tests/check-run.h"

const char *fz_log_prog = "check_dict"; /* core/fileio.c speaks through fz-log.h */

static char tmpdir[64];

static void setup(void)
{
    strcpy(tmpdir, "/tmp/check_dict.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
    ck_assert_int_eq(system(cmd), 0);
}

/* Write TEXT to tmpdir/NAME and return the path (static buffer). */
static const char *write_file(const char *name, const char *text, size_t n)
{
    static char path[256];
    snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(text, 1, n, f), n);
    fclose(f);
    return path;
}

static const char *write_text(const char *name, const char *text)
{
    return write_file(name, text, strlen(text));
}

static int has_token(const fz_dict_t *d, const void *tok, size_t len)
{
    for (size_t i = 0; i < d->count; i++)
        if (d->tokens[i].len == len && memcmp(d->tokens[i].data, tok, len) == 0)
            return 1;
    return 0;
}

START_TEST(add_dedups_and_limits)
{
    fz_dict_t d;
    fz_dict_init(&d);
    ck_assert_int_eq(fz_dict_add(&d, (const uint8_t *)"abc", 3), 1);
    ck_assert_int_eq(fz_dict_add(&d, (const uint8_t *)"abc", 3), 0);
    ck_assert_int_eq(fz_dict_add(&d, (const uint8_t *)"ab", 2), 1);
    ck_assert_int_eq(fz_dict_add(&d, (const uint8_t *)"", 0), -1);
    uint8_t big[FZ_DICT_TOKEN_MAX + 1];
    memset(big, 'z', sizeof(big));
    ck_assert_int_eq(fz_dict_add(&d, big, FZ_DICT_TOKEN_MAX), 1);
    ck_assert_int_eq(fz_dict_add(&d, big, FZ_DICT_TOKEN_MAX + 1), -1);
    ck_assert_uint_eq(d.count, 3);
    for (int i = 0; i < 100; i++) /* growth */
        ck_assert_int_eq(fz_dict_add(&d, (const uint8_t *)&i, sizeof(i)), 1);
    ck_assert_uint_eq(d.count, 103);
    fz_dict_free(&d);
    ck_assert_uint_eq(d.count, 0);
}
END_TEST

START_TEST(parse_good_text)
{
    const char *text = ("# a comment\n"
                        "\n"
                        "kw_get=\"GET\"\n"
                        "  kw_post = \"POST\"   \n"
                        "\"bare\"\n"
                        "hex=\"\\x00\\xff\\x7F\"\n"
                        "esc=\"a\\\"b\\\\c\"\n"
                        "dup=\"GET\"\n"
                        "crlf=\"line\"\r\n"
                        "sp=\"with space\" # trailing comment\n"
                        "lvl@1=\"level1\"\n"
                        "lvl@0=\"level0\"\n"
                        "last=\"no newline\"");
    fz_dict_t d;
    fz_dict_init(&d);
    char err[256] = "";
    int n = fz_dict_parse(&d, text, strlen(text), "good.dict", 0, err, sizeof(err));
    ck_assert_msg(n == 9, "loaded %d: %s", n, err);
    ck_assert(has_token(&d, "GET", 3));
    ck_assert(has_token(&d, "POST", 4));
    ck_assert(has_token(&d, "bare", 4));
    ck_assert(has_token(&d, "\x00\xff\x7f", 3));
    ck_assert(has_token(&d, "a\"b\\c", 5));
    ck_assert(has_token(&d, "line", 4));
    ck_assert(has_token(&d, "with space", 10));
    ck_assert(has_token(&d, "level0", 6));
    ck_assert(!has_token(&d, "level1", 6)); /* level 1 > default level 0 */
    ck_assert(has_token(&d, "no newline", 10));

    /* Level 1 adds the @1 entry; tokens already there are not counted twice. */
    ck_assert_int_eq(fz_dict_parse(&d, text, strlen(text), "good.dict", 1, err, sizeof(err)), 1);
    ck_assert(has_token(&d, "level1", 6));
    /* Only len bytes are read: a buffer without a final NUL or newline. */
    ck_assert_int_eq(fz_dict_parse(&d, "\"cut\"XYZ", 5, "n", 0, err, sizeof(err)), 1);
    ck_assert(has_token(&d, "cut", 3));
    ck_assert_int_eq(fz_dict_parse(&d, "", 0, "empty", 0, err, sizeof(err)), 0);
    fz_dict_free(&d);
}
END_TEST

/* The file side: path@N sets the level, syntax errors carry file:line. */
START_TEST(load_file_with_level)
{
    const char *p = write_text("good.dict", "a=\"alpha\"\nb@2=\"beta\"\n");
    char at[300], err[256] = "";
    snprintf(at, sizeof(at), "%s@2", p);
    fz_dict_t d;
    fz_dict_init(&d);
    ck_assert_int_eq(fz_dictfile_load(&d, p, err, sizeof(err)), 1);
    ck_assert_int_eq(fz_dictfile_load(&d, at, err, sizeof(err)), 1);
    ck_assert(has_token(&d, "beta", 4));
    p = write_text("bad.dict", "a=\"ok\"\n\n b=\"open\n");
    ck_assert_int_eq(fz_dictfile_load(&d, p, err, sizeof(err)), -1);
    ck_assert_msg(strstr(err, "bad.dict:3: unterminated") && strstr(err, tmpdir), "%s", err);
    fz_dict_free(&d);
}
END_TEST

/* Parse TEXT, expect failure with a message containing WANT. */
static void expect_error(const char *text, const char *want)
{
    fz_dict_t d;
    fz_dict_init(&d);
    char err[256] = "";
    ck_assert_int_eq(fz_dict_parse(&d, text, strlen(text), "bad.dict", 0, err, sizeof(err)), -1);
    ck_assert_msg(strstr(err, want), "message '%s' lacks '%s'", err, want);
    ck_assert_msg(strstr(err, "bad.dict"), "message '%s' lacks the file name", err);
    fz_dict_free(&d);
}

START_TEST(syntax_errors_name_file_and_line)
{
    expect_error("ok=\"a\"\nbroken=\"abc\n", "bad.dict:2: unterminated");
    expect_error("# c\n\nnoquote=abc\n", "bad.dict:3: the value must start with a double quote");
    expect_error("x \"abc\"\n", "bad.dict:1: expected name=");
    expect_error("a=\"ok\"\nb=\"bad\\q\"\n", "bad.dict:2: bad escape");
    expect_error("a=\"\\x4\"\n", "bad.dict:1: bad escape");
    expect_error("a=\"ab\"cd\n", "bad.dict:1: unexpected text after the closing quote");
    expect_error("a=\"\"\n", "bad.dict:1: empty value");
    expect_error("a@=\"x\"\n", "bad.dict:1: '@' must be followed by a level");
    expect_error("a=\"tab\there\"\n", "bad.dict:1: byte 0x09");
}
END_TEST

/* A token longer than FZ_DICT_TOKEN_MAX is rejected (not cut), with the line. */
START_TEST(long_token_rejected)
{
    char text[512];
    char *q = text + sprintf(text, "short=\"s\"\nlong=\"");
    memset(q, 'L', FZ_DICT_TOKEN_MAX + 1);
    strcpy(q + FZ_DICT_TOKEN_MAX + 1, "\"\n");
    expect_error(text, "bad.dict:2: token is longer than 128 bytes");

    /* Exactly at the limit is fine. */
    q = text + sprintf(text, "max=\"");
    memset(q, 'M', FZ_DICT_TOKEN_MAX);
    strcpy(q + FZ_DICT_TOKEN_MAX, "\"\n");
    fz_dict_t d;
    fz_dict_init(&d);
    char err[256];
    ck_assert_int_eq(fz_dict_parse(&d, text, strlen(text), "max.dict", 0, err, sizeof(err)), 1);
    ck_assert_uint_eq(d.tokens[0].len, FZ_DICT_TOKEN_MAX);
    fz_dict_free(&d);
}
END_TEST

START_TEST(missing_file_and_directory_form)
{
    fz_dict_t d;
    fz_dict_init(&d);
    char err[256] = "", path[300];
    snprintf(path, sizeof(path), "%s/nope.dict", tmpdir);
    ck_assert_int_eq(fz_dictfile_load(&d, path, err, sizeof(err)), -1);
    ck_assert(strstr(err, "nope.dict") && strstr(err, "No such file"));

    /* A directory: one token per file. */
    char dir[300];
    snprintf(dir, sizeof(dir), "%s/tokens", tmpdir);
    ck_assert_int_eq(mkdir(dir, 0700), 0);
    write_file("tokens/a", "\x00\x01\x02", 3);
    write_file("tokens/b", "PNG", 3);
    write_file("tokens/empty", "", 0);
    ck_assert_int_eq(fz_dictfile_load(&d, dir, err, sizeof(err)), 2);
    ck_assert(has_token(&d, "\x00\x01\x02", 3) && has_token(&d, "PNG", 3));
    char big[FZ_DICT_TOKEN_MAX + 1];
    memset(big, 'B', sizeof(big));
    write_file("tokens/big", big, sizeof(big));
    ck_assert_int_eq(fz_dictfile_load(&d, dir, err, sizeof(err)), -1);
    ck_assert_msg(strstr(err, "tokens/big") && strstr(err, "longer than 128"), "%s", err);
    fz_dict_free(&d);
}
END_TEST

/* A NULL or zero-size error buffer must not be written. */
START_TEST(error_buffer_optional)
{
    const char *text = "\"unterminated\n";
    fz_dict_t d;
    fz_dict_init(&d);
    ck_assert_int_eq(fz_dict_parse(&d, text, strlen(text), "bad.dict", 0, NULL, 0), -1);
    const char *p = write_text("bad.dict", text);
    ck_assert_int_eq(fz_dictfile_load(&d, p, NULL, 0), -1);
    fz_dict_free(&d);
}
END_TEST

static Suite *dict_suite(void)
{
    Suite *s = suite_create("dict");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, add_dedups_and_limits);
    tcase_add_test(tc, parse_good_text);
    tcase_add_test(tc, load_file_with_level);
    tcase_add_test(tc, syntax_errors_name_file_and_line);
    tcase_add_test(tc, long_token_rejected);
    tcase_add_test(tc, missing_file_and_directory_form);
    tcase_add_test(tc, error_buffer_optional);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return fz_check_run(dict_suite());
}
