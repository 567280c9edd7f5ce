/*
 * cmpedit.c - comparison records and the edits made from them (see cmpedit.h).
 */
#define _GNU_SOURCE
#include "mutators/cmpedit.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- records ---------------------------------------------------------- */

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdull;
}

/* Eight bytes a step (the keys only ever meet other keys of this build:
 * sets of records tried and records seen). */
static uint64_t hash_bytes(uint64_t h, const uint8_t *p, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = mix(h, w);
    }
    if (i < n) {
        uint64_t w = 0;
        memcpy(&w, p + i, n - i);
        h = mix(h, w);
    }
    return h;
}

uint64_t fz_cmp_key(const fz_cmp_rec_t *r)
{
    uint64_t h = mix(mix(mix(1, r->type), r->size), r->attr);
    h = hash_bytes(mix(h, r->len0), r->b0, r->len0);
    h = hash_bytes(mix(h, r->len1), r->b1, r->len1);
    return h ? h : 1; /* 0 marks a free set slot */
}

int fz_cmp_list_init(fz_cmp_list_t *l, uint32_t cap)
{
    memset(l, 0, sizeof *l);
    l->set_cap = 64;
    while (l->set_cap < 2 * cap)
        l->set_cap *= 2;
    l->r = malloc((size_t)cap * sizeof *l->r);
    l->set = calloc(l->set_cap, sizeof *l->set);
    l->pos = malloc((size_t)cap * sizeof *l->pos);
    l->order = malloc((FZ_CMP_INT_BLOCKS + FZ_CMP_WIDE_BLOCKS + FZ_CMP_STR_BLOCKS) * sizeof *l->order);
    l->cap = cap;
    if (!l->r || !l->set || !l->pos || !l->order) {
        fz_cmp_list_free(l);
        return -1;
    }
    return 0;
}

void fz_cmp_list_free(fz_cmp_list_t *l)
{
    free(l->r);
    free(l->set);
    free(l->pos);
    free(l->order);
    memset(l, 0, sizeof *l);
}

void fz_cmp_list_clear(fz_cmp_list_t *l)
{
    for (uint32_t i = 0; i < l->n; i++) /* only what was taken: no 64 KB memset */
        l->set[l->pos[i]] = 0;
    l->n = l->dropped = 0;
}

int fz_cmp_list_add(fz_cmp_list_t *l, const fz_cmp_rec_t *r)
{
    /* The site is part of the key here: the same pair at two sites is two
     * checks (the repair compares sites), though one candidate list. */
    uint64_t k = mix(fz_cmp_key(r), r->slot);
    k = k ? k : 1;
    uint32_t mask = l->set_cap - 1;
    for (uint32_t i = (uint32_t)k & mask;; i = (i + 1) & mask) {
        if (l->set[i] == k)
            return 0;
        if (!l->set[i]) {
            if (l->n == l->cap) {
                l->dropped++;
                return 0;
            }
            l->set[i] = k;
            l->pos[l->n] = i;
            break;
        }
    }
    l->r[l->n++] = *r;
    return 1;
}

