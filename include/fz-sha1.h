/*
 * fz-sha1.h - SHA-1 of a buffer as 40 hex digits, for libFuzzer's artifact
 * and corpus file names (crash-<sha1>, timeout-<sha1>, a corpus file named
 * by its content).  Header-only so that both fz-fuzz and the libFuzzer
 * driver in the runtime (which links nothing of fz's) can use it.  Written
 * from FIPS 180-4; names only, never security.
 */
#ifndef FZ_SHA1_H
#define FZ_SHA1_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint32_t fz_sha1_rol(uint32_t x, int n)
{
    return (x << n) | (x >> (32 - n));
}

static inline void fz_sha1_block(uint32_t h[5], const uint8_t *p)
{
    uint32_t w[80];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
               (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (int i = 16; i < 80; i++)
        w[i] = fz_sha1_rol(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
    for (int i = 0; i < 80; i++) {
        uint32_t f, k;
        if (i < 20) {
            f = (b & c) | (~b & d);
            k = 0x5a827999;
        } else if (i < 40) {
            f = b ^ c ^ d;
            k = 0x6ed9eba1;
        } else if (i < 60) {
            f = (b & c) | (b & d) | (c & d);
            k = 0x8f1bbcdc;
        } else {
            f = b ^ c ^ d;
            k = 0xca62c1d6;
        }
        uint32_t t = fz_sha1_rol(a, 5) + f + e + k + w[i];
        e = d;
        d = c;
        c = fz_sha1_rol(b, 30);
        b = a;
        a = t;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
}

/* hex gets 40 lowercase hex digits and a NUL. */
static inline void fz_sha1_hex(const void *data, size_t len, char hex[41])
{
    uint32_t h[5] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0};
    const uint8_t *p = (const uint8_t *)data;
    size_t left = len;
    for (; left >= 64; left -= 64, p += 64)
        fz_sha1_block(h, p);
    uint8_t tail[128] = {0};
    memcpy(tail, p, left);
    tail[left] = 0x80;
    size_t n = left < 56 ? 64 : 128;
    uint64_t bits = (uint64_t)len * 8;
    for (int i = 0; i < 8; i++)
        tail[n - 1 - i] = (uint8_t)(bits >> (8 * i));
    fz_sha1_block(h, tail);
    if (n == 128)
        fz_sha1_block(h, tail + 64);
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < 20; i++) {
        uint8_t byte = (uint8_t)(h[i / 4] >> (24 - 8 * (i % 4)));
        hex[2 * i] = digits[byte >> 4];
        hex[2 * i + 1] = digits[byte & 15];
    }
    hex[40] = 0;
}

#endif
