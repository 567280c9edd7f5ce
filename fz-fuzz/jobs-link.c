/*
 * jobs-link.c - an instance's side of the -j shared segment (jobs-link.h):
 * its counters for the coordinator's screen and the finds it shares.
 */
#include "fz-fuzz/jobs-link.h"

#include <stdio.h>
#include <string.h>

#include "fz-clock.h"
#include "fz-fuzz/state.h"
#include "fz-fuzz/stats.h"

/* An instance copies its counters to its slot at most this often. */
#define JOBS_PUBLISH_MS 200

void fz_jobs_publish(fz_state_t *st, int force)
{
    fz_jobs_link_t *l = &st->jobs;
    if (!l->shared)
        return;
    uint64_t now = fz_now_ms();
    if (!force && l->last_pub && now - l->last_pub < JOBS_PUBLISH_MS && st->ui.files_ready)
        return;
    l->last_pub = now;
    fz_stats_report_t r;
    fz_stats_collect(st, &r);
    fz_jobs_slot_t *s = &l->shared->slot[l->self];
    s->execs = r.execs_done;
    s->eps = st->ui.recent_eps ? st->ui.recent_eps : r.execs_per_sec;
    s->corpus = r.corpus_count;
    s->edges = r.edges_found;
    s->crashes = r.saved_crashes;
    s->crashes_at_start = st->stats.crashes_at_start;
    s->hangs = r.saved_hangs;
    s->imported = r.corpus_imported;
    s->found = r.corpus_found;
    if (st->ui.files_ready)
        __atomic_store_n(&s->state, FZ_JOB_RUNNING, __ATOMIC_RELAXED);
}

void fz_jobs_share(fz_state_t *st, const char *name, uint32_t id, const uint8_t *buf, uint32_t len)
{
    fz_jobs_shared_t *sh = st->jobs.shared;
    if (!sh || sh->n < 2)
        return;
    uint64_t seq = __atomic_fetch_add(&sh->head, 1, __ATOMIC_ACQ_REL);
    fz_jobs_find_t *f = &sh->ring[seq % FZ_JOBS_RING];
    /* seq 0 marks the entry as being written: a reader that sees another
     * number before and after its copy knows the copy is whole. */
    __atomic_store_n(&f->seq, 0, __ATOMIC_RELEASE);
    f->from = st->jobs.self;
    f->id = id;
    f->len = len;
    f->at_ms = fz_now_ms();
    snprintf(f->name, sizeof f->name, "%s", name);
    if (len <= FZ_JOBS_INLINE)
        memcpy(f->data, buf, len);
    __atomic_store_n(&f->seq, seq + 1, __ATOMIC_RELEASE);
}

int fz_jobs_pending(const fz_state_t *st)
{
    const fz_jobs_link_t *l = &st->jobs;
    if (!l->shared || l->shared->n < 2)
        return 0;
    uint64_t head = __atomic_load_n(&l->shared->head, __ATOMIC_ACQUIRE);
    if (head <= l->next)
        return 0;
    /* Our own finds are in the ring too: only another's counts. */
    const fz_jobs_find_t *f = &l->shared->ring[(head - 1) % FZ_JOBS_RING];
    return head - l->next > 1 || f->from != l->self;
}