/* Entry i of a block as a record; 0 if it cannot be a valid entry. */
static int make_rec(fz_cmp_rec_t *r, const fz_cmp_head_t *h, uint32_t pool, uint32_t i)
{
    r->attr = h->attr;
    if (pool == FZ_CMP_POOL_INT || pool == FZ_CMP_POOL_WIDE) {
        unsigned s = h->size;
        uint64_t w[4] = {0, 0, 0, 0};
        if (pool == FZ_CMP_POOL_WIDE) {
            const fz_cmp_wide_t *op = &((const fz_cmp_wblock_t *)h)->p[i];
            w[0] = op->v0, w[1] = op->v0_hi, w[2] = op->v1, w[3] = op->v1_hi;
            if (s != 16)
                return 0;
        } else {
            const fz_cmp_pair_t *op = &((const fz_cmp_iblock_t *)h)->p[i];
            w[0] = op->v0, w[2] = op->v1;
            if (s != 1 && s != 2 && s != 4 && s != 8)
                return 0;
        }
        r->type = FZ_CMP_INT;
        r->size = (uint8_t)s;
        r->len0 = r->len1 = (uint8_t)s;
        for (unsigned k = 0; k < s; k++) {
            r->b0[k] = (uint8_t)(w[k / 8] >> (8 * (k % 8)));
            r->b1[k] = (uint8_t)(w[2 + k / 8] >> (8 * (k % 8)));
        }
        return 1;
    }
    const fz_cmp_str_t *op = &((const fz_cmp_sblock_t *)h)->p[i];
    r->type = FZ_CMP_STR;
    r->size = 0;
    r->len0 = op->len0 < FZ_CMP_STR_MAX ? op->len0 : FZ_CMP_STR_MAX;
    r->len1 = op->len1 < FZ_CMP_STR_MAX ? op->len1 : FZ_CMP_STR_MAX;
    memcpy(r->b0, op->v0, r->len0);
    memcpy(r->b1, op->v1, r->len1);
    return 1;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

uint32_t fz_cmp_list_read(fz_cmp_list_t *l, const fz_cmplog_t *log)
{
    fz_cmp_list_clear(l);
    /* The blocks handed out this run, each the one its slot points to (so
     * exactly the slots fz_cmplog_find accepts), in slot order: work in
     * proportion to the sites the run reached, not to FZ_CMP_SITES. */
    uint32_t m = 0;
    for (uint32_t p = 0; p < FZ_CMP_POOLS; p++) {
        uint32_t used = log->used[p], cap = fz_cmplog_cap(p);
        for (uint32_t b = 0; b < used && b < cap; b++) {
            uint32_t s = fz_cmplog_head((fz_cmplog_t *)log, p, b)->site;
            if (s < FZ_CMP_SITES && log->slot[s] == (p << 14 | b))
                l->order[m++] = s << 16 | p << 14 | b;
        }
    }
    qsort(l->order, m, sizeof *l->order, cmp_u32);
    for (uint32_t k = 0; k < m; k++) {
        uint32_t s = l->order[k] >> 16, pool = FZ_CMP_SLOT_POOL(l->order[k] & 0xffff);
        const fz_cmp_head_t *h = fz_cmplog_head((fz_cmplog_t *)log, pool,
                                                FZ_CMP_SLOT_BLOCK(l->order[k] & 0xffff));
        if (!h->hits)
            continue;
        uint32_t n = h->hits < FZ_CMP_PAIRS ? h->hits : FZ_CMP_PAIRS;
        for (uint32_t i = 0; i < n; i++) {
            fz_cmp_rec_t r;
            if (!make_rec(&r, h, pool, i))
                break;
            r.slot = (uint16_t)s;
            r.idx = (uint8_t)i;
            fz_cmp_list_add(l, &r);
        }
    }
    return l->n;
}

const fz_cmp_rec_t *fz_cmp_list_find(const fz_cmp_list_t *l, uint16_t slot, uint8_t idx)
{
    uint32_t want = (uint32_t)slot << 8 | idx, lo = 0, hi = l->n;
    while (lo < hi) { /* records are in (slot, idx) order */
        uint32_t mid = (lo + hi) / 2;
        uint32_t k = (uint32_t)l->r[mid].slot << 8 | l->r[mid].idx;
        if (k == want)
            return &l->r[mid];
        if (k < want)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* Length of a string operand as compared: up to a NUL for the str*
 * family, all of it for memory comparisons. */
static size_t op_len(const fz_cmp_rec_t *r, int side)
{
    const uint8_t *b = side ? r->b1 : r->b0;
    size_t n = side ? r->len1 : r->len0;
    if (r->type == FZ_CMP_STR && (r->attr & FZ_CMP_A_STRZ)) {
        const uint8_t *z = memchr(b, 0, n);
        if (z)
            n = (size_t)(z - b);
    }
    return n;
}

static int same_bytes(const uint8_t *a, const uint8_t *b, size_t n, int nocase)
{
    for (size_t i = 0; i < n; i++)
        if (nocase ? tolower(a[i]) != tolower(b[i]) : a[i] != b[i])
            return 0;
    return 1;
}

int fz_cmp_equal(const fz_cmp_rec_t *r)
{
    int nocase = (r->attr & FZ_CMP_A_NOCASE) != 0;
    size_t n0 = op_len(r, 0), n1 = op_len(r, 1);
    if (r->type == FZ_CMP_STR && (r->attr & FZ_CMP_A_FIND))
        return n1 == 0 || memmem(r->b0, n0, r->b1, n1) != NULL;
    if (r->type == FZ_CMP_STR && !(r->attr & FZ_CMP_A_STRZ)) {
        size_t n = n0 < n1 ? n0 : n1; /* sized: the shorter logged length */
        return same_bytes(r->b0, r->b1, n, nocase);
    }
    return n0 == n1 && same_bytes(r->b0, r->b1, n0, nocase);
}

static int is_equality(const fz_cmp_rec_t *r)
{
    if (r->type == FZ_CMP_STR)
        return 1;
    return (r->attr & FZ_CMP_A_EQ) && !(r->attr & FZ_CMP_A_SWITCH);
}

uint32_t fz_cmp_broken(const fz_cmp_list_t *parent, const fz_cmp_list_t *now, uint32_t *out,
                       uint32_t cap)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < now->n && k < cap; i++) {
        const fz_cmp_rec_t *r = &now->r[i];
        if (!is_equality(r) || fz_cmp_equal(r))
            continue;
        const fz_cmp_rec_t *p = fz_cmp_list_find(parent, r->slot, r->idx);
        if (p && p->type == r->type && fz_cmp_equal(p))
            out[k++] = i;
    }
    return k;
}

int fz_cmp_taint_rank(const fz_cmp_rec_t *r, const fz_cmp_list_t *colour)
{
    const fz_cmp_rec_t *c = colour ? fz_cmp_list_find(colour, r->slot, r->idx) : NULL;
    if (!c || c->type != r->type)
        return 1;
    if (c->len0 != r->len0 || c->len1 != r->len1 || memcmp(c->b0, r->b0, r->len0) ||
        memcmp(c->b1, r->b1, r->len1))
        return 0;
    return 2;
}

/* ---- edits ------------------------------------------------------------ */

typedef struct {
    fz_cmpedit_t *out;
    size_t n, cap;
} edits_t;

static void push_sized(edits_t *E, uint32_t pos, uint32_t del, const uint8_t *ins,
                       size_t ins_len, uint32_t resize, int confirmed)
{
    if (ins_len > FZ_CMPEDIT_INS_MAX)
        ins_len = FZ_CMPEDIT_INS_MAX;
    for (size_t i = 0; i < E->n; i++) {
        fz_cmpedit_t *o = &E->out[i];
        if (o->pos == pos && o->del == del && o->ins_len == ins_len && o->resize == resize &&
            !memcmp(o->ins, ins, ins_len)) {
            o->confirmed |= (uint8_t)confirmed;
            return;
        }
    }
    if (E->n == E->cap)
        return;
    fz_cmpedit_t *e = &E->out[E->n++];
    e->pos = pos;
    e->del = del;
    e->resize = resize;
    e->ins_len = (uint8_t)ins_len;
    e->confirmed = (uint8_t)confirmed;
    memcpy(e->ins, ins, ins_len);
}

static void push(edits_t *E, uint32_t pos, uint32_t del, const uint8_t *ins, size_t ins_len,
                 int confirmed)
{
    push_sized(E, pos, del, ins, ins_len, 0, confirmed);
}

/* value (width w bytes, w <= 8) as bytes, little- or big-endian. */
static void encode(uint64_t v, unsigned w, int big, uint8_t *out)
{
    for (unsigned i = 0; i < w; i++)
        out[big ? w - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

static uint64_t le_value(const uint8_t *b, unsigned w)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < w && i < 8; i++)
        v |= (uint64_t)b[i] << (8 * i);
    return v;
}

static uint64_t width_mask(unsigned w)
{
    return w >= 8 ? ~0ull : (1ull << (8 * w)) - 1;
}

/* Does v (a value of width s) survive being cut to w bytes, read back
 * zero- or sign-extended? */
static int fits(uint64_t v, unsigned s, unsigned w)
{
    if (w >= s)
        return 1;
    uint64_t m = width_mask(w), top = 1ull << (8 * w - 1);
    if ((v & ~m & width_mask(s)) == 0)
        return 1;
    return (v & top) && ((v | m) & width_mask(s)) == width_mask(s);
}

static int has_pos(const size_t *pos, size_t n, size_t at)
{
    for (size_t i = 0; i < n; i++)
        if (pos[i] == at)
            return 1;
    return 0;
}

/* Positions of the w-byte pattern pat in the input, at most
 * FZ_CMPEDIT_POS_MAX, best first: where the coloured input cin holds the
 * coloured pattern cpat too (*nconf of them), then the first and the last
 * occurrences.  Returns the count. */
static size_t find_int(const uint8_t *in, size_t len, const uint8_t *pat, unsigned w,
                       const uint8_t *cin, const uint8_t *cpat, size_t *pos, size_t *nconf)
{
    size_t n = 0;
    if (cin && cpat)
        for (const uint8_t *q = cin; n < FZ_CMPEDIT_POS_MAX / 2; q++) {
            q = memmem(q, len - (size_t)(q - cin), cpat, w);
            if (!q)
                break;
            size_t at = (size_t)(q - cin);
            if (!memcmp(in + at, pat, w))
                pos[n++] = at;
        }
    *nconf = n;
    size_t first_end = n + FZ_CMPEDIT_POS_MAX / 2, lo = 0;
    int more = 0; /* the forward scan stopped at its limit, not the end */
    for (const uint8_t *q = in; len >= w;) {
        q = memmem(q, len - (size_t)(q - in), pat, w);
        if (!q)
            break;
        if (n == first_end) {
            more = 1;
            break;
        }
        size_t at = (size_t)(q - in);
        lo = at + 1;
        q++;
        if (!has_pos(pos, *nconf, at))
            pos[n++] = at;
    }
    /* The last ones, going back, down to the forward scan's last find. */
    for (size_t hi = len - w + 1; more && n < FZ_CMPEDIT_POS_MAX && hi > lo;) {
        const uint8_t *q = memrchr(in + lo, pat[0], hi - lo);
        if (!q)
            break;
        hi = (size_t)(q - in);
        if (!memcmp(q, pat, w) && !has_pos(pos, *nconf, hi))
            pos[n++] = hi;
    }
    return n;
}

/* Edits for integer pattern p -> replacement rep at width w, one byte
 * order, at the occurrences find_int picks; cp (the coloured pattern)
 * confirms positions. */
static void int_at(edits_t *E, const uint8_t *in, size_t len, const uint8_t *cin, uint64_t p,
                   uint64_t rep, const uint64_t *cp, unsigned w, int big, int ordering)
{
    uint8_t pat[8], rb[8], cpat[8];
    encode(p, w, big, pat);
    if (cp)
        encode(*cp, w, big, cpat);
    size_t pos[FZ_CMPEDIT_POS_MAX], nconf;
    size_t n = find_int(in, len, pat, w, cp ? cin : NULL, cpat, pos, &nconf);
    for (size_t i = 0; i < n; i++) {
        int conf = i < nconf;
        uint64_t vals[3] = {rep, rep + 1, rep - 1};
        for (int k = 0; k < (ordering ? 3 : 1); k++) {
            encode(vals[k] & width_mask(w), w, big, rb);
            if (memcmp(rb, pat, w))
                push(E, (uint32_t)pos[i], w, rb, w, conf);
        }
    }
}

/* ASCII text of v in base 10 (signed when neg) or 16 (upper when up). */
static size_t fmt_num(char *buf, uint64_t v, int base, int neg, int up)
{
    if (base == 10)
        return (size_t)(neg ? sprintf(buf, "%lld", (long long)v)
                            : sprintf(buf, "%llu", (unsigned long long)v));
    return (size_t)sprintf(buf, up ? "%llX" : "%llx", (unsigned long long)v);
}

static int is_digit_of(int c, int base)
{
    return base == 10 ? isdigit(c) : isxdigit(c);
}

/* The pattern as text (decimal, hex lower/upper) wherever it stands alone
 * in the input, replaced by the replacement in the same notation. */
static void int_ascii(edits_t *E, const uint8_t *in, size_t len, uint64_t p, uint64_t rep,
                      unsigned s)
{
    int neg = s < 8 ? 0 : (int64_t)p < 0 || (int64_t)rep < 0;
    if (s < 8 && ((p >> (8 * s - 1)) & 1)) { /* negative at width s: sign-extend */
        p |= ~width_mask(s);
        rep = (rep >> (8 * s - 1)) & 1 ? rep | ~width_mask(s) : rep;
        neg = 1;
    }
    static const int forms[3][2] = {{10, 0}, {16, 0}, {16, 1}};
    for (int f = 0; f < 3; f++) {
        int base = forms[f][0];
        if (base == 16 && (neg || p < 10 || rep < 10))
            continue; /* hex only when it differs from decimal */
        char pt[24], rt[24];
        size_t pl = fmt_num(pt, p, base, neg, forms[f][1]);
        size_t rl = fmt_num(rt, rep, base, neg, forms[f][1]);
        unsigned found = 0;
        for (const uint8_t *q = in; found < FZ_CMPEDIT_POS_MAX;) {
            q = memmem(q, len - (size_t)(q - in), pt, pl);
            if (!q)
                break;
            size_t pos = (size_t)(q - in);
            q++;
            if ((pos && is_digit_of(in[pos - 1], base)) ||
                (pos + pl < len && is_digit_of(in[pos + pl], base)))
                continue;
            found++;
            push(E, (uint32_t)pos, (uint32_t)pl, (const uint8_t *)rt, rl, 0);
        }
    }
}

/* v, a value of width s bytes, as a signed number. */
static int64_t sext(uint64_t v, unsigned s)
{
    if (s >= 8)
        return (int64_t)v;
    unsigned sh = 64 - 8 * s;
    return (int64_t)(v << sh) >> sh;
}

/* Is v (width s) the input's length plus a small constant *d?  A length
 * compared at one byte is too easily a coincidence. */
static int len_like(uint64_t v, unsigned s, size_t len, int64_t *d)
{
    if (s < 2)
        return 0;
    int64_t x = sext((v - (uint64_t)len) & width_mask(s), s);
    if (x < -FZ_CMPEDIT_LEN_SLACK || x > FZ_CMPEDIT_LEN_SLACK)
        return 0;
    *d = x;
    return 1;
}

static uint64_t read_int(const uint8_t *b, unsigned w, int big)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < w; i++)
        v |= (uint64_t)b[big ? w - 1 - i : i] << (8 * i);
    return v;
}

