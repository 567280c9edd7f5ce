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

void fz_cov_classify(uint8_t *map, size_t size)
{
    for (size_t i = 0; i + 8 <= size; i += 8) {
        if (!load64(map + i))
            continue;
        for (size_t j = i; j < i + 8; j++)
            map[j] = fz_bucket_of[map[j]];
    }
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

static int scan_new(uint8_t *virgin, const uint8_t *map, size_t size, int update)
{
    int ret = FZ_COV_NOTHING;
    for (size_t i = 0; i + 8 <= size; i += 8) {
        uint64_t cur = load64(map + i);
        if (!cur)
            continue;
        uint64_t vir = load64(virgin + i);
        if (!(cur & vir))
            continue;
        if (ret < FZ_COV_NEW_EDGE) {
            int v = word_verdict(map + i, virgin + i);
            if (v > ret)
                ret = v;
        }
        if (!update) {
            if (ret == FZ_COV_NEW_EDGE)
                return ret;
            continue;
        }
        store64(virgin + i, vir & ~cur);
    }
    return ret;
}

int fz_cov_new_bits(uint8_t *virgin, const uint8_t *map, size_t size)
{
    return scan_new(virgin, map, size, 1);
}

int fz_cov_has_new_bits(const uint8_t *virgin, const uint8_t *map, size_t size)
{
    /* update == 0 never writes through the pointer. */
    return scan_new((uint8_t *)virgin, map, size, 0);
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
    for (size_t i = 0; i + 8 <= size; i += 8) {
        if (!load64(map + i))
            continue;
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

/* Mixes only the non-zero words with their position, so the cost follows
 * the number of hit edges and two maps differing anywhere differ here. */
uint64_t fz_cov_hash(const uint8_t *map, size_t size)
{
    uint64_t h = 0x9e3779b97f4a7c15ull ^ size;
    for (size_t i = 0; i + 8 <= size; i += 8) {
        uint64_t w = load64(map + i);
        if (!w)
            continue;
        w ^= (uint64_t)i * 0xff51afd7ed558ccdull;
        w ^= w >> 33;
        w *= 0xc4ceb9fe1a85ec53ull;
        w ^= w >> 29;
        h = (h ^ w) * 0x100000001b3ull;
        h ^= h >> 32;
    }
    return h;
}
