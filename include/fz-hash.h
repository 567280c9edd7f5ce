/*
 * fz-hash.h - the one byte-string hash of fz: 64-bit FNV-1a.  Cheap, no
 * tables, good enough to tell crash sites, inputs and comparison operands
 * apart (never for anything an attacker chooses to collide).  Header-only,
 * so the runtime (which links nothing of the front end) and the front end
 * share it; async-signal-safe (loads, xors and multiplies).
 */
#ifndef FZ_HASH_H
#define FZ_HASH_H

#include <stddef.h>
#include <stdint.h>

/* Where a hash starts (FNV's offset basis). */
#define FZ_HASH_START 0xcbf29ce484222325ull

/* h with the n bytes at p mixed in. */
static inline uint64_t fz_hash_mix(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

/* The hash of n bytes at p, their length included. */
static inline uint64_t fz_hash_bytes(const void *p, size_t n)
{
    return fz_hash_mix(FZ_HASH_START ^ n, p, n);
}

#endif
