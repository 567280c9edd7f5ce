/*
 * coverage.c - bucket classification and virgin-map comparison (see
 * coverage.h).  Every loop walks the map 64 bits at a time and does byte
 * work only for non-zero words, because a typical map is mostly zeros:
 * a few thousand edges hit in a 64 KiB - 8 MiB map.
 */
#include "core/coverage.h"

#include <string.h>

#include "fz-buckets.h"

uint8_t fz_cov_bucket(uint8_t count)
{
    return fz_bucket_of[count];
}

/* Word loads through memcpy keep the code free of aliasing trouble; the
 * compiler turns them into plain 64-bit moves. */
static inline uint64_t load64(const uint8_t *p)
{
    uint64_t w;
    memcpy(&w, p, 8);
    return w;
}

static inline void store64(uint8_t *p, uint64_t w)
{
    memcpy(p, &w, 8);
}

/* Index of the first non-zero 64-bit word at or after i (a multiple of
 * 8), or size when there is none.  Four words per test: a large map is
 * mostly zero, and this scan is the whole cost of a run's map work when
 * the run hit little of it. */
static inline size_t next_set(const uint8_t *map, size_t i, size_t size)
{
    while (i + 32 <= size &&
           !(load64(map + i) | load64(map + i + 8) | load64(map + i + 16) | load64(map + i + 24)))
        i += 32;
    while (i + 8 <= size && !load64(map + i))
        i += 8;
    return i + 8 <= size ? i : size;
}

/* The buckets of eight counts at once, without a table: h is each byte's
 * highest set bit (1, 2, 4, ... 128), which is the bucket except that 3
 * and 4-63 go one bit higher (3 -> 4, 4-7 -> 8, ... 32-63 -> 64), so h
 * is doubled in those bytes: where h is 4-32, or h is 2 and the count odd
 * (3).  No byte carries into the next (a doubled h is at most 64). */
static inline uint64_t bucket_word(uint64_t w)
{
    const uint64_t lo = 0x0101010101010101ull;
    uint64_t s = w | ((w >> 1) & (lo * 0x7f));
    s |= (s >> 2) & (lo * 0x3f);
    s |= (s >> 4) & (lo * 0x0f);
    uint64_t h = s & ~((s >> 1) & (lo * 0x7f));
    uint64_t three = (h >> 1) & w & lo;
    return h + (h & ((lo * 0x3c) | (three << 1)));
}

/* Classifies one non-zero word in place and returns it; a word that is
 * its own bucket (every count 0, 1 or 2: the common case) is not stored. */
static inline uint64_t classify_word(uint8_t *p)
{
    uint64_t w = load64(p), b = bucket_word(w);
    if (b != w)
        store64(p, b);
    return b;
}

void fz_cov_classify(uint8_t *map, size_t size)
{
    for (size_t i = next_set(map, 0, size); i < size; i = next_set(map, i + 8, size))
        classify_word(map + i);
}

void fz_cov_virgin_init(uint8_t *virgin, size_t size)
{
    memset(virgin, 0xff, size);
}

/* The verdict for one word whose bits overlap virgin: a byte of the map
 * that is set where the virgin byte is still 0xff is an edge never seen. */
static int word_verdict(const uint8_t *map, const uint8_t *virgin)
{
    for (int k = 0; k < 8; k++)
        if (map[k] && virgin[k] == 0xff)
            return FZ_COV_NEW_EDGE;
    return FZ_COV_NEW_COUNT;
}

int fz_cov_new_bits(uint8_t *virgin, const uint8_t *map, size_t size)
{
    int ret = FZ_COV_NOTHING;
    for (size_t i = next_set(map, 0, size); i < size; i = next_set(map, i + 8, size)) {
        uint64_t cur = load64(map + i);
        uint64_t vir = load64(virgin + i);
        if (!(cur & vir))
            continue;
        if (ret < FZ_COV_NEW_EDGE) {
            int v = word_verdict(map + i, virgin + i);
            if (v > ret)
                ret = v;
        }
        store64(virgin + i, vir & ~cur);
    }
    return ret;
}

int fz_cov_classify_judge(const uint8_t *virgin, uint8_t *map, size_t size)
{
    int ret = FZ_COV_NOTHING;
    for (size_t i = next_set(map, 0, size); i < size; i = next_set(map, i + 8, size)) {
        uint64_t cur = classify_word(map + i);
        if (ret < FZ_COV_NEW_EDGE && (cur & load64(virgin + i))) {
            int v = word_verdict(map + i, virgin + i);
            if (v > ret)
                ret = v;
        }
    }
    return ret;
}

size_t fz_cov_new_mask(const uint8_t *virgin, const uint8_t *map, uint8_t *mask, size_t size)
{
    size_t n = 0;
    for (size_t i = 0; i + 8 <= size; i += 8) {
        uint64_t m = load64(map + i) & load64(virgin + i);
        store64(mask + i, m);
        if (!m)
            continue;
        for (int k = 0; k < 8; k++)
            n += mask[i + k] != 0;
    }
    return n;
}

int fz_cov_covers(const uint8_t *map, const uint8_t *want, size_t size)
{
    for (size_t i = 0; i + 8 <= size; i += 8) {
        uint64_t w = load64(want + i);
        if (w && (load64(map + i) & w) != w)
            return 0;
    }
    return 1;
}

size_t fz_cov_count_set(const uint8_t *map, size_t size)
{
    size_t n = 0;
    for (size_t i = next_set(map, 0, size); i < size; i = next_set(map, i + 8, size)) {
        for (size_t j = i; j < i + 8; j++)
            n += map[j] != 0;
    }
    return n;
}

size_t fz_cov_count_found(const uint8_t *virgin, size_t size)
{
    size_t n = 0;
    for (size_t i = 0; i + 8 <= size; i += 8) {
        if (load64(virgin + i) == ~(uint64_t)0)
            continue;
        for (size_t j = i; j < i + 8; j++)
            n += virgin[j] != 0xff;
    }
    return n;
}