/* What an integer edit knows besides the record. */
typedef struct {
    const uint8_t *in, *cin; /* the input (searched part) and its coloured copy */
    size_t len;              /* bytes searched */
    size_t full;             /* the input's real length */
    unsigned s;              /* the compare's width (16 read as 8) */
    int ordering;            /* <, > rather than ==, != */
} int_ctx_t;

/* Longest length a length edit asks for. */
static size_t grow_limit(size_t len)
{
    return len + (len < FZ_CMPEDIT_GROW_MAX ? len : FZ_CMPEDIT_GROW_MAX) + FZ_CMPEDIT_LEN_SLACK;
}

/* The field at pos (w bytes, big-endian if big; x now) gets v, and the
 * input is resized to resize bytes (0: not); an ordering test also gets
 * v + 1. */
static void affine_push(edits_t *E, const int_ctx_t *X, size_t pos, unsigned w, int big,
                        uint64_t x, uint64_t v, size_t resize, int conf)
{
    uint8_t nb[8];
    for (int k = 0; k < (X->ordering ? 2 : 1); k++, v++) {
        if (v > width_mask(w) || (v == x && !resize))
            continue;
        encode(v, w, big, nb);
        push_sized(E, (uint32_t)pos, w, nb, w, (uint32_t)resize, conf);
    }
}

