/*
 * queue.h - the corpus: entries in memory, their AFL-style file names, the
 * round-robin walk with its cycle count, and the favored subset.
 *
 * Favored subset (AFL's top_rated): for every map slot any entry reaches, the
 * entry with the smallest len * work that reaches it is its "top rated"
 * entry.  work is a count, not a time: the sum over the entry's map of each
 * slot's bucket floor (1, 2, 3, 4, 8, 16, 32, 128), i.e. roughly how many
 * edges one run executes.  It grows with the run time as a clock would, but
 * is the same on every run and machine, so -s reproduces the favored set.  A greedy pass over the slots then marks a small set of entries that
 * together reach every slot: those are favored.  The walk visits favored and
 * never-fuzzed entries every cycle, and the other entries only every
 * FZ_QUEUE_NONFAV_PERIOD-th cycle.  This is a deterministic stand-in for AFL's
 * random 95%/75% skipping: it needs no random numbers, so the walk order is a
 * pure function of the queue and a campaign stays reproducible from -s.
 *
 * Energy (the power schedule): how many havoc candidates an entry gets on a
 * turn, fz_queue_energy.  Like AFL++'s "fast" and "explore" schedules it
 * favors entries on rarely-hit paths, but counts cheaply what AFL++ hashes
 * per run: for every slot, how many queue entries reach it (edge_freq).  An
 * entry's rarity is the smallest count among its slots: an entry that alone
 * reaches some edge is the only door to what lies behind it.  New entries
 * and favored ones get more, and so do deep ones (finds of finds, many
 * steps from the seeds: AFL++'s depth factor, schedule.c);
 * entries fuzzed many times get less.  All inputs are counts, never times,
 * so the schedule is reproducible.
 *
 * Empty entries (the empty input's, run once at the start; a peer's) back
 * the coverage only no input reaches, but get no turns and are top rated
 * for no slot while any entry has bytes: the stages have nothing to work
 * on in them (havoc from nothing is what an insertion into any entry
 * does), and as the cheapest entry of all one would be top rated for
 * every slot it shares and take turns from real ones (a favored empty
 * entry made testcases/lf_inflate.c's custom-mutator crash take 2.2-2.4x the
 * runs, medians of 6 seeds under either compiler).
 */
#ifndef FZ_FUZZ_QUEUE_H
#define FZ_FUZZ_QUEUE_H

#include <stddef.h>
#include <stdint.h>

/* Non-favored entries that were fuzzed once already get a turn only on
 * cycles that are a multiple of this; 4 keeps most effort on the favored set
 * (AFL gives them ~95%) while still revisiting everything now and then. */
#define FZ_QUEUE_NONFAV_PERIOD 4

/* Havoc candidates of a favored seed that alone reaches some edge (AFL's
 * havoc does 256 x a performance score); fz_queue_energy scales it from a
 * quarter (entries whose every edge many others reach) to twice that (such
 * an entry's first turn), times the depth factor (1 to 4), kept within
 * FZ_ENERGY_MIN .. FZ_ENERGY_MAX.  The ceiling is what the deepest entry's
 * first turn can get.  A higher ceiling without the depth factor made turns
 * on shallow entries so long that the deep ones waited twice as long for
 * theirs (the demo's crash took ~9.5k runs instead of ~5.4k). */
#define FZ_ENERGY_BASE 256
#define FZ_ENERGY_MIN 32
#define FZ_ENERGY_MAX 2048

typedef struct fz_entry {
    uint32_t id;      /* position in the queue */
    uint32_t file_id; /* the id:NNNNNN of its file name (differs from id after a resume
                         that skipped a file) */
    char *fname;      /* file name inside queue/ */
    uint8_t *data;    /* the input itself (kept in memory) */
    uint32_t len;
    uint64_t exec_us; /* mean run time from calibration (shown, never used to decide) */
    uint64_t work;    /* edges one run executes, from its map (the cost proxy above) */
    uint32_t n_edges; /* map slots this entry reaches */
    uint32_t *edges;  /* their indices (for the favored computation) */
    uint32_t depth;   /* 1 for seeds, parent's depth + 1 otherwise */
    int favored;      /* in the favored subset */
    int was_fuzzed;   /* has had at least one turn */
    int var_behavior; /* calibration saw its map change between runs */
    int trimmed;      /* had its first-turn trim (or needs none: a peer's import) */
    uint32_t turns;   /* turns it has had */
} fz_entry_t;

typedef struct fz_queue {
    fz_entry_t **e; /* entries by id */
    uint32_t n, cap;
    uint32_t cur;    /* walk position: index of the next entry to consider */
    uint64_t cycles; /* completed passes over the whole queue */
    int started;     /* fz_queue_next() has been called */
    uint32_t n_favored;
    uint32_t n_empty; /* entries of 0 bytes (see the top) */
    uint32_t max_depth;
    uint32_t map_size;   /* slots in top_rated */
    uint32_t *top_rated; /* per slot: entry id + 1 of its best entry, 0 = none */
    uint32_t *seen;      /* slots with a top-rated entry, in first-seen order */
    uint32_t *edge_freq; /* per slot: queue entries that reach it */
    uint32_t n_seen;
    int dirty; /* top_rated changed since the favored set was computed */
    int schedule; /* -p: FZ_SCHED_* (schedule.h); 0, fast, unless the caller sets another */
} fz_queue_t;

/* map_size: number of slots edges may name (0 when the map is unknown yet). */
void fz_queue_init(fz_queue_t *q, uint32_t map_size);
void fz_queue_free(fz_queue_t *q);

/* Add an entry (copies data and edges; takes fname, which must be malloc'ed)
 * and update the top-rated slots and edge counts.  work: see the top.
 * Returns the new entry. */
fz_entry_t *fz_queue_add(fz_queue_t *q, char *fname, const uint8_t *data, uint32_t len,
                         uint64_t work, const uint32_t *edges, uint32_t n_edges, uint32_t depth);

/* Replace an entry's input with a smaller one that reaches the same slots
 * (its trim), with that input's work; its slots are re-rated. */
void fz_queue_shrink(fz_queue_t *q, fz_entry_t *e, const uint8_t *data, uint32_t len,
                     uint64_t work);

/* Havoc candidates for e's next turn (see the top), in
 * [FZ_ENERGY_MIN, FZ_ENERGY_MAX]. */
uint32_t fz_queue_energy(const fz_queue_t *q, const fz_entry_t *e);

/* Recompute the favored set if top_rated changed (done by fz_queue_next). */
void fz_queue_cull(fz_queue_t *q);

/* The next entry of the round-robin walk (see the rule at the top); counts
 * q->cycles each time the walk wraps.  NULL only when the queue is empty. */
fz_entry_t *fz_queue_next(fz_queue_t *q);

/* Entries not fuzzed yet: all of them, and favored ones. */
uint32_t fz_queue_pending(const fz_queue_t *q, int favored_only);

#endif
