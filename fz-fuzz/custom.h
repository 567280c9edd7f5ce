/*
 * custom.h - AFL++'s custom mutator API (docs/custom-mutators.md):
 * shared objects named in AFL_CUSTOM_MUTATOR_LIBRARY or FZ_CUSTOM_MUTATOR
 * (a ';'-separated list), loaded with dlopen, their afl_custom_* functions
 * called with AFL++'s semantics.  Without a library every call here is a
 * no-op.
 */
#ifndef FZ_FUZZ_CUSTOM_H
#define FZ_FUZZ_CUSTOM_H

#include <stddef.h>
#include <stdint.h>

struct fz_state;
struct fz_entry;

/* Before the target starts: loads the libraries and calls afl_custom_init
 * (seeded from fz-fuzz's generator).  A library that cannot be loaded, or
 * AFL_CUSTOM_MUTATOR_ONLY without a library that has afl_custom_fuzz, is
 * an error naming the fix. */
void fz_custom_load(struct fz_state *st);

/* After the target started: installs post_process on every run. */
void fz_custom_started(struct fz_state *st);

/* afl_custom_deinit of each library, then dlclose. */
void fz_custom_unload(struct fz_state *st);

/* AFL_CUSTOM_MUTATOR_ONLY with libraries loaded: only the custom stage. */
int fz_custom_only(const struct fz_state *st);

/* The custom stage (right before havoc, as in AFL++): afl_custom_fuzz
 * fuzz_count times (default: the entry's havoc energy) per library. */
void fz_custom_stage(struct fz_state *st, struct fz_entry *e, uint8_t *buf);

/* Havoc: with the library's havoc_mutation_probability (default 6%),
 * stacks afl_custom_havoc_mutation on the candidate; returns its length. */
size_t fz_custom_havoc(struct fz_state *st, uint8_t *buf, size_t len, size_t max);

/* The custom trim of an entry when a library has all three of
 * init_trim, trim and post_trim; returns non-zero when it ran (the
 * built-in trim is then skipped). */
int fz_custom_trim(struct fz_state *st, struct fz_entry *e);

/* afl_custom_queue_new_entry for a new queue entry (parent's file name,
 * NULL for an import); an entry whose file a library changed is re-read. */
void fz_custom_new_entry(struct fz_state *st, struct fz_entry *e, const char *parent);

/* afl_custom_queue_get: non-zero when a library says not to fuzz e. */
int fz_custom_skip_entry(struct fz_state *st, struct fz_entry *e);

/* Non-zero when post_process refuses buf (returns 0: no run). */
int fz_custom_post_refuses(struct fz_state *st, const uint8_t *buf, size_t len);

#endif
