/*
 * check_stats.c - the files monitoring tools read: fuzzer_stats carries
 * AFL++ 4.04c's keys as "key<spaces>: value" lines (afl-whatsup turns each
 * into a shell assignment), plot_data has AFL++'s header and 13 columns;
 * and writes are atomic (no temp file left, nothing written on failure).
 */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fz-fuzz/outdir.h"
#include "fz-fuzz/resume.h"
#include "fz-fuzz/stats.h"
#include "fz-fuzz/status.h"
#include "tests/check-run.h"

const char *fz_log_prog = "check_stats";

static void sample(fz_stats_report_t *r)
{
    memset(r, 0, sizeof(*r));
    r->start_time = 1700000000;
    r->last_update = 1700000100;
    r->run_time = 100;
    r->fuzzer_pid = 4242;
    r->cycles_done = 3;
    r->execs_done = 123456;
    r->execs_per_sec = 1234.56;
    r->execs_ps_last_min = 987.5;
    r->cpu_affinity = -1;
    r->testcache_size = 4096;
    r->testcache_count = 17;
    r->flaky_crashes = 1;
    r->corpus_count = 17;
    r->corpus_favored = 5;
    r->saved_crashes = 2;
    r->stability = 99.5;
    r->bitmap_cvg = 12.25;
    r->edges_found = 40;
    r->total_edges = 65536;
    r->afl_banner = "./target";
    r->command_line = "fz-fuzz -i in -o out -- ./target @@";
}

