/*
 * lf-mutate.c - libFuzzer's mutation interface in fz's driver
 * (lib/fz/fz-libfuzzer.o): LLVMFuzzerMutate for harnesses to call, and the
 * harness's own LLVMFuzzerCustomMutator / LLVMFuzzerCustomCrossOver, used
 * when it defines them (weak references).
 *
 * LLVMFuzzerMutate is one mutation of fz's engine (mutators/mutate.h),
 * whose objects are linked into the driver with their symbols made local,
 * so they never meet a harness's own.  A custom mutator lives in the
 * harness, so it must run there: fz-fuzz sends requests instead of inputs
 * among a batch's candidates (include/fz-protocol.h, "Harness-side
 * mutation"), and lf_custom_apply turns a request into the input that
 * runs, seeded by the request (so fz-fuzz's -s reproduces the campaign),
 * and leaves that input in the test-case segment for fz-fuzz to save.
 *
 * The mix, as libFuzzer's (FuzzerMutate.cpp): with a custom mutator every
 * mutation is the custom mutator's (it may call LLVMFuzzerMutate for fz's
 * byte mutations), stacked 1..FZ_LF_MUTATE_DEPTH deep like libFuzzer's
 * -mutate_depth, and a custom crossover, when defined, is another
 * mutation fz-fuzz picks as often as the custom mutator.  Without a
 * custom mutator fz-fuzz's own stages run and the custom crossover takes
 * one havoc candidate in FZ_LF_XOVER_ONE_IN (fz-fuzz/lfmut.c).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fz-config.h"
#include "fz-protocol.h"
#include "mutators/mutate.h"
#include "mutators/rng.h"
#include "runtime/lf-mutate.h"

#define FZ_LF_EXPORT __attribute__((visibility("default")))

/* Mutations stacked per request at most (libFuzzer's -mutate_depth). */
#define FZ_LF_MUTATE_DEPTH 5
/* Tries when the custom mutator returns 0 (it could not mutate, e.g. the
 * input did not decompress and recompressing failed), as libFuzzer retries. */
#define FZ_LF_MUTATE_TRIES 16

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
    __attribute__((weak));
size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1, const uint8_t *data2,
                                 size_t size2, uint8_t *out, size_t max_out_size,
                                 unsigned int seed) __attribute__((weak));

/* The runtime (lib/fz/fz-rt.o; runtime/rt-fsrv.h, rt-map.h). */
void __fz_rt_set_custom(uint32_t opts);
void __fz_rt_map_clear(void);
extern unsigned char *__afl_fuzz_ptr;
extern unsigned int *__afl_fuzz_len;

/* The driver's generator: seeded per request under fz-fuzz; outside it
 * (a harness's own tests calling LLVMFuzzerMutate) a fixed sequence. */
static fz_rng_t lf_rng;
static int lf_rng_seeded;

FZ_LF_EXPORT size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size)
{
    if (!lf_rng_seeded) {
        fz_rng_seed(&lf_rng, 1);
        lf_rng_seeded = 1;
    }
    if (max_size == 0)
        return 0;
    size_t n = fz_mutate(&lf_rng, data, size < max_size ? size : max_size, max_size, NULL, NULL);
    if (n == 0) {
        /* libFuzzer never returns an empty input here: one byte instead. */
        data[0] = (uint8_t)fz_rng_below(&lf_rng, 256);
        n = 1;
    }
    return n;
}

void __fz_lf_custom_init(void)
{
    __fz_rt_set_custom((LLVMFuzzerCustomMutator ? FZ_FS_NEW_OPT_FZ_CUSTOM : 0) |
                       (LLVMFuzzerCustomCrossOver ? FZ_FS_NEW_OPT_FZ_XOVER : 0));
}

static uint32_t rd32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* One custom mutation of buf (n bytes, room for max); returns the new
 * length, or n unchanged when every try returned nothing usable. */
static size_t custom_once(uint8_t *buf, size_t n, size_t max, uint8_t *scratch)
{
    for (int t = 0; t < FZ_LF_MUTATE_TRIES; t++) {
        memcpy(scratch, buf, n);
        size_t r = LLVMFuzzerCustomMutator(scratch, n, max, (unsigned int)fz_rng_next(&lf_rng));
        if (r && r <= max) {
            memcpy(buf, scratch, r);
            return r;
        }
    }
    return n;
}

/* Under fz-fuzz, before a pass: when the test-case segment holds a
 * request, builds its input there.  Called with nothing but the runtime's
 * state between __fz_persistent_loop and the harness. */
void __fz_lf_custom_apply(void)
{
    static uint8_t *buf, *scratch;
    uint32_t word = *__afl_fuzz_len;
    if (!(word & FZ_BATCH_CUSTOM))
        return;
    uint32_t len = word & ~FZ_BATCH_CUSTOM;
    if (!buf && (!(buf = malloc(FZ_MAX_INPUT)) || !(scratch = malloc(FZ_MAX_INPUT)))) {
        fprintf(stderr, "fz-libfuzzer: out of memory for the custom mutator\n");
        abort();
    }
    const uint8_t *req = __afl_fuzz_ptr;
    uint32_t seed = 0, max = 1, n = 0;
    if (len >= FZ_CUSTOM_HDR && len <= FZ_MAX_INPUT) {
        seed = rd32(req);
        max = rd32(req + 4);
        n = rd32(req + 8);
    }
    if (max < 1 || max > FZ_MAX_INPUT)
        max = FZ_MAX_INPUT;
    if (n > len - FZ_CUSTOM_HDR || len < FZ_CUSTOM_HDR)
        n = 0; /* a malformed request runs an empty input */
    const uint8_t *base = req + FZ_CUSTOM_HDR, *other = base + n;
    size_t other_len = len >= FZ_CUSTOM_HDR ? len - FZ_CUSTOM_HDR - n : 0;
    if (n > max)
        n = max;
    memcpy(buf, base, n);
    fz_rng_seed(&lf_rng, seed);
    lf_rng_seeded = 1;
    size_t out = n;
    int stack = LLVMFuzzerCustomMutator != NULL;
    if (other_len && LLVMFuzzerCustomCrossOver) {
        size_t r = LLVMFuzzerCustomCrossOver(buf, n, other, other_len, scratch, max,
                                             (unsigned int)fz_rng_next(&lf_rng));
        if (r && r <= max) {
            memcpy(buf, scratch, r);
            out = r;
        }
    } else if (stack) {
        out = custom_once(buf, out, max, scratch);
    } else {
        out = LLVMFuzzerMutate(buf, out, max);
    }
    if (stack)
        for (uint32_t d = fz_rng_below(&lf_rng, FZ_LF_MUTATE_DEPTH); d > 0; d--)
            out = custom_once(buf, out, max, scratch);
    /* The bytes that run, where fz-fuzz reads them back (plain length). */
    memcpy(__afl_fuzz_ptr, buf, out);
    *__afl_fuzz_len = (uint32_t)out;
    /* The mutator's own code is instrumented: its edges are not the input's. */
    __fz_rt_map_clear();
}
