/*
 * text.c - the -a text hint (text.h).
 */
#include "mutators/text.h"

int fz_text_byte_ok(uint8_t c)
{
    return (c >= 0x20 && c < 0x7f) || c == '\t' || c == '\n' || c == '\r' || c >= 0x80;
}

/* What an unprintable byte becomes: mostly printable ASCII, sometimes a
 * line break or a space, which separate tokens in most text formats. */
static uint8_t printable(fz_rng_t *rng)
{
    uint32_t r = fz_rng_below(rng, 100);
    if (r < 8)
        return '\n';
    if (r < 16)
        return ' ';
    return (uint8_t)(0x21 + fz_rng_below(rng, 0x7f - 0x21));
}

size_t fz_text_bias(fz_rng_t *rng, uint8_t *buf, size_t len, const uint8_t *orig,
                    size_t orig_len)
{
    size_t changed = 0;
    for (size_t i = 0; i < len; i++) {
        if (fz_text_byte_ok(buf[i]) || (i < orig_len && buf[i] == orig[i]))
            continue;
        if (fz_rng_below(rng, 4) == 0)
            continue; /* one in four stays binary */
        buf[i] = printable(rng);
        changed++;
    }
    return changed;
}