/* The value of key in a fuzzer_stats text, or NULL. */
static char *value_of(const char *text, const char *key, char *out, size_t n)
{
    const char *p = text;
    size_t klen = strlen(key);
    while (p && *p) {
        if (strncmp(p, key, klen) == 0 && (p[klen] == ' ' || p[klen] == ':')) {
            const char *colon = strchr(p, ':');
            const char *end = strchr(p, '\n');
            colon += 2;
            snprintf(out, n, "%.*s", (int)(end - colon), colon);
            return out;
        }
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    return NULL;
}

START_TEST(test_keys)
{
    fz_stats_report_t r;
    sample(&r);
    char buf[8192], v[256];
    int n = fz_stats_format(buf, sizeof(buf), &r);
    ck_assert_int_lt(n, (int)sizeof(buf));
    /* AFL++ 4.04c's whole list, in its order (`strings /usr/bin/afl-fuzz`
     * shows the format string): tools that read the file by line number as
     * well as by key see what afl-fuzz would write. */
    static const char *afl_keys[] = {
        "start_time",        "last_update",       "run_time",          "fuzzer_pid",
        "cycles_done",       "cycles_wo_finds",   "execs_done",        "execs_per_sec",
        "execs_ps_last_min", "corpus_count",      "corpus_favored",    "corpus_found",
        "corpus_imported",   "corpus_variable",   "max_depth",         "cur_item",
        "pending_favs",      "pending_total",     "stability",         "bitmap_cvg",
        "saved_crashes",     "saved_hangs",       "last_find",         "last_crash",
        "last_hang",         "execs_since_crash", "exec_timeout",      "slowest_exec_ms",
        "peak_rss_mb",       "cpu_affinity",      "edges_found",       "total_edges",
        "var_byte_count",    "havoc_expansion",   "auto_dict_entries", "testcache_size",
        "testcache_count",   "testcache_evict",   "afl_banner",        "afl_version",
        "target_mode",       "command_line"};
    /* fz's own keys (afl-whatsup ignores keys it does not know). */
    static const char *fz_keys[] = {"execs_per_fork", "execs_per_request", "calibration_execs", "minimize_execs",
                                    "total_crashes",  "total_hangs",       "slow_inputs",       "flaky_crashes",
                                    "rng_seed",       "sync_execs",        "target_warnings",
                                    "fsrv_protocol",  "unique_crash_sites", "flaky_crash_sites",
                                    "cmplog",         "cmplog_execs",      "cmplog_finds",
                                    "colour_execs",   "colour_finds"};
    size_t n_afl = sizeof(afl_keys) / sizeof(afl_keys[0]);
    size_t n_fz = sizeof(fz_keys) / sizeof(fz_keys[0]);
    size_t next_afl = 0, lines = 0;
    for (char *line = buf; *line; lines++) {
        char key[32];
        ck_assert_int_eq(sscanf(line, "%31[a-z_]", key), 1);
        int known = 0;
        for (size_t i = 0; i < n_fz; i++)
            known |= strcmp(key, fz_keys[i]) == 0;
        if (!known) {
            ck_assert_msg(next_afl < n_afl, "unexpected key %s after command_line", key);
            ck_assert_msg(strcmp(key, afl_keys[next_afl]) == 0, "key %s where AFL++ has %s", key,
                          afl_keys[next_afl]);
            next_afl++;
        }
        line = strchr(line, '\n') + 1;
    }
    ck_assert_msg(next_afl == n_afl, "missing AFL++ key %s",
                  afl_keys[next_afl < n_afl ? next_afl : 0]);
    ck_assert_uint_eq(lines, n_afl + n_fz);
    for (size_t i = 0; i < n_fz; i++)
        ck_assert_msg(value_of(buf, fz_keys[i], v, sizeof(v)), "missing key %s", fz_keys[i]);
    ck_assert_str_eq(value_of(buf, "execs_ps_last_min", v, sizeof(v)), "987.50");
    ck_assert_str_eq(value_of(buf, "cmplog", v, sizeof(v)), "off"); /* unset: off */
    ck_assert_str_eq(value_of(buf, "cpu_affinity", v, sizeof(v)), "-1");
    ck_assert_str_eq(value_of(buf, "testcache_size", v, sizeof(v)), "4096");
    ck_assert_str_eq(value_of(buf, "testcache_count", v, sizeof(v)), "17");
    ck_assert_str_eq(value_of(buf, "flaky_crashes", v, sizeof(v)), "1");
    ck_assert_str_eq(value_of(buf, "execs_done", v, sizeof(v)), "123456");
    ck_assert_str_eq(value_of(buf, "execs_per_sec", v, sizeof(v)), "1234.56");
    ck_assert_str_eq(value_of(buf, "stability", v, sizeof(v)), "99.50%");
    ck_assert_str_eq(value_of(buf, "bitmap_cvg", v, sizeof(v)), "12.25%");
    ck_assert_str_eq(value_of(buf, "fuzzer_pid", v, sizeof(v)), "4242");
    ck_assert_str_eq(value_of(buf, "afl_banner", v, sizeof(v)), "./target");
    ck_assert_str_eq(value_of(buf, "target_warnings", v, sizeof(v)), "none");

    /* Every line is "key", spaces to column 18, ": ", value (AFL++'s layout,
     * which afl-whatsup's sed relies on). */
    for (char *line = buf; *line;) {
        char *end = strchr(line, '\n');
        ck_assert_ptr_nonnull(end);
        ck_assert_msg(end - line > 20 && line[18] == ':' && line[19] == ' ', "bad line: %.*s",
                      (int)(end - line), line);
        line = end + 1;
    }
}
END_TEST

START_TEST(test_resume_parse)
{
    /* What fz_stats_format writes, a resumed run reads back. */
    fz_stats_report_t r;
    sample(&r);
    r.total_crashes = 9;
    r.total_hangs = 4;
    r.flaky_crashes = 2;
    r.flaky_crash_sites = 5;
    char buf[8192];
    fz_stats_format(buf, sizeof(buf), &r);
    fz_stats_t s;
    memset(&s, 0, sizeof(s));
    ck_assert_int_eq(fz_resume_parse_stats(buf, &s), 7);
    ck_assert_uint_eq(s.prev_flaky_crashes, 2);
    ck_assert_uint_eq(s.prev_flaky_sites, 5);
    ck_assert_uint_eq(s.prev_execs, 123456);
    ck_assert_uint_eq(s.prev_run_time, 100);
    ck_assert_uint_eq(s.prev_cycles, 3);
    ck_assert_uint_eq(s.prev_total_crashes, 9);
    ck_assert_uint_eq(s.prev_total_hangs, 4);
    /* Damaged or foreign files: bad values and look-alike keys are skipped. */
    memset(&s, 0, sizeof(s));
    ck_assert_int_eq(fz_resume_parse_stats("execs_done : lots\nexecs_done_x : 5\n"
                                           "run_time:\ncycles_done : 7\ntotal_hangs",
                                           &s),
                     1);
    ck_assert_uint_eq(s.prev_execs, 0);
    ck_assert_uint_eq(s.prev_cycles, 7);
    ck_assert_int_eq(fz_resume_parse_stats("", &s), 0);
}
END_TEST

START_TEST(test_plot)
{
    ck_assert_str_eq(FZ_PLOT_HEADER,
                     "# relative_time, cycles_done, cur_item, corpus_count, pending_total, "
                     "pending_favs, map_size, saved_crashes, saved_hangs, max_depth, "
                     "execs_per_sec, total_execs, edges_found\n");
    fz_stats_report_t r;
    sample(&r);
    char line[256];
    fz_stats_plot_line(line, sizeof(line), &r);
    ck_assert_str_eq(line, "100, 3, 0, 17, 0, 0, 12.25%, 2, 0, 0, 1234.56, 123456, 40\n");
    int commas = 0;
    for (char *p = line; *p; p++)
        commas += *p == ',';
    ck_assert_int_eq(commas, 12);
}
END_TEST

static int count_files(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *de; (de = readdir(d));)
        n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
    closedir(d);
    return n;
}