/*
 * Operand p = a * field + b for a field of the input: the field gets
 * (rep - b) / a.  With the coloured run (have_c: it compared cp), a
 * position counts when the coloured field gives cp by the same a and b;
 * without it, only for a length check (rep is the input's length), when
 * the field is 2 bytes or wider and |b| is small: on a compressed or
 * binary input, unconfirmed guesses elsewhere tripled the stage's runs
 * for nothing (zlib, 100,000 runs).  When
 * rep is the input's length and a does not divide, the input is also cut
 * by the remainder (padded fields are rarer than cut payloads).
 */
static void affine_edits(edits_t *E, const int_ctx_t *X, uint64_t p, uint64_t rep, int have_c,
                         uint64_t cp)
{
    static const unsigned mul[] = {1, 2, 3, 4, 8, 16};
    static const unsigned widths[] = {2, 4, 8, 1};
    unsigned s = X->s;
    uint64_t m = width_mask(s);
    int64_t d;
    int rep_len = len_like(rep, s, X->full, &d) && X->full == X->len;
    size_t scan = X->len < FZ_CMPEDIT_AFFINE_SCAN ? X->len : FZ_CMPEDIT_AFFINE_SCAN;
    if (have_c && cp == p)
        return; /* the operand did not follow the input */
    size_t stop = have_c ? E->n + FZ_CMPEDIT_AFFINE_EDITS : SIZE_MAX;
    if (!have_c && !rep_len)
        return; /* unconfirmed guesses cost too much but for a length check */
    for (size_t wi = 0; wi < sizeof widths / sizeof widths[0]; wi++) {
        unsigned w = widths[wi];
        if (w > s || w > scan || (w == 1 && !have_c))
            continue;
        for (int big = 0; big < (w > 1 ? 2 : 1); big++) {
            for (size_t pos = 0; pos + w <= scan && E->n < stop; pos++) {
                uint64_t x = read_int(X->in + pos, w, big);
                uint64_t xc = have_c ? read_int(X->cin + pos, w, big) : 0;
                for (size_t ai = 0; ai < sizeof mul / sizeof mul[0]; ai++) {
                    uint64_t a = mul[ai];
                    uint64_t b = (p - a * x) & m;
                    int64_t sb = sext(b, s);
                    if (a == 1 && sb >= -1 && sb <= 1)
                        continue; /* a copy, or off by one: int_at's */
                    if (have_c ? ((cp - a * xc) & m) != b
                               : sb < -FZ_CMPEDIT_AFFINE_B || sb > FZ_CMPEDIT_AFFINE_B)
                        continue;
                    int64_t t = sext((rep - b) & m, s);
                    if (t < 0)
                        continue;
                    uint64_t q = (uint64_t)t / a, rem = (uint64_t)t % a;
                    if (!rem) {
                        affine_push(E, X, pos, w, big, x, q, 0, have_c);
                        continue;
                    }
                    /* rep is the length: cut the input by the remainder, or
                     * grow it to the next multiple (a minimum length may
                     * be checked before). */
                    if (!rep_len)
                        continue;
                    if (X->full - rem >= pos + w)
                        affine_push(E, X, pos, w, big, x, q, X->full - rem, have_c);
                    if (X->full + (a - rem) <= grow_limit(X->full))
                        affine_push(E, X, pos, w, big, x, q + 1, X->full + (a - rem), have_c);
                }
            }
        }
    }
}

