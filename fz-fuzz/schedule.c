/*
 * schedule.c - the power schedules (schedule.h): the default fast rule
 * and the other -p schedules, each from the facts fz_queue_energy gives.
 */
#include "fz-fuzz/schedule.h"

/* The fast rule's multiplier for an entry's depth (AFL++'s steps, on the
 * same count: seeds are depth 1): x1 up to depth 3, x2 from 4, x3 from 8,
 * x4 from 14.  An entry many finds away from the seeds has passed checks
 * its ancestors did not, and the candidates near it are the ones that
 * can pass the next (zlib's dynamic Huffman tables: bench/README.md). */
static uint64_t depth_factor(uint32_t depth)
{
    return depth < 4 ? 1 : depth < 8 ? 2 : depth < 14 ? 3 : 4;
}

/* The fast rule of queue.h in quarters of FZ_ENERGY_BASE: the base for a
 * favored entry that alone reaches some edge, down to a quarter for one
 * whose every edge many others reach; its boost for new entries and its
 * cut for entries fuzzed many times each switchable (explore and seek drop
 * one each); then the depth factor. */
static uint64_t fast_without(const fz_sched_facts_t *f, int novelty, int decay)
{
    uint32_t rarity = f->rarity;
    uint64_t quarters = rarity <= 1 ? 4 : rarity <= 4 ? 3 : rarity <= 16 ? 2 : 1;
    if (rarity == UINT32_MAX)
        quarters = 4;
    if (novelty && !f->was_fuzzed)
        quarters *= 2;
    if (f->n_favored && !f->favored)
        quarters = (quarters + 1) / 2;
    if (decay && f->turns > 16)
        quarters = (quarters + 1) / 2;
    return quarters * depth_factor(f->depth);
}

uint64_t fz_schedule_quarters(int schedule, const fz_sched_facts_t *f)
{
    uint32_t rarity = f->rarity;
    uint64_t fast = fast_without(f, 1, 1);
    uint64_t r = rarity == UINT32_MAX || rarity == 0 ? 1 : rarity, t = (uint64_t)f->turns + 1;
    switch (schedule) {
    case FZ_SCHED_EXPLORE:
        return fast_without(f, 1, 0);
    case FZ_SCHED_SEEK:
        return fast_without(f, 0, 1);
    case FZ_SCHED_EXPLOIT:
        return 4;
    case FZ_SCHED_COE: {
        uint64_t sum = 0;
        for (uint32_t k = 0; k < f->n_seen; k++)
            sum += f->edge_freq[f->seen[k]];
        if (f->n_seen && rarity != UINT32_MAX && (uint64_t)rarity * f->n_seen > sum)
            return 0; /* reached more often than the mean: the minimum */
        return fast;
    }
    case FZ_SCHED_LIN:
        return 4 * t / r;
    case FZ_SCHED_QUAD:
        return 4 * t * t / r;
    case FZ_SCHED_MMOPT: {
        uint32_t recent = f->n / 20 ? f->n / 20 : 1;
        return f->id + recent >= f->n ? UINT32_MAX : fast; /* newest: the maximum */
    }
    case FZ_SCHED_RARE:
        return rarity <= 1 ? UINT32_MAX : rarity <= 4 ? 8 : rarity <= 16 ? 4 : 0;
    default: /* FZ_SCHED_FAST */
        return fast;
    }
}