START_TEST(test_atomic_write)
{
    char dir[] = "/tmp/check_stats.XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    ck_assert_int_eq(fz_write_atomic(dir, "f", "hello", 5), 0);
    ck_assert_int_eq(fz_write_atomic(dir, "f", "hi", 2), 0);
    ck_assert_int_eq(count_files(dir), 1); /* no temp file left */
    char path[64], buf[16] = "";
    snprintf(path, sizeof(path), "%s/f", dir);
    FILE *f = fopen(path, "r");
    ck_assert_uint_eq(fread(buf, 1, sizeof(buf), f), 2);
    fclose(f);
    ck_assert_str_eq(buf, "hi");
    /* A failing write reports the error and leaves nothing behind. */
    char missing[80];
    snprintf(missing, sizeof(missing), "%s/nope", dir);
    ck_assert_int_lt(fz_write_atomic(missing, "f", "x", 1), 0);
    ck_assert_int_eq(count_files(dir), 1);
    unlink(path);
    rmdir(dir);
}
END_TEST

/* execs_ps_last_min: the rate since the oldest sample inside the last
 * minute, or since the start when the run is younger than the samples. */
START_TEST(test_rate_last_min)
{
    static fz_stats_t s;
    memset(&s, 0, sizeof(s));
    s.start_ms = 1000000;
    /* No sample yet: the rate since the start. */
    ck_assert_double_eq_tol(fz_stats_rate_last_min(&s, 1002000, 2000), 1000.0, 1e-9);
    /* 1000 runs/s for 100 s, then 10 runs/s for 60 s: the last minute is 10/s. */
    uint64_t t = s.start_ms, e = 0;
    for (int i = 0; i < 100; i++)
        fz_stats_rate_sample(&s, t += 1000, e += 1000);
    for (int i = 0; i < 60; i++)
        fz_stats_rate_sample(&s, t += 1000, e += 10);
    ck_assert_uint_eq(s.rate_n, FZ_STATS_RATE_SLOTS);
    ck_assert_double_eq_tol(fz_stats_rate_last_min(&s, t, e), 10.0, 1e-9);
    /* Half a minute later at 30 runs/s: 30 s at 10/s and 30 s at 30/s. */
    for (int i = 0; i < 30; i++)
        fz_stats_rate_sample(&s, t += 1000, e += 30);
    ck_assert_double_eq_tol(fz_stats_rate_last_min(&s, t, e), 20.0, 1e-9);
}
END_TEST

/* The clock is read about every FZ_STATUS_CHECK_MS whatever the speed. */
/* fuzzer_stats.json: every key of fuzzer_stats with its value, numbers
 * as numbers, text quoted and escaped. */
START_TEST(test_json)
{
    fz_stats_report_t r;
    sample(&r);
    r.command_line = "./t \"a b\" \\x";
    char text[8192], json[16384];
    fz_stats_format(text, sizeof text, &r);
    ck_assert_int_gt(fz_stats_json(text, json, sizeof json), 0);
    ck_assert_ptr_nonnull(strstr(json, "\"execs_done\": 123456,"));
    ck_assert_ptr_nonnull(strstr(json, "\"start_time\": 1700000000,"));
    ck_assert_ptr_nonnull(strstr(json, "\"afl_version\": \""));
    ck_assert_ptr_nonnull(strstr(json, "\"command_line\": \"./t \\\"a b\\\" \\\\x\""));
    int keys = 0, lines = 0;
    for (const char *p = text; (p = strchr(p, '\n')); p++)
        lines++;
    for (const char *p = json; (p = strstr(p, "\": ")); p++)
        keys++;
    ck_assert_int_eq(keys, lines);
    ck_assert_int_eq(json[0], '{');
    ck_assert_int_eq(fz_stats_json(text, json, 64), -1); /* too small: refused, not cut */
}
END_TEST

/* The live screen only for a terminal terminfo knows. */
START_TEST(test_term_ok)
{
    ck_assert_int_eq(fz_status_term_ok(NULL), 0);
    ck_assert_int_eq(fz_status_term_ok(""), 0);
    ck_assert_int_eq(fz_status_term_ok("dumb"), 0);
    ck_assert_int_eq(fz_status_term_ok("no-such-terminal-xyz"), 0);
    ck_assert_int_eq(fz_status_term_ok("../../etc/passwd"), 0);
}
END_TEST

START_TEST(test_status_interval)
{
    ck_assert_uint_eq(fz_status_interval(10, 1000), 1);    /* 10 runs/s: every run */
    ck_assert_uint_eq(fz_status_interval(1, 2000), 1);     /* 2 s per run */
    ck_assert_uint_eq(fz_status_interval(1000, 1000), 50); /* 1000/s: 50 runs = 50 ms */
    ck_assert_uint_eq(fz_status_interval(100, 0), FZ_STATUS_CHECK_EXECS_MAX); /* < 1 ms */
    ck_assert_uint_eq(fz_status_interval(1000000, 1000), FZ_STATUS_CHECK_EXECS_MAX);
    ck_assert_uint_eq(fz_status_interval(0, 100), 1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("stats");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_keys);
    tcase_add_test(tc, test_plot);
    tcase_add_test(tc, test_resume_parse);
    tcase_add_test(tc, test_atomic_write);
    tcase_add_test(tc, test_rate_last_min);
    tcase_add_test(tc, test_status_interval);
    tcase_add_test(tc, test_json);
    tcase_add_test(tc, test_term_ok);
    suite_add_tcase(s, tc);
    return fz_check_run(s);
}