/* v0 is the input's length, compared with the constant v1 (n < 8,
 * n != 64): cut the input, or pad it with zeros, to the length that makes
 * the comparison come out the other way.  Only the length itself: on
 * zlib, "within 64 of the length" matched a loop's bounds and cost 2,400
 * runs in 100,000 for nothing. */
static void len_edits(edits_t *E, const fz_cmp_rec_t *r, const int_ctx_t *X)
{
    int64_t d;
    if (!(r->attr & FZ_CMP_A_CONST) || (r->attr & FZ_CMP_A_SWITCH) || X->full != X->len ||
        !len_like(le_value(r->b0, X->s), X->s, X->full, &d) || d)
        return;
    int64_t want = sext(le_value(r->b1, X->s), X->s) - d;
    static const uint8_t none[1];
    for (int k = 0; k < (X->ordering ? 3 : 1); k++) {
        int64_t l = want + (k == 1) - (k == 2);
        if (l < 1 || l == (int64_t)X->full || (uint64_t)l > grow_limit(X->full))
            continue;
        push_sized(E, (uint32_t)X->full, 0, none, 0, (uint32_t)l, 0);
    }
}

/* A value computed over the input (a sum, an xor) that the program
 * compared with a constant or with a value it did not find in the input:
 * add the difference to a byte near the end (one whose value does not
 * wrap), or xor it in.  Only for records known to follow the input. */
