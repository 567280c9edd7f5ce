/*
 * queue.c - the corpus in memory, its names, the favored subset and the
 * round-robin walk.  No I/O: outdir.c writes the files, fuzz.c decides what
 * joins.  See queue.h for the favored rule and why the walk needs no RNG.
 */
#include "queue.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fz-fuzz/names.h"
#include "fz-fuzz/schedule.h"
#include "fz-log.h"

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p)
        fz_die("out of memory (%zu bytes); lower -m or the corpus size", n);
    return p;
}

void fz_queue_init(fz_queue_t *q, uint32_t map_size)
{
    memset(q, 0, sizeof(*q));
    q->map_size = map_size;
    q->top_rated = xrealloc(NULL, (size_t)map_size * sizeof(uint32_t));
    memset(q->top_rated, 0, (size_t)map_size * sizeof(uint32_t));
    q->edge_freq = xrealloc(NULL, (size_t)map_size * sizeof(uint32_t));
    memset(q->edge_freq, 0, (size_t)map_size * sizeof(uint32_t));
}

void fz_queue_free(fz_queue_t *q)
{
    for (uint32_t i = 0; i < q->n; i++) {
        free(q->e[i]->fname);
        free(q->e[i]->data);
        free(q->e[i]->edges);
        free(q->e[i]);
    }
    free(q->e);
    free(q->top_rated);
    free(q->seen);
    free(q->edge_freq);
    memset(q, 0, sizeof(*q));
}

/* AFL's fav_factor with work for time: a small, fast entry is cheaper to
 * fuzz. */
static uint64_t cost(const fz_entry_t *e)
{
    return (e->work ? e->work : 1) * (uint64_t)(e->len ? e->len : 1);
}

/* Whether e takes part in the walk and the favored set: see queue.h on
 * empty entries. */
static int takes_turns(const fz_queue_t *q, const fz_entry_t *e)
{
    return e->len || q->n_empty == q->n;
}

static void update_top_rated(fz_queue_t *q, fz_entry_t *e)
{
    if (!e->len)
        return; /* never top rated (queue.h); with only empty entries nothing is favored */
    for (uint32_t k = 0; k < e->n_edges; k++) {
        uint32_t s = e->edges[k];
        if (s >= q->map_size)
            continue;
        uint32_t cur = q->top_rated[s];
        if (cur && cost(q->e[cur - 1]) <= cost(e))
            continue;
        if (!cur) {
            q->seen = xrealloc(q->seen, (q->n_seen + 1) * sizeof(uint32_t));
            q->seen[q->n_seen++] = s;
        }
        q->top_rated[s] = e->id + 1;
        q->dirty = 1;
    }
}

fz_entry_t *fz_queue_add(fz_queue_t *q, char *fname, const uint8_t *data, uint32_t len,
                         uint64_t work, const uint32_t *edges, uint32_t n_edges, uint32_t depth)
{
    if (q->n == q->cap) {
        q->cap = q->cap ? q->cap * 2 : 64;
        q->e = xrealloc(q->e, q->cap * sizeof(*q->e));
    }
    fz_entry_t *e = xrealloc(NULL, sizeof(*e));
    memset(e, 0, sizeof(*e));
    e->id = q->n;
    e->fname = fname;
    long fid = fz_name_id(fname);
    e->file_id = fid >= 0 ? (uint32_t)fid : e->id;
    e->data = xrealloc(NULL, len);
    if (len)
        memcpy(e->data, data, len);
    e->len = len;
    q->n_empty += !len;
    e->work = work;
    e->edges = xrealloc(NULL, n_edges * sizeof(uint32_t));
    if (n_edges)
        memcpy(e->edges, edges, n_edges * sizeof(uint32_t));
    e->n_edges = n_edges;
    e->depth = depth;
    q->e[q->n++] = e;
    if (depth > q->max_depth)
        q->max_depth = depth;
    for (uint32_t k = 0; k < n_edges; k++)
        if (edges[k] < q->map_size)
            q->edge_freq[edges[k]]++;
    update_top_rated(q, e);
    return e;
}

