/*
 * fz-buckets.h - hit-count buckets, shared by the fuzzer (core/coverage.c)
 * and the runtime, which judges batch runs against the fuzzer's virgin map
 * itself (include/fz-protocol.h, "Batches"): both sides must bucket a
 * count the same way, so there is one table.
 *
 * Coarse on purpose: a loop running 40 or 41 times is the same behaviour,
 * but 1, 2, 3 and 4+ are distinct.
 */
#ifndef FZ_BUCKETS_H
#define FZ_BUCKETS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static const uint8_t fz_bucket_of[256] = {
    [0] = 0,          [1] = 1,           [2] = 2,
    [3] = 4,          [4 ... 7] = 8,     [8 ... 15] = 16,
    [16 ... 31] = 32, [32 ... 127] = 64, [128 ... 255] = 128,
};

/* Non-zero when the raw counts map[0 .. size) hold a bucket that virgin
 * (0xff = never seen; a bit cleared once that bucket was seen) has not
 * seen.  Reads both, writes neither; size is a multiple of 8.  Cost: one
 * load per 8 slots, byte work only where the program went. */
static inline int fz_buckets_any_new(const uint8_t *map, const uint8_t *virgin, size_t size)
{
    for (size_t i = 0; i + 8 <= size; i += 8) {
        uint64_t w;
        memcpy(&w, map + i, 8);
        if (!w)
            continue;
        for (size_t k = i; k < i + 8; k++)
            if (fz_bucket_of[map[k]] & virgin[k])
                return 1;
    }
    return 0;
}

#endif