static void adjust_edits(edits_t *E, const fz_cmp_rec_t *r, const int_ctx_t *X)
{
    unsigned s = X->s;
    if (X->ordering || (r->attr & FZ_CMP_A_SWITCH) || !X->len)
        return;
    for (int dir = 0; dir < ((r->attr & FZ_CMP_A_CONST) ? 1 : 2); dir++) {
        uint64_t p = le_value(dir ? r->b1 : r->b0, s), rep = le_value(dir ? r->b0 : r->b1, s);
        int64_t delta = sext((rep - p) & width_mask(s), s);
        uint64_t x = p ^ rep;
        /* Two values that fit a byte may be a sum kept in a byte and
         * widened to compare: then the difference counts mod 256. */
        int byte_sum = p <= 0xff && rep <= 0xff;
        for (size_t back = 1; back <= 4 && back <= X->len; back++) {
            size_t at = X->len - back;
            int64_t nv = (int64_t)X->in[at] + delta;
            if (byte_sum)
                nv &= 0xff;
            if (nv >= 0 && nv <= 255) {
                uint8_t b = (uint8_t)nv;
                push(E, (uint32_t)at, 1, &b, 1, 0);
                break;
            }
        }
        if (x && x <= 0xff) {
            uint8_t b = (uint8_t)(X->in[X->len - 1] ^ x);
            push(E, (uint32_t)(X->len - 1), 1, &b, 1, 0);
        }
    }
}

