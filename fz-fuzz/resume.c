/*
 * resume.c - counters and known crashes of a resumed campaign (resume.h).
 */
#include "fz-fuzz/resume.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fz-fuzz/run-again.h"
#include "fz-fuzz/state.h"
#include "fz-log.h"

int fz_resume_parse_stats(const char *text, fz_stats_t *s)
{
    static const struct {
        const char *key;
        size_t off;
    } keys[] = {
        {"execs_done", offsetof(fz_stats_t, prev_execs)},
        {"run_time", offsetof(fz_stats_t, prev_run_time)},
        {"cycles_done", offsetof(fz_stats_t, prev_cycles)},
        {"total_crashes", offsetof(fz_stats_t, prev_total_crashes)},
        {"total_hangs", offsetof(fz_stats_t, prev_total_hangs)},
        {"flaky_crashes", offsetof(fz_stats_t, prev_flaky_crashes)},
        {"flaky_crash_sites", offsetof(fz_stats_t, prev_flaky_sites)},
    };
    int found = 0;
    for (const char *line = text; line && *line; line = strchr(line, '\n'), line += !!line) {
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
            size_t n = strlen(keys[i].key);
            if (strncmp(line, keys[i].key, n) != 0 || (line[n] != ' ' && line[n] != ':'))
                continue;
            const char *colon = strchr(line, ':');
            const char *eol = strchr(line, '\n');
            if (!colon || (eol && colon > eol))
                continue;
            char *end;
            const char *num = colon + 1 + strspn(colon + 1, " ");
            /* strtoull would take "-2" as 2^64 - 2: a count is never signed. */
            unsigned long long v = *num == '-' ? 0 : strtoull(num, &end, 10);
            if (*num == '-' || end == num || (*end && *end != '\n' && *end != ' ')) {
                fz_warn("fuzzer_stats: ignoring %s '%.*s' (not a count); it starts from 0",
                        keys[i].key, (int)strcspn(num, "\n"), num);
                continue;
            }
            *(uint64_t *)((char *)s + keys[i].off) = v;
            found++;
        }
    }
    return found;
}

void fz_resume_load_stats(fz_state_t *st)
{
    /* fz-fuzz writes at most 8 KiB (stats.c) */
    char *text = fz_outdir_read(&st->out, "fuzzer_stats", 16384);
    if (!text)
        return; /* stopped before its first stats write: nothing to carry */
    fz_resume_parse_stats(text, &st->stats);
    free(text);
}

uint32_t fz_resume_known_crashes(fz_state_t *st)
{
    fz_exec_t *x = &st->exec;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/crashes", st->out.dir);
    fz_files_t files = {0};
    fz_files_load(&files, dir, "crashes directory of the resumed campaign", FZ_MAX_INPUT,
                  FZ_FILES_MAY_BE_EMPTY | FZ_FILES_KEEP_EMPTY | FZ_FILES_NO_LINKS);
    uint32_t ran = 0, still = 0;
    for (uint32_t i = 0; i < files.n && ran < FZ_RESUME_MAX_CRASHES; i++) {
        if (strncmp(files.f[i].name, "id:", 3) != 0)
            continue;
        ran++;
        fz_exec_rec_t rec;
        char doing[4200];
        snprintf(doing, sizeof doing, "the re-run of saved crash %s/%s", dir, files.f[i].name);
        fz_run_result_t r =
            fz_run_again(st, files.f[i].data, files.f[i].len, 0, &rec, NULL, doing);
        if (r == FZ_RUN_ERROR) {
            /* It made the target kill its forkserver again (run-again.h): it
             * still crashes (exit 3 at the end), and the campaign goes on
             * with a new forkserver, or it could never be resumed. */
            still++;
            fz_warn("saved crash '%s' still makes the target kill its forkserver (signal %d); "
                    "started the target again",
                    files.f[i].name, rec.signal);
            continue;
        }
        if (r != FZ_RUN_CRASH)
            continue;
        still++;
        fz_exec_commit(x, &rec, NULL); /* into the crash virgin map (blind: its signal) */
        /* Its site is known too: the same bug is not saved again. */
        if (rec.site && !fz_sites_find(&st->sites, rec.site))
            fz_sites_add(&st->sites, rec.where, rec.signal, files.f[i].name, 0);
    }
    st->stats.calib_execs += ran;
    st->crashes_still = still;
    fz_files_free(&files);
    if (ran && st->target_changed)
        fz_info("re-ran %u saved crash(es) against the changed target: %u still crash%s", ran,
                still, still < ran ? " (the others no longer do with this build)" : "");
    else if (ran)
        fz_info("re-ran %u saved crash(es), %u still crash: the same crashes are not saved again",
                ran, still);
    return still;
}
