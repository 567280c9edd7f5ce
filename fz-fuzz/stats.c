/*
 * stats.c - fuzzer_stats and plot_data.  The key names, their order and the
 * plot_data columns follow AFL++ 4.04c (afl-fuzz-stats.c), because
 * afl-whatsup sources fuzzer_stats as shell assignments and afl-plot reads
 * plot_data columns by number.  Both files are rewritten whole through a
 * temp file and rename, so readers never see half a file.
 */
#include "stats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "core/coverage.h"
#include "fz-fuzz/state.h"
#include "fz-log.h"

int fz_stats_format(char *buf, size_t n, const fz_stats_report_t *r)
{
    /* Only for a target whose runtime reported its modules (fz-cc's). */
    char mods[96] = "";
    if (r->modules_known)
        snprintf(mods, sizeof mods, "instrumented_mods : %u\nuninstr_libs      : %u\n",
                 r->instrumented_mods, r->uninstr_libs);
    return snprintf(
        buf, n,
        "start_time        : %llu\n"
        "last_update       : %llu\n"
        "run_time          : %llu\n"
        "fuzzer_pid        : %d\n"
        "cycles_done       : %llu\n"
        "cycles_wo_finds   : %llu\n"
        "execs_done        : %llu\n"
        "execs_per_sec     : %0.02f\n"
        "execs_ps_last_min : %0.02f\n"
        "corpus_count      : %u\n"
        "corpus_favored    : %u\n"
        "corpus_found      : %u\n"
        "corpus_imported   : %u\n"
        "corpus_variable   : %u\n"
        "max_depth         : %u\n"
        "cur_item          : %u\n"
        "pending_favs      : %u\n"
        "pending_total     : %u\n"
        "stability         : %0.02f%%\n"
        "bitmap_cvg        : %0.02f%%\n"
        "saved_crashes     : %llu\n"
        "saved_hangs       : %llu\n"
        "last_find         : %llu\n"
        "last_crash        : %llu\n"
        "last_hang         : %llu\n"
        "execs_since_crash : %llu\n"
        "exec_timeout      : %u\n"
        "slowest_exec_ms   : %u\n"
        "peak_rss_mb       : %lu\n"
        "cpu_affinity      : %d\n"
        "edges_found       : %u\n"
        "total_edges       : %u\n"
        "var_byte_count    : %u\n"
        "havoc_expansion   : %u\n"
        "auto_dict_entries : %u\n"
        "testcache_size    : %llu\n"
        "testcache_count   : %u\n"
        "testcache_evict   : %u\n"
        "execs_per_fork    : %0.02f\n"
        "execs_per_request : %0.02f\n"
        "calibration_execs : %llu\n"
        "minimize_execs    : %llu\n"
        "total_crashes     : %llu\n"
        "total_hangs       : %llu\n"
        "slow_inputs       : %llu\n"
        "flaky_crashes     : %llu\n"
        "unique_crash_sites: %u\n"
        "flaky_crash_sites : %llu\n"
        "rng_seed          : %llu\n"
        "sync_execs        : %llu\n"
        "cmplog            : %s\n"
        "cmplog_execs      : %llu\n"
        "cmplog_finds      : %llu\n"
        "colour_execs      : %llu\n"
        "colour_finds      : %llu\n"
        "afl_banner        : %s\n"
        "afl_version       : fz-%s\n"
        "target_mode       : %s\n"
        "fsrv_protocol     : %s\n"
        "target_warnings   : %s\n"
        "%s"
        "command_line      : %s\n",
        (unsigned long long)r->start_time, (unsigned long long)r->last_update,
        (unsigned long long)r->run_time, r->fuzzer_pid, (unsigned long long)r->cycles_done,
        (unsigned long long)r->cycles_wo_finds, (unsigned long long)r->execs_done, r->execs_per_sec,
        r->execs_ps_last_min, r->corpus_count, r->corpus_favored, r->corpus_found,
        r->corpus_imported, r->corpus_variable, r->max_depth, r->cur_item, r->pending_favs,
        r->pending_total, r->stability, r->bitmap_cvg, (unsigned long long)r->saved_crashes,
        (unsigned long long)r->saved_hangs, (unsigned long long)r->last_find,
        (unsigned long long)r->last_crash, (unsigned long long)r->last_hang,
        (unsigned long long)r->execs_since_crash, r->exec_timeout, r->slowest_exec_ms,
        r->peak_rss_mb, r->cpu_affinity, r->edges_found, r->total_edges, r->var_byte_count,
        r->havoc_expansion, r->auto_dict_entries, (unsigned long long)r->testcache_size,
        r->testcache_count, r->testcache_evict, r->execs_per_fork, r->execs_per_request,
        (unsigned long long)r->calibration_execs, (unsigned long long)r->minimization_execs,
        (unsigned long long)r->total_crashes, (unsigned long long)r->total_hangs,
        (unsigned long long)r->slow_inputs,
        (unsigned long long)r->flaky_crashes, r->unique_crash_sites,
        (unsigned long long)r->flaky_crash_sites, (unsigned long long)r->seed,
        (unsigned long long)r->sync_execs, r->cmplog ? r->cmplog : "off",
        (unsigned long long)r->cmplog_execs, (unsigned long long)r->cmplog_finds,
        (unsigned long long)r->colour_execs, (unsigned long long)r->colour_finds,
        r->afl_banner ? r->afl_banner : "", FZ_VERSION,
        r->target_mode ? r->target_mode : "default", r->fsrv_protocol ? r->fsrv_protocol : "v1",
        r->target_warnings && *r->target_warnings ? r->target_warnings : "none",
        mods, r->command_line ? r->command_line : "");
}

