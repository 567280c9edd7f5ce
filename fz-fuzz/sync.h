/*
 * sync.h - parallel fuzzing: several fz-fuzz (or afl-fuzz) instances that
 * share one -o directory import each other's finds, the way afl-fuzz's
 * -M / -S instances do.
 *
 * Every so often, and only between two queue entries' turns, an instance
 * looks at OUT/PEER/queue/ of the other instances, runs each file it has not
 * examined yet through the target once, and adds it to its own queue (as
 * "id:N,sync:PEER,src:PEER_ID") only when it reaches coverage this instance
 * has not seen.  Per peer, the next id to examine is kept in
 * OUT/NAME/.synced/PEER (AFL++'s file and format: a native-endian 32-bit
 * integer), so each file is run once, across restarts too.
 *
 * Roles, as in AFL++ 4:
 *   -M (main)       syncs from every peer, every FZ_SYNC_SECS / 2 seconds,
 *                   runs the first-turn deterministic stages, and marks its
 *                   directory with an is_main_node file;
 *   -S (secondary)  syncs only from main instances (those with is_main_node;
 *                   from every peer while there is none), every FZ_SYNC_SECS,
 *                   and skips the deterministic stages (havoc only), so
 *                   secondaries spend their time on varied random work
 *                   while the main does the exhaustive walks once for all;
 *   neither         the lone "default" instance: no sync at all, so a
 *                   -s SEED -E N run stays exactly reproducible.
 */
#ifndef FZ_FUZZ_SYNC_H
#define FZ_FUZZ_SYNC_H

#include <stddef.h>
#include <stdint.h>

#include "fz-fuzz/sync-types.h"

/* One file of a peer's queue, as fz_sync_select sees it. */
typedef struct fz_sync_item {
    const char *name; /* file name inside the peer's queue/ */
    uint32_t id;      /* its id:N (filled in by fz_sync_select) */
} fz_sync_item_t;

/* --- Pure helpers (no I/O; tests/check_sync.c) --- */

/* 1 if a directory entry of OUT named name can be a peer of instance
 * self: not hidden, not self, an instance name (FZ_NAME_CHARS, at most
 * FZ_SYNC_PEER_MAX bytes). */
int fz_sync_peer_ok(const char *name, const char *self);

/* A cursor file's contents -> the next id to examine.  Returns 0, or -1
 * (and *next = 0: examine everything again, which only costs runs) when
 * it is not AFL++'s 4-byte form. */
int fz_sync_cursor_parse(const uint8_t *buf, size_t len, uint32_t *next);

/* The 4 bytes of a cursor file for next. */
void fz_sync_cursor_encode(uint32_t next, uint8_t out[4]);

/* Keep the items that are due: a non-hidden "id:N..." name with N >=
 * cursor.  They move to the front, sorted by id (then name), and their
 * count is returned; the order of the rest is unspecified.  *peer_next
 * gets the highest id seen + 1 (0 if none), whatever the cursor. */
uint32_t fz_sync_select(fz_sync_item_t *items, uint32_t n, uint32_t cursor, uint32_t *peer_next);

/* The cursor to use for a peer whose queue now ends at peer_next (highest
 * id + 1): a peer that lost files below our cursor was started afresh
 * under the same name, so start over at 0; otherwise keep cursor. */
uint32_t fz_sync_cursor_check(uint32_t cursor, uint32_t peer_next);

/* 1 if a peer's file name says it was imported from instance self
 * ("...,sync:SELF,..."): self has it already, no need to run it. */
int fz_sync_from_self(const char *name, const char *self);

/* --- The running instance --- */

struct fz_state;

/* Set up st->sync from the options: the .synced directory, the main's
 * is_main_node marker (a secondary removes a stale one).  Does nothing for
 * the default instance. */
void fz_sync_init(struct fz_state *st);

/* Sync now if this instance syncs and the interval has passed (at once on
 * the first call, so a new or restarted instance starts from what its
 * peers already found).  Called between queue entries. */
void fz_sync_maybe(struct fz_state *st);

/* A find handed over directly by a -j sibling (jobs.c): peer's queue entry
 * id, with its bytes (NULL when they were too big to pass).  Runs it like
 * a synced file unless the cursor says it was examined already or
 * skip_run (it came from a third instance, which passes it itself), and
 * moves the cursor past it; when earlier files of the peer were missed,
 * syncs the peer's directory instead. */
void fz_sync_direct(struct fz_state *st, const char *peer, uint32_t id, int skip_run,
                    const uint8_t *buf, uint32_t len);

void fz_sync_free(fz_sync_t *s);

#endif
