/*
 * text.h - the -a text hint: after a chained mutation, most bytes it made
 * unprintable become printable ones, so a text format's parser sees text
 * more often.  A pure function over (rng, buf, len, orig, orig_len), like
 * the mutators: no I/O, no state, reproducible from the seed.
 */
#ifndef FZ_TEXT_H
#define FZ_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "mutators/rng.h"

/* A byte a text format holds: printable ASCII, tab, newline, carriage
 * return (bytes >= 0x80 are left alone too: UTF-8). */
int fz_text_byte_ok(uint8_t c);

/*
 * In BUF (LEN bytes, a mutation of ORIG, ORIG_LEN bytes), replace each byte
 * that is not fz_text_byte_ok and differs from ORIG at the same offset (or
 * lies past its end) by a printable one, three times in four: binary bytes
 * the input already had stay, and a few new ones still get through, since
 * parsers of text formats must also see those.  Returns the bytes changed.
 */
size_t fz_text_bias(fz_rng_t *rng, uint8_t *buf, size_t len, const uint8_t *orig,
                    size_t orig_len);

#endif