int fz_stats_plot_line(char *buf, size_t n, const fz_stats_report_t *r)
{
    return snprintf(
        buf, n, "%llu, %llu, %u, %u, %u, %u, %0.02f%%, %llu, %llu, %u, %0.02f, %llu, %u\n",
        (unsigned long long)r->run_time, (unsigned long long)r->cycles_done, r->cur_item,
        r->corpus_count, r->pending_total, r->pending_favs, r->bitmap_cvg,
        (unsigned long long)r->saved_crashes, (unsigned long long)r->saved_hangs, r->max_depth,
        r->execs_per_sec, (unsigned long long)r->execs_done, r->edges_found);
}

void fz_stats_collect(const fz_state_t *st, fz_stats_report_t *r)
{
    const fz_stats_t *s = &st->stats;
    const fz_exec_t *x = &st->exec;
    fz_exec_info_t info = fz_exec_info(x);
    uint64_t now = fz_now_ms();
    memset(r, 0, sizeof(*r));
    r->start_time = s->start_ms / 1000;
    r->last_update = now / 1000;
    r->run_time = s->prev_run_time + (now - s->start_ms) / 1000;
    r->fuzzer_pid = (int)getpid();
    r->cycles_done = s->prev_cycles + st->queue.cycles;
    r->cycles_wo_finds = s->cycles_wo_finds;
    uint64_t session_execs = fz_state_execs(st);
    r->execs_done = s->prev_execs + session_execs;
    r->execs_per_sec = now > s->start_ms ? session_execs * 1000.0 / (now - s->start_ms) : 0;
    r->execs_ps_last_min = fz_stats_rate_last_min(s, now, session_execs);
    r->corpus_count = st->queue.n;
    r->corpus_favored = st->queue.n_favored;
    r->corpus_found = s->corpus_found;
    r->corpus_imported = s->corpus_imported;
    for (uint32_t i = 0; i < st->queue.n; i++)
        r->corpus_variable += st->queue.e[i]->var_behavior != 0;
    r->max_depth = st->queue.max_depth;
    r->cur_item = st->cur_entry;
    r->pending_favs = fz_queue_pending(&st->queue, 1);
    r->pending_total = fz_queue_pending(&st->queue, 0);
    r->edges_found = (uint32_t)fz_exec_edges_found(x);
    r->total_edges = x->map_size;
    r->var_byte_count = s->var_bytes;
    r->cpu_affinity = info.bound_cpu;
    r->havoc_expansion = 0;
    r->auto_dict_entries = (uint32_t)st->i2s.dict.count;
    /* fz keeps every queue input in memory and never evicts one. */
    for (uint32_t i = 0; i < st->queue.n; i++)
        r->testcache_size += st->queue.e[i]->len;
    r->testcache_count = st->queue.n;
    r->testcache_evict = 0;
    /* AFL++'s definitions: the share of seen slots that never varied, and
     * of map slots seen at all. */
    uint32_t var = r->var_byte_count < r->edges_found ? r->var_byte_count : r->edges_found;
    r->stability = r->edges_found ? 100.0 * (r->edges_found - var) / r->edges_found : 100.0;
    r->bitmap_cvg = x->map_size ? 100.0 * r->edges_found / x->map_size : 0;
    r->saved_crashes = s->saved_crashes;
    r->saved_hangs = s->saved_hangs;
    r->last_find = s->last_find_ms / 1000;
    r->last_crash = s->last_crash_ms / 1000;
    r->last_hang = s->last_hang_ms / 1000;
    r->execs_since_crash = r->execs_done - s->execs_at_last_crash;
    r->exec_timeout = x->timeout_ms;
    r->slowest_exec_ms = (uint32_t)(s->slowest_exec_us / 1000);
    struct rusage ru;
    r->peak_rss_mb = getrusage(RUSAGE_CHILDREN, &ru) == 0 ? (unsigned long)ru.ru_maxrss >> 10 : 0;
    r->afl_banner = st->cfg.target_argv ? st->cfg.target_argv[0] : "";
    r->target_mode = info.mode;
    /* What the forkserver negotiated: tests and users can tell a fallback
     * (legacy handshake, SIGSTOP instead of direct mode) from the plan. */
    r->fsrv_protocol = info.protocol;
    r->command_line = st->command_line;
    r->execs_per_fork = info.forks ? (double)info.execs / info.forks : 1.0;
    r->execs_per_request = info.handovers ? (double)info.execs / info.handovers : 1.0;
    r->calibration_execs = s->calib_execs;
    r->minimization_execs = s->min_execs;
    r->total_crashes = s->prev_total_crashes + s->total_crashes;
    r->total_hangs = s->prev_total_hangs + s->total_hangs;
    r->slow_inputs = s->slow_inputs;
    r->flaky_crashes = s->prev_flaky_crashes + s->flaky_crashes;
    r->unique_crash_sites = fz_sites_count(&st->sites);
    r->flaky_crash_sites = s->prev_flaky_sites + st->sites.flaky;
    r->seed = st->cfg.seed;
    r->sync_execs = st->sync.execs;
    r->target_warnings = st->diag.summary;
    r->cmplog = st->i2s.state[0] ? st->i2s.state : "off";
    r->cmplog_execs = st->i2s.execs;
    r->cmplog_finds = st->i2s.finds;
    r->colour_execs = st->i2s.colour_execs;
    r->colour_finds = st->i2s.colour_finds;
    r->modules_known = st->diag.mods_known;
    r->instrumented_mods = st->diag.mods_instr;
    r->uninstr_libs = st->diag.mods_plain;
}

