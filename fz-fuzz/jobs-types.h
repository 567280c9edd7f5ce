/*
 * jobs-types.h - the -j campaign's shared segment and an instance's link
 * to it (jobs.h), apart from the functions that take the state, so
 * state.h can hold the link without importing jobs.
 */
#ifndef FZ_FUZZ_JOBS_TYPES_H
#define FZ_FUZZ_JOBS_TYPES_H

#include <stdint.h>

/* Most instances one -j campaign runs (more than any one machine's cores we
 * expect; a fleet of machines is docs/scaling.md's business). */
#define FZ_JOBS_MAX 64

/* Finds the ring holds.  A reader that falls more than this far behind
 * (a long minimization) loses the oldest and gets them from the peer's
 * queue directory instead. */
#define FZ_JOBS_RING 256

/* Bytes of a find carried in the ring itself; a larger find is announced
 * there and read from the peer's queue file. */
#define FZ_JOBS_INLINE (64u << 10)

/* State of an instance, as the coordinator sees it. */
enum fz_jobs_state {
    FZ_JOB_STARTING = 0, /* forked, checking its seeds */
    FZ_JOB_RUNNING,      /* fuzzing */
    FZ_JOB_DONE,         /* exited 0 or 3 */
    FZ_JOB_DIED,         /* killed by a signal or exited with an error */
};

/* One instance's counters, written by the instance, read by the
 * coordinator (a torn read only spoils one screen refresh). */
typedef struct fz_jobs_slot {
    int32_t pid, state, status, cpu; /* status: waitpid's, once done/died */
    char name[24];
    uint64_t execs, crashes, crashes_at_start, hangs;
    uint32_t corpus, edges, imported, passed; /* passed: finds taken from the ring */
    uint32_t found;                           /* corpus entries it found itself */
    uint64_t pass_ms_total, pass_ms_max;      /* ring find -> imported here */
    double eps;
} fz_jobs_slot_t;

/* One find in the ring. */
typedef struct fz_jobs_find {
    uint64_t seq;    /* 0 while being written, else its ring number + 1 */
    uint32_t from;   /* index of the instance that saved it */
    uint32_t id;     /* its id:N in that instance's queue */
    uint32_t len;    /* bytes; data holds them if len <= FZ_JOBS_INLINE */
    uint32_t pad;
    uint64_t at_ms;  /* when it was published (to measure the passing time) */
    char name[192];  /* its queue file name */
    uint8_t data[FZ_JOBS_INLINE];
} fz_jobs_find_t;

typedef struct fz_jobs_shared {
    uint32_t n;    /* instances */
    uint32_t pad;
    uint64_t head; /* finds published so far (the next ring number) */
    fz_jobs_slot_t slot[FZ_JOBS_MAX];
    fz_jobs_find_t ring[FZ_JOBS_RING];
} fz_jobs_shared_t;

/* An instance's link to its campaign (st->jobs); shared is NULL outside -j. */
typedef struct fz_jobs_link {
    fz_jobs_shared_t *shared;
    uint32_t self;      /* this instance's index */
    uint64_t next;      /* the next ring number to read */
    uint64_t last_pub;  /* when this instance last published its counters */
    uint8_t *buf;       /* FZ_JOBS_INLINE bytes: a find copied out of the ring */
} fz_jobs_link_t;

#endif
