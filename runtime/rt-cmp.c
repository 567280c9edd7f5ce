/*
 * rt-cmp.c - the comparison log inside the target (include/fz-cmplog.h).
 *
 * Every comparison site the back ends instrument is compiled as
 *     if (__fz_cmp_on) __fz_cmp_<kind>(__fz_cmp_base + k, ...);
 * where __fz_cmp_on and __fz_cmp_base are internal to the module.  Each
 * module registers both with __fz_register_cmp() from its constructor (a
 * weak reference, like __fz_register) and is handed a base: consecutive
 * site ranges, so sites never share a slot until the program has more
 * than FZ_CMP_SITES of them (then slots wrap and sites share them).
 *
 * The flags are 0 except in a run the fuzzer marked: at the start of each
 * run (in the child right after fork, at every __AFL_LOOP pass, and at
 * start-up when there is no forkserver) the runtime copies the log's
 * `enabled` word into every module's flag, storing only when it changes.
 * So a run that is not logging pays one load and one not-taken branch per
 * comparison executed, and no call and no store.
 *
 * The hooks run in the fuzzed child, maybe in a signal handler or on
 * several threads at once: they only load and store (no libc, no locks),
 * are O(1) per call (a switch: O(its case count)), copy at most
 * FZ_CMP_STR_MAX bytes of an operand, and index the log with masked
 * values only, so a race can garble an entry but never write outside it.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/shm.h>

#include "fz-cmplog.h"
#include "fz-protocol.h"
#include "runtime/rt-cmp.h"

#define FZ_RT_EXPORT __attribute__((visibility("default")))

_Static_assert((FZ_CMP_SITES & (FZ_CMP_SITES - 1)) == 0, "FZ_CMP_SITES is a power of two");
_Static_assert((FZ_FS_NEW_OPT_FZ_CMPLOG & (FZ_FS_NEW_OPT_FZ_DIRECT | FZ_FS_NEW_OPT_MAPSIZE |
                                          FZ_FS_NEW_OPT_SHDMEM_FUZZ | FZ_FS_NEW_OPT_AUTODICT)) == 0,
               "the comparison-log bit is a bit of its own");
_Static_assert(FZ_CMP_STR_MAX <= 255, "fz_cmp_str_t lengths are one byte");

/* Modules whose flags the runtime sets; a program with more instrumented
 * modules works, but the extra ones are never logged. */
#define FZ_RT_MAX_CMP_MODULES 4096

static struct {
    int tried;        /* attach attempted (once per process) */
    fz_cmplog_t *log; /* the fuzzer's log, NULL when none */
    uint8_t logging;  /* this run logs (the log's enabled word at its start) */
    int vp_tried;     /* value profile looked at (once per process) */
    uint8_t *vp;      /* value profile's map region, NULL when off */
    uint32_t next;    /* sites handed out so far */
    uint8_t on;       /* what every registered flag holds now */
    uint32_t nmods;
    uint8_t *flags[FZ_RT_MAX_CMP_MODULES];
} rt_cmp;

/* Value profile (include/fz-cmplog.h): its region of the map, handed out
 * by __fz_register like a module's counters (so it is cleared, detached
 * and sized with them); scratch bytes until then and outside a fuzzer. */
static uint8_t vp_scratch[FZ_VP_SLOTS];
static uint8_t *vp_area = vp_scratch;
void __fz_register(uint8_t **area, uint32_t n);

static void vp_attach(void)
{
    if (rt_cmp.vp_tried)
        return;
    rt_cmp.vp_tried = 1;
    const char *v = getenv(FZ_ENV_VALUE_PROFILE);
    if (!v || strcmp(v, "1") != 0)
        return;
    __fz_register(&vp_area, FZ_VP_SLOTS);
    rt_cmp.vp = vp_area; /* the map's region, or scratch when it did not fit */
}

FZ_RT_EXPORT void __fz_register_cmp(uint8_t *flag, uint32_t *base, uint32_t n)
{
    vp_attach(); /* with the first module that has sites: before the handshake */
    *base = rt_cmp.next;
    rt_cmp.next += n;
    if (rt_cmp.nmods == FZ_RT_MAX_CMP_MODULES)
        return;
    rt_cmp.flags[rt_cmp.nmods++] = flag;
    /* A library loaded in the middle of a logging run logs from now on. */
    *flag = rt_cmp.on;
}

/* Attaches the log named by FZ_ENV_CMPLOG_SHM_ID, once, and only when some
 * module has sites to log.  A segment too small for fz_cmplog_t or of
 * another version is left alone: no log, no handshake bit, and the fuzzer
 * turns its stage off and says so. */