void fz_queue_shrink(fz_queue_t *q, fz_entry_t *e, const uint8_t *data, uint32_t len,
                     uint64_t work)
{
    memcpy(e->data, data, len); /* len <= e->len: the buffer is big enough */
    int emptied = !len && e->len;
    e->len = len;
    e->work = work;
    if (!emptied) {
        update_top_rated(q, e); /* cheaper now: it may win slots */
        return;
    }
    /* Trimmed to nothing: it gives up its slots (queue.h), so each is
     * rated again among the others; rare, so all are. */
    q->n_empty++;
    memset(q->top_rated, 0, (size_t)q->map_size * sizeof(uint32_t));
    q->n_seen = 0;
    q->dirty = 1;
    for (uint32_t i = 0; i < q->n; i++)
        update_top_rated(q, q->e[i]);
}

uint32_t fz_queue_energy(const fz_queue_t *q, const fz_entry_t *e)
{
    uint32_t rarity = UINT32_MAX;
    for (uint32_t k = 0; k < e->n_edges; k++)
        if (e->edges[k] < q->map_size && q->edge_freq[e->edges[k]] < rarity)
            rarity = q->edge_freq[e->edges[k]];
    /* In quarters of FZ_ENERGY_BASE, by the schedule (fast unless -p says
     * otherwise; schedule.h), from the facts it weighs. */
    fz_sched_facts_t f = {.rarity = rarity, .id = e->id, .turns = e->turns, .depth = e->depth,
                          .favored = e->favored, .was_fuzzed = e->was_fuzzed, .n = q->n,
                          .n_favored = q->n_favored, .seen = q->seen, .n_seen = q->n_seen,
                          .edge_freq = q->edge_freq};
    uint64_t quarters = fz_schedule_quarters(q->schedule, &f);
    /* Within what the line below can scale without overflow. */
    if (quarters > 4 * (uint64_t)FZ_ENERGY_MAX)
        quarters = 4 * (uint64_t)FZ_ENERGY_MAX;
    uint64_t n = quarters * FZ_ENERGY_BASE / 4;
    return n < FZ_ENERGY_MIN ? FZ_ENERGY_MIN : n > FZ_ENERGY_MAX ? FZ_ENERGY_MAX : (uint32_t)n;
}

/* Greedy cover: walk slots in first-seen order; a slot no favored entry
 * reaches yet makes its top-rated entry favored, which covers all its
 * slots.  Uses a scratch "covered" flag per slot. */
void fz_queue_cull(fz_queue_t *q)
{
    if (!q->dirty)
        return;
    q->dirty = 0;
    uint8_t *covered = xrealloc(NULL, q->map_size ? q->map_size : 1);
    memset(covered, 0, q->map_size);
    for (uint32_t i = 0; i < q->n; i++)
        q->e[i]->favored = 0;
    q->n_favored = 0;
    for (uint32_t k = 0; k < q->n_seen; k++) {
        uint32_t s = q->seen[k];
        if (covered[s])
            continue;
        fz_entry_t *e = q->e[q->top_rated[s] - 1];
        for (uint32_t j = 0; j < e->n_edges; j++)
            if (e->edges[j] < q->map_size)
                covered[e->edges[j]] = 1;
        if (!e->favored) {
            e->favored = 1;
            q->n_favored++;
        }
    }
    free(covered);
}

static int wants_turn(const fz_queue_t *q, const fz_entry_t *e)
{
    if (!takes_turns(q, e))
        return 0;
    if (!q->n_favored || e->favored || !e->was_fuzzed)
        return 1;
    return q->cycles % FZ_QUEUE_NONFAV_PERIOD == 0;
}

fz_entry_t *fz_queue_next(fz_queue_t *q)
{
    if (!q->n)
        return NULL;
    fz_queue_cull(q);
    /* Two full passes always find an entry: on the second the cycle count
     * has moved, and favored entries (if any) always want a turn. */
    for (uint32_t tries = 0; tries < 2 * q->n + 1; tries++) {
        if (q->cur >= q->n) {
            q->cur = 0;
            q->cycles++;
        }
        fz_entry_t *e = q->e[q->cur++];
        if (wants_turn(q, e))
            return e;
    }
    return q->e[0];
}

uint32_t fz_queue_pending(const fz_queue_t *q, int favored_only)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < q->n; i++)
        if (!q->e[i]->was_fuzzed && takes_turns(q, q->e[i]) &&
            (!favored_only || q->e[i]->favored))
            n++;
    return n;
}
