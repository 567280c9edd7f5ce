/*
 * schedule.c - the -p power schedules other than fast (schedule.h), as a
 * hook fz_queue_energy calls with the fast schedule's answer.
 */
#include "fz-fuzz/schedule.h"

#include "fz-fuzz/queue.h"

/* The fast rule of queue.h in quarters, with its boost for new entries and
 * its cut for entries fuzzed many times each switchable (explore and seek
 * drop one each). */
static uint64_t fast_without(const fz_queue_t *q, const fz_entry_t *e, uint32_t rarity,
                             int novelty, int decay)
{
    uint64_t quarters = rarity <= 1 ? 4 : rarity <= 4 ? 3 : rarity <= 16 ? 2 : 1;
    if (rarity == UINT32_MAX)
        quarters = 4;
    if (novelty && !e->was_fuzzed)
        quarters *= 2;
    if (q->n_favored && !e->favored)
        quarters = (quarters + 1) / 2;
    if (decay && e->turns > 16)
        quarters = (quarters + 1) / 2;
    return quarters;
}

static uint64_t pick(const fz_queue_t *q, const fz_entry_t *e, uint32_t rarity, uint64_t fast)
{
    uint64_t r = rarity == UINT32_MAX || rarity == 0 ? 1 : rarity, t = (uint64_t)e->turns + 1;
    switch (q->schedule) {
    case FZ_SCHED_EXPLORE:
        return fast_without(q, e, rarity, 1, 0);
    case FZ_SCHED_SEEK:
        return fast_without(q, e, rarity, 0, 1);
    case FZ_SCHED_EXPLOIT:
        return 4;
    case FZ_SCHED_COE: {
        uint64_t sum = 0;
        for (uint32_t k = 0; k < q->n_seen; k++)
            sum += q->edge_freq[q->seen[k]];
        if (q->n_seen && rarity != UINT32_MAX && (uint64_t)rarity * q->n_seen > sum)
            return 0; /* reached more often than the mean: the minimum */
        return fast;
    }
    case FZ_SCHED_LIN:
        return 4 * t / r;
    case FZ_SCHED_QUAD:
        return 4 * t * t / r;
    case FZ_SCHED_MMOPT: {
        uint32_t recent = q->n / 20 ? q->n / 20 : 1;
        return e->id + recent >= q->n ? UINT32_MAX : fast; /* newest: the maximum */
    }
    case FZ_SCHED_RARE:
        return rarity <= 1 ? UINT32_MAX : rarity <= 4 ? 8 : rarity <= 16 ? 4 : 0;
    default:
        return fast;
    }
}

uint64_t fz_schedule_quarters(const fz_queue_t *q, const fz_entry_t *e, uint32_t rarity,
                              uint64_t fast)
{
    uint64_t quarters = pick(q, e, rarity, fast);
    /* Within what fz_queue_energy can scale without overflow. */
    return quarters > 4 * (uint64_t)FZ_ENERGY_MAX ? 4 * (uint64_t)FZ_ENERGY_MAX : quarters;
}
