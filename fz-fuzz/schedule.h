/*
 * schedule.h - the power schedules of -p: AFL++'s names mapped onto fz's
 * energy rule.  fz_queue_energy (queue.c) gathers an entry's facts and
 * asks fz_schedule_quarters, which holds every rule, the default "fast"
 * among them (queue.h describes it).  docs/options.md says the same for
 * users.  AFL++'s
 * schedules also change how it picks the next entry; fz's walk stays the
 * round-robin of queue.h whatever -p says, so only the energy changes.
 *  fast    (the default) queue.h's rule: the rarer an entry's rarest edge,
 *          the more candidates; new, favored and deep entries get more,
 *          entries fuzzed over 16 times less.
 *  explore the same without the cut for entries fuzzed many times: steady
 *          effort on every entry.
 *  exploit AFL's original constant energy: every entry gets
 *          FZ_ENERGY_BASE, whatever it reaches or how often it ran.
 *  coe     cut-off exponential: an entry whose rarest edge is reached by
 *          more entries than the queue's mean gets FZ_ENERGY_MIN; the others
 *          as fast.
 *  lin     energy grows linearly with the turns an entry has had and falls
 *          with its rarity count: FZ_ENERGY_BASE x turns / rarity.
 *  quad    the same with the turns squared.
 *  mmopt   fast, plus the newest 5% of the queue (at least the newest entry)
 *          gets FZ_ENERGY_MAX: recent finds are explored at once.
 *  rare    rarity alone, steeper: an edge only this entry reaches gives
 *          FZ_ENERGY_MAX, and neither novelty, favor nor turns count.
 *  seek    fast without the boost for entries never fuzzed yet.
 * All are counts, never times, so every schedule is reproducible with -s.
 */
#ifndef FZ_FUZZ_SCHEDULE_H
#define FZ_FUZZ_SCHEDULE_H

#include <stdint.h>

enum {
    FZ_SCHED_FAST = 0,
    FZ_SCHED_EXPLORE,
    FZ_SCHED_EXPLOIT,
    FZ_SCHED_COE,
    FZ_SCHED_LIN,
    FZ_SCHED_QUAD,
    FZ_SCHED_MMOPT,
    FZ_SCHED_RARE,
    FZ_SCHED_SEEK,
    FZ_SCHED_COUNT
};

/* What a schedule weighs for one entry's turn, from the queue (queue.c
 * fills it: the schedule sits below the queue and never sees its struct). */
typedef struct fz_sched_facts {
    uint32_t rarity; /* the fewest queue entries that reach one of the entry's
                        edges (UINT32_MAX without coverage) */
    uint32_t id;     /* the entry's position in the queue */
    uint32_t turns;  /* turns it has had */
    uint32_t depth;  /* 1 for a seed, its parent's depth + 1 for a find */
    int favored, was_fuzzed;
    uint32_t n, n_favored; /* queue entries, favored ones */
    const uint32_t *seen;      /* slots with a top-rated entry, n_seen of them */
    uint32_t n_seen;
    const uint32_t *edge_freq; /* per slot: queue entries that reach it */
} fz_sched_facts_t;

/* The energy of an entry's turn under schedule (FZ_SCHED_*), in quarters
 * of FZ_ENERGY_BASE (fz_queue_energy keeps it within what it can scale
 * and turns it into candidates within FZ_ENERGY_MIN..FZ_ENERGY_MAX). */
uint64_t fz_schedule_quarters(int schedule, const fz_sched_facts_t *f);

#endif
