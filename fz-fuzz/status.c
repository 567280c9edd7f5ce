/*
 * status.c - the live screen, the periodic log line, and the timed writes of
 * fuzzer_stats and plot_data.  Everything past the first compare in
 * fz_status_tick runs about every FZ_STATUS_CHECK_MS, so it costs the loop
 * nothing.
 */
#include "status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/coverage.h"
#include "fz-fuzz/diag.h"
#include "fz-fuzz/jobs-link.h"
#include "fz-fuzz/state.h"
#include "fz-fuzz/stats.h"

/* 1 if the terminfo database has an entry for term (where ncurses looks:
 * $TERMINFO, ~/.terminfo, $TERMINFO_DIRS, the system directories; by first
 * letter or its hex code). */
static int terminfo_has(const char *term)
{
    const char *home = getenv("HOME"), *dirs = getenv("TERMINFO_DIRS");
    char list[4096];
    snprintf(list, sizeof list, "%s:%s%s:%s:/etc/terminfo:/lib/terminfo:/usr/share/terminfo",
             getenv("TERMINFO") ? getenv("TERMINFO") : "", home ? home : "",
             home ? "/.terminfo" : "", dirs ? dirs : "");
    char *save = NULL;
    for (char *d = strtok_r(list, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        char path[4200];
        struct stat sb;
        snprintf(path, sizeof path, "%s/%c/%s", d, term[0], term);
        if (stat(path, &sb) == 0)
            return 1;
        snprintf(path, sizeof path, "%s/%02x/%s", d, (unsigned char)term[0], term);
        if (stat(path, &sb) == 0)
            return 1;
    }
    return 0;
}

int fz_status_term_ok(const char *term)
{
    return term && *term && strcmp(term, "dumb") != 0 && !strchr(term, '/') && terminfo_has(term);
}

void fz_status_init(fz_state_t *st)
{
    /* The screen needs cursor addressing: a dumb terminal, or one the
     * system knows nothing about, gets the plain log lines instead. */
    st->ui.tty = !st->cfg.quiet && isatty(STDOUT_FILENO) && fz_status_term_ok(getenv("TERM"));
    st->ui.next_check = fz_state_execs(st) + 1; /* the first run measures the speed */
    st->ui.last_check_execs = fz_state_execs(st);
    st->ui.last_check_ms = st->stats.start_ms;
    st->ui.last_rate_ms = st->stats.start_ms;
    st->ui.last_log_ms = st->stats.start_ms;
    if (st->ui.tty)
        fputs("\033[?25l\033[2J", stdout); /* hide the cursor, clear */
}

static void fmt_ago(char *buf, size_t n, uint64_t now, uint64_t then)
{
    if (!then) {
        snprintf(buf, n, "none yet");
        return;
    }
    uint64_t s = (now - then) / 1000;
    snprintf(buf, n, "%lluh %02llum %02llus ago", (unsigned long long)(s / 3600),
             (unsigned long long)(s / 60 % 60), (unsigned long long)(s % 60));
}

/* "12m 05s left" under -V, "" otherwise. */
static void fmt_left(char *buf, size_t n, const fz_state_t *st, uint64_t now)
{
    buf[0] = 0;
    if (!st->cfg.max_secs)
        return;
    uint64_t end = st->stats.start_ms + st->cfg.max_secs * 1000;
    uint64_t s = now >= end ? 0 : (end - now + 999) / 1000;
    snprintf(buf, n, "%lluh %02llum %02llus left (-V %llu)", (unsigned long long)(s / 3600),
             (unsigned long long)(s / 60 % 60), (unsigned long long)(s % 60),
             (unsigned long long)st->cfg.max_secs);
}

/* Share of the current queue cycle done, from the entry being fuzzed. */
static double cycle_pct(const fz_stats_report_t *r)
{
    return r->corpus_count ? 100.0 * r->cur_item / r->corpus_count : 0;
}

static void draw(fz_state_t *st, const fz_stats_report_t *r, uint64_t now)
{
    char find[48], crash[48], edge[48], left[64];
    fmt_ago(find, sizeof(find), now, st->stats.last_find_ms);
    fmt_ago(crash, sizeof(crash), now, st->stats.last_crash_ms);
    fmt_ago(edge, sizeof(edge), now, st->stats.last_edge_ms);
    fmt_left(left, sizeof(left), st, now);
    uint64_t t = r->run_time;
    printf("\033[H"
           "  fz-fuzz %s  --  %s\033[K\n\n"
           "  run time   %lluh %02llum %02llus\033[K\n"
           "  execs      %llu  (%.0f/s now, %.0f/s overall)\033[K\n"
           "  corpus     %u entries, %u favored, %u pending\033[K\n"
           "  coverage   %u edges, %.2f%% of the map  (stability %.2f%%)\033[K\n"
           "  cycles     %llu done  (%llu without finds)\033[K\n"
           "  crashes    %llu saved  (%llu total runs crashed, %llu flaky)\033[K\n"
           "  hangs      %llu saved  (timeout %u ms)\033[K\n"
           "  last find  %s\033[K\n"
           "  last edge  %s\033[K\n"
           "  last crash %s\033[K\n"
           "  now        entry %u of %u  (cycle %llu, %.0f%% done)\033[K\n",
           FZ_VERSION, st->out.dir, (unsigned long long)(t / 3600),
           (unsigned long long)(t / 60 % 60), (unsigned long long)(t % 60),
           (unsigned long long)r->execs_done, st->ui.recent_eps, r->execs_per_sec, r->corpus_count,
           r->corpus_favored, r->pending_total, r->edges_found, r->bitmap_cvg, r->stability,
           (unsigned long long)r->cycles_done, (unsigned long long)r->cycles_wo_finds,
           (unsigned long long)r->saved_crashes, (unsigned long long)r->total_crashes,
           (unsigned long long)r->flaky_crashes, (unsigned long long)r->saved_hangs,
           r->exec_timeout, find, edge, crash, r->cur_item, r->corpus_count,
           (unsigned long long)r->cycles_done + 1, cycle_pct(r));
    if (left[0])
        printf("  time       %s\033[K\n", left);
    if (st->sync.enabled)
        printf("  sync       %u imported from other instances, %llu runs on their files\033[K\n",
               r->corpus_imported, (unsigned long long)r->sync_execs);
    if (st->i2s.on)
        printf("  cmplog     %llu runs, %llu finds, %u auto tokens\033[K\n",
               (unsigned long long)r->cmplog_execs, (unsigned long long)r->cmplog_finds,
               r->auto_dict_entries);
    else
        printf("  cmplog     %s\033[K\n", r->cmplog);
    if (st->diag.summary[0])
        printf("  warnings   %s  (explained when the run ends)\033[K\n", st->diag.summary);
    fflush(stdout);
}

void fz_status_line(fz_state_t *st)
{
    fz_stats_report_t r;
    fz_stats_collect(st, &r);
    char sync[64] = ""; /* only instances that sync say so */
    if (st->sync.enabled)
        snprintf(sync, sizeof(sync), ", imported %u", r.corpus_imported);
    uint64_t now = fz_now_ms();
    char left[80] = "";
    if (st->cfg.max_secs) {
        uint64_t end = st->stats.start_ms + st->cfg.max_secs * 1000;
        snprintf(left, sizeof left, ", %llus left",
                 (unsigned long long)(now >= end ? 0 : (end - now + 999) / 1000));
    }
    char find[32] = "none", edge[32] = "none";
    if (st->stats.last_find_ms)
        snprintf(find, sizeof find, "%llus ago",
                 (unsigned long long)((now - st->stats.last_find_ms) / 1000));
    if (st->stats.last_edge_ms)
        snprintf(edge, sizeof edge, "%llus ago",
                 (unsigned long long)((now - st->stats.last_edge_ms) / 1000));
    printf("[%llus] execs %llu (%.0f/s), corpus %u (%u fav%s), edges %u (%.2f%%), stability "
           "%.2f%%, cycles %llu done (this one %.0f%%), crashes %llu, hangs %llu, last find %s, "
           "last new edge %s%s\n",
           (unsigned long long)r.run_time, (unsigned long long)r.execs_done, r.execs_per_sec,
           r.corpus_count, r.corpus_favored, sync, r.edges_found, r.bitmap_cvg, r.stability,
           (unsigned long long)r.cycles_done, cycle_pct(&r), (unsigned long long)r.saved_crashes,
           (unsigned long long)r.saved_hangs, find, edge, left);
    fflush(stdout);
}

uint64_t fz_status_interval(uint64_t execs, uint64_t ms)
{
    if (!ms) /* under a millisecond: at least 1000 runs/s */
        ms = 1;
    uint64_t n = execs * FZ_STATUS_CHECK_MS / ms;
    if (n < 1)
        return 1;
    return n > FZ_STATUS_CHECK_EXECS_MAX ? FZ_STATUS_CHECK_EXECS_MAX : n;
}

void fz_status_tick(fz_state_t *st)
{
    uint64_t execs = fz_state_execs(st);
    if (execs < st->ui.next_check && fz_exec_last_us(&st->exec) < FZ_STATUS_SLOW_RUN_US &&
        st->stats.saved_crashes == st->stats.crashes_written)
        return;
    fz_ui_t *ui = &st->ui;
    uint64_t now = fz_now_ms();
    ui->next_check =
        execs + fz_status_interval(execs - ui->last_check_execs, now - ui->last_check_ms);
    ui->last_check_execs = execs;
    ui->last_check_ms = now;
    fz_diag_poll(st);
    fz_jobs_publish(st, 0); /* -j: counters for the coordinator's screen */
    if (st->cfg.max_secs && now - st->stats.start_ms >= st->cfg.max_secs * 1000)
        ui->time_up = 1;
    if (now - ui->last_rate_ms >= 1000) {
        ui->recent_eps = (execs - ui->last_execs) * 1000.0 / (now - ui->last_rate_ms);
        fz_stats_rate_sample(&st->stats, now, execs);
        ui->last_execs = execs;
        ui->last_rate_ms = now;
    }
    /* Before the seeds have passed nothing may be written (calibrate.h). */
    /* A new crash is in fuzzer_stats at once: a run killed (-9) or ended by
     * a full disk right after it must not leave saved_crashes behind. */
    if (ui->files_ready && (now - st->stats.last_stats_ms >= FZ_STATUS_STATS_MS ||
                            st->stats.saved_crashes != st->stats.crashes_written))
        fz_stats_write(st);
    if (ui->files_ready && now - st->stats.last_plot_ms >= FZ_STATUS_PLOT_MS)
        fz_stats_plot(st);
    if (ui->tty && now - ui->last_draw_ms >= FZ_STATUS_DRAW_MS) {
        fz_stats_report_t r;
        fz_stats_collect(st, &r);
        draw(st, &r, now);
        ui->last_draw_ms = now;
    } else if (!ui->tty && now - ui->last_log_ms >= FZ_STATUS_LOG_MS) {
        fz_status_line(st);
        ui->last_log_ms = now;
    }
}

void fz_status_restore(fz_state_t *st)
{
    if (!st->ui.tty)
        return;
    fputs("\033[?25h\n", stdout); /* show the cursor again */
    fflush(stdout);
    st->ui.tty = 0;
}

void fz_status_final(fz_state_t *st, const char *why)
{
    fz_diag_poll(st);
    fz_stats_write(st);
    fz_stats_plot(st);
    if (st->ui.tty) {
        fz_stats_report_t r;
        fz_stats_collect(st, &r);
        draw(st, &r, fz_now_ms());
        fz_status_restore(st);
    }
    fz_diag_final(st);
    printf("fz-fuzz: %s. ", why);
    fz_status_line(st);
}
