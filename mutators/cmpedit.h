/*
 * cmpedit.h - the pure half of input-to-state solving (RedQueen's idea; AFL++
 * calls it CmpLog): comparisons read out of a comparison log
 * (include/fz-cmplog.h) become records, and a record plus the input that
 * produced it becomes a short list of edits that put one operand where the
 * input holds the other.  Also: which records a changed input broke (the
 * chained-check repair), which ones the input drives (colourization), and
 * which operands look like dictionary tokens.  Records are fz_cmp_*,
 * edits fz_cmpedit_* (the stage that uses them is fz-fuzz/i2s.c, fz_i2s_*).
 *
 * No I/O, no target runs, no randomness: fz-fuzz/i2s.c runs the target and
 * decides what to keep; tests/check_cmpedit.c drives all of this with logs
 * written by hand.
 */
#ifndef FZ_MUT_CMPEDIT_H
#define FZ_MUT_CMPEDIT_H

#include <stddef.h>
#include <stdint.h>

#include "fz-cmplog.h"

/* One logged comparison.  Integer operands are kept as `size` little-endian
 * bytes (16-byte ones too), string operands as logged (at most
 * FZ_CMP_STR_MAX bytes each), so every encoding below works on bytes. */
typedef struct {
    uint16_t slot; /* the site's log slot */
    uint8_t idx;   /* which of the site's pairs (0 .. FZ_CMP_PAIRS-1) */
    uint8_t type;  /* FZ_CMP_INT or FZ_CMP_STR */
    uint8_t size;  /* INT: 1, 2, 4, 8 or 16; STR: 0 */
    uint8_t attr;  /* FZ_CMP_A_* */
    uint8_t len0, len1;
    uint8_t b0[FZ_CMP_STR_MAX], b1[FZ_CMP_STR_MAX];
} fz_cmp_rec_t;

/* The distinct records of one run, in (slot, idx) order.  A site called in
 * a loop logs the same pair again and again; only the first copy is kept,
 * so a log of millions of compares shrinks to what is worth a look. */
typedef struct {
    fz_cmp_rec_t *r;
    uint32_t n, cap;
    uint32_t dropped; /* distinct records past cap (not kept) */
    uint64_t *set;    /* open-addressing set of record keys (dedupe) */
    uint32_t set_cap; /* power of two, >= 2 * cap */
    uint32_t *pos;    /* the set's taken positions, n of them (a clear) */
    uint32_t *order;  /* fz_cmp_list_read's scratch: the log's blocks */
} fz_cmp_list_t;

/* Allocates room for cap records.  Returns 0 or -1 (out of memory). */
int fz_cmp_list_init(fz_cmp_list_t *l, uint32_t cap);
void fz_cmp_list_free(fz_cmp_list_t *l);
void fz_cmp_list_clear(fz_cmp_list_t *l);

/* Reads every site of log into l (cleared first).  Entries that cannot be
 * valid (unknown type or width) are skipped: the target wrote the log, and
 * a program that scribbles over it must not derail the fuzzer.  Returns
 * l->n. */
uint32_t fz_cmp_list_read(fz_cmp_list_t *l, const fz_cmplog_t *log);

/* Adds one record unless an equal one (same slot, operands and kind) is
 * there; keeps (slot, idx) order only if records come in that order.
 * Returns 1 added, 0 duplicate or full. */
int fz_cmp_list_add(fz_cmp_list_t *l, const fz_cmp_rec_t *r);

/* The record at (slot, idx), or NULL. */
const fz_cmp_rec_t *fz_cmp_list_find(const fz_cmp_list_t *l, uint16_t slot, uint8_t idx);

/* A key of the comparison itself (kind and operands, not the site), for
 * "this pair was tried already". */
uint64_t fz_cmp_key(const fz_cmp_rec_t *r);

/* 1 when the comparison came out equal (the branch an equality test guards
 * was taken; a string comparison matched; strstr found its needle). */
int fz_cmp_equal(const fz_cmp_rec_t *r);

/* Records of `now` (indices into now->r, at most cap) that an earlier run
 * (`parent`, same program) had equal at the same (slot, idx) and that now
 * differ: the checks an edit broke, e.g. a checksum over the bytes just
 * changed.  Equality tests and string comparisons only (an ordering test
 * or a switch changing its outcome is normal).  Returns the count. */
uint32_t fz_cmp_broken(const fz_cmp_list_t *parent, const fz_cmp_list_t *now, uint32_t *out,
                       uint32_t cap);

/* How much a record looks driven by the input, given the log of the same
 * program on a "coloured" copy of it (every byte changed): 0 its operands
 * changed with the input, 1 no counterpart (the path changed), 2 they did
 * not change (likely two values the program holds).  Lower goes first. */
int fz_cmp_taint_rank(const fz_cmp_rec_t *r, const fz_cmp_list_t *colour);

/* Longest bytes an edit inserts: a string operand, or a decimal number. */
#define FZ_CMPEDIT_INS_MAX 32

/* One candidate: replace in[pos .. pos+del) by ins[0 .. ins_len), then,
 * if resize is not 0, cut the result to resize bytes or pad it with zero
 * bytes up to resize (a check of the input's length; zeros leave additive
 * and xor checksums as they were). */
typedef struct {
    uint32_t pos;
    uint32_t del;
    uint32_t resize; /* length after the edit; 0: as the splice leaves it */
    uint8_t ins_len;
    uint8_t confirmed; /* the coloured run agrees the operand comes from here */
    uint8_t ins[FZ_CMPEDIT_INS_MAX];
} fz_cmpedit_t;