static void int_edits(edits_t *E, const fz_cmp_rec_t *r, const int_ctx_t *X, const fz_cmp_rec_t *c,
                      unsigned flags)
{
    const uint8_t *in = X->in, *cin = X->cin;
    size_t len = X->len;
    unsigned s = r->size;
    int ordering = X->ordering;
    if (s == 16) {
        /* Wider than any arithmetic here: the high halves must be zero
         * for the 8-byte forms; otherwise only the value as it is. */
        static const uint8_t zero[8];
        if (memcmp(r->b0 + 8, zero, 8) || memcmp(r->b1 + 8, zero, 8)) {
            for (int dir = 0; dir < 2; dir++) {
                const uint8_t *pat = dir ? r->b1 : r->b0, *rep = dir ? r->b0 : r->b1;
                for (size_t pos = 0; pos + 16 <= len; pos++)
                    if (!memcmp(in + pos, pat, 16))
                        push(E, (uint32_t)pos, 16, rep, 16, 0);
            }
            return;
        }
        s = 8;
    }
    int_ctx_t Y = *X;
    Y.s = s;
    static const unsigned widths[] = {8, 4, 2, 1};
    size_t start = E->n;
    int copied[2] = {0, 0}; /* the operand on that side was found as such */
    for (int dir = 0; dir < 2; dir++) {
        uint64_t p = le_value(dir ? r->b1 : r->b0, s), rep = le_value(dir ? r->b0 : r->b1, s);
        uint64_t cpv = c ? le_value(dir ? c->b1 : c->b0, s) : 0;
        if (p == rep && !ordering)
            continue;
        size_t before = E->n;
        for (size_t wi = 0; wi < sizeof widths / sizeof widths[0]; wi++) {
            unsigned w = widths[wi];
            if (w > s || !fits(p, s, w) || !fits(rep, s, w))
                continue;
            /* Off by one: the program compared input + d, so the input
             * holds p - d and must hold rep - d. */
            static const int64_t deltas[] = {0, 1, -1};
            for (int d = 0; d < 3; d++) {
                uint64_t pd = (p - (uint64_t)deltas[d]) & width_mask(w);
                uint64_t rd = (rep - (uint64_t)deltas[d]) & width_mask(w);
                uint64_t cd = (cpv - (uint64_t)deltas[d]) & width_mask(w);
                for (int big = 0; big < (w > 1 ? 2 : 1); big++)
                    int_at(E, in, len, cin, pd, rd, c ? &cd : NULL, w, big, ordering && !d);
            }
        }
        int_ascii(E, in, len, p, rep, s);
        copied[dir] = E->n > before;
    }
    len_edits(E, r, &Y);
    /* Not a copy of input bytes: a value computed over a range (the few
     * checksum adjustments go before the many guesses below), or a
     * transform of a field. */
    if (E->n == start && (flags & FZ_CMPEDIT_DRIVEN))
        adjust_edits(E, r, &Y);
    for (int dir = 0; dir < 2; dir++) {
        uint64_t p = le_value(dir ? r->b1 : r->b0, s), rep = le_value(dir ? r->b0 : r->b1, s);
        uint64_t cpv = c ? le_value(dir ? c->b1 : c->b0, s) : 0;
        if (!copied[dir] && p != rep && !(r->attr & FZ_CMP_A_SWITCH) &&
            !(dir == 1 && (r->attr & FZ_CMP_A_CONST)))
            affine_edits(E, &Y, p, rep, c != NULL, cpv);
    }
}

/* Longest prefix (at least min(n, 2) bytes) of pat that occurs in the
 * input: string operands may run past the input's end (a memcmp of 8
 * bytes at the last 3), or be cut at FZ_CMP_STR_MAX. */
static size_t match_prefix(const uint8_t *in, size_t len, const uint8_t *pat, size_t n,
                           int nocase, size_t *pos_out)
{
    size_t lo = n < 2 ? n : 2;
    for (size_t m = n; m >= lo && m > 0; m--) {
        if (!nocase) {
            const uint8_t *q = memmem(in, len, pat, m);
            if (q) {
                *pos_out = (size_t)(q - in);
                return m;
            }
            continue;
        }
        for (size_t pos = 0; pos + m <= len; pos++) {
            if (same_bytes(in + pos, pat, m, 1)) {
                *pos_out = pos;
                return m;
            }
        }
    }
    return 0;
}

static void str_edits(edits_t *E, const fz_cmp_rec_t *r, const uint8_t *in, size_t len)
{
    int nocase = (r->attr & FZ_CMP_A_NOCASE) != 0;
    if (fz_cmp_equal(r))
        return;
    if (r->attr & FZ_CMP_A_FIND) {
        /* strstr / memmem: v0 is (the start of) the haystack, v1 the
         * needle.  Put the needle where the haystack starts, and at both
         * ends of the input. */
        size_t nl = op_len(r, 1), hl = op_len(r, 0), pos = 0;
        if (!nl)
            return;
        size_t m = match_prefix(in, len, r->b0, hl < 8 ? hl : 8, 0, &pos);
        if (m) {
            push(E, (uint32_t)pos, 0, r->b1, nl, 0);
            push(E, (uint32_t)pos, (uint32_t)(nl < len - pos ? nl : len - pos), r->b1, nl, 0);
        }
        push(E, 0, 0, r->b1, nl, 0);
        push(E, (uint32_t)len, 0, r->b1, nl, 0);
        return;
    }
    for (int dir = 0; dir < 2; dir++) {
        const uint8_t *pat = dir ? r->b1 : r->b0, *rep = dir ? r->b0 : r->b1;
        size_t pl = op_len(r, dir), rl = op_len(r, !dir), first = 0;
        if (!pl || !rl)
            continue;
        size_t m = match_prefix(in, len, pat, pl, nocase, &first);
        if (!m)
            continue;
        unsigned found = 0;
        for (size_t pos = first; pos + m <= len && found < FZ_CMPEDIT_POS_MAX; pos++) {
            if (!same_bytes(in + pos, pat, m, nocase))
                continue;
            found++;
            size_t over = rl < len - pos ? rl : len - pos;
            push(E, (uint32_t)pos, (uint32_t)over, rep, rl, 0); /* overwrite */
            if (m != rl)
                push(E, (uint32_t)pos, (uint32_t)m, rep, rl, 0); /* replace the span */
        }
    }
}