int fz_stats_try_write(fz_state_t *st)
{
    char json[16384];
    fz_stats_report_t r;
    fz_stats_collect(st, &r);
    char buf[FZ_OUTDIR_SPARE];
    int n = fz_stats_format(buf, sizeof(buf), &r);
    if (n >= (int)sizeof(buf))
        n = sizeof(buf) - 1;
    int rc = fz_outdir_save_reserved(&st->out, "fuzzer_stats", buf, (size_t)n);
    if (rc)
        return rc;
    st->stats.last_stats_ms = fz_now_ms();
    st->stats.crashes_written = st->stats.saved_crashes;
    int jn = fz_stats_json(buf, json, sizeof json);
    return jn > 0 ? fz_outdir_try_save(&st->out, "", "fuzzer_stats.json", json, (size_t)jn) : 0;
}

/* Dies with the output directory's message for a failed write. */
static void die_write(fz_state_t *st, const char *name, int rc)
{
    char msg[1024];
    fz_outdir_describe(&st->out, "", name, rc, msg, sizeof msg);
    fz_die("%s", msg);
}

void fz_stats_write(fz_state_t *st)
{
    int rc = fz_stats_try_write(st);
    if (rc)
        die_write(st, "fuzzer_stats", rc);
}

/* A value that is a JSON number as written (no leading zeros, no inf). */
static int json_number(const char *v, size_t n)
{
    if (!n || n > 40 || (v[0] == '0' && n > 1 && v[1] != '.') || (v[0] == '-' && n == 1))
        return 0;
    char tmp[48];
    memcpy(tmp, v, n);
    tmp[n] = 0;
    char *end;
    strtod(tmp, &end);
    return *end == 0 && strspn(tmp, "-0123456789.eE+") == n;
}

static void json_string(FILE *f, const char *v, size_t n)
{
    fputc('"', f);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)v[i];
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