/* fz_cmpedit_make flags.  DRIVEN: the record is known to follow the input
 * (it broke after an edit, or changed with the colour): also try the fixes
 * that need no operand in the input, the checksum adjustments. */
#define FZ_CMPEDIT_DRIVEN 1u

/* Bytes at the front of the input searched for a field an operand is a
 * transform of (operand = a * field + b): each position is read at four
 * widths and both byte orders, so this search costs more than finding a
 * copy, and the fields such checks read (counts, sizes) are in headers. */
#define FZ_CMPEDIT_AFFINE_SCAN 1024u

/* Without the coloured run to confirm it, operand = a * field + b is
 * believed only when compared with the input's length, for 2-byte or
 * wider fields and |b| up to this (a header's size, "length minus the 6
 * header bytes"). */
#define FZ_CMPEDIT_AFFINE_B 64

/* Colour-confirmed transform edits per operand at most: a value built
 * from input bits (a decoder's bit buffer) matches many (a, b, field) by
 * chance, and on zlib, unbounded, they doubled the stage's runs for no
 * more coverage.  (Unconfirmed ones, against the length only, are few.) */
#define FZ_CMPEDIT_AFFINE_EDITS 4

/* A value within this of the input's length is taken for the length plus
 * a constant (n - 6, n + 2) when it is compared with a transform of a
 * field: the edit then also resizes the input. */
#define FZ_CMPEDIT_LEN_SLACK 64

/* Longest an input is grown to satisfy a length check: at most twice its
 * length or this many bytes more. */
#define FZ_CMPEDIT_GROW_MAX 4096u

/* Occurrences of one pattern looked at: where the coloured run confirms
 * it first, then the first and the last ones in the input (a trailer's
 * checksum byte is the last of many equal bytes in a uniform seed). */
#define FZ_CMPEDIT_POS_MAX 16

/* Bytes of the input searched for operands: its first 256 KiB.  One
 * comparison is looked for in some 50 encodings; over a whole 1 MiB input
 * and thousands of comparisons that would take seconds per entry, and the
 * headers, keywords and fields compares read are near the front. */
#define FZ_CMPEDIT_SCAN_MAX (256u << 10)

/*
 * The edits that make record r come out the other way, for the input that
 * produced it: for each operand found in the input, write the other one
 * there.  Integers: as is (little-endian) and byte-swapped, at the
 * compare's width and at narrower widths both values fit (1, 2, 4, 8), off
 * by one (the program compared the input +-1), and as ASCII decimal and
 * hex text; an ordering test also gets the other operand +-1.  Strings and
 * memory: overwrite at the match, replace the matched span (the length may
 * change), and, for strstr / memmem, insert the needle.
 *
 * Integers that are not a copy of input bytes:
 *  - a transform of a field, operand = a * field + b (a in 1, 2, 3, 4, 8,
 *    16; the field 1, 2, 4 or 8 bytes, either byte order, in the first
 *    FZ_CMPEDIT_AFFINE_SCAN bytes; confirmed by the coloured run, or compared
 *    with the input's length): the field gets (other - b) / a; when that
 *    does not divide and the other operand is the input's length, the
 *    input is also cut (or padded) so that it does;
 *  - the input's length compared with a constant (n < 8): the input is
 *    cut or padded with zeros to the length wanted;
 *  - with FZ_CMPEDIT_DRIVEN, a computed value neither found in the input nor
 *    the length (a sum or xor over a range compared with a constant or a
 *    checksum in the input): a byte near the end is adjusted by the
 *    difference, added and xored in.
 *
 * Only in[0 .. FZ_CMPEDIT_SCAN_MAX) is searched, and a longer input is
 * treated as ending there (an overwrite near that end may reach past it).
 *
 * colour / cin (both optional): the same record from the run on the
 * coloured input cin (same length as in); an occurrence where cin holds
 * the coloured operand in the same encoding is marked confirmed, and
 * confirmed edits come first.  Writes at most cap edits, best first, with
 * no two alike; returns the count.
 */
size_t fz_cmpedit_make(const fz_cmp_rec_t *r, const uint8_t *in, size_t len,
                       const fz_cmp_rec_t *colour, const uint8_t *cin, unsigned flags,
                       fz_cmpedit_t *out, size_t cap);

/* out = in with edit e applied (and resized), at most max bytes.  Returns
 * the length. */
size_t fz_cmpedit_apply(const uint8_t *in, size_t len, const fz_cmpedit_t *e, uint8_t *out,
                        size_t max);

/* Dictionary tokens: the operand of r on `side` (0 or 1) as a token for
 * havoc, if it looks like one: 2..32 bytes, not found in the input (input
 * bytes are not the program's constants), for an integer only the constant
 * side (v1 of a FZ_CMP_A_CONST or switch pair), not a trivial number (0, 1, -1,
 * fewer than two non-zero bytes) and either mostly printable or mostly
 * non-zero (a magic number).  Integers are written little-endian in the
 * smallest of 2, 4, 8 bytes that holds them.  Returns the token length
 * (written to tok, FZ_CMP_STR_MAX bytes of room) or 0. */
size_t fz_cmpedit_token(const fz_cmp_rec_t *r, int side, const uint8_t *in, size_t len,
                        uint8_t *tok);

#endif
