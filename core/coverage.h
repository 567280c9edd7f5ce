/*
 * coverage.h - the coverage map after a run: hit counts are classified into
 * AFL's buckets and compared with a "virgin" map of what no input has
 * reached yet.
 *
 * A raw count c becomes one bit: 1 -> 1, 2 -> 2, 3 -> 4, 4-7 -> 8,
 * 8-15 -> 16, 16-31 -> 32, 32-127 -> 64, 128-255 -> 128 (0 stays 0).
 * A virgin map starts all 0xff; a bit is cleared once some input set it.
 *
 * All functions take sizes that are a multiple of 8 and maps that are
 * 8-byte aligned (the fsrv map size is rounded up to FZ_MAP_SIZE_MIN): they
 * work a 64-bit word at a time and skip zero words, so a large, sparse map
 * costs little more than a memory scan.
 */
#ifndef FZ_COVERAGE_H
#define FZ_COVERAGE_H

#include <stddef.h>
#include <stdint.h>

/* What fz_cov_new_bits / fz_cov_classify_judge found. */
#define FZ_COV_NOTHING 0   /* nothing the virgin map has not seen */
#define FZ_COV_NEW_COUNT 1 /* a new bucket of an edge already seen */
#define FZ_COV_NEW_EDGE 2  /* an edge never seen before */

/* The bucket bit for one raw count (the byte-wise reference). */
uint8_t fz_cov_bucket(uint8_t count);

/* Replaces raw counts with bucket bits, in place. */
void fz_cov_classify(uint8_t *map, size_t size);

/* Sets every byte of a virgin map to 0xff (nothing seen). */
void fz_cov_virgin_init(uint8_t *virgin, size_t size);

/* Compares a classified map with virgin, clears the newly seen bits in
 * virgin, and returns FZ_COV_NOTHING / _NEW_COUNT / _NEW_EDGE. */
int fz_cov_new_bits(uint8_t *virgin, const uint8_t *map, size_t size);

/* fz_cov_classify and the answer fz_cov_new_bits would give, in one pass
 * over the map and without touching virgin (what every run needs: the map
 * is read once, and only a run worth keeping marks its bits seen). */
int fz_cov_classify_judge(const uint8_t *virgin, uint8_t *map, size_t size);

/* Writes into mask the bits of a classified map that virgin has not seen
 * (map & virgin): the coverage an input adds.  Returns how many bytes of
 * mask are non-zero.  Call before fz_cov_new_bits updates virgin. */
size_t fz_cov_new_mask(const uint8_t *virgin, const uint8_t *map, uint8_t *mask, size_t size);

/* Non-zero if every bit set in want is also set in the classified map. */
int fz_cov_covers(const uint8_t *map, const uint8_t *want, size_t size);

/* Number of non-zero bytes (edges hit) in a map. */
size_t fz_cov_count_set(const uint8_t *map, size_t size);

/* Number of edges a virgin map has seen (bytes that are not 0xff). */
size_t fz_cov_count_found(const uint8_t *virgin, size_t size);


#endif
