/*
 * lfmut.h - candidates for a libFuzzer harness's own mutator
 * (LLVMFuzzerCustomMutator / LLVMFuzzerCustomCrossOver).  The mutator
 * runs inside the harness, so fz-fuzz sends requests instead of inputs
 * (include/fz-protocol.h, "Harness-side mutation"; runtime/lf-mutate.c)
 * and saves the bytes the harness reports it ran.  docs/custom-mutators.md
 * says how the mix compares with libFuzzer's.
 */
#ifndef FZ_FUZZ_LFMUT_H
#define FZ_FUZZ_LFMUT_H

#include <stdint.h>

struct fz_state;
struct fz_entry;

/* One libFuzzer crossover request in this many havoc candidates when the
 * harness has a custom crossover but no custom mutator: libFuzzer draws it
 * as one more mutator beside its 13 built-in ones. */
#define FZ_LF_XOVER_ONE_IN 14

/* After the target started: takes what the handshake offered unless
 * FZ_NO_CUSTOM=1, and says so in one line.  st->lfmut (lfmut.c's own
 * struct fz_lfmut) stays NULL when nothing is taken. */
void fz_lfmut_setup(struct fz_state *st);

/* Non-zero when the harness's custom mutator makes every candidate (the
 * byte-level stages do not run, as with libFuzzer). */
int fz_lfmut_owns(const struct fz_state *st);

/* The custom mutator's havoc turn on e: one request per unit of energy. */
void fz_lfmut_stage(struct fz_state *st, struct fz_entry *e);

/* Havoc without a custom mutator: queues a crossover request for e
 * instead of the next candidate now and then; returns non-zero if it did. */
int fz_lfmut_maybe_xover(struct fz_state *st, struct fz_entry *e);

/* The input that ran for batch request at (a copy lfmut.c keeps), and
 * its length; the request's base input when the harness reported none. */
const uint8_t *fz_lfmut_ran(struct fz_state *st, uint32_t at, uint32_t *len);

#endif