int fz_stats_json(const char *stats, char *buf, size_t n)
{
    FILE *f = fmemopen(buf, n, "w");
    if (!f)
        return -1;
    fputs("{", f);
    int first = 1;
    for (const char *l = stats; *l;) {
        const char *end = strchr(l, '\n');
        size_t len = end ? (size_t)(end - l) : strlen(l);
        const char *colon = memchr(l, ':', len);
        if (colon) {
            size_t kl = (size_t)(colon - l);
            while (kl && l[kl - 1] == ' ')
                kl--;
            const char *v = colon + 1 + (colon[1] == ' ');
            size_t vl = len - (size_t)(v - l);
            fputs(first ? "\n  " : ",\n  ", f);
            json_string(f, l, kl);
            fputs(": ", f);
            /* Numbers stay numbers; afl_version ("0.1") is a name, not a number. */
            if (json_number(v, vl) && strncmp(l, "afl_version", kl) != 0)
                fwrite(v, 1, vl, f);
            else
                json_string(f, v, vl);
            first = 0;
        }
        l += len + (end != NULL);
    }
    fputs("\n}\n", f);
    long pos = ftell(f);
    int bad = ferror(f) || pos < 0 || (size_t)pos >= n - 1;
    fclose(f);
    return bad ? -1 : (int)pos;
}

static void plot_append(fz_stats_t *s, const char *text, size_t len)
{
    if (s->plot_len + len + 1 > s->plot_cap) {
        s->plot_cap = (s->plot_len + len + 1) * 2;
        s->plot = realloc(s->plot, s->plot_cap);
        if (!s->plot)
            fz_die("out of memory");
    }
    memcpy(s->plot + s->plot_len, text, len);
    s->plot_len += len;
}

int fz_stats_try_plot(fz_state_t *st)
{
    fz_stats_t *s = &st->stats;
    if (!s->plot_len)
        plot_append(s, FZ_PLOT_HEADER, strlen(FZ_PLOT_HEADER));
    fz_stats_report_t r;
    fz_stats_collect(st, &r);
    if (r.run_time < s->plot_last_time)
        r.run_time = s->plot_last_time;
    s->plot_last_time = r.run_time;
    char line[256];
    int n = fz_stats_plot_line(line, sizeof(line), &r);
    plot_append(s, line, (size_t)n);
    s->last_plot_ms = fz_now_ms();
    return fz_outdir_try_save(&st->out, "", "plot_data", s->plot, s->plot_len);
}

void fz_stats_plot(fz_state_t *st)
{
    int rc = fz_stats_try_plot(st);
    if (rc)
        die_write(st, "plot_data", rc);
}

void fz_stats_plot_resume(fz_state_t *st)
{
    char *text = fz_outdir_read(&st->out, "plot_data", 256u << 20);
    if (!text)
        return;
    size_t len = strlen(text);
    plot_append(&st->stats, text, len);
    if (len && text[len - 1] != '\n') /* a damaged last line: not glued to the next */
        plot_append(&st->stats, "\n", 1);
    /* The last line's relative_time: plot_data may be newer than
     * fuzzer_stats (a kill between the two writes). */
    while (len && text[len - 1] == '\n')
        len--;
    text[len] = 0;
    const char *last = strrchr(text, '\n');
    last = last ? last + 1 : text;
    char *end;
    unsigned long long t = last[0] >= '0' && last[0] <= '9' ? strtoull(last, &end, 10) : 0;
    if (t && *end == ',') {
        st->stats.plot_last_time = t;
        if (t > st->stats.prev_run_time)
            st->stats.prev_run_time = t;
    }
    free(text);
}

void fz_stats_rate_sample(fz_stats_t *s, uint64_t now_ms, uint64_t execs)
{
    s->rate_ms[s->rate_head] = now_ms;
    s->rate_execs[s->rate_head] = execs;
    s->rate_head = (s->rate_head + 1) % FZ_STATS_RATE_SLOTS;
    if (s->rate_n < FZ_STATS_RATE_SLOTS)
        s->rate_n++;
}

double fz_stats_rate_last_min(const fz_stats_t *s, uint64_t now_ms, uint64_t execs)
{
    uint64_t from_ms = s->start_ms, from_execs = 0;
    /* Oldest first: the first sample inside the window is the base. */
    for (uint32_t k = 0; k < s->rate_n; k++) {
        uint32_t i = (s->rate_head + FZ_STATS_RATE_SLOTS - s->rate_n + k) % FZ_STATS_RATE_SLOTS;
        if (now_ms - s->rate_ms[i] <= FZ_STATS_RATE_WINDOW_MS) {
            from_ms = s->rate_ms[i];
            from_execs = s->rate_execs[i];
            break;
        }
    }
    if (now_ms <= from_ms || execs < from_execs)
        return 0;
    return (double)(execs - from_execs) * 1000.0 / (double)(now_ms - from_ms);
}

void fz_stats_free(fz_stats_t *s)
{
    free(s->plot);
    s->plot = NULL;
    s->plot_len = s->plot_cap = 0;
}