static void cmp_attach(void)
{
    if (rt_cmp.tried || rt_cmp.next == 0)
        return;
    rt_cmp.tried = 1;
    const char *id_str = getenv(FZ_ENV_CMPLOG_SHM_ID);
    if (!id_str || !*id_str)
        return;
    char *end;
    long id = strtol(id_str, &end, 10);
    struct shmid_ds ds;
    if (*end || id < 0 || shmctl((int)id, IPC_STAT, &ds) < 0 || ds.shm_segsz < sizeof(fz_cmplog_t))
        return;
    fz_cmplog_t *log = shmat((int)id, NULL, 0);
    if (log == (void *)-1)
        return;
    if (log->version != FZ_CMPLOG_VERSION) {
        shmdt(log);
        return;
    }
    rt_cmp.log = log;
}

int __fz_rt_cmp_ready(void)
{
    cmp_attach();
    return rt_cmp.log != NULL;
}

static void cmp_set(uint8_t on)
{
    if (on == rt_cmp.on)
        return;
    rt_cmp.on = on;
    for (uint32_t i = 0; i < rt_cmp.nmods; i++)
        *rt_cmp.flags[i] = on;
}

void __fz_rt_cmp_run_start(int fresh)
{
    cmp_attach();
    uint8_t on = rt_cmp.log && rt_cmp.log->enabled;
    /* Compares made before the run proper (a persistent harness's set-up
     * before its first pass) are not the input's. */
    if (on && fresh)
        memset(rt_cmp.log->used, 0, sizeof(rt_cmp.log->used));
    rt_cmp.logging = on;
    /* Value profile needs the hooks in every run. */
    cmp_set(on || rt_cmp.vp);
}

void __fz_rt_cmp_stop(void)
{
    rt_cmp.logging = 0;
    cmp_set(0);
}

/* One value-profile feature: site at distance d. */
static inline void vp_hit(uint32_t site, uint32_t d)
{
    uint8_t *vp = rt_cmp.vp;
    if (vp)
        vp[(site * FZ_VP_STRIDE + (d < FZ_VP_STRIDE ? d : FZ_VP_STRIDE - 1)) & (FZ_VP_SLOTS - 1)] = 1;
}

/* The block of this run for site in pool, and in *entry the pair this
 * call writes; NULL when not logging, when the site's slot holds a block
 * of another kind this run (a slot keeps the kind of its first call, so
 * two sites of different kinds that share a slot never mix entries), or
 * when the pool is full.  A site's first call in a run takes the next
 * block of its pool (include/fz-cmplog.h).  `calls` calls at once (a
 * switch's cases): their entries are *entry, *entry + 1, ... mod
 * FZ_CMP_PAIRS, as if each had come through here in turn. */
static fz_cmp_head_t *cmp_block_n(uint32_t site, uint32_t pool, uint32_t calls, uint32_t *entry)
{
    fz_cmplog_t *log = rt_cmp.log;
    if (!log || !rt_cmp.logging)
        return NULL;
    uint32_t s = site & (FZ_CMP_SITES - 1), p;
    fz_cmp_head_t *h = fz_cmplog_find(log, s, &p);
    if (!h) {
        uint32_t b = __atomic_fetch_add(&log->used[pool], 1, __ATOMIC_RELAXED);
        if (b >= fz_cmplog_cap(pool))
            return NULL;
        h = fz_cmplog_head(log, pool, b);
        h->site = (uint16_t)s;
        h->hits = 0;
        log->slot[s] = (uint16_t)(pool << 14 | b);
    } else if (p != pool) {
        return NULL;
    }
    uint32_t hits = h->hits;
    *entry = hits % FZ_CMP_PAIRS;
    h->hits = hits > UINT32_MAX - calls ? UINT32_MAX : hits + calls;
    return h;
}

/* One call's block: cmp_block_n for one call. */
static inline fz_cmp_head_t *cmp_block(uint32_t site, uint32_t pool, uint32_t *entry)
{
    return cmp_block_n(site, pool, 1, entry);
}

/* Logs one integer pair (16-byte operands as low and high halves; the
 * high halves are 0 for narrower ones) with info as the hooks take it. */
static inline void cmp_log_int(uint32_t site, uint64_t v0, uint64_t v0_hi, uint64_t v1,
                               uint64_t v1_hi, uint32_t info)
{
    vp_hit(site, (uint32_t)(__builtin_popcountll(v0 ^ v1) + __builtin_popcountll(v0_hi ^ v1_hi)));
    uint32_t e, wide = (uint8_t)info == 16;
    fz_cmp_head_t *h = cmp_block(site, wide ? FZ_CMP_POOL_WIDE : FZ_CMP_POOL_INT, &e);
    if (!h)
        return;
    h->size = (uint8_t)info;
    h->attr = (uint8_t)(info >> 8);
    if (wide) {
        fz_cmp_wide_t *op = &((fz_cmp_wblock_t *)h)->p[e];
        op->v0 = v0;
        op->v1 = v1;
        op->v0_hi = v0_hi;
        op->v1_hi = v1_hi;
    } else {
        fz_cmp_pair_t *op = &((fz_cmp_iblock_t *)h)->p[e];
        op->v0 = v0;
        op->v1 = v1;
    }
}