/* Confirmed edits first, otherwise in the order made (as is before
 * byte-swapped, before off by one, before text). */
static void confirmed_first(fz_cmpedit_t *e, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (!e[i].confirmed)
            continue;
        fz_cmpedit_t t = e[i];
        memmove(e + k + 1, e + k, (i - k) * sizeof *e);
        e[k++] = t;
    }
}

size_t fz_cmpedit_make(const fz_cmp_rec_t *r, const uint8_t *in, size_t len,
                       const fz_cmp_rec_t *colour, const uint8_t *cin, unsigned flags,
                       fz_cmpedit_t *out, size_t cap)
{
    /* Gather more than asked, so confirmed edits found late still make
     * the cut. */
    size_t room = cap * 4;
    fz_cmpedit_t *all = malloc(room * sizeof *all);
    if (!all)
        return 0;
    edits_t E = {all, 0, room};
    if (colour && (colour->type != r->type || colour->size != r->size))
        colour = NULL;
    size_t full = len;
    if (len > FZ_CMPEDIT_SCAN_MAX)
        len = FZ_CMPEDIT_SCAN_MAX;
    if (r->type == FZ_CMP_INT) {
        int_ctx_t X = {in, colour ? cin : NULL, len, full, r->size,
                       !(r->attr & (FZ_CMP_A_EQ | FZ_CMP_A_SWITCH))};
        int_edits(&E, r, &X, colour, flags);
    } else if (r->type == FZ_CMP_STR)
        str_edits(&E, r, in, len);
    confirmed_first(all, E.n);
    size_t n = E.n < cap ? E.n : cap;
    memcpy(out, all, n * sizeof *out);
    free(all);
    return n;
}

size_t fz_cmpedit_apply(const uint8_t *in, size_t len, const fz_cmpedit_t *e, uint8_t *out,
                        size_t max)
{
    size_t pos = e->pos < len ? e->pos : len;
    size_t del = e->del < len - pos ? e->del : len - pos;
    size_t n = 0;
    size_t a = pos < max ? pos : max;
    memcpy(out, in, a);
    n = a;
    size_t b = e->ins_len < max - n ? e->ins_len : max - n;
    memcpy(out + n, e->ins, b);
    n += b;
    size_t tail = len - pos - del;
    size_t c = tail < max - n ? tail : max - n;
    memcpy(out + n, in + pos + del, c);
    n += c;
    if (e->resize) {
        size_t want = e->resize < max ? e->resize : max;
        if (want > n)
            memset(out + n, 0, want - n);
        n = want;
    }
    return n;
}

/* ---- dictionary tokens ------------------------------------------------ */

size_t fz_cmpedit_token(const fz_cmp_rec_t *r, int side, const uint8_t *in, size_t len,
                        uint8_t *tok)
{
    const uint8_t *b = side ? r->b1 : r->b0;
    size_t n = op_len(r, side);
    if (r->type == FZ_CMP_INT) {
        /* Only a constant: two variables compared may be pointers, whose
         * values change with every start (ASLR), and a token from them
         * would make two -s runs differ and help nothing. */
        if (side != 1 || !(r->attr & (FZ_CMP_A_CONST | FZ_CMP_A_SWITCH)))
            return 0;
        if (r->size == 16 && le_value(b + 8, 8))
            return 0; /* 128-bit constants are rare; keep the rule simple */
        uint64_t v = le_value(b, r->size);
        uint64_t all = width_mask(r->size < 8 ? r->size : 8);
        if (v <= 1 || v == all)
            return 0;
        n = v <= 0xffff ? 2 : v <= 0xffffffffull ? 4 : 8;
        encode(v, (unsigned)n, 0, tok);
        b = tok;
    }
    if (n < 2 || n > FZ_CMP_STR_MAX)
        return 0;
    size_t printable = 0, nonzero = 0, same = 1;
    for (size_t i = 0; i < n; i++) {
        printable += b[i] >= 0x20 && b[i] < 0x7f;
        nonzero += b[i] != 0;
        same &= b[i] == b[0];
    }
    if (nonzero < 2 || same)
        return 0;
    if (printable * 4 < n * 3 && nonzero * 2 < n)
        return 0;
    if (len && memmem(in, len, b, n))
        return 0;
    if (b != tok)
        memcpy(tok, b, n);
    return n;
}