/* An integer comparison of info & 0xff bytes (1, 2, 4, 8) with attributes
 * info >> 8 (FZ_CMP_A_*); operands zero-extended from that width. */
FZ_RT_EXPORT void __fz_cmp_int(uint32_t site, uint64_t v0, uint64_t v1, uint32_t info)
{
    cmp_log_int(site, v0, 0, v1, 0, info);
}

/* A 16-byte integer comparison, each operand as low and high halves. */
FZ_RT_EXPORT void __fz_cmp_int128(uint32_t site, uint64_t v0, uint64_t v0_hi, uint64_t v1,
                                  uint64_t v1_hi, uint32_t info)
{
    cmp_log_int(site, v0, v0_hi, v1, v1_hi, info);
}

/* A switch on v (size bytes) with n case values: case i is logged as the
 * pair (v, cases[i]) in slot site + i / FZ_CMP_PAIRS, so one execution of
 * the switch fills the slots the module reserved for it with every case. */
FZ_RT_EXPORT void __fz_cmp_switch(uint32_t site, uint64_t v, const uint64_t *cases, uint32_t n,
                                  uint32_t size)
{
    uint32_t info = size | (FZ_CMP_A_CONST | FZ_CMP_A_SWITCH | FZ_CMP_A_EQ) << 8;
    if ((uint8_t)size == 16) { /* not made by the back ends: case by case */
        for (uint32_t i = 0; i < n; i++)
            cmp_log_int(site + i / FZ_CMP_PAIRS, v, 0, cases[i], 0, info);
        return;
    }
    /* An interpreter's dispatch switch runs its ~100 cases per instruction:
     * one block look-up per FZ_CMP_PAIRS cases, not per case. */
    for (uint32_t g = 0; g < n; g += FZ_CMP_PAIRS) {
        uint32_t m = n - g < FZ_CMP_PAIRS ? n - g : FZ_CMP_PAIRS, s = site + g / FZ_CMP_PAIRS, e;
        if (rt_cmp.vp)
            for (uint32_t k = 0; k < m; k++)
                vp_hit(s, (uint32_t)__builtin_popcountll(v ^ cases[g + k]));
        fz_cmp_head_t *h = cmp_block_n(s, FZ_CMP_POOL_INT, m, &e);
        if (!h)
            continue;
        h->size = (uint8_t)info;
        h->attr = (uint8_t)(info >> 8);
        fz_cmp_pair_t *p = ((fz_cmp_iblock_t *)h)->p;
        for (uint32_t k = 0; k < m; k++, e = (e + 1) % FZ_CMP_PAIRS) {
            p[e].v0 = v;
            p[e].v1 = cases[g + k];
        }
    }
}

/* Copies up to FZ_CMP_STR_MAX bytes of an operand the real function may
 * read up to n bytes of, stopping after a NUL for strings (strz). */
static uint8_t cmp_copy(uint8_t *dst, const uint8_t *src, size_t n, int strz)
{
    size_t max = n < FZ_CMP_STR_MAX ? n : FZ_CMP_STR_MAX, i;
    if (!src)
        return 0;
    for (i = 0; i < max; i++) {
        if (strz && src[i] == 0)
            break;
        dst[i] = src[i];
    }
    return (uint8_t)i;
}

/* A string or memory comparison: a and b as passed (s1 / haystack, s2 /
 * needle); the real function may read n0 bytes of a and n1 of b (SIZE_MAX
 * for NUL-terminated strings, whose end is the NUL); attr is FZ_CMP_A_*. */
FZ_RT_EXPORT void __fz_cmp_mem(uint32_t site, const void *a, const void *b, size_t n0, size_t n1,
                               uint32_t attr)
{
    if (rt_cmp.vp && a && b) {
        /* Equal leading bytes, read no further than the function may. */
        const uint8_t *x = a, *y = b;
        size_t n = n0 < n1 ? n0 : n1, i = 0;
        if (n > FZ_VP_STRIDE - 1)
            n = FZ_VP_STRIDE - 1;
        int strz = (attr & FZ_CMP_A_STRZ) != 0;
        while (i < n && x[i] == y[i] && !(strz && x[i] == 0))
            i++;
        vp_hit(site, (uint32_t)i);
    }
    uint32_t e;
    fz_cmp_head_t *h = cmp_block(site, FZ_CMP_POOL_STR, &e);
    if (!h)
        return;
    h->size = 0;
    h->attr = (uint8_t)attr;
    fz_cmp_str_t *op = &((fz_cmp_sblock_t *)h)->p[e];
    int strz = (attr & FZ_CMP_A_STRZ) != 0;
    op->len0 = cmp_copy(op->v0, a, n0, strz);
    op->len1 = cmp_copy(op->v1, b, n1, strz);
}
